package apsp

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/run"
)

// StatsBatch computes ComputeStats(ctx, graphs[i], opt) for every graph and
// returns the results in input order: stats[i] is graph i's Stats, or nil
// when errs[i] says why it has none. Errors are per graph: a graph that
// fails (no vertices, a negative cycle, weights too large, too little
// memory, a nil graph: ErrNilGraph) fails alone and the others complete.
// Invalid options fail every graph with the same error (wrapping
// ErrInvalidOptions); when ctx is cancelled, the graphs not finished by
// then fail with ctx.Err().
//
// The batch is spread over the CPU threads opt.Threads allows (0: all):
// graphs whose estimated time on one thread is short (a quarter of a second
// by the engine's estimate, which admits unweighted sparse graphs of many
// thousands of vertices but dense weighted ones only of about a thousand)
// run one per worker goroutine, each on one thread — several threads per
// graph only when there are fewer graphs than threads — and larger ones, or
// those planned on a GPU, run after them one at a time with every thread.
// Each worker keeps its goroutine and its last plan across graphs:
// unweighted graphs of the same size and direction reuse the plan (engine,
// lanes, memory estimate) without resolving it again. "auto" chooses each
// graph's engine as ComputeStats would with every thread, so
// Stats.Algorithm is what ComputeStats reports; Stats.Threads and
// Stats.Seconds are the graph's own (1 for a small graph in a large batch;
// the seconds of its computation, not of the batch).
//
// Before that, the batch engines (GPU bulk kernels that compute many small
// graphs a launch) take the graphs they fit, when the engine is left to
// "auto" and no lanes are named that they do not compute in: on the
// device "gpu" or "gpu:N" always, and on the "auto" device only when a
// GPU is already open in the process (the batch never pays the GPU's
// start-up) and their estimate beats the CPU's. They are the GPU bulk
// search ("gpu-bulk": unweighted graphs of 1 to 16 384 vertices, past 4 096
// where the GPU's shared memory holds them; int32 lanes) and the GPU bulk Floyd–Warshall ("gpu-bulk-fw": integer-weighted
// graphs of 1 to 2048 vertices, int16 or int32 lanes per graph; a graph
// whose lengths int32 cannot hold, or that has a negative cycle, goes the
// one-graph way). They stream the graphs in groups (StatsBatchWith chooses
// the group); Seconds is a group's time divided by its graphs. When a
// batch engine fails, the graphs it has not delivered run as ComputeStats
// would (under "auto": on the CPU).
//
// opt.Progress, when set, receives the fraction of the batch done (graphs
// finished, and the progress of a large graph while it runs); opt.Notice
// receives each distinct line once per batch.
func StatsBatch(ctx context.Context, graphs []*graph.Graph, opt Options) (stats []*Stats, errs []error) {
	return StatsBatchWith(ctx, graphs, opt, BatchOptions{})
}

// BatchOptions are what StatsBatchWith takes beyond Options: how the batch
// engines group the batch, and results handed over as they become final.
type BatchOptions struct {
	// GroupSize is b, the graphs of a group of a batch engine: the graphs
	// it takes are computed in groups of b, each group reduced to Stats as
	// soon as its rows are back (the GPU bulk search also overlaps a
	// group's copies with the previous group's kernels on another CUDA
	// stream; the bulk Floyd–Warshall runs its groups in turn). A small
	// b gives the first results sooner, a large one more graphs a second
	// (docs/perf.md, "Streaming groups: latency against throughput").
	// 0 chooses 2048 graphs. It also bounds the rows held before reduction
	// (56 bytes a vertex): at most four groups' (with the default two
	// streams) at once. Negative is invalid.
	GroupSize int
	// Ready, when set, is called with each run [lo, hi) of graphs whose
	// results have become final, in input order (lo is the previous
	// call's hi; the calls cover the batch unless it stops early), one
	// call at a time, from the batch's goroutines: stats and errs are the
	// results of graphs lo to hi-1. A slow Ready delays the batch.
	Ready func(lo, hi int, stats []*Stats, errs []error)
}

// StatsBatchWith is StatsBatch with BatchOptions: a group size for the
// batch engines and results handed to bo.Ready in input order as they
// become final, so that a caller can write them out before the batch
// ends. An invalid bo fails every graph as invalid options do.
func StatsBatchWith(ctx context.Context, graphs []*graph.Graph, opt Options, bo BatchOptions) (stats []*Stats, errs []error) {
	o, err := opt.parse()
	if err != nil {
		return failAll(graphs, err, bo.Ready)
	}
	return run.Batch(ctx, graphs, o, run.BatchOptions{Group: bo.GroupSize, Ready: bo.Ready})
}

// SummaryBatch computes the Summary of every graph of graphs, results and
// errors in input order as StatsBatch gives them, by the same paths. A
// batch engine that can reduce on the device (the GPU bulk search) sends
// back a few bytes a graph instead of its rows.
func SummaryBatch(ctx context.Context, graphs []*graph.Graph, opt Options) ([]Summary, []error) {
	o, err := opt.parse()
	if err != nil {
		_, errs := failAll(graphs, err, nil)
		return make([]Summary, len(graphs)), errs
	}
	return run.Summaries(ctx, graphs, o, nil)
}

// SummaryChanges computes the Summary of each graph that a change of
// base makes, base.Change(changes[i]), results and errors in the order of
// changes (Change's error for a change it refuses), as SummaryBatch of
// those graphs would; base is left as it is. On a GPU, the changes that
// keep every vertex's arc count (edge swaps) of a graph the bulk search
// takes are measured without their graphs being built: base's arcs go to
// the GPU once and each change as a few arc edits (graph.ArcEdits), which
// is what a search that weighs many swaps of one graph a step needs.
func SummaryChanges(ctx context.Context, base *graph.Graph, changes []graph.Changes, opt Options) ([]Summary, []error) {
	o, err := opt.parse()
	if err != nil {
		errs := make([]error, len(changes))
		for i := range errs {
			errs[i] = err
		}
		return make([]Summary, len(changes)), errs
	}
	return run.ChangeSummaries(ctx, base, changes, o, nil)
}

// failAll fails every graph with err, handing them to ready at once.
func failAll(graphs []*graph.Graph, err error, ready func(lo, hi int, stats []*Stats, errs []error)) ([]*Stats, []error) {
	stats, errs := make([]*Stats, len(graphs)), make([]error, len(graphs))
	for i := range errs {
		errs[i] = err
	}
	if ready != nil && len(graphs) > 0 {
		ready(0, len(graphs), stats, errs)
	}
	return stats, errs
}
