package bounds

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
)

// relabel returns the arcs of g with vertex order[i] renamed i (inv is the
// inverse permutation): the package's own adjacency, numbered in the order
// a search visits the vertices, so that later searches touch memory mostly
// in order, which on randomly numbered graphs makes them several times
// faster. Only eccentricities leave the package, so the numbering never
// shows.
func relabel(g *graph.Graph, order, inv []int32) *csr.CSR {
	a := &csr.CSR{Off: make([]int, g.N()+1), Heads: make([]int32, g.Arcs())}
	k := 0
	for i, v := range order {
		for _, x := range g.Neighbors(int(v)) {
			a.Heads[k] = inv[x]
			k++
		}
		a.Off[i+1] = k
	}
	return a
}
