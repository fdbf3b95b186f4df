package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultSpin is how long a Team's idle helpers keep looking for the next
// Run before they park. Waking a parked goroutine's thread can cost as much
// as a whole evaluation of a small graph (a fork-join of two halves then
// takes as long as both in turn; docs/perf.md, "One graph at a time,
// against ODP"); a search loop calls again well within this window, so its
// helpers never park. OpenMP runtimes do the same (GOMP_SPINCOUNT).
const DefaultSpin = 200 * time.Microsecond

// Team is a fixed set of goroutines that run one function together,
// again and again, without starting goroutines or waking parked threads
// on each call while the calls come often: for repeated parallel work far
// shorter than a millisecond (a search loop's small graphs, the levels of
// a breadth-first search). Run is not safe for concurrent use; a Team
// belongs to one caller at a time. An unreachable Team stops its helpers
// (runtime.AddCleanup), so teams can live in a sync.Pool.
type Team struct {
	s *teamState
}

// teamState is what the helpers share; it never refers to the Team, so a
// Team nobody holds can be collected and its cleanup can stop them.
type teamState struct {
	size   int
	spin   time.Duration
	fn     func(worker int)
	parked atomic.Int32 // helpers waiting on cond
	closed atomic.Bool
	mu     sync.Mutex
	cond   *sync.Cond
	panicV atomic.Pointer[any] // a helper's panic, re-raised by Run
	// gen, which every idle helper reads in a loop, and pending, which
	// every helper writes once a Run, sit on cache lines of their own, so
	// that the writes do not evict the line the spinning helpers read.
	_       [64]byte
	gen     atomic.Uint64 // bumped by Run to start the helpers
	_       [56]byte
	pending atomic.Int64 // helpers still running the current fn
	_       [56]byte
}

// NewTeam returns a team of size workers (at least 1): the goroutine that
// calls Run and size-1 helpers, which spin for spin after each Run before
// parking (0 parks at once).
func NewTeam(size int, spin time.Duration) *Team {
	s := &teamState{size: max(size, 1), spin: spin}
	s.cond = sync.NewCond(&s.mu)
	for k := 1; k < s.size; k++ {
		go s.helper(k, s.gen.Load()) // read here: a helper that starts late must not skip the first Run
	}
	t := &Team{s: s}
	runtime.AddCleanup(t, func(s *teamState) { s.close() }, s)
	return t
}

// Size returns the number of workers, the caller of Run included.
func (t *Team) Size() int { return t.s.size }

// Run calls fn(k) for every worker k in [0, Size()) at the same time, k = 0
// on the calling goroutine, and returns when every call has returned. A
// panic in fn is re-raised here.
func (t *Team) Run(fn func(worker int)) {
	s := t.s
	if s.size == 1 {
		fn(0)
		return
	}
	s.fn = fn
	s.pending.Store(int64(s.size - 1))
	s.gen.Add(1) // publishes fn and pending to the helpers
	if s.parked.Load() > 0 {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	}
	// Whatever fn(0) does, the helpers finish this Run and the team is left
	// clean (no closure kept, no helper's panic left for the next Run)
	// before a panic goes on: the caller's own first, else a helper's.
	returned := false
	defer func() {
		s.wait()
		s.fn = nil
		if p := s.panicV.Swap(nil); p != nil && returned {
			panic(*p)
		}
	}()
	fn(0)
	returned = true
}

// yieldEvery is how many tries a spin makes between yields of the
// processor (some tens of microseconds): often enough that goroutines
// without a processor of their own (more teams than CPUs) still run,
// seldom enough that the scheduler stays out of the way of a busy team. A
// yield goes through the global run queue under the scheduler's lock; 15
// helpers yielding every microsecond made a team of 16 slower than one
// thread.
const yieldEvery = 1 << 14

// checkClockEvery is how many tries an idle helper makes between looks at
// the clock for the end of its spin.
const checkClockEvery = 256

// wait spins until the helpers are done.
func (s *teamState) wait() {
	for i := 1; s.pending.Load() > 0; i++ {
		if i%yieldEvery == 0 {
			runtime.Gosched()
		}
	}
}

// Close stops the helpers once they are idle. The team must not be used
// after.
func (t *Team) Close() { t.s.close() }

func (s *teamState) close() {
	s.closed.Store(true)
	s.mu.Lock()
	s.cond.Broadcast()
	s.mu.Unlock()
}

// helper is worker k: it waits for each Run after generation seen,
// spinning for s.spin and then parked, and runs its share.
func (s *teamState) helper(k int, seen uint64) {
	for {
		if !s.await(seen) {
			return
		}
		seen = s.gen.Load()
		s.call(k)
		s.pending.Add(-1)
	}
}

// await returns true when a Run newer than seen has started and false when
// the team is closed.
func (s *teamState) await(seen uint64) bool {
	deadline := time.Now().Add(s.spin)
	for i := 1; ; i++ {
		if s.gen.Load() != seen {
			return true
		}
		if s.closed.Load() {
			return false
		}
		if i%checkClockEvery == 0 && time.Now().After(deadline) {
			break
		}
		if i%yieldEvery == 0 {
			runtime.Gosched()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parked.Add(1)
	defer s.parked.Add(-1)
	for s.gen.Load() == seen && !s.closed.Load() {
		s.cond.Wait()
	}
	return !s.closed.Load()
}

// call runs fn(k), keeping a panic for Run to raise.
func (s *teamState) call(k int) {
	defer func() {
		if r := recover(); r != nil {
			s.panicV.CompareAndSwap(nil, &r)
		}
	}()
	s.fn(k)
}
