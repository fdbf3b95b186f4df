package plan

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
)

// Want is the kind of result the caller needs.
type Want int

const (
	// Matrix: the n×n distances (AllPairs, paths).
	Matrix Want = iota
	// Rows: every source's summary (stats, eccentricities); engines with
	// Caps.Rows give it without the matrix.
	Rows
	// Hist: pairs per distance; engines with Caps.Hist give it without the
	// matrix.
	Hist
	// Harmonic: every source's summary with Row.Harm (Σ 1/d); engines with
	// Caps.Rows and Caps.Harmonic give it without the matrix, the others
	// from the matrix (a GPU engine's per-source sums lack it). Under
	// "auto" the GPU is not considered unless asked for.
	Harmonic
)

// BoundsAlgorithm names the diameter-by-bounds method, which answers the
// diameter and radius only and is not an all-pairs engine.
const BoundsAlgorithm = "bounds"

// Request is what a caller asks the planner: its parsed options and the
// kind of result it wants.
type Request struct {
	*Options
	Want Want
	// NoAdmit plans without refusing for memory (Plan.Memory still says
	// what the run needs): what Explain shows.
	NoAdmit bool
	// FromSources asks for Sources chosen sources alone (rows, or the
	// Sources×n distances for Matrix): only engines with Caps.Sources
	// take it, on the CPU, and the memory admitted is the engine's
	// WorkBytesFrom (k rows, or k·n distances, not n²).
	FromSources bool
	Sources     int
}

// Candidate is one engine as "auto" saw it: its estimated time, or why it
// could not take the graph.
type Candidate struct {
	Engine  string
	Device  string
	Seconds float64 // the estimate; 0 when not estimated
	Refused string  // why it cannot take the graph, or why auto skips it
}

// Plan is a resolved request: the engine and the problem it runs, with what
// auto compared and the memory admitted.
type Plan struct {
	Engine  engine.Engine
	Problem *engine.Problem
	// Dense reports that the run holds the n×n matrix (Engine.Run) rather
	// than summarising rows or counting a histogram.
	Dense bool
	// Memory is the host memory the run needs besides the graph.
	Memory     uint64
	Device     Device
	Auto       bool
	Candidates []Candidate
	// Note says why "auto" computes on the CPU when it would have used a
	// GPU that is not usable.
	Note string
}

// Resolve plans g under req, whose options Parse has checked: it refuses
// the bounds method (not an all-pairs engine), plans the lanes, chooses
// the engine and admits its memory.
func Resolve(g *graph.Graph, req Request) (*Plan, error) {
	if req.Bounds {
		return nil, ErrBoundsOnly()
	}
	dev := req.Device
	lp, err := lanes.PlanFor(g)
	if err != nil {
		return nil, err
	}
	// A proven bound on the distances lets the packed lanes hold graphs
	// whose simple paths are long (lanes.Plan.Tighten: one search per
	// component, or two for a digraph) — where packed lanes may be used.
	if packedMatters(g, req) {
		lp = lp.Tighten(g)
	}
	if req.LanesNamed {
		if err := lp.Holds(req.Lanes); err != nil {
			return nil, fmt.Errorf("lanes %s: %w", req.Lanes, err)
		}
	}
	pl := &Plan{Device: dev}
	if req.Auto() {
		err = pl.choose(g, req, lp)
	} else {
		err = pl.named(g, req, lp)
	}
	if err != nil {
		return nil, err
	}
	c := pl.Engine.Caps()
	if req.FromSources {
		pl.Memory = pl.Engine.(engine.SourceSearcher).WorkBytesFrom(pl.Problem, req.Sources, req.Want == Matrix)
		if req.NoAdmit {
			return pl, nil
		}
		what := fmt.Sprintf("%s: the %d chosen sources' ", pl.Engine.Name(), req.Sources)
		if req.Want == Matrix {
			what += "distances"
		} else {
			what += "summaries"
		}
		if err := admit(what, g, pl.Memory, pl.Problem.Threads); err != nil {
			return nil, err
		}
		return pl, nil
	}
	switch req.Want {
	case Matrix:
		pl.Dense = true
	case Rows:
		pl.Dense = !c.Rows
	case Hist:
		pl.Dense = !c.Hist
	case Harmonic:
		pl.Dense = !c.Rows || !c.Harmonic
	}
	pl.Memory = pl.Engine.WorkBytes(pl.Problem, pl.Dense)
	what := pl.Engine.Name() + ": the summaries of every source"
	if pl.Dense {
		what = pl.Engine.Name() + ": the distance matrix and working memory"
	}
	if req.NoAdmit {
		return pl, nil
	}
	if err := admit(what, g, pl.Memory, pl.Problem.Threads); err != nil {
		return nil, err
	}
	return pl, nil
}

// problem is the engine's view of the request.
func problem(e engine.Engine, g *graph.Graph, req Request, lp lanes.Plan, dev Device) *engine.Problem {
	c := e.Caps()
	threads := par.Threads(req.Threads)
	if c.Serial {
		threads = 1
	}
	kind := req.Lanes
	if !req.LanesNamed {
		kind, _ = lp.Narrowest(c.Lanes...)
	}
	return &engine.Problem{Graph: g, Plan: lp, Lanes: kind, Paths: req.Paths, Threads: threads, Tile: req.Tile,
		Ordinal: dev.Ordinal, GPUs: dev.Ordinals, AllGPUs: dev.All, Progress: req.Progress}
}

// packedMatters reports whether the plan may compute g in packed lanes
// (int8, int16), so that proving a bound on its distances (a search or
// two) can pay: packed lanes asked for, an engine named that offers them,
// or "auto" on a weighted graph. Under "auto" an unweighted graph goes to a
// breadth-first engine (int32), which beat Floyd–Warshall even in int8 at
// every density measured (docs/perf.md, "Packed lanes on the CPU"), and
// in a search loop of small graphs the bounding searches are a visible
// share of a call.
func packedMatters(g *graph.Graph, req Request) bool {
	if req.LanesNamed {
		return req.Lanes.Packed() > 1
	}
	if req.Engine == nil {
		return g.Kind() != graph.Unweighted
	}
	return slices.ContainsFunc(req.Engine.Caps().Lanes, func(k lanes.Kind) bool { return k.Packed() > 1 })
}

// usable returns why e cannot solve p, or nil.
func usable(e engine.Engine, p *engine.Problem) error {
	// The graph first: an engine that cannot take its weights says so,
	// rather than naming the lanes it found none of.
	if err := engine.Check(e, p.Graph, p.Plan); err != nil {
		return err
	}
	if c := e.Caps(); !slices.Contains(c.Lanes, p.Lanes) {
		return fmt.Errorf("does not compute in %s lanes (it offers %s)", p.Lanes, kindNames(c.Lanes))
	}
	return e.Supports(p)
}

// errNoSources is the refusal of an engine without Caps.Sources.
func errNoSources(e engine.Engine) error {
	return invalid("algorithm", "%s searches every source; chosen sources run on bfs, bitbfs, dijkstra, johnson or gpu-sssp", e.Name())
}

// named resolves an engine asked for by name.
func (pl *Plan) named(g *graph.Graph, req Request, lp lanes.Plan) error {
	e := req.Engine // Parse checked it against the device
	if req.FromSources && !e.Caps().Sources {
		return errNoSources(e)
	}
	p := problem(e, g, req, lp, pl.Device)
	if err := usable(e, p); err != nil {
		return fmt.Errorf("algorithm %s: %w", e.Name(), err)
	}
	pl.Engine, pl.Problem = e, p
	return nil
}

// choose is "auto": the engine with the smallest estimated time among those
// that take the graph; GPU engines only when a GPU is usable (or asked
// for), and float graphs stay in the CPU's float64 unless a GPU is asked
// for.
func (pl *Plan) choose(g *graph.Graph, req Request, lp lanes.Plan) error {
	pl.Auto = true
	all := engine.All()
	pl.Candidates = make([]Candidate, 0, len(all)+1) // every CPU engine and the GPU's
	record := func(e engine.Engine, seconds float64, refused string) {
		pl.Candidates = append(pl.Candidates, Candidate{Engine: e.Name(), Device: e.Caps().Device.String(), Seconds: seconds, Refused: refused})
	}
	var best engine.Engine
	var bestP *engine.Problem
	bestTime := math.Inf(1)
	var why []string
	// consider estimates e (for the sources when there are some) and keeps
	// it when it is the fastest yet; it returns e's refusal.
	consider := func(e engine.Engine) error {
		p := problem(e, g, req, lp, pl.Device)
		if err := usable(e, p); err != nil {
			why = append(why, e.Name()+": "+err.Error())
			record(e, 0, err.Error())
			return err
		}
		t := 0.0
		if req.FromSources {
			t = e.(engine.SourceSearcher).EstimateFrom(p, req.Sources)
		} else {
			t = e.Estimate(p)
		}
		record(e, t, "")
		if t < bestTime {
			best, bestP, bestTime = e, p, t
		}
		return nil
	}
	for _, e := range all {
		c := e.Caps()
		if c.Device != engine.CPU {
			continue // the GPU is considered below, as one choice
		}
		switch {
		case req.FromSources && !c.Sources:
			record(e, 0, "it searches every source, not chosen ones")
			continue
		case !c.Auto && !(req.FromSources && c.Sources):
			record(e, 0, "auto never picks it (a faster engine does the same work)")
			continue
		case pl.Device.Kind == "gpu":
			record(e, 0, "the device is "+req.Device.String())
			continue
		}
		_ = consider(e) // a refusal is in why
	}
	if req.FromSources {
		if pl.Device.Kind == "gpu" {
			// The GPU engines that search chosen sources; "auto" on the
			// auto device keeps them on the CPU (k searches rarely pay
			// for the GPU's start).
			var refused error
			for _, e := range all {
				if c := e.Caps(); c.Device == engine.CPU || !c.Sources {
					continue
				}
				if err := consider(e); err != nil {
					refused = fmt.Errorf("%s: %w", e.Name(), err)
				}
			}
			if best == nil && refused != nil {
				return refused // no GPU, or a graph it cannot take: its own error
			}
		}
		if best == nil {
			return fmt.Errorf("no engine searches chosen sources of this graph (%s)", strings.Join(why, "; "))
		}
		pl.Engine, pl.Problem = best, bestP
		return nil
	}
	ge := engine.AutoGPU(g.N())
	gp := problem(ge, g, req, lp, pl.Device)
	var gpuTime float64
	// A graph may go to gpu-bitbfs (unweighted) or gpu-sssp (weighted)
	// instead of Floyd–Warshall; their estimates run a BFS or two on the
	// host, which graphs on the "auto" device that the GPU's start-up
	// alone rules out are spared.
	if pl.Device.Kind == "gpu" || (pl.Device.Kind == "auto" && g.N() >= 2048 && engine.GPUStartSeconds() < bestTime) {
		var be engine.Engine
		if be, gpuTime = engine.AutoGPUFor(gp); be.Name() != ge.Name() {
			ge, gp = be, problem(be, g, req, lp, pl.Device)
		}
	} else {
		gpuTime = ge.Estimate(gp)
	}
	switch {
	case pl.Device.Kind == "gpu" || (pl.Device.Kind == "auto" && gpuTime < bestTime && g.Kind() != graph.FloatWeights &&
		(req.Want != Harmonic || ge.Caps().Harmonic)):
		err := usable(ge, gp) // includes finding a usable GPU
		if err == nil {
			record(ge, gpuTime, "")
			pl.Engine, pl.Problem = ge, gp
			return nil
		}
		record(ge, gpuTime, err.Error())
		if pl.Device.Kind == "gpu" {
			return fmt.Errorf("device %s: %w", req.Device, err)
		}
		pl.Note = "no GPU used (" + err.Error() + "); computing on the CPU"
	case pl.Device.Kind == "cpu":
		record(ge, gpuTime, "the device is cpu")
	case req.Want == Harmonic && !ge.Caps().Harmonic:
		record(ge, gpuTime, "its per-source sums lack Σ 1/d (harmonic centrality); a GPU computes it only when asked for, from the matrix")
	case g.Kind() == graph.FloatWeights:
		record(ge, gpuTime, "float graphs stay in the CPU's float64 unless a GPU is asked for")
	default:
		record(ge, gpuTime, "")
	}
	if best == nil {
		return fmt.Errorf("no engine supports this graph (%s)", strings.Join(why, "; "))
	}
	pl.Engine, pl.Problem = best, bestP
	return nil
}

// Algorithms returns the names Raw.Algorithm accepts.
func Algorithms() []string {
	return append([]string{"auto", BoundsAlgorithm}, engine.Names()...)
}

// AllPairsSeconds is the estimated time of the all-pairs engine auto would
// pick on the CPU for g, the yardstick of the bounds method's budget.
func AllPairsSeconds(g *graph.Graph, threads int) float64 {
	best := math.Inf(1)
	lp, err := lanes.PlanFor(g)
	if err != nil {
		return best
	}
	for _, e := range engine.All() {
		c := e.Caps()
		if c.Device != engine.CPU || !c.Auto {
			continue
		}
		p := problem(e, g, Request{Options: &Options{Threads: threads}}, lp, Device{Kind: "cpu"})
		if usable(e, p) == nil {
			best = math.Min(best, e.Estimate(p))
		}
	}
	return best
}

// kindNames lists kinds as "int8/int16/int32".
func kindNames(ks []lanes.Kind) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = k.String()
	}
	return strings.Join(names, "/")
}
