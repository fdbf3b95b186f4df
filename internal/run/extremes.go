package run

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
)

// Budget gives the bounds method's budget under "auto" for g on threads
// threads, in searches of the whole graph (plan.BoundsBudget; tests make
// it tiny).
type Budget func(g *graph.Graph, threads int) float64

// Extremes returns the diameter, radius and connectivity of g without the
// ASPL: by the bounds method where the planner starts with it
// (plan.BoundsFirst), else from Stats. On a budget (under "auto"), the
// all-pairs fallback is planned and admitted before the bounds method
// spends anything, so that a fallback that cannot fit is refused at once;
// when the budget runs out the fallback answers, Algorithm names it and
// Traversals still counts the searches spent.
func Extremes(ctx context.Context, g *graph.Graph, o *plan.Options, budget Budget) (*result.Stats, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if err := o.NoEffective("the extremes (diameter, radius)"); err != nil {
		return nil, err
	}
	if err := o.NoSources("the extremes (diameter, radius)"); err != nil {
		return nil, err
	}
	g, o = viewed(g, o, plan.ModeOut) // as Stats
	first, budgeted := plan.BoundsFirst(g, o)
	if !first {
		return extremesFromStats(ctx, g, o, nil)
	}
	if g.Kind() != graph.Unweighted {
		return nil, fmt.Errorf("algorithm bounds: %w", engine.ErrNeedsUnweighted)
	}
	start := time.Now()
	if err := plan.AdmitBounds(g); err != nil {
		return nil, err
	}
	var spend float64
	if budgeted {
		if err := admitFallback(g, o); err != nil {
			return nil, fmt.Errorf("the all-pairs fallback of the bounds method: %w (--algo bounds runs without it)", err)
		}
		spend = budget(g, o.CPUs())
	}
	x, err := engine.BoundsExtremes(ctx, g, o.Reachable, o.CPUs(), spend)
	if budgeted && errors.Is(err, engine.ErrBoundsBudget) {
		s, err := extremesFromStats(ctx, g, o, nil)
		if err != nil {
			return nil, err
		}
		s.Traversals = x.Traversals
		s.Seconds = time.Since(start).Seconds()
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s := &result.Stats{
		Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: false,
		Connected: x.Connected, Reachable: o.Reachable, NoASPL: true, ASPL: result.Mean(math.NaN()), ReachablePairs: -1,
		Algorithm: plan.BoundsAlgorithm, Device: "cpu", Lanes: "int32", Threads: o.CPUs(), Traversals: x.Traversals,
		Diameter: extreme(x.Diameter, x.DiameterInf), Radius: extreme(x.Radius, x.RadiusInf), Names: g.Names(),
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// admitFallback refuses, before the bounds method spends its budget, a
// graph whose all-pairs fallback could not fit. On the "auto" device it
// plans the fallback on the CPU first, which needs no GPU: planning one
// would load the driver and run the estimates' searches, a cost the
// bounds method alone does not pay. Only when the CPU's plan does not fit
// is the fallback planned as it would run, where a GPU may still take it.
// The fallback that runs is admitted again as it starts, so a GPU plan
// needing more host memory than the CPU's admitted here is still refused,
// later.
func admitFallback(g *graph.Graph, o *plan.Options) error {
	quiet := *o
	quiet.Notice = nil // the fallback's notes are passed on if it runs
	if quiet.Device.Kind == "auto" {
		onCPU := quiet
		onCPU.Device = plan.Device{Kind: "cpu"}
		if _, err := resolve(g, &onCPU, plan.Rows); err == nil {
			return nil
		}
	}
	_, err := resolve(g, &quiet, plan.Rows)
	return err
}

// extreme is a diameter or radius of the bounds method as a Length.
func extreme(d int64, inf bool) result.Length {
	if inf {
		return result.Infinite(false)
	}
	return result.IntLength(d)
}

// extremesFromStats is Extremes through Stats, under pl when the caller
// has planned it already (else planned here).
func extremesFromStats(ctx context.Context, g *graph.Graph, o *plan.Options, pl *plan.Plan) (*result.Stats, error) {
	start := time.Now()
	if pl == nil {
		var err error
		if pl, err = resolve(g, o, plan.Rows); err != nil {
			return nil, err
		}
	}
	s, err := statsOf(ctx, g, pl, o.Reachable, false, nil)
	if err != nil {
		return nil, err
	}
	s.Seconds = time.Since(start).Seconds()
	s.NoASPL = true
	s.ASPL, s.ReachablePairs, s.Center, s.Periphery = result.Mean(math.NaN()), -1, nil, nil
	return s, nil
}
