package graph

import (
	"fmt"

	"github.com/apsp/apsp/internal/csr"
)

// Renumber returns g with vertex v numbered newID[v] (a permutation of
// 0..n-1): the same arcs, lengths and names, each vertex's arcs sorted by
// head as a built graph's are. It lets an engine that searches the
// sources of a range (the GPU's) search chosen ones: numbered first.
func (g *Graph) Renumber(newID []int32) (*Graph, error) {
	n := g.n
	if len(newID) != n {
		return nil, fmt.Errorf("renumbering %d vertices with %d numbers", n, len(newID))
	}
	seen := make([]bool, n)
	for v, id := range newID {
		if id < 0 || int(id) >= n || seen[id] {
			return nil, fmt.Errorf("renumbering: vertex %d numbered %d: not a permutation of 0..%d", v, id, n-1)
		}
		seen[id] = true
	}
	h := &Graph{n: n, directed: g.directed, kind: g.kind, negLoop: -1}
	if g.negLoop >= 0 {
		h.negLoop = int(newID[g.negLoop])
	}
	off := make([]int, n+1)
	for v := range n {
		off[newID[v]+1] = g.Degree(v)
	}
	for u := range n {
		off[u+1] += off[u]
	}
	m := len(g.heads)
	heads := make([]int32, m, m+csr.HeadsSlack)
	var iw []int64
	var fw []float64
	switch g.kind {
	case IntWeights:
		iw = make([]int64, m)
	case FloatWeights:
		fw = make([]float64, m)
	}
	for v := range n {
		at, lo := off[newID[v]], g.offsets[v]
		for i, w := range g.Neighbors(v) {
			heads[at+i] = newID[w]
		}
		d := g.Degree(v)
		switch g.kind {
		case IntWeights:
			copy(iw[at:at+d], g.intW[lo:lo+d])
		case FloatWeights:
			copy(fw[at:at+d], g.floatW[lo:lo+d])
		}
	}
	h.compact(off, heads, iw, fw) // a sort: a simple graph has no parallel arcs
	if g.names != nil {
		h.names = make([]string, n)
		for v, name := range g.names {
			h.names[newID[v]] = name
		}
	}
	return h, nil
}
