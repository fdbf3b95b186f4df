package golf

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// team makes and evaluates a step's candidates on the CPU with
// goroutines that live as long as the search: the caller and helpers
// take candidates by an atomic counter, each making its own (a
// ChangeInto of the current graph into the candidate's own spare) and
// measuring it through the shared Evaluator (one thread a graph). A batch through SummaryBatch starts a
// goroutine and wakes a thread each step, which on the 2-vCPU VM cost
// more than a (256, 8) candidate's evaluation; the helpers here wait
// for the next step by spinning a while (yielding the processor) before
// they sleep, and the caller takes every candidate no helper has taken,
// so a helper that the operating system has not scheduled delays
// nothing but its own candidate.
type team struct {
	item func(i int) error // makes and measures candidate i of the step

	// The step's errors, set by the caller before it publishes the
	// step by next, written by whoever takes a candidate of the step.
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

// newTeam starts helpers goroutines; with none, the caller measures every
// item itself.
func newTeam(item func(i int) error, helpers int) *team {
	t := &team{item: item, wake: make(chan struct{}, helpers), finished: make(chan struct{}, 1), stop: make(chan struct{})}
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
		t.errs[i] = t.item(int(i))
		if t.done.Add(1) == v>>20&(1<<20-1) {
			select { // the last: wake the caller if it sleeps
			case t.finished <- struct{}{}:
			default:
			}
		}
	}
}

// measure runs the items 0..n-1 with the helpers, their errors in errs.
func (t *team) measure(n0 int, errs []error) {
	n := int64(n0) // at most 1<<20 - 1 (Batch is that of a CPU)
	t.errs = errs
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

// eachOn calls f(i) for every i < n on up to threads goroutines, the
// caller one of them, handing out i by an atomic counter.
func eachOn(threads, n int, f func(i int)) {
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			f(i)
		}
	}
	var wg sync.WaitGroup
	for range min(threads, n) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
