package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

func bitProblem(t testing.TB, g *graph.Graph) *Problem {
	t.Helper()
	plan, err := lanes.PlanFor(g)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Graph: g, Plan: plan, Lanes: lanes.Int32, Threads: 2}
}

func pathGraph(t testing.TB, n int) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(false)
	if err := b.SetVertices(n); err != nil {
		t.Fatal(err)
	}
	for v := 0; v+1 < n; v++ {
		if err := b.AddEdge(v, v+1); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// TestBitEngineCaps: gpu-bitbfs takes unweighted graphs only and says why.
func TestBitEngineCaps(t *testing.T) {
	e, ok := ByName("gpu-bitbfs")
	if !ok {
		t.Fatal("no engine gpu-bitbfs")
	}
	c := e.Caps()
	if c.Device != GPU || c.Weights != Unweighted || !c.Rows || !c.Hist {
		t.Fatalf("caps %+v", c)
	}
	weighted := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 5) })
	p := bitProblem(t, weighted)
	if err := Check(e, weighted, p.Plan); !errors.Is(err, ErrNeedsUnweighted) {
		t.Fatalf("weighted graph: %v, want ErrNeedsUnweighted", err)
	}
}

// TestBitEstimate: the cost model grows with the graph, charges a graph of
// long paths for its levels, and AutoGPUFor takes gpu-bitbfs only for
// unweighted graphs large enough that it beats Floyd–Warshall.
func TestBitEstimate(t *testing.T) {
	regular := func(n, d int) *graph.Graph {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), fmt.Sprintf("d=%d", d), "seed=3")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	e := BitEngine()
	// The GPU's start (which depends on whether a test opened it) is in
	// every estimate: compare what comes on top of a one-vertex graph's.
	base := e.Estimate(bitProblem(t, pathGraph(t, 1)))
	est := func(g *graph.Graph) float64 { return e.Estimate(bitProblem(t, g)) - base }
	small, large := est(regular(4096, 8)), est(regular(32768, 8))
	if !(0 < small && small < large) {
		t.Errorf("estimate %g s for 4096 vertices, %g s for 32768", small, large)
	}
	// A path and a random 3-regular graph of as many vertices: the path's
	// 8192 levels cost it far more than the other's dozen or so.
	path, cubic := est(pathGraph(t, 8192)), est(regular(8192, 3))
	if !(path > 10*cubic) {
		t.Errorf("estimate %g s for a path of 8192 vertices, %g s for a random 3-regular graph", path, cubic)
	}
	weighted := build(t, false, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 5) })
	tests := []struct {
		name string
		g    *graph.Graph
		want string
	}{
		{"weighted", weighted, AutoGPU(2).Name()},
		{"tiny unweighted", regular(64, 4), AutoGPU(64).Name()},
		{"large unweighted", regular(16384, 8), "gpu-bitbfs"},
	}
	for _, tt := range tests {
		if got, _ := AutoGPUFor(bitProblem(t, tt.g)); got.Name() != tt.want {
			t.Errorf("%s: AutoGPUFor = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestBitEngineMatchesBitbfs runs gpu-bitbfs through the engine interface
// (Rows, Brief, Hist, Run) against the CPU's bitbfs on random graphs and a path;
// it needs a GPU (APSP_REQUIRE_GPU=1 fails without one).
func TestBitEngineMatchesBitbfs(t *testing.T) {
	if _, err := Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	var gs []*graph.Graph
	for i := range 12 {
		n := 1 + rng.IntN(1500)
		gs = append(gs, testgraphs.Random(rng, testgraphs.Spec{N: n, M: n * (1 + i%4), Directed: i%2 == 0}))
	}
	gs = append(gs, pathGraph(t, 300))
	gpuE, cpuE := BitEngine(), bfsEngine{bitParallel: true}
	for i, g := range gs {
		p := bitProblem(t, g)
		if err := gpuE.Supports(p); err != nil {
			t.Fatal(err)
		}
		want, _, err := cpuE.Rows(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		got, dev, err := gpuE.(RowReducer).Rows(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if dev == "" || !slices.EqualFunc(got, want, reduce.Same) {
			t.Fatalf("graph %d (n=%d): rows differ from bitbfs (device %q)", i, g.N(), dev)
		}
		wantB, _, err := cpuE.Brief(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		gotB, dev, err := gpuE.(BriefReducer).Brief(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if dev == "" || !slices.Equal(gotB.Ecc, wantB.Ecc) || !slices.Equal(gotB.Reach, wantB.Reach) || gotB.Sum != wantB.Sum || gotB.Pairs != wantB.Pairs {
			t.Fatalf("graph %d (n=%d): Brief differs from bitbfs's (device %q)", i, g.N(), dev)
		}
		gotT, dev, err := gpuE.(TotalsReducer).Totals(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		wantT := reduce.TotalsOf(want, true)
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
		if dev == "" || !slices.Equal(gotT.Reach, wantT.Reach) || !slices.Equal(gotT.Sum, wantT.Sum) || !slices.EqualFunc(gotT.Harm, wantT.Harm, near) {
			t.Fatalf("graph %d (n=%d): Totals differ from bitbfs's rows (device %q)", i, g.N(), dev)
		}
		wantH, err := cpuE.Hist(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		gotH, err := gpuE.(Histogrammer).Hist(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(gotH, wantH) {
			t.Fatalf("graph %d: histogram %v, want %v", i, gotH, wantH)
		}
		wantM, err := cpuE.Run(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		gotM, err := gpuE.Run(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		a, b := gotM.Matrix.(*lanes.Matrix[int32]), wantM.Matrix.(*lanes.Matrix[int32])
		if a.Inf != b.Inf || !slices.Equal(a.Data, b.Data) {
			t.Fatalf("graph %d: the matrix differs from bitbfs's", i)
		}
	}
}
