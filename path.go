package apsp

import (
	"container/heap"
	"context"
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
)

// singleSourcePath answers one pair without all pairs: breadth-first search
// on unweighted graphs, Dijkstra on non-negative weights, and Bellman–Ford
// (after the negative-cycle check) otherwise. It records parents and walks
// them back from v.
func singleSourcePath(ctx context.Context, g *graph.Graph, u, v int) (Path, error) {
	if _, err := cpu.PlanLanes(g); err != nil {
		return Path{}, err
	}
	if err := cpu.FindNegativeCycle(ctx, g); err != nil {
		return Path{}, err
	}
	float := g.Kind() == graph.FloatWeights
	var parent []int32
	var dist []float64
	var idist []int64
	switch {
	case g.HasNegativeWeights():
		if float {
			dist, parent = bellmanFordFrom(g, u, g.ArcFloat)
		} else {
			idist, parent = bellmanFordFrom(g, u, g.ArcInt)
		}
	case float:
		dist, parent = dijkstraFrom(g, u, g.ArcFloat)
	default:
		idist, parent = dijkstraFrom(g, u, g.ArcInt)
	}
	if parent[v] < 0 && u != v {
		return Path{}, fmt.Errorf("from %d to %d: %w", u, v, ErrNoPath)
	}
	var rev []int
	for x := v; x != u; x = int(parent[x]) {
		rev = append(rev, x)
		if len(rev) > g.N() {
			return Path{}, fmt.Errorf("parent chain from %d to %d loops (a bug)", u, v)
		}
	}
	vs := []int{u}
	for i := len(rev) - 1; i >= 0; i-- {
		vs = append(vs, rev[i])
	}
	if float {
		return Path{Vertices: vs, Length: FloatLength(dist[v])}, nil
	}
	return Path{Vertices: vs, Length: IntLength(idist[v])}, nil
}

type heapItem[T int64 | float64] struct {
	d T
	v int32
}

type minHeap[T int64 | float64] []heapItem[T]

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

// dijkstraFrom is a plain lazy-deletion Dijkstra with parents (unweighted
// arcs have length 1, so it doubles as BFS).
func dijkstraFrom[T int64 | float64](g *graph.Graph, s int, length func(u, i int) T) ([]T, []int32) {
	n := g.N()
	dist := make([]T, n)
	parent := make([]int32, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i] = maxOf[T]()
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
			if nd := it.d + length(u, i); nd < dist[w] {
				dist[w], parent[w] = nd, int32(u)
				heap.Push(h, heapItem[T]{nd, w})
			}
		}
	}
	return dist, parent
}

// bellmanFordFrom is a queue-based Bellman–Ford with parents; the caller has
// ruled out negative cycles.
func bellmanFordFrom[T int64 | float64](g *graph.Graph, s int, length func(u, i int) T) ([]T, []int32) {
	n := g.N()
	dist := make([]T, n)
	parent := make([]int32, n)
	queued := make([]bool, n)
	for i := range dist {
		dist[i] = maxOf[T]()
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

func maxOf[T int64 | float64]() T {
	var z T
	if _, ok := any(z).(float64); ok {
		return T(math.Inf(1))
	}
	v := int64(math.MaxInt64 / 2) // room to add a weight without overflow
	return T(v)
}
