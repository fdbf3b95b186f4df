package result

import (
	"fmt"
	"math"
)

// Row-at-a-time access to a Distances matrix, for encoders that stream it
// (package encode): each reads row u of the matrix once, without the
// per-cell checks of At.

// Row writes the distances from u to every vertex into dst, reusing its
// storage when cap(dst) >= N(), and returns dst[:N()]; dst[v] equals
// At(u, v). It panics when u is not a vertex.
func (d *Distances) Row(u int, dst []Length) []Length {
	d.checkRow(u)
	dst = rowBuf(dst, d.n)
	if !d.Exact() {
		buf, _ := d.scratch.Get().(*[]float64)
		if buf == nil {
			buf = new([]float64)
		}
		*buf = d.m.RowFloat64(u, (*buf)[:0])
		for v, x := range *buf {
			dst[v] = FloatLength(x) // +Inf reads as infinite
		}
		d.scratch.Put(buf)
		return dst
	}
	buf, _ := d.scratch.Get().(*[]int64)
	if buf == nil {
		buf = new([]int64)
	}
	// No real distance is MinInt64: the plans keep negative distances above
	// half of int64's range.
	*buf = d.m.RowInt64(u, (*buf)[:0], math.MinInt64)
	for v, x := range *buf {
		if x == math.MinInt64 {
			dst[v] = Infinite(false)
		} else {
			dst[v] = IntLength(x)
		}
	}
	d.scratch.Put(buf)
	return dst
}

// RowInt64 writes the exact integer distances from u into dst (reused as
// by Row) with unreachable in place of every missing path, and returns
// dst[:N()]. The caller picks an unreachable value that no real distance
// takes. It panics on float distances (Exact() false) and when u is not a
// vertex.
func (d *Distances) RowInt64(u int, dst []int64, unreachable int64) []int64 {
	d.checkRow(u)
	if !d.Exact() {
		panic("apsp: Distances.RowInt64 on float distances (Exact() is false)")
	}
	return d.m.RowInt64(u, dst[:0], unreachable)
}

// RowFloat64 writes the distances from u into dst (reused as by Row) as
// float64, +Inf for a missing path, and returns dst[:N()]. Integer
// distances beyond 2⁵³ in magnitude are rounded to the nearest float64. It
// panics when u is not a vertex.
func (d *Distances) RowFloat64(u int, dst []float64) []float64 {
	d.checkRow(u)
	return d.m.RowFloat64(u, dst[:0])
}

func (d *Distances) checkRow(u int) {
	if uint(u) >= uint(d.n) {
		panic(fmt.Sprintf("apsp: Distances row %d out of range 0..%d", u, d.n-1))
	}
}

// rowBuf returns s with length n, reusing its storage when it can.
func rowBuf[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
