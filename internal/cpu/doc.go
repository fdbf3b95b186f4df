// Package cpu holds the CPU engines of apsp: the reference Floyd–Warshall
// (the oracle every other engine is tested against), the parallel blocked
// Floyd–Warshall of the seeds' Algorithm 2, and the Bellman–Ford negative
// cycle check that guards the integer lanes.
//
// Distances live in a dense lanes.Matrix of any lane kind (internal/lanes).
// Integer lanes use a finite "infinity" chosen so that no sum the engines
// form can overflow; lanes.PlanFor proves that in advance from the weights,
// and lanes.Normalize maps every value that can only have come from
// infinity back to Inf after the run. The blocked engine uses the
// vectorised kernels of internal/minplus for int32, int64 and float64 and
// portable Go loops for the other kinds.
//
// compat.go forwards the lane and thread names that lived here before
// issue 9 to internal/lanes and internal/par for callers not yet moved.
package cpu
