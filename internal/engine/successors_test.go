package engine

import (
	"math"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// floatDist is a float64 distance matrix given entry by entry: what
// Successors reads of lanes.Any.
type floatDist struct {
	lanes.Any // nil: Successors uses none of the rest
	d         [][]float64
}

func (f floatDist) Kind() lanes.Kind           { return lanes.Float64 }
func (f floatDist) Vertices() int              { return len(f.d) }
func (f floatDist) IsInf(u, v int) bool        { return math.IsInf(f.d[u][v], 1) }
func (f floatDist) Float(u, v int) float64     { return f.d[u][v] }
func (f floatDist) Int(u, v int) (int64, bool) { return int64(f.d[u][v]), !f.IsInf(u, v) }

// TestSuccessorsFloatScale: an arc is tight only within the rounding of
// the sums, at any scale (a floor of 1 on the tolerance took 0→2 of
// length 5e-12 for the path of 2e-12, and at 1e9 an arc 0.25 longer); and
// distances rounded beyond that bound still give every vertex that
// reaches the target a successor, the arc of least excess.
func TestSuccessorsFloatScale(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name     string
		a, b, ab float64 // arcs 0→1, 1→2, 0→2
		d02      float64 // the distance 0→2 the matrix says
	}{
		{"tiny", 1e-12, 1e-12, 5e-12, 2e-12},
		{"huge", 5e8, 5e8, 1e9 + 0.25, 1e9},
		{"rounded beyond the bound", 1e-12, 1e-12, 5e-12, 2e-12 * (1 - 1e-6)},
		{"huge, rounded beyond the bound", 5e8, 5e8, 1e9 + 0.25, 1e9 - 1e-3},
	} {
		b := graph.NewBuilder(true)
		for _, arc := range []struct {
			u, v int
			w    float64
		}{{0, 1, c.a}, {1, 2, c.b}, {0, 2, c.ab}} {
			if err := b.AddFloatEdge(arc.u, arc.v, arc.w); err != nil {
				t.Fatal(err)
			}
		}
		g := b.Build()
		d := floatDist{d: [][]float64{{0, c.a, c.d02}, {inf, 0, c.b}, {inf, inf, 0}}}
		next := Successors(d, g, 1)
		if got := next[0*3+2]; got != 1 {
			t.Errorf("%s: successor of 0 toward 2 is %d, want 1 (the path 0→1→2)", c.name, got)
		}
		if got := next[1*3+2]; got != 2 {
			t.Errorf("%s: successor of 1 toward 2 is %d, want 2", c.name, got)
		}
	}
}
