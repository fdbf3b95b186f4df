package cpu

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Threads returns t, or the number of usable CPUs when t <= 0.
func Threads(t int) int {
	if t <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return t
}

// parallelFor calls fn(i) for every i in [0, count) on up to threads
// goroutines, handing out indices in order from a shared counter so that
// uneven tasks balance. It stops handing out work once ctx is done.
func parallelFor(ctx context.Context, threads, count int, fn func(i int)) error {
	if count <= 0 {
		return ctx.Err()
	}
	threads = min(threads, count)
	if threads <= 1 {
		for i := 0; i < count; i++ {
			if ctx.Err() != nil {
				break
			}
			fn(i)
		}
		return ctx.Err()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= count || ctx.Err() != nil {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// ParallelRows calls fn(i) for every row i < n, spread over threads
// goroutines in chunks.
func ParallelRows(n, threads int, fn func(i int)) {
	const chunk = 64
	_ = parallelFor(context.Background(), Threads(threads), (n+chunk-1)/chunk, func(c int) {
		for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
			fn(i)
		}
	})
}

// ParallelRowsWith is ParallelRows with per-goroutine scratch state made by
// newScratch.
func ParallelRowsWith(n, threads int, newScratch func() any, fn func(i int, scratch any)) {
	threads = min(Threads(threads), max(n, 1))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			s := newScratch()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i, s)
			}
		})
	}
	wg.Wait()
}
