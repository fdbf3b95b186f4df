package graph

import (
	"fmt"

	"github.com/apsp/apsp/internal/csr"
)

// FromEdges builds the unweighted graph of n vertices whose edges (arcs
// when directed) are us[i]–vs[i], as a Builder given them one by one
// builds it (self-loops dropped, parallel edges merged), but straight
// from the two arrays: a counting sort into the graph's own arrays, with
// no arc buffer. It is the path of a request that carries its edges as
// arrays (the service's edges_b64). n < 0 takes the largest id plus one.
// An id out of range is an error naming the edge; a graph that does not
// fit in memory, one wrapping ErrTooLarge.
func FromEdges(n int, directed bool, us, vs []int32) (*Graph, error) {
	if len(us) != len(vs) {
		return nil, fmt.Errorf("%d tails for %d heads", len(us), len(vs))
	}
	hi := int32(-1)
	for i := range us {
		u, v := us[i], vs[i]
		if u < 0 || v < 0 || (n >= 0 && (int(u) >= n || int(v) >= n)) {
			if n < 0 {
				return nil, fmt.Errorf("edge %d: negative vertex id: %d %d", i, u, v)
			}
			return nil, fmt.Errorf("edge %d: vertex out of range 0..%d: %d %d", i, n-1, u, v)
		}
		hi = max(hi, u, v)
	}
	if n < 0 {
		n = int(hi) + 1
	}
	m := len(us)
	if !directed {
		m *= 2
	}
	if n > MaxVertices {
		return nil, fmt.Errorf("%d vertices: %w (at most %d)", n, ErrTooLarge, MaxVertices)
	}
	if b, _, h, ok := budget(0, 0, largeAllocs); ok {
		if need := MemoryNeeded(n, m, false); need > b {
			return nil, fmt.Errorf("%d vertices and %d arcs: %w: they need %s (%d bytes a vertex, %d an arc) but only %s",
				n, m, ErrTooLarge, fmtBytes(need), VertexBytes, arcBytes(false), availability(b, h))
		}
	}
	g := &Graph{n: n, directed: directed, kind: Unweighted, negLoop: -1}
	off := make([]int, n+1)
	for i := range us {
		if us[i] == vs[i] {
			continue
		}
		off[us[i]+1]++
		if !directed {
			off[vs[i]+1]++
		}
	}
	for u := range n {
		off[u+1] += off[u]
	}
	heads := make([]int32, off[n], off[n]+csr.HeadsSlack)
	for i := range us {
		u, v := us[i], vs[i]
		if u == v {
			continue
		}
		heads[off[u]] = v
		off[u]++
		if !directed {
			heads[off[v]] = u
			off[v]++
		}
	}
	copy(off[1:], off[:n])
	off[0] = 0
	g.compact(off, heads, nil, nil)
	return g, nil
}
