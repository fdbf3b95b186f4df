//go:build amd64 && !purego

package bfs

import (
	"math/bits"

	"github.com/apsp/apsp/internal/cpufeat"
)

// wholeFast says that WholeHist has its assembly levels here: YMM or ZMM
// blocks (AVX2, AVX-512 F) with the popcounts in a ZMM register
// (VPOPCNTDQ) and the heads scaled by SHLX (BMI2).
var wholeFast = hasAVX512 && cpufeat.BMI2

// wholeLevelY and wholeLevelZ are wholeLevelGo in assembly for rows of
// one block of 4 words and for blocks of 8 words, over n vertices whose
// rows are 1 << shift bytes, with chunk arcs between checks.
//
//go:noescape
func wholeLevelY(vis, cur, next *uint64, off *int, heads *int32, n, shift, chunk int) (pairs int)

//go:noescape
func wholeLevelZ(vis, cur, next *uint64, off *int, heads *int32, n, shift, chunk int) (pairs int)

// wholeLevelYAll and wholeLevelZAll are wholeLevelY and wholeLevelZ
// with every arc ORed, for a chunk of wholeAll arcs or more.
//
//go:noescape
func wholeLevelYAll(vis, cur, next *uint64, off *int, heads *int32, n, shift int) (pairs int)

//go:noescape
func wholeLevelZAll(vis, cur, next *uint64, off *int, heads *int32, n, shift int) (pairs int)

// wholeLevel runs one level of the whole search: the assembly when the
// CPU has it and the layout is one of wholeLayout's, Go otherwise.
func wholeLevel(vis, cur, next []uint64, off []int, heads []int32, w, block, chunk int) (pairs int64) {
	n := len(off) - 1
	kernel := wholeLevelZ
	switch {
	case !wholeFast || len(heads) == 0 || n == 0 || w&(w-1) != 0:
		return wholeLevelGo(vis, cur, next, off, heads, w, block, chunk)
	case block == 4 && w == 4:
		kernel = wholeLevelY
	case block == 8:
	default:
		return wholeLevelGo(vis, cur, next, off, heads, w, block, chunk)
	}
	_, _, _, _ = vis[n*w-1], cur[n*w-1], next[n*w-1], off[n]
	shift := bits.TrailingZeros(uint(w * 8))
	if chunk >= wholeAll {
		all := wholeLevelZAll
		if block == 4 {
			all = wholeLevelYAll
		}
		return int64(all(&vis[0], &cur[0], &next[0], &off[0], &heads[0], n, shift))
	}
	return int64(kernel(&vis[0], &cur[0], &next[0], &off[0], &heads[0], n, shift, chunk))
}
