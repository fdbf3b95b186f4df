package engine

import (
	"testing"

	"github.com/apsp/apsp/graph"
)

// probeLevels finds a long graph's levels past small components at low
// numbers (a geometric graph's vertex 0 may be in one), even when they
// hold most of the vertices, and chosen sources
// of such a graph go to plain searches, not to bitbfs's batches, which
// pay a level for each distance.
func TestProbeLevels(t *testing.T) {
	const cycle = 20000
	tests := []struct {
		name      string
		isolated  int // vertices before the cycle, in pairs joined by an edge
		wantLevel float64
	}{
		{"cycle from vertex 0", 0, cycle/2 + 1},
		{"cycle after small components", 40, cycle/2 + 1},
		{"cycle after more small components than it has vertices", 3 * cycle, cycle/2 + 1},
	}
	for _, tt := range tests {
		b := graph.NewBuilder(false)
		n := tt.isolated + cycle
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		for u := 0; u+1 < tt.isolated; u += 2 {
			if err := b.AddEdge(u, u+1); err != nil {
				t.Fatal(err)
			}
		}
		for i := range cycle {
			if err := b.AddEdge(tt.isolated+i, tt.isolated+(i+1)%cycle); err != nil {
				t.Fatal(err)
			}
		}
		g := b.Build()
		p := &Problem{Graph: g, Threads: 2}
		if got := probeLevels(p, 1e9); got != tt.wantLevel {
			t.Errorf("%s: probeLevels %v, want %v", tt.name, got, tt.wantLevel)
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
