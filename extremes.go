package apsp

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/run"
)

// BoundsAlgorithm names the diameter-by-bounds method in Options.Algorithm
// and in results; it answers diameter and radius only.
const BoundsAlgorithm = plan.BoundsAlgorithm

// ComputeExtremes returns the diameter, radius and connectivity of g without
// the ASPL. For unweighted graphs under "auto" (or "bounds") it needs no
// all-pairs computation: the bounding-diameters method (Takes & Kosters)
// runs a few breadth-first searches and reports how many in
// Stats.Traversals. Under "auto" the bounds method has a budget of a
// share of the estimated all-pairs time; the all-pairs engine that would
// answer when it runs out is planned, and its memory admitted, before the
// bounds method starts, so that a graph it cannot take is refused at once.
// When the budget runs out the answer comes from that engine, Stats.Algorithm
// names it and Stats.Traversals still counts the searches spent before.
// "bounds" asked for by name has no budget. Other graphs go through
// ComputeStats. ASPL, reachable pairs, center and periphery are left unset
// (ASPL is NaN, null in JSON).
//
// The radius is the smallest eccentricity; without opt.Reachable a vertex
// that does not reach every other has an infinite one, so a directed graph
// that is not strongly connected has a finite radius (and an infinite
// diameter) when one strong component reaches all the others.
func ComputeExtremes(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Extremes(ctx, g, o, plan.BoundsBudget)
}
