package apsp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/reduce"
)

// Options control a computation. The zero value picks the engine
// automatically and uses every CPU.
type Options struct {
	// Algorithm is an engine name (see Algorithms) or "auto" (also "").
	Algorithm string
	// Threads caps the CPU threads; 0 means all.
	Threads int
	// Tile is the blocked engine's tile width (a multiple of 16); 0 means
	// the default.
	Tile int
	// Reachable takes every measure over the pairs that have a path instead
	// of reporting infinity for a disconnected graph.
	Reachable bool
	// Paths keeps a successor matrix so that Distances.Path works.
	Paths bool
	// Progress, when set, receives the fraction of work done (0..1) from the
	// engine's goroutines.
	Progress func(fraction float64)
	// Device is "auto" (also ""), "cpu", "gpu" or "gpu:N". Under "auto" a
	// usable GPU takes large integer problems and the CPU the rest.
	Device string
	// Notice, when set, receives one line when "auto" would have used a GPU
	// but none is usable, saying why.
	Notice func(string)
	// Lanes is the lane kind to compute in: "int8", "int16", "int32",
	// "int64", "float32" or "float64"; "auto" (also "") takes the narrowest
	// that the engine offers and the graph's proven distance bounds allow.
	// A kind the distances may not fit is an error wrapping
	// ErrWeightsTooLarge (or the lanes' no-kind error), never a silently
	// wider run; an unknown kind, or one the named algorithm does not
	// offer, wraps ErrInvalidOptions.
	Lanes string
}

// NegativeCycleError reports a negative cycle through Vertex.
type NegativeCycleError = cpu.NegativeCycleError

// ErrWeightsTooLarge is wrapped by the error for weights whose path lengths
// could overflow the lanes: beyond exact 64-bit integers, or beyond the
// finite range of float64 (where an overflowed length would read as "no
// path").
var ErrWeightsTooLarge = lanes.ErrWeightsTooLarge

// ErrInvalidOptions is wrapped by every error about the options
// themselves: an unknown algorithm or device string, an algorithm on the
// wrong device, a tile the engine cannot use, the bounds method asked for
// more than the diameter and radius. A command line maps it to its usage
// status.
var ErrInvalidOptions = plan.ErrInvalid

// OptionError is an invalid option, naming it ("algorithm", "device",
// "threads" or "tile"); it wraps ErrInvalidOptions.
type OptionError = plan.OptionError

// ErrEmptyGraph is returned for a graph without vertices.
var ErrEmptyGraph = errors.New("graph has no vertices")

// ErrNoGPU is wrapped when a GPU was asked for and none is usable: no CUDA
// driver, no device, or gpu:N beyond the devices.
var ErrNoGPU = engine.ErrNoGPU

// ErrNoPath is wrapped when the target cannot be reached.
var ErrNoPath = engine.ErrNoPath

// usableGraph returns ErrNilGraph or ErrEmptyGraph for a graph no
// computation takes, else nil.
func usableGraph(g *graph.Graph) error {
	switch {
	case g == nil:
		return ErrNilGraph
	case g.N() == 0:
		return ErrEmptyGraph
	}
	return nil
}

// resolve plans g under opt for the wanted result: options are validated
// and resolved here, once.
func resolve(g *graph.Graph, opt Options, want plan.Want) (*plan.Plan, error) {
	if err := usableGraph(g); err != nil {
		return nil, err
	}
	pl, err := plan.Resolve(g, plan.Request{Algorithm: opt.Algorithm, Device: opt.Device, Threads: opt.Threads,
		Tile: opt.Tile, Paths: opt.Paths, Want: want, Progress: opt.Progress, Lanes: opt.Lanes})
	if err != nil {
		return nil, err
	}
	if pl.Note != "" && opt.Notice != nil {
		opt.Notice(pl.Note)
	}
	return pl, nil
}

// AllPairs computes the distance between every ordered pair of vertices.
func AllPairs(ctx context.Context, g *graph.Graph, opt Options) (*Distances, error) {
	pl, err := resolve(g, opt, plan.Matrix)
	if err != nil {
		return nil, err
	}
	return run(ctx, pl)
}

// run runs a planned dense computation and wraps its matrix.
func run(ctx context.Context, pl *plan.Plan) (*Distances, error) {
	start := time.Now()
	r, err := pl.Engine.Run(ctx, pl.Problem)
	if err != nil {
		return nil, err
	}
	d := newDistances(r)
	d.Algorithm = pl.Engine.Name()
	d.Seconds = time.Since(start).Seconds()
	return d, nil
}

// rows returns every source's summary: from engines that summarise
// without the matrix (on the device, or per source), else from the full
// matrix.
func rows(ctx context.Context, g *graph.Graph, opt Options) ([]reduce.Row, *Distances, error) {
	pl, err := resolve(g, opt, plan.Rows)
	if err != nil {
		return nil, nil, err
	}
	if pl.Dense {
		d, err := run(ctx, pl)
		if err != nil {
			return nil, nil, err
		}
		// Summing rows is parallel whatever the engine was (fw is serial).
		return d.m.Rows(par.Threads(opt.Threads)), d, nil
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
	return rs, summaryInfo(pl, device, start), nil
}

// summaryInfo describes a run that summarised the sources without a
// matrix: which lanes, where, how long.
func summaryInfo(pl *plan.Plan, device string, start time.Time) *Distances {
	d := &Distances{n: pl.Problem.Graph.N(), kind: pl.Problem.Lanes, Algorithm: pl.Engine.Name(), Device: device,
		Threads: pl.Problem.Threads, Seconds: time.Since(start).Seconds()}
	if pl.Engine.Caps().Device == engine.GPU {
		d.Threads = 1
	}
	return d
}

// ComputeStats computes every summary measure of g.
func ComputeStats(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	start := time.Now()
	pl, err := resolve(g, opt, plan.Rows)
	if err != nil {
		return nil, err
	}
	s, err := statsOf(ctx, g, pl, opt.Reachable, false)
	if err != nil {
		return nil, err
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// Eccentricities returns the eccentricity of every vertex: the largest
// distance from it, infinite when some vertex is unreachable unless
// opt.Reachable (then over the reachable vertices only).
func Eccentricities(ctx context.Context, g *graph.Graph, opt Options) ([]Length, error) {
	rs, d, err := rows(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	ecc := make([]Length, len(rs))
	for u, r := range rs {
		ecc[u] = rowEcc(r, d.Exact(), opt.Reachable)
	}
	return ecc, nil
}

// Path is one shortest path.
type Path struct {
	Vertices []int  `json:"vertices"`
	Length   Length `json:"length"`
}

// ShortestPath returns one shortest path from u to v; the error wraps
// ErrNoPath when there is none. Under "auto" on the CPU it searches from u
// alone (breadth-first, Dijkstra or Bellman–Ford); a named engine or a GPU
// computes all pairs with successors.
func ShortestPath(ctx context.Context, g *graph.Graph, u, v int, opt Options) (Path, error) {
	if err := opt.Validate(false); err != nil {
		return Path{}, err
	}
	if err := usableGraph(g); err != nil {
		return Path{}, err
	}
	if u < 0 || u >= g.N() || v < 0 || v >= g.N() {
		return Path{}, fmt.Errorf("vertex out of range 0..%d: %d %d", g.N()-1, u, v)
	}
	dev, _ := plan.ParseDevice(opt.Device) // valid: Validate parsed it
	if (opt.Algorithm == "" || opt.Algorithm == "auto") && dev.Kind != "gpu" {
		p, err := engine.PathFrom(ctx, g, u, v)
		if err != nil {
			return Path{}, err
		}
		l := IntLength(p.Int)
		if p.IsFloat {
			l = FloatLength(p.Float)
		}
		return Path{Vertices: p.Vertices, Length: l}, nil
	}
	opt.Paths = true
	d, err := AllPairs(ctx, g, opt)
	if err != nil {
		return Path{}, err
	}
	vs, err := d.Path(u, v)
	if err != nil {
		return Path{}, err
	}
	return Path{Vertices: vs, Length: d.At(u, v)}, nil
}

// Summarize reduces a distance matrix of g to its Stats. Seconds is the
// engine's time; ComputeStats overwrites it with the total.
func Summarize(d *Distances, g *graph.Graph, reachable bool, threads int) *Stats {
	s := statsFromRows(d.m.Rows(threads), g, d.Exact(), reachable)
	s.Algorithm, s.Device, s.Lanes, s.Threads, s.Seconds = d.Algorithm, d.Device, d.Lanes(), d.Threads, d.Seconds
	return s
}

// Validate checks opt without a graph: the device string, the algorithm's
// name, an algorithm on the wrong device, the tile, and "bounds" outside
// extremes (it answers the diameter and radius only: ComputeExtremes, and
// extremes true). Errors wrap ErrInvalidOptions. Every entry point
// validates its options itself; a command line calls this first to tell a
// usage error from a failed computation.
func (o Options) Validate(extremes bool) error {
	return plan.Validate(plan.Request{Algorithm: o.Algorithm, Device: o.Device, Threads: o.Threads, Tile: o.Tile, Lanes: o.Lanes}, extremes)
}
