//go:build amd64 && !purego

package bfs

// count4AVX2 adds the four words next[v·4:] of the vertices v of
// list[:16·groups] into the counters planes (plane q of word j at
// planes[q·4+j], fromPlanes planes), sixteen at a time: countColumns'
// tree in YMM registers.
//
//go:noescape
func count4AVX2(planes, next *uint64, list *int32, groups int)

// count8AVX512 is count4AVX2 for eight words a vertex, in ZMM registers.
//
//go:noescape
func count8AVX512(planes, next *uint64, list *int32, groups int)

// countAsm runs the assembly counters over the whole groups of sixteen
// of list when the CPU has them for w, and returns how many vertices it
// counted (0 when none). Assembly cannot be preempted: a call takes at
// most 2^14 vertices, as the pulls' slices.
func countAsm(planes, next []uint64, list []int32, w int) int {
	kernel := count4AVX2
	switch {
	case w == 4 && hasAVX2:
	case w == 8 && hasAVX512:
		kernel = count8AVX512
	default:
		return 0
	}
	if len(planes) < fromPlanes*w || len(list) < 16 {
		return 0
	}
	done := len(list) / 16 * 16
	for i := 0; i < done; i += 1 << 14 {
		kernel(&planes[0], &next[0], &list[i], min(1<<14, done-i)/16)
	}
	return done
}
