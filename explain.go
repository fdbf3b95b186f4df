package apsp

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
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
}

// Explain returns the plan AllPairs (with opt.Paths as given) would run for
// g, without computing anything.
func Explain(g *graph.Graph, opt Options) (*Choice, error) {
	pl, err := resolve(g, Options{Algorithm: opt.Algorithm, Device: opt.Device, Threads: opt.Threads, Tile: opt.Tile, Paths: opt.Paths}, plan.Matrix)
	if err != nil {
		return nil, err
	}
	c := &Choice{Engine: pl.Engine.Name(), Device: pl.Engine.Caps().Device.String(), Threads: pl.Problem.Threads,
		Lanes: pl.Problem.Lanes.String(), Memory: pl.Memory, Auto: pl.Auto, Note: pl.Note}
	for _, cand := range pl.Candidates {
		c.Candidates = append(c.Candidates, Candidate(cand))
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
