package apsp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/par"
)

// twoRegular is two disjoint random d-regular graphs of n/2 vertices:
// the vertex and arc counts of a d-regular graph of n vertices, but
// disconnected, so that a plan kept for one is reused for the other.
func twoRegular(t *testing.T, n, d int, seed uint64) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(false)
	must(b.SetVertices(n))
	for half := range 2 {
		h, err := gen.Make("regular", fmt.Sprintf("n=%d", n/2), fmt.Sprintf("d=%d", d), fmt.Sprintf("seed=%d", seed+uint64(half)))
		if err != nil {
			t.Fatal(err)
		}
		for u := range h.N() {
			for _, v := range h.Neighbors(u) {
				if u < int(v) {
					must(b.AddEdge(half*n/2+u, half*n/2+int(v)))
				}
			}
		}
	}
	return b.Build()
}

// evaluatorGraphs mixes runs of graphs of one shape (random regular
// graphs of several seeds, and disconnected ones of the same counts),
// which reuse the kept plan, with random graphs of every kind.
func evaluatorGraphs(t *testing.T, rng *rand.Rand) []*graph.Graph {
	t.Helper()
	var gs []*graph.Graph
	for round := range 4 {
		for _, shape := range []struct{ n, d int }{{64, 4}, {130, 6}, {600, 16}} {
			for seed := range 3 {
				g, err := gen.Make("regular", fmt.Sprintf("n=%d", shape.n), fmt.Sprintf("d=%d", shape.d), fmt.Sprintf("seed=%d", 10*round+seed))
				if err != nil {
					t.Fatal(err)
				}
				gs = append(gs, g)
				if seed == 1 {
					gs = append(gs, twoRegular(t, shape.n, shape.d, uint64(100*round+seed)))
				}
			}
		}
		gs = append(gs, batchGraphs(rng, 15)...)
	}
	return gs
}

// TestEvaluatorMatchesComputeStats: an Evaluator's Stats and Summary of
// one graph after another are ComputeStats's, field for field, through
// runs of one shape (connected and not, the kept plan reused) and graphs
// of every kind between them, with and without Reachable.
func TestEvaluatorMatchesComputeStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	gs := evaluatorGraphs(t, rng)
	ctx := context.Background()
	for _, opt := range []Options{{}, {Reachable: true}, {Threads: 1}, {Device: "cpu", Algorithm: "bitbfs"}} {
		ev, err := NewEvaluator(opt)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range gs {
			want, werr := ComputeStats(ctx, g, opt)
			got, err := ev.Stats(ctx, g)
			sum, serr := ev.Summary(ctx, g)
			if (err != nil) != (werr != nil) || (serr != nil) != (werr != nil) {
				t.Fatalf("%+v, graph %d: errors %v and %v, ComputeStats's %v", opt, i, err, serr, werr)
			}
			if werr != nil {
				if err.Error() != werr.Error() || serr.Error() != werr.Error() {
					t.Fatalf("%+v, graph %d: errors %v and %v, ComputeStats's %v", opt, i, err, serr, werr)
				}
				continue
			}
			got = asOneGraph(got, want)
			if a, b := statsJSON(t, got), statsJSON(t, want); a != b {
				t.Fatalf("%+v, graph %d (%d vertices, %s, directed %v):\n evaluator %s\n  one      %s", opt, i, g.N(), g.Kind(), g.Directed(), a, b)
			}
			w := want.Summary()
			sum.Seconds, w.Seconds = 0, 0
			if isBulk(sum.Algorithm) && !isBulk(w.Algorithm) { // as in asOneGraph
				sum.Algorithm, sum.Device = w.Algorithm, w.Device
			}
			if fmt.Sprint(sum) != fmt.Sprint(w) {
				t.Fatalf("%+v, graph %d: summary %+v, want %+v", opt, i, sum, w)
			}
		}
	}
}

// TestEvaluatorKeepsPlan: the plan of an unweighted graph is kept and
// reused by the next graph of the same counts (the worker starts from it
// and leaves it as it was), and a weighted graph between them neither
// replaces nor drops it.
func TestEvaluatorKeepsPlan(t *testing.T) {
	ctx := context.Background()
	ev, err := NewEvaluator(Options{Device: "cpu"}) // "auto" may take the GPU bulk search where a GPU is open
	if err != nil {
		t.Fatal(err)
	}
	threads := par.Threads(0)
	if ev.kept.Plan(threads, engine.GPUsOpened()) != nil {
		t.Fatal("a new Evaluator holds a plan")
	}
	g1, err := gen.Make("regular", "n=256", "d=8", "seed=1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Summary(ctx, g1); err != nil {
		t.Fatal(err)
	}
	kept := ev.kept.Plan(threads, engine.GPUsOpened())
	if kept == nil {
		t.Fatal("no plan kept after an unweighted graph")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i, g := range []*graph.Graph{
		twoRegular(t, 256, 8, 7),                             // same counts: reused
		randomGraph(rng, 50, 0.2, false, intWeights),         // weighted: not kept
		must2(gen.Make("regular", "n=256", "d=8", "seed=2")), // reused again
	} {
		if _, err := ev.Stats(ctx, g); err != nil {
			t.Fatal(err)
		}
		if got := ev.kept.Plan(threads, engine.GPUsOpened()); got != kept {
			t.Fatalf("graph %d: the kept plan changed", i)
		}
	}
	// Another shape replaces it.
	if _, err := ev.Summary(ctx, must2(gen.Make("regular", "n=300", "d=8", "seed=1"))); err != nil {
		t.Fatal(err)
	}
	if got := ev.kept.Plan(threads, engine.GPUsOpened()); got == kept || got == nil || got.Problem.Graph.N() != 300 {
		t.Fatalf("after a graph of 300 vertices: kept %v", got)
	}
}

func must2(g *graph.Graph, err error) *graph.Graph {
	must(err)
	return g
}

// TestEvaluatorErrors: invalid options fail NewEvaluator; a nil or empty
// graph fails its call alone.
func TestEvaluatorErrors(t *testing.T) {
	if _, err := NewEvaluator(Options{Device: "tpu"}); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("invalid device: %v", err)
	}
	ev, err := NewEvaluator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ev.Summary(ctx, nil); !errors.Is(err, ErrNilGraph) {
		t.Fatalf("nil graph: %v", err)
	}
	if _, err := ev.Stats(ctx, graph.NewBuilder(false).Build()); err == nil {
		t.Fatal("empty graph: no error")
	}
	if s, err := ev.Summary(ctx, must2(gen.Make("regular", "n=64", "d=4", "seed=1"))); err != nil || s.Vertices != 64 {
		t.Fatalf("after the errors: %+v, %v", s, err)
	}
}

// TestEvaluatorConcurrent: goroutines sharing one Evaluator, on graphs of
// one shape and of others, get ComputeStats's answers (run with -race).
func TestEvaluatorConcurrent(t *testing.T) {
	ctx := context.Background()
	ev, err := NewEvaluator(Options{Device: "cpu", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	var gs []*graph.Graph
	for seed := range 6 {
		gs = append(gs, must2(gen.Make("regular", "n=128", "d=6", fmt.Sprintf("seed=%d", seed))))
	}
	gs = append(gs, twoRegular(t, 128, 6, 9), must2(gen.Make("regular", "n=90", "d=4", "seed=1")))
	want := make([]Summary, len(gs))
	for i, g := range gs {
		s, err := ComputeStats(ctx, g, Options{Device: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = s.Summary()
		want[i].Seconds = 0
	}
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			for k := range 3 * len(gs) {
				i := (k + w) % len(gs)
				got, err := ev.Summary(ctx, gs[i])
				got.Seconds = 0
				if err == nil && fmt.Sprint(got) != fmt.Sprint(want[i]) {
					err = fmt.Errorf("graph %d: %+v, want %+v", i, got, want[i])
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestEvaluatorKeepsSmallPlansOnly: under a batch that counts nothing as
// small, the Evaluator keeps no plan (internal/run's TestKeptPlanKeys
// checks the keys).
func TestEvaluatorKeepsSmallPlansOnly(t *testing.T) {
	g := must2(gen.Make("regular", "n=64", "d=4", "seed=1"))
	ev, err := NewEvaluator(Options{Device: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Summary(largeCtx(true), g); err != nil {
		t.Fatal(err)
	}
	if got := ev.kept.Plan(par.Threads(0), engine.GPUsOpened()); got != nil {
		t.Fatal("the Evaluator kept a plan that is not small")
	}
}

// TestEvaluatorSummaryBatch: an Evaluator's SummaryBatch of graphs three
// at a time is SummaryBatch's, with the kept plan reused across calls.
func TestEvaluatorSummaryBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	gs := evaluatorGraphs(t, rng)
	ctx := context.Background()
	for _, opt := range []Options{{}, {Threads: 1}, {Threads: 2}} {
		ev, err := NewEvaluator(opt)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(gs); i += 3 {
			part := gs[i:min(i+3, len(gs))]
			got, errs := ev.SummaryBatch(ctx, part)
			want, werrs := SummaryBatch(ctx, part, opt)
			for j := range part {
				if fmt.Sprint(errs[j]) != fmt.Sprint(werrs[j]) {
					t.Fatalf("%+v, graph %d: error %v, SummaryBatch's %v", opt, i+j, errs[j], werrs[j])
				}
				got[j].Seconds, want[j].Seconds = 0, 0
				if fmt.Sprint(got[j]) != fmt.Sprint(want[j]) {
					t.Fatalf("%+v, graph %d: summary %+v, want %+v", opt, i+j, got[j], want[j])
				}
			}
		}
	}
}
