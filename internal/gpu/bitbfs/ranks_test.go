package bitbfs

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
)

// TestBitBriefOverRanks: 1 to 5 in-process ranks splitting gpu-bitbfs's
// sources (all on the first GPU: no NCCL between them) give the Brief of
// one GPU's whole search, on directed and undirected graphs with isolated
// vertices, small enough that some ranks get no batch.
func TestBitBriefOverRanks(t *testing.T) {
	requireGPU(t)
	rng := rand.New(rand.NewPCG(51, 52))
	ctx := context.Background()
	for c, n := range []int{1, 70, 700, 5000, 20000} {
		g := bitGraph(rng, n, 1+c*2, c%2 == 0, 0.05)
		want, _, err := Brief(ctx, gpu.OnGPUs([]int{0}), g)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 2, 5} {
			world, err := comm.NewFake(size)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]*reduce.Brief, size)
			errs := make([]error, size)
			var wg sync.WaitGroup
			for r := range size {
				wg.Go(func() { got[r], _, errs[r] = briefOverRanks(ctx, world[r], 0, g) })
			}
			wg.Wait()
			for r := range size {
				if errs[r] != nil {
					t.Fatalf("n=%d, %d ranks, rank %d: %v", n, size, r, errs[r])
				}
				b := got[r]
				if !slices.Equal(b.Ecc, want.Ecc) || !slices.Equal(b.Reach, want.Reach) || b.Pairs != want.Pairs || b.Sum != want.Sum {
					t.Fatalf("n=%d, %d ranks, rank %d: the Brief differs from one GPU's (pairs %d, want %d)", n, size, r, b.Pairs, want.Pairs)
				}
			}
		}
	}
}
