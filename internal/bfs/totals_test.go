package bfs

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/internal/reduce"
)

// TestBitTotalsShares: the shares' totals, combined as ranks combine them
// (reach and histogram added, eccentricity the maximum), give BitBrief's
// Brief, for 1 to 5 shares on graphs of one to several chunks of 512
// sources, directed or not, disconnected; a share out of range is an
// error.
func TestBitTotalsShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	ctx := context.Background()
	for c, n := range []int{1, 300, 512, 513, 1500, 2600} {
		tg := randomGraph(t, rng, n, c%2 == 1, 2.5/float64(n))
		want, err := BitBrief(ctx, tg.g, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, shares := range []int{1, 2, 3, 5} {
			got := reduce.NewBrief(n)
			most := make([]int32, n)
			var hist []int64
			for share := range shares {
				tot, err := BitTotals(ctx, tg.g, 2, share, shares)
				if err != nil {
					t.Fatal(err)
				}
				for v := range n {
					got.Reach[v] += tot.Reach[v]
					most[v] = max(most[v], tot.Ecc[v])
				}
				for len(hist) < len(tot.Hist) {
					hist = append(hist, 0)
				}
				for d, x := range tot.Hist {
					hist[d] += x
				}
			}
			for v := range n {
				got.Ecc[v] = int64(most[v])
			}
			for d, x := range hist {
				got.Pairs += x
				got.Sum.AddProduct(int64(d), x)
			}
			if !slices.Equal(got.Reach, want.Reach) || !slices.Equal(got.Ecc, want.Ecc) || got.Pairs != want.Pairs || got.Sum != want.Sum {
				t.Fatalf("%s, %d shares: the combined totals differ from BitBrief's", tg.name, shares)
			}
		}
	}
	g := randomGraph(t, rng, 10, false, 0.3).g
	for _, s := range [][2]int{{0, 0}, {2, 2}, {-1, 3}} {
		if _, err := BitTotals(ctx, g, 1, s[0], s[1]); err == nil {
			t.Errorf("share %d of %d: no error", s[0], s[1])
		}
	}
}
