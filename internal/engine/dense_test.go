package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/testgraphs"
)

// spider is an undirected graph: a hub (vertex 0, the largest degree) with
// one arm a list of edge weights; further spiders are added as separate
// components (pairs between them unreachable).
func spider(t testing.TB, components ...[][]int64) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(false)
	next := 0
	for _, arms := range components {
		hub := next
		next++
		for _, arm := range arms {
			prev := hub
			for _, w := range arm {
				if err := b.AddIntEdge(prev, next, w); err != nil {
					t.Fatal(err)
				}
				prev = next
				next++
			}
		}
	}
	return b.Build()
}

// repeat is an arm of k edges of weight w.
func repeat(k int, w int64) []int64 {
	a := make([]int64, k)
	for i := range a {
		a[i] = w
	}
	return a
}

// directedCycle is the one-way cycle 0→1→…→n−1→0 of unit arcs.
func directedCycle(t testing.TB, n int) *graph.Graph {
	b := graph.NewBuilder(true)
	for i := 0; i < n; i++ {
		if err := b.AddIntEdge(i, (i+1)%n, 1); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func directedPath(t testing.TB, n int) *graph.Graph {
	b := graph.NewBuilder(true)
	for i := 0; i+1 < n; i++ {
		if err := b.AddIntEdge(i, i+1, 1); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// bidirected is g as a directed graph with both arcs of every edge.
func bidirected(t testing.TB, g *graph.Graph) *graph.Graph {
	b := graph.NewBuilder(true)
	for u := 0; u < g.N(); u++ {
		for i, v := range g.Neighbors(u) {
			if err := b.AddIntEdge(u, int(v), g.ArcInt(u, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.Build()
}

func regular(t testing.TB, n, d int) *graph.Graph {
	g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), fmt.Sprintf("d=%d", d), "seed=5")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// reference is the oracle's matrix in int64 lanes.
func reference(t testing.TB, g *graph.Graph) *lanes.Matrix[int64] {
	t.Helper()
	m, err := lanes.NewMatrix[int64](g, g.N())
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.FloydWarshall(context.Background(), m, nil, nil); err != nil {
		t.Fatal(err)
	}
	return m
}

// sameAs compares a result with the reference entry by entry.
func sameAs(got lanes.Any, want *lanes.Matrix[int64]) error {
	for u := 0; u < want.N; u++ {
		for v := 0; v < want.N; v++ {
			d, ok := got.Int(u, v)
			w := want.At(u, v)
			if ok != (w != want.Inf) || (ok && d != w) {
				return fmt.Errorf("d(%d,%d) = %d (reachable %v), want %d (reachable %v)", u, v, d, ok, w, w != want.Inf)
			}
		}
	}
	return nil
}

// runIn runs the fw and blocked engines on g in lanes k and compares each
// with the reference.
func runIn(t *testing.T, g *graph.Graph, lp lanes.Plan, k lanes.Kind, want *lanes.Matrix[int64]) {
	t.Helper()
	for _, e := range []Engine{fw{}, blocked{}} {
		for _, tile := range []int{0, 16, 64} {
			p := &Problem{Graph: g, Plan: lp, Lanes: k, Threads: 2, Tile: tile}
			r, err := e.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s in %v (tile %d): %v", e.Name(), k, tile, err)
			}
			if r.Matrix.Kind() != k {
				t.Fatalf("%s: ran in %v, asked %v", e.Name(), r.Matrix.Kind(), k)
			}
			if err := sameAs(r.Matrix, want); err != nil {
				t.Fatalf("%s in %v (tile %d): %v", e.Name(), k, tile, err)
			}
			if e.Name() == "fw" {
				break // the oracle has no tiles
			}
		}
	}
}

// TestPackedLanesAtTheEdge: graphs whose distances sit at the edge of int8
// (62 fits, 63 and 64 do not) and int16 (16 382 fits, 16 383 and 16 384 do
// not), with zero-weight edges and unreachable pairs, and graphs whose
// simple paths are longer than any distance: the planner picks the
// narrowest lanes the proven bound allows for fw and blocked, and every
// lane it allows gives the reference's distances.
func TestPackedLanesAtTheEdge(t *testing.T) {
	zeroArm := append(repeat(31, 1), 0, 0, 0) // length 31 with zero-weight edges
	tests := []struct {
		name string
		g    *graph.Graph
		want lanes.Kind // Narrowest of the fw engines' lanes
	}{
		{"diameter 62", spider(t, [][]int64{repeat(31, 1), repeat(31, 1), {1}}), lanes.Int8},
		{"diameter 63", spider(t, [][]int64{repeat(32, 1), repeat(31, 1), {1}}), lanes.Int16},
		{"diameter 64", spider(t, [][]int64{repeat(32, 1), repeat(32, 1), {1}}), lanes.Int16},
		{"diameter 62, zero weights", spider(t, [][]int64{zeroArm, zeroArm, {0, 0}}), lanes.Int8},
		{"diameter 62, unreachable pairs", spider(t, [][]int64{repeat(31, 1), repeat(31, 1), {1}}, [][]int64{repeat(20, 1), repeat(30, 1), {2}}), lanes.Int8},
		{"diameter 63 in the second component", spider(t, [][]int64{repeat(3, 1), {1}, {1}}, [][]int64{repeat(32, 1), repeat(31, 1), {1}}), lanes.Int16},
		{"diameter 16382", spider(t, [][]int64{{8000, 191}, {8000, 191}, {1}}), lanes.Int16},
		{"diameter 16383", spider(t, [][]int64{{8000, 192}, {8000, 191}, {1}}), lanes.Int32},
		{"diameter 16384", spider(t, [][]int64{{8000, 192}, {8000, 192}, {1}}), lanes.Int32},
		{"diameter 16382, zero weights and unreachable pairs", spider(t, [][]int64{{0, 8191, 0}, {8191, 0}, {0}}, [][]int64{{5}}), lanes.Int16},
		{"directed cycle 33 (simple paths of 32 at most)", directedCycle(t, 33), lanes.Int8},
		{"directed cycle 64 (bound 63+63)", directedCycle(t, 64), lanes.Int16},
		{"two-way spider, diameter 62 (bound 31+31)", bidirected(t, spider(t, [][]int64{repeat(31, 1), repeat(31, 1), {1}})), lanes.Int8},
		{"two-way spider, diameter 63", bidirected(t, spider(t, [][]int64{repeat(32, 1), repeat(31, 1), {1}})), lanes.Int16},
		{"directed path 63 (not strongly connected: bound n-1)", directedPath(t, 63), lanes.Int8},
		{"directed path 64", directedPath(t, 64), lanes.Int16},
		{"unweighted spider, diameter 200", spider(t, [][]int64{repeat(100, 1), repeat(100, 1)}).Unweighted(), lanes.Int16},
		{"unweighted random 3-regular graph of 300 vertices", regular(t, 300, 3), lanes.Int8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lp, err := lanes.PlanFor(tt.g)
			if err != nil {
				t.Fatal(err)
			}
			lp = lp.Tighten(tt.g)
			got, err := lp.Narrowest(fwLanes...)
			if err != nil || got != tt.want {
				t.Fatalf("Narrowest = %v, %v; want %v (MaxReal %d, MaxDist %d)", got, err, tt.want, lp.MaxReal, lp.MaxDist)
			}
			want := reference(t, tt.g)
			for _, k := range []lanes.Kind{lanes.Int8, lanes.Int16, lanes.Int32, lanes.Int64} {
				if lp.Holds(k) != nil {
					if k.Bytes() >= got.Bytes() {
						t.Fatalf("%v refused but wider than the narrowest %v", k, got)
					}
					continue
				}
				runIn(t, tt.g, lp, k, want)
			}
		})
	}
}

// TestNarrowRunWouldBeWrong shows that the refusals above matter: the
// blocked engine forced into int8 lanes on a graph with a distance of 63
// (infinity) reports that pair unreachable.
func TestNarrowRunWouldBeWrong(t *testing.T) {
	g := spider(t, [][]int64{repeat(32, 1), repeat(31, 1), {1}})
	lp, _ := lanes.PlanFor(g)
	lp = lp.Tighten(g)
	if err := lp.Holds(lanes.Int8); !errors.Is(err, lanes.ErrWeightsTooLarge) {
		t.Fatalf("Holds(int8) = %v, want ErrWeightsTooLarge", err)
	}
	r, err := blocked{}.Run(context.Background(), &Problem{Graph: g, Plan: lp, Lanes: lanes.Int8, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := sameAs(r.Matrix, reference(t, g)); err == nil {
		t.Fatal("int8 lanes gave every distance of a graph of diameter 63: the test graph does not reach the edge")
	}
}

// TestPackedLanesRandom is the differential test of every lane width on
// random graphs near each width's edge: undirected and directed, unit or
// small weights with zeros, some disconnected. Every kind the plan holds
// must give the reference's distances through both engines; the narrowest
// one is what the planner picks.
func TestPackedLanesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 3))
	picked := map[lanes.Kind]int{}
	for i := range 60 {
		n := 40 + rng.IntN(120)
		directed := i%3 == 0
		// A sparse random graph whose weight scale sets its distances
		// around 62 or 16 382.
		scale := []int64{1, 3, 8, 300, 1200}[i%5]
		arcs := n + rng.IntN(2*n)
		if i%7 == 0 {
			arcs = n / 2 // disconnected
		}
		g := testgraphs.Random(rng, testgraphs.Spec{N: n, M: arcs, Directed: directed, Kind: graph.IntWeights, Lo: 0, Hi: scale})
		lp, err := lanes.PlanFor(g)
		if err != nil {
			t.Fatal(err)
		}
		lp = lp.Tighten(g)
		want := reference(t, g)
		k, err := lp.Narrowest(fwLanes...)
		if err != nil {
			t.Fatal(err)
		}
		picked[k]++
		for _, k := range []lanes.Kind{lanes.Int8, lanes.Int16, lanes.Int32, lanes.Int64} {
			if lp.Holds(k) == nil {
				runIn(t, g, lp, k, want)
			}
		}
	}
	if picked[lanes.Int8] == 0 || picked[lanes.Int16] == 0 {
		t.Errorf("the random graphs reached too few widths: %v", picked)
	}
	t.Logf("narrowest picked: %v", picked)
}

// TestPackedLanesRefuseNegative: negative weights stay on signed lanes of
// 32 bits or more whatever their span.
func TestPackedLanesRefuseNegative(t *testing.T) {
	b := graph.NewBuilder(true)
	for i := 0; i < 5; i++ {
		if err := b.AddIntEdge(i, i+1, int64(1-2*(i%2))); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	lp, _ := lanes.PlanFor(g)
	lp = lp.Tighten(g)
	for _, k := range []lanes.Kind{lanes.Int8, lanes.Int16} {
		if err := lp.Holds(k); !errors.Is(err, lanes.ErrNoKind) {
			t.Errorf("Holds(%v) with negative weights = %v, want ErrNoKind", k, err)
		}
	}
	if k, err := lp.Narrowest(fwLanes...); err != nil || k != lanes.Int32 {
		t.Errorf("Narrowest = %v, %v; want int32", k, err)
	}
}
