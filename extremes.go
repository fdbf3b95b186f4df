package apsp

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bounds"
	"github.com/apsp/apsp/internal/cpu"
)

// BoundsAlgorithm names the diameter-by-bounds method in Options.Algorithm
// and in results; it answers diameter and radius only.
const BoundsAlgorithm = "bounds"

// errBoundsOnly is returned when "bounds" is asked for more than it gives.
var errBoundsOnly = errors.New(`algorithm bounds computes only the diameter and radius (apsp diameter, apsp stats --no-aspl)`)

// ComputeExtremes returns the diameter, radius and connectivity of g without
// the ASPL. For unweighted graphs under "auto" (or "bounds") it needs no
// all-pairs computation: the bounding-diameters method (Takes & Kosters)
// runs a few breadth-first searches and reports how many in
// Stats.Traversals. Other graphs go through ComputeStats. ASPL, reachable
// pairs, center and periphery are left unset (ASPL is NaN, null in JSON).
func ComputeExtremes(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	kind, _, err := parseDevice(opt.Device)
	if err != nil {
		return nil, err
	}
	useBounds := opt.Algorithm == BoundsAlgorithm ||
		((opt.Algorithm == "" || opt.Algorithm == "auto") && kind != "gpu" && g.Kind() == graph.Unweighted)
	if !useBounds {
		s, err := ComputeStats(ctx, g, opt)
		if err != nil {
			return nil, err
		}
		s.NoASPL = true
		s.ASPL, s.ReachablePairs, s.Center, s.Periphery = Mean(math.NaN()), -1, nil, nil
		return s, nil
	}
	if g.Kind() != graph.Unweighted {
		return nil, errNeedsUnweighted
	}
	start := time.Now()
	r, err := bounds.Diameter(ctx, g, bounds.Options{Reachable: opt.Reachable, Threads: opt.Threads, WantRadius: true})
	if err != nil {
		return nil, err
	}
	s := &Stats{
		Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: false,
		Connected: r.Connected, Reachable: opt.Reachable, NoASPL: true, ASPL: Mean(math.NaN()), ReachablePairs: -1,
		Algorithm: BoundsAlgorithm, Device: "cpu", Lanes: "int32", Threads: cpu.Threads(opt.Threads), Traversals: r.Traversals,
		Diameter: IntLength(r.Diameter), Radius: IntLength(r.Radius),
	}
	if !r.Connected && !opt.Reachable {
		s.Diameter, s.Radius = Infinite(false), Infinite(false)
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}
