package bfs

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/par"
)

// benchSizes are the targets: random 4-regular graphs with n =
// 16384 (goal 0.2 s) and 65536 (goal 4 s) on two cores.
var benchSizes = []int{16384, 65536}

// regularGraphs caches the generated graphs across benchmarks.
var regularGraphs sync.Map

func regular(b *testing.B, n int) *graph.Graph {
	b.Helper()
	if g, ok := regularGraphs.Load(n); ok {
		return g.(*graph.Graph)
	}
	spec, err := gen.ParseSpec("regular", []string{fmt.Sprintf("n=%d", n), "d=4", "seed=1"})
	if err != nil {
		b.Fatal(err)
	}
	g, err := gen.Generate(spec)
	if err != nil {
		b.Fatal(err)
	}
	regularGraphs.Store(n, g)
	return g
}

type summaryFunc func(context.Context, *graph.Graph, int, func(float64)) (*Summary, error)

// benchSummary times run on random 4-regular graphs of the given sizes. It
// reports, besides ns/op, the CPU seconds per run (user+system of the
// whole process): the machine is shared, so wall time alone is noisy.
func benchSummary(b *testing.B, threads int, run summaryFunc, sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := regular(b, n)
			b.ReportAllocs()
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for b.Loop() {
				if _, err := run(context.Background(), g, threads, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
		})
	}
}

// withConfig is runBatches with cfg, outer set from the thread count.
func withConfig(cfg config) summaryFunc {
	return func(ctx context.Context, g *graph.Graph, threads int, p func(float64)) (*Summary, error) {
		if cfg.outer == 0 {
			cfg.outer = par.Threads(threads)
		}
		return runBatches(ctx, g, cfg, p, nil)
	}
}

// BenchmarkBitRows is the engine as used, on every CPU.
func BenchmarkBitRows(b *testing.B) { benchSummary(b, 0, BitRows, benchSizes...) }

// BenchmarkBitRows1 is BitRows on one thread, for the parallel speed-up.
func BenchmarkBitRows1(b *testing.B) { benchSummary(b, 1, BitRows, benchSizes...) }

// BenchmarkRows is one plain BFS per source. n = 65536 takes tens of
// seconds; run it with -benchtime=1x.
func BenchmarkRows(b *testing.B) { benchSummary(b, 0, Rows, benchSizes...) }

// BenchmarkBitRowsWords sweeps W, the words per vertex of a batch, with the
// best kernel each W has (assembly for 4, and for 8 with AVX-512).
func BenchmarkBitRowsWords(b *testing.B) {
	for _, w := range []int{1, 2, 4, 8, 16} {
		b.Run(fmt.Sprintf("w=%d", w), func(b *testing.B) {
			benchSummary(b, 0, withConfig(config{words: w, inner: 1}), benchSizes...)
		})
	}
}

// BenchmarkBitRowsKernel compares the assembly and Go pulls.
func BenchmarkBitRowsKernel(b *testing.B) {
	for _, w := range []int{4, 8} {
		for _, noAsm := range []bool{false, true} {
			name := fmt.Sprintf("w=%d/asm", w)
			if noAsm {
				name = fmt.Sprintf("w=%d/go", w)
			}
			b.Run(name, func(b *testing.B) {
				benchSummary(b, 0, withConfig(config{words: w, inner: 1, noAsm: noAsm}), benchSizes...)
			})
		}
	}
}

// BenchmarkBitRowsSplit compares the two ways of using two threads:
// separate batches (outer) against both threads on each level of one
// batch (inner).
func BenchmarkBitRowsSplit(b *testing.B) {
	for _, c := range []struct{ outer, inner int }{{2, 1}, {1, 2}} {
		b.Run(fmt.Sprintf("outer=%d/inner=%d", c.outer, c.inner), func(b *testing.B) {
			benchSummary(b, 0, withConfig(config{words: words(), outer: c.outer, inner: c.inner}), benchSizes...)
		})
	}
}

// BenchmarkMatrix fills the 1 GiB distance matrix of the smaller graph.
func BenchmarkMatrix(b *testing.B) {
	g := regular(b, benchSizes[0])
	b.ReportAllocs()
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := Matrix(context.Background(), g, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
}
