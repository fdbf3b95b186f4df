//go:build amd64 && !purego

package bfs

// The CPU features are read once at start-up and never change: the AVX2
// pull needs AVX2 and POPCNT, the AVX-512 one AVX-512 F, DQ (KORTESTB) and
// VPOPCNTDQ, each with the OS saving the registers.
var hasAVX2, hasAVX512 = detect()

func detect() (avx2, avx512 bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, popcnt = 1 << 27, 1 << 23
	if c1&osxsave == 0 || c1&popcnt == 0 {
		return false, false
	}
	xcr0 := xgetbv()
	_, b7, c7, _ := cpuid(7, 0)
	const ymmState, zmmState = 0x6, 0xe6 // XMM|YMM; plus opmask and ZMM
	const avx2Bit, avx512F, avx512DQ, vpopcntdq = 1 << 5, 1 << 16, 1 << 17, 1 << 14
	avx2 = xcr0&ymmState == ymmState && b7&avx2Bit != 0
	avx512 = avx2 && xcr0&zmmState == zmmState && b7&avx512F != 0 && b7&avx512DQ != 0 && c7&vpopcntdq != 0
	return avx2, avx512
}

func cpuid(leaf, sub uint32) (a, b, c, d uint32)

func xgetbv() (lo uint32)

// pull4AVX2 is batcher.pullRange for w = 4: for the vertices [lo, hi) it
// updates next and vis, writes the vertices that gained bits to list and
// their popcounts to cnts, and returns how many it wrote and how many of
// them are now covered. heads must be padded with prefetchPad entries.
//
//go:noescape
func pull4AVX2(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32) (count, full int)

// pull8AVX512 is pull4AVX2 for w = 8.
//
//go:noescape
func pull8AVX512(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32) (count, full int)

// pullAsm runs the assembly pull for b's w when the CPU has it; it reports
// false otherwise.
func pullAsm(b *batcher, lo, hi int, list, cnts []int32) (count, full int, ok bool) {
	if lo >= hi {
		return 0, 0, true
	}
	kernel := pull4AVX2
	switch {
	case b.w == 4 && hasAVX2:
	case b.w == 8 && hasAVX512:
		kernel = pull8AVX512
	default:
		return 0, 0, false
	}
	_, _ = list[hi-lo-1], cnts[hi-lo-1] // room for every vertex of the range
	// Assembly cannot be preempted, so long ranges go in slices that keep
	// each call well under a millisecond.
	const slice = 1 << 14
	for from := lo; from < hi; from += slice {
		c, f := kernel(&b.visited[0], &b.cur[0], &b.next[0], &b.csr.Off[0], &b.csr.Heads[0],
			from, min(from+slice, hi), &list[count], &cnts[count])
		count += c
		full += f
	}
	return count, full, true
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
