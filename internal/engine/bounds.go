package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bounds"
)

// ErrBoundsBudget is wrapped when the bounds method spent its budget
// before the diameter and radius were known.
var ErrBoundsBudget = bounds.ErrBudget

// Extremes are the diameter, radius and connectivity the bounds method
// found, with DiameterInf and RadiusInf for infinite ones.
type Extremes struct {
	Diameter, Radius int64
	DiameterInf      bool
	RadiusInf        bool
	Connected        bool
	// Traversals counts the breadth-first searches, also when the budget
	// ran out.
	Traversals int
}

// BoundsExtremes runs the bounds method on the unweighted g on up to
// threads threads, over the reachable pairs only when reachable. A budget
// above 0 caps its work (in searches of the whole graph): when it runs out
// the error wraps ErrBoundsBudget and Traversals says what was spent.
func BoundsExtremes(ctx context.Context, g *graph.Graph, reachable bool, threads int, budget float64) (Extremes, error) {
	if g.Kind() != graph.Unweighted {
		return Extremes{}, ErrNeedsUnweighted
	}
	r, err := bounds.Diameter(ctx, g, bounds.Options{Reachable: reachable, Threads: threads, WantRadius: true, Budget: budget})
	x := Extremes{Diameter: r.Diameter, Radius: r.Radius, Connected: r.Connected, Traversals: r.Traversals,
		DiameterInf: r.Diameter == bounds.Infinite, RadiusInf: r.Radius == bounds.Infinite}
	return x, err
}
