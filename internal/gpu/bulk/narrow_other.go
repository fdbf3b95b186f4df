//go:build !amd64 || purego

package bulk

// narrow writes the heads in 16 bits, two a word (little-endian: the
// first in the low half), for n ≤ MaxN < 2^16.
func narrow(dst []uint32, heads []int32) { narrowGeneric(dst, heads) }
