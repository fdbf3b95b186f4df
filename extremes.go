package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bounds"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
)

// BoundsAlgorithm names the diameter-by-bounds method in Options.Algorithm
// and in results; it answers diameter and radius only.
const BoundsAlgorithm = "bounds" // the same as plan.BoundsAlgorithm (tested)

// ComputeExtremes returns the diameter, radius and connectivity of g without
// the ASPL. For unweighted graphs under "auto" (or "bounds") it needs no
// all-pairs computation: the bounding-diameters method (Takes & Kosters)
// runs a few breadth-first searches and reports how many in
// Stats.Traversals. Under "auto" the bounds method has a budget of a
// share of the estimated all-pairs time (plan.BoundsBudget); when it runs out
// the answer comes from ComputeStats instead, Stats.Algorithm names the
// engine that gave it and Stats.Traversals still counts the searches spent
// before. "bounds" asked for by name has no budget. Other graphs go
// through ComputeStats. ASPL, reachable pairs, center and periphery are
// left unset (ASPL is NaN, null in JSON).
//
// The radius is the smallest eccentricity; without opt.Reachable a vertex
// that does not reach every other has an infinite one, so a directed graph
// that is not strongly connected has a finite radius (and an infinite
// diameter) when one strong component reaches all the others.
func ComputeExtremes(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	return computeExtremes(ctx, g, opt, plan.BoundsBudget)
}

// namedLanes reports whether opt asks for lanes other than the int32 of
// the bounds method and the bulk searches, which then step aside for an
// engine that computes in them.
func namedLanes(opt Options) bool {
	return opt.Lanes != "" && opt.Lanes != "auto" && opt.Lanes != "int32"
}

// computeExtremes is ComputeExtremes with the budget of "auto" given by
// budget (which tests make tiny).
func computeExtremes(ctx context.Context, g *graph.Graph, opt Options, budget func(*graph.Graph, int) float64) (*Stats, error) {
	if err := usableGraph(g); err != nil {
		return nil, err
	}
	if err := opt.Validate(true); err != nil {
		return nil, err
	}
	dev, err := plan.ParseDevice(opt.Device)
	if err != nil {
		return nil, err
	}
	auto := opt.Algorithm == "" || opt.Algorithm == "auto"
	useBounds := opt.Algorithm == BoundsAlgorithm || (auto && dev.Kind != "gpu" && g.Kind() == graph.Unweighted && !namedLanes(opt))
	if !useBounds {
		return extremesFromStats(ctx, g, opt)
	}
	if g.Kind() != graph.Unweighted {
		return nil, fmt.Errorf("algorithm bounds: %w", engine.ErrNeedsUnweighted)
	}
	start := time.Now()
	if err := plan.AdmitBounds(g); err != nil {
		return nil, err
	}
	bopt := bounds.Options{Reachable: opt.Reachable, Threads: opt.Threads, WantRadius: true}
	if auto {
		bopt.Budget = budget(g, par.Threads(opt.Threads))
	}
	r, err := bounds.Diameter(ctx, g, bopt)
	if auto && errors.Is(err, bounds.ErrBudget) {
		s, err := extremesFromStats(ctx, g, opt)
		if err != nil {
			return nil, err
		}
		s.Traversals = r.Traversals
		s.Seconds = time.Since(start).Seconds()
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s := &Stats{
		Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: false,
		Connected: r.Connected, Reachable: opt.Reachable, NoASPL: true, ASPL: Mean(math.NaN()), ReachablePairs: -1,
		Algorithm: BoundsAlgorithm, Device: "cpu", Lanes: "int32", Threads: par.Threads(opt.Threads), Traversals: r.Traversals,
		Diameter: boundsLength(r.Diameter), Radius: boundsLength(r.Radius),
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// boundsLength converts a distance of package bounds.
func boundsLength(d int64) Length {
	if d == bounds.Infinite {
		return Infinite(false)
	}
	return IntLength(d)
}

// extremesFromStats is ComputeExtremes through ComputeStats.
func extremesFromStats(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	s, err := ComputeStats(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	s.NoASPL = true
	s.ASPL, s.ReachablePairs, s.Center, s.Periphery = Mean(math.NaN()), -1, nil, nil
	return s, nil
}
