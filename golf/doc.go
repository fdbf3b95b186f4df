// Package golf is apsp's toolkit for the Graph Golf competition
// (research.nii.ac.jp/graphgolf): the order/degree problem asks for the
// graph of n vertices and degree at most d of smallest diameter, then
// smallest average shortest path length (ASPL); its grid variant places
// the vertices on a w×h grid and allows only edges of Manhattan length at
// most r.
//
// The package gives the competition's lower bounds (GeneralBound,
// GridBound, as Graph Golf's scripts and the ODP library compute them),
// reads and writes its edge files (ReadEdges, WriteEdges: "u v" lines, or
// "x,y x,y" lines for grid graphs, vertex x,y being x·h+y as in ODP),
// measures a graph against the bounds (Evaluate) and searches for good
// graphs (Search: simulated annealing or hill climbing over
// degree-preserving edge swaps, candidates evaluated by apsp.Evaluator or
// many at once by apsp.SummaryBatch, on a GPU as changes of one graph by
// Evaluator.SummaryChanges). Every diameter and ASPL it reports
// as final has been computed again by a second engine (plain BFS).
package golf
