// Package minplus provides the min-plus (tropical) matrix kernels behind the
// blocked Floyd–Warshall engine:
//
//	C[i][j] = min(C[i][j], min over k of A[i][k] + B[k][j])
//
// for int8, int16, int32, int64 and float64 tiles stored row-major inside
// larger matrices
// (hence the explicit row strides), plus the row relaxation
// dst[j] = min(dst[j], x + src[j]) used inside diagonal tiles.
//
// On amd64 the tile kernels are register blocked assembly: a block of C (4–6
// rows by 16–64 columns) is accumulated in vector registers over the whole k
// loop, each step broadcasting A[i][k] and adding it to a row of B, so every
// relaxation costs one vector add and one min, and C is read (prefetched
// early) and written once per block. AVX-512 or AVX2 is chosen once at start
// up from the CPU features (see Impl); other architectures, CPUs without AVX2
// and builds with the purego tag use portable Go.
//
// The int8 and int16 kernels (AVX-512BW, or AVX2) use plain signed byte and
// word adds and mins (VPADDB/VPMINSB, VPADDW/VPMINSW) under the same rule
// as int32: the lane kinds' infinities (63, 16383) leave room for the sum
// of two stored values. Their Int8Pre and Int16Pre forms take A expanded
// (ExpandInt8: each value repeated across an int32), since a byte or word
// broadcast from memory costs a shuffle besides the load (on the AVX-512
// Xeon this was measured on), where a 32-bit one is a plain load; the
// blocked engine expands each A tile once a round.
//
// The assembly covers the columns in multiples of 16 (int32) or 8 (int64,
// float64), 64 or 32 (int8, int16 on AVX-512BW); any leftover columns go
// through the Go code, so callers that
// want full speed pad tile widths to those multiples. Rows and depth may be
// anything.
//
// On a Zen 4 core the int32 kernel does about 16 relaxations per cycle on
// cache-resident tiles (the vector ALUs' limit), int64 about 8 and float64
// about 4 (adds and mins share two FP pipes). Callers get the most from it
// with W×W tiles of W = 64 to 256 (128 is a good default) and a row stride
// that is not a multiple of 4 KiB: with an odd number of 64-byte lines per
// row (ld ≡ 16 mod 32 for int32, ld ≡ 8 mod 16 for 64-bit types) rows do not
// compete for the same L1 sets. bench_test.go has the measurements.
//
// Arithmetic is plain: integer adds wrap and the caller keeps values small
// enough that A[i][k]+B[k][j] never overflows (an "infinity" such as
// 1<<30-1 for int32 works while finite values stay in a range whose sums do
// not exceed the type). Float64 inputs must not be NaN; +Inf is fine and
// propagates. A float candidate replaces C[i][j] only when strictly smaller,
// exactly like the reference loop, so the result is the same bit for bit on
// every implementation.
package minplus
