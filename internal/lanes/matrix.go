package lanes

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apsp/apsp/graph"
)

// Lane is the element type of a distance matrix: one Go type per Kind.
type Lane interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// Matrix is a dense distance matrix of N real vertices, padded to Size >= N
// (padding rows and columns are isolated vertices), stored row-major with a
// row stride of Stride >= Size. Inf marks "no path": InfOf[T]() or, for a
// wide int64 plan, InfWide.
type Matrix[T Lane] struct {
	N, Size, Stride int
	Data            []T
	Inf             T
}

// PadStride returns the row stride for rows of size lanes: at least size,
// and an odd number of 64-byte cache lines long, so that the rows of a tile
// do not all compete for the same L1 sets as power-of-two strides do. It
// panics on an invalid kind.
func PadStride(size int, kind Kind) int {
	if !kind.Valid() {
		panic(fmt.Sprintf("lanes.PadStride: invalid %v", kind))
	}
	per := 64 / kind.Bytes() // lanes in a cache line
	lines := (size + per - 1) / per
	if lines%2 == 0 {
		lines++
	}
	return lines * per
}

// MatrixBytes returns the bytes of a size×size matrix of the given kind
// with padded rows, or an error when the count overflows.
func MatrixBytes(size int, kind Kind) (uint64, error) {
	if !kind.Valid() {
		return 0, fmt.Errorf("lanes: a matrix of invalid %v", kind)
	}
	hi, cells := bits.Mul64(uint64(size), uint64(PadStride(size, kind)))
	hi2, b := bits.Mul64(cells, uint64(kind.Bytes()))
	if hi != 0 || hi2 != 0 || b > math.MaxInt64 {
		return 0, fmt.Errorf("a %d×%d distance matrix: %w", size, size, graph.ErrTooLarge)
	}
	return b, nil
}

// Row returns the first N entries of row i.
func (m *Matrix[T]) Row(i int) []T { return m.Data[i*m.Stride : i*m.Stride+m.N] }

// At returns the entry (i, j).
func (m *Matrix[T]) At(i, j int) T { return m.Data[i*m.Stride+j] }

// NewMatrix returns the initial distance matrix of g: 0 on the diagonal, the
// arc lengths, Inf elsewhere, padded to size (at least g.N()).
func NewMatrix[T Lane](g *graph.Graph, size int) (*Matrix[T], error) {
	return NewMatrixInf(g, size, InfOf[T]())
}

// NewMatrixInf is NewMatrix with the given infinity (InfWide for a wide
// plan). Like NewMatrix it converts weights to T unchecked — except that
// packed kinds (int8, int16) store a weight above inf as inf: plan first
// (PlanFor, Narrowest or Holds), or use New, which checks.
func NewMatrixInf[T Lane](g *graph.Graph, size int, inf T) (*Matrix[T], error) {
	n := g.N()
	size = max(size, n)
	kind := KindOf[T]()
	if _, err := MatrixBytes(size, kind); err != nil {
		return nil, err
	}
	stride := PadStride(size, kind)
	m := &Matrix[T]{N: n, Size: size, Stride: stride, Inf: inf}
	m.Data = make([]T, size*stride)
	for i := range m.Data {
		m.Data[i] = m.Inf
	}
	for i := 0; i < size; i++ {
		m.Data[i*stride+i] = 0
	}
	for u := 0; u < n; u++ {
		row := m.Data[u*stride:]
		switch g.Kind() {
		case graph.Unweighted:
			for _, v := range g.Neighbors(u) {
				row[v] = 1
			}
		case graph.IntWeights:
			ws := g.IntWeights(u)
			if kind.Packed() > 1 {
				// Packed lanes hold a weight above their infinity as
				// infinity (min(w, inf)): exact for non-negative weights
				// once the shortest distances fit (Plan.fitsPacked), and a
				// plain conversion would wrap it.
				top := int64(inf)
				for i, v := range g.Neighbors(u) {
					row[v] = T(min(ws[i], top))
				}
				continue
			}
			for i, v := range g.Neighbors(u) {
				row[v] = T(ws[i])
			}
		case graph.FloatWeights:
			ws := g.FloatWeights(u)
			for i, v := range g.Neighbors(u) {
				row[v] = T(ws[i])
			}
		}
	}
	return m, nil
}

// Normalize sets every integer entry above maxReal to Inf: with negative
// weights, Inf plus a negative length can be stored slightly below Inf, and
// PlanFor guarantees that such values stay above every real distance. It
// leaves float matrices and wide ones (Inf is InfWide) alone.
func Normalize[T Lane](m *Matrix[T], maxReal int64) {
	if KindOf[T]().IsFloat() || m.Inf != InfOf[T]() {
		return
	}
	limit := T(maxReal)
	for i := 0; i < m.N; i++ {
		row := m.Row(i)
		for j, d := range row {
			if d > limit {
				row[j] = m.Inf
			}
		}
	}
}
