package engine

import (
	"math"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// floatDist is a float distance matrix given entry by entry: what
// Successors reads of lanes.Any.
type floatDist struct {
	lanes.Any // nil: Successors uses none of the rest
	kind      lanes.Kind
	d         [][]float64
}

func (f floatDist) Kind() lanes.Kind           { return f.kind }
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
		d := floatDist{kind: lanes.Float64, d: [][]float64{{0, c.a, c.d02}, {inf, 0, c.b}, {inf, inf, 0}}}
		next := Successors(d, g, 1)
		if got := next[0*3+2]; got != 1 {
			t.Errorf("%s: successor of 0 toward 2 is %d, want 1 (the path 0→1→2)", c.name, got)
		}
		if got := next[1*3+2]; got != 2 {
			t.Errorf("%s: successor of 1 toward 2 is %d, want 2", c.name, got)
		}
	}
}

// TestSuccessorsIntegersInFloatLanes: an integer graph in float lanes has
// exact distances, and an arc 1 longer is not tight however large the
// distances (a relative tolerance reached 1 from 2^51/(n+1) in float64,
// 2^22/(n+1) in float32).
func TestSuccessorsIntegersInFloatLanes(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		kind lanes.Kind
		half int64 // arcs 0→1 and 1→2; 0→2 is 2·half + 1
	}{{lanes.Float64, 1 << 49}, {lanes.Float32, 1 << 20}} {
		b := graph.NewBuilder(true)
		for _, arc := range [][3]int64{{0, 1, c.half}, {1, 2, c.half}, {0, 2, 2*c.half + 1}} {
			if err := b.AddIntEdge(int(arc[0]), int(arc[1]), arc[2]); err != nil {
				t.Fatal(err)
			}
		}
		h := float64(c.half)
		d := floatDist{kind: c.kind, d: [][]float64{{0, h, 2 * h}, {inf, 0, h}, {inf, inf, 0}}}
		if got := Successors(d, b.Build(), 1)[0*3+2]; got != 1 {
			t.Errorf("%s: successor of 0 toward 2 is %d, want 1", c.kind, got)
		}
	}
}
