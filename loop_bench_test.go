package apsp

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// The search-loop case of issue 10: one unweighted graph after another,
// each evaluated with every thread. The sizes and degree are the issue's
// comparison with ODP (random 16-regular graphs; docs/perf.md, "One graph
// at a time, against ODP"); tools/odpbench times ODP on the same graphs,
// written by `apsp gen regular n=N d=16 seed=1`.
var loopSizes = []int{1024, 4096, 16384, 65536}

// loopOptions keep the loop on the CPU: under "auto" a machine with a GPU
// would take the larger graphs there.
var loopOptions = Options{Device: "cpu"}

// loopGraphs caches the generated graphs across benchmarks.
var loopGraphs sync.Map

func loopGraph(tb testing.TB, n, seed int) *graph.Graph {
	tb.Helper()
	key := [2]int{n, seed}
	if g, ok := loopGraphs.Load(key); ok {
		return g.(*graph.Graph)
	}
	g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), "d=16", fmt.Sprintf("seed=%d", seed))
	if err != nil {
		tb.Fatal(err)
	}
	loopGraphs.Store(key, g)
	return g
}

// timeCalls runs call in the benchmark's loop and reports, besides the
// mean (ns/op), the median call as median-ns/call: tools/odpbench gives
// ODP's median and mean, and a mean alone moves with the rare slow call
// (a garbage collection, a descheduled thread).
func timeCalls(b *testing.B, call func()) {
	var times []time.Duration
	for b.Loop() {
		t := time.Now()
		call()
		times = append(times, time.Since(t))
	}
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/call")
	}
}

// BenchmarkLoopStats times ComputeStats called again and again on one
// graph, as a search loop calls it (after the first call, which the
// benchmark's warm-up absorbs).
func BenchmarkLoopStats(b *testing.B) {
	for _, n := range loopSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := loopGraph(b, n, 1)
			ctx := context.Background()
			if _, err := ComputeStats(ctx, g, loopOptions); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			timeCalls(b, func() {
				if _, err := ComputeStats(ctx, g, loopOptions); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkLoopSummary is BenchmarkLoopStats through the annealing loop's
// own call, SummaryBatch of one graph: the diameter and ASPL that ODP
// gives, without the center and periphery lists.
func BenchmarkLoopSummary(b *testing.B) {
	for _, n := range loopSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			gs := []*graph.Graph{loopGraph(b, n, 1)}
			ctx := context.Background()
			if _, errs := SummaryBatch(ctx, gs, loopOptions); errs[0] != nil {
				b.Fatal(errs[0])
			}
			b.ReportAllocs()
			timeCalls(b, func() {
				if _, errs := SummaryBatch(ctx, gs, loopOptions); errs[0] != nil {
					b.Fatal(errs[0])
				}
			})
		})
	}
}

// BenchmarkLoopEvaluator is BenchmarkLoopSummary through an Evaluator,
// which plans the graph once: the way README recommends for a search
// loop.
func BenchmarkLoopEvaluator(b *testing.B) {
	for _, n := range loopSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := loopGraph(b, n, 1)
			ctx := context.Background()
			ev, err := NewEvaluator(loopOptions)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ev.Summary(ctx, g); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			timeCalls(b, func() {
				if _, err := ev.Summary(ctx, g); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkLoopExtremes is BenchmarkLoopStats for ComputeExtremes (the
// diameter and radius only; the bounds method under "auto").
func BenchmarkLoopExtremes(b *testing.B) {
	for _, n := range loopSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := loopGraph(b, n, 1)
			ctx := context.Background()
			if _, err := ComputeExtremes(ctx, g, loopOptions); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ComputeExtremes(ctx, g, loopOptions); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
