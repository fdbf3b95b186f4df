package cpu

import (
	"context"
	"math"

	"github.com/apsp/apsp/graph"
)

// FindNegativeCycle returns a *NegativeCycleError naming a vertex on a
// negative cycle of g, or nil when there is none. It runs Bellman–Ford from a
// virtual source joined to every vertex by a zero-length arc, relaxing in
// each round only the arcs that leave vertices improved in the round before,
// so that graphs without negative cycles usually finish in a few rounds.
func FindNegativeCycle(ctx context.Context, g *graph.Graph) error {
	if v, ok := g.NegativeSelfLoop(); ok {
		return &NegativeCycleError{Vertex: v}
	}
	if !g.HasNegativeWeights() {
		return nil
	}
	if g.Kind() == graph.FloatWeights {
		return bellmanFord(ctx, g, g.ArcFloat)
	}
	return bellmanFord(ctx, g, g.ArcInt)
}

func bellmanFord[T int64 | float64](ctx context.Context, g *graph.Graph, length func(u, i int) T) error {
	n := g.N()
	dist := make([]T, n) // the virtual source reaches everyone at 0
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = -1
	}
	active := make([]int32, n)
	for i := range active {
		active[i] = int32(i)
	}
	inNext := make([]bool, n)
	var next []int32
	lowest := T(math.Inf(-1))
	if _, ok := any(lowest).(int64); ok {
		v := int64(math.MinInt64)
		lowest = T(v)
	}
	for round := 0; len(active) > 0; round++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if round == n {
			// Still improving after n rounds: walking parents n times from an
			// improved vertex lands on the cycle that keeps improving it.
			v := int(active[0])
			for range n {
				if parent[v] < 0 { // cannot happen; keep the walk in bounds
					break
				}
				v = int(parent[v])
			}
			return &NegativeCycleError{Vertex: v}
		}
		next = next[:0]
		for _, u32 := range active {
			u := int(u32)
			du := dist[u]
			for i, v := range g.Neighbors(u) {
				w := length(u, i)
				sum := du + w
				if du < 0 && w < 0 && sum >= 0 {
					sum = lowest
				}
				if sum < dist[v] {
					dist[v] = sum
					parent[v] = u32
					if !inNext[v] {
						inNext[v] = true
						next = append(next, v)
					}
				}
			}
		}
		for _, v := range next {
			inNext[v] = false
		}
		active, next = next, active
	}
	return nil
}
