package run

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
)

// Task is what a computation returns, for Explain.
type Task int

const (
	// TaskAllPairs is AllPairs: the n×n distances.
	TaskAllPairs Task = iota
	// TaskStats is Stats and Eccentricities: a summary of every source,
	// without the matrix where the engine can.
	TaskStats
	// TaskHistogram is Histogram.
	TaskHistogram
	// TaskExtremes is Extremes: the diameter and radius, by the bounds
	// method first on unweighted graphs.
	TaskExtremes
	// TaskHarmonic is Harmonic and Centralities: every source's summary
	// with Σ 1/d (the matrix on engines whose sums lack it).
	TaskHarmonic
)

// Explain returns the plan the entry point of task would run for g under
// o (from o.Sources alone when not nil: TaskAllPairs is then
// DistancesFrom, the others the per-vertex measures), without computing anything and without refusing for memory (Memory
// says what the run needs). For TaskExtremes where the bounds method
// starts on a budget, the engine is "bounds" with that budget and
// Candidates are those of the all-pairs fallback.
func Explain(g *graph.Graph, o *plan.Options, task Task) (*result.Choice, error) {
	if err := UsableGraph(g); err != nil {
		return nil, err
	}
	first, budgeted := false, false
	if task == TaskExtremes && o.Sources == nil {
		first, budgeted = plan.BoundsFirst(g, o)
	}
	if first && !budgeted {
		return &result.Choice{Engine: plan.BoundsAlgorithm, Device: "cpu", Threads: o.CPUs(), Lanes: "int32"}, nil
	}
	want := map[Task]plan.Want{TaskAllPairs: plan.Matrix, TaskStats: plan.Rows, TaskHistogram: plan.Hist, TaskExtremes: plan.Rows, TaskHarmonic: plan.Harmonic}[task]
	req := plan.Request{Options: o, Want: want, NoAdmit: true}
	if o.Sources != nil {
		// A search from chosen sources (TaskAllPairs: their distances):
		// the plan depends on their number.
		req.FromSources, req.Sources = true, len(o.Sources)
	}
	pl, err := plan.Resolve(g, req)
	if err != nil {
		return nil, err
	}
	c := &result.Choice{Engine: pl.Engine.Name(), Device: pl.Engine.Caps().Device.String(), Threads: pl.Problem.Threads,
		Lanes: pl.Problem.Lanes.String(), Memory: pl.Memory, Auto: pl.Auto, Note: pl.Note}
	for _, cand := range pl.Candidates {
		c.Candidates = append(c.Candidates, result.Candidate(cand))
	}
	if budgeted {
		c.Fallback = c.Engine
		c.Engine, c.Device, c.Lanes = plan.BoundsAlgorithm, "cpu", "int32"
		c.BoundsBudget = plan.BoundsBudget(g, o.CPUs())
	}
	return c, nil
}
