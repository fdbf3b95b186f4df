// Package cpu holds the CPU engines of apsp: the reference Floyd–Warshall
// (the oracle every other engine is tested against), the parallel blocked
// Floyd–Warshall of the seeds' Algorithm 2, and the Bellman–Ford negative
// cycle check that guards the integer lanes.
//
// Distances live in a dense Matrix whose lane type is int32, int64 or
// float64. Integer lanes use a finite "infinity" chosen so that no sum the
// engines form can overflow; PlanLanes proves that in advance from the
// weights, and Normalize maps every value that can only have come from
// infinity back to Inf after the run.
package cpu
