package dijkstra

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestTable runs Dijkstra (non-negative cases) and Johnson (every case)
// on the testgraphs table, rows and fills in every lane type that holds
// the case, against the table's distances; on a negative cycle Johnson
// names a vertex of it and Dijkstra refuses the negative lengths.
func TestTable(t *testing.T) {
	ctx := context.Background()
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		g := c.Graph
		if c.NegativeCycle != nil {
			var nc *cpu.NegativeCycleError
			if _, err := JohnsonRows(ctx, g, 2, nil); !errors.As(err, &nc) || !c.OnNegativeCycle(nc.Vertex) {
				t.Errorf("%s: JohnsonRows: %v, want a negative cycle through one of %v", c.Name, err, c.NegativeCycle)
			}
			if err := JohnsonFill(ctx, g, newMatrix[int64](t, g, 0), 2, nil); !errors.As(err, &nc) || !c.OnNegativeCycle(nc.Vertex) {
				t.Errorf("%s: JohnsonFill: %v, want a negative cycle through one of %v", c.Name, err, c.NegativeCycle)
			}
			if _, err := Rows(ctx, g, 2, nil); !errors.Is(err, ErrNegativeWeights) {
				t.Errorf("%s: Rows: %v, want ErrNegativeWeights", c.Name, err)
			}
			continue
		}
		engs := engines
		if g.HasNegativeWeights() {
			engs = engines[1:]
			if _, err := Rows(ctx, g, 2, nil); !errors.Is(err, ErrNegativeWeights) {
				t.Errorf("%s: Rows: %v, want ErrNegativeWeights", c.Name, err)
			}
		}
		mi, mf := tableOracle(c)
		for threads := 1; threads <= 3; threads++ {
			checkAgainst(t, fmt.Sprintf("%s/%d threads", c.Name, threads), g, engs, threads, mi, mf)
		}
	}
}

// tableOracle is the case's matrix as the oracle gives it: int64 unless
// the weights are floats.
func tableOracle(c *testgraphs.Case) (*lanes.Matrix[int64], *lanes.Matrix[float64]) {
	if c.Kind == graph.FloatWeights {
		m := &lanes.Matrix[float64]{N: c.N, Size: c.N, Stride: c.N, Inf: lanes.InfOf[float64](), Data: make([]float64, 0, c.N*c.N)}
		for _, row := range c.Dist {
			m.Data = append(m.Data, row...)
		}
		return nil, m
	}
	m := &lanes.Matrix[int64]{N: c.N, Size: c.N, Stride: c.N, Inf: lanes.InfOf[int64](), Data: make([]int64, 0, c.N*c.N)}
	for _, row := range c.Dist {
		for _, d := range row {
			if math.IsInf(d, 1) {
				m.Data = append(m.Data, m.Inf)
			} else {
				m.Data = append(m.Data, int64(d))
			}
		}
	}
	return m, nil
}
