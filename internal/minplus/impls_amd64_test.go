//go:build amd64 && !purego

package minplus

// testImpls lists every implementation this CPU can run, so the tests and
// benchmarks exercise both assembly paths whatever Impl picked.
func testImpls() []testImpl {
	l := []testImpl{genericImpl(), apiImpl()}
	if hasAVX2 {
		l = append(l, testImpl{
			name: "avx2",
			i8: func(c []int8, ldc int, a []int8, lda int, b []int8, ldb int, rows, cols, depth int) {
				tileWith(int8AVX2, 32, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			i16: func(c []int16, ldc int, a []int16, lda int, b []int16, ldb int, rows, cols, depth int) {
				tileWith(int16AVX2, 16, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			p8: pre8(func(c []int8, ldc int, a []int32, lda int, b []int8, ldb int, rows, cols, depth int) {
				preWith(int8PreAVX2, 32, c, ldc, a, lda, b, ldb, rows, cols, depth)
			}),
			p16: pre16(func(c []int16, ldc int, a []int32, lda int, b []int16, ldb int, rows, cols, depth int) {
				preWith(int16PreAVX2, 16, c, ldc, a, lda, b, ldb, rows, cols, depth)
			}),
			r8:  func(dst, src []int8, x int8) { rowWith(relaxRowInt8AVX2, 32, dst, src[:len(dst)], x) },
			r16: func(dst, src []int16, x int16) { rowWith(relaxRowInt16AVX2, 16, dst, src[:len(dst)], x) },
			i32: func(c []int32, ldc int, a []int32, lda int, b []int32, ldb int, rows, cols, depth int) {
				tileWith(int32AVX2, 16, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			i64: func(c []int64, ldc int, a []int64, lda int, b []int64, ldb int, rows, cols, depth int) {
				tileWith(int64AVX2, 8, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			f64: func(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, rows, cols, depth int) {
				tileWith(float64AVX2, 8, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			r32: func(dst, src []int32, x int32) { rowWith(relaxRowInt32AVX2, 8, dst, src[:len(dst)], x) },
			r64: func(dst, src []int64, x int64) { rowWith(relaxRowInt64AVX2, 4, dst, src[:len(dst)], x) },
			rf64: func(dst, src []float64, x float64) {
				rowWith(relaxRowFloat64AVX2, 4, dst, src[:len(dst)], x)
			},
		})
	}
	if hasAVX512 {
		im := testImpl{
			name: "avx512",
			i32: func(c []int32, ldc int, a []int32, lda int, b []int32, ldb int, rows, cols, depth int) {
				tileWith(int32AVX512, 16, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			i64: func(c []int64, ldc int, a []int64, lda int, b []int64, ldb int, rows, cols, depth int) {
				tileWith(int64AVX512, 8, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			f64: func(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, rows, cols, depth int) {
				tileWith(float64AVX512, 8, c, ldc, a, lda, b, ldb, rows, cols, depth)
			},
			r32: func(dst, src []int32, x int32) { rowWith(relaxRowInt32AVX512, 16, dst, src[:len(dst)], x) },
			r64: func(dst, src []int64, x int64) { rowWith(relaxRowInt64AVX512, 8, dst, src[:len(dst)], x) },
			rf64: func(dst, src []float64, x float64) {
				rowWith(relaxRowFloat64AVX512, 8, dst, src[:len(dst)], x)
			},
		}
		// Byte and word lanes in ZMM need AVX-512BW; without it the
		// packed kinds fall back to the generic code here too.
		im.i8, im.i16, im.r8, im.r16 = mulGeneric[int8], mulGeneric[int16], relaxRowGeneric[int8], relaxRowGeneric[int16]
		im.p8, im.p16 = pre8(mulPre[int8]), pre16(mulPre[int16])
		if hasAVX512BW {
			im.i8 = func(c []int8, ldc int, a []int8, lda int, b []int8, ldb int, rows, cols, depth int) {
				tileWith(int8AVX512, 64, c, ldc, a, lda, b, ldb, rows, cols, depth)
			}
			im.i16 = func(c []int16, ldc int, a []int16, lda int, b []int16, ldb int, rows, cols, depth int) {
				tileWith(int16AVX512, 32, c, ldc, a, lda, b, ldb, rows, cols, depth)
			}
			im.p8 = pre8(func(c []int8, ldc int, a []int32, lda int, b []int8, ldb int, rows, cols, depth int) {
				preWith(int8PreAVX512, 64, c, ldc, a, lda, b, ldb, rows, cols, depth)
			})
			im.p16 = pre16(func(c []int16, ldc int, a []int32, lda int, b []int16, ldb int, rows, cols, depth int) {
				preWith(int16PreAVX512, 32, c, ldc, a, lda, b, ldb, rows, cols, depth)
			})
			im.r8 = func(dst, src []int8, x int8) { rowWith(relaxRowInt8AVX512, 64, dst, src[:len(dst)], x) }
			im.r16 = func(dst, src []int16, x int16) { rowWith(relaxRowInt16AVX512, 32, dst, src[:len(dst)], x) }
		}
		l = append(l, im)
	}
	return l
}

// rowWith runs row kernel k on the leading multiple-of-unit elements and
// the portable code on the rest; len(src) == len(dst).
func rowWith[T number](k func(dst, src *T, x T, n int), unit int, dst, src []T, x T) {
	n := len(dst) - len(dst)%unit
	if n > 0 {
		k(&dst[0], &src[0], x, n)
	}
	if n < len(dst) {
		relaxRowGeneric(dst[n:], src[n:], x)
	}
}
