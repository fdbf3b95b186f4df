package run

import (
	"sync/atomic"

	"github.com/apsp/apsp/internal/plan"
)

// Kept is an Evaluator's plan across calls: the last small plan a batch's
// worker made for an unweighted graph, with the threads it was made for
// and the count of GPUs the process had opened (engine.GPUsOpened) before
// it was made. Only small plans are kept (Small), so a kept plan never
// skips a memory check that could have failed, and a graph planned on a
// GPU is planned afresh each call. It is safe for concurrent use.
type Kept struct{ p atomic.Pointer[threadsPlan] }

type threadsPlan struct {
	pl              *plan.Plan
	threads, opened int
}

// Plan returns the kept plan if it was made for a worker of threads
// threads while opened GPUs had been opened, else nil.
func (k *Kept) Plan(threads, opened int) *plan.Plan {
	if tp := k.p.Load(); tp != nil && tp.threads == threads && tp.opened == opened {
		return tp.pl
	}
	return nil
}

// store keeps pl, made for a worker of threads threads after opened GPUs
// had been opened, when it is small by sm; otherwise the plan kept
// before stays.
func (k *Kept) store(pl *plan.Plan, threads, opened int, sm Small) {
	if pl == nil || !sm.holds(pl) {
		return
	}
	if tp := k.p.Load(); tp != nil && *tp == (threadsPlan{pl, threads, opened}) {
		return // the same plan, reused: nothing to write
	}
	k.p.Store(&threadsPlan{pl, threads, opened})
}
