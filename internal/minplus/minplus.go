package minplus

// The assembly is generated here, with no build constraint, so that go
// generate writes the same minplus_amd64.s on every machine, whatever its
// architecture, build tags or CPU: the generator reads nothing but its own
// source and MINPLUS_CFG, an override of the register blocks for
// experiments that CI unsets (.ci/run checks that the committed file is the
// generator's output).
//
//go:generate go run gen_amd64.go

// Int32 updates C (rows×cols, row stride ldc) as
// C[i][j] = min(C[i][j], min over k<depth of A[i][k] + B[k][j]),
// where A is rows×depth with stride lda and B is depth×cols with stride ldb.
// C must not overlap A or B. Strides must be at least the row lengths and the
// slices long enough for the shape, or Int32 panics; empty shapes do nothing.
// Full speed needs cols to be a multiple of 16.
func Int32(c []int32, ldc int, a []int32, lda int, b []int32, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		int32Arch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// Int64 is Int32 for int64 values. Full speed needs cols to be a multiple of 8.
func Int64(c []int64, ldc int, a []int64, lda int, b []int64, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		int64Arch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// Int16 is Int32 for int16 values. Full speed needs cols to be a multiple
// of 32 (AVX-512BW) or 16 (AVX2).
func Int16(c []int16, ldc int, a []int16, lda int, b []int16, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		int16Arch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// Int8 is Int32 for int8 values. Full speed needs cols to be a multiple of
// 64 (AVX-512BW) or 32 (AVX2).
func Int8(c []int8, ldc int, a []int8, lda int, b []int8, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		int8Arch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// ExpandInt8 writes the rows×depth operand A (row stride lda) to dst (row
// stride depth) with each value repeated in the four bytes of an int32:
// the A operand of Int8Pre. dst must hold rows·depth values.
func ExpandInt8(dst []int32, a []int8, lda, rows, depth int) {
	for i := 0; i < rows; i++ {
		d := dst[i*depth : (i+1)*depth]
		for k, x := range a[i*lda : i*lda+depth] {
			d[k] = int32(uint32(uint8(x)) * 0x01010101)
		}
	}
}

// ExpandInt16 is ExpandInt8 for int16 values, each repeated in both halves
// of an int32: the A operand of Int16Pre.
func ExpandInt16(dst []int32, a []int16, lda, rows, depth int) {
	for i := 0; i < rows; i++ {
		d := dst[i*depth : (i+1)*depth]
		for k, x := range a[i*lda : i*lda+depth] {
			d[k] = int32(uint32(uint16(x)) * 0x00010001)
		}
	}
}

// Int8Pre is Int8 with A expanded by ExpandInt8 (lda counts int32s). Its
// kernel fills a vector with A[i][k] by one 32-bit broadcast load where
// Int8's needs a byte broadcast, which costs a shuffle too: the blocked
// engine expands each A tile once and uses it for a whole row of tiles.
func Int8Pre(c []int8, ldc int, a []int32, lda int, b []int8, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		int8PreArch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// Int16Pre is Int16 with A expanded by ExpandInt16.
func Int16Pre(c []int16, ldc int, a []int32, lda int, b []int16, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		int16PreArch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// Float64 is Int32 for float64 values (no NaN; +Inf allowed). A candidate
// replaces C[i][j] only when strictly smaller. Full speed needs cols to be a
// multiple of 8.
func Float64(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, rows, cols, depth int) {
	if checkShape(len(c), ldc, len(a), lda, len(b), ldb, rows, cols, depth) {
		float64Arch(c, ldc, a, lda, b, ldb, rows, cols, depth)
	}
}

// RelaxRowInt32 sets dst[j] = min(dst[j], x + src[j]) for j < len(dst).
// src must be at least as long as dst; dst and src may be the same slice.
func RelaxRowInt32(dst, src []int32, x int32) {
	relaxRowInt32Arch(dst, src[:len(dst)], x)
}

// RelaxRowInt64 is RelaxRowInt32 for int64 values.
func RelaxRowInt64(dst, src []int64, x int64) {
	relaxRowInt64Arch(dst, src[:len(dst)], x)
}

// RelaxRowInt16 is RelaxRowInt32 for int16 values.
func RelaxRowInt16(dst, src []int16, x int16) {
	relaxRowInt16Arch(dst, src[:len(dst)], x)
}

// RelaxRowInt8 is RelaxRowInt32 for int8 values.
func RelaxRowInt8(dst, src []int8, x int8) {
	relaxRowInt8Arch(dst, src[:len(dst)], x)
}

// RelaxRowFloat64 is RelaxRowInt32 for float64 values; dst[j] changes only
// when x + src[j] is strictly smaller.
func RelaxRowFloat64(dst, src []float64, x float64) {
	relaxRowFloat64Arch(dst, src[:len(dst)], x)
}

// Impl names the implementation in use: "avx512", "avx2" or "generic".
func Impl() string { return impl }

// checkShape reports whether there is work to do and panics when the slices
// cannot hold the shape: the assembly does no bounds checking of its own, so
// this is what keeps a caller's mistake from becoming memory corruption.
func checkShape(lc, ldc, la, lda, lb, ldb, rows, cols, depth int) bool {
	if rows <= 0 || cols <= 0 || depth <= 0 {
		return false
	}
	if ldc < cols || lda < depth || ldb < cols ||
		lc < (rows-1)*ldc+cols || la < (rows-1)*lda+depth || lb < (depth-1)*ldb+cols {
		panic("minplus: slice too short or stride too small for the shape")
	}
	return true
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float64
}

// mulGeneric is the portable tile kernel. It walks k four at a time so each
// C element is loaded and stored once per four relaxations.
func mulGeneric[T number](c []T, ldc int, a []T, lda int, b []T, ldb int, rows, cols, depth int) {
	for i := 0; i < rows; i++ {
		cr := c[i*ldc : i*ldc+cols]
		ar := a[i*lda : i*lda+depth]
		k := 0
		for ; k+4 <= depth; k += 4 {
			x0, x1, x2, x3 := ar[k], ar[k+1], ar[k+2], ar[k+3]
			b0 := b[k*ldb : k*ldb+cols]
			b1 := b[(k+1)*ldb : (k+1)*ldb+cols]
			b2 := b[(k+2)*ldb : (k+2)*ldb+cols]
			b3 := b[(k+3)*ldb : (k+3)*ldb+cols]
			for j := range cr {
				v := cr[j]
				if s := x0 + b0[j]; s < v {
					v = s
				}
				if s := x1 + b1[j]; s < v {
					v = s
				}
				if s := x2 + b2[j]; s < v {
					v = s
				}
				if s := x3 + b3[j]; s < v {
					v = s
				}
				cr[j] = v
			}
		}
		for ; k < depth; k++ {
			relaxRowGeneric(cr, b[k*ldb:k*ldb+cols], ar[k])
		}
	}
}

func relaxRowGeneric[T number](dst, src []T, x T) {
	src = src[:len(dst)]
	for j, s := range src {
		if s += x; s < dst[j] {
			dst[j] = s
		}
	}
}

// mulPre is mulGeneric for an expanded A (ExpandInt8, ExpandInt16): the
// low lane of each int32 is the value.
func mulPre[T ~int8 | ~int16](c []T, ldc int, a []int32, lda int, b []T, ldb int, rows, cols, depth int) {
	for i := 0; i < rows; i++ {
		cr := c[i*ldc : i*ldc+cols]
		for k, x := range a[i*lda : i*lda+depth] {
			relaxRowGeneric(cr, b[k*ldb:k*ldb+cols], T(x))
		}
	}
}
