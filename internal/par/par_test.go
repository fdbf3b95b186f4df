package par

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
)

func TestThreads(t *testing.T) {
	if Threads(3) != 3 || Threads(0) != runtime.GOMAXPROCS(0) || Threads(-1) != runtime.GOMAXPROCS(0) {
		t.Fatal("Threads")
	}
}

// TestEveryIndexOnce runs each helper over counts around the chunk size
// and thread counts around the task count.
func TestEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 200} {
		for _, threads := range []int{0, 1, 2, 7} {
			check := func(name string, hits []atomic.Int32) {
				t.Helper()
				for i := range hits {
					if c := hits[i].Load(); c != 1 {
						t.Fatalf("%s n=%d threads=%d: index %d ran %d times", name, n, threads, i, c)
					}
				}
			}
			hits := make([]atomic.Int32, n)
			if err := For(context.Background(), Threads(threads), n, func(i int) { hits[i].Add(1) }); err != nil {
				t.Fatal(err)
			}
			check("For", hits)
			hits = make([]atomic.Int32, n)
			Rows(n, threads, func(i int) { hits[i].Add(1) })
			check("Rows", hits)
			hits = make([]atomic.Int32, n)
			var made atomic.Int32
			RowsWith(n, threads, func() []int { made.Add(1); return make([]int, 1) }, func(i int, s []int) {
				s[0]++ // scratch is per goroutine: no race
				hits[i].Add(1)
			})
			check("RowsWith", hits)
			if made.Load() < 1 || int(made.Load()) > max(Threads(threads), 1) {
				t.Fatalf("RowsWith made %d scratches", made.Load())
			}
		}
	}
}

func TestForCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Int32
	for _, threads := range []int{1, 4} {
		if err := For(ctx, threads, 100, func(int) { ran.Add(1) }); !errors.Is(err, context.Canceled) {
			t.Fatalf("threads=%d: %v", threads, err)
		}
	}
	if ran.Load() != 0 {
		t.Fatalf("%d tasks ran after cancel", ran.Load())
	}
}
