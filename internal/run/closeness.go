package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/result"
)

// ErrNegativeLengths is wrapped by the refusal of a measure that needs
// non-negative lengths (closeness, harmonic centrality).
var ErrNegativeLengths = errors.New("needs non-negative lengths")

// Closeness is every vertex's closeness centrality (result.Closeness),
// from the distances o.Mode reads (default in: to the vertex, the rows of
// the reversed graph when directed, as NetworkX computes it). Negative
// lengths are refused, as NetworkX's Dijkstra refuses them (a sum of
// distances is no closeness there).
func Closeness(ctx context.Context, g *graph.Graph, o *plan.Options, wfImproved bool) ([]float64, error) {
	rows, exact, err := centralityRows(ctx, "closeness", g, o, plan.Rows)
	if err != nil {
		return nil, err
	}
	return result.Closeness(rows, exact, wfImproved), nil
}

// Harmonic is every vertex's harmonic centrality (result.Harmonic), from
// the distances o.Mode reads (default in, as Closeness). Only engines that
// sum 1/d per source (engine.Caps.Harmonic) summarise it without the
// matrix: the planner gives the others the matrix (plan.Harmonic).
func Harmonic(ctx context.Context, g *graph.Graph, o *plan.Options) ([]float64, error) {
	rows, _, err := centralityRows(ctx, "harmonic centrality", g, o, plan.Harmonic)
	if err != nil {
		return nil, err
	}
	return result.Harmonic(rows), nil
}

// Centralities is Closeness and Harmonic from one search.
func Centralities(ctx context.Context, g *graph.Graph, o *plan.Options, wfImproved bool) (closeness, harmonic []float64, err error) {
	rows, exact, err := centralityRows(ctx, "centrality", g, o, plan.Harmonic)
	if err != nil {
		return nil, nil, err
	}
	return result.Closeness(rows, exact, wfImproved), result.Harmonic(rows), nil
}

// centralityRows is the rows of the graph o.Mode views (default in) for a
// centrality, what.
func centralityRows(ctx context.Context, what string, g *graph.Graph, o *plan.Options, want plan.Want) ([]reduce.Row, bool, error) {
	if err := UsableGraph(g); err != nil {
		return nil, false, err
	}
	if o.Bounds {
		return nil, false, plan.ErrBoundsOnly()
	}
	if g.HasNegativeWeights() {
		return nil, false, fmt.Errorf("%s %w", what, ErrNegativeLengths)
	}
	g, o = viewed(g, o, plan.ModeIn)
	pl, err := resolve(g, o, want)
	if err != nil {
		return nil, false, err
	}
	rows, d, err := rowsOf(ctx, pl, o.CPUs())
	if err != nil {
		return nil, false, err
	}
	return rows, d.Exact(), nil
}

// viewed is the graph o.Mode views (def when none is named: plan.View)
// and o without the mode, for the calls below that read none.
func viewed(g *graph.Graph, o *plan.Options, def plan.Mode) (*graph.Graph, *plan.Options) {
	v := plan.View(g, o.ModeOr(def))
	if o.Mode == plan.ModeDefault {
		return v, o
	}
	plain := *o
	plain.Mode = plan.ModeDefault
	return v, &plain
}
