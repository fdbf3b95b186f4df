// Package gpu runs the blocked Floyd–Warshall algorithm on NVIDIA GPUs
// through package cuda: the multi-kernel form (three launches a round, after
// Lund & Smith) and the single-kernel soft-synchronisation form (SKSS, one
// launch whose blocks take tasks from an atomic counter in topological order
// and wait on per-tile completion flags), in int32 (DPX on Hopper) and
// float32 lanes. Summary measures are reduced on the device so that the n×n
// matrix need not cross the bus.
package gpu
