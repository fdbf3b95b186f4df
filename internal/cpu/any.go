package cpu

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/internal/lanes"
)

// The erased entry points: where the engines' type-erased matrices
// (lanes.Any) meet the kernels, each instantiated for the lanes it has.

// FloydWarshallAny runs FloydWarshall on m and, when paths, returns the
// successor matrix it keeps (with m's row stride, returned too).
func FloydWarshallAny(ctx context.Context, m lanes.Any, paths bool, progress func(float64)) ([]int32, int, error) {
	switch mm := m.(type) {
	case *lanes.Matrix[int8]:
		return floydWarshall(ctx, mm, paths, progress)
	case *lanes.Matrix[int16]:
		return floydWarshall(ctx, mm, paths, progress)
	case *lanes.Matrix[int32]:
		return floydWarshall(ctx, mm, paths, progress)
	case *lanes.Matrix[int64]:
		return floydWarshall(ctx, mm, paths, progress)
	case *lanes.Matrix[float64]:
		return floydWarshall(ctx, mm, paths, progress)
	}
	return nil, 0, fmt.Errorf("fw: no kernel for %v lanes", m.Kind())
}

func floydWarshall[T lanes.Lane](ctx context.Context, m *lanes.Matrix[T], paths bool, progress func(float64)) ([]int32, int, error) {
	var next []int32
	if paths {
		next = NewSuccessors(m)
	}
	return next, m.Stride, FloydWarshall(ctx, m, next, progress)
}

// BlockedAny runs Blocked on m.
func BlockedAny(ctx context.Context, m lanes.Any, opt BlockedOptions) error {
	switch mm := m.(type) {
	case *lanes.Matrix[int8]:
		return Blocked(ctx, mm, opt)
	case *lanes.Matrix[int16]:
		return Blocked(ctx, mm, opt)
	case *lanes.Matrix[int32]:
		return Blocked(ctx, mm, opt)
	case *lanes.Matrix[int64]:
		return Blocked(ctx, mm, opt)
	case *lanes.Matrix[float64]:
		return Blocked(ctx, mm, opt)
	}
	return fmt.Errorf("blocked: no kernels for %v lanes", m.Kind())
}

// NormalizeAny is lanes.Normalize on an erased matrix.
func NormalizeAny(m lanes.Any, maxReal int64) {
	switch mm := m.(type) {
	case *lanes.Matrix[int8]:
		lanes.Normalize(mm, maxReal)
	case *lanes.Matrix[int16]:
		lanes.Normalize(mm, maxReal)
	case *lanes.Matrix[int32]:
		lanes.Normalize(mm, maxReal)
	case *lanes.Matrix[int64]:
		lanes.Normalize(mm, maxReal)
	}
}
