package gen

import (
	"fmt"
	"math/rand/v2"
)

// baSize checks n and d of a Barabási–Albert graph: a clique of d+1
// vertices, then d edges from each later vertex.
func baSize(p *plan) (int64, int64, error) {
	n, d := p.n, p.d
	switch {
	case d < 1:
		return 0, 0, fmt.Errorf("d=%d: each new vertex needs at least 1 edge", d)
	case n < d+1:
		return 0, 0, fmt.Errorf("n=%d d=%d: need at least d+1 vertices (the first d+1 form a clique)", n, d)
	case d > 1<<20:
		return 0, 0, fmt.Errorf("d=%d: at most %d", d, 1<<20)
	}
	return n, d*(d+1)/2 + (n-d-1)*d, nil
}

// genBA grows a Barabási–Albert graph by preferential attachment: the
// first d+1 vertices form a clique, and each later vertex joins d distinct
// earlier vertices, each drawn with probability proportional to its degree
// (uniformly from a list holding every vertex once per edge end). The
// degrees are heavy-tailed (a power law of exponent about 3) and the
// diameter small, as in social, web and citation networks; the graph is
// connected and simple.
func genBA(p *plan, rng *rand.Rand, emit func(u, v int) error) error {
	n, d := int(p.n), int(p.d)
	ends := make([]int32, 0, 2*int(p.m))
	for u := 0; u <= d; u++ {
		for v := u + 1; v <= d; v++ {
			if err := emit(u, v); err != nil {
				return err
			}
			ends = append(ends, int32(u), int32(v))
		}
	}
	picked := make([]int32, 0, d)
	for u := d + 1; u < n; u++ {
		picked = picked[:0]
		for len(picked) < d {
			v := ends[rng.IntN(len(ends))]
			if !containsInt32(picked, v) {
				picked = append(picked, v)
			}
		}
		for _, v := range picked {
			if err := emit(int(v), u); err != nil {
				return err
			}
			ends = append(ends, v, int32(u))
		}
	}
	return nil
}

func containsInt32(s []int32, x int32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
