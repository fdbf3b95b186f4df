//go:build !amd64 || purego

package bfs

import "unsafe"

// prefetch does nothing where there is no assembly for it.
func prefetch(p unsafe.Pointer) {}

// prefetch2 does nothing where there is no assembly for it.
func prefetch2(p, q unsafe.Pointer) {}
