package dijkstra

import (
	"container/heap"
	"math"

	"github.com/apsp/apsp/graph"
)

// Lengths are the distance types of the single-source searches.
type Lengths interface{ int64 | float64 }

// Unreached is the distance a single-source search leaves on vertices it
// does not reach: +Inf, or for int64 the largest value — which a wide plan
// (lanes.Plan.Wide) allows as a real distance too, so reachability is told
// by the parents (-1: unreached, except the source). From only ever adds an
// arc to a settled vertex's distance towards an unsettled vertex, a simple
// path's length, which lanes.PlanFor bounds by MaxInt64; BellmanFordFrom
// adds arcs to reached vertices only, whose lengths the plan keeps within
// half the range when arcs are negative.
func Unreached[T Lengths]() T {
	var z T
	if _, ok := any(z).(float64); ok {
		return T(math.Inf(1))
	}
	v := int64(math.MaxInt64)
	return T(v)
}

// From runs one Dijkstra search from s with a plain binary heap and returns
// the distances (Unreached where there is no path) and each vertex's parent
// on a shortest path (-1 for s and unreached vertices). Arc lengths must be
// non-negative; length(u, i) is the i-th arc of u. It is the simple search
// for one source (apsp path, checks), not the tuned all-sources engine.
func From[T Lengths](g *graph.Graph, s int, length func(u, i int) T) ([]T, []int32) {
	n := g.N()
	dist := make([]T, n)
	parent := make([]int32, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i] = Unreached[T]()
		parent[i] = -1
	}
	dist[s] = 0
	h := &minHeap[T]{{0, int32(s)}}
	for h.Len() > 0 {
		it := heap.Pop(h).(heapItem[T])
		u := int(it.v)
		if done[u] {
			continue
		}
		done[u] = true
		for i, w := range g.Neighbors(u) {
			// A settled w cannot improve (lengths are non-negative), and
			// skipping it keeps every sum a simple path's length: no
			// overflow even when lengths use all of int64.
			if done[w] {
				continue
			}
			if nd := it.d + length(u, i); nd < dist[w] || parent[w] < 0 {
				dist[w], parent[w] = nd, int32(u)
				heap.Push(h, heapItem[T]{nd, w})
			}
		}
	}
	return dist, parent
}

// BellmanFordFrom is a queue-based Bellman–Ford from s with parents, for
// negative arcs; the caller must have ruled out negative cycles.
func BellmanFordFrom[T Lengths](g *graph.Graph, s int, length func(u, i int) T) ([]T, []int32) {
	n := g.N()
	dist := make([]T, n)
	parent := make([]int32, n)
	queued := make([]bool, n)
	for i := range dist {
		dist[i] = Unreached[T]()
		parent[i] = -1
	}
	dist[s] = 0
	queue := []int32{int32(s)}
	queued[s] = true
	for len(queue) > 0 {
		u := int(queue[0])
		queue = queue[1:]
		queued[u] = false
		for i, w := range g.Neighbors(u) {
			if nd := dist[u] + length(u, i); nd < dist[w] {
				dist[w], parent[w] = nd, int32(u)
				if !queued[w] {
					queued[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	return dist, parent
}

type heapItem[T Lengths] struct {
	d T
	v int32
}

type minHeap[T Lengths] []heapItem[T]

func (h minHeap[T]) Len() int           { return len(h) }
func (h minHeap[T]) Less(i, j int) bool { return h[i].d < h[j].d }
func (h minHeap[T]) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap[T]) Push(x any)        { *h = append(*h, x.(heapItem[T])) }
func (h *minHeap[T]) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
