package dijkstra

import (
	"math"
	"math/bits"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// searcher is one goroutine's single-source search with its own scratch.
type searcher interface {
	// search finds the distances from src; result describes them until the
	// next call.
	search(src int32)
	result() *result
}

// result is what a search leaves: the reached vertices and their distances
// in exactly one of d32, d64, dF (entries of unreached vertices are
// meaningless), plus Johnson's potentials when the lengths were reweighted.
type result struct {
	order []int32 // reached vertices in the order settled, the source first
	d32   []int32
	d64   []int64
	dF    []float64
	h64   []int64   // d(u,v) = d'(u,v) − h(u) + h(v), exact
	hF    []float64 // the same for float lengths
}

// arc is one entry of a packed adjacency list: head and length side by side
// so that scanning a vertex touches one stream.
type arc[W int32 | int64 | float64] struct {
	v int32
	w W
}

// layout is a graph packed for repeated searches: arcs of u are
// arcs[off[u]:off[u+1]], all lengths ≥ 0.
type layout[W int32 | int64 | float64] struct {
	n          int
	off        []int
	arcs       []arc[W]
	minW, maxW W // over all arcs; 0, 0 without arcs
}

// packLayout copies the arcs of g with lengths from length(u, i, v) (so that
// Johnson can reweight while packing).
func packLayout[W int32 | int64 | float64](g *graph.Graph, length func(u, i int, v int32) W) *layout[W] {
	n := g.N()
	l := &layout[W]{n: n, off: make([]int, n+1), arcs: make([]arc[W], 0, g.Arcs())}
	first := true
	for u := range n {
		for i, v := range g.Neighbors(u) {
			w := length(u, i, v)
			l.arcs = append(l.arcs, arc[W]{v, w})
			if first {
				l.minW, l.maxW, first = w, w, false
			}
			l.minW, l.maxW = min(l.minW, w), max(l.maxW, w)
		}
		l.off[u+1] = len(l.arcs)
	}
	return l
}

// maxRing bounds the bucket count of a bucket queue: beyond it the radix
// heap, whose cost does not grow with the spread of lengths, takes over.
const maxRing = 1 << 14

// newIntSearcher picks the queue for exact lengths: a bucket queue when the
// spread of lengths is small (the common case: every operation O(1)),
// otherwise the radix heap.
func newIntSearcher[D int32 | int64](l *layout[D], h []int64) searcher {
	// Buckets of width 2^shift ≤ minW: no arc leads from a bucket into
	// itself except with length 0, which needs width 1 (equal keys).
	shift := 0
	if l.minW > 1 {
		shift = bits.Len64(uint64(l.minW)) - 1
	}
	if span := uint64(l.maxW) >> shift; span+2 <= maxRing {
		return newIntBuckets(l, h, uint(shift), span)
	}
	return newIntRadix(l, h)
}

// newFloatSearcher picks the queue for float lengths: a bucket queue of width
// minW/2 when every length is positive and the spread small, else the radix
// heap on the bits of the keys.
func newFloatSearcher(l *layout[float64], h []float64) searcher {
	if l.minW > 0 {
		width := l.minW / 2
		span := l.maxW / width
		// The bucket numbers of all distances (at most n·maxW) must stay
		// far inside float64's exact integers for the width to hold.
		if span+2 <= maxRing && float64(l.n)*(span+2) < 1<<40 {
			return newFloatBuckets(l, h, width, uint64(span))
		}
	}
	return newFloatRadix(l, h)
}

// newDist returns n infinite distances.
func newDist[D int32 | int64 | float64](n int) []D {
	d := make([]D, n)
	inf := infOf[D]()
	for i := range d {
		d[i] = inf
	}
	return d
}

// infOf is the "not reached" distance of the searchers: the largest value,
// which any tentative distance (a simple path's length, lanes.PlanFor's bound)
// stays below.
func infOf[D int32 | int64 | float64]() D {
	var z D
	switch any(z).(type) {
	case int32:
		v := int32(math.MaxInt32)
		return D(v)
	case int64:
		v := int64(math.MaxInt64)
		return D(v)
	}
	return D(math.Inf(1))
}

// forget resets the distances of the vertices the last search reached.
func forget[D int32 | int64 | float64](dist []D, order []int32) {
	inf := infOf[D]()
	for _, v := range order {
		dist[v] = inf
	}
}

// bfs is the search of unweighted graphs: a FIFO queue is a monotone
// priority queue when every length is 1.
type bfs struct {
	l   *layout[int32] // lengths unused
	res result
}

func newBFS(l *layout[int32]) *bfs {
	return &bfs{l: l, res: result{order: make([]int32, 0, l.n), d32: newDist[int32](l.n)}}
}

func (s *bfs) result() *result { return &s.res }

func (s *bfs) search(src int32) {
	dist := s.res.d32
	forget(dist, s.res.order)
	off, arcs := s.l.off, s.l.arcs
	order := append(s.res.order[:0], src)
	dist[src] = 0
	for i := 0; i < len(order); i++ {
		u := order[i]
		nd := dist[u] + 1
		for _, a := range arcs[off[u]:off[u+1]] {
			if dist[a.v] == math.MaxInt32 {
				dist[a.v] = nd
				order = append(order, a.v)
			}
		}
	}
	s.res.order = order
}

// planInt returns lanes.PlanFor's choice for an integer graph: whether every
// distance (and, for Johnson, every reweighted one) fits int32, and whether
// the plan is wide (lengths need all of int64's positive range).
func planInt(g *graph.Graph) (narrow, wide bool, err error) {
	plan, err := lanes.PlanFor(g)
	if err != nil {
		return false, false, err
	}
	return plan.Lanes == lanes.Int32, plan.Wide, nil
}

// wideSearcher is the search for wide plans (lanes.Plan.Wide): From's heap
// search, which only forms simple paths' lengths, so no sum overflows even
// near math.MaxInt64 where the tuned searchers' relaxations of settled
// vertices could. Such weights are rare; it trades speed for safety.
type wideSearcher struct {
	g   *graph.Graph
	res result
}

func (s *wideSearcher) result() *result { return &s.res }

func (s *wideSearcher) search(src int32) {
	dist, parent := From(s.g, int(src), s.g.ArcInt)
	order := append(s.res.order[:0], src)
	for v, p := range parent {
		if p >= 0 {
			order = append(order, int32(v))
		}
	}
	s.res.order, s.res.d64 = order, dist
}
