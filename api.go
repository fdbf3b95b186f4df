package apsp

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/run"
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
	// Mode says which distances the per-vertex measures of a directed
	// graph read, as igraph's mode: "out" (from the vertex), "in" (to it),
	// "all" (the graph with its directions dropped, parallel arcs keeping
	// the smaller length); "" is each measure's default: "out" for
	// Eccentricities and ComputeStats (whose radius, center and periphery
	// then follow the mode, and "all" measures the undirected view
	// throughout), "in" for ClosenessCentrality and HarmonicCentrality
	// (NetworkX's choice). Undirected graphs read the same in every mode.
	// Entry points that read the distances from each vertex only (AllPairs,
	// ShortestPath, the batches, an Evaluator, a distributed run) refuse
	// "in" and "all" (ErrInvalidOptions).
	Mode string
	// Effective, in (0, 1], has ComputeStats add the effective diameter at
	// that ratio of the pairs with a path (Stats.EffectiveDiameter: the
	// smallest distance d within which at least that share of them lie)
	// and SNAP's interpolated one (Stats.EffectiveDiameterInterpolated);
	// 0 adds neither. They need exact distances (no float lengths, none
	// negative): a histogram of them, which the bit-parallel search
	// counts on the way and the other engines in a second computation.
	// The other entry points refuse it (ErrInvalidOptions).
	Effective float64
	// Sources, when not nil, are the vertices Eccentricities,
	// ClosenessCentrality, HarmonicCentrality and Centralities answer for,
	// in this order (value i is Sources[i]'s), from a search from each
	// (bfs, bitbfs in batches of up to 512, dijkstra or johnson, on the
	// CPU; gpu-sssp with Device "gpu") in memory for len(Sources) rows,
	// not n; ids out of range are an error
	// (ErrInvalidOptions). The other entry points refuse it; DistancesFrom
	// takes its sources as an argument.
	Sources []int
}

// NegativeCycleError reports a negative cycle through Vertex.
type NegativeCycleError = engine.NegativeCycleError

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
var ErrEmptyGraph = run.ErrEmptyGraph

// ErrNilGraph is returned for a nil graph (by the batch calls, for that
// graph alone).
var ErrNilGraph = run.ErrNilGraph

// ErrNoGPU is wrapped when a GPU was asked for and none is usable: no CUDA
// driver, no device, or gpu:N beyond the devices.
var ErrNoGPU = engine.ErrNoGPU

// ErrNegativeLengths is wrapped by the refusal of a measure that needs
// non-negative lengths (ClosenessCentrality).
var ErrNegativeLengths = run.ErrNegativeLengths

// ErrNotExact is wrapped by the refusal of Options.Effective on a graph
// with float or negative lengths: the effective diameter is defined on
// exact distances only.
var ErrNotExact = run.ErrNotExact

// ErrNoPath is wrapped when the target cannot be reached.
var ErrNoPath = engine.ErrNoPath

// parse reads opt once, for one entry-point call (an Evaluator's, once
// for all its calls): below it, no code reads an option string again.
func (o Options) parse() (*plan.Options, error) { return plan.Parse(plan.Raw(o)) }

// parseFor is parse for a call on g: a nil or empty graph is reported
// before any option.
func (o Options) parseFor(g *graph.Graph) (*plan.Options, error) {
	if err := run.UsableGraph(g); err != nil {
		return nil, err
	}
	return o.parse()
}

// AllPairs computes the distance between every ordered pair of vertices.
func AllPairs(ctx context.Context, g *graph.Graph, opt Options) (*Distances, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.AllPairs(ctx, g, o)
}

// ComputeStats computes every summary measure of g.
func ComputeStats(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Stats(ctx, g, o)
}

// Eccentricities returns the eccentricity of every vertex: the largest
// distance from it, infinite when some vertex is unreachable unless
// opt.Reachable (then over the reachable vertices only).
func Eccentricities(ctx context.Context, g *graph.Graph, opt Options) ([]Length, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Eccentricities(ctx, g, o)
}

// ClosenessCentrality returns every vertex's closeness centrality, with
// NetworkX's definition and default (closeness_centrality, wf_improved
// True): for a vertex v that r−1 other vertices reach, with distances to v
// summing to T > 0, (r−1)/T, multiplied by (r−1)/(n−1) when wfImproved
// (Wasserman and Faust's scaling, so that on a graph that is not
// connected a vertex reached by few others does not rank first); 0 when T
// is 0. For a directed graph the distances are those *to* v under the
// default opt.Mode, as in NetworkX (igraph's mode "in"); "out" reads those
// from v, "all" those of the graph with its directions dropped. Lengths must be non-negative. It costs
// what ComputeStats costs (a directed graph is reversed first): the sums
// are the ones the engines form for the ASPL.
func ClosenessCentrality(ctx context.Context, g *graph.Graph, opt Options, wfImproved bool) ([]float64, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Closeness(ctx, g, o, wfImproved)
}

// HarmonicCentrality returns every vertex's harmonic centrality with
// NetworkX's definition (harmonic_centrality, not normalised): for a
// vertex v, Σ 1/d(u, v) over the vertices u ≠ v with a path to v of
// length d > 0 (a length of 0, through zero-length arcs, adds nothing, as
// in NetworkX); 0 for a vertex no other reaches. For a directed graph the
// distances are those *to* v under the default opt.Mode (NetworkX's, and
// igraph's mode "in"). Lengths must be non-negative. The searching
// engines (bfs, bitbfs, dijkstra, gpu-bitbfs, gpu-sssp) sum 1/d as they
// search; the others compute the matrix first.
func HarmonicCentrality(ctx context.Context, g *graph.Graph, opt Options) ([]float64, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Harmonic(ctx, g, o)
}

// Centralities returns ClosenessCentrality and HarmonicCentrality from one
// computation of the distances.
func Centralities(ctx context.Context, g *graph.Graph, opt Options, wfImproved bool) (closeness, harmonic []float64, err error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, nil, err
	}
	return run.Centralities(ctx, g, o, wfImproved)
}

// DistancesFrom returns the distances from each of sources (vertex ids,
// repeats allowed) to every vertex: an origin–destination matrix of
// len(sources) rows, row i for sources[i], from a search from each (bfs,
// bitbfs, dijkstra or johnson on the CPU, gpu-sssp with Device "gpu";
// "auto" picks among them by their estimated times, another engine named
// is refused), in memory for len(sources)·n distances, not n².
// opt.Mode "in" gives the distances to each source, "all" those of the
// undirected view; opt.Sources must be nil.
func DistancesFrom(ctx context.Context, g *graph.Graph, sources []int, opt Options) (*SourceDistances, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.DistancesFrom(ctx, g, sources, o)
}

// DistancesBetween returns the distances from each of sources to each of
// targets, vertex ids with repeats allowed, nil meaning every vertex in
// order (an empty list, none): an origin–destination matrix of
// len(sources) rows and len(targets) columns (Targets set; nil when every
// vertex is a column). It searches from each vertex of the shorter list,
// from the targets in the opposite direction when they are fewer, with
// the engines and options of DistancesFrom, in memory for that many rows
// of n distances. Ids out of range are an error (ErrInvalidOptions).
func DistancesBetween(ctx context.Context, g *graph.Graph, sources, targets []int, opt Options) (*SourceDistances, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.DistancesBetween(ctx, g, sources, targets, o)
}

// EstimateStats estimates g's ASPL and bounds its diameter from k sources
// drawn uniformly without replacement with seed (every vertex when k ≥ n),
// a search from each (bfs, bitbfs, dijkstra or johnson on the CPU): the
// ASPL over the pairs with a path as a ratio estimate with a 95 % confidence interval,
// and the largest eccentricity of a sampled source, a lower bound on the
// diameter. Connectivity is exact; on a graph that is not connected, unless
// opt.Reachable, both measures are infinite and given exactly. opt.Mode
// is read as ComputeStats reads it; opt.Sources and opt.Effective are
// refused.
func EstimateStats(ctx context.Context, g *graph.Graph, k int, seed uint64, opt Options) (*Estimate, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Estimate(ctx, g, k, seed, o)
}

// EstimateCloseness estimates every vertex's closeness centrality
// (ClosenessCentrality's definition and opt.Mode) from k sources drawn
// uniformly without replacement with seed, one search each, in memory for
// three sums a vertex and the rows of a share of the sources at a time
// (about 256 MB), not k·n distances: for v, from the distances to it of
// the sampled vertices
// other than v, with a 95 % confidence interval (delta method, finite-
// population correction); every vertex sampled gives the exact values.
func EstimateCloseness(ctx context.Context, g *graph.Graph, k int, seed uint64, opt Options, wfImproved bool) ([]Interval, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.EstimateCloseness(ctx, g, k, seed, o, wfImproved)
}

// ShortestPath returns one shortest path from u to v; the error wraps
// ErrNoPath when there is none. Under "auto" on the CPU it searches from u
// alone (breadth-first, Dijkstra or Bellman–Ford); a named engine or a GPU
// computes all pairs with successors.
func ShortestPath(ctx context.Context, g *graph.Graph, u, v int, opt Options) (Path, error) {
	o, err := opt.parse()
	if err != nil {
		return Path{}, err
	}
	return run.ShortestPath(ctx, g, u, v, o)
}

// DistanceHistogram computes the hop plot of g (the distribution of
// distances over ordered pairs). Distances must be non-negative integers.
func DistanceHistogram(ctx context.Context, g *graph.Graph, opt Options) (*Histogram, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.Histogram(ctx, g, o)
}

// DistanceHistogramBetween is the hop plot of the pairs from each of
// sources to each of targets (nil: every vertex), read as
// DistancesBetween reads them: the ordered pairs of distinct vertices at
// each distance (a vertex on both lists is not paired with itself;
// repeats count again) and those without a path. Distances must be
// non-negative integers.
func DistanceHistogramBetween(ctx context.Context, g *graph.Graph, sources, targets []int, opt Options) (*Histogram, error) {
	o, err := opt.parseFor(g)
	if err != nil {
		return nil, err
	}
	return run.HistogramBetween(ctx, g, sources, targets, o)
}

// Summarize reduces a distance matrix of g to its Stats. Seconds is the
// engine's time; ComputeStats overwrites it with the total.
func Summarize(d *Distances, g *graph.Graph, reachable bool, threads int) *Stats {
	return run.Summarize(d, g, reachable, threads)
}

// Validate checks opt without a graph: the device string, the algorithm's
// name, an algorithm on the wrong device, the tile, and "bounds" outside
// extremes (it answers the diameter and radius only: ComputeExtremes, and
// extremes true). Errors wrap ErrInvalidOptions. Every entry point
// validates its options itself; a command line calls this first to tell a
// usage error from a failed computation.
func (o Options) Validate(extremes bool) error { return plan.Validate(plan.Raw(o), extremes) }
