package apsp

import (
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
)

// deriveSuccessors builds a successor matrix (row stride n) from exact
// distances and the graph: for every target t, a breadth-first search from t
// backwards along tight arcs — x→y with w(x,y) + d(y,t) = d(x,t) — gives
// each vertex x a next hop y toward t. Every arc of a shortest path is tight,
// so every vertex that reaches t is found, and the breadth-first order makes
// the hop count fall by one at each step, so following the successors always
// ends at t even across zero-length cycles (where tracking successors inside
// a reordered Floyd–Warshall can loop). Float distances accept an arc as
// tight within a relative tolerance of 1e-9.
func deriveSuccessors(d *Distances, g *graph.Graph, threads int) []int32 {
	n := d.n
	next := make([]int32, n*n)
	rev := g.Transpose()
	exact := d.Exact()
	cpu.ParallelRowsWith(n, threads, func() any { return make([]int32, 0, n) }, func(t int, scratch any) {
		queue := scratch.([]int32)[:0]
		// next[x*n+t] is written only by the worker that owns target t.
		for x := 0; x < n; x++ {
			next[x*n+t] = -1
		}
		next[t*n+t] = int32(t)
		queue = append(queue, int32(t))
		for h := 0; h < len(queue); h++ {
			y := int(queue[h])
			dy := d.At(y, t)
			for i, x32 := range rev.Neighbors(y) {
				x := int(x32)
				if next[x*n+t] >= 0 {
					continue
				}
				dx := d.At(x, t)
				if dx.IsInf() {
					continue
				}
				var tight bool
				if exact {
					tight = rev.ArcInt(y, i)+dy.Int() == dx.Int()
				} else {
					sum := rev.ArcFloat(y, i) + dy.Float()
					tight = sum <= dx.Float()+1e-9*math.Max(1, math.Abs(dx.Float()))
				}
				if tight {
					next[x*n+t] = int32(y)
					queue = append(queue, int32(x))
				}
			}
		}
	})
	return next
}
