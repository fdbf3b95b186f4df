package bounds

import "github.com/apsp/apsp/graph"

// csr is the package's own adjacency, with the vertices renumbered in the
// order a search visits them: later searches then touch memory mostly in
// order, which on randomly numbered graphs makes them several times faster.
// Only eccentricities leave the package, so the numbering never shows.
type csr struct {
	off   []int // arcs of u are heads[off[u]:off[u+1]]
	heads []int32
}

func (a *csr) n() int               { return len(a.off) - 1 }
func (a *csr) nbrs(u int32) []int32 { return a.heads[a.off[u]:a.off[u+1]] }
func (a *csr) degree(u int32) int   { return a.off[u+1] - a.off[u] }

// relabel returns the arcs of g with vertex order[i] renamed i; inv is the
// inverse permutation.
func relabel(g *graph.Graph, order, inv []int32) *csr {
	a := &csr{off: make([]int, g.N()+1), heads: make([]int32, g.Arcs())}
	k := 0
	for i, v := range order {
		for _, x := range g.Neighbors(int(v)) {
			a.heads[k] = inv[x]
			k++
		}
		a.off[i+1] = k
	}
	return a
}

// transpose returns a with every arc reversed.
func (a *csr) transpose() *csr {
	n := a.n()
	t := &csr{off: make([]int, n+1), heads: make([]int32, len(a.heads))}
	for _, v := range a.heads {
		t.off[v+1]++
	}
	for v := range n {
		t.off[v+1] += t.off[v]
	}
	fill := make([]int, n)
	copy(fill, t.off[:n])
	for u := range n {
		for _, v := range a.nbrs(int32(u)) {
			t.heads[fill[v]] = int32(u)
			fill[v]++
		}
	}
	return t
}
