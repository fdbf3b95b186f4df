package apsp

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
)

// Candidate is one engine as "auto" saw it: its estimated time, or why it
// could not take the graph.
type Candidate struct {
	Engine  string  `json:"engine"`
	Device  string  `json:"device"`
	Seconds float64 `json:"estimated_seconds,omitempty"` // 0 when not estimated
	Refused string  `json:"refused,omitempty"`           // why it cannot take the graph, or why auto skips it
}

// Choice is the plan of a computation: the engine, where it runs, its
// threads and lanes, the host memory it needs besides the graph and, under
// "auto", the estimates it compared (what `apsp --explain` prints).
type Choice struct {
	Engine     string      `json:"engine"`
	Device     string      `json:"device"`
	Threads    int         `json:"threads"`
	Lanes      string      `json:"lanes"`
	Memory     uint64      `json:"memory_bytes"`
	Auto       bool        `json:"auto"`
	Candidates []Candidate `json:"candidates,omitempty"`
	Note       string      `json:"note,omitempty"` // why a GPU was not used, when auto wanted one
	// BoundsBudget is the work the bounds method may spend (in searches of
	// the whole graph) before Fallback, the all-pairs engine, answers
	// instead (TaskExtremes under "auto").
	BoundsBudget float64 `json:"bounds_budget,omitempty"`
	Fallback     string  `json:"fallback,omitempty"`
}

// Task is what a computation returns, for Explain.
type Task int

const (
	// TaskAllPairs is AllPairs: the n×n distances.
	TaskAllPairs Task = iota
	// TaskStats is ComputeStats and Eccentricities: a summary of every
	// source, without the matrix where the engine can.
	TaskStats
	// TaskHistogram is DistanceHistogram.
	TaskHistogram
	// TaskExtremes is ComputeExtremes: the diameter and radius, by the
	// bounds method first on unweighted graphs.
	TaskExtremes
)

// Explain returns the plan the entry point of task would run for g under
// opt, without computing anything and without refusing for memory (Memory
// says what the run needs; the computation itself refuses when that does
// not fit). For TaskExtremes on an unweighted graph under "auto" the
// engine is "bounds" with a budget (Note) and Candidates are those of the
// all-pairs fallback.
func Explain(g *graph.Graph, opt Options, task Task) (*Choice, error) {
	if err := usableGraph(g); err != nil {
		return nil, err
	}
	if err := opt.Validate(task == TaskExtremes); err != nil {
		return nil, err
	}
	want := map[Task]plan.Want{TaskAllPairs: plan.Matrix, TaskStats: plan.Rows, TaskHistogram: plan.Hist, TaskExtremes: plan.Rows}[task]
	if task == TaskExtremes && opt.Algorithm == BoundsAlgorithm {
		return &Choice{Engine: BoundsAlgorithm, Device: "cpu", Threads: par.Threads(opt.Threads), Lanes: "int32"}, nil
	}
	req := plan.Request{Algorithm: opt.Algorithm, Device: opt.Device, Threads: opt.Threads, Tile: opt.Tile,
		Paths: opt.Paths, Want: want, NoAdmit: true, Lanes: opt.Lanes}
	pl, err := plan.Resolve(g, req)
	if err != nil {
		return nil, err
	}
	c := &Choice{Engine: pl.Engine.Name(), Device: pl.Engine.Caps().Device.String(), Threads: pl.Problem.Threads,
		Lanes: pl.Problem.Lanes.String(), Memory: pl.Memory, Auto: pl.Auto, Note: pl.Note}
	for _, cand := range pl.Candidates {
		c.Candidates = append(c.Candidates, Candidate(cand))
	}
	dev, _ := plan.ParseDevice(opt.Device) // valid: Validate parsed it
	if task == TaskExtremes && c.Auto && dev.Kind != "gpu" && g.Kind() == graph.Unweighted && !namedLanes(opt) {
		c.Fallback = c.Engine
		c.Engine, c.Device, c.Lanes = BoundsAlgorithm, "cpu", "int32"
		c.BoundsBudget = plan.BoundsBudget(g, par.Threads(opt.Threads))
	}
	return c, nil
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
	_, err := resolve(g, opt, plan.Matrix)
	return err
}
