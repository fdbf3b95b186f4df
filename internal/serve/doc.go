// Package serve answers requests for apsp's computations over a stream:
// `apsp serve --stdio`, the co-process the Python package drives, reads
// one JSON request a line and writes one JSON response a line, in request
// order, each as soon as it is computed. A request names an operation
// (stats, summary, extremes, eccentricity, closeness, harmonic, distances,
// histogram, path, ping; load, update and drop for held graphs), carries
// its graph inline (edges as JSON pairs, or base64 int32 pairs for speed;
// optional weights) or names a held graph, and the options of
// apsp.Options; a response carries the request's id and either the
// result, encoded as package encode and the command line encode it, or an
// error with a kind a caller can dispatch on. A bad request is answered
// with an error and the stream goes on: nothing a client sends ends the
// process but the end of its input.
//
// # Held graphs
//
// A search loop measures one graph after small changes (simulated
// annealing swaps two edges a step and asks for the diameter and ASPL).
// Rather than send the whole graph each time, a client holds it in the
// server and sends the changes:
//
//   - "op":"load" takes the graph fields the measuring ops take (n, edges
//     or edges_b64, weights..., directed) and an optional "handle" (a name
//     of up to 256 bytes, not in use; without one the server makes one up,
//     g1, g2, ...), holds the graph as it builds it (parallel edges merged,
//     self-loops dropped) and answers {"handle", "vertices", "arcs",
//     "edges", "directed", "weighted"}.
//   - Every measuring op takes "graph": HANDLE in place of the graph
//     fields (both at once are refused), with optional "remove" and "add"
//     (lists of [u, v] pairs; arcs when the graph is directed) and
//     "add_weights" (lengths of the added edges; without them an added
//     edge has length 1; integer lengths into an unweighted graph, or
//     float ones into an integer one, change its kind as the builder
//     does). The changes are made to the held graph for good, then it is
//     measured: the next request sees the changed graph, and a measure that
//     fails after them (a negative cycle) leaves them made.
//   - "op":"update" makes the changes alone and answers as load does;
//     "op":"drop" frees the graph and answers {"handle", "dropped": true}.
//   - "candidates" on op summary of a held graph (candidates.go): a list
//     of changes ({"add", "remove", "add_weights"}) each measured apart on
//     the held graph as it is, which none of them changes, in one batch;
//     it answers {"summaries": [...]}, a summary or {"error", "kind"} each.
//
// Changes are made as if one edge at a time, removals first, and all or
// none: an edge to remove that is not there (or removed twice), or one to
// add that is there, is an error of kind request; a vertex out of range,
// or a self-loop to add, one of kind graph; either changes nothing. A
// handle the server does not hold (never loaded, dropped, or held by a
// server that has since restarted) is an error of kind unknown_handle.
// Server.MaxGraphs and Server.MaxHeld (apsp serve --max-graphs,
// --max-held) bound the count and bytes of held graphs (offsets, heads and
// lengths): a load or change beyond them is refused with kind too_large,
// naming the limit.
//
// The server keeps each held graph as the immutable graph.Graph it
// measures; a change makes the next one with graph.Graph.Change (block
// copies of the arrays, no sort, no parse: O(n + m)), and summary keeps
// using the server's Evaluator, so the engine and the kept plan are the
// library's.
//
// HTTP (NewHTTP, `apsp serve --http`) answers the same requests over
// HTTP, one a POST /v1/OP or many as JSON Lines on POST /v1/bulk, with the
// same answers: concurrent stats and summaries of small graphs are
// gathered for a short window into one call of the library's batch path,
// behind a bounded queue, limits, timeouts, a bearer token, Prometheus
// metrics and a graceful shutdown.
//
// It sits over the public API (the root package and encode), as the
// command line does, and decides nothing about how graphs are computed.
package serve
