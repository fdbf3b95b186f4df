package cpu

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
)

// Forwarding for callers not yet moved (issue 9); remove when none is left.
// Lane kinds, planning and the matrix live in internal/lanes, the thread
// helpers in internal/par.

type (
	Lane           = lanes.Lane
	LaneKind       = lanes.Kind
	Plan           = lanes.Plan
	Matrix[T Lane] = lanes.Matrix[T]
)

const (
	Int32   = lanes.Int32
	Int64   = lanes.Int64
	Float64 = lanes.Float64
	Inf32   = lanes.Inf32
	Inf64   = lanes.Inf64
	InfWide = lanes.InfWide
)

var (
	ErrWide            = lanes.ErrWide
	ErrWeightsTooLarge = lanes.ErrWeightsTooLarge
)

func PlanLanes(g *graph.Graph) (Plan, error)           { return lanes.PlanFor(g) }
func FloatLimit(n int) float64                         { return lanes.FloatLimit(n) }
func PadStride(size int, k LaneKind) int               { return lanes.PadStride(size, k) }
func MatrixBytes(size int, k LaneKind) (uint64, error) { return lanes.MatrixBytes(size, k) }
func InfOf[T Lane]() T                                 { return lanes.InfOf[T]() }
func Normalize[T Lane](m *Matrix[T], maxReal int64)    { lanes.Normalize(m, maxReal) }

func NewMatrix[T Lane](g *graph.Graph, size int) (*Matrix[T], error) {
	return lanes.NewMatrix[T](g, size)
}

func NewMatrixInf[T Lane](g *graph.Graph, size int, inf T) (*Matrix[T], error) {
	return lanes.NewMatrixInf(g, size, inf)
}

func Threads(t int) int                           { return par.Threads(t) }
func ParallelRows(n, threads int, fn func(i int)) { par.Rows(n, threads, fn) }

func ParallelRowsWith(n, threads int, newScratch func() any, fn func(i int, scratch any)) {
	par.RowsWith(n, threads, newScratch, fn)
}
