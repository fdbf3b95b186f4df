package cuda

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The owner goroutine is tested without a GPU: init and fini stand in for
// creating and destroying the context.

func TestOwnerRunsOnOneThread(t *testing.T) {
	var tid int
	var finiTid, hookTid int
	o, err := startOwner(func() error { tid = syscall.Gettid(); return nil }, func() { finiTid = syscall.Gettid() })
	if err != nil {
		t.Fatal(err)
	}
	// Many goroutines submit at once; the work is serialised on the owner's
	// thread, so the unguarded counter is safe (the race detector checks).
	count := 0
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				err := o.do(context.Background(), func() error {
					count++
					if syscall.Gettid() != tid {
						return errors.New("work ran off the owner's thread")
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	o.close(func() { hookTid = syscall.Gettid() })
	if count != 400 {
		t.Fatalf("ran %d jobs, want 400", count)
	}
	if finiTid != tid || hookTid != tid {
		t.Fatalf("init on thread %d, release hook on %d, fini on %d", tid, hookTid, finiTid)
	}
}

func TestOwnerCancelWhileQueued(t *testing.T) {
	o, err := startOwner(func() error { return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close(nil)
	started, release := make(chan struct{}), make(chan struct{})
	go o.do(context.Background(), func() error { close(started); <-release; return nil })
	<-started // the owner is busy
	ctx, cancel := context.WithCancel(context.Background())
	ran := false
	errc := make(chan error, 1)
	go func() { errc <- o.do(ctx, func() error { ran = true; return nil }) }()
	time.Sleep(20 * time.Millisecond) // let it queue
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("queued work returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling queued work did not return while the owner was busy")
	}
	close(release)
	// The owner is free again and the withdrawn work never ran.
	if err := o.do(context.Background(), func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Fatal("cancelled work ran")
	}
	// A context cancelled before submission never runs.
	if err := o.do(ctx, func() error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("got %v, ran %v", err, ran)
	}
}

func TestOwnerClose(t *testing.T) {
	o, err := startOwner(func() error { return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() { first <- o.do(context.Background(), func() error { close(started); <-release; return nil }) }()
	<-started
	// Work waiting when Close comes is refused, never stranded.
	waiting := make(chan error, 1)
	go func() { waiting <- o.do(context.Background(), func() error { return nil }) }()
	time.Sleep(10 * time.Millisecond)
	closed := make(chan struct{})
	go func() { o.close(nil); close(closed) }()
	time.Sleep(10 * time.Millisecond)
	close(release)
	<-closed
	if err := <-first; err != nil {
		t.Fatalf("running work: %v", err)
	}
	if err := <-waiting; err != nil && !errors.Is(err, ErrClosed) {
		t.Fatalf("waiting work: %v", err)
	}
	if err := o.do(context.Background(), func() error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v, want ErrClosed", err)
	}
	o.close(nil) // again: returns
}

func TestOwnerInitError(t *testing.T) {
	want := errors.New("no context")
	if _, err := startOwner(func() error { return want }, nil); !errors.Is(err, want) {
		t.Fatalf("got %v", err)
	}
}
