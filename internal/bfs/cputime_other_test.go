//go:build !unix

package bfs

// cpuSeconds is not measured on this platform.
func cpuSeconds() float64 { return 0 }
