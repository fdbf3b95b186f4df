package runtime

import (
	"context"
	goruntime "runtime"
	"sync/atomic"
	"time"
)

// The fast hand-off. Handing work to the owner goroutine over a channel
// wakes a goroutine locked to its OS thread and then wakes the caller
// back: two thread wake-ups, which measured 22 µs a call on an H100 host,
// more than the single-graph kernel itself. So after each call the owner
// stays on its thread for a while (spinIdle) polling a one-job mailbox,
// and a caller that finds the mailbox open posts its work there and polls
// for the result (waitSpin) before it parks. A loop of calls (the
// annealing case) then never parks either side; an idle device parks
// again after spinIdle. The mailbox is only used with at least two Go
// processors, so that the two spinners cannot hold the only one.
//
// Callers that cannot post (the box holds another caller's job for longer
// than waitSpin: a long job runs) take the owner's channel, which parks
// them, and count themselves in queued while they do; a spinner leaves as
// soon as anyone is queued, so a caller on the channel never waits behind
// a stream of posted calls, and the channel's order is fair.
//
// A caller that finds the box closed while a spinner is on its way (Do
// started one after the last call over the channel, and the owner's
// thread is still waking up) waits up to waitOpen for it to open the box
// rather than take the channel: its queued call would send that spinner
// away at once, and a loop of calls, each going by the channel and
// starting a spinner the next one sends away, never got back to the
// mailbox (500 calls of 500 by the channel, 20–70 µs more a call, on an
// H100 host).

const (
	// spinIdle is how long the owner polls the mailbox after its last job.
	spinIdle = 500 * time.Microsecond
	// waitSpin is how long a caller polls for its result before parking.
	waitSpin = 200 * time.Microsecond
	// waitOpen is how long a caller waits for a starting spinner to open
	// the mailbox (handoff.waitOpen, which tests change).
	waitOpen = 200 * time.Microsecond
)

// job is one Do call handed over through the mailbox.
type job struct {
	ctx  context.Context
	f    func() error
	done atomic.Bool
	err  error
	wake chan struct{} // closed once done is set
}

// handoff is a device's mailbox: box holds nil while a spinner polls it
// and nothing waits, a posted job, or closed (no spinner: use the
// channel).
type handoff struct {
	box      atomic.Pointer[job]
	closed   *job         // the sentinel of an absent spinner
	starting atomic.Bool  // a spinner is queued or running
	stop     atomic.Bool  // the device is closing: spinners leave
	queued   atomic.Int64 // callers on the owner's channel: spinners leave
	posted   atomic.Int64
	direct   atomic.Int64
	waitOpen time.Duration // waitOpen, set before use
}

func newHandoff() *handoff {
	h := &handoff{closed: &job{}, waitOpen: waitOpen}
	h.box.Store(h.closed)
	return h
}

// post puts j in the mailbox if a spinner polls it; false means take the
// channel.
func (h *handoff) post(j *job) bool {
	var start, opening time.Time
	for i := 0; ; i++ {
		cur := h.box.Load()
		switch {
		case cur == h.closed:
			// A spinner on its way opens the box soon: wait for it.
			if !h.starting.Load() || h.stop.Load() || j.ctx.Err() != nil {
				return false
			}
			if i == 0 || opening.IsZero() {
				opening = time.Now()
			} else if i&63 == 0 && time.Since(opening) > h.waitOpen {
				return false
			}
			goruntime.Gosched()
		case cur == nil:
			if h.box.CompareAndSwap(nil, j) {
				h.posted.Add(1)
				return true
			}
		case j.ctx.Err() != nil:
			return false // the channel path returns ctx.Err()
		default:
			// Another caller's job waits to be taken: it will be soon,
			// unless the spinner runs a long job; then park on the
			// channel rather than hold a processor for its length.
			if i == 0 {
				start = time.Now()
			} else if i&63 == 0 && time.Since(start) > waitSpin {
				return false
			}
			goruntime.Gosched()
		}
	}
}

// wait returns j's result: it polls for waitSpin, then parks. A cancelled
// context withdraws j if the spinner has not taken it yet.
func (h *handoff) wait(j *job) error {
	start := time.Now()
	for i := 0; ; i++ {
		if j.done.Load() {
			return j.err
		}
		if i&255 != 255 {
			continue
		}
		if j.ctx.Err() != nil && h.box.CompareAndSwap(j, nil) {
			return j.ctx.Err() // withdrawn: it never runs
		}
		if time.Since(start) > waitSpin {
			break
		}
	}
	select {
	case <-j.wake:
		return j.err
	case <-j.ctx.Done():
		if h.box.CompareAndSwap(j, nil) {
			return j.ctx.Err()
		}
		<-j.wake // taken: it runs to its end
		return j.err
	}
}

// run runs j on the owner's thread.
func (j *job) run() {
	if err := j.ctx.Err(); err != nil {
		j.err = err // cancelled in the instant it was taken: never run
	} else {
		j.err = j.f()
	}
	j.done.Store(true)
	close(j.wake)
}

// spin polls the mailbox on the owner's thread until it has been idle for
// spinIdle or the device closes, running the jobs posted.
func (h *handoff) spin() {
	h.box.CompareAndSwap(h.closed, nil)
	last := time.Now()
	for i := 0; ; i++ {
		if j := h.box.Load(); j != nil && j != h.closed {
			if h.box.CompareAndSwap(j, nil) {
				j.run()
				last = time.Now()
			}
			continue
		}
		if i&255 != 255 {
			continue
		}
		if h.stop.Load() || h.queued.Load() > 0 || time.Since(last) > spinIdle {
			if h.box.CompareAndSwap(nil, h.closed) {
				h.starting.Store(false)
				return
			}
		}
	}
}

// HandoffStats counts the calls handed over by the mailbox and over the
// owner's channel.
type HandoffStats struct{ Posted, Direct int64 }

// Handoffs returns the device's hand-off counters.
func (d *Device) Handoffs() HandoffStats {
	return HandoffStats{Posted: d.hand.posted.Load(), Direct: d.hand.direct.Load()}
}
