package golf

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// team evaluates a step's candidates on the CPU with goroutines that
// live as long as the search: the caller and helpers take candidates by
// an atomic counter, each measuring its own through the shared
// Evaluator (one thread a graph). A batch through SummaryBatch starts a
// goroutine and wakes a thread each step, which on the 2-vCPU VM cost
// more than a (256, 8) candidate's evaluation; the helpers here wait
// for the next step by spinning a while (yielding the processor) before
// they sleep, and the caller takes every candidate no helper has taken,
// so a helper that the operating system has not scheduled delays
// nothing but its own candidate.
type team struct {
	ev  *apsp.Evaluator
	ctx context.Context

	// The step: its graphs and their results, written by the caller
	// before it publishes the step by next, read by a helper that has
	// taken a candidate of the step.
	gs   []*graph.Graph
	ms   []measure
	errs []error

	// next is the step's number (bits 40 and up), its candidates (bits
	// 20-39) and the next candidate to take (bits 0-19): a helper late
	// from an earlier step sees another number and takes nothing.
	next     atomic.Int64
	done     atomic.Int64  // candidates of the step measured
	wake     chan struct{} // a step for sleeping helpers
	finished chan struct{} // the step's last candidate, for a caller that sleeps
	stop     chan struct{}
	step     int64
}

// teamSpin is how many times an idle helper, or the caller waiting for
// the helpers, yields before it sleeps: some tens of microseconds on the
// VM, a few steps of the search at n = 256. Spinning longer took the
// vCPUs from the threads doing work when other jobs held one of them.
const teamSpin = 200

// newTeam starts helpers goroutines (at least 1).
func newTeam(ctx context.Context, ev *apsp.Evaluator, helpers int) *team {
	t := &team{ev: ev, ctx: ctx, wake: make(chan struct{}, helpers), finished: make(chan struct{}, 1), stop: make(chan struct{})}
	for range helpers {
		go t.help()
	}
	return t
}

// close stops the helpers.
func (t *team) close() { close(t.stop) }

func (t *team) help() {
	seen := int64(0) // the last step worked on
	for {
		// Wait for a step after seen: spin a while, then sleep.
		for i := 0; t.next.Load()>>40 == seen; i++ {
			if i < teamSpin {
				runtime.Gosched()
				continue
			}
			select {
			case <-t.wake:
			case <-t.stop:
				return
			}
			i = 0
		}
		select {
		case <-t.stop:
			return
		default:
		}
		seen = t.next.Load() >> 40
		t.work(seen)
	}
}

// work measures candidates of step until none is left.
func (t *team) work(step int64) {
	for {
		v := t.next.Load()
		if v>>40 != step || v&(1<<20-1) >= v>>20&(1<<20-1) {
			return
		}
		if !t.next.CompareAndSwap(v, v+1) {
			continue
		}
		i := v & (1<<20 - 1)
		sum, err := t.ev.Summary(t.ctx, t.gs[i])
		t.ms[i], t.errs[i] = fromSummary(sum, t.gs[i].N()), err
		if t.done.Add(1) == v>>20&(1<<20-1) {
			select { // the last: wake the caller if it sleeps
			case t.finished <- struct{}{}:
			default:
			}
		}
	}
}

// measure evaluates gs with the helpers, results in order.
func (t *team) measure(gs []*graph.Graph, ms []measure, errs []error) {
	n := int64(len(gs)) // at most 1<<20 - 1 (Batch is that of a CPU)
	t.gs, t.ms, t.errs = gs, ms, errs
	t.done.Store(0)
	t.step++
	t.next.Store(t.step<<40 | n<<20) // publishes the step
	for range cap(t.wake) {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	t.work(t.step)
	// Wait for the candidates the helpers took: spin a while, then sleep
	// until the last is done (a token left by an earlier step only
	// makes the loop look again).
	for i := 0; t.done.Load() < n; i++ {
		if i < teamSpin {
			runtime.Gosched()
			continue
		}
		<-t.finished
	}
}
