// Package apsp computes all-pairs shortest paths and the measures derived
// from them — diameter, radius, average shortest path length (ASPL),
// eccentricities, center, periphery, shortest paths and the hop plot — for
// graphs read or built with package graph, on the CPU or an NVIDIA GPU.
//
// This package is the facade: Options, the entry points (AllPairs,
// ComputeStats, ComputeExtremes, Eccentricities, ShortestPath,
// DistanceHistogram), their results (Distances, Stats, Histogram), Explain
// and the errors callers test for. Behind it, every call's options are
// resolved once into a plan (device, threads, lanes, engine, memory) that
// one engine then runs; Options.Algorithm names an engine (Algorithms lists
// them) or leaves the choice to "auto", which compares the engines' cost
// estimates (Explain shows them). Validate checks options without a graph;
// errors about options wrap ErrInvalidOptions.
//
// Integer weights give exact integer distances: the lanes are planned from
// a proven bound on every path length (int32, int64, or int64 using its
// whole range), and weights that could overflow even those are refused
// (ErrWeightsTooLarge), as are float weights whose lengths could leave
// float64's finite range.
//
// Semantics, for a graph with n vertices (README.md states them in full):
//   - distances run along arcs (directed) or edges; an unweighted edge has
//     length 1;
//   - diameter is the largest distance over ordered pairs u≠v, ASPL the mean
//     over those pairs, eccentricity(u) the largest distance from u (infinite
//     when u misses a vertex), radius the smallest eccentricity, the center
//     the vertices of eccentricity equal to the radius and the periphery
//     those equal to the diameter;
//   - connected means strongly connected for a directed graph; a graph that
//     is not has infinite diameter and ASPL unless Options.Reachable is set,
//     in which case every measure is taken over the pairs that have a path
//     (igraph's unconn=TRUE); its radius is finite when some vertex reaches
//     every other;
//   - a mean over no pair (one vertex) is undefined (NaN);
//   - a negative cycle is an error (*NegativeCycleError) naming a vertex on it.
//
// GPU work goes through one runtime per process (driver, contexts, compiled
// kernels and pooled memory kept between calls); Close releases it.
package apsp
