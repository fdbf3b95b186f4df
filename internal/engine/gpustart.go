package engine

import "github.com/apsp/apsp/internal/gpu"

// GPUStartSeconds is what a GPU engine's first call costs before any
// work: 0.3 s while no GPU is open in this process (loading the driver,
// creating the context, loading the cached kernels), 0.15 ms a call after
// that; both fitted to a process's first and later GPU calls
// (docs/perf.md, "The GPU runtime: repeated calls").
func GPUStartSeconds() float64 {
	if gpu.Opened() > 0 {
		return 1.5e-4
	}
	return 0.3
}
