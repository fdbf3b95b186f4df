package distributed

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/reduce"
)

// TestCombineBrief: reach counts and histograms of different lengths add,
// eccentricities take the maximum (counted only where a vertex reaches
// any), and every rank gets the same Brief.
func TestCombineBrief(t *testing.T) {
	reach := [][]int64{{1, 0, 2}, {1, 0, 0}, {0, 0, 1}}
	ecc := [][]int64{{3, 9, 1}, {5, 0, 0}, {2, 0, 4}} // vertex 1 reaches nobody: its 9 is dropped
	hist := [][]int64{{0, 2}, {0, 0, 1}, {0, 1, 0, 0}}
	want := reduce.NewBrief(3)
	want.Reach = []int32{2, 0, 3}
	want.Ecc = []int64{5, 0, 4}
	want.Pairs = 4
	want.Sum.Add(2*1 + 1*2 + 1*1)
	world, err := comm.NewFake(3)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]*reduce.Brief, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for r := range 3 {
		wg.Go(func() { got[r], errs[r] = CombineBrief(context.Background(), world[r], reach[r], ecc[r], hist[r]) })
	}
	wg.Wait()
	for r, b := range got {
		if errs[r] != nil {
			t.Fatal(errs[r])
		}
		if !slices.Equal(b.Reach, want.Reach) || !slices.Equal(b.Ecc, want.Ecc) || b.Pairs != want.Pairs || b.Sum != want.Sum {
			t.Errorf("rank %d: %+v, want %+v", r, b, want)
		}
	}
}
