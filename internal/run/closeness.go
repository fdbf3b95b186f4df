package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
)

// ErrNegativeLengths is wrapped by the refusal of a measure that needs
// non-negative lengths (closeness).
var ErrNegativeLengths = errors.New("needs non-negative lengths")

// Closeness is every vertex's closeness centrality (result.Closeness),
// from the distances to it: the rows of the reversed graph when directed,
// as NetworkX computes it. Negative lengths are refused, as NetworkX's
// Dijkstra refuses them (a sum of distances is no closeness there).
func Closeness(ctx context.Context, g *graph.Graph, o *plan.Options, wfImproved bool) ([]float64, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if o.Bounds {
		return nil, plan.ErrBoundsOnly()
	}
	if g.HasNegativeWeights() {
		return nil, fmt.Errorf("closeness %w", ErrNegativeLengths)
	}
	rows, d, err := Rows(ctx, g.Transpose(), o)
	if err != nil {
		return nil, err
	}
	return result.Closeness(rows, d.Exact(), wfImproved), nil
}
