package comm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestAgree: every rank gets nil when none failed, and the same RankError
// naming the lowest failing rank when some did; a failing rank's error
// still matches its own cause.
func TestAgree(t *testing.T) {
	errDisk := errors.New("disk on fire")
	long := strings.Repeat("é", agreeMsgBytes) // two bytes a rune
	tests := []struct {
		name    string
		size    int
		failing map[int]error
		want    string // "" for no error
	}{
		{"none of one", 1, nil, ""},
		{"none of four", 4, nil, ""},
		{"one of one", 1, map[int]error{0: errDisk}, "rank 0 of 1: disk on fire"},
		{"rank 2 of 3", 3, map[int]error{2: errDisk}, "rank 2 of 3: disk on fire"},
		{"two of four", 4, map[int]error{3: errors.New("late"), 1: fmt.Errorf("wrapped: %w", errDisk)}, "rank 1 of 4: wrapped: disk on fire (2 ranks failed)"},
		{"long message", 2, map[int]error{1: errors.New(long)}, "rank 1 of 2: " + long[:agreeMsgBytes-4] + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ranks, err := NewFake(tt.size)
			if err != nil {
				t.Fatal(err)
			}
			errs := make([]error, tt.size)
			var wg sync.WaitGroup
			for r, c := range ranks {
				wg.Go(func() { errs[r] = Agree(context.Background(), c, tt.failing[r]) })
			}
			wg.Wait()
			for r, err := range errs {
				if tt.want == "" {
					if err != nil {
						t.Errorf("rank %d: %v, want nil", r, err)
					}
					continue
				}
				var re *RankError
				if !errors.As(err, &re) || !errors.Is(err, ErrRankFailed) || err.Error() != tt.want {
					t.Errorf("rank %d: %v, want a RankError %q", r, err, tt.want)
				}
				if own := tt.failing[r]; own != nil && !errors.Is(err, own) {
					t.Errorf("rank %d: %v does not wrap its own error", r, err)
				}
				if tt.failing[r] == nil && errors.Is(err, errDisk) {
					t.Errorf("rank %d did not fail but its error wraps another rank's cause", r)
				}
			}
		})
	}
}

// sumsOnly hides a communicator's Maxer, so that AllReduceMax falls back
// to broadcasts.
type sumsOnly struct{ Comm }

// TestAllReduceMax: the maxima over the ranks, by the communicator's own
// reduction and by the broadcasts of one without it.
func TestAllReduceMax(t *testing.T) {
	vals := [][]int64{{1, -5, 7, 0}, {3, -9, 2, 0}, {-1, -2, 7, 0}}
	want := []int64{3, -2, 7, 0}
	for _, hide := range []bool{false, true} {
		ranks, err := NewFake(3)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]int64, 3)
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for r := range ranks {
			c := ranks[r]
			if hide {
				c = sumsOnly{c}
			}
			got[r] = append([]int64(nil), vals[r]...)
			wg.Go(func() { errs[r] = AllReduceMax(context.Background(), c, got[r]) })
		}
		wg.Wait()
		for r := range got {
			if errs[r] != nil || !slices.Equal(got[r], want) {
				t.Errorf("hidden Maxer %v, rank %d: %v, %v; want %v", hide, r, got[r], errs[r], want)
			}
		}
	}
}
