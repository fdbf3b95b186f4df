// Package minplus is gpu-minplus: the distance matrix of a graph with
// lengths of at least 0 by repeated min-plus squaring on an NVIDIA GPU
// (Tran's method, kernels/minplus.cu), D ← D ⊗ D until a product changes
// nothing (at most Products(n) squarings), in int32 lanes (the caller's
// lane plan must hold them) or float32. Every product is n³ relaxations,
// log₂ n times the Floyd–Warshall's work: it is an independent check of
// the Floyd–Warshall kernels, not a fast engine.
//
// Outputs. Rows reduces the rows on the device to summaries (reduce.Row);
// Matrix copies the n×n matrix back (gpu.InfInt32 or +Inf for no path).
// A negative length is refused (gpu.ErrNegativeArc) before the GPU is
// touched. HostBytes bounds the page-locked memory a call takes.
//
// Placements. It runs on one GPU: gpu.OnGPU, or gpu.OnGPUs listing one.
// Several GPUs, every GPU and MPI ranks are refused (gpu.ErrPlacement).
package minplus
