package apsp_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

func generate(t *testing.T, kind string, args ...string) *graph.Graph {
	t.Helper()
	s, err := gen.ParseSpec(kind, args)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gen.Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestKnownAnswers checks every engine on graphs whose measures are known in
// closed form.
func TestKnownAnswers(t *testing.T) {
	tests := []struct {
		name     string
		g        func(t *testing.T) *graph.Graph
		diameter int64
		radius   int64
		aspl     float64
	}{
		{"petersen", func(t *testing.T) *graph.Graph { return generate(t, "petersen") }, 2, 2, 15.0 / 9},
		{"Q5", func(t *testing.T) *graph.Graph { return generate(t, "hypercube", "d=5") }, 5, 5, 5 * 16.0 / 31},
		{"C9", func(t *testing.T) *graph.Graph { return generate(t, "cycle", "n=9") }, 4, 4, 20.0 / 8},
		{"C10", func(t *testing.T) *graph.Graph { return generate(t, "cycle", "n=10") }, 5, 5, 25.0 / 9},
		{"grid 7x5", func(t *testing.T) *graph.Graph { return generate(t, "grid", "a=7", "b=5") }, 10, 5, math.NaN()},
		{"K12", func(t *testing.T) *graph.Graph { return generate(t, "complete", "n=12") }, 1, 1, 1},
		{"P20", func(t *testing.T) *graph.Graph { return generate(t, "path", "n=20") }, 19, 10, 21.0 / 3},
		{"directed C7", func(t *testing.T) *graph.Graph { return generate(t, "cycle", "n=7", "directed") }, 6, 6, 3.5},
		{"torus 6x8", func(t *testing.T) *graph.Graph { return generate(t, "torus", "a=6", "b=8") }, 7, 7, math.NaN()},
	}
	for _, tt := range tests {
		g := tt.g(t)
		for _, algo := range cpuAlgorithms() {
			if !supported(algo, g) {
				continue
			}
			for _, tile := range []int{0, 16} {
				t.Run(fmt.Sprintf("%s/%s/tile=%d", tt.name, algo, tile), func(t *testing.T) {
					s, err := apsp.ComputeStats(context.Background(), g, apsp.Options{Algorithm: algo, Tile: tile})
					if err != nil {
						t.Fatal(err)
					}
					if !s.Connected || s.Diameter.Int() != tt.diameter || s.Radius.Int() != tt.radius {
						t.Fatalf("connected %v diameter %v radius %v, want true %d %d", s.Connected, s.Diameter, s.Radius, tt.diameter, tt.radius)
					}
					if !math.IsNaN(tt.aspl) && math.Abs(float64(s.ASPL)-tt.aspl) > 1e-12 {
						t.Fatalf("aspl %v, want %v", s.ASPL, tt.aspl)
					}
				})
			}
		}
	}
}

// TestHandWorked checks small weighted graphs worked out by hand.
func TestHandWorked(t *testing.T) {
	build := func(directed bool, edges [][3]float64, float bool) *graph.Graph {
		b := graph.NewBuilder(directed)
		for _, e := range edges {
			var err error
			if float {
				err = b.AddFloatEdge(int(e[0]), int(e[1]), e[2])
			} else {
				err = b.AddIntEdge(int(e[0]), int(e[1]), int64(e[2]))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	tests := []struct {
		name string
		g    *graph.Graph
		u, v int
		want string
		path []int
		ecc0 string
		diam string
	}{
		// 0-1 (2), 1-2 (1), 0-2 (5), 2-3 (3), 3-4 (1): 0→4 = 2+1+3+1.
		{"weighted undirected", build(false, [][3]float64{{0, 1, 2}, {1, 2, 1}, {0, 2, 5}, {2, 3, 3}, {3, 4, 1}}, false),
			0, 4, "7", []int{0, 1, 2, 3, 4}, "7", "7"},
		// A directed triangle with a negative arc: 0→1 (4), 1→2 (-2), 2→0 (1), 0→2 (3): 0→2 = 2 via 1.
		{"negative arc", build(true, [][3]float64{{0, 1, 4}, {1, 2, -2}, {2, 0, 1}, {0, 2, 3}}, false),
			0, 2, "2", []int{0, 1, 2}, "4", "5"},
		// Floats: 0→1 (0.5), 1→2 (0.25), 0→2 (1), 2→0 (0.125): 0→2 = 0.75, the largest.
		{"float", build(true, [][3]float64{{0, 1, 0.5}, {1, 2, 0.25}, {0, 2, 1}, {2, 0, 0.125}}, true),
			0, 2, "0.75", []int{0, 1, 2}, "0.75", "0.75"}, // the largest is d(0,2)
	}
	for _, tt := range tests {
		for _, algo := range cpuAlgorithms() {
			if !supported(algo, tt.g) {
				continue
			}
			t.Run(tt.name+"/"+algo, func(t *testing.T) {
				ctx := context.Background()
				p, err := apsp.ShortestPath(ctx, tt.g, tt.u, tt.v, apsp.Options{Algorithm: algo})
				if err != nil {
					t.Fatal(err)
				}
				if p.Length.String() != tt.want || fmt.Sprint(p.Vertices) != fmt.Sprint(tt.path) {
					t.Fatalf("path %v length %v, want %v length %s", p.Vertices, p.Length, tt.path, tt.want)
				}
				ecc, err := apsp.Eccentricities(ctx, tt.g, apsp.Options{Algorithm: algo})
				if err != nil {
					t.Fatal(err)
				}
				if ecc[0].String() != tt.ecc0 {
					t.Fatalf("ecc(0) = %v, want %s", ecc[0], tt.ecc0)
				}
				s, err := apsp.ComputeStats(ctx, tt.g, apsp.Options{Algorithm: algo})
				if err != nil {
					t.Fatal(err)
				}
				if s.Diameter.String() != tt.diam {
					t.Fatalf("diameter %v, want %s", s.Diameter, tt.diam)
				}
			})
		}
	}
}

// TestReachableSemantics pins down the disconnected-graph rules.
func TestReachableSemantics(t *testing.T) {
	// Directed: 0→1→2, plus isolated 3.
	b := graph.NewBuilder(true)
	for _, e := range [][2]int{{0, 1}, {1, 2}} {
		if err := b.AddEdge(e[0], e[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.SetVertices(4); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	ctx := context.Background()
	s, err := apsp.ComputeStats(ctx, g, apsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Connected || !s.Diameter.IsInf() || !s.Radius.IsInf() || !s.ASPL.IsInf() || s.ReachablePairs != 3 {
		t.Fatalf("without reachable: %+v", s)
	}
	s, err = apsp.ComputeStats(ctx, g, apsp.Options{Reachable: true})
	if err != nil {
		t.Fatal(err)
	}
	// Pairs: 0→1 (1), 0→2 (2), 1→2 (1): diameter 2, ASPL 4/3; eccentricities
	// over reachable vertices: 2, 1, 0, 0, so the radius is 0.
	if s.Diameter.Int() != 2 || math.Abs(float64(s.ASPL)-4.0/3) > 1e-15 || s.Radius.Int() != 0 || s.ReachablePairs != 3 {
		t.Fatalf("with reachable: %+v", s)
	}
	if _, err := apsp.ComputeStats(ctx, graph.NewBuilder(false).Build(), apsp.Options{}); err == nil {
		t.Fatal("empty graph: want an error")
	}
}

// cpuAlgorithms are the engines every machine has; the GPU engines have
// their own tests, which skip without a GPU.
func cpuAlgorithms() []string {
	var names []string
	for _, a := range apsp.Algorithms() {
		if a.Device == "cpu" {
			names = append(names, a.Name)
		}
	}
	return append(names, "auto")
}

// supported reports whether engine algo takes g ("auto" takes everything).
func supported(algo string, g *graph.Graph) bool {
	if algo == "auto" {
		return true
	}
	return apsp.Supports(g, apsp.Options{Algorithm: algo}) == nil
}

// TestNegativeASPL checks the exact sum of negative distances.
func TestNegativeASPL(t *testing.T) {
	b := graph.NewBuilder(true)
	for _, e := range [][2]int{{0, 1}, {1, 2}} {
		if err := b.AddIntEdge(e[0], e[1], -1); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	for _, algo := range []string{"fw", "blocked", "johnson", "auto"} {
		s, err := apsp.ComputeStats(context.Background(), g, apsp.Options{Algorithm: algo, Reachable: true})
		if err != nil {
			t.Fatal(err)
		}
		// Pairs 0→1 (−1), 1→2 (−1), 0→2 (−2): ASPL −4/3, diameter −1;
		// eccentricities −1, −1 and 0 (vertex 2 reaches nobody): radius −1.
		if math.Abs(float64(s.ASPL)+4.0/3) > 1e-15 || s.Diameter.Int() != -1 || s.Radius.Int() != -1 {
			t.Fatalf("%s: aspl %v diameter %v radius %v", algo, s.ASPL, s.Diameter, s.Radius)
		}
	}
}
