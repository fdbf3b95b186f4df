package cpu

import "github.com/apsp/apsp/internal/minplus"

// kernelSet holds the two inner loops of the blocked engine.
type kernelSet[T Lane] struct {
	// minPlus sets C[i][j] = min(C[i][j], A[i][k] + B[k][j]) for a w×w tile.
	minPlus func(c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int)
	// relaxRow sets dst[j] = min(dst[j], x + src[j]).
	relaxRow func(dst, src []T, x T)
}

func kernelsFor[T Lane](choice KernelChoice) kernelSet[T] {
	if choice == ScalarKernels {
		return kernelSet[T]{minPlus: scalarMinPlus[T], relaxRow: scalarRelaxRow[T]}
	}
	var mp func(c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int)
	var rr func(dst, src []T, x T)
	var z T
	switch any(z).(type) {
	case int32:
		mp = any(minplus.Int32).(func([]T, int, []T, int, []T, int, int, int, int))
		rr = any(minplus.RelaxRowInt32).(func([]T, []T, T))
	case int64:
		mp = any(minplus.Int64).(func([]T, int, []T, int, []T, int, int, int, int))
		rr = any(minplus.RelaxRowInt64).(func([]T, []T, T))
	default:
		mp = any(minplus.Float64).(func([]T, int, []T, int, []T, int, int, int, int))
		rr = any(minplus.RelaxRowFloat64).(func([]T, []T, T))
	}
	return kernelSet[T]{minPlus: mp, relaxRow: rr}
}

func scalarMinPlus[T Lane](c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int) {
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

func scalarRelaxRow[T Lane](dst, src []T, x T) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] = min(dst[j], x+v)
	}
}
