package par

import (
	"runtime"
	"sync/atomic"
)

// Barrier is a spinning barrier for a fixed number of goroutines that
// already run together (the workers of one Team.Run): a search whose
// levels each end in a barrier keeps its threads inside one Run instead
// of paying a fork and a join per level. The last goroutine to arrive
// runs the barrier's action alone, while the others wait, so the serial
// step between two parallel phases needs no barrier of its own.
//
// A Barrier is broken for good by Break (a worker that panicked calls it
// from a deferred function): every goroutine waiting, or arriving later,
// returns false instead of waiting for one that will not come.
type Barrier struct {
	size    int32
	_       [60]byte
	arrived atomic.Int32 // goroutines at the barrier in this phase
	_       [60]byte
	phase   atomic.Uint32 // bumped when a phase ends; the waiters spin on it
	_       [60]byte
	broken  atomic.Bool
}

// lateYieldEvery is how many tries a long wait at a barrier makes between
// yields: often enough that a descheduled goroutine gets a processor
// within microseconds, seldom enough that the waiters of a group that
// finished early (a few microseconds' spin each) stay off the scheduler's
// lock (see yieldEvery).
const lateYieldEvery = 1 << 10

// NewBarrier returns a barrier for size goroutines (at least 1).
func NewBarrier(size int) *Barrier {
	return &Barrier{size: int32(max(size, 1))}
}

// Wait blocks until all size goroutines have called it in this phase. The
// last to arrive calls action (when not nil) before releasing the others,
// so what action writes is visible to every goroutine when Wait returns.
// Wait reports false when the barrier is broken.
func (b *Barrier) Wait(action func()) bool {
	phase := b.phase.Load() // before arriving: the last arrival cannot bump it first
	if b.arrived.Add(1) == b.size {
		b.arrived.Store(0)
		if action != nil && !b.broken.Load() {
			action()
		}
		b.phase.Add(1)
		return !b.broken.Load()
	}
	for i := 1; b.phase.Load() == phase; i++ {
		if i%checkClockEvery == 0 && b.broken.Load() {
			return false
		}
		// A goroutine that has waited this long is most likely waiting
		// for one without a processor (more goroutines than processors):
		// from then on it yields often, to let that one run.
		if i >= yieldEvery && i%lateYieldEvery == 0 {
			runtime.Gosched()
		}
	}
	return !b.broken.Load()
}

// Break breaks the barrier: every Wait, now and later, returns false.
func (b *Barrier) Break() { b.broken.Store(true) }
