package distributed

import (
	"context"
	"slices"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/reduce"
)

// CombineBrief makes the Brief of a search whose sources the ranks of
// world split among them (collective): each rank passes its per-vertex
// reach counts and eccentricities and its histogram of distances (the
// ordered pairs at each distance, of any length). Reach counts and
// histograms add; eccentricities are maxima, since a vertex's totals may
// gather over several ranks' sources. Every rank gets the same Brief.
func CombineBrief(ctx context.Context, world comm.Comm, reach, ecc []int64, hist []int64) (*reduce.Brief, error) {
	n, size, rank := len(reach), world.Size(), world.Rank()
	// The histograms' lengths differ: agree on the longest first.
	lens := make([]int64, size)
	lens[rank] = int64(len(hist))
	if err := world.AllReduceSum(ctx, comm.HostBuffer(lens)); err != nil {
		return nil, err
	}
	buf := make([]int64, n+int(slices.Max(lens)))
	copy(buf, reach)
	copy(buf[n:], hist)
	if err := world.AllReduceSum(ctx, comm.HostBuffer(buf)); err != nil {
		return nil, err
	}
	most := slices.Clone(ecc)
	if err := comm.AllReduceMax(ctx, world, most); err != nil {
		return nil, err
	}
	b := reduce.NewBrief(n)
	for v := range n {
		b.Reach[v] = int32(buf[v])
		if buf[v] > 0 {
			b.Ecc[v] = most[v]
		}
	}
	b.Pairs, b.Sum = reduce.HistTotals(buf[n:])
	return b, nil
}
