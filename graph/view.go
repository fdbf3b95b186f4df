package graph

// Undirected returns g with the directions of its arcs dropped: an edge
// {u, v} for every arc u→v, parallel ones keeping the smallest length, as
// igraph's mode "all" reads a directed graph. An undirected g is returned
// as it is. Names and the kind of lengths are kept.
func (g *Graph) Undirected() *Graph {
	if !g.directed {
		return g
	}
	b := NewBuilder(false)
	// The arcs are checked already: every vertex id is in range and the
	// buffer is sized once (each arc stored both ways).
	b.n, b.kind = g.n, g.kind
	b.arcs = make([]arc, 0, 2*len(g.heads))
	b.fitN = g.n
	for u := range g.n {
		for i := g.offsets[u]; i < g.offsets[u+1]; i++ {
			var w int64 = 1
			switch g.kind {
			case IntWeights:
				w = g.intW[i]
			case FloatWeights:
				w = floatBits(g.floatW[i])
			}
			b.add(u, int(g.heads[i]), w, false)
		}
	}
	h := b.Build()
	h.names, h.negLoop = g.names, g.negLoop
	return h
}
