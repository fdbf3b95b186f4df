// Package graph holds the graph model of apsp — a compressed sparse row
// (CSR) adjacency, directed or undirected, with no, integer or float
// weights — together with its builder, the readers and writers of the
// supported file formats, and the reader of JSON Lines, one graph a line
// (ReadJSONLine, with JSONLineReader to split a stream into its lines), as
// apsp bulk reads them on stdin.
//
// The file formats, each read plain or gzipped (see Read), and written by
// the Write function of its name:
//
//   - edge list (any other name): "u v" or "u v w" lines, ids from 0
//     (ReadOptions.OneBased: from 1); WriteEdgeList.
//   - Matrix Market (.mtx): a coordinate matrix, general (directed) or
//     symmetric; ids from 1; WriteMatrixMarket.
//   - DIMACS (.gr): "p sp N M" and "a u v w" arcs, directed; ids from 1;
//     WriteDIMACS.
//   - GraphML (.graphml): XML, read as a stream; node ids are vertex names,
//     edgedefault the directedness, a <key> named "weight"
//     (ReadOptions.WeightKey) the lengths; WriteGraphML.
//   - GML (.gml): graph [ node [ id label ] edge [ source target weight ] ];
//     labels (else ids) are names, "directed 1" directedness; WriteGML.
//   - Pajek (.net): *Vertices N with "k label" lines (names), *Arcs and
//     *Edges (or their list forms) with lengths in the third column; ids
//     from 1; WritePajek.
//   - METIS (.graph): "n m [fmt [ncon]]" and an adjacency line a vertex,
//     undirected, with edge weights when fmt says so; ids from 1; by name
//     only, as its content has no mark; WriteMETIS.
//   - CSV (.csv): a header row, then a row an edge; vertex names in the
//     source and target columns (ReadOptions.CSV); WriteCSV.
//   - graph6, sparse6, digraph6 (.g6, .s6, .d6): nauty's formats, one
//     graph a line; Read takes a file of one, NewSixReader every graph
//     of a file, as apsp bulk reads them; WriteGraph6, WriteSparse6,
//     WriteDigraph6.
//
// An edge list may also name its vertices (ReadOptions.Labels), and
// NetworkX's write_edgelist attribute dicts and comma-separated fields
// are read.
//
// Formats that name vertices give the graph their names (see Names).
//
// Undirected graphs store each edge as two arcs, so every traversal works on
// arcs alone. Parallel edges keep their smallest weight and self-loops are
// dropped unless negative, in which case the graph records a negative cycle.
package graph
