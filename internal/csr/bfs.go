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
	off, heads := a.Off, a.Heads
	dist[src] = 0
	queue[0] = src
	head, tail := 0, 1
	for head < tail {
		u := queue[head]
		head++
		du := dist[u] + 1
		lo, hi := off[u], off[u+1]
		arcs += hi - lo
		for _, v := range heads[lo:hi] {
			if dist[v] == unseen {
				dist[v] = du
				queue[tail] = v
				tail++
			}
		}
	}
	return tail, arcs
}
