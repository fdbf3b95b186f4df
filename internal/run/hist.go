package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
)

// Histogram computes the hop plot of g (the distribution of distances over
// ordered pairs). Distances must be non-negative integers.
func Histogram(ctx context.Context, g *graph.Graph, o *plan.Options) (*result.Histogram, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if o.Bounds {
		return nil, plan.ErrBoundsOnly()
	}
	if err := o.NoSources("the histogram"); err != nil {
		return nil, err
	}
	g, o = viewed(g, o, plan.ModeOut) // in counts the pairs out does; all those of the undirected view
	if g.Kind() == graph.FloatWeights {
		return nil, errors.New("a histogram needs integer distances (use --unweighted to count hops)")
	}
	if g.HasNegativeWeights() {
		return nil, errors.New("a histogram needs non-negative distances")
	}
	pl, err := resolve(g, o, plan.Hist)
	if err != nil {
		return nil, err
	}
	n := int64(g.N())
	h := &result.Histogram{Algorithm: pl.Engine.Name()}
	if !pl.Dense {
		he, ok := pl.Engine.(engine.Histogrammer)
		if !ok {
			return nil, fmt.Errorf("engine %s claims Caps.Hist but has no Hist method (a bug)", pl.Engine.Name())
		}
		if h.Count, err = he.Hist(ctx, pl.Problem); err != nil {
			return nil, err
		}
	} else {
		d, err := dense(ctx, pl)
		if err != nil {
			return nil, err
		}
		if h.Count, err = countDistances(d); err != nil {
			return nil, err
		}
	}
	var reached int64
	for _, c := range h.Count {
		reached += c
	}
	h.Unreachable = n*(n-1) - reached
	if len(h.Count) == 0 {
		h.Count = []int64{0}
	}
	return h, nil
}

// countDistances counts the ordered pairs u ≠ v at each finite distance
// of d.
func countDistances(d *result.Distances) ([]int64, error) {
	count, _, err := countPairs(d.N(), d.N(), d.At, func(u, v int) bool { return u == v })
	return count, err
}

// countPairs counts the entries (i, j) of a rows×cols matrix read by at,
// less those self says pair a vertex with itself, at each finite distance,
// and returns the counts and the entries without a path.
func countPairs(rows, cols int, at func(i, j int) result.Length, self func(i, j int) bool) ([]int64, int64, error) {
	counts := map[int64]int64{}
	var most, none int64
	for i := range rows {
		for j := range cols {
			if self(i, j) {
				continue
			}
			l := at(i, j)
			if l.IsInf() {
				none++
				continue
			}
			x := l.Int()
			if l.IsFloat() {
				// An integer graph in float lanes (--lanes float64): the
				// lane plan admits them only where every distance is an
				// integer they hold exactly.
				x = int64(l.Float())
			}
			counts[x]++
			most = max(most, x)
		}
	}
	if most > 1<<24 {
		return nil, 0, fmt.Errorf("distances reach %d: too many values for a histogram (use --unweighted to count hops)", most)
	}
	count := make([]int64, most+1)
	for x, c := range counts {
		count[x] = c
	}
	return count, none, nil
}

// HistogramBetween is the histogram of the distances from each of sources
// to each of targets (nil: every vertex), as DistancesBetween reads them,
// over the ordered pairs of distinct vertices (a vertex listed on both
// sides is not paired with itself; repeats count again).
func HistogramBetween(ctx context.Context, g *graph.Graph, sources, targets []int, o *plan.Options) (*result.Histogram, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	if g.Kind() == graph.FloatWeights {
		return nil, errors.New("a histogram needs integer distances (use --unweighted to count hops)")
	}
	if g.HasNegativeWeights() {
		return nil, errors.New("a histogram needs non-negative distances")
	}
	if targets == nil && len(sources) > 0 {
		if h, ok := histFrom(ctx, g, sources, o); ok {
			return h, nil
		}
	}
	d, err := DistancesBetween(ctx, g, sources, targets, o)
	if err != nil {
		return nil, err
	}
	col := func(j int) int {
		if d.Targets == nil {
			return j
		}
		return d.Targets[j]
	}
	h := &result.Histogram{Algorithm: d.Algorithm}
	h.Count, h.Unreachable, err = countPairs(d.Rows(), d.Cols(), d.At, func(i, j int) bool { return d.Sources[i] == col(j) })
	if err != nil {
		return nil, err
	}
	return h, nil
}

// histFrom is the hop plot of the pairs from sources to every vertex,
// where the engine planned for them counts it without their rows
// (engine.SourceHistogrammer); ok is false elsewhere, and for anything
// the rows' way must refuse or report (a vertex out of range, an error).
func histFrom(ctx context.Context, g *graph.Graph, sources []int, o *plan.Options) (*result.Histogram, bool) {
	g, o = viewed(g, o, plan.ModeOut)
	if o.NoEffective("a histogram") != nil || o.NoSources("a histogram between lists") != nil {
		return nil, false
	}
	with := *o
	var err error
	if with.Sources, err = sourcesIn(sources, g.N()); err != nil {
		return nil, false
	}
	pl, err := resolveSources(g, &with, plan.Hist)
	if err != nil {
		return nil, false
	}
	hs, ok := pl.Engine.(engine.SourceHistogrammer)
	if !ok {
		return nil, false
	}
	count, ok := hs.HistFrom(ctx, pl.Problem, with.Sources)
	if !ok {
		return nil, false
	}
	found := int64(0)
	for _, c := range count {
		found += c
	}
	return &result.Histogram{Count: count, Unreachable: int64(len(sources))*int64(g.N()-1) - found, Algorithm: pl.Engine.Name()}, true
}
