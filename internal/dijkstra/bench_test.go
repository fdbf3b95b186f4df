package dijkstra

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// Sizes of the benchmark graph: the one python-igraph's weighted
// diameter() was timed on.
const (
	benchN     = 8192
	benchEdges = 40000
)

// benchGraph is a connected undirected graph of benchN vertices and exactly
// benchEdges edges: a random spanning tree (each vertex joins a random
// earlier one of a shuffled order) plus random extra edges, with integer
// lengths 1..100 or float lengths in [1, 100).
func benchGraph(float bool) *graph.Graph {
	rng := rand.New(rand.NewPCG(2024, 8192))
	b := graph.NewBuilder(false)
	seen := make(map[[2]int]bool, benchEdges)
	add := func(u, v int) {
		if u == v || seen[[2]int{min(u, v), max(u, v)}] {
			return
		}
		seen[[2]int{min(u, v), max(u, v)}] = true
		if float {
			must(b.AddFloatEdge(u, v, 1+99*rng.Float64()))
		} else {
			must(b.AddIntEdge(u, v, 1+rng.Int64N(100)))
		}
	}
	perm := rng.Perm(benchN)
	for i := 1; i < benchN; i++ {
		add(perm[i], perm[rng.IntN(i)])
	}
	for len(seen) < benchEdges {
		add(rng.IntN(benchN), rng.IntN(benchN))
	}
	return b.Build()
}

// BenchmarkRows times the summaries of all 8192 sources of the issue's
// graph (integer lengths 1..100):
//
//	go test ./internal/dijkstra -run X -bench Rows -benchtime 5x
func BenchmarkRows(b *testing.B) { benchRows(b, benchGraph(false)) }

// BenchmarkRowsFloat is BenchmarkRows with float lengths in [1, 100).
func BenchmarkRowsFloat(b *testing.B) { benchRows(b, benchGraph(true)) }

func benchRows(b *testing.B, g *graph.Graph) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			cpu0, ok := processCPU()
			for b.Loop() {
				if _, err := Rows(context.Background(), g, threads, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0, ok)
		})
	}
}

// BenchmarkJohnsonRows times Johnson on a directed graph of the same size
// with negative arcs: lengths 1..100 plus h(u) − h(v) for a random potential
// h in [−100, 0], so that no cycle is negative.
func BenchmarkJohnsonRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(2024, 4096))
	h := make([]int64, benchN)
	for i := range h {
		h[i] = -rng.Int64N(101)
	}
	bld := graph.NewBuilder(true)
	for range 2 * benchEdges {
		u, v := rng.IntN(benchN), rng.IntN(benchN)
		if u != v {
			must(bld.AddIntEdge(u, v, 1+rng.Int64N(100)+h[u]-h[v]))
		}
	}
	g := bld.Build()
	cpu0, ok := processCPU()
	for b.Loop() {
		if _, err := JohnsonRows(context.Background(), g, 2, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, ok)
}

// reportCPU adds the process CPU seconds per op: on a shared machine wall
// time includes waiting for a core, CPU time does not.
func reportCPU(b *testing.B, cpu0 time.Duration, ok bool) {
	if cpu1, ok1 := processCPU(); ok && ok1 {
		b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkFill times the full int32 distance matrix of the same graph.
func BenchmarkFill(b *testing.B) {
	g := benchGraph(false)
	m, err := lanes.NewMatrix[int32](g, 0)
	if err != nil {
		b.Fatal(err)
	}
	cpu0, ok := processCPU()
	for b.Loop() {
		if err := Fill(context.Background(), g, m, 2, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, ok)
}

// BenchmarkSearch times one single-source search with each queue on the
// benchmark graph, so that the queue choice can be re-measured:
//
//	go test ./internal/dijkstra -run X -bench Search
func BenchmarkSearch(b *testing.B) {
	gi, gf := benchGraph(false), benchGraph(true)
	li := packLayout(gi, func(u, i int, _ int32) int32 { return int32(gi.IntWeights(u)[i]) })
	lf := packLayout(gf, func(u, i int, _ int32) float64 { return gf.FloatWeights(u)[i] })
	lu := packLayout(gi, func(int, int, int32) int32 { return 1 })
	for _, c := range []struct {
		name string
		s    searcher
	}{
		{"int/buckets", newIntSearcher(li, nil)},
		{"int/radix", newIntRadix(li, nil)},
		{"float/buckets", newFloatSearcher(lf, nil)},
		{"float/radix", newFloatRadix(lf, nil)},
		{"unweighted/bfs", newBFS(lu)},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := int32(0)
			cpu0, ok := processCPU()
			for b.Loop() {
				c.s.search(src)
				src = (src + 1) % int32(benchN)
			}
			reportCPU(b, cpu0, ok)
		})
	}
}
