package cpu

import (
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/minplus"
)

// kernelSet holds the two inner loops of the blocked engine.
type kernelSet[T lanes.Lane] struct {
	// minPlus sets C[i][j] = min(C[i][j], A[i][k] + B[k][j]) for a w×w tile.
	minPlus func(c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int)
	// relaxRow sets dst[j] = min(dst[j], x + src[j]).
	relaxRow func(dst, src []T, x T)
	// minPlusPre, when set, is minPlus with A expanded by expand (the
	// int8 and int16 kernels: minplus.Int8Pre).
	minPlusPre func(c []T, ldc int, a []int32, lda int, b []T, ldb int, rows, cols, depth int)
	expand     func(dst []int32, a []T, lda, rows, depth int)
}

// kernelsFor returns the vectorised kernels of internal/minplus for the
// lane types that have them (int8, int16, int32, int64, float64) and the scalar loops
// otherwise: the scalar ones are correct for every kind, since a kind's
// infinity leaves room for the sum of two stored values.
func kernelsFor[T lanes.Lane](choice KernelChoice) kernelSet[T] {
	scalar := kernelSet[T]{minPlus: scalarMinPlus[T], relaxRow: scalarRelaxRow[T]}
	if choice == ScalarKernels {
		return scalar
	}
	var z T
	switch any(z).(type) {
	case int8:
		return kernelSet[T]{
			minPlus:    any(minplus.Int8).(func([]T, int, []T, int, []T, int, int, int, int)),
			relaxRow:   any(minplus.RelaxRowInt8).(func([]T, []T, T)),
			minPlusPre: any(minplus.Int8Pre).(func([]T, int, []int32, int, []T, int, int, int, int)),
			expand:     any(minplus.ExpandInt8).(func([]int32, []T, int, int, int)),
		}
	case int16:
		return kernelSet[T]{
			minPlus:    any(minplus.Int16).(func([]T, int, []T, int, []T, int, int, int, int)),
			relaxRow:   any(minplus.RelaxRowInt16).(func([]T, []T, T)),
			minPlusPre: any(minplus.Int16Pre).(func([]T, int, []int32, int, []T, int, int, int, int)),
			expand:     any(minplus.ExpandInt16).(func([]int32, []T, int, int, int)),
		}
	case int32:
		return kernelSet[T]{
			minPlus:  any(minplus.Int32).(func([]T, int, []T, int, []T, int, int, int, int)),
			relaxRow: any(minplus.RelaxRowInt32).(func([]T, []T, T)),
		}
	case int64:
		return kernelSet[T]{
			minPlus:  any(minplus.Int64).(func([]T, int, []T, int, []T, int, int, int, int)),
			relaxRow: any(minplus.RelaxRowInt64).(func([]T, []T, T)),
		}
	case float64:
		return kernelSet[T]{
			minPlus:  any(minplus.Float64).(func([]T, int, []T, int, []T, int, int, int, int)),
			relaxRow: any(minplus.RelaxRowFloat64).(func([]T, []T, T)),
		}
	}
	return scalar
}

func scalarMinPlus[T lanes.Lane](c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int) {
	for i := 0; i < rows; i++ {
		ci := c[i*ldc : i*ldc+cols]
		for k := 0; k < depth; k++ {
			x := a[i*lda+k]
			bk := b[k*ldb : k*ldb+cols]
			for j, bv := range bk {
				ci[j] = min(ci[j], x+bv)
			}
		}
	}
}

func scalarRelaxRow[T lanes.Lane](dst, src []T, x T) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] = min(dst[j], x+v)
	}
}
