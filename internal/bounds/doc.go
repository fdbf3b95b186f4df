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
// Directed graphs use forward and backward eccentricity bounds (ef(v) =
// max_w d(v,w) over the vertices v reaches, eb(v) = max_w d(w,v) over those
// reaching it; a vertex reaching nothing has ef 0) and the step choice of
// ExactSumSweep (Borassi, Crescenzi, Habib, Kosters, Marino, Takes: "Fast
// diameter and radius BFS-based computation in (weakly connected)
// real-world graphs", TCS 586, 2015): a short SumSweep start, then forward
// or backward searches from the vertices with extreme bounds and pivot
// passes, each kind chosen by how much it last reduced the vertices whose
// bounds still matter. The bounds that compare two eccentricities hold
// only inside a strongly connected component; a pivot pass searches each
// component from a central vertex and carries upper bounds across the
// condensation (Tarjan's components, processed sinks first for ef, sources
// first for eb), so graphs that are not strongly connected need no search
// per vertex either.
//
// The first search (or, undirected, the searches that find the
// components) also renumbers the vertices in visiting order into the
// package's own adjacency arrays, so that later searches walk memory mostly
// in order; on a randomly numbered geometric graph of 10^6 vertices that
// made a search several times faster.
//
// Result.Traversals counts every breadth-first search, forward or backward,
// including those first ones.
//
// Without Options.Reachable the eccentricity of a vertex that misses some
// vertex is infinite. The diameter of a graph that is not (strongly)
// connected is then infinite, and so is the radius of an undirected one;
// a directed one has a finite radius when its condensation has a single
// source component, whose vertices alone reach every vertex: the radius
// is their smallest forward eccentricity, found with the same bounds
// restricted to that component. Infinite values are reported as Infinite.
//
// Bounds need a few searches on real networks but a search from a good
// part of the vertices on expanders such as random regular graphs, where
// an all-pairs computation is faster. Options.Budget caps the work, so
// that a caller can fall back to one; ErrBudget says when it ran out.
package bounds
