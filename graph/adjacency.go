package graph

import (
	"fmt"

	"github.com/apsp/apsp/internal/csr"
)

// FromSortedAdjacency returns the unweighted undirected graph of n
// vertices whose vertex u has the neighbours heads[offsets[u]:offsets[u+1]],
// as a search that keeps its own adjacency hands one candidate after
// another to the library without a Builder's sorting and deduplication.
//
// Each vertex's neighbours must be strictly increasing (no repeated edge)
// and every edge listed from both ends; a self-loop u-u appears once in
// u's list. The checks take one pass over the arcs and n integers of
// scratch. The graph keeps offsets and heads (they are not copied unless
// heads lacks the slack capacity the kernels read past the last arc): the
// caller must not change them while the graph is in use.
func FromSortedAdjacency(n int, offsets []int, heads []int32) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("graph: %d vertices", n)
	}
	if len(offsets) != n+1 || offsets[0] != 0 || offsets[n] != len(heads) {
		return nil, fmt.Errorf("graph: offsets of length %d for %d vertices and %d arcs", len(offsets), n, len(heads))
	}
	for u := range n {
		lo, hi := offsets[u], offsets[u+1]
		if hi < lo {
			return nil, fmt.Errorf("graph: offsets decrease at vertex %d", u)
		}
		prev := int32(-1)
		for _, v := range heads[lo:hi] {
			if v <= prev || int(v) >= n {
				if v == prev {
					return nil, fmt.Errorf("graph: edge %d-%d listed twice", u, v)
				}
				return nil, fmt.Errorf("graph: neighbours of vertex %d not increasing or out of range at %d", u, v)
			}
			prev = v
		}
	}
	// Transposing sorted rows in increasing order of u yields sorted rows,
	// so the lists are symmetric exactly when each arc u->v meets u at v's
	// cursor.
	cur := make([]int, n)
	copy(cur, offsets[:n])
	for u := range n {
		for _, v := range heads[offsets[u]:offsets[u+1]] {
			c := cur[v]
			if c >= offsets[v+1] || heads[c] != int32(u) {
				return nil, fmt.Errorf("graph: edge %d-%d not listed at vertex %d", u, v, v)
			}
			cur[v] = c + 1
		}
	}
	for v := range n {
		if cur[v] != offsets[v+1] {
			return nil, fmt.Errorf("graph: edge %d-%d not listed at vertex %d", v, heads[cur[v]], heads[cur[v]])
		}
	}
	if cap(heads) < len(heads)+csr.HeadsSlack {
		h := make([]int32, len(heads), len(heads)+csr.HeadsSlack)
		copy(h, heads)
		heads = h
	}
	return &Graph{n: n, kind: Unweighted, offsets: offsets, heads: heads, negLoop: -1}, nil
}
