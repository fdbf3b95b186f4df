package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// sparseProblem plans g for an engine as the planner does: the narrowest
// of its lanes the plan allows.
func sparseProblem(t testing.TB, e Engine, g *graph.Graph) *Problem {
	t.Helper()
	plan, err := lanes.PlanFor(g)
	if err != nil {
		t.Fatal(err)
	}
	k, err := plan.Narrowest(e.Caps().Lanes...)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Graph: g, Plan: plan, Lanes: k, Threads: 2}
}

// TestSparseEngineCaps: gpu-sssp and gpu-minplus take every weight kind,
// refuse negative arcs by their caps, compute float graphs in float32 and
// integer graphs in int32; auto may pick gpu-sssp, never gpu-minplus.
func TestSparseEngineCaps(t *testing.T) {
	for _, name := range []string{"gpu-sssp", "gpu-minplus"} {
		e, ok := ByName(name)
		if !ok {
			t.Fatalf("no engine %s", name)
		}
		c := e.Caps()
		if c.Device != GPU || c.Weights != AnyWeights || c.Negative || !c.Rows || c.Auto != (name == "gpu-sssp") {
			t.Fatalf("%s: caps %+v", name, c)
		}
		neg := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, -2) })
		plan, err := lanes.PlanFor(neg)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(e, neg, plan); err == nil {
			t.Errorf("%s: a negative arc passed Check", name)
		}
		for _, c := range []struct {
			g    *graph.Graph
			want lanes.Kind
		}{
			{build(t, false, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 7) }), lanes.Int32},
			{build(t, false, func(b *graph.Builder) error { return b.AddFloatEdge(0, 1, 0.25) }), lanes.Float32},
			{build(t, false, func(b *graph.Builder) error { return b.AddEdge(0, 1) }), lanes.Int32},
		} {
			if p := sparseProblem(t, e, c.g); p.Lanes != c.want {
				t.Errorf("%s: %s graph in %s lanes, want %s", name, c.g.Kind(), p.Lanes, c.want)
			}
		}
		// Lengths whose paths int32 cannot hold are refused, not wrapped.
		big := build(t, false, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 1<<40) })
		bp, err := lanes.PlanFor(big)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(e, big, bp); err == nil || errors.Is(err, lanes.ErrWeightsTooLarge) {
			t.Errorf("%s: lengths of 2^40: %v", name, err)
		}
	}
}

// TestSparseEstimates: gpu-sssp's estimate grows with vertices and arcs;
// gpu-minplus's is above the Floyd–Warshall's (it does log₂ n times the
// work).
func TestSparseEstimates(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	mk := func(n, m int) *graph.Graph {
		return testgraphs.Random(rng, testgraphs.Spec{N: n, M: m, Loops: true, Kind: graph.IntWeights, Lo: 1, Hi: 100})
	}
	s := SSSPEngine()
	est := func(g *graph.Graph) float64 { return s.Estimate(sparseProblem(t, s, g)) }
	small, more, denser := est(mk(2048, 8192)), est(mk(8192, 32768)), est(mk(8192, 262144))
	if !(small < more && more < denser) {
		t.Errorf("gpu-sssp estimates %g, %g, %g s: want growth with vertices and arcs", small, more, denser)
	}
	// AutoGPUFor: gpu-sssp for sparse weighted graphs (issue 11's gnp of
	// 8192 vertices and 40 026 edges is about that), the Floyd–Warshall for
	// dense ones, small ones and those with negative arcs.
	neg := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, -2) })
	for _, c := range []struct {
		name string
		g    *graph.Graph
		want string
	}{
		{"sparse 8192", mk(8192, 40000), "gpu-sssp"},
		{"sparse 32768", mk(32768, 65536), "gpu-sssp"},
		{"degree 32 at 8192", mk(8192, 131072), AutoGPU(8192).Name()},
		{"small", mk(64, 128), AutoGPU(64).Name()},
		{"a weighted path of 8192 (long paths, unmeasured)", weightedPath(t, 8192), AutoGPU(8192).Name()},
		{"negative", neg, AutoGPU(2).Name()},
	} {
		if got, _ := AutoGPUFor(sparseProblem(t, AutoGPU(c.g.N()), c.g)); got.Name() != c.want {
			t.Errorf("%s: AutoGPUFor = %s, want %s", c.name, got, c.want)
		}
	}
	g := mk(4096, 16384)
	mp, fw := MinPlusEngine(), AutoGPU(g.N())
	if a, b := mp.Estimate(sparseProblem(t, mp, g)), fw.Estimate(sparseProblem(t, fw, g)); !(a > b) {
		t.Errorf("gpu-minplus estimate %g s, Floyd–Warshall's %g s", a, b)
	}
}

// sparseTestGraph is a random graph: testgraphs' G(n, p) inside parts
// components, lengths 0..100 (integer, float or unweighted; a few more
// zeros, so that float graphs have them too).
func sparseTestGraph(rng *rand.Rand, n, parts int, p float64, directed bool, kind graph.WeightKind) *graph.Graph {
	return testgraphs.Random(rng, testgraphs.Spec{N: n, P: p, Parts: parts, Directed: directed, Kind: kind, Lo: 0, Hi: 100, Zeros: 0.01})
}

func rowsAgree(got, want reduce.Row, float bool) bool {
	if got.Reach != want.Reach || got.Unreach != want.Unreach {
		return false
	}
	if float {
		return math.Abs(got.MaxF-want.MaxF) <= 1e-5*math.Max(1, want.MaxF) && math.Abs(got.SumF-want.SumF) <= 1e-5*math.Max(1, want.SumF)
	}
	return (got.Reach == 0 || got.MaxI == want.MaxI) && got.Sum == want.Sum
}

// TestSparseEnginesMatchDijkstra runs gpu-sssp and gpu-minplus through the
// engine interface (Rows, Run) against the CPU's Dijkstra on random graphs:
// directed and not, disconnected, unweighted, integer and float lengths
// with zeros; it needs a GPU (APSP_REQUIRE_GPU=1 fails without one).
func TestSparseEnginesMatchDijkstra(t *testing.T) {
	if _, err := Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	cpuE := dijkstraEngine{}
	kinds := []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}
	checked := 0
	for i := range 60 {
		n := 1 + rng.IntN(400)
		kind := kinds[i%3]
		g := sparseTestGraph(rng, n, 1+i%3, 3/float64(n)+rng.Float64()*0.05, i%2 == 0, kind)
		float := kind == graph.FloatWeights
		ref := sparseProblem(t, cpuE, g)
		want, _, err := cpuE.Rows(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		wantM, err := cpuE.Run(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []Engine{SSSPEngine(), MinPlusEngine()} {
			name := fmt.Sprintf("%s graph %d (n=%d, %s, directed=%v)", e.Name(), i, n, kind, g.Directed())
			p := sparseProblem(t, e, g)
			if err := e.Supports(p); err != nil {
				t.Fatal(err)
			}
			got, dev, err := e.(RowReducer).Rows(ctx, p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if dev == "" || len(got) != n {
				t.Fatalf("%s: %d rows on %q", name, len(got), dev)
			}
			for u := range n {
				if !rowsAgree(got[u], want[u], float) {
					t.Fatalf("%s: row %d = %+v, want %+v", name, u, got[u], want[u])
				}
			}
			r, err := e.Run(ctx, p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			m := r.Matrix
			for u := range n {
				for v := range n {
					a, b := m.Float(u, v), wantM.Matrix.Float(u, v)
					if math.IsInf(a, 1) != math.IsInf(b, 1) || (!math.IsInf(b, 1) && math.Abs(a-b) > 1e-5*math.Max(1, b)) ||
						(!float && a != b) {
						t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, a, b)
					}
				}
			}
			checked++
		}
	}
	t.Logf("%d engine runs matched Dijkstra", checked)
}

// weightedPath is the path 0-1-…-(n-1) with lengths 1..7: n breadth-first
// levels, past what the gpu-sssp estimate knows.
func weightedPath(t testing.TB, n int) *graph.Graph {
	b := graph.NewBuilder(false)
	for v := 1; v < n; v++ {
		if err := b.AddIntEdge(v-1, v, int64(1+v%7)); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}
