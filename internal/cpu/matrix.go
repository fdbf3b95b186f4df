package cpu

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/apsp/apsp/graph"
)

// Lane is the element type of a distance matrix.
type Lane interface {
	~int32 | ~int64 | ~float64
}

// LaneKind names a lane type.
type LaneKind int

const (
	Int32 LaneKind = iota
	Int64
	Float64
)

func (k LaneKind) String() string {
	switch k {
	case Int32:
		return "int32"
	case Int64:
		return "int64"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("LaneKind(%d)", int(k))
}

// Bytes returns the size of one lane.
func (k LaneKind) Bytes() int {
	if k == Int32 {
		return 4
	}
	return 8
}

// Infinity values of the integer lanes: half the range, so that the sum of two
// stored values never overflows.
const (
	Inf32 int32 = 1<<30 - 1
	Inf64 int64 = 1<<62 - 1
	// InfWide is the infinity of wide int64 plans (Plan.Wide): the one
	// value no distance takes when weights are non-negative, leaving
	// 0..MaxInt64 to real distances. It is the smallest value, so code that
	// treats infinity as the largest must test for it by equality.
	InfWide int64 = math.MinInt64
)

// ErrWide is wrapped by engines that cannot take a wide plan (Plan.Wide):
// their arithmetic could overflow beyond half of int64's range.
var ErrWide = errors.New("path lengths need all of int64's range, which only the fw and dijkstra engines handle")

// ErrWeightsTooLarge is returned when integer path lengths could exceed what
// 64-bit lanes represent exactly, or when float path lengths (or the sums
// the measures take over them) could leave float64's finite range, where an
// overflowed length would read as +Inf, "no path".
var ErrWeightsTooLarge = errors.New("weights too large")

// Plan says which lanes hold a graph's distances and the bounds that make
// them safe.
type Plan struct {
	Lanes LaneKind
	// MaxReal and MinReal bound every real (finite) integer distance; any
	// value above MaxReal after a run comes from infinity.
	MaxReal, MinReal int64
	// Negative reports negative arcs, which need the negative-cycle check and
	// Normalize after the run.
	Negative bool
	// Wide reports int64 distances that need all of int64's positive range
	// (non-negative weights whose path lengths reach Inf64 or beyond):
	// infinity is then InfWide and only engines whose sums are simple
	// paths' lengths or guarded against overflow can run.
	Wide bool
	// MaxAbsFloat bounds |length| of every simple path of a float graph
	// (rounded up generously); 0 for integer graphs.
	MaxAbsFloat float64
}

// FloatLimit is the largest MaxAbsFloat PlanLanes accepts for a graph of n
// vertices: every path length, every sum of two (Floyd–Warshall's candidate
// walks) and the sum of all n(n−1) distances (the ASPL's numerator) then
// stay below half of math.MaxFloat64, far from overflow whatever the
// rounding (relative error at most n²·2⁻⁵³ per sum).
func FloatLimit(n int) float64 {
	pairs := math.Max(1, float64(n)*float64(n-1))
	return math.MaxFloat64 / 2 / pairs
}

// PlanLanes chooses the narrowest exact lanes for g: int32 when every path
// length provably fits, else int64, else an error; float64 for float weights.
func PlanLanes(g *graph.Graph) (Plan, error) {
	if g.Kind() == graph.FloatWeights {
		return planFloat(g)
	}
	n := uint64(max(g.N()-1, 0))
	var sumPos, sumNeg uint64 // saturating
	var maxPos, maxNeg uint64
	lo, hi := g.IntWeightRange()
	if hi > 0 {
		maxPos = uint64(hi)
	}
	if lo < 0 {
		maxNeg = uint64(-(lo + 1)) + 1 // safe for MinInt64
	}
	if g.Kind() == graph.Unweighted {
		sumPos = uint64(g.Arcs())
	} else {
		for u := 0; u < g.N(); u++ {
			for _, w := range g.IntWeights(u) {
				if w > 0 {
					sumPos = satAdd(sumPos, uint64(w))
				} else if w < 0 {
					sumNeg = satAdd(sumNeg, uint64(-(w+1))+1)
				}
			}
		}
	}
	if !g.Directed() {
		// Each undirected edge is stored twice but a simple path uses it
		// once; a saturated sum stays saturated (halving it would bound
		// nothing).
		if sumPos != math.MaxUint64 {
			sumPos /= 2
		}
		if sumNeg != math.MaxUint64 {
			sumNeg /= 2
		}
	}
	maxReal := min(satMul(n, maxPos), sumPos)
	minReal := min(satMul(n, maxNeg), sumNeg)
	span := satAdd(maxReal, minReal)
	p := Plan{Negative: minReal > 0 || hasNegLoop(g)}
	switch {
	case span < uint64(Inf32):
		p.Lanes = Int32
	case span < uint64(Inf64):
		p.Lanes = Int64
	case minReal == 0 && maxReal <= math.MaxInt64:
		p.Lanes, p.Wide = Int64, true
	default:
		return Plan{}, fmt.Errorf("%w: integer path lengths may span %s..%s, beyond exact 64-bit distances", ErrWeightsTooLarge, fmtNeg(minReal), fmtSat(maxReal))
	}
	p.MaxReal, p.MinReal = int64(maxReal), -int64(minReal)
	return p, nil
}

// planFloat bounds every simple path's |length| by the smaller of (n−1)
// times the largest |weight| and the sum of all |weights| (each undirected
// edge once), and refuses the graph when that bound exceeds FloatLimit: an
// overflowed sum would be +Inf, indistinguishable from "no path".
func planFloat(g *graph.Graph) (Plan, error) {
	var sum, most float64
	for u := 0; u < g.N(); u++ {
		for _, w := range g.FloatWeights(u) {
			a := math.Abs(w)
			sum += a
			most = math.Max(most, a)
		}
	}
	if !g.Directed() {
		sum /= 2
	}
	// The float sum above may round down by at most m·2⁻⁵³ relative; the
	// factor 1+2⁻²⁰ covers any arc count below 2³³.
	bound := math.Min(float64(max(g.N()-1, 0))*most, sum) * (1 + 1.0/(1<<20))
	lo, _ := g.FloatWeightRange()
	p := Plan{Lanes: Float64, Negative: lo < 0 || hasNegLoop(g), MaxAbsFloat: bound}
	if limit := FloatLimit(g.N()); !(bound <= limit) {
		reach := fmt.Sprintf("%.3g", bound)
		if math.IsInf(bound, 1) {
			reach = "beyond 1.8e308"
		}
		return Plan{}, fmt.Errorf("%w: float path lengths may reach %s, but with %d vertices every length must stay below %.3g so that no sum overflows float64 (scale the weights down)",
			ErrWeightsTooLarge, reach, g.N(), limit)
	}
	return p, nil
}

func hasNegLoop(g *graph.Graph) bool { _, ok := g.NegativeSelfLoop(); return ok }

func satAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return math.MaxUint64
	}
	return s
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func fmtSat(x uint64) string {
	if x == math.MaxUint64 {
		return "beyond 2^64"
	}
	return fmt.Sprint(x)
}

func fmtNeg(x uint64) string {
	if x == 0 {
		return "0"
	}
	return "-" + fmtSat(x)
}

// Matrix is a dense distance matrix of N real vertices, padded to Size >= N
// (padding rows and columns are isolated vertices), stored row-major with a
// row stride of Stride >= Size.
type Matrix[T Lane] struct {
	N, Size, Stride int
	Data            []T
	Inf             T
}

// PadStride returns the row stride for rows of size lanes: at least size,
// and an odd number of 64-byte cache lines long, so that the rows of a tile
// do not all compete for the same L1 sets as power-of-two strides do.
func PadStride(size int, lanes LaneKind) int {
	per := 64 / lanes.Bytes() // lanes in a cache line
	lines := (size + per - 1) / per
	if lines%2 == 0 {
		lines++
	}
	return lines * per
}

// InfOf returns the infinity of lane type T.
func InfOf[T Lane]() T {
	var z T
	switch any(z).(type) {
	case int32:
		inf := Inf32
		return T(inf)
	case int64:
		inf := Inf64
		return T(inf)
	}
	return T(math.Inf(1))
}

// Row returns the first N entries of row i.
func (m *Matrix[T]) Row(i int) []T { return m.Data[i*m.Stride : i*m.Stride+m.N] }

// At returns the entry (i, j).
func (m *Matrix[T]) At(i, j int) T { return m.Data[i*m.Stride+j] }

// MatrixBytes returns the bytes of a size×size matrix of the given lanes
// with padded rows, or an error when the count overflows.
func MatrixBytes(size int, lanes LaneKind) (uint64, error) {
	hi, cells := bits.Mul64(uint64(size), uint64(PadStride(size, lanes)))
	hi2, b := bits.Mul64(cells, uint64(lanes.Bytes()))
	if hi != 0 || hi2 != 0 || b > math.MaxInt64 {
		return 0, fmt.Errorf("a %d×%d distance matrix: %w", size, size, graph.ErrTooLarge)
	}
	return b, nil
}

// NewMatrix returns the initial distance matrix of g: 0 on the diagonal, the
// arc lengths, Inf elsewhere, padded to size (at least g.N()).
func NewMatrix[T Lane](g *graph.Graph, size int) (*Matrix[T], error) {
	return NewMatrixInf(g, size, InfOf[T]())
}

// NewMatrixInf is NewMatrix with the given infinity (InfWide for a wide
// plan).
func NewMatrixInf[T Lane](g *graph.Graph, size int, inf T) (*Matrix[T], error) {
	n := g.N()
	size = max(size, n)
	var z T
	var lanes LaneKind
	switch any(z).(type) {
	case int32:
		lanes = Int32
	case int64:
		lanes = Int64
	default:
		lanes = Float64
	}
	if _, err := MatrixBytes(size, lanes); err != nil {
		return nil, err
	}
	stride := PadStride(size, lanes)
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
// PlanLanes guarantees that such values stay above every real distance.
func Normalize[T Lane](m *Matrix[T], maxReal int64) {
	if m.Inf != InfOf[T]() || isFloat[T]() {
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

func isFloat[T Lane]() bool {
	var z T
	_, ok := any(z).(float64)
	return ok
}
