package bfs

import (
	"context"

	"github.com/apsp/apsp/graph"
)

// Sums are, for every vertex v, what searches from a list of sources
// found of it: Reach[v] the searches from sources other than v that
// reach it, Sum[v] and SumSq[v] the sum and the sum of squares of their
// distances to it. They are exact integers, so neither the threads nor
// the order of the searches changes them.
type Sums struct {
	Reach []int32
	Sum   []int64
	SumSq []uint64
}

// SumsFrom searches from each of sources (valid ids; repeats count
// again) and adds each vertex's distance from it into Sums, memory for
// three numbers a vertex a thread rather than a row a source: a
// sampled estimate of every vertex's closeness over a graph too large
// for its sources' rows. Threads, progress and the renumbering of a
// large graph are as for RowsFrom.
func SumsFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64)) (*Sums, error) {
	return sumsFrom(ctx, g, sources, threads, progress, localAt)
}

// sumsFrom is SumsFrom renumbering graphs of localAt vertices or more.
func sumsFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64), localAt int) (*Sums, error) {
	if err := checkSources(g, sources); err != nil {
		return nil, err
	}
	n, k := g.N(), len(sources)
	sr := prepareSearch(g, k, localAt, threads)
	if sr.newID != nil {
		sources = sr.renumbered(sources)
	}
	type worker struct {
		*levelScratch
		counts []int64
		sums   Sums
		visit  func(d int64, vs []int32)
	}
	setup := func() *worker {
		w := &worker{levelScratch: newLevelScratch(n), sums: Sums{Reach: make([]int32, n), Sum: make([]int64, n), SumSq: make([]uint64, n)}}
		reach, sum, sq := w.sums.Reach, w.sums.Sum, w.sums.SumSq
		w.visit = func(d int64, vs []int32) {
			for _, v := range vs {
				reach[v]++
				sum[v] += d
				sq[v] += uint64(d * d)
			}
		}
		return w
	}
	chunks := (k + checkEvery - 1) / checkEvery
	workers, err := forEach(ctx, nil, threads, chunks, progress, setup, func(w *worker, c int) bool {
		for i := c * checkEvery; i < min(k, (c+1)*checkEvery); i++ {
			w.counts = sr.search(sources[i], w.levelScratch, w.counts[:0], w.visit)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	out := &Sums{Reach: make([]int32, n), Sum: make([]int64, n), SumSq: make([]uint64, n)}
	for v := range n {
		at := v
		if sr.newID != nil {
			at = int(sr.newID[v])
		}
		for _, w := range workers {
			out.Reach[v] += w.sums.Reach[at]
			out.Sum[v] += w.sums.Sum[at]
			out.SumSq[v] += w.sums.SumSq[at]
		}
	}
	return out, nil
}
