//go:build amd64 && !purego

package bfs

import "github.com/apsp/apsp/internal/cpufeat"

// The AVX2 pull needs AVX2 and POPCNT, the AVX-512 one AVX-512 F, DQ
// (KORTESTB) and VPOPCNTDQ besides; cpufeat has read them, with the OS's
// support for the registers, once at start-up.
var (
	hasAVX2   = cpufeat.AVX2 && cpufeat.POPCNT
	hasAVX512 = hasAVX2 && cpufeat.AVX512F && cpufeat.AVX512DQ && cpufeat.AVX512VPOPCNTDQ
)

// pull4AVX2 is batcher.pullRange for w = 4: for the vertices [lo, hi) it
// updates next and vis, writes the vertices that gained bits to list and
// their popcounts to cnts, and returns how many it wrote and how many of
// them are now covered. heads must be padded with prefetchPad entries.
// Arcs go in chunks of chunk (at least 1) with a check for a covered
// vertex between chunks.
//
//go:noescape
func pull4AVX2(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)

// pull8AVX512 is pull4AVX2 for w = 8.
//
//go:noescape
func pull8AVX512(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)

// pull2AVX is pull4AVX2 for w = 2, in XMM registers (AVX).
//
//go:noescape
func pull2AVX(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)

// pull1 is pull4AVX2 for w = 1, in general registers (POPCNT only).
//
//go:noescape
func pull1(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)

// first8AVX512 is pull8AVX512 for level 1, whose frontier is the
// sources first..first+511: it reads the heads, not cur (see
// batcher.pullFirst).
//
//go:noescape
func first8AVX512(vis, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, first int) (count, full int)

// firstAsm runs the assembly level 1 for b's w when the CPU has it; it
// reports false otherwise.
func firstAsm(b *batcher, lo, hi int, list, cnts []int32) (count, full int, ok bool) {
	if b.w != 8 || !hasAVX512 {
		return 0, 0, false
	}
	count, full = inSlices(lo, hi, list, cnts, func(from, to int, list, cnts *int32) (int, int) {
		return first8AVX512(&b.visited[0], &b.next[0], &b.csr.Off[0], &b.csr.Heads[0], from, to, list, cnts, b.first)
	})
	return count, full, true
}

// pullAsm runs the assembly pull for b's w when the CPU has it; it reports
// false otherwise.
func pullAsm(b *batcher, lo, hi int, list, cnts []int32) (count, full int, ok bool) {
	kernel := pull4AVX2
	switch {
	case b.w == 4 && hasAVX2:
	case b.w == 8 && hasAVX512:
		kernel = pull8AVX512
	case b.w == 2 && hasAVX2:
		kernel = pull2AVX
	case b.w == 1 && cpufeat.POPCNT:
		kernel = pull1
	default:
		return 0, 0, false
	}
	count, full = inSlices(lo, hi, list, cnts, func(from, to int, list, cnts *int32) (int, int) {
		return kernel(&b.visited[0], &b.cur[0], &b.next[0], &b.csr.Off[0], &b.csr.Heads[0], from, to, list, cnts, b.chunk)
	})
	return count, full, true
}

// inSlices runs kernel over the vertices [lo, hi), writing from list[0]
// and cnts[0] on, and adds up what it returns. Assembly cannot be
// preempted, so long ranges go in slices that keep each call well under a
// millisecond.
func inSlices(lo, hi int, list, cnts []int32, kernel func(from, to int, list, cnts *int32) (count, full int)) (count, full int) {
	if lo >= hi {
		return 0, 0
	}
	_, _ = list[hi-lo-1], cnts[hi-lo-1] // room for every vertex of the range
	const slice = 1 << 14
	for from := lo; from < hi; from += slice {
		c, f := kernel(from, min(from+slice, hi), &list[count], &cnts[count])
		count += c
		full += f
	}
	return count, full
}

// words is W, the uint64 words per vertex of a batch (64·W sources): one
// cache line with AVX-512, which BenchmarkBitRowsWords shows is faster than
// half a line, and the AVX2 kernel's four words otherwise.
func words() int {
	if hasAVX512 {
		return 8
	}
	return 4
}
