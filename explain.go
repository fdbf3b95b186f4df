package apsp

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/run"
)

// Task is what a computation returns, for Explain.
type Task = run.Task

const (
	// TaskAllPairs is AllPairs: the n×n distances.
	TaskAllPairs = run.TaskAllPairs
	// TaskStats is ComputeStats and Eccentricities: a summary of every
	// source, without the matrix where the engine can.
	TaskStats = run.TaskStats
	// TaskHistogram is DistanceHistogram.
	TaskHistogram = run.TaskHistogram
	// TaskExtremes is ComputeExtremes: the diameter and radius, by the
	// bounds method first on unweighted graphs.
	TaskExtremes = run.TaskExtremes
	// TaskHarmonic is HarmonicCentrality and Centralities: a summary of
	// every source with Σ 1/d, from the matrix on engines whose sums lack
	// it (the GPU's).
	TaskHarmonic = run.TaskHarmonic
)

// Explain returns the plan the entry point of task would run for g under
// opt (from opt.Sources alone when not nil: TaskAllPairs is then
// DistancesFrom, the other tasks the per-vertex measures of the sources,
// and the plan depends on their number only), without computing anything and without refusing for memory (Memory
// says what the run needs; the computation itself refuses when that does
// not fit). For TaskExtremes on an unweighted graph under "auto" the
// engine is "bounds" with a budget (BoundsBudget) and Candidates are those
// of the all-pairs fallback.
func Explain(g *graph.Graph, opt Options, task Task) (*Choice, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Explain(g, o, task)
}

// Algorithm describes one engine Options.Algorithm may name.
type Algorithm struct {
	Name   string `json:"name"`
	Device string `json:"device"` // "cpu" or "gpu"
	// Auto reports that "auto" may choose it.
	Auto bool `json:"auto"`
}

// Algorithms lists the engines of this build ("auto" and "bounds" are not
// engines; AlgorithmNames adds them).
func Algorithms() []Algorithm {
	var as []Algorithm
	for _, e := range engine.All() {
		c := e.Caps()
		as = append(as, Algorithm{Name: e.Name(), Device: c.Device.String(), Auto: c.Auto})
	}
	return as
}

// AlgorithmNames returns the names Options.Algorithm accepts.
func AlgorithmNames() []string { return plan.Algorithms() }

// Supports returns nil when the engine called algorithm (or "auto") can
// compute all pairs of g under opt, else why not.
func Supports(g *graph.Graph, opt Options) error {
	o, err := opt.parseFor(g)
	if err != nil {
		return err
	}
	return run.Supports(g, o)
}
