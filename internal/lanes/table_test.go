package lanes

import (
	"math"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestPlanOnTable checks the lane plan's proven bounds against the known
// distances of every case of the testgraphs table: MinReal ≤ d ≤ MaxReal
// for integer graphs, |d| ≤ MaxAbsFloat for float ones, d ≤ MaxDist where
// Tighten proves one, and DistBound's bound holds; Negative is set exactly
// for the cases with a negative length. The kinds the plan holds give the
// table's rows back from its matrix.
func TestPlanOnTable(t *testing.T) {
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		p, err := PlanFor(c.Graph)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if p.Negative != c.Graph.HasNegativeWeights() {
			t.Errorf("%s: plan negative %v", c.Name, p.Negative)
		}
		if c.NegativeCycle != nil {
			continue
		}
		tight := p.Tighten(c.Graph)
		bound, proven := int64(-1), false
		if c.Kind != graph.FloatWeights && !p.Negative {
			bound, proven = DistBound(c.Graph, math.MaxInt64)
		}
		for u, row := range c.Dist {
			for v, d := range row {
				if math.IsInf(d, 1) {
					continue
				}
				switch {
				case c.Kind == graph.FloatWeights:
					if math.Abs(d) > p.MaxAbsFloat {
						t.Errorf("%s: |d(%d,%d)| = %v beyond MaxAbsFloat %v", c.Name, u, v, d, p.MaxAbsFloat)
					}
				case d > float64(p.MaxReal) || d < float64(p.MinReal):
					t.Errorf("%s: d(%d,%d) = %v outside [%d, %d]", c.Name, u, v, d, p.MinReal, p.MaxReal)
				case tight.MaxDist > 0 && d > float64(tight.MaxDist):
					t.Errorf("%s: d(%d,%d) = %v beyond Tighten's MaxDist %d", c.Name, u, v, d, tight.MaxDist)
				case proven && d > float64(bound):
					t.Errorf("%s: d(%d,%d) = %v beyond DistBound %d", c.Name, u, v, d, bound)
				}
			}
		}
		// The rows of the table's matrix in each kind the plan holds.
		for _, k := range Kinds() {
			if tight.Holds(k) != nil {
				continue
			}
			var rows []reduce.Row
			switch k {
			case Int8:
				rows = rowsIn[int8](c)
			case Int16:
				rows = rowsIn[int16](c)
			case Int32:
				rows = rowsIn[int32](c)
			case Int64:
				rows = rowsIn[int64](c)
			case Float32:
				rows = rowsIn[float32](c)
			case Float64:
				rows = rowsIn[float64](c)
			}
			want := c.Rows(!k.IsFloat())
			for u := range want {
				if rows[u] != want[u] {
					t.Errorf("%s in %v: row %d = %+v, want %+v", c.Name, k, u, rows[u], want[u])
				}
			}
		}
	}
}

// rowsIn writes the case's matrix in T's lanes and reduces its rows.
func rowsIn[T Lane](c *testgraphs.Case) []reduce.Row {
	m := &Matrix[T]{N: c.N, Size: c.N, Stride: c.N, Inf: InfOf[T](), Data: make([]T, 0, c.N*c.N)}
	for _, row := range c.Dist {
		for _, d := range row {
			if math.IsInf(d, 1) {
				m.Data = append(m.Data, m.Inf)
			} else {
				m.Data = append(m.Data, T(d))
			}
		}
	}
	return m.Rows(3)
}
