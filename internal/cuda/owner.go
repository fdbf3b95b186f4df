package cuda

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// ErrClosed is returned for work submitted to a device after Close.
var ErrClosed = errors.New("GPU device closed")

// owner is a goroutine locked to one OS thread that runs submitted work in
// order: a CUDA context is current per thread, so every driver call for a
// device goes through its owner. Work waits in an unbuffered hand-off, so
// work that is still queued can be withdrawn (its context cancelled) and
// Close never strands a submitter.
type owner struct {
	work chan func()
	quit chan struct{} // closed by close
	done chan struct{} // closed when the goroutine has finished
	once sync.Once
	fini func() // runs on the owner's thread after the last work
}

// startOwner starts the goroutine, runs init on its locked thread and
// returns once init has succeeded; fini runs there when the owner closes,
// after the last work and after any hook given to close.
func startOwner(init func() error, fini func()) (*owner, error) {
	o := &owner{work: make(chan func()), quit: make(chan struct{}), done: make(chan struct{}), fini: fini}
	ready := make(chan error, 1)
	go o.loop(init, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return o, nil
}

func (o *owner) loop(init func() error, ready chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(o.done)
	if err := init(); err != nil {
		ready <- err
		return
	}
	ready <- nil
	for {
		select {
		case f := <-o.work:
			f()
		case <-o.quit:
			if o.fini != nil {
				o.fini()
			}
			return
		}
	}
}

// do runs f on the owner's thread and returns its error. While f waits for
// its turn, a cancelled ctx withdraws it (do returns ctx.Err() and f never
// runs); once f has started it runs to its end, and f itself should check
// ctx where it can stop early. Work submitted after close returns
// ErrClosed.
func (o *owner) do(ctx context.Context, f func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	errc := make(chan error, 1)
	job := func() {
		// Cancelled in the instant it was handed over: still never run.
		if err := ctx.Err(); err != nil {
			errc <- err
			return
		}
		errc <- f()
	}
	select {
	case o.work <- job:
		return <-errc
	case <-ctx.Done():
		return ctx.Err()
	case <-o.quit:
		return ErrClosed
	}
}

// close stops taking work, runs hook (if any) and then fini on the owner's
// thread, and waits for the goroutine to end. Calling it again waits only.
func (o *owner) close(hook func()) {
	o.once.Do(func() {
		if hook != nil {
			prev := o.fini
			o.fini = func() {
				hook()
				if prev != nil {
					prev()
				}
			}
		}
		close(o.quit)
	})
	<-o.done
}
