package par

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

// For calls fn(i) for every i in [0, count) on up to threads goroutines,
// handing out indices in order from a shared counter so that uneven tasks
// balance. It stops handing out work once ctx is done and returns ctx.Err().
func For(ctx context.Context, threads, count int, fn func(i int)) error {
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

// Rows calls fn(i) for every row i < n, spread over Threads(threads)
// goroutines in chunks of 64 rows.
func Rows(n, threads int, fn func(i int)) {
	const chunk = 64
	_ = For(context.Background(), Threads(threads), (n+chunk-1)/chunk, func(c int) {
		for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
			fn(i)
		}
	})
}

// RowsWith is Rows with per-goroutine scratch state made by newScratch, one
// row at a time.
func RowsWith[S any](n, threads int, newScratch func() S, fn func(i int, scratch S)) {
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
