package run

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/result"
)

// ErrNegativeLengths is wrapped by the refusal of a measure that needs
// non-negative lengths (closeness, harmonic centrality).
var ErrNegativeLengths = errors.New("needs non-negative lengths")

// Closeness is every vertex's closeness centrality (result.ClosenessOf),
// from the distances o.Mode reads (default in: to the vertex, the rows of
// the reversed graph when directed, as NetworkX computes it). Negative
// lengths are refused, as NetworkX's Dijkstra refuses them (a sum of
// distances is no closeness there).
func Closeness(ctx context.Context, g *graph.Graph, o *plan.Options, wfImproved bool) ([]float64, error) {
	t, err := centralityTotals(ctx, "closeness", g, o, plan.Rows)
	if err != nil {
		return nil, err
	}
	return result.ClosenessOf(t, g.N(), wfImproved), nil
}

// Harmonic is every vertex's harmonic centrality (result.HarmonicOf), from
// the distances o.Mode reads (default in, as Closeness). Only engines that
// sum 1/d per source (engine.Caps.Harmonic) summarise it without the
// matrix: the planner gives the others the matrix (plan.Harmonic).
func Harmonic(ctx context.Context, g *graph.Graph, o *plan.Options) ([]float64, error) {
	t, err := centralityTotals(ctx, "harmonic centrality", g, o, plan.Harmonic)
	if err != nil {
		return nil, err
	}
	return result.HarmonicOf(t), nil
}

// Centralities is Closeness and Harmonic from one search.
func Centralities(ctx context.Context, g *graph.Graph, o *plan.Options, wfImproved bool) (closeness, harmonic []float64, err error) {
	t, err := centralityTotals(ctx, "centrality", g, o, plan.Harmonic)
	if err != nil {
		return nil, nil, err
	}
	return result.ClosenessOf(t, g.N(), wfImproved), result.HarmonicOf(t), nil
}

// centralityTotals is the totals of the graph o.Mode views (default in)
// for a centrality, what: from an engine that keeps them in columns
// (engine.TotalsReducer) when every vertex is a source and the plan is
// not the matrix, else from the rows.
func centralityTotals(ctx context.Context, what string, g *graph.Graph, o *plan.Options, want plan.Want) (*reduce.Totals, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if o.Bounds {
		return nil, plan.ErrBoundsOnly()
	}
	if g.HasNegativeWeights() {
		return nil, fmt.Errorf("%s %w", what, ErrNegativeLengths)
	}
	g, o = viewed(g, o, plan.ModeIn)
	var rows []reduce.Row
	var exact bool
	if o.Sources == nil {
		pl, err := resolve(g, o, want)
		if err != nil {
			return nil, err
		}
		if tr, ok := pl.Engine.(engine.TotalsReducer); ok && !pl.Dense {
			t, _, err := tr.Totals(ctx, pl.Problem)
			return t, err
		}
		rs, d, err := rowsOf(ctx, pl, o.CPUs())
		if err != nil {
			return nil, err
		}
		rows, exact = rs, d.Exact()
	} else {
		var err error
		if rows, exact, err = rowsFor(ctx, g, o, want); err != nil {
			return nil, err
		}
	}
	defer reduce.ReleaseRows(rows)
	return reduce.TotalsOf(rows, exact), nil
}

// rowsFor is the rows of g under o, wanted as want (plan.Rows or
// plan.Harmonic), and whether they are exact: of o.Sources alone when
// chosen (an engine with Caps.Sources), else of every vertex.
func rowsFor(ctx context.Context, g *graph.Graph, o *plan.Options, want plan.Want) ([]reduce.Row, bool, error) {
	if o.Sources == nil {
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
	pl, err := resolveSources(g, o, want)
	if err != nil {
		return nil, false, err
	}
	rows, err := pl.Engine.(engine.SourceSearcher).RowsFrom(ctx, pl.Problem, o.Sources)
	if err != nil {
		return nil, false, err
	}
	return rows, !pl.Problem.Lanes.IsFloat(), nil
}

// resolveSources plans a search from o.Sources alone on g.
func resolveSources(g *graph.Graph, o *plan.Options, want plan.Want) (*plan.Plan, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if err := o.CheckSources(g.N()); err != nil {
		return nil, err
	}
	pl, err := plan.Resolve(g, plan.Request{Options: o, Want: want, FromSources: true, Sources: len(o.Sources)})
	if err != nil {
		return nil, err
	}
	if _, ok := pl.Engine.(engine.SourceSearcher); !ok {
		return nil, fmt.Errorf("engine %s claims Caps.Sources but has no RowsFrom method (a bug)", pl.Engine.Name())
	}
	return pl, nil
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

// DistancesFrom is the distances from each of sources to every vertex of
// g (o.Mode out, the default: from the source; in: to it; all: in the
// undirected view), a len(sources)×n matrix from one search a source.
func DistancesFrom(ctx context.Context, g *graph.Graph, sources []int, o *plan.Options) (*result.SourceDistances, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if o.Bounds {
		return nil, plan.ErrBoundsOnly()
	}
	if err := o.NoSources("DistancesFrom (its sources are an argument)"); err != nil {
		return nil, err
	}
	if err := o.NoEffective("DistancesFrom"); err != nil {
		return nil, err
	}
	g, o = viewed(g, o, plan.ModeOut)
	with := *o
	var err error
	if with.Sources, err = sourcesIn(sources, g.N()); err != nil {
		return nil, err
	}
	start := time.Now()
	pl, err := resolveSources(g, &with, plan.Matrix)
	if err != nil {
		return nil, err
	}
	ints, floats, err := pl.Engine.(engine.SourceSearcher).DistancesFrom(ctx, pl.Problem, with.Sources, result.NoPathInt)
	if err != nil {
		return nil, err
	}
	d := result.NewSourceDistances(sources, g.N(), ints, floats)
	d.Algorithm, d.Threads, d.Seconds = pl.Engine.Name(), pl.Problem.Threads, time.Since(start).Seconds()
	return d, nil
}

// DistancesBetween is the distances from each of sources to each of
// targets (nil: every vertex, in order), o.Mode read as DistancesFrom
// reads it: a len(sources)×len(targets) matrix from one search from each
// vertex of the shorter list, from the targets in the opposite mode
// (distances to a target are those from it in the reversed graph) when
// they are fewer, in memory for that many rows of n.
func DistancesBetween(ctx context.Context, g *graph.Graph, sources, targets []int, o *plan.Options) (*result.SourceDistances, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	every := func() []int {
		all := make([]int, g.N())
		for v := range all {
			all[v] = v
		}
		return all
	}
	if targets == nil {
		if sources == nil {
			sources = every()
		}
		return DistancesFrom(ctx, g, sources, o)
	}
	for _, t := range targets {
		if t < 0 || t >= g.N() {
			return nil, &plan.OptionError{Option: "targets", Msg: fmt.Sprintf("vertex %d out of range 0..%d", t, g.N()-1)}
		}
	}
	if rows := len(sources); sources == nil && len(targets) >= g.N() || sources != nil && rows <= len(targets) {
		if sources == nil {
			sources = every()
		}
		d, err := DistancesFrom(ctx, g, sources, o)
		if err != nil {
			return nil, err
		}
		return d.Columns(targets), nil
	}
	if sources != nil {
		for _, s := range sources {
			if s < 0 || s >= g.N() {
				return nil, &plan.OptionError{Option: "sources", Msg: fmt.Sprintf("vertex %d out of range 0..%d", s, g.N()-1)}
			}
		}
	}
	reversed := *o
	switch o.ModeOr(plan.ModeOut) {
	case plan.ModeOut:
		reversed.Mode = plan.ModeIn
	case plan.ModeIn:
		reversed.Mode = plan.ModeOut
	}
	d, err := DistancesFrom(ctx, g, targets, &reversed)
	if err != nil {
		return nil, err
	}
	return d.Transposed(sources), nil
}

// Estimate is the Estimate of g's measures (o.Mode as Stats reads it) from
// k sources drawn uniformly without replacement with seed (all of them
// when k ≥ n), one search each.
func Estimate(ctx context.Context, g *graph.Graph, k int, seed uint64, o *plan.Options) (*result.Estimate, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, &plan.OptionError{Option: "sample", Msg: fmt.Sprintf("%d sources: want 1 or more", k)}
	}
	if err := o.NoSources("an estimate (it draws its own)"); err != nil {
		return nil, err
	}
	if err := o.NoEffective("an estimate"); err != nil {
		return nil, err
	}
	start := time.Now()
	g, o = viewed(g, o, plan.ModeOut)
	n := g.N()
	k = min(k, n)
	perm := rand.New(rand.NewPCG(seed, 0x28)).Perm(n)[:k]
	with := *o
	with.Sources = make([]int32, k)
	for i, v := range perm {
		with.Sources[i] = int32(v)
	}
	pl, err := resolveSources(g, &with, plan.Rows)
	if err != nil {
		return nil, err
	}
	rows, err := pl.Engine.(engine.SourceSearcher).RowsFrom(ctx, pl.Problem, with.Sources)
	if err != nil {
		return nil, err
	}
	var connected bool
	switch {
	case g.Directed():
		connected = g.StrongComponents() <= 1
	case len(rows) > 0:
		// Undirected, any one search says it: the graph is connected
		// exactly when a source reaches every other vertex. A components
		// search of a large graph costs several of the searches.
		connected = rows[0].Reach == int64(n-1)
	default:
		connected = g.WeakComponents() <= 1
	}
	e := result.EstimateOf(rows, g, !pl.Problem.Lanes.IsFloat(), connected, o.Reachable)
	e.Seed, e.Algorithm, e.Threads = seed, pl.Engine.Name(), pl.Problem.Threads
	e.Seconds = time.Since(start).Seconds()
	return e, nil
}

// closenessRowBytes is about the most memory EstimateCloseness gives the
// distance rows of its sources at once (8 bytes a distance).
const closenessRowBytes = 256 << 20

// EstimateCloseness estimates every vertex's closeness centrality (o.Mode
// as Closeness reads it, default in) from k sources drawn uniformly
// without replacement with seed (result.ClosenessEstimate): one search
// from each sampled u gives d(u, v) for every v, summed a share of the
// sources at a time (closenessRowBytes), not held for all k.
func EstimateCloseness(ctx context.Context, g *graph.Graph, k int, seed uint64, o *plan.Options, wfImproved bool) ([]result.Interval, error) {
	return estimateCloseness(ctx, g, k, seed, o, wfImproved, closenessRowBytes)
}

// estimateCloseness is EstimateCloseness with rowBytes for the rows held
// at once.
func estimateCloseness(ctx context.Context, g *graph.Graph, k int, seed uint64, o *plan.Options, wfImproved bool, rowBytes int) ([]result.Interval, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, &plan.OptionError{Option: "sample", Msg: fmt.Sprintf("%d sources: want 1 or more", k)}
	}
	if err := o.NoSources("a closeness estimate (it draws its own)"); err != nil {
		return nil, err
	}
	if err := o.NoEffective("a closeness estimate"); err != nil {
		return nil, err
	}
	if g.HasNegativeWeights() {
		return nil, fmt.Errorf("closeness %w", ErrNegativeLengths)
	}
	// Row v of the graph the mode views holds d(v, ·); the searches from u
	// run on its transpose, where row u holds d(·, u) of the view.
	view, plain := viewed(g, o, plan.ModeIn)
	search := view.Transpose()
	n := g.N()
	k = min(k, n)
	sample := rand.New(rand.NewPCG(seed, 0x28)).Perm(n)[:k]
	// The sources' rows are searched a share at a time and summed into
	// three numbers a vertex (result.ClosenessSums), so that memory holds
	// a share of the k·n distances, not all of them; the sums go in
	// sample order whatever the share, so the answer does not depend on it.
	share := max(1, min(k, rowBytes/(8*n)))
	if share < k {
		// The rows do not fit at once: an engine that adds up the
		// distances itself holds three numbers a vertex, not rows.
		with := *plain
		with.Sources = make([]int32, k)
		for i, u := range sample {
			with.Sources[i] = int32(u)
		}
		pl, err := resolveSources(search, &with, plan.Rows)
		if err != nil {
			return nil, err
		}
		if pl.Engine.Caps().Sums {
			summer, ok := pl.Engine.(engine.DistanceSummer)
			if !ok {
				return nil, fmt.Errorf("engine %s claims Caps.Sums but has no SumsFrom method (a bug)", pl.Engine.Name())
			}
			got, err := summer.SumsFrom(ctx, pl.Problem, with.Sources)
			if err != nil {
				return nil, err
			}
			sampled := make([]bool, n)
			for _, u := range sample {
				sampled[u] = true
			}
			out := make([]result.Interval, n)
			for v := range n {
				s := result.ClosenessSums{K: k, Reach: int(got.Reach[v]), Sum: float64(got.Sum[v]), SumSq: float64(got.SumSq[v])}
				if sampled[v] {
					s.K-- // v's own search does not count for v
				}
				out[v] = s.Estimate(n-1, wfImproved)
			}
			return out, nil
		}
	}
	sums := make([]result.ClosenessSums, n)
	var row []float64
	for lo := 0; lo < k; lo += share {
		part := sample[lo:min(k, lo+share)]
		d, err := DistancesFrom(ctx, search, part, plain)
		if err != nil {
			return nil, err
		}
		for i, u := range part {
			row = d.RowFloat64(i, row)
			for v, x := range row {
				if v != u {
					sums[v].Add(!math.IsInf(x, 1), x)
				}
			}
		}
	}
	out := make([]result.Interval, n)
	for v := range n {
		out[v] = sums[v].Estimate(n-1, wfImproved)
	}
	return out, nil
}

// sourcesIn is sources as the planner takes them, or the error naming
// the first vertex out of range 0..n-1.
func sourcesIn(sources []int, n int) ([]int32, error) {
	out := make([]int32, len(sources))
	for i, s := range sources {
		if s < 0 || s >= n {
			return nil, &plan.OptionError{Option: "sources", Msg: fmt.Sprintf("vertex %d out of range 0..%d", s, n-1)}
		}
		out[i] = int32(s)
	}
	return out, nil
}
