package apsp

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/run"
)

// An Evaluator computes the Summary or Stats of one graph after another
// with the same Options, as a search loop does (simulated annealing over
// candidate graphs of one order and degree). Its options are parsed once,
// by NewEvaluator, and it keeps between its calls what a batch keeps
// between its graphs: the plan of the last unweighted graph (engine,
// lanes, threads, memory estimate), which a graph with the same vertex
// and arc counts and direction reuses without planning again.
//
// Only plans for the CPU whose run is short and small (under a quarter of
// a second by the engine's estimate and 256 MiB) are kept, so a kept plan
// never skips a memory check that could have failed, and a graph planned
// on a GPU is planned afresh each call. A plan is kept only while the
// process has opened no further GPU: under the "auto" device a GPU already
// open changes what the planner picks. Options.Notice receives a plan's
// notes when a graph is planned, not on the calls that reuse the plan.
// The measures are those of SummaryBatch and StatsBatch for a batch of
// one graph.
//
// An Evaluator is safe for concurrent use; concurrent calls share the
// kept plan and compete for the same cores.
type Evaluator struct {
	opt  *plan.Options
	kept run.Kept
}

// NewEvaluator returns an Evaluator for opt, or opt's error (wrapping
// ErrInvalidOptions).
func NewEvaluator(opt Options) (*Evaluator, error) {
	o, err := opt.parse()
	if err == nil && o.Bounds {
		err = plan.ErrBoundsOnly()
	}
	if err == nil {
		err = o.NoMode("an Evaluator")
	}
	if err == nil {
		err = o.NoEffective("an Evaluator")
	}
	if err == nil {
		err = o.NoSources("an Evaluator")
	}
	if err != nil {
		return nil, err
	}
	return &Evaluator{opt: o}, nil
}

// Summary is SummaryBatch of g alone, with the kept plan.
func (e *Evaluator) Summary(ctx context.Context, g *graph.Graph) (Summary, error) {
	sums, errs := run.Summaries(ctx, []*graph.Graph{g}, e.opt, &e.kept)
	return sums[0], errs[0]
}

// SummaryBatch is SummaryBatch of graphs with the kept plan: a search
// loop's candidates evaluated at once, each graph on its own thread.
func (e *Evaluator) SummaryBatch(ctx context.Context, graphs []*graph.Graph) ([]Summary, []error) {
	return run.Summaries(ctx, graphs, e.opt, &e.kept)
}

// SummaryChanges is SummaryChanges of base and changes with the kept
// plan: a search step's neighbourhood of edge swaps measured at once.
func (e *Evaluator) SummaryChanges(ctx context.Context, base *graph.Graph, changes []graph.Changes) ([]Summary, []error) {
	return run.ChangeSummaries(ctx, base, changes, e.opt, &e.kept)
}

// ChangesAsEdits reports whether SummaryChanges measures the changes of
// base that keep every vertex's arc count without building their graphs
// (on a GPU, graphs of up to 1 024 vertices whose arcs fit a block's
// shared memory): a search decides by it whether to send its candidates
// as changes or to build them itself into arrays it reuses.
func (e *Evaluator) ChangesAsEdits(base *graph.Graph) bool {
	return run.ChangesAsEdits(base, e.opt)
}

// Stats is StatsBatch of g alone, with the kept plan: the measures of
// ComputeStats(ctx, g, opt).
func (e *Evaluator) Stats(ctx context.Context, g *graph.Graph) (*Stats, error) {
	stats, errs := run.Batch(ctx, []*graph.Graph{g}, e.opt, run.BatchOptions{Keep: &e.kept})
	return stats[0], errs[0]
}
