package csr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
)

// randomRegularish is a random graph of n vertices and about d/2·n edges,
// randomly numbered: the searches' memory access is random, as in
// bitbfs's and bounds' benchmarks before relabelling.
func randomRegularish(b *testing.B, n, d int) *graph.Graph {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	gb := graph.NewBuilder(false)
	if err := gb.SetVertices(n); err != nil {
		b.Fatal(err)
	}
	for u := range n {
		for range d / 2 {
			if err := gb.AddEdge(u, rng.IntN(n)); err != nil {
				b.Fatal(err)
			}
		}
	}
	return gb.Build()
}

// BenchmarkBFS is one full search from each of 16 sources, resetting only
// the reached vertices, as bfs.Rows and the bounds do.
func BenchmarkBFS(b *testing.B) {
	for _, n := range []int{1 << 14, 1 << 18} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := randomRegularish(b, n, 4)
			a := csr.Of(g)
			dist, queue := make([]int32, n), make([]int32, n)
			for i := range dist {
				dist[i] = -1
			}
			arcs := 0
			for b.Loop() {
				for s := range int32(16) {
					reached, m := a.BFS(s, -1, dist, queue)
					arcs += m
					for _, v := range queue[:reached] {
						dist[v] = -1
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(arcs), "ns/arc")
		})
	}
}
