package bounds

import (
	"context"
	"math"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestTable runs both strategies on every unweighted case of the
// testgraphs table, over every pair and over the reachable ones, with and
// without the radius, against the table's diameter, radius and
// connectivity.
func TestTable(t *testing.T) {
	length := func(x float64) int64 {
		if math.IsInf(x, 1) {
			return Infinite
		}
		return int64(x)
	}
	ran := 0
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		if c.Graph.Kind() != graph.Unweighted {
			continue
		}
		ran++
		for _, st := range []strategy{boundingDiameters, ifub} {
			for _, opt := range []Options{
				{Threads: 1, WantRadius: true},
				{Threads: 2, WantRadius: true, Reachable: true},
				{Threads: 3},
				{Threads: 1, Reachable: true},
			} {
				m := c.Strict
				if opt.Reachable {
					m = c.Reachable
				}
				want := Result{Diameter: length(m.Diameter), Radius: -1, Connected: c.Connected}
				if opt.WantRadius {
					want.Radius = length(m.Radius)
				}
				got, err := diameter(context.Background(), c.Graph, opt, st)
				if err != nil {
					t.Fatalf("%s %+v %d: %v", c.Name, opt, st, err)
				}
				if got.Diameter != want.Diameter || got.Radius != want.Radius || got.Connected != want.Connected {
					t.Fatalf("%s %+v %d: diameter %d, radius %d, connected %v; want %d, %d, %v", c.Name, opt, st,
						got.Diameter, got.Radius, got.Connected, want.Diameter, want.Radius, want.Connected)
				}
			}
		}
	}
	if ran == 0 {
		t.Fatal("no unweighted case in the table")
	}
}
