//go:build amd64 && !purego

package bfs

import "unsafe"

// prefetch asks for p's cache line ahead of its use (PREFETCHT0): unlike
// a load it does not hold up the instructions after it while it misses.
//
//go:noescape
func prefetch(p unsafe.Pointer)

// prefetch2 is prefetch of p and q in one call.
//
//go:noescape
func prefetch2(p, q unsafe.Pointer)
