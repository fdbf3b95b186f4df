package csr

// BFS searches a breadth first from src through the vertices v with
// dist[v] == unseen, a negative mark: dist[v] gets the distance from src of
// each vertex it reaches, and queue[:reached] those vertices in order of
// distance, src first, so the last is a farthest one. arcs is the number of
// arcs scanned. With dist -1 everywhere and unseen -1 it is the plain
// search; marking only some vertices unseen confines it to them (such as
// one strongly connected component) at no cost per arc. queue must have
// room for every vertex it can reach.
func (a *CSR) BFS(src, unseen int32, dist, queue []int32) (reached, arcs int) {
	dist[src] = 0
	queue[0] = src
	tail := 1
	for head := 0; head < tail; head++ {
		u := queue[head]
		du := dist[u] + 1
		nbrs := a.Nbrs(u)
		arcs += len(nbrs)
		for _, v := range nbrs {
			if dist[v] == unseen {
				dist[v] = du
				queue[tail] = v
				tail++
			}
		}
	}
	return tail, arcs
}
