// Package serve answers requests for apsp's computations over a stream:
// `apsp serve --stdio`, the co-process the Python package drives, reads
// one JSON request a line and writes one JSON response a line, in request
// order, each as soon as it is computed. A request names an operation
// (stats, summary, extremes, eccentricity, closeness, distances, histogram, path,
// ping), carries its graph inline (edges as JSON pairs, or base64 int32
// pairs for speed; optional weights) and the options of apsp.Options; a
// response carries the request's id and either the result, encoded as
// package encode and the command line encode it, or an error with a kind
// a caller can dispatch on. A bad request is answered with an error and
// the stream goes on: nothing a client sends ends the process but the end
// of its input.
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
