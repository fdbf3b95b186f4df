//go:build !amd64 || purego

package bfs

// countAsm reports that there are no assembly counters on this platform.
func countAsm(planes, next []uint64, list []int32, w int) int { return 0 }
