package apsp

import (
	"context"
	"sync/atomic"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
)

// An Evaluator computes the Summary or Stats of one graph after another
// with the same Options, as a search loop does (simulated annealing over
// candidate graphs of one order and degree), and keeps between its calls
// what a batch keeps between its graphs: the plan of the last unweighted
// graph (engine, lanes, threads, memory estimate), which a graph with the
// same vertex and arc counts and direction reuses without planning
// again. On the 2-vCPU development machine that took a 1024-vertex call
// from 62 allocations to 39 and 72–73 µs to 70 (docs/perf.md, "One graph
// at a time, against ODP").
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
	opt  Options
	kept keptPlan
}

// NewEvaluator returns an Evaluator for opt, or opt's error (wrapping
// ErrInvalidOptions).
func NewEvaluator(opt Options) (*Evaluator, error) {
	if err := opt.Validate(false); err != nil {
		return nil, err
	}
	return &Evaluator{opt: opt}, nil
}

// Summary is SummaryBatch of g alone, with the kept plan.
func (e *Evaluator) Summary(ctx context.Context, g *graph.Graph) (Summary, error) {
	sums, errs := summaryBatch(ctx, []*graph.Graph{g}, e.opt, &e.kept)
	return sums[0], errs[0]
}

// Stats is StatsBatch of g alone, with the kept plan: the measures of
// ComputeStats(ctx, g, opt).
func (e *Evaluator) Stats(ctx context.Context, g *graph.Graph) (*Stats, error) {
	stats, errs := statsBatch(ctx, []*graph.Graph{g}, e.opt, BatchOptions{}, false, &e.kept)
	return stats[0], errs[0]
}

// keptPlan is an Evaluator's plan across calls: the last small plan a
// batch's worker made for an unweighted graph, with the threads it was
// made for and the count of GPUs the process had opened (gpu.Opened)
// before it was made.
type keptPlan struct{ p atomic.Pointer[threadsPlan] }

type threadsPlan struct {
	pl              *plan.Plan
	threads, opened int
}

// load returns the kept plan if it was made for a worker of threads
// threads while opened GPUs had been opened, else nil.
func (k *keptPlan) load(threads, opened int) *plan.Plan {
	if tp := k.p.Load(); tp != nil && tp.threads == threads && tp.opened == opened {
		return tp.pl
	}
	return nil
}

// store keeps pl, made for a worker of threads threads after opened GPUs
// had been opened, when it is small; otherwise the plan kept before stays.
func (k *keptPlan) store(pl *plan.Plan, threads, opened int) {
	if pl == nil || !smallPlan(pl) {
		return
	}
	if tp := k.p.Load(); tp != nil && *tp == (threadsPlan{pl, threads, opened}) {
		return // the same plan, reused: nothing to write
	}
	k.p.Store(&threadsPlan{pl, threads, opened})
}
