package result

import (
	"fmt"
	"math"
)

// NoPathInt marks a missing path in SourceDistances' exact rows: no real
// distance is MinInt64 (the plans keep them above half of int64's range).
const NoPathInt = math.MinInt64

// SourceDistances is an origin–destination matrix: the distances from each
// of some sources to every vertex, or to the vertices of Targets alone,
// row i for Sources[i], column j for Targets[j] (vertex j when Targets is
// nil).
type SourceDistances struct {
	Sources []int
	// Targets are the columns' vertices; nil for every vertex in order.
	Targets []int
	n       int       // the graph's vertices
	cols    int       // the length of a row
	ints    []int64   // exact distances, NoPathInt for none; nil for float ones
	floats  []float64 // float distances, +Inf for none
	// Algorithm, Threads and Seconds say what computed them.
	Algorithm string
	Threads   int
	Seconds   float64
}

// NewSourceDistances wraps the rows of sources, of n entries each: ints
// (NoPathInt for none) when exact, else floats (+Inf).
func NewSourceDistances(sources []int, n int, ints []int64, floats []float64) *SourceDistances {
	return &SourceDistances{Sources: sources, n: n, cols: n, ints: ints, floats: floats}
}

// Columns returns d with the columns of targets alone, in their order
// (repeats allowed), in a new matrix of len(Sources)·len(targets)
// entries. It panics when d's columns are not every vertex.
func (d *SourceDistances) Columns(targets []int) *SourceDistances {
	d.checkEveryColumn("Columns")
	k, t := len(d.Sources), len(targets)
	out := &SourceDistances{Sources: d.Sources, Targets: targets, n: d.n, cols: t,
		Algorithm: d.Algorithm, Threads: d.Threads, Seconds: d.Seconds}
	if d.floats != nil {
		out.floats = gather(d.floats, k, d.n, targets)
	} else {
		out.ints = gather(d.ints, k, d.n, targets)
	}
	return out
}

// Transposed returns the matrix of rows (vertices; nil for every vertex)
// whose entry (i, j) is d's entry (j, rows[i]), for d's rows over every
// vertex: the distances from rows to the sources of d when d holds the
// distances to them (rows searched on the reversed graph), the sources
// becoming Targets.
// It panics when d's columns are not every vertex.
func (d *SourceDistances) Transposed(rows []int) *SourceDistances {
	d.checkEveryColumn("Transposed")
	k, n := len(d.Sources), d.n
	if rows == nil {
		rows = make([]int, n)
		for v := range n {
			rows[v] = v
		}
	}
	out := &SourceDistances{Sources: rows, Targets: d.Sources, n: n, cols: k,
		Algorithm: d.Algorithm, Threads: d.Threads, Seconds: d.Seconds}
	if d.floats != nil {
		out.floats = transpose(d.floats, k, n, rows)
	} else {
		out.ints = transpose(d.ints, k, n, rows)
	}
	return out
}

func gather[T any](m []T, k, n int, cols []int) []T {
	out := make([]T, k*len(cols))
	for i := range k {
		row, dst := m[i*n:(i+1)*n], out[i*len(cols):(i+1)*len(cols)]
		for j, c := range cols {
			dst[j] = row[c]
		}
	}
	return out
}

// transpose returns the len(rows)×k matrix whose entry (i, j) is m's
// (j, rows[i]), m being k rows of n, in blocks so that each side is read
// and written a cache line at a time.
func transpose[T any](m []T, k, n int, rows []int) []T {
	const block = 64
	out := make([]T, len(rows)*k)
	for j0 := 0; j0 < k; j0 += block {
		for i0 := 0; i0 < len(rows); i0 += block {
			for j := j0; j < min(j0+block, k); j++ {
				row := m[j*n : (j+1)*n]
				for i := i0; i < min(i0+block, len(rows)); i++ {
					out[i*k+j] = row[rows[i]]
				}
			}
		}
	}
	return out
}

// N is the number of vertices of the graph.
func (d *SourceDistances) N() int { return d.n }

// Rows is the number of rows, len(Sources).
func (d *SourceDistances) Rows() int { return len(d.Sources) }

// Cols is the length of a row: len(Targets), or N() when Targets is nil.
func (d *SourceDistances) Cols() int { return d.cols }

// Exact reports whether the distances are exact integers.
func (d *SourceDistances) Exact() bool { return d.floats == nil }

// At is the distance from Sources[i] to column j's vertex. It panics
// when i is not a row or j not a column.
func (d *SourceDistances) At(i, j int) Length {
	if uint(j) >= uint(d.cols) {
		panic(fmt.Sprintf("apsp: SourceDistances column %d out of range 0..%d", j, d.cols-1))
	}
	if d.floats != nil {
		return FloatLength(d.floats[i*d.cols+j])
	}
	x := d.ints[i*d.cols+j]
	if x == NoPathInt {
		return Infinite(false)
	}
	return IntLength(x)
}

// Row writes the distances from Sources[i] into dst (reused when large
// enough) and returns dst[:Cols()].
func (d *SourceDistances) Row(i int, dst []Length) []Length {
	dst = rowBuf(dst, d.cols)
	for j := range dst {
		dst[j] = d.At(i, j)
	}
	return dst
}

// RowInt64 writes row i's exact distances into dst (reused as by Row)
// with unreachable for every missing path, and returns dst[:Cols()]. It
// panics on float distances and when i is not a row.
func (d *SourceDistances) RowInt64(i int, dst []int64, unreachable int64) []int64 {
	d.checkRow(i)
	if d.floats != nil {
		panic("apsp: SourceDistances.RowInt64 on float distances (Exact() is false)")
	}
	dst = rowBuf(dst, d.cols)
	for j, x := range d.ints[i*d.cols : (i+1)*d.cols] {
		if x == NoPathInt {
			x = unreachable
		}
		dst[j] = x
	}
	return dst
}

// RowFloat64 writes row i's distances into dst (reused as by Row) as
// float64, +Inf for a missing path, and returns dst[:Cols()]. It panics
// when i is not a row.
func (d *SourceDistances) RowFloat64(i int, dst []float64) []float64 {
	d.checkRow(i)
	dst = rowBuf(dst, d.cols)
	if d.floats != nil {
		copy(dst, d.floats[i*d.cols:(i+1)*d.cols])
		return dst
	}
	for j, x := range d.ints[i*d.cols : (i+1)*d.cols] {
		if x == NoPathInt {
			dst[j] = math.Inf(1)
		} else {
			dst[j] = float64(x)
		}
	}
	return dst
}

func (d *SourceDistances) checkRow(i int) {
	if uint(i) >= uint(len(d.Sources)) {
		panic(fmt.Sprintf("apsp: SourceDistances row %d out of range 0..%d", i, len(d.Sources)-1))
	}
}

func (d *SourceDistances) checkEveryColumn(what string) {
	if d.Targets != nil || d.cols != d.n {
		panic("apsp: SourceDistances." + what + " on a matrix of chosen columns")
	}
}
