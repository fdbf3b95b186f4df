package result

import "math"

// NoPathInt marks a missing path in SourceDistances' exact rows: no real
// distance is MinInt64 (the plans keep them above half of int64's range).
const NoPathInt = math.MinInt64

// SourceDistances is an origin–destination matrix: the distances from each
// of some sources to every vertex, row i for Sources[i].
type SourceDistances struct {
	Sources []int
	n       int
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
	return &SourceDistances{Sources: sources, n: n, ints: ints, floats: floats}
}

// N is the number of vertices, the length of a row.
func (d *SourceDistances) N() int { return d.n }

// Exact reports whether the distances are exact integers.
func (d *SourceDistances) Exact() bool { return d.floats == nil }

// At is the distance from Sources[i] to v.
func (d *SourceDistances) At(i, v int) Length {
	if d.floats != nil {
		return FloatLength(d.floats[i*d.n+v])
	}
	x := d.ints[i*d.n+v]
	if x == NoPathInt {
		return Infinite(false)
	}
	return IntLength(x)
}

// Row writes the distances from Sources[i] into dst (reused when large
// enough) and returns dst[:N()].
func (d *SourceDistances) Row(i int, dst []Length) []Length {
	dst = rowBuf(dst, d.n)
	for v := range dst {
		dst[v] = d.At(i, v)
	}
	return dst
}
