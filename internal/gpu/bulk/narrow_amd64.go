//go:build amd64 && !purego

package bulk

import "github.com/apsp/apsp/internal/cpufeat"

// narrowAVX2 writes blocks·16 heads as 16-bit values, two a word.
//
//go:noescape
func narrowAVX2(dst *uint32, heads *int32, blocks int)

// narrow writes the heads in 16 bits, two a word (little-endian: the
// first in the low half), for n ≤ MaxN < 2^16: sixteen at a time with
// AVX2 (a third of the host's share of a call of one mid-size graph was
// this loop), the rest as narrowGeneric does.
func narrow(dst []uint32, heads []int32) {
	if blocks := len(heads) / 16; cpufeat.AVX2 && blocks > 0 {
		_ = dst[8*blocks-1] // the words it writes
		narrowAVX2(&dst[0], &heads[0], blocks)
		dst, heads = dst[8*blocks:], heads[16*blocks:]
	}
	narrowGeneric(dst, heads)
}
