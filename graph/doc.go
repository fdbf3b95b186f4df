// Package graph holds the graph model of apsp — a compressed sparse row
// (CSR) adjacency, directed or undirected, with no, integer or float
// weights — together with its builder, the readers for the supported file
// formats (edge list, Matrix Market, DIMACS) and writers.
//
// Undirected graphs store each edge as two arcs, so every traversal works on
// arcs alone. Parallel edges keep their smallest weight and self-loops are
// dropped unless negative, in which case the graph records a negative cycle.
package graph
