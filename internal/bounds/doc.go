// Package bounds computes the exact diameter and radius of large sparse
// unweighted graphs (every arc has length 1; weights, if any, are ignored)
// with a few breadth-first searches instead of one per vertex.
//
// A search from a vertex v gives its eccentricity e(v) exactly and, by the
// triangle inequality, bounds on every other vertex w:
//
//	max(d(v,w), e(v)-d(v,w)) <= e(w) <= e(v)+d(v,w)
//
// The package keeps these lower and upper eccentricity bounds per vertex and
// chooses each next source so that the bounds on the diameter (the largest
// eccentricity) and the radius (the smallest) meet quickly; vertices whose
// bounds can no longer change either value are never chosen.
//
// Undirected graphs are solved one connected component at a time with the
// bounding diameters algorithm of Takes and Kosters ("Determining the
// diameter of small world networks", CIKM 2011; "Computing the
// eccentricity distribution of large graphs", Algorithms 6(1), 2013): it
// alternately searches from the vertex with the largest upper bound and the
// one with the smallest lower bound, ties going to high degree, and yields
// both values. iFUB (Crescenzi, Grossi, Habib, Lanzi, Marino: "On computing
// the diameter of real-world undirected graphs", TCS 514, 2013; a 4-sweep
// to a central vertex, then searches from the vertices farthest from it,
// level by level) is kept as an alternative for comparison: it needed about
// as many searches on grids and random geometric graphs and far more on
// some small-world graphs, so it is not the default.
//
// Strongly connected directed graphs use forward and backward eccentricity
// bounds (ef(v) = max_w d(v,w) on the graph, eb(v) = max_w d(w,v) on its
// transpose) and the step choice of ExactSumSweep (Borassi, Crescenzi,
// Habib, Kosters, Marino, Takes: "Fast diameter and radius BFS-based
// computation in (weakly connected) real-world graphs", TCS 586, 2015): a
// short SumSweep start, then forward or backward searches from the vertices
// with extreme bounds and forward-plus-backward pairs from central
// vertices, each kind chosen by how much it last helped. Directed graphs
// that are not strongly connected, when Options.Reachable asks for the
// distances of reachable pairs, fall back to one search per vertex, spread
// over Options.Threads goroutines.
//
// The first search (or, undirected, the searches that find the
// components) also renumbers the vertices in visiting order into the
// package's own adjacency arrays, so that later searches walk memory mostly
// in order; on a randomly numbered geometric graph of 10^6 vertices that
// made a search several times faster (150 ms to 20-60 ms).
//
// Result.Traversals counts every breadth-first search, forward or backward,
// including those first ones.
package bounds
