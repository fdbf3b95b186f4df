package apsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp/internal/run"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/par"
)

// batchGraphs returns count random graphs of mixed sizes (1..300), kinds
// (unweighted, integer, float, negative directed), direction and density
// (from a handful of arcs, mostly disconnected, to dense).
func batchGraphs(rng *rand.Rand, count int) []*graph.Graph {
	gs := make([]*graph.Graph, count)
	for i := range gs {
		n := 1 + rng.IntN(40)
		if rng.IntN(4) == 0 {
			n = 1 + rng.IntN(300)
		}
		p := []float64{0.5 / float64(n), 2 / float64(n), 0.1, 0.5}[rng.IntN(4)]
		directed := rng.IntN(2) == 0
		mode := []weightMode{unweighted, unweighted, intWeights, floatWeights, intNegative, floatNegative}[rng.IntN(6)]
		if mode == intNegative || mode == floatNegative {
			directed = true
		}
		if rng.IntN(3) == 0 {
			gs[i] = sparseGraphIn(rng, n, directed, mode)
			continue
		}
		gs[i] = randomGraph(rng, n, p, directed, mode)
	}
	return gs
}

// sparseGraphIn is a sparse graph of a few random arcs, often disconnected.
func sparseGraphIn(rng *rand.Rand, n int, directed bool, mode weightMode) *graph.Graph {
	b := graph.NewBuilder(directed)
	must(b.SetVertices(n))
	for range rng.IntN(n + 1) {
		u, v := rng.IntN(n), rng.IntN(n)
		switch mode {
		case unweighted:
			must(b.AddEdge(u, v))
		case floatWeights, floatNegative:
			must(b.AddFloatEdge(u, v, rng.Float64()*3))
		default:
			must(b.AddIntEdge(u, v, 1+rng.Int64N(5)))
		}
	}
	return b.Build()
}

// statsJSON is s as JSON with its own timing and threads left out: the
// fields StatsBatch must give exactly as ComputeStats does.
func statsJSON(t *testing.T, s *Stats) string {
	t.Helper()
	c := *s
	c.Seconds, c.Threads = 0, 0
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkBatch compares StatsBatch with ComputeStats one graph at a time:
// every field but the seconds and threads, errors alike, in input order.
func checkBatch(t *testing.T, gs []*graph.Graph, opt Options, wantThreads int) {
	t.Helper()
	checkBatchCtx(t, context.Background(), gs, opt, wantThreads)
}

// checkBatchCtx is checkBatch under ctx (largeCtx sends every graph to the
// one-at-a-time pass).
func checkBatchCtx(t *testing.T, ctx context.Context, gs []*graph.Graph, opt Options, wantThreads int) {
	t.Helper()
	stats, errs := StatsBatch(ctx, gs, opt)
	if len(stats) != len(gs) || len(errs) != len(gs) {
		t.Fatalf("%d graphs gave %d stats and %d errors", len(gs), len(stats), len(errs))
	}
	for i, g := range gs {
		want, werr := ComputeStats(ctx, g, opt)
		got, err := stats[i], errs[i]
		if (err != nil) != (werr != nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("graph %d: error %v, ComputeStats's %v", i, err, werr)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("graph %d: stats beside the error %v", i, err)
			}
			continue
		}
		got = asOneGraph(got, want)
		if a, b := statsJSON(t, got), statsJSON(t, want); a != b {
			t.Fatalf("graph %d (%d vertices, %s, directed %v) under %+v:\n batch %s\n  one  %s",
				i, g.N(), g.Kind(), g.Directed(), opt, a, b)
		}
		if wantThreads > 0 && got.Threads != wantThreads && got.Algorithm != "fw" {
			t.Fatalf("graph %d: %d threads, want %d", i, got.Threads, wantThreads)
		}
		if got.Seconds <= 0 {
			t.Fatalf("graph %d: seconds %v", i, got.Seconds)
		}
	}
}

// asOneGraph is got, a batch's Stats, with want's algorithm, device and
// lanes when "auto" took a GPU bulk path (the search, or Floyd–Warshall
// of integer graphs) for the batch but not for ComputeStats (a GPU is
// open in this test process): the measures must be the same.
func asOneGraph(got, want *Stats) *Stats {
	if !isBulk(got.Algorithm) || isBulk(want.Algorithm) {
		return got
	}
	c := *got
	c.Algorithm, c.Device, c.Lanes = want.Algorithm, want.Device, want.Lanes
	return &c
}

func isBulk(algorithm string) bool {
	return algorithm == engine.BulkName || algorithm == engine.BulkFWName
}

// TestStatsBatchMatchesComputeStats is the differential test of the batch:
// hundreds of random graphs of mixed sizes, kinds and connectivity, with
// and without Reachable, on several thread counts and engines, on the
// workers and (under largeCtx) one at a time.
func TestStatsBatchMatchesComputeStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 1))
	gs := batchGraphs(rng, 240)
	tests := []struct {
		name        string
		opt         Options
		large       bool // every graph through the one-at-a-time pass
		wantThreads int  // 0: not checked
	}{
		{"auto", Options{}, false, 1},
		{"auto-reachable", Options{Reachable: true}, false, 1},
		{"auto-3-threads", Options{Threads: 3, Reachable: true}, false, 1},
		{"auto-large", Options{Threads: 2}, true, 2},
		{"auto-large-reachable", Options{Reachable: true, Threads: 2}, true, 2},
		{"blocked", Options{Algorithm: "blocked", Reachable: true}, false, 1},
		{"dijkstra", Options{Algorithm: "dijkstra"}, false, 1},
		{"johnson-large", Options{Algorithm: "johnson", Threads: 2}, true, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sub := gs
			if tc.opt.Algorithm != "" {
				sub = gs[:60]
			}
			checkBatchCtx(t, largeCtx(tc.large), sub, tc.opt, tc.wantThreads)
		})
	}
}

// TestStatsBatchFewGraphs: fewer graphs than threads share the threads.
func TestStatsBatchFewGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 2))
	gs := []*graph.Graph{randomGraph(rng, 50, 0.1, false, unweighted), randomGraph(rng, 60, 0.1, true, intWeights)}
	checkBatch(t, gs, Options{Threads: 4, Algorithm: "blocked"}, 2)
	checkBatch(t, gs[:1], Options{Threads: 4, Algorithm: "blocked"}, 4)
}

// negativeCycle is a directed triangle of length -1.
func negativeCycle() *graph.Graph {
	b := graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, 1))
	must(b.AddIntEdge(1, 2, 1))
	must(b.AddIntEdge(2, 0, -3))
	return b.Build()
}

// TestStatsBatchErrorsIsolated: an empty graph, a nil one, a negative
// cycle and weights too large fail alone, with ComputeStats's errors, and
// the graphs around them complete.
func TestStatsBatchErrorsIsolated(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 3))
	huge := graph.NewBuilder(true)
	must(huge.AddIntEdge(0, 1, 1<<62))
	must(huge.AddIntEdge(1, 2, 1<<62))
	must(huge.AddIntEdge(2, 0, -(1 << 62)))
	gs := []*graph.Graph{
		randomGraph(rng, 20, 0.2, false, unweighted),
		graph.NewBuilder(false).Build(), // no vertices
		randomGraph(rng, 30, 0.2, true, intNegative),
		negativeCycle(),
		nil,
		huge.Build(),
		randomGraph(rng, 25, 0.2, false, floatWeights),
	}
	for _, large := range []bool{false, true} {
		stats, errs := StatsBatch(largeCtx(large), gs, Options{})
		for i, want := range []error{nil, ErrEmptyGraph, nil, nil, ErrNilGraph, ErrWeightsTooLarge, nil} {
			switch {
			case i == 3: // below
			case want == nil && (errs[i] != nil || stats[i] == nil):
				t.Fatalf("large %v, graph %d: %v", large, i, errs[i])
			case want != nil && (!errors.Is(errs[i], want) || stats[i] != nil):
				t.Fatalf("large %v, graph %d: error %v, want %v", large, i, errs[i], want)
			}
		}
		var nc *NegativeCycleError
		if !errors.As(errs[3], &nc) || stats[3] != nil {
			t.Fatalf("large %v, negative cycle: %v", large, errs[3])
		}
		for _, i := range []int{0, 2, 6} {
			if stats[i].Vertices != gs[i].N() {
				t.Fatalf("graph %d has %d vertices, its stats %d: out of order", i, gs[i].N(), stats[i].Vertices)
			}
		}
	}
}

// TestStatsBatchInvalidOptions fails every graph with the options' error.
func TestStatsBatchInvalidOptions(t *testing.T) {
	gs := []*graph.Graph{negativeCycle(), negativeCycle()}
	for _, opt := range []Options{{Algorithm: "nope"}, {Device: "tpu"}, {Algorithm: "bounds"}} {
		stats, errs := StatsBatch(context.Background(), gs, opt)
		for i := range gs {
			if !errors.Is(errs[i], ErrInvalidOptions) || stats[i] != nil {
				t.Fatalf("%+v, graph %d: %v", opt, i, errs[i])
			}
		}
	}
	stats, errs := StatsBatch(context.Background(), nil, Options{})
	if len(stats) != 0 || len(errs) != 0 {
		t.Fatal("an empty batch gave results")
	}
}

// TestStatsBatchCancel: a cancelled context fails what is not finished
// with ctx.Err() and nothing else; a context cancelled before the call
// fails every graph.
func TestStatsBatchCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 4))
	gs := batchGraphs(rng, 200)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errs := StatsBatch(ctx, gs, Options{})
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("graph %d: %v after cancel", i, err)
		}
	}
	for _, large := range []bool{false, true} {
		ctx, cancel = context.WithCancel(largeCtx(large))
		var once sync.Once
		opt := Options{Threads: 2, Progress: func(f float64) {
			if f >= 0.25 {
				once.Do(cancel)
			}
		}}
		stats, errs := StatsBatch(ctx, gs, opt)
		cancel()
		done, cancelled := 0, 0
		for i := range gs {
			switch {
			case errs[i] == nil && stats[i] != nil:
				done++
			case errors.Is(errs[i], context.Canceled) && stats[i] == nil:
				cancelled++
			default:
				t.Fatalf("large %v, graph %d: %v, %v", large, i, stats[i], errs[i])
			}
		}
		if done == 0 || cancelled == 0 {
			t.Fatalf("large %v: %d done and %d cancelled: the cancel did not stop the batch midway", large, done, cancelled)
		}
	}
}

// TestStatsBatchProgress: the fractions end at 1 and never exceed it.
func TestStatsBatchProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 5))
	gs := batchGraphs(rng, 50)
	var mu sync.Mutex
	var last, most float64
	calls := 0
	opt := Options{Progress: func(f float64) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		last, most = f, max(most, f)
	}}
	StatsBatch(context.Background(), gs, opt)
	if calls < len(gs) || most != 1 || most > 1 {
		t.Fatalf("%d progress calls, largest %v, last %v", calls, most, last)
	}
}

// regularBatch is count random 16-regular graphs of n vertices.
func regularBatch(b *testing.B, n, count int) []*graph.Graph {
	b.Helper()
	gs := make([]*graph.Graph, count)
	for i := range gs {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), "d=16", fmt.Sprintf("seed=%d", i+1))
		if err != nil {
			b.Fatal(err)
		}
		gs[i] = g
	}
	return gs
}

// benchmarkBatch times count graphs of n vertices evaluated by StatsBatch
// on device ("" for auto) or one ComputeStats call at a time with threads
// threads (0: all), and reports milliseconds per graph.
func benchmarkBatch(b *testing.B, n, count int, loop bool, threads int, device string) {
	if device == "gpu" && !hasGPU() {
		b.Skip("no GPU")
	}
	gs := regularBatch(b, n, count)
	ctx := context.Background()
	if device == "gpu" {
		StatsBatch(ctx, gs[:1], Options{Device: device}) // the GPU's start-up
	}
	b.ResetTimer()
	for range b.N {
		if loop {
			for _, g := range gs {
				if _, err := ComputeStats(ctx, g, Options{Threads: threads}); err != nil {
					b.Fatal(err)
				}
			}
			continue
		}
		_, errs := StatsBatch(ctx, gs, Options{Device: device})
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*count), "ms/graph")
}

// BenchmarkBatchRegular1024 and BenchmarkBatchRegular4096 are the figures
// of docs/perf.md ("Many graphs").
func BenchmarkBatchRegular1024(b *testing.B) {
	b.Run("loop", func(b *testing.B) { benchmarkBatch(b, 1024, 1000, true, 0, "") })
	b.Run("loop-1-thread", func(b *testing.B) { benchmarkBatch(b, 1024, 1000, true, 1, "") })
	b.Run("batch", func(b *testing.B) { benchmarkBatch(b, 1024, 1000, false, 0, "") })
	b.Run("batch-gpu", func(b *testing.B) { benchmarkBatch(b, 1024, 1000, false, 0, "gpu") })
}

func BenchmarkBatchRegular4096(b *testing.B) {
	b.Run("loop", func(b *testing.B) { benchmarkBatch(b, 4096, 100, true, 0, "") })
	b.Run("loop-1-thread", func(b *testing.B) { benchmarkBatch(b, 4096, 100, true, 1, "") })
	b.Run("batch", func(b *testing.B) { benchmarkBatch(b, 4096, 100, false, 0, "") })
}

// hasGPU reports whether a GPU is usable here.
func hasGPU() bool {
	_, err := Devices()
	return err == nil
}

// TestStatsBatchNoGPU: asked for a GPU where there is none, every graph
// fails with ComputeStats's error (matching ErrNoGPU), the bulk search's
// failure included.
func TestStatsBatchNoGPU(t *testing.T) {
	if hasGPU() {
		t.Skip("a GPU is usable here")
	}
	rng := rand.New(rand.NewPCG(10, 6))
	gs := batchGraphs(rng, 20)
	for _, opt := range []Options{{Device: "gpu"}, {Device: "gpu:3", Reachable: true}} {
		stats, errs := StatsBatch(context.Background(), gs, opt)
		for i, g := range gs {
			_, want := ComputeStats(context.Background(), g, opt)
			if !errors.Is(errs[i], ErrNoGPU) || stats[i] != nil || errs[i].Error() != want.Error() {
				t.Fatalf("%+v, graph %d: %v, ComputeStats: %v", opt, i, errs[i], want)
			}
		}
	}
}

// TestStatsBatchGPU: on a GPU, the graphs the bulk search takes give the
// CPU's measures with algorithm gpu-bulk and the GPU's name; the others
// what ComputeStats gives on the GPU.
func TestStatsBatchGPU(t *testing.T) {
	if !hasGPU() {
		gputest.Skip(t, "no GPU")
	}
	rng := rand.New(rand.NewPCG(10, 7))
	gs := batchGraphs(rng, 300)
	for _, n := range []int{1024, 1025, 700} {
		for _, directed := range []bool{false, true} {
			gs = append(gs, randomGraph(rng, n, 3/float64(n), directed, unweighted))
		}
	}
	gs = append(gs, regularGraph(t, 1024))
	// Integer weights beyond the register kernels' 128 vertices: the
	// bulk Floyd–Warshall's blocked rounds.
	for _, n := range []int{129, 600, 1100} {
		gs = append(gs, randomGraph(rng, n, 4/float64(n), n%2 == 0, intWeights), randomGraph(rng, n, 4/float64(n), true, intNegative))
	}
	ctx := context.Background()
	for _, reachable := range []bool{false, true} {
		opt := Options{Device: "gpu", Reachable: reachable}
		stats, errs := StatsBatch(ctx, gs, opt)
		bulk, bulkFW := 0, 0
		for i, g := range gs {
			if engine.BulkFWFits(g) && errs[i] == nil && stats[i].Algorithm == engine.BulkFWName {
				// Computed by the bulk Floyd–Warshall: as on the CPU but
				// for the algorithm, the device and the lanes.
				bulkFW++
				want, err := ComputeStats(ctx, g, Options{Device: "cpu", Reachable: reachable})
				if err != nil {
					t.Fatalf("graph %d: the bulk FW computed it; the CPU: %v", i, err)
				}
				got := *stats[i]
				if got.Device == "cpu" || (got.Lanes != "int32" && got.Lanes != "int16") || got.Threads != 1 {
					t.Fatalf("graph %d: bulk FW on %s, %s lanes, %d threads", i, got.Device, got.Lanes, got.Threads)
				}
				got.Algorithm, got.Device, got.Lanes = want.Algorithm, want.Device, want.Lanes
				if a, b := statsJSON(t, &got), statsJSON(t, want); a != b {
					t.Fatalf("graph %d (%d vertices, directed %v):\n bulk FW %s\n cpu     %s", i, g.N(), g.Directed(), a, b)
				}
				continue
			}
			if !engine.BulkFits(g) {
				want, werr := ComputeStats(ctx, g, opt)
				switch {
				case werr != nil:
					if errs[i] == nil || errs[i].Error() != werr.Error() {
						t.Fatalf("graph %d: %v, ComputeStats: %v", i, errs[i], werr)
					}
				case errs[i] != nil:
					t.Fatalf("graph %d: %v", i, errs[i])
				case statsJSON(t, stats[i]) != statsJSON(t, want):
					t.Fatalf("graph %d:\n batch %s\n  one  %s", i, statsJSON(t, stats[i]), statsJSON(t, want))
				}
				continue
			}
			bulk++
			if errs[i] != nil {
				t.Fatalf("graph %d (%d vertices): %v", i, g.N(), errs[i])
			}
			want, err := ComputeStats(ctx, g, Options{Device: "cpu", Reachable: reachable})
			if err != nil {
				t.Fatal(err)
			}
			got := *stats[i]
			if got.Algorithm != engine.BulkName || got.Device == "cpu" || got.Lanes != "int32" || got.Threads != 1 {
				t.Fatalf("graph %d: algorithm %s on %s, %s lanes, %d threads", i, got.Algorithm, got.Device, got.Lanes, got.Threads)
			}
			got.Algorithm, got.Device = want.Algorithm, want.Device
			if a, b := statsJSON(t, &got), statsJSON(t, want); a != b {
				t.Fatalf("graph %d (%d vertices, directed %v):\n bulk %s\n cpu  %s", i, g.N(), g.Directed(), a, b)
			}
		}
		if bulk < 100 {
			t.Fatalf("only %d graphs went to the bulk search", bulk)
		}
		if bulkFW < 20 {
			t.Fatalf("only %d graphs went to the bulk Floyd–Warshall", bulkFW)
		}
		t.Logf("reachable %v: %d of %d graphs by the bulk search, %d by the bulk FW", reachable, bulk, len(gs), bulkFW)
	}
	// With the GPU open, "auto" takes the bulk search where it is
	// estimated faster: many graphs of 1024 vertices.
	many := make([]*graph.Graph, 64)
	for i := range many {
		g, err := gen.Make("regular", "n=1024", "d=16", fmt.Sprintf("seed=%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		many[i] = g
	}
	wins := engine.BulkWins(many, par.Threads(0))
	stats, errs := StatsBatch(ctx, many, Options{})
	for i, g := range many {
		want, err := ComputeStats(ctx, g, Options{Device: "cpu"})
		if err != nil || errs[i] != nil {
			t.Fatal(err, errs[i])
		}
		if (stats[i].Algorithm == engine.BulkName) != wins {
			t.Fatalf("auto: algorithm %s, bulk search estimated faster: %v", stats[i].Algorithm, wins)
		}
		got := *stats[i]
		got.Algorithm, got.Device, got.Lanes = want.Algorithm, want.Device, want.Lanes
		if a, b := statsJSON(t, &got), statsJSON(t, want); a != b {
			t.Fatalf("auto, graph %d:\n bulk %s\n cpu  %s", i, a, b)
		}
	}
	t.Logf("auto on %d threads: bulk search %v", par.Threads(0), wins)
}

// readyLog records BatchOptions.Ready's calls and checks they come in
// order, one at a time, with the results the batch returns.
type readyLog struct {
	t      *testing.T
	mu     sync.Mutex
	inside bool
	next   int
	calls  int
	stats  []*Stats
	errs   []error
}

func (r *readyLog) ready(lo, hi int, stats []*Stats, errs []error) {
	r.mu.Lock()
	if r.inside {
		r.t.Error("Ready called while another call runs")
	}
	r.inside = true
	r.mu.Unlock()
	if lo != r.next || hi <= lo || len(stats) != hi-lo || len(errs) != hi-lo {
		r.t.Errorf("Ready(%d, %d) with %d stats, %d errors; want from %d", lo, hi, len(stats), len(errs), r.next)
	}
	r.stats = append(r.stats, stats...)
	r.errs = append(r.errs, errs...)
	r.next, r.calls = hi, r.calls+1
	r.mu.Lock()
	r.inside = false
	r.mu.Unlock()
}

// check compares what Ready handed over with the batch's results.
func (r *readyLog) check(stats []*Stats, errs []error) {
	r.t.Helper()
	if r.next != len(stats) {
		r.t.Fatalf("Ready covered %d of %d graphs", r.next, len(stats))
	}
	for i := range stats {
		if r.stats[i] != stats[i] || r.errs[i] != errs[i] {
			r.t.Fatalf("graph %d: Ready had %v, %v; the batch returned %v, %v", i, r.stats[i], r.errs[i], stats[i], errs[i])
		}
	}
}

// TestStatsBatchReady: Ready hands every result over once, in input order,
// one call at a time, as the batch returns it; on the workers, one at a
// time, with errors, and for invalid options.
func TestStatsBatchReady(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 9))
	gs := batchGraphs(rng, 120)
	gs[7], gs[50] = nil, graph.NewBuilder(false).Build() // a nil graph, an empty one
	for _, tc := range []struct {
		name  string
		opt   Options
		bo    BatchOptions
		large bool
	}{
		{"workers", Options{Threads: 3}, BatchOptions{}, false},
		{"one-at-a-time", Options{Threads: 2}, BatchOptions{GroupSize: 5}, true},
		{"invalid-group", Options{}, BatchOptions{GroupSize: -1}, false},
		{"invalid-options", Options{Algorithm: "nonsense"}, BatchOptions{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &readyLog{t: t}
			bo := tc.bo
			bo.Ready = r.ready
			stats, errs := StatsBatchWith(largeCtx(tc.large), gs, tc.opt, bo)
			r.check(stats, errs)
			if tc.bo.GroupSize < 0 {
				var oe *OptionError
				for i := range gs {
					if !errors.As(errs[i], &oe) || !errors.Is(errs[i], ErrInvalidOptions) || oe.Option != "group size" || stats[i] != nil {
						t.Fatalf("group size -1, graph %d: %v", i, errs[i])
					}
				}
				return
			}
			want, wantErrs := StatsBatch(context.Background(), gs, tc.opt)
			for i := range gs {
				if (errs[i] == nil) != (wantErrs[i] == nil) || (stats[i] == nil) != (want[i] == nil) {
					t.Fatalf("graph %d: %v, StatsBatch: %v", i, errs[i], wantErrs[i])
				}
				if stats[i] != nil && statsJSON(t, stats[i]) != statsJSON(t, want[i]) {
					t.Fatalf("graph %d:\n with %s\n plain %s", i, statsJSON(t, stats[i]), statsJSON(t, want[i]))
				}
			}
			t.Logf("%d Ready calls", r.calls)
		})
	}
}

// TestStatsBatchGPUGroups: on a GPU, the bulk search in groups of 1, 3, 64
// and more than the batch gives StatsBatch's results, handed over in
// order by Ready; a graph the search does not take and errors keep their
// places.
func TestStatsBatchGPUGroups(t *testing.T) {
	if !hasGPU() {
		gputest.Skip(t, "no GPU")
	}
	rng := rand.New(rand.NewPCG(10, 10))
	gs := batchGraphs(rng, 150)
	gs[3], gs[90] = nil, graph.NewBuilder(true).Build()
	gs = append(gs, regularGraph(t, 1024), randomGraph(rng, 1100, 0.003, false, unweighted))
	ctx := context.Background()
	opt := Options{Device: "gpu"}
	want, wantErrs := StatsBatch(ctx, gs, opt)
	for _, group := range []int{1, 3, 64, len(gs) + 1} {
		r := &readyLog{t: t}
		stats, errs := StatsBatchWith(ctx, gs, opt, BatchOptions{GroupSize: group, Ready: r.ready})
		r.check(stats, errs)
		bulk := 0
		for i := range gs {
			if (errs[i] == nil) != (wantErrs[i] == nil) || (errs[i] != nil && errs[i].Error() != wantErrs[i].Error()) {
				t.Fatalf("group %d, graph %d: %v, StatsBatch: %v", group, i, errs[i], wantErrs[i])
			}
			if errs[i] != nil {
				continue
			}
			if stats[i].Algorithm == engine.BulkName {
				bulk++
			}
			if a, b := statsJSON(t, stats[i]), statsJSON(t, want[i]); a != b {
				t.Fatalf("group %d, graph %d:\n groups %s\n plain  %s", group, i, a, b)
			}
		}
		if bulk < 50 {
			t.Fatalf("group %d: only %d graphs by the bulk search", group, bulk)
		}
		t.Logf("group %d: %d graphs by the bulk search, %d Ready calls", group, bulk, r.calls)
	}
}

// BenchmarkStatsBatchGPUOne is the annealing loop through the public API:
// StatsBatch of one random 16-regular graph of 1024 vertices a call on the
// GPU (the bulk search, every measure), 64 graphs in turn; it reports the
// median call.
func BenchmarkStatsBatchGPUOne(b *testing.B) {
	if !hasGPU() {
		gputest.Skip(b, "no GPU")
	}
	gs := loopGraphs64(b)
	ctx := context.Background()
	opt := Options{Device: "gpu"}
	call := func(g *graph.Graph) {
		stats, errs := StatsBatch(ctx, []*graph.Graph{g}, opt)
		if errs[0] != nil || stats[0].Algorithm != engine.BulkName {
			b.Fatalf("%v, %+v", errs[0], stats[0])
		}
	}
	timeOneGraphCalls(b, gs, call)
}

// loopGraphs64 are the annealing benchmarks' 64 random 16-regular graphs
// of 1024 vertices.
func loopGraphs64(b *testing.B) []*graph.Graph {
	gs := make([]*graph.Graph, 64)
	for i := range gs {
		g, err := gen.Make("regular", "n=1024", "d=16", fmt.Sprintf("seed=%d", i+1))
		if err != nil {
			b.Fatal(err)
		}
		gs[i] = g
	}
	return gs
}

// timeOneGraphCalls times call on the graphs gs in turn, 100 calls an
// iteration after a warm-up call (the GPU's start-up), and reports the
// median and 90th percentile of a call.
func timeOneGraphCalls(b *testing.B, gs []*graph.Graph, call func(*graph.Graph)) {
	call(gs[0])
	var wall []time.Duration
	i := 0
	for b.Loop() {
		for range 100 {
			start := time.Now()
			call(gs[i%len(gs)])
			wall = append(wall, time.Since(start))
			i++
		}
	}
	slices.Sort(wall)
	b.ReportMetric(float64(wall[len(wall)/2].Nanoseconds())/1e3, "median-us")
	b.ReportMetric(float64(wall[len(wall)*9/10].Nanoseconds())/1e3, "p90-us")
}

// TestStatsBatchReusedPlanKeepsLanesSafe: two unweighted graphs of the same
// size and arcs, a star plus an edge (diameter 2) and a cycle (diameter
// 100), on one worker with an engine that offers packed lanes: the star's
// plan may compute in int8 (its proven bound is small), which the cycle
// must not inherit.
func TestStatsBatchReusedPlanKeepsLanesSafe(t *testing.T) {
	const n = 200
	star, cycle := graph.NewBuilder(false), graph.NewBuilder(false)
	for v := 1; v < n; v++ {
		must(star.AddEdge(0, v))
		must(cycle.AddEdge(v-1, v))
	}
	must(star.AddEdge(1, 2))
	must(cycle.AddEdge(n-1, 0))
	gs := []*graph.Graph{star.Build(), cycle.Build()}
	if gs[0].Arcs() != gs[1].Arcs() {
		t.Fatalf("arcs %d and %d", gs[0].Arcs(), gs[1].Arcs())
	}
	opt := Options{Algorithm: "blocked", Threads: 1}
	stats, errs := StatsBatch(context.Background(), gs, opt)
	for i, g := range gs {
		want, err := ComputeStats(context.Background(), g, opt)
		if err != nil || errs[i] != nil {
			t.Fatalf("graph %d: %v, %v", i, err, errs[i])
		}
		if a, b := statsJSON(t, stats[i]), statsJSON(t, want); a != b {
			t.Fatalf("graph %d:\n batch %s\n one   %s", i, a, b)
		}
	}
}

// largeCtx is a context under which a batch runs every graph one at a
// time with every thread (nothing counts as small) when large.
func largeCtx(large bool) context.Context {
	if !large {
		return context.Background()
	}
	return run.WithSmall(context.Background(), run.Small{Seconds: -1})
}
