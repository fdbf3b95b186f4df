package lanes

import (
	"fmt"
	"math"
	"slices"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/reduce"
)

// Any is a distance matrix of any kind, type-erased: what a Distances holds
// and what encoders stream. Every *Matrix[T] implements it. (The vertex
// count is Vertices, not N: Matrix's fields N, Size, Stride, Data and Inf
// take those names.)
type Any interface {
	// Kind returns the lane kind of the entries.
	Kind() Kind
	// Vertices returns the number of real vertices (Matrix.N).
	Vertices() int
	// Wide reports an int64 matrix whose infinity is InfWide.
	Wide() bool
	// IsInf reports that v cannot be reached from u.
	IsInf(u, v int) bool
	// Int returns the distance from u to v and whether v is reachable from
	// u; it is for integer kinds (float distances are truncated).
	Int(u, v int) (int64, bool)
	// Float returns the distance from u to v, +Inf when unreachable.
	Float(u, v int) float64
	// RowInt64 appends the distances from u to every vertex to dst, with
	// unreachable in place of infinity, and returns the extended slice
	// (float distances are truncated).
	RowInt64(u int, dst []int64, unreachable int64) []int64
	// RowFloat64 appends the distances from u to every vertex to dst, +Inf
	// where there is no path, and returns the extended slice.
	RowFloat64(u int, dst []float64) []float64
	// Rows returns the summary of every source's distances (exact sums for
	// integer kinds) on up to threads goroutines (par.Threads).
	Rows(threads int) []reduce.Row
}

var (
	_ Any = (*Matrix[int8])(nil)
	_ Any = (*Matrix[int16])(nil)
	_ Any = (*Matrix[int32])(nil)
	_ Any = (*Matrix[int64])(nil)
	_ Any = (*Matrix[float32])(nil)
	_ Any = (*Matrix[float64])(nil)
)

// New returns the initial distance matrix of g (NewMatrix) in lanes of the
// given kind, padded to size; wide (an int64 plan's Plan.Wide) makes its
// infinity InfWide. It is the one place that maps a Kind to its Go type.
// Unlike NewMatrix it refuses weights the kind cannot hold: float weights
// in integer lanes, integer weights beyond the kind's infinity (or, when
// wide, negative ones), float weights that would overflow float32. That
// the kind holds every path length is the plan's business (Holds).
func New(kind Kind, g *graph.Graph, size int, wide bool) (Any, error) {
	if err := checkWeights(kind, g, wide); err != nil {
		return nil, err
	}
	switch kind {
	case Int8:
		return newAny[int8](g, size, wide)
	case Int16:
		return newAny[int16](g, size, wide)
	case Int32:
		return newAny[int32](g, size, wide)
	case Int64:
		return newAny[int64](g, size, wide)
	case Float32:
		return newAny[float32](g, size, wide)
	case Float64:
		return newAny[float64](g, size, wide)
	}
	return nil, fmt.Errorf("lanes: a matrix of invalid %v", kind)
}

func checkWeights(kind Kind, g *graph.Graph, wide bool) error {
	switch {
	case !kind.Valid():
		return fmt.Errorf("lanes: a matrix of invalid %v", kind)
	case wide && kind != Int64:
		return fmt.Errorf("lanes: a wide plan needs int64 lanes, not %v", kind)
	case g.Arcs() == 0:
		return nil
	case g.Kind() == graph.FloatWeights && !kind.IsFloat():
		return fmt.Errorf("%w: float weights in %s lanes", ErrNoKind, kind)
	case g.Kind() == graph.FloatWeights:
		lo, hi := g.FloatWeightRange()
		if top := math.Max(-lo, hi); !(top <= kind.props().max) {
			return fmt.Errorf("%w: weight magnitude %g overflows %s lanes", ErrWeightsTooLarge, top, kind)
		}
	case kind.IsFloat():
		// Integer weights round to the nearest float: Holds says when
		// every distance stays exact.
	default:
		lo, hi := g.IntWeightRange()
		switch inf := kind.InfInt(); {
		case wide && lo < 0:
			return fmt.Errorf("lanes: a wide plan with a negative weight %d", lo)
		case kind.Packed() > 1 && lo < 0:
			return fmt.Errorf("%w: negative weights in %s lanes (the packed lanes take non-negative weights only)", ErrNoKind, kind)
		case kind.Packed() > 1:
			// A weight above inf is stored as inf (NewMatrixInf), which
			// is exact for non-negative weights; the plan bounds the
			// distances.
		case !wide && (hi >= inf || lo <= -inf):
			return fmt.Errorf("%w: weights %d..%d in %s lanes (infinity %d)", ErrWeightsTooLarge, lo, hi, kind, inf)
		}
	}
	return nil
}

func newAny[T Lane](g *graph.Graph, size int, wide bool) (Any, error) {
	inf := InfOf[T]()
	if wide {
		w := InfWide
		inf = T(w)
	}
	m, err := NewMatrixInf(g, size, inf)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return m, nil
}

// Kind returns the lane kind of T.
func (m *Matrix[T]) Kind() Kind { return KindOf[T]() }

// Vertices returns N.
func (m *Matrix[T]) Vertices() int { return m.N }

// Wide reports an int64 matrix whose infinity is InfWide.
func (m *Matrix[T]) Wide() bool {
	if m.Kind() != Int64 {
		return false
	}
	return int64(m.Inf) == InfWide
}

// IsInf reports that v cannot be reached from u.
func (m *Matrix[T]) IsInf(u, v int) bool { return m.At(u, v) == m.Inf }

// Int returns the distance from u to v and whether v is reachable.
func (m *Matrix[T]) Int(u, v int) (int64, bool) {
	x := m.At(u, v)
	if x == m.Inf {
		return 0, false
	}
	return int64(x), true
}

// Float returns the distance from u to v, +Inf when unreachable.
func (m *Matrix[T]) Float(u, v int) float64 {
	x := m.At(u, v)
	if x == m.Inf {
		return math.Inf(1)
	}
	return float64(x)
}

// RowInt64 appends row u to dst, unreachable in place of infinity.
func (m *Matrix[T]) RowInt64(u int, dst []int64, unreachable int64) []int64 {
	row := m.Row(u)
	dst = slices.Grow(dst, len(row))
	for _, x := range row {
		if x == m.Inf {
			dst = append(dst, unreachable)
		} else {
			dst = append(dst, int64(x))
		}
	}
	return dst
}

// RowFloat64 appends row u to dst, +Inf in place of infinity.
func (m *Matrix[T]) RowFloat64(u int, dst []float64) []float64 {
	row := m.Row(u)
	dst = slices.Grow(dst, len(row))
	inf := math.Inf(1)
	for _, x := range row {
		if x == m.Inf {
			dst = append(dst, inf)
		} else {
			dst = append(dst, float64(x))
		}
	}
	return dst
}

// Rows returns the summary of every source's distances: exact for integer
// kinds, float sums for float kinds.
func (m *Matrix[T]) Rows(threads int) []reduce.Row {
	exact := !m.Kind().IsFloat()
	rows := make([]reduce.Row, m.N)
	par.Rows(m.N, threads, func(u int) {
		var r reduce.Row
		for v, x := range m.Row(u) {
			switch {
			case v == u:
			case x == m.Inf:
				r.Unreach = true
			case exact:
				r.AddInt(int64(x))
			default:
				r.AddFloat(float64(x))
			}
		}
		rows[u] = r
	})
	return rows
}
