// Package gen generates test graphs for apsp: random regular and random
// connected graphs, and the classic structured families.
//
// A graph is described by a kind and key=value parameters, as on the command
// line of "apsp gen KIND key=value ...":
//
//	regular   n= d=   random connected d-regular simple graph (nearly uniform)
//	gnp       n= r=   random connected graph with r percent of all n(n-1)/2 edges
//	grid      a= b=   a×b grid, vertex (i, j) has id i*b+j
//	torus     a= b=   a×b grid with wraparound (a, b >= 3)
//	hypercube d=      Q_d: 2^d vertices, u and v adjacent when they differ in one bit
//	complete  n=      K_n
//	cycle     n=      C_n (n >= 3)
//	path      n=      P_n (n >= 1)
//	petersen          the Petersen graph: outer cycle 0..4, inner pentagram 5..9, spokes i–i+5
//
// Every kind also takes these options:
//
//	weights=LO..HI  random edge lengths: uniform integers in [LO, HI] when
//	                both ends are integers ("1..100", "-5..5"), uniform floats
//	                in [LO, HI) when either end has a decimal point or an
//	                exponent ("0..1.0", "0.5..2"). LO may be negative; in a
//	                directed graph that may create negative cycles, which is
//	                what such a test asks for. Without weights= the graph is
//	                unweighted (every edge has length 1).
//	seed=N          the random seed (default 1): the same kind, parameters and
//	                seed give the same graph.
//	directed        make a directed graph. For gnp each edge {u, v} becomes
//	                one arc of random orientation, so the graph need not be
//	                strongly connected. For cycle it becomes the directed cycle
//	                0→1→…→n-1→0, whose diameter is n-1. For every other kind
//	                each edge becomes the two arcs u→v and v→u, with
//	                independently drawn weights, so the graph stays strongly
//	                connected.
//
// Randomness comes from math/rand/v2's PCG, in separate streams for the
// structure, the weights and the orientations: adding weights= or directed
// to a spec leaves the underlying undirected graph unchanged.
//
// Sizes are checked before anything is allocated: more than
// graph.MaxVertices vertices or 2^31 edges (counting arcs in a directed
// graph) is refused with an error wrapping graph.ErrTooLarge.
package gen
