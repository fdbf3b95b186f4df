package engine

import (
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
)

// Successors builds a successor matrix (row stride n) from exact distances
// and the graph: for every target t, a breadth-first search from t
// backwards along tight arcs — x→y with w(x,y) + d(y,t) = d(x,t) — gives
// each vertex x a next hop y toward t. Every arc of a shortest path is
// tight, so every vertex that reaches t is found, and the breadth-first
// order makes the hop count fall by one at each step, so following the
// successors always ends at t even across zero-length cycles (where
// tracking successors inside a reordered Floyd–Warshall can loop). Float
// distances accept an arc as tight within a relative tolerance that
// follows the lanes' rounding: 1e-9 for float64, n·2⁻²² for float32 (whose
// distances were summed in float32 from weights rounded to float32).
func Successors(d lanes.Any, g *graph.Graph, threads int) []int32 {
	n := d.Vertices()
	next := make([]int32, n*n)
	rev := g.Transpose()
	exact := !d.Kind().IsFloat()
	tol := 1e-9
	if d.Kind().Bytes() < 8 {
		tol = float64(n+1) * 0x1p-22
	}
	par.RowsWith(n, threads, func() []int32 { return make([]int32, 0, n) }, func(t int, queue []int32) {
		queue = queue[:0]
		// next[x*n+t] is written only by the worker that owns target t.
		for x := 0; x < n; x++ {
			next[x*n+t] = -1
		}
		next[t*n+t] = int32(t)
		queue = append(queue, int32(t))
		for h := 0; h < len(queue); h++ {
			y := int(queue[h])
			for i, x32 := range rev.Neighbors(y) {
				x := int(x32)
				if next[x*n+t] >= 0 || d.IsInf(x, t) {
					continue
				}
				var tight bool
				if exact {
					// A wide plan's sums of non-negative lengths may wrap
					// to a negative value, which never equals d(x,t) ≥ 0.
					dy, _ := d.Int(y, t)
					dx, _ := d.Int(x, t)
					tight = rev.ArcInt(y, i)+dy == dx
				} else {
					dy, dx := d.Float(y, t), d.Float(x, t)
					tight = rev.ArcFloat(y, i)+dy <= dx+tol*math.Max(1, math.Abs(dx))
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
