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
// tracking successors inside a reordered Floyd–Warshall can loop).
//
// Float distances of float weights were rounded as they were summed (an
// integer graph's in float lanes are exact, and compared so), so an arc is tight
// within what that rounding can explain: 2(n+1) units in the last place
// of the lanes (float64, or float32, whose weights were rounded too) of
// the larger of d(x,t) and |w(x,y)| + |d(y,t)|, the sum of the lengths
// along the path when they are not negative. A relative 1e-9 with a floor
// of 1 took arcs 3e-12 longer than the path (or 0.25 longer at 1e9) as
// tight. Negative lengths can cancel, so that the sum of a path's lengths,
// and its rounding, exceed both; a vertex that reaches t but that bound
// leaves without a successor then takes the arc of least excess to a
// vertex already found (a second pass, in breadth-first order), so no path
// goes missing.
func Successors(d lanes.Any, g *graph.Graph, threads int) []int32 {
	n := d.Vertices()
	next := make([]int32, n*n)
	rev := g.Transpose()
	exact := !d.Kind().IsFloat()
	ulp := 0x1p-52
	if d.Kind().Bytes() < 8 {
		ulp = 0x1p-23
	}
	tol := 2 * float64(n+1) * ulp
	if g.Kind() != graph.FloatWeights {
		// An integer graph in float lanes: the lane plan admits them only
		// where every distance is an integer they hold exactly, so
		// tightness is exact too (a tolerance of 1 or more took arcs 1
		// longer from about 2^51/(n+1) in float64, far less in float32).
		tol = 0
	}
	par.RowsWith(n, threads, func() []int32 { return make([]int32, 0, n) }, func(t int, queue []int32) {
		queue = queue[:0]
		// next[x*n+t] is written only by the worker that owns target t.
		reach := 0
		for x := 0; x < n; x++ {
			next[x*n+t] = -1
			if !d.IsInf(x, t) {
				reach++
			}
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
					w, dy, dx := rev.ArcFloat(y, i), d.Float(y, t), d.Float(x, t)
					tight = w+dy-dx <= tol*math.Max(math.Abs(dx), math.Abs(w)+math.Abs(dy))
				}
				if tight {
					next[x*n+t] = int32(y)
					queue = append(queue, int32(x))
				}
			}
		}
		if len(queue) < reach && !exact {
			leastExcess(d, g, rev, next, t, queue)
		}
	})
	return next
}

// leastExcess gives the vertices that reach t but found no successor
// (float rounding beyond Successors' bound) the out-arc of least excess
// w(x,z) + d(z,t) − d(x,t) among those to vertices that have one. It goes
// through queue (the vertices with a successor, in breadth-first order)
// and appends each vertex it serves, so every successor given here comes
// earlier in the queue than its vertex and following them still ends at t.
func leastExcess(d lanes.Any, g, rev *graph.Graph, next []int32, t int, queue []int32) {
	n := d.Vertices()
	for h := 0; h < len(queue); h++ {
		for _, x32 := range rev.Neighbors(int(queue[h])) {
			x := int(x32)
			if next[x*n+t] >= 0 || d.IsInf(x, t) {
				continue
			}
			best, dx := math.Inf(1), d.Float(x, t)
			for j, z := range g.Neighbors(x) {
				if next[int(z)*n+t] < 0 {
					continue
				}
				if excess := g.ArcFloat(x, j) + d.Float(int(z), t) - dx; excess < best {
					best, next[x*n+t] = excess, z
				}
			}
			if next[x*n+t] >= 0 { // else every excess was NaN: no arc to trust
				queue = append(queue, x32)
			}
		}
	}
}
