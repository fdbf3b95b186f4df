package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// Device says where an engine runs.
type Device int

const (
	CPU Device = iota
	GPU
)

func (d Device) String() string {
	if d == GPU {
		return "gpu"
	}
	return "cpu"
}

// Weights is a set of weight kinds an engine takes.
type Weights uint8

const (
	Unweighted Weights = 1 << iota
	IntWeights
	FloatWeights
	AnyWeights = Unweighted | IntWeights | FloatWeights
)

// WeightsOf is the set holding g's kind.
func WeightsOf(g *graph.Graph) Weights {
	switch g.Kind() {
	case graph.IntWeights:
		return IntWeights
	case graph.FloatWeights:
		return FloatWeights
	}
	return Unweighted
}

// Caps are what an engine can do; the planner and the API decide from them.
type Caps struct {
	Device   Device
	Weights  Weights // the weight kinds it takes
	Negative bool    // it takes negative arcs (and finds negative cycles)
	Wide     bool    // it takes wide int64 plans (lengths beyond half of int64)
	Rows     bool    // it summarises every source without an n×n host matrix (RowReducer)
	Harmonic bool    // its Rows fill reduce.Row.Harm (Σ 1/d); without it a harmonic request runs dense
	Sources  bool    // it searches chosen sources alone (SourceSearcher)
	Sums     bool    // it adds up the distances to each vertex from chosen sources without their rows (DistanceSummer)
	Hist     bool    // it counts pairs per distance without the matrix (Histogrammer)
	Paths    bool    // it tracks successors itself instead of deriving them afterwards
	Serial   bool    // it runs on one thread whatever Problem.Threads says
	Auto     bool    // "auto" may pick it (the oracle and slower twins never win)
	MultiGPU bool    // it splits its sources over several GPUs (gpu:all, gpu:0,1)
	// Lanes are the lane kinds it computes in, narrowest first; Problem.Lanes
	// is the narrowest of them that the plan allows.
	Lanes []lanes.Kind
}

// Problem is one all-pairs computation, planned: every option is resolved.
type Problem struct {
	Graph *graph.Graph
	// Plan bounds the path lengths; Lanes is the kind the engine computes
	// in, chosen from Plan and the engine's Caps.Lanes.
	Plan  lanes.Plan
	Lanes lanes.Kind
	Paths bool // keep a successor matrix
	// Threads is the CPU threads to use (at least 1).
	Threads int
	Tile    int // the blocked engine's tile width; 0 means its default
	Ordinal int // the GPU number (the first listed)
	// GPUs lists the GPUs of "gpu:0,1" (two or more, distinct), and
	// AllGPUs says "gpu:all" (every GPU the driver sees, resolved where the
	// engine runs: GPUsOf); engines without Caps.MultiGPU refuse either.
	GPUs    []int
	AllGPUs bool
	// Progress receives the fraction done from the engine's goroutines; may
	// be nil.
	Progress func(float64)
}

// Result is an all-pairs distance matrix and what made it.
type Result struct {
	Matrix lanes.Any
	// Next is the successor matrix (row stride NextStride) when paths were
	// asked for.
	Next       []int32
	NextStride int
	Device     string // "cpu" or the GPU's name
	Threads    int
}

// Engine computes all-pairs distances.
type Engine interface {
	// Name is what Options.Algorithm and --algo call the engine.
	Name() string
	Caps() Caps
	// Supports returns nil when the engine can solve p, beyond what Caps
	// already says (a tile it cannot use, no GPU).
	Supports(p *Problem) error
	// WorkBytes is the host memory Run (dense) or Rows/Hist (!dense) will
	// allocate besides the graph, for the planner's admission check.
	WorkBytes(p *Problem, dense bool) uint64
	// Estimate is the engine's expected running time on p in seconds, the
	// cost model "auto" compares (cost.go).
	Estimate(p *Problem) float64
	// Run computes the distance matrix.
	Run(ctx context.Context, p *Problem) (*Result, error)
}

// RowReducer is implemented by engines with Caps.Rows: every source's
// summary without an n×n host matrix, and the device's name.
type RowReducer interface {
	Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error)
}

// BriefReducer is implemented by engines with Caps.Rows that give the
// summary measures' share of the rows (reduce.Brief) more cheaply than
// the rows themselves, and the device's name. The distances are exact.
// The Brief belongs to the caller, who may Release it for reuse: an
// engine must not keep it.
type BriefReducer interface {
	Brief(ctx context.Context, p *Problem) (*reduce.Brief, string, error)
}

// TotalsReducer is implemented by engines whose summaries lie in columns
// (gpu-bitbfs): every source's reach, sum of distances and Σ 1/d
// (reduce.Totals) without building rows, for the centralities. The
// distances are exact; the Totals belong to the caller.
type TotalsReducer interface {
	Totals(ctx context.Context, p *Problem) (*reduce.Totals, string, error)
}

// SourceSearcher is implemented by engines with Caps.Sources: the rows,
// or the distances, from chosen sources alone (valid ids, repeats
// allowed), in O(k·n) memory for k sources.
type SourceSearcher interface {
	// RowsFrom summarises sources[i] in row i, Harm included.
	RowsFrom(ctx context.Context, p *Problem, sources []int32) ([]reduce.Row, error)
	// DistancesFrom gives the distances from sources[i] at [i·n + v]: in
	// ints (unreachable for no path) for exact lengths, else in floats
	// (+Inf).
	DistancesFrom(ctx context.Context, p *Problem, sources []int32, unreachable int64) (ints []int64, floats []float64, err error)
	// EstimateFrom is the expected time of a search from k sources of p
	// (the cost model "auto" compares for a source list: cost.go).
	EstimateFrom(p *Problem, k int) float64
	// WorkBytesFrom is the host memory RowsFrom (matrix false) or
	// DistancesFrom (true) will allocate for k sources besides the
	// graph, the result included, for the planner's admission check.
	WorkBytesFrom(p *Problem, k int, matrix bool) uint64
}

// DistanceSummer is implemented by source searchers that can add up, for
// every vertex, the distances to it from chosen sources (how many reach
// it, their sum and sum of squares) without holding the sources' rows:
// a sampled closeness estimate of a graph too large for them.
type DistanceSummer interface {
	SumsFrom(ctx context.Context, p *Problem, sources []int32) (*bfs.Sums, error)
}

// Histogrammer is implemented by engines with Caps.Hist: ordered pairs per
// distance without the matrix.
type Histogrammer interface {
	Hist(ctx context.Context, p *Problem) ([]int64, error)
}

// SourceHistogrammer is implemented by source searchers that can count
// the pairs from chosen sources at each distance without their rows
// (Hist[0] = 0, trimmed to the largest). ok is false where it cannot on
// this graph or machine; the rows are then the way.
type SourceHistogrammer interface {
	HistFrom(ctx context.Context, p *Problem, sources []int32) (hist []int64, ok bool)
}

// ErrNeedsUnweighted is wrapped when an engine needs an unweighted graph.
var ErrNeedsUnweighted = errors.New("needs an unweighted graph (use --unweighted to count hops)")

// Check returns why e cannot take g judging by its Caps alone, or nil.
// The engines that could are named from their Caps.
func Check(e Engine, g *graph.Graph, plan lanes.Plan) error {
	c := e.Caps()
	switch {
	case c.Weights&WeightsOf(g) == 0 && c.Weights == Unweighted:
		return ErrNeedsUnweighted
	case c.Weights&WeightsOf(g) == 0:
		return errors.New("does not take " + g.Kind().String() + " weights")
	case plan.Negative && !c.Negative:
		return fmt.Errorf("has negative weights (engines that take them: %s)", namesWith(func(c Caps) bool { return c.Negative }))
	case plan.Wide && !c.Wide:
		return fmt.Errorf("%w (engines that take them: %s)", lanes.ErrWide, namesWith(func(c Caps) bool { return c.Wide }))
	}
	if _, err := plan.Narrowest(c.Lanes...); err != nil {
		// The plan itself is sound (lanes.PlanFor accepted it): only this
		// engine's lanes are too narrow, so the error does not wrap
		// ErrWeightsTooLarge — another engine computes the graph.
		return fmt.Errorf("its %s lanes cannot hold these distances (%s lanes needed): %v",
			lanesOf(c, plan.Lanes.IsFloat()), plan.Lanes, err)
	}
	return nil
}

// namesWith lists the engines whose Caps satisfy ok.
func namesWith(ok func(Caps) bool) string {
	var names []string
	for _, e := range All() {
		if ok(e.Caps()) {
			names = append(names, e.Name())
		}
	}
	return strings.Join(names, ", ")
}

// lanesOf names an engine's lanes of one class (float or integer).
func lanesOf(c Caps, float bool) string {
	var names []string
	for _, k := range c.Lanes {
		if k.IsFloat() == float {
			names = append(names, k.String())
		}
	}
	if len(names) == 0 {
		return "no " + map[bool]string{true: "float", false: "integer"}[float]
	}
	return strings.Join(names, "/")
}

// All returns every engine of this build, in the order "auto" prefers
// them when estimates tie. GPU engines come from the gpu registration.
func All() []Engine {
	return []Engine{blocked{}, fw{}, bfsEngine{bitParallel: true}, bfsEngine{}, dijkstraEngine{}, dijkstraEngine{johnson: true},
		GPUEngine(gpuMulti), GPUEngine(gpuSingle), BitEngine(),
		SSSPEngine(),
		MinPlusEngine()}
}

// ByName returns the engine called name.
func ByName(name string) (Engine, bool) {
	all := All()
	i := slices.IndexFunc(all, func(e Engine) bool { return e.Name() == name })
	if i < 0 {
		return nil, false
	}
	return all[i], true
}

// Names returns the engines' names in All's order.
func Names() []string {
	var names []string
	for _, e := range All() {
		names = append(names, e.Name())
	}
	return names
}

// NegativeCycleError reports a negative cycle through Vertex: every engine
// that takes negative arcs returns it.
type NegativeCycleError = cpu.NegativeCycleError
