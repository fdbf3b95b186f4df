package cpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestReferenceOnTable runs the reference Floyd–Warshall (with its
// successors), the blocked one (every kernel choice, several tiles) and
// the negative-cycle search on every case of the testgraphs table, in
// every lane kind the case's plan holds, against the table's answers. A
// negative self-loop is not in the matrix (the engines check for it
// before the run), so only FindNegativeCycle sees that case.
func TestReferenceOnTable(t *testing.T) {
	ctx := context.Background()
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		err := FindNegativeCycle(ctx, c.Graph)
		var nc *NegativeCycleError
		switch {
		case c.NegativeCycle == nil && err != nil:
			t.Errorf("%s: FindNegativeCycle: %v", c.Name, err)
		case c.NegativeCycle != nil && (!errors.As(err, &nc) || !c.OnNegativeCycle(nc.Vertex)):
			t.Errorf("%s: FindNegativeCycle = %v, want a vertex of %v", c.Name, err, c.NegativeCycle)
		}
		plan, err := lanes.PlanFor(c.Graph)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		plan = plan.Tighten(c.Graph)
		ran := 0
		for _, k := range lanes.Kinds() {
			if plan.Holds(k) != nil {
				continue
			}
			name := fmt.Sprintf("%s/%s", c.Name, k)
			switch k {
			case lanes.Int8:
				tableKind[int8](t, ctx, name, c, plan)
			case lanes.Int16:
				tableKind[int16](t, ctx, name, c, plan)
			case lanes.Int32:
				tableKind[int32](t, ctx, name, c, plan)
			case lanes.Int64:
				tableKind[int64](t, ctx, name, c, plan)
			case lanes.Float32:
				tableKind[float32](t, ctx, name, c, plan)
			case lanes.Float64:
				tableKind[float64](t, ctx, name, c, plan)
			default:
				t.Fatalf("no test for lane kind %v", k)
			}
			ran++
		}
		if ran == 0 {
			t.Errorf("%s: no lane kind holds it", c.Name)
		}
	}
}

func tableKind[T lanes.Lane](t *testing.T, ctx context.Context, name string, c *testgraphs.Case, plan lanes.Plan) {
	t.Helper()
	g := c.Graph
	_, selfLoop := g.NegativeSelfLoop()
	ref, err := lanes.NewMatrix[T](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	next := NewSuccessors(ref)
	err = FloydWarshall(ctx, ref, next, nil)
	var nc *NegativeCycleError
	switch {
	case c.NegativeCycle != nil && selfLoop:
		return
	case c.NegativeCycle != nil:
		if !errors.As(err, &nc) || !c.OnNegativeCycle(nc.Vertex) {
			t.Fatalf("%s: fw: %v, want a negative cycle through one of %v", name, err, c.NegativeCycle)
		}
		return
	case err != nil:
		t.Fatalf("%s: fw: %v", name, err)
	}
	normalize(ref, plan)
	if err := sameAsTable(ref, c); err != nil {
		t.Fatalf("%s: fw: %v", name, err)
	}
	if err := walkSuccessors(ref, next, c); err != nil {
		t.Fatalf("%s: fw successors: %v", name, err)
	}
	for _, tile := range []int{16, 32, 64} {
		for _, kc := range []KernelChoice{FastKernels, ScalarKernels} {
			m, err := lanes.NewMatrix[T](g, TileSize(g.N(), tile))
			if err != nil {
				t.Fatal(err)
			}
			if err := Blocked(ctx, m, BlockedOptions{Tile: tile, Threads: 2, Kernels: kc}); err != nil {
				t.Fatalf("%s: blocked: %v", name, err)
			}
			normalize(m, plan)
			if err := sameAsTable(m, c); err != nil {
				t.Fatalf("%s: blocked (tile %d, kernels %d): %v", name, tile, kc, err)
			}
		}
	}
}

// normalize is what the engines do after a run with negative arcs (only
// then: packed lanes, which never take them, can hold distances below a
// MaxReal beyond their range, which lanes.Normalize would wrap).
func normalize[T lanes.Lane](m *lanes.Matrix[T], plan lanes.Plan) {
	if plan.Negative {
		lanes.Normalize(m, plan.MaxReal)
	}
}

// sameAsTable compares every entry exactly: the table's lengths are
// integers or binary fractions whose sums every kind holding them holds.
func sameAsTable[T lanes.Lane](m *lanes.Matrix[T], c *testgraphs.Case) error {
	for u := range c.N {
		for v := range c.N {
			want := c.Dist[u][v]
			if m.IsInf(u, v) != math.IsInf(want, 1) || (!m.IsInf(u, v) && m.Float(u, v) != want) {
				return fmt.Errorf("d(%d,%d) = %v, want %v", u, v, m.Float(u, v), want)
			}
		}
	}
	return nil
}

// walkSuccessors follows the reference's successors between every pair
// along the graph's arcs: their lengths add up to the distance.
func walkSuccessors[T lanes.Lane](m *lanes.Matrix[T], next []int32, c *testgraphs.Case) error {
	g := c.Graph
	for u := range c.N {
		for v := range c.N {
			if math.IsInf(c.Dist[u][v], 1) {
				continue
			}
			var sum float64
			x := u
			for steps := 0; x != v; steps++ {
				y := int(next[x*m.Stride+v])
				i := -1
				if y >= 0 {
					i = g.ArcIndex(x, y)
				}
				if i < 0 || steps >= c.N {
					return fmt.Errorf("the path %d→%d breaks at %d (next %d)", u, v, x, y)
				}
				sum += g.ArcFloat(x, i)
				x = y
			}
			if sum != c.Dist[u][v] {
				return fmt.Errorf("the path %d→%d has length %v, want %v", u, v, sum, c.Dist[u][v])
			}
		}
	}
	return nil
}
