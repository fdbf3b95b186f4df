package lanes

import "github.com/apsp/apsp/graph"

// TightenLimit is the largest vertex count Tighten searches: beyond it no
// dense matrix, the only user of the packed kinds, fits in memory anyway.
const TightenLimit = 1 << 17

// Tighten returns p with MaxDist set to a proven bound on every finite
// distance of g when one is cheap to find and tighter than MaxReal, so that
// the packed kinds hold graphs whose simple paths are long but whose
// distances are short (an unweighted graph of 4096 vertices has MaxReal
// 4095, beyond int8, and usually a diameter under 20). It searches only
// integer graphs without negative arcs, of up to TightenLimit vertices,
// and only while the bound could still fit int16; otherwise p is returned
// unchanged. The proofs, for distances d and eccentricities from a vertex v
// found by one breadth-first search (Dijkstra's for weights):
//   - undirected: d(a, b) ≤ d(a, v) + d(v, b) = d(v, a) + d(v, b) for a
//     and b in v's component, at most the sum of the two largest distances
//     from v to distinct vertices (at most 2·ecc(v)); every other pair has
//     no path, so one search per component gives the maximum over
//     components of that sum;
//   - directed and strongly connected (v reaches every vertex and every
//     vertex reaches v): d(a, b) ≤ d(a, v) + d(v, b) ≤ ecc_in(v) + ecc_out(v);
//   - any other directed graph: no bound here (MaxReal stands).
func (p Plan) Tighten(g *graph.Graph) Plan {
	if p.Lanes.IsFloat() || p.Negative || p.Wide || g.N() > TightenLimit || g.Kind() == graph.FloatWeights {
		return p
	}
	limit := min(p.MaxReal, int64(Inf16))
	if limit < int64(Inf8) {
		return p // int8 holds every simple path already
	}
	if b, ok := DistBound(g, limit); ok && b < p.MaxReal {
		p.MaxDist = b
	}
	return p
}

// DistBound returns a proven bound on every finite distance of g (integer
// weights, none negative) by the rules of Tighten, and false when there is
// none below limit (the searches stop once the bound would reach it) or
// when g is directed and not strongly connected.
func DistBound(g *graph.Graph, limit int64) (int64, bool) {
	n := g.N()
	s := newSearch(n)
	if n == 0 {
		return 0, true
	}
	// The search starts from a vertex of the largest degree, which tends
	// to be central (a smaller eccentricity, a tighter bound); further
	// components from their first vertex.
	hub := 0
	for v := 1; v < n; v++ {
		if g.Degree(v) > g.Degree(hub) {
			hub = v
		}
	}
	if !g.Directed() {
		var bound int64
		for i := -1; i < n; i++ {
			v := i
			if i < 0 {
				v = hub
			}
			if s.seen[v] {
				continue
			}
			// Stop once a distance reaches limit/2: two of them could
			// make the bound useless.
			top1, top2, _, ok := s.run(g, v, (limit-1)/2)
			if !ok {
				return 0, false
			}
			bound = max(bound, top1+top2)
		}
		return bound, true
	}
	out, _, reached, ok := s.run(g, hub, limit-1)
	if !ok || reached < n {
		return 0, false
	}
	s.reset()
	in, _, reached, ok := s.run(g.Transpose(), hub, limit-1-out)
	if !ok || reached < n {
		return 0, false
	}
	return out + in, true
}

// search is one single-source search's state; seen persists across
// searches of different components.
type search struct {
	seen  []bool
	dist  []int64
	queue []int32
	heap  distHeap
}

func newSearch(n int) *search {
	return &search{seen: make([]bool, n), dist: make([]int64, n)}
}

func (s *search) reset() { clear(s.seen) }

// run searches from v and returns the largest and second largest distance
// to distinct vertices it reaches (the eccentricity over them and the
// runner-up), how many it reaches, and false as soon as a distance exceeds
// stop.
func (s *search) run(g *graph.Graph, v int, stop int64) (top1, top2 int64, reached int, ok bool) {
	if g.Kind() == graph.Unweighted {
		s.queue = append(s.queue[:0], int32(v))
		s.seen[v], s.dist[v] = true, 0
		for i := 0; i < len(s.queue); i++ {
			u := int(s.queue[i])
			d := s.dist[u]
			if d > stop {
				return 0, 0, 0, false
			}
			top1, top2 = d, top1 // BFS visits in distance order
			for _, w := range g.Neighbors(u) {
				if !s.seen[w] {
					s.seen[w], s.dist[w] = true, d+1
					s.queue = append(s.queue, w)
				}
			}
		}
		return top1, top2, len(s.queue), true
	}
	// Dijkstra: seen marks settled vertices; dist holds tentative ones
	// only while in the heap (lazy deletion).
	s.heap = append(s.heap[:0], item{0, int32(v)})
	for len(s.heap) > 0 {
		it := s.heap.pop()
		u := int(it.v)
		if s.seen[u] {
			continue
		}
		if it.d > stop {
			return 0, 0, 0, false
		}
		s.seen[u] = true
		top1, top2 = it.d, top1 // settled in distance order
		reached++
		ws := g.IntWeights(u)
		for i, w := range g.Neighbors(u) {
			if !s.seen[w] {
				s.heap.push(item{it.d + ws[i], w})
			}
		}
	}
	return top1, top2, reached, true
}

type item struct {
	d int64
	v int32
}

// distHeap is a binary min-heap of items by distance, typed (no
// container/heap: its interface boxes every item, an allocation a push).
type distHeap []item

func (h *distHeap) push(it item) {
	a := append(*h, it)
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p].d <= it.d {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = it
	*h = a
}

func (h *distHeap) pop() item {
	a := *h
	top, last := a[0], a[len(a)-1]
	a = a[:len(a)-1]
	n := len(a)
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1].d < a[c].d {
			c++
		}
		if last.d <= a[c].d {
			break
		}
		a[i] = a[c]
		i = c
	}
	if n > 0 {
		a[i] = last
	}
	*h = a
	return top
}
