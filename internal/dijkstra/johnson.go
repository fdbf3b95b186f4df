package dijkstra

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// JohnsonRows is Rows for graphs that may have negative arcs but no negative
// cycle: a negative cycle gives cpu.FindNegativeCycle's
// *cpu.NegativeCycleError unchanged. Otherwise Bellman–Ford potentials h make
// every length w(u,v) + h(u) − h(v) non-negative, Dijkstra runs on those, and
// d(u,v) = d'(u,v) − h(u) + h(v) restores the distances (exactly for
// integer lengths).
func JohnsonRows(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) ([]reduce.Row, error) {
	j, err := johnsonJob(ctx, g)
	if err != nil {
		return nil, err
	}
	return j.rows(ctx, threads, progress)
}

// JohnsonFill is Fill for graphs that may have negative arcs but no negative
// cycle; see JohnsonRows.
func JohnsonFill[T lanes.Lane](ctx context.Context, g *graph.Graph, m *lanes.Matrix[T], threads int, progress func(float64)) error {
	if err := checkMatrix(g, m); err != nil {
		return err
	}
	j, err := johnsonJob(ctx, g)
	if err != nil {
		return err
	}
	return fill(ctx, j, m, threads, progress)
}

// johnsonJob checks for negative cycles and lays g out with reweighted
// lengths and the potentials that undo them; without negative arcs it is
// plain Dijkstra.
func johnsonJob(ctx context.Context, g *graph.Graph) (job, error) {
	if err := ctx.Err(); err != nil {
		return job{}, err
	}
	narrow := false
	if g.Kind() != graph.FloatWeights {
		// Before the cycle search, whose int64 sums need the same bound.
		var err error
		if narrow, _, err = planInt(g); err != nil {
			return job{}, fmt.Errorf("dijkstra: %w", err)
		}
	}
	if err := cpu.FindNegativeCycle(ctx, g); err != nil {
		return job{}, err // a *cpu.NegativeCycleError or ctx.Err(), as is
	}
	if !g.HasNegativeWeights() {
		return plainJob(g)
	}
	if g.Kind() == graph.FloatWeights {
		h, err := potentials(ctx, g, g.FloatWeights)
		if err != nil {
			return job{}, err
		}
		l := packLayout(g, func(u, i int, v int32) float64 {
			w := g.FloatWeights(u)[i] + h[u] - h[v]
			if !(w > 0) {
				w = 0 // rounding can leave a tiny negative, or -0
			}
			return w
		})
		return job{n: g.N(), newSearcher: func() searcher { return newFloatSearcher(l, h) }}, nil
	}
	h, err := potentials(ctx, g, g.IntWeights)
	if err != nil {
		return job{}, err
	}
	// h(u) ≤ 0 and h(v) ≥ the most negative distance, so every reweighted
	// length and reweighted path stays within PlanLanes' span: int32 when
	// the plan says so.
	reweighted := func(u, i int, v int32) int64 { return g.IntWeights(u)[i] + h[u] - h[v] }
	if narrow {
		l := packLayout(g, func(u, i int, v int32) int32 { return int32(reweighted(u, i, v)) })
		return job{n: g.N(), newSearcher: func() searcher { return newIntSearcher(l, h) }}, nil
	}
	l := packLayout(g, reweighted)
	return job{n: g.N(), newSearcher: func() searcher { return newIntSearcher(l, h) }}, nil
}

// potentials returns the distances from a virtual source joined to every
// vertex by a zero-length arc, by queue-based Bellman–Ford: a FIFO of
// vertices whose distance dropped since they were last scanned. After
// FindNegativeCycle it always converges for exact lengths; float rounding
// could still keep a cycle of zero length improving, which the arc count of
// each tentative path (at most n−1 without a negative cycle) catches.
func potentials[W int64 | float64](ctx context.Context, g *graph.Graph, lengths func(u int) []W) ([]W, error) {
	n := g.N()
	h := make([]W, n)
	hops := make([]int32, n)
	parent := make([]int32, n)
	inQueue := make([]bool, n)
	queue := make([]int32, n) // a ring: a vertex is in it at most once
	for v := range n {
		queue[v] = int32(v)
		inQueue[v] = true
		parent[v] = -1
	}
	head, count := 0, n
	for scanned := 0; count > 0; scanned++ {
		if scanned%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		u := queue[head]
		head++
		if head == n {
			head = 0
		}
		count--
		inQueue[u] = false
		hu := h[u]
		ws := lengths(int(u))
		for i, v := range g.Neighbors(int(u)) {
			if nh := hu + ws[i]; nh < h[v] {
				h[v] = nh
				parent[v] = u
				hops[v] = hops[u] + 1
				if int(hops[v]) >= n {
					return nil, cycleThrough(parent, v, n)
				}
				if !inQueue[v] {
					inQueue[v] = true
					tail := head + count
					if tail >= n {
						tail -= n
					}
					queue[tail] = v
					count++
				}
			}
		}
	}
	return h, nil
}

// cycleThrough walks n parents back from v, which lands on the cycle that a
// tentative path of n arcs must contain.
func cycleThrough(parent []int32, v int32, n int) error {
	for range n {
		if parent[v] < 0 {
			break
		}
		v = parent[v]
	}
	return fmt.Errorf("dijkstra: potentials do not converge: %w", &cpu.NegativeCycleError{Vertex: int(v)})
}
