package cli

import (
	"github.com/apsp/apsp/internal/gpu/fw"
	"github.com/apsp/apsp/internal/serve"
)

const serveLong = `Answers requests, one JSON object a line on stdin, with one JSON line each
on stdout, in order, each written as soon as it is computed: a long-lived
co-process for other programs (the Python package drives it). A request:
  {"id": 7, "op": "stats", "n": 4, "edges": [[0,1],[1,2],[2,3]],
   "weights": [1,2,3], "directed": false, "options": {"reachable": true}}
op is ping, stats, summary, extremes, eccentricity, closeness ("wf_improved",
default true), harmonic (these two and eccentricity take "sources":
the vertices to answer for, in order), estimate ("sample": K sources,
"seed"; op closeness takes them too, for estimates), distances (a .npy in
base64, or written to "file", of apsp dist's default dtype: the narrowest
exact one, unreachable its maximum or inf), histogram or path ("source", "target").
Edges may instead come as "edges_b64", base64 of little-endian int32 pairs,
and weights as "weights_b64" with "weights_dtype" int64 or float64. options
are algorithm, device, threads, lanes, reachable, mode (out, in or all:
stats, extremes, eccentricity, closeness, harmonic and histogram read it,
the others refuse in and all) and effective (op stats: the ratio of the
effective diameters it adds), as the flags of stats.
The answer is {"id": 7, "result": {...}} (the result as stats --json and
the other commands write it), or {"id": 7, "error": "why", "kind": K} with
K one of request, unknown_handle, options, graph, negative_cycle (with
"vertex"), weights_too_large, too_large, no_gpu, no_path, failed or
internal. A bad request is answered and the next one read: only the end of
stdin ends the process (exit status 0).

Held graphs, for a loop that changes one graph a little a step: op load
holds the request's graph ("handle": a name, or one is made up) and
answers {"handle", "vertices", "arcs", "edges", "directed", "weighted"};
every measuring op then takes "graph": HANDLE instead of the graph, with
"remove" and "add" (lists of [u, v]; "add_weights" their lengths, else 1),
which change the held graph for good before it is measured: removals
first, all or nothing (an edge to remove that is not there, or to add that
is, is an error of kind request and changes nothing). Op update changes
without measuring; op drop frees the graph. A handle the server does not
hold is an error of kind unknown_handle. --max-graphs and --max-held bound
what is held (too_large beyond them).`

// runServe is apsp serve.
func runServe(e *env, args []string) error {
	f, _ := newFlags("serve")
	if _, err := f.parse(e, mustCommand("serve"), args, 0, 0); err != nil {
		return err
	}
	if !f.stdio {
		return usagef("--stdio is the one transport so far: apsp serve --stdio")
	}
	if f.maxLine < 0 {
		return usagef("--max-line %d: want a number of bytes (0: 256 MiB)", f.maxLine)
	}
	if f.maxGraphs < 0 {
		return usagef("--max-graphs %d: want a count (0: 1000)", f.maxGraphs)
	}
	var maxHeld uint64
	if f.maxHeld != "" {
		var err error
		if maxHeld, err = fw.ParseBytes(f.maxHeld); err != nil || maxHeld == 0 || maxHeld >= 1<<62 {
			return usagef("--max-held %q: want a size such as 512M or 4G", f.maxHeld)
		}
	}
	s := &serve.Server{MaxLine: f.maxLine, MaxGraphs: f.maxGraphs, MaxHeld: int64(maxHeld), Version: versionLine()}
	return s.Serve(e.ctx, e.stdin, e.stdout)
}
