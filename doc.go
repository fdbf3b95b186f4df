// Package apsp computes all-pairs shortest paths and the measures derived
// from them — diameter, radius, average shortest path length (ASPL),
// eccentricities, center, periphery and shortest paths — for graphs read or
// built with package graph.
//
// Every computation goes through an Engine: a value that says whether it
// supports a problem and solves it into a distance matrix. Options.Algorithm
// names one ("fw", "blocked") or leaves the choice to "auto". Integer weights
// give exact integer distances: the engines prove in advance that no sum can
// overflow their lanes, and move to 64-bit lanes (or refuse) when 32 bits
// could. Float weights use float64.
//
// Semantics, for a graph with n vertices:
//   - distances run along arcs (directed) or edges; an unweighted edge has
//     length 1;
//   - diameter is the largest distance over ordered pairs u≠v, ASPL the mean
//     over those pairs, eccentricity(u) the largest distance from u, radius
//     the smallest eccentricity, the center the vertices of eccentricity equal
//     to the radius and the periphery those equal to the diameter;
//   - connected means strongly connected for a directed graph; a disconnected
//     graph has infinite diameter, radius and ASPL unless Options.Reachable is
//     set, in which case every measure is taken over the pairs that have a
//     path (igraph's unconn=TRUE);
//   - a negative cycle is an error (*NegativeCycleError) naming a vertex on it.
package apsp
