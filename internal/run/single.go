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
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/result"
)

// ErrEmptyGraph is returned for a graph without vertices.
var ErrEmptyGraph = errors.New("graph has no vertices")

// ErrNotExact is wrapped by the refusal of a measure that needs exact
// non-negative distances (the effective diameter) on a graph with float or
// negative lengths.
var ErrNotExact = errors.New("distances not exact")

// ErrNilGraph is returned for a nil graph (by the batch calls, for that
// graph alone).
var ErrNilGraph = errors.New("graph is nil")

// UsableGraph returns ErrNilGraph or ErrEmptyGraph for a graph no
// computation takes, else nil.
func UsableGraph(g *graph.Graph) error {
	switch {
	case g == nil:
		return ErrNilGraph
	case g.N() == 0:
		return ErrEmptyGraph
	}
	return nil
}

// resolve plans g under o for the wanted result and passes the plan's
// note to o.Notice.
func resolve(g *graph.Graph, o *plan.Options, want plan.Want) (*plan.Plan, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	pl, err := plan.Resolve(g, plan.Request{Options: o, Want: want})
	if err != nil {
		return nil, err
	}
	if pl.Note != "" && o.Notice != nil {
		o.Notice(pl.Note)
	}
	return pl, nil
}

// AllPairs computes the distance between every ordered pair of vertices.
func AllPairs(ctx context.Context, g *graph.Graph, o *plan.Options) (*result.Distances, error) {
	if err := o.NoMode("the distance matrix"); err != nil {
		return nil, err
	}
	if err := o.NoSources("AllPairs"); err != nil {
		return nil, err
	}
	pl, err := resolve(g, o, plan.Matrix)
	if err != nil {
		return nil, err
	}
	return dense(ctx, pl)
}

// dense runs a planned dense computation and wraps its matrix.
func dense(ctx context.Context, pl *plan.Plan) (*result.Distances, error) {
	start := time.Now()
	r, err := pl.Engine.Run(ctx, pl.Problem)
	if err != nil {
		return nil, err
	}
	d := result.NewDistances(r)
	d.Algorithm = pl.Engine.Name()
	d.Seconds = time.Since(start).Seconds()
	return d, nil
}

// summarised describes a run that summarised the sources without a
// matrix: which lanes, where, how long.
func summarised(pl *plan.Plan, device string, start time.Time) *result.Distances {
	threads := pl.Problem.Threads
	if pl.Engine.Caps().Device == engine.GPU {
		threads = 1
	}
	return result.Summarised(pl.Problem.Graph.N(), pl.Problem.Lanes, pl.Engine.Name(), device, threads,
		time.Since(start).Seconds())
}

// rowsOf returns every source's summary under pl: from an engine that
// summarises without the matrix (on the device, or per source), else from
// the full matrix.
func rowsOf(ctx context.Context, pl *plan.Plan, threads int) ([]reduce.Row, *result.Distances, error) {
	if pl.Dense {
		d, err := dense(ctx, pl)
		if err != nil {
			return nil, nil, err
		}
		// Summing rows is parallel whatever the engine was (fw is serial).
		return result.RowsOf(d, threads), d, nil
	}
	rr, ok := pl.Engine.(engine.RowReducer)
	if !ok {
		return nil, nil, fmt.Errorf("engine %s claims Caps.Rows but has no Rows method (a bug)", pl.Engine.Name())
	}
	start := time.Now()
	rs, device, err := rr.Rows(ctx, pl.Problem)
	if err != nil {
		return nil, nil, err
	}
	return rs, summarised(pl, device, start), nil
}

// Stats computes every summary measure of g in o.Mode (default out): of
// its transpose for in (the diameter and ASPL are g's, the radius, center
// and periphery follow the eccentricities to each vertex), of its
// undirected view for all.
func Stats(ctx context.Context, g *graph.Graph, o *plan.Options) (*result.Stats, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if err := o.NoSources("the statistics"); err != nil {
		return nil, err
	}
	g, o = viewed(g, o, plan.ModeOut)
	if o.Effective > 0 && (g.Kind() == graph.FloatWeights || g.HasNegativeWeights()) {
		return nil, fmt.Errorf("the effective diameter needs exact non-negative distances (float lengths: use --unweighted to count hops): %w", ErrNotExact)
	}
	if o.Effective == 0 && batchTakes(g, o) {
		stats, errs := Batch(ctx, []*graph.Graph{g}, o, BatchOptions{})
		return stats[0], errs[0]
	}
	start := time.Now()
	pl, err := resolve(g, o, plan.Rows)
	if err != nil {
		return nil, err
	}
	var hist []int64
	var want *[]int64
	if o.Effective > 0 {
		want = &hist
	}
	s, err := statsOf(ctx, g, pl, o.Reachable, false, want)
	if err != nil {
		return nil, err
	}
	if o.Effective > 0 {
		if hist == nil { // a second computation: the engine counted none
			h, err := Histogram(ctx, g, o)
			if err != nil {
				return nil, fmt.Errorf("the effective diameter: %w", err)
			}
			hist = h.Count
		}
		ratio := o.Effective
		eff := result.Mean(result.EffectiveDiameter(hist, ratio))
		interp := result.Mean(math.NaN())
		if s.ReachablePairs > 0 {
			interp = result.Mean(result.EffectiveDiameterInterpolated(hist, g.N(), ratio))
		}
		s.EffectiveRatio, s.EffectiveDiameter, s.EffectiveDiameterInterpolated = &ratio, &eff, &interp
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// batchTakes reports whether a batch engine takes g alone under o, as
// Batch would offer it a batch of one: a small graph on a GPU then runs
// on the bulk search, as StatsBatch and an Evaluator run it, rather than
// planned and searched alone (on an H200 at n = 1024, 16-regular, 0.20 ms
// a call alone against 0.075 ms as a batch of one: issue 31).
func batchTakes(g *graph.Graph, o *plan.Options) bool {
	if o.Bounds {
		return false
	}
	gs := []*graph.Graph{g}
	for _, e := range engine.Batches() {
		if plan.BatchMay(o, e) && e.Fits(g) && plan.BatchWins(o, e, gs, o.CPUs()) {
			return true
		}
	}
	return false
}

// statsOf computes the Stats of g under its plan, as Stats does after
// resolving: from the matrix, from the engine's Brief where it has one
// (exact distances, a seventh of the rows' size), else from its rows.
// With summary only the fields a Summary reports are asked for: where the
// plan's CPU engine counts pairs per distance without the matrix, they
// come from that histogram, which needs no per-source totals, and the
// radius, center and periphery are left zero; otherwise the center and
// periphery are left out.
//
// hist, when not nil, receives the pairs at each distance where the
// engine counted them on the way (left nil otherwise).
func statsOf(ctx context.Context, g *graph.Graph, pl *plan.Plan, reachable, summary bool, hist *[]int64) (*result.Stats, error) {
	start := time.Now()
	var d *result.Distances
	var s *result.Stats
	hr, byHist := pl.Engine.(engine.Histogrammer)
	byHist = byHist && summary && !pl.Dense && pl.Engine.Caps().Hist && pl.Engine.Caps().Device == engine.CPU
	if pl.Dense {
		var err error
		if d, err = dense(ctx, pl); err != nil {
			return nil, err
		}
		s = result.FromRows(result.RowsOf(d, pl.Problem.Threads), g, d.Exact(), reachable)
	} else if byHist {
		h, err := hr.Hist(ctx, pl.Problem)
		if err != nil {
			return nil, err
		}
		d = summarised(pl, "cpu", start)
		s = result.FromHist(h, g, reachable)
	} else if br, ok := pl.Engine.(engine.BriefReducer); ok {
		b, device, err := br.Brief(ctx, pl.Problem)
		if err != nil {
			return nil, err
		}
		d = summarised(pl, device, start)
		s = result.FromBrief(b, g, reachable, !summary)
		if hist != nil {
			*hist = b.Hist
		}
		b.Release()
	} else {
		var rs []reduce.Row
		var err error
		if rs, d, err = rowsOf(ctx, pl, pl.Problem.Threads); err != nil {
			return nil, err
		}
		s = result.FromRows(rs, g, d.Exact(), reachable)
	}
	s.Algorithm, s.Device, s.Lanes, s.Threads = d.Algorithm, d.Device, d.Lanes(), d.Threads
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// Eccentricities returns the eccentricity of every vertex: the largest
// distance from it (o.Mode out, the default; in: to it; all: in the
// undirected view), infinite when some vertex is unreachable unless
// o.Reachable (then over the reachable vertices only).
func Eccentricities(ctx context.Context, g *graph.Graph, o *plan.Options) ([]result.Length, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	g, o = viewed(g, o, plan.ModeOut)
	rs, exact, err := rowsFor(ctx, g, o, plan.Rows)
	if err != nil {
		return nil, err
	}
	ecc := make([]result.Length, len(rs))
	for u, r := range rs {
		ecc[u] = result.RowEcc(r, exact, o.Reachable)
	}
	return ecc, nil
}

// Rows returns every source's summary of g under o, and what computed
// them (a facts-only Distances when the engine summarised without the
// matrix).
func Rows(ctx context.Context, g *graph.Graph, o *plan.Options) ([]reduce.Row, *result.Distances, error) {
	pl, err := resolve(g, o, plan.Rows)
	if err != nil {
		return nil, nil, err
	}
	return rowsOf(ctx, pl, o.CPUs())
}

// ShortestPath returns one shortest path from u to v; the error wraps
// engine.ErrNoPath when there is none. The planner decides how: a search
// from u alone (plan.PathSearch), or all pairs with successors.
func ShortestPath(ctx context.Context, g *graph.Graph, u, v int, o *plan.Options) (result.Path, error) {
	if err := o.NoMode("a shortest path"); err != nil {
		return result.Path{}, err
	}
	if err := o.NoSources("a shortest path"); err != nil {
		return result.Path{}, err
	}
	if o.Bounds {
		return result.Path{}, plan.ErrBoundsOnly()
	}
	if err := UsableGraph(g); err != nil {
		return result.Path{}, err
	}
	if u < 0 || u >= g.N() || v < 0 || v >= g.N() {
		return result.Path{}, fmt.Errorf("vertex out of range 0..%d: %d %d", g.N()-1, u, v)
	}
	if plan.PathSearch(o) {
		p, err := engine.PathFrom(ctx, g, u, v)
		if err != nil {
			return result.Path{}, err
		}
		l := result.IntLength(p.Int)
		if p.IsFloat {
			l = result.FloatLength(p.Float)
		}
		return result.Path{Vertices: p.Vertices, Length: l}, nil
	}
	withPaths := *o
	withPaths.Paths = true
	d, err := AllPairs(ctx, g, &withPaths)
	if err != nil {
		return result.Path{}, err
	}
	vs, err := d.Path(u, v)
	if err != nil {
		return result.Path{}, err
	}
	return result.Path{Vertices: vs, Length: d.At(u, v)}, nil
}

// Summarize reduces a distance matrix of g to its Stats. Seconds is the
// engine's time.
func Summarize(d *result.Distances, g *graph.Graph, reachable bool, threads int) *result.Stats {
	s := result.FromRows(result.RowsOf(d, threads), g, d.Exact(), reachable)
	s.Algorithm, s.Device, s.Lanes, s.Threads, s.Seconds = d.Algorithm, d.Device, d.Lanes(), d.Threads, d.Seconds
	return s
}

// Supports returns nil when the engine o names (or "auto") can compute all
// pairs of g under o, else why not.
func Supports(g *graph.Graph, o *plan.Options) error {
	_, err := resolve(g, o, plan.Matrix)
	return err
}
