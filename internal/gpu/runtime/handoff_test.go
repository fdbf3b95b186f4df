package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// newJob is a job that records it ran and returns err.
func newJob(ctx context.Context, ran *int, err error) *job {
	return &job{ctx: ctx, f: func() error { *ran++; return err }, wake: make(chan struct{})}
}

// TestHandoffRunsEachJobOnce posts jobs from many goroutines to one
// spinner: each runs exactly once, on the spinner's goroutine, one at a
// time, and its caller gets its own result.
func TestHandoffRunsEachJobOnce(t *testing.T) {
	h := newHandoff()
	if h.post(newJob(context.Background(), new(int), nil)) {
		t.Fatal("posted to a closed mailbox")
	}
	// As Device.Do does: a caller that finds the mailbox closed starts a
	// spinner (one at a time) and, here, posts again.
	var spinners sync.WaitGroup
	ensure := func() {
		if h.starting.CompareAndSwap(false, true) {
			spinners.Add(1)
			go func() { defer spinners.Done(); h.spin() }()
		}
	}
	const callers, each = 8, 200
	counts := make([]int, callers*each) // written by the spinners only
	var wg sync.WaitGroup
	var inside int // jobs running at once, checked by the jobs themselves
	var overlap bool
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				id := c*each + k
				want := fmt.Errorf("job %d", id)
				j := &job{ctx: context.Background(), wake: make(chan struct{}), f: func() error {
					inside++
					if inside != 1 {
						overlap = true
					}
					counts[id]++
					inside--
					return want
				}}
				for !h.post(j) {
					ensure()
					time.Sleep(time.Microsecond)
				}
				if got := h.wait(j); got != want {
					t.Errorf("job %d: got %v, want %v", id, got, want)
				}
			}
		}()
	}
	wg.Wait()
	if overlap {
		t.Error("two jobs ran at once")
	}
	for id, n := range counts {
		if n != 1 {
			t.Fatalf("job %d ran %d times", id, n)
		}
	}
	// Idle: the spinner leaves and closes the mailbox.
	spun := make(chan struct{})
	go func() { spinners.Wait(); close(spun) }()
	select {
	case <-spun:
	case <-time.After(5 * time.Second):
		t.Fatal("the spinner did not leave after going idle")
	}
	if h.box.Load() != h.closed || h.starting.Load() {
		t.Fatal("the mailbox is not closed after the spinner left")
	}
	if got := h.posted.Load(); got != callers*each {
		t.Errorf("posted %d, want %d", got, callers*each)
	}
}

// TestHandoffWithdraw: a job still in the mailbox when its context is
// cancelled is withdrawn and never runs; a cancelled job taken in the
// instant it was withdrawn reports the cancellation without running.
func TestHandoffWithdraw(t *testing.T) {
	h := newHandoff()
	h.box.Store(nil) // open, with no spinner to take the job
	ctx, cancel := context.WithCancel(context.Background())
	ran := 0
	j := newJob(ctx, &ran, nil)
	if !h.post(j) {
		t.Fatal("not posted to an open mailbox")
	}
	time.AfterFunc(time.Millisecond, cancel)
	if err := h.wait(j); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if ran != 0 || h.box.Load() != nil {
		t.Fatalf("ran %d times; mailbox %p", ran, h.box.Load())
	}
	// A job whose context ends before the spinner runs it.
	j2 := newJob(ctx, &ran, nil)
	j2.run()
	if !errors.Is(j2.err, context.Canceled) || ran != 0 {
		t.Fatalf("a cancelled job ran (%d) or said %v", ran, j2.err)
	}
	// A full mailbox and a cancelled caller: post gives up.
	h.box.Store(newJob(context.Background(), &ran, nil))
	if h.post(newJob(ctx, &ran, nil)) {
		t.Fatal("a cancelled caller posted into a full mailbox")
	}
}

// TestHandoffStop: a closing device's spinner leaves at once, however
// recent its last job.
func TestHandoffStop(t *testing.T) {
	h := newHandoff()
	h.stop.Store(true)
	h.starting.Store(true)
	done := make(chan struct{})
	go func() { h.spin(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the spinner ignored stop")
	}
	if h.box.Load() != h.closed {
		t.Fatal("mailbox left open")
	}
}

// TestHandoffFullBoxGivesUp: a caller that finds another caller's job in
// the mailbox for longer than waitSpin (the spinner runs a long job) takes
// the channel instead of holding a processor for the job's length.
func TestHandoffFullBoxGivesUp(t *testing.T) {
	h := newHandoff()
	ran := 0
	h.box.Store(newJob(context.Background(), &ran, nil)) // taken by no one
	done := make(chan bool)
	go func() { done <- h.post(newJob(context.Background(), &ran, nil)) }()
	select {
	case posted := <-done:
		if posted {
			t.Fatal("posted into a full mailbox")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("post spun behind a job that was never taken")
	}
}

// TestHandoffSpinnerLeavesForQueued: a spinner kept busy by a stream of
// posted calls still leaves when a caller waits on the owner's channel,
// so that caller is not starved.
func TestHandoffSpinnerLeavesForQueued(t *testing.T) {
	h := newHandoff()
	h.starting.Store(true)
	left := make(chan struct{})
	go func() { h.spin(); close(left) }()
	stop := make(chan struct{})
	var poster sync.WaitGroup
	poster.Add(1)
	go func() { // the annealing loop: a call as soon as the last returns
		defer poster.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			ran := 0
			j := newJob(context.Background(), &ran, nil)
			if h.post(j) {
				_ = h.wait(j)
			}
		}
	}()
	time.Sleep(5 * time.Millisecond)
	h.queued.Add(1) // a caller on the channel
	select {
	case <-left:
	case <-time.After(5 * time.Second):
		t.Fatal("the spinner kept serving the mailbox while a caller was queued")
	}
	close(stop)
	poster.Wait()
	if h.box.Load() != h.closed {
		t.Fatal("mailbox left open")
	}
}

// TestHandoffWaitsForStartingSpinner: a caller that finds the mailbox
// closed while a spinner is starting posts to it once it opens, rather
// than take the channel (which would send the spinner away); with no
// spinner on its way, or one that never comes, it takes the channel.
func TestHandoffWaitsForStartingSpinner(t *testing.T) {
	h := newHandoff()
	ran := 0
	if h.post(newJob(context.Background(), &ran, nil)) {
		t.Fatal("posted to a closed mailbox with no spinner starting")
	}
	h.starting.Store(true)
	h.waitOpen = 5 * time.Second // however slow this machine's timers
	start := time.Now()
	// The spinner, late: it opens the mailbox after a millisecond and
	// runs what is posted (without spin's idle limit, which a loaded
	// machine could reach before the caller runs again).
	time.AfterFunc(time.Millisecond, func() {
		h.box.CompareAndSwap(h.closed, nil)
		for {
			if j := h.box.Load(); j != nil && h.box.CompareAndSwap(j, h.closed) {
				j.run()
				h.starting.Store(false)
				return
			}
			time.Sleep(10 * time.Microsecond)
		}
	})
	j := newJob(context.Background(), &ran, nil)
	if !h.post(j) {
		t.Fatal("took the channel while a spinner was starting")
	}
	if time.Since(start) < time.Millisecond {
		t.Fatal("posted before the spinner opened the mailbox")
	}
	if err := h.wait(j); err != nil || ran != 1 {
		t.Fatalf("ran %d times, %v", ran, err)
	}
	// A spinner that never opens the box: the caller gives up.
	// (A new variable: the first spinner may still be reading h.)
	never := newHandoff() // the default wait
	never.starting.Store(true)
	done := make(chan bool)
	go func() { done <- never.post(newJob(context.Background(), &ran, nil)) }()
	select {
	case posted := <-done:
		if posted {
			t.Fatal("posted to a mailbox that never opened")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("post waited for a spinner that never came")
	}
}
