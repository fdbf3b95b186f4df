package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/apsp/apsp/graph"
)

func gnpSize(p *plan) (int64, int64, error) {
	n := p.n
	if n < 1 {
		return 0, 0, fmt.Errorf("n=%d: at least 1", n)
	}
	total := n * (n - 1) / 2
	mf := math.Round(p.r / 100 * float64(total))
	if mf > maxEdges {
		return 0, 0, fmt.Errorf("n=%d r=%g gives %.0f edges: %w (at most %d)", n, p.r, mf, graph.ErrTooLarge, int64(maxEdges))
	}
	m := min(int64(mf), total)
	if m < n-1 {
		return 0, 0, fmt.Errorf("n=%d r=%g gives %d edges, fewer than the %d a connected graph needs; use r >= %s",
			n, p.r, m, n-1, minPercent(n))
	}
	return n, m, nil
}

// minPercent formats 100(n-1)/(n(n-1)/2) = 200/n, the smallest r giving a
// spanning tree's n-1 edges, rounded up to three digits.
func minPercent(n int64) string {
	r := 200 / float64(n)
	scale := math.Pow(10, math.Floor(math.Log10(r))-2)
	return strconv.FormatFloat(math.Ceil(r/scale)*scale, 'g', 3, 64)
}

// genGnp emits a random spanning tree, which makes the graph connected, and
// then m-(n-1) further edges chosen uniformly among the other pairs.
func genGnp(p *plan, rng *rand.Rand, emit func(u, v int) error) error {
	n := int(p.n)
	if n == 1 {
		return nil
	}
	// A random recursive tree: each vertex, in random order, is attached to
	// a random earlier one. parent identifies tree edges in O(1).
	perm := rng.Perm(n)
	parent := make([]int32, n)
	parent[perm[0]] = -1
	for i := 1; i < n; i++ {
		u, v := perm[i], perm[rng.IntN(i)]
		parent[u] = int32(v)
		if err := emit(v, u); err != nil {
			return err
		}
	}
	isTree := func(u, v int) bool { return parent[u] == int32(v) || parent[v] == int32(u) }

	need := p.m - int64(n-1)
	pool := int64(n)*int64(n-1)/2 - int64(n-1) // pairs that are not tree edges
	if need == 0 {
		return nil
	}
	if pool <= 16*need {
		// Dense: selection sampling (Knuth's Algorithm S) walks every pair
		// once and keeps it with probability need/left, which picks a
		// uniform subset of exactly the wanted size.
		left := pool
		for u := 0; u < n && need > 0; u++ {
			for v := u + 1; v < n && need > 0; v++ {
				if isTree(u, v) {
					continue
				}
				if rng.Int64N(left) < need {
					if err := emit(u, v); err != nil {
						return err
					}
					need--
				}
				left--
			}
		}
		return nil
	}
	// Sparse: random pairs, rejecting repeats, take fewer than 1.07 tries
	// per edge at this density.
	chosen := make(map[uint64]struct{}, need)
	for need > 0 {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v || isTree(u, v) {
			continue
		}
		k := edgeKey(u, v)
		if _, dup := chosen[k]; dup {
			continue
		}
		chosen[k] = struct{}{}
		if err := emit(u, v); err != nil {
			return err
		}
		need--
	}
	return nil
}
