//go:build !amd64 || purego

package minplus

const impl = "generic"

func int32Arch(c []int32, ldc int, a []int32, lda int, b []int32, ldb int, rows, cols, depth int) {
	mulGeneric(c, ldc, a, lda, b, ldb, rows, cols, depth)
}

func int64Arch(c []int64, ldc int, a []int64, lda int, b []int64, ldb int, rows, cols, depth int) {
	mulGeneric(c, ldc, a, lda, b, ldb, rows, cols, depth)
}

func float64Arch(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, rows, cols, depth int) {
	mulGeneric(c, ldc, a, lda, b, ldb, rows, cols, depth)
}

func relaxRowInt32Arch(dst, src []int32, x int32)       { relaxRowGeneric(dst, src, x) }
func relaxRowInt64Arch(dst, src []int64, x int64)       { relaxRowGeneric(dst, src, x) }
func relaxRowFloat64Arch(dst, src []float64, x float64) { relaxRowGeneric(dst, src, x) }

func int16Arch(c []int16, ldc int, a []int16, lda int, b []int16, ldb int, rows, cols, depth int) {
	mulGeneric(c, ldc, a, lda, b, ldb, rows, cols, depth)
}

func int8Arch(c []int8, ldc int, a []int8, lda int, b []int8, ldb int, rows, cols, depth int) {
	mulGeneric(c, ldc, a, lda, b, ldb, rows, cols, depth)
}

func relaxRowInt16Arch(dst, src []int16, x int16) { relaxRowGeneric(dst, src, x) }
func relaxRowInt8Arch(dst, src []int8, x int8)    { relaxRowGeneric(dst, src, x) }

func int16PreArch(c []int16, ldc int, a []int32, lda int, b []int16, ldb int, rows, cols, depth int) {
	mulPre(c, ldc, a, lda, b, ldb, rows, cols, depth)
}

func int8PreArch(c []int8, ldc int, a []int32, lda int, b []int8, ldb int, rows, cols, depth int) {
	mulPre(c, ldc, a, lda, b, ldb, rows, cols, depth)
}
