// Package dijkstra computes all-pairs shortest paths of sparse graphs by one
// single-source search per vertex: Dijkstra for non-negative lengths (Rows,
// Fill) and Johnson's reweighting for graphs with negative arcs but no
// negative cycle (JohnsonRows, JohnsonFill). With m arcs this costs about
// n·m operations against the n³ of Floyd–Warshall, and Rows needs O(n)
// memory per thread instead of an n×n matrix.
//
// Sources are spread over goroutines, each with its own queue and scratch;
// the graph is packed once into a read-only layout (head and length side by
// side) that all of them share. Integer lengths give exact distances: int32
// arithmetic when lanes.PlanFor proves every path length fits, else int64.
// Float lengths use float64.
//
// The queue depends on the lengths:
//
//   - unweighted graphs: breadth-first search;
//   - lengths whose spread maxW/minW is small (the usual case): a bucket
//     queue whose buckets are no wider than the shortest arc, so that a
//     whole bucket is settled at once and every operation is O(1);
//   - otherwise (zero lengths among float lengths, as Johnson's reweighting
//     leaves, or a spread above 2^14): a radix heap, keyed by the distance
//     or, for floats, by its bits, which order like the value when ≥ 0.
//
// On the benchmark graph (8192 vertices, 40 000 edges, lengths
// 1..100) a search with the bucket queue takes about half the time it
// takes with the radix heap, and for float lengths about a third; a 4-ary
// indexed heap with decrease-key and a lazy binary heap of (distance,
// vertex) pairs were slower still.
package dijkstra
