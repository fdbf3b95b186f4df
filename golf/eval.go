package golf

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// ErrMismatch is wrapped when the second engine's diameter or ASPL
// differs from the first's: a result that must not be printed.
var ErrMismatch = errors.New("golf: engines disagree")

// Report is a graph measured against the competition's bounds, with the
// gaps Graph Golf prints (diameter − bound, ASPL − bound).
type Report struct {
	N           int     `json:"n"`
	Degree      int     `json:"degree"` // the d of the bound
	MaxDegree   int     `json:"max_degree"`
	Grid        *Grid   `json:"grid,omitempty"`
	Edges       int     `json:"edges"`
	Connected   bool    `json:"connected"`
	Diameter    int     `json:"diameter"`     // -1 when not connected
	ASPL        float64 `json:"aspl"`         // +Inf (null in JSON) when not connected
	Sum         int64   `json:"sum"`          // distances over unordered pairs: ASPL = Sum / (n(n-1)/2)
	Bound       Bound   `json:"bound"`        // lower bounds for (n, d) or the grid
	DiameterGap int     `json:"diameter_gap"` // Diameter − Bound.Diameter
	ASPLGap     float64 `json:"aspl_gap"`     // ASPL − Bound.ASPL
	Checked     string  `json:"checked_by"`   // the second engine
}

// measure is a connected graph's diameter, ASPL and distance sum.
type measure struct {
	connected bool
	diameter  int
	aspl      float64
	sum       int64
}

func better(a, b measure) bool {
	if a.connected != b.connected {
		return a.connected
	}
	return a.diameter < b.diameter || a.diameter == b.diameter && a.aspl < b.aspl
}

func fromSummary(s apsp.Summary, n int) measure {
	if !s.Connected || s.Diameter.IsInf() {
		return measure{diameter: -1, aspl: math.Inf(1)}
	}
	a := float64(s.ASPL)
	return measure{connected: true, diameter: int(s.Diameter.Int()), aspl: a,
		sum: int64(math.Round(a * float64(n) * float64(n-1) / 2))}
}

// checkEngine is the engine that recomputes every final figure.
const checkEngine = "bfs"

// recheck computes g's measures with plain BFS on the CPU and compares
// them with m.
func recheck(ctx context.Context, g *graph.Graph, m measure) error {
	s, err := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: checkEngine, Device: "cpu"})
	if err != nil {
		return fmt.Errorf("golf: recheck: %w", err)
	}
	c := fromSummary(s.Summary(), g.N())
	if c.connected != m.connected || c.diameter != m.diameter || c.sum != m.sum {
		return fmt.Errorf("%w: diameter %d ASPL %.10f, but %s says %d and %.10f", ErrMismatch,
			m.diameter, m.aspl, checkEngine, c.diameter, c.aspl)
	}
	return nil
}

// Evaluate measures g with the library (opt; the zero Options choose the
// engine and device), checks the figures with a second engine and
// returns them beside the bounds for degree d (0: g's largest degree)
// and, for a grid graph, its grid and length limit (the grid bound needs
// Grid.R > 0; with R = 0 the general bound is given).
func Evaluate(ctx context.Context, g *Graph, d int, opt apsp.Options) (*Report, error) {
	gg, err := g.Graph()
	if err != nil {
		return nil, err
	}
	ev, err := apsp.NewEvaluator(opt)
	if err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	s, err := ev.Summary(ctx, gg)
	if err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	m := fromSummary(s, g.N)
	if err := recheck(ctx, gg, m); err != nil {
		return nil, err
	}
	maxd := g.MaxDegree()
	if d == 0 {
		d = maxd
	}
	b, err := boundOf(g.N, d, g.Grid)
	if err != nil {
		return nil, err
	}
	r := &Report{N: g.N, Degree: d, MaxDegree: maxd, Edges: len(g.Edges), Connected: m.connected,
		Diameter: m.diameter, ASPL: m.aspl, Sum: m.sum, Bound: b, Checked: checkEngine}
	if g.Grid.IsGrid() {
		gr := g.Grid
		r.Grid = &gr
	}
	if !m.connected {
		r.ASPL = 0
	} else {
		r.DiameterGap = m.diameter - b.Diameter
		r.ASPLGap = m.aspl - b.ASPL
	}
	return r, nil
}

// boundOf is the grid bound when grid has a length limit, the general
// bound otherwise.
func boundOf(n, d int, grid Grid) (Bound, error) {
	if grid.IsGrid() && grid.R > 0 {
		return GridBound(grid.W, grid.H, d, grid.R)
	}
	return GeneralBound(n, d)
}
