package bitbfs

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/distributed"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/reduce"
)

// briefOverRanks is Brief with the batches of sources split over the
// ranks of world instead of the GPUs of one process, each rank
// searching its share on its GPU ordinal: sources are independent, so
// nothing moves between the ranks until the end, when their reach counts
// and histograms are added and their eccentricities' maxima taken (as
// bitTotals merges the GPUs of one process). Every rank calls it with the
// same graph and gets the same Brief; failures before the search are
// agreed (comm.ErrRankFailed), a failed search aborts world.
func briefOverRanks(ctx context.Context, world comm.Comm, ordinal int, g *graph.Graph) (*reduce.Brief, string, error) {
	err := gpu.Check(ordinal)
	if err == nil && g.Weighted() {
		err = fmt.Errorf("%w (it has %s weights)", ErrGraph, g.Kind())
	}
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, "", err
	}
	if err := comm.Agree(ctx, world, distributed.SameGraph(ctx, world, g)); err != nil {
		return nil, "", err
	}
	n, size, rank := g.N(), world.Size(), world.Rank()
	spans, err := bitSplit(n, bitConfig{}, size, false)
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, "", err
	}
	mine := spans[rank]
	reach, ecc := make([]uint32, n), make([]uint32, n)
	var hist []int64
	var timing Timing
	devs, err := gpu.OnEach(ctx, []int{ordinal}, func(int) bool { return len(mine) > 0 }, func(_ int, c *gpurt.Call) error {
		return runBit(c, g, bitConfig{}, mine, &timing, func(t bitSums) {
			copy(reach, t.reach)
			copy(ecc, t.ecc)
			hist = append(hist[:0], t.hist...)
		}, nil)
	})
	if err != nil {
		world.Abort(err)
		return nil, "", err
	}
	r64, e64 := make([]int64, n), make([]int64, n)
	for v := range n {
		r64[v], e64[v] = int64(reach[v]), int64(ecc[v])
	}
	b, err := distributed.CombineBrief(ctx, world, r64, e64, hist)
	if err != nil {
		world.Abort(err)
		return nil, "", err
	}
	return b, fmt.Sprintf("%s, %d ranks", gpu.DeviceName([]int{ordinal}, devs), size), nil
}
