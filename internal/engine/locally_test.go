package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/dijkstra"
	"github.com/apsp/apsp/internal/testgraphs"
)

// The rows of chosen sources searched on the graph renumbered in
// breadth-first order equal those on the graph as given (integer lengths,
// unweighted, directed or not); float and negative lengths are left as
// they are.
func TestLocallySameRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 50))
	always := func(g *graph.Graph, _ int) []int32 { return bfs.BreadthFirstNumbers(g) }
	for trial := range 40 {
		kind := []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3]
		spec := testgraphs.Spec{N: 2 + rng.IntN(80), P: 0.05, Directed: trial%2 == 0, Kind: kind, Lo: 0, Hi: 9, Parts: 1 + trial%3}
		if trial%5 == 4 && spec.Directed && kind == graph.IntWeights {
			spec.Potential = 5 // negative lengths, no negative cycle
		}
		g := testgraphs.Random(rng, spec)
		sources := make([]int32, 1+rng.IntN(20))
		for i := range sources {
			sources[i] = int32(rng.IntN(g.N()))
		}
		h, mapped := locally(g, sources, always)
		if g.Kind() == graph.FloatWeights || g.HasNegativeWeights() {
			if h != g || !slices.Equal(mapped, sources) {
				t.Fatalf("trial %d: a graph of float or negative lengths was renumbered", trial)
			}
			continue
		}
		if h == g {
			t.Fatalf("trial %d: not renumbered", trial)
		}
		want, err := dijkstra.RowsFrom(context.Background(), g, sources, false, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dijkstra.RowsFrom(context.Background(), h, mapped, false, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%v, n=%d): rows differ after renumbering", trial, kind, g.N())
		}
	}
}
