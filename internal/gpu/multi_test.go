package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/gputest"
)

// checkSplit is gputest.CheckSplit of Span.
func checkSplit(t *testing.T, name string, spans [][]Span, total, unit, k int) {
	t.Helper()
	gputest.CheckSplit(t, name, spans, func(s Span) (int, int) { return s.Lo, s.Hi }, total, unit, k)
}

// TestSplitWork: every unit to one worker once, one worker takes all as one
// span, the chunks shrink so that every worker gets one where there are
// enough units, the shares differ by at most a chunk, and workers beyond
// the units (more GPUs than batches) or an empty range get none.
func TestSplitWork(t *testing.T) {
	for _, tt := range []struct{ total, unit, k int }{
		{0, 4, 1}, {0, 4, 3}, {1, 4, 1}, {1, 1, 2}, {1, 8, 8}, {3, 1, 5}, {5, 2, 2}, {7, 100, 2},
		{977, 2, 2}, {128, 8, 2}, {32, 32, 2}, {32, 32, 3}, {1000, 7, 4}, {10, 0, 3}, {65535, 1, 8},
	} {
		name := fmt.Sprintf("%d units of %d to %d", tt.total, tt.unit, tt.k)
		spans := SplitWork(tt.total, tt.unit, tt.k)
		checkSplit(t, name, spans, tt.total, tt.unit, tt.k)
		if tt.k == 1 && tt.total > 0 && (len(spans[0]) != 1 || spans[0][0] != (Span{0, tt.total})) {
			t.Fatalf("%s: one worker got %v, want one span", name, spans[0])
		}
		busy, lo, hi := 0, tt.total, 0
		for _, ss := range spans {
			if len(ss) > 0 {
				busy++
			}
			lo, hi = min(lo, units(ss)), max(hi, units(ss))
		}
		if want := min(tt.k, tt.total); busy != want {
			t.Fatalf("%s: %d workers busy, want %d (%v)", name, busy, want, spans)
		}
		if tt.total > 0 && hi-lo > max(1, min(tt.unit, (tt.total+tt.k-1)/tt.k)) {
			t.Fatalf("%s: shares from %d to %d units", name, lo, hi)
		}
	}
}

// TestOnEachNamesTheFailingGPU: a GPU that does not exist fails the call
// with an error naming it and matching ErrNoGPU; without a GPU, every one
// fails so.
func TestOnEachNamesTheFailingGPU(t *testing.T) {
	_, err := OnEach(context.Background(), []int{0, 99}, func(int) bool { return true }, func(i int, c *gpurt.Call) error { return nil })
	if !errors.Is(err, ErrNoGPU) {
		t.Fatalf("gpu:0,99: %v, want ErrNoGPU", err)
	}
	want := "gpu:99: "
	if _, derr := Devices(); derr != nil {
		want = "gpu:0: "
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("gpu:0,99: %q does not name %q", err, want)
	}
	// A worker's own failure wins over the others' cancellation.
	if _, derr := Devices(); derr == nil {
		boom := errors.New("boom")
		_, err := OnEach(context.Background(), []int{0, 0}, func(int) bool { return true }, func(i int, c *gpurt.Call) error {
			if i == 1 {
				return boom
			}
			return nil
		})
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "gpu:0: ") {
			t.Fatalf("a failing worker: %v", err)
		}
	}
	if err := CheckAll([]int{0, 0}); err == nil {
		t.Fatal("CheckAll took gpu:0 twice")
	}
	if err := CheckAll(nil); err == nil {
		t.Fatal("CheckAll took no GPU")
	}
}
