// Package graph holds the graph model of apsp — a compressed sparse row
// (CSR) adjacency, directed or undirected, with no, integer or float
// weights — together with its builder, the readers for the supported file
// formats (edge list, Matrix Market, DIMACS, and nauty's graph6, sparse6
// and digraph6) and writers, the reader of JSON Lines, one graph a line
// (ReadJSONLine, with JSONLineReader to split a stream into its lines), as
// apsp bulk reads them on stdin, and the reader of every graph of a
// graph6, sparse6 or digraph6 file, one a line (NewSixReader), as apsp
// bulk reads such a file.
//
// Undirected graphs store each edge as two arcs, so every traversal works on
// arcs alone. Parallel edges keep their smallest weight and self-loops are
// dropped unless negative, in which case the graph records a negative cycle.
package graph
