// Package reduce holds what one source contributes to the summary measures
// (eccentricity, reachable count, sum of distances), so that every engine —
// dense matrix or per-source traversal — reports the same thing and the
// root package turns it into Stats the same way.
package reduce

import (
	"math"
	"math/bits"
	"sync"
)

// Row is the summary of the distances from one source u to every v ≠ u.
type Row struct {
	Reach int64   // vertices v ≠ u with a path from u
	MaxI  int64   // largest finite distance (exact distances)
	MaxF  float64 // largest finite distance (float distances)
	Sum   Wide    // sum of finite distances (exact distances)
	SumF  float64 // sum of finite distances (float distances)
	// Harm is Σ 1/d over the finite distances d > 0 (harmonic
	// centrality's term); engines without Caps.Harmonic leave it 0.
	Harm    float64
	Unreach bool // some v ≠ u has no path from u
}

// AddInt records a finite exact distance d to some v ≠ u.
func (r *Row) AddInt(d int64) {
	if r.Reach == 0 || d > r.MaxI {
		r.MaxI = d
	}
	r.Reach++
	r.Sum.Add(d)
	if d > 0 {
		r.Harm += 1 / float64(d)
	}
}

// AddFloat records a finite float distance d to some v ≠ u.
func (r *Row) AddFloat(d float64) {
	if r.Reach == 0 || d > r.MaxF {
		r.MaxF = d
	}
	r.Reach++
	r.SumF += d
	if d > 0 {
		r.Harm += 1 / d
	}
}

// Wide is a signed 128-bit accumulator, so that the ASPL of exact distances
// comes from the exact total.
type Wide struct {
	hi int64
	lo uint64
}

// Add adds v.
func (w *Wide) Add(v int64) {
	lo, carry := bits.Add64(w.lo, uint64(v), 0)
	w.lo = lo
	w.hi += int64(carry) + v>>63
}

// AddProduct adds a·b exactly for non-negative a and b: their product may
// not fit an int64.
func (w *Wide) AddProduct(a, b int64) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	w.AddWide(Wide{hi: int64(hi), lo: lo}) // hi < 2⁶² as a, b < 2⁶³
}

// HistTotals returns what a histogram of exact distances counts: the
// ordered pairs (hist[d] at distance d; index 0, the pairs of a vertex
// with itself, is not counted) and their distances' total.
func HistTotals(hist []int64) (pairs int64, total Wide) {
	for d := 1; d < len(hist); d++ {
		pairs += hist[d]
		total.AddProduct(int64(d), hist[d])
	}
	return pairs, total
}

// AddWide adds x.
func (w *Wide) AddWide(x Wide) {
	lo, carry := bits.Add64(w.lo, x.lo, 0)
	w.lo = lo
	w.hi += x.hi + int64(carry)
}

// Float returns the sum as a float64. A negative sum is negated first:
// adding a large unsigned low word to a negative high word would cancel
// catastrophically in float64. (2⁶⁴ is a constant: math.Exp2(64) was a
// third of a closeness call's host time at 4 096 vertices.)
func (w Wide) Float() float64 {
	if w.hi < 0 {
		lo, borrow := bits.Sub64(0, w.lo, 0)
		hi := uint64(-w.hi) - borrow // two's complement of (hi, lo)
		return -(float64(hi)*0x1p64 + float64(lo))
	}
	return float64(w.hi)*0x1p64 + float64(w.lo)
}

// Same reports whether a and b summarise the same distances: every field
// equal, and Harm within a relative 1e-12 (a float sum whose order of
// addition differs between engines).
func Same(a, b Row) bool {
	ha, hb := a.Harm, b.Harm
	a.Harm, b.Harm = 0, 0
	return a == b && math.Abs(ha-hb) <= 1e-12*math.Max(1, math.Abs(hb))
}

// NewRows returns n rows for a producer that sets every one whole,
// reusing rows given back by ReleaseRows where they are enough: what a
// reused row held before is there until it is set. A GPU engine's rows of
// a 4 096-vertex graph took a fifth of a closeness call on the host when
// fresh (zeroed pages, then the collector).
func NewRows(n int) []Row {
	// Rows far larger than asked are left to the collector rather than
	// held by a small result.
	if p, _ := rowPool.Get().(*[]Row); p != nil && cap(*p) >= n && cap(*p) <= 2*n+64 {
		return (*p)[:n]
	}
	return make([]Row, n)
}

// ReleaseRows gives rows back for a later NewRows; they must not be used
// after.
func ReleaseRows(rows []Row) {
	if cap(rows) > 0 {
		rowPool.Put(&rows)
	}
}

// rowPool holds released rows (a sync.Pool: the collector empties it when
// calls stop). No result depends on it: NewRows's callers set every row.
var rowPool sync.Pool

// NoHarm returns r without Harm, as an engine without Caps.Harmonic
// gives it.
func (r Row) NoHarm() Row {
	r.Harm = 0
	return r
}
