package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/internal/result"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/gpu/bulk"
	"github.com/apsp/apsp/internal/gputest"
)

// checkSummaries compares each Summary of SummaryBatch with ComputeStats's
// on the same graph (nil graphs: the same error).
func checkSummaries(t *testing.T, gs []*graph.Graph, opt Options, wantAlgo func(g *graph.Graph) string) {
	t.Helper()
	ctx := context.Background()
	sums, errs := SummaryBatch(ctx, gs, opt)
	cpu := opt
	cpu.Device = "cpu"
	for i, g := range gs {
		want, werr := ComputeStats(ctx, g, cpu)
		if werr != nil {
			if errs[i] == nil {
				t.Fatalf("graph %d: no error, want %v", i, werr)
			}
			continue
		}
		if errs[i] != nil {
			t.Fatalf("graph %d (n=%d, %v): %v", i, g.N(), g.Kind(), errs[i])
		}
		got, w := sums[i], want.Summary()
		// A float graph asked for on a GPU runs in float32 lanes there
		// (README, "GPUs"): its lengths agree to float32's precision.
		tol := 1e-12
		if g.Kind() == graph.FloatWeights && got.Device != "cpu" {
			tol = 1e-5
		}
		near := func(a, b float64) bool {
			return a == b || (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= tol*math.Abs(b)
		}
		if got.Vertices != w.Vertices || got.Connected != w.Connected || !near(got.Diameter.Float(), w.Diameter.Float()) ||
			got.Diameter.IsInf() != w.Diameter.IsInf() || got.ReachablePairs != w.ReachablePairs || !near(float64(got.ASPL), float64(w.ASPL)) {
			t.Fatalf("graph %d (n=%d, %v, directed %v, reachable %v): %+v, want %+v", i, g.N(), g.Kind(), g.Directed(), opt.Reachable, got, w)
		}
		if wantAlgo != nil {
			if a := wantAlgo(g); a != "" && got.Algorithm != a {
				t.Fatalf("graph %d: algorithm %q, want %q", i, got.Algorithm, a)
			}
		}
	}
}

// TestSummaryBatchMatchesStats: on the CPU, every Summary is the Stats'
// own fields, over graphs of every kind, connected or not, with and
// without Reachable; a nil graph fails alone.
func TestSummaryBatchMatchesStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	gs := batchGraphs(rng, 120)
	for _, reachable := range []bool{false, true} {
		checkSummaries(t, gs, Options{Reachable: reachable}, nil)
	}
	sums, errs := SummaryBatch(context.Background(), []*graph.Graph{gs[0], nil}, Options{})
	if errs[0] != nil || !errors.Is(errs[1], ErrNilGraph) || sums[0].Vertices != gs[0].N() {
		t.Fatalf("with a nil graph: %+v, %v", sums, errs)
	}
	_, errs = SummaryBatch(context.Background(), gs[:2], Options{Device: "tpu"})
	for _, err := range errs {
		if !errors.Is(err, ErrInvalidOptions) {
			t.Fatalf("invalid device: %v", err)
		}
	}
}

// TestSummaryOfBulk checks the meaning given to a bulk summary against
// ComputeStats, without a GPU: the summary's three numbers come from the
// CPU's bit-parallel search of unweighted graphs, connected or not,
// directed or not, of one vertex or without arcs.
func TestSummaryOfBulk(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	ctx := context.Background()
	for trial := range 200 {
		n := 1 + rng.IntN(60)
		directed := trial%2 == 0
		var g *graph.Graph
		if trial%3 == 0 {
			g = sparseGraphIn(rng, n, directed, unweighted)
		} else {
			g = randomGraph(rng, n, []float64{0.02, 0.1, 0.4}[trial%3], directed, unweighted)
		}
		b, err := bfs.BitBrief(ctx, g, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		bs := bulk.Summary{Vertices: n, Pairs: b.Pairs, Connected: b.Pairs == int64(n)*int64(n-1)}
		bs.Sum = int64(b.Sum.Float())
		for u, e := range b.Ecc {
			if b.Reach[u] > 0 {
				bs.Diameter = max(bs.Diameter, e)
			}
		}
		for _, reachable := range []bool{false, true} {
			want, err := ComputeStats(ctx, g, Options{Reachable: reachable})
			if err != nil {
				t.Fatal(err)
			}
			got, w := result.FromTotals(bs.Vertices, bs.Connected, bs.Pairs, bs.Sum, bs.Diameter, reachable).Summary(), want.Summary()
			nan := math.IsNaN(float64(got.ASPL)) && math.IsNaN(float64(w.ASPL))
			if got.Vertices != w.Vertices || got.Connected != w.Connected || got.Diameter != w.Diameter ||
				got.ReachablePairs != w.ReachablePairs || (!nan && got.ASPL != w.ASPL) {
				t.Fatalf("trial %d (n=%d, directed %v, reachable %v): %+v, want %+v", trial, n, directed, reachable, got, w)
			}
		}
	}
}

// TestSummaryBatchGPU: on a GPU, the unweighted graphs of up to 1024
// vertices are reduced by the bulk search on the device and agree with the
// CPU's Stats; the others take StatsBatch's path.
func TestSummaryBatchGPU(t *testing.T) {
	if !hasGPU() {
		gputest.Skip(t, "no GPU")
	}
	rng := rand.New(rand.NewPCG(33, 34))
	gs := batchGraphs(rng, 150)
	for _, n := range []int{1, 2, 1024, 700} {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", max(n, 17)), "d=16", fmt.Sprintf("seed=%d", n))
		if err != nil {
			t.Fatal(err)
		}
		if n < 17 {
			b := graph.NewBuilder(n%2 == 0)
			must(b.SetVertices(n))
			g = b.Build()
		}
		gs = append(gs, g)
	}
	algo := func(g *graph.Graph) string {
		if engine.BulkFits(g) {
			return engine.BulkName
		}
		return ""
	}
	for _, reachable := range []bool{false, true} {
		checkSummaries(t, gs, Options{Device: "gpu", Reachable: reachable}, algo)
	}
}

// BenchmarkSummaryBatchGPUOne is the annealing loop's call through the
// public API: SummaryBatch of one random 16-regular graph of 1024 vertices
// a call on the GPU, 64 graphs in turn; it reports the median call.
func BenchmarkSummaryBatchGPUOne(b *testing.B) {
	if !hasGPU() {
		gputest.Skip(b, "no GPU")
	}
	gs := loopGraphs64(b)
	ctx := context.Background()
	opt := Options{Device: "gpu"}
	call := func(g *graph.Graph) {
		sums, errs := SummaryBatch(ctx, []*graph.Graph{g}, opt)
		if errs[0] != nil || sums[0].Algorithm != engine.BulkName {
			b.Fatalf("%v, %+v", errs[0], sums[0])
		}
	}
	timeOneGraphCalls(b, gs, call)
}

// TestSummaryEdgeCases: the summary from the histogram (result.FromHist)
// against ComputeStats on the graphs where the definitions' corners are:
// one vertex, no arcs, one arc, a directed path, a graph not strongly
// connected, self-loops; with and without Reachable, by both unweighted
// engines; and an Evaluator's Summary the same.
func TestSummaryEdgeCases(t *testing.T) {
	build := func(n int, directed bool, arcs ...[2]int) *graph.Graph {
		b := graph.NewBuilder(directed)
		must(b.SetVertices(n))
		for _, a := range arcs {
			must(b.AddEdge(a[0], a[1]))
		}
		return b.Build()
	}
	gs := []*graph.Graph{
		build(1, false),
		build(1, true, [2]int{0, 0}),
		build(2, false),
		build(2, true, [2]int{0, 1}),
		build(4, true, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}),
		build(4, true, [2]int{0, 1}, [2]int{1, 0}, [2]int{2, 3}),
		build(3, false, [2]int{0, 0}, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0}),
		build(5, false, [2]int{0, 1}, [2]int{2, 3}),
	}
	ctx := context.Background()
	for _, algo := range []string{"", "bitbfs", "bfs"} {
		for _, reachable := range []bool{false, true} {
			opt := Options{Algorithm: algo, Reachable: reachable, Device: "cpu"}
			checkSummaries(t, gs, opt, nil)
			ev, err := NewEvaluator(opt)
			if err != nil {
				t.Fatal(err)
			}
			sums, _ := SummaryBatch(ctx, gs, opt)
			for i, g := range gs {
				got, err := ev.Summary(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				got.Seconds, sums[i].Seconds = 0, 0
				if fmt.Sprint(got) != fmt.Sprint(sums[i]) {
					t.Fatalf("%+v, graph %d: evaluator %+v, SummaryBatch %+v", opt, i, got, sums[i])
				}
			}
		}
	}
}

// BenchmarkEvaluatorGPUOne is BenchmarkSummaryBatchGPUOne through an
// Evaluator: the search loop's call on the GPU (issue 25's bar: at most
// 0.05 ms a call at n = 1 024).
func BenchmarkEvaluatorGPUOne(b *testing.B) {
	if !hasGPU() {
		gputest.Skip(b, "no GPU")
	}
	gs := loopGraphs64(b)
	ctx := context.Background()
	ev, err := NewEvaluator(Options{Device: "gpu"})
	if err != nil {
		b.Fatal(err)
	}
	call := func(g *graph.Graph) {
		s, err := ev.Summary(ctx, g)
		if err != nil || s.Algorithm != engine.BulkName {
			b.Fatalf("%v, %+v", err, s)
		}
	}
	timeOneGraphCalls(b, gs, call)
}
