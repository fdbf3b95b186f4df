package engine

import (
	"testing"

	"github.com/apsp/apsp/graph"
)

// probeLevels finds a long graph's levels past small components at low
// numbers (a geometric graph's vertex 0 may be in one), even when they
// hold most of the vertices or a tenth in one shallow piece, and chosen
// sources of such a graph go to plain searches, not to bitbfs's batches,
// which pay a level for each distance.
func TestProbeLevels(t *testing.T) {
	const cycle = 20000
	pairs := func(k int) func(b *graph.Builder) int { // k vertices in pairs
		return func(b *graph.Builder) int {
			for u := 0; u+1 < k; u += 2 {
				must(t, b.AddEdge(u, u+1))
			}
			return k
		}
	}
	star := func(k int) func(b *graph.Builder) int { // vertex 0 and k−1 leaves
		return func(b *graph.Builder) int {
			for u := 1; u < k; u++ {
				must(t, b.AddEdge(0, u))
			}
			return k
		}
	}
	tests := []struct {
		name   string
		before func(b *graph.Builder) int // adds the vertices before the cycle, returns how many
	}{
		{"cycle from vertex 0", pairs(0)},
		{"cycle after small components", pairs(40)},
		{"cycle after more small components than it has vertices", pairs(3 * cycle)},
		{"cycle after a star of a tenth of the vertices", star(cycle / 10)},
	}
	for _, tt := range tests {
		b := graph.NewBuilder(false)
		first := tt.before(b)
		must(t, b.SetVertices(first+cycle))
		for i := range cycle {
			must(t, b.AddEdge(first+i, first+(i+1)%cycle))
		}
		g := b.Build()
		p := &Problem{Graph: g, Threads: 2}
		if got := probeLevels(p, 1e9); got != cycle/2+1 {
			t.Errorf("%s: probeLevels %v, want %v", tt.name, got, cycle/2+1)
		}
		if got := probeLevels(p, 100); got != 100 {
			t.Errorf("%s: probeLevels up to 100: %v", tt.name, got)
		}
		plain, batched := bfsEngine{}.EstimateFrom(p, 16), bfsEngine{bitParallel: true}.EstimateFrom(p, 16)
		if batched <= plain {
			t.Errorf("%s: 16 sources: bitbfs estimated %.3g s, plain %.3g s: want plain cheaper", tt.name, batched, plain)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
