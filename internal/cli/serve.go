package cli

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/apsp/apsp/internal/serve"
	"github.com/apsp/apsp/internal/sysmem"
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
exact one, unreachable its maximum or inf; "sources" and "targets" make it
the origin–destination matrix of those rows and columns, either alone
meaning every vertex for the other), histogram (the same "sources" and
"targets" for the pairs between them) or path ("source", "target").
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
what is held (too_large beyond them).

With --http ADDR (host:port; port 0 picks one) it answers the same requests
over HTTP instead, and prints the URL it listens on (http://HOST:PORT) as
one line on stdout: POST /v1/OP with the request as its JSON body (its "op"
left out or OP) answers the response line, with an HTTP status (400 a bad
request, 413 over a limit, with "limit" naming the flag, 422 a graph that
cannot be computed, 507 too large for memory, 503 with Retry-After when the
queue is full, 504 past --timeout, 401 without the --token-file's token).
A body of another Content-Type is a graph file in any format apsp reads
(?format=, else sniffed; ?directed=, ?algorithm=, ... as the request's
fields). POST /v1/distances with Accept: application/x-npy answers the .npy
itself. POST /v1/bulk takes requests as JSON Lines and streams their answers
in order. GET /healthz, GET /metrics (Prometheus). Concurrent stats and
summaries of small graphs are computed together in batches (--batch-wait,
--batch-max). SIGTERM or SIGINT stops accepting, answers what was accepted,
and exits. One JSON log line a request goes to stderr.`

// httpFlags are serve --http's flags.
type httpFlags struct {
	addr                   string
	batchWait              time.Duration
	batchMax               int
	maxBody                int64
	maxVertices, maxArcs   int
	queue, workers         int
	timeout                time.Duration
	tokenFile              string
	tlsCert, tlsKey        string
	batchVertices, batchWV int
	batchConc              int
	logRequests            bool
}

func (h *httpFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.addr, "http", "", "serve HTTP on `ADDR` (host:port, e.g. 127.0.0.1:8080; port 0 picks a free one) instead of stdio")
	fs.DurationVar(&h.batchWait, "batch-wait", time.Millisecond, "--http: the longest a small graph waits for others to share its batch")
	fs.IntVar(&h.batchMax, "batch-max", 4096, "--http: the most graphs a batch takes")
	fs.IntVar(&h.batchConc, "batch-concurrency", 2, "--http: the most batches computing at once (a second one prepares its graphs while the first computes)")
	fs.IntVar(&h.batchVertices, "batch-vertices", 1024, "--http: the largest unweighted graph batched")
	fs.IntVar(&h.batchWV, "batch-weighted-vertices", 2048, "--http: the largest weighted graph batched")
	fs.Int64Var(&h.maxBody, "max-body", 64<<20, "--http: the largest request body in bytes (a bulk request: its largest line)")
	fs.IntVar(&h.maxVertices, "max-vertices", 1<<20, "--http: the most vertices of a request's graph")
	fs.IntVar(&h.maxArcs, "max-arcs", 1<<26, "--http: the most arcs of a request's graph (an undirected edge is two)")
	fs.IntVar(&h.queue, "queue", 4096, "--http: the most requests admitted at once, waiting or computing (more are answered 503)")
	fs.IntVar(&h.workers, "workers", 1, "--http: the most requests computed alone at once (graphs too large to batch, other operations)")
	fs.DurationVar(&h.timeout, "timeout", 5*time.Minute, "--http: the longest a request may take (0: no limit); past it, 504 and its computation stopped")
	fs.StringVar(&h.tokenFile, "token-file", "", "--http: require the bearer token in `FILE` (its first line) on every request but GET /healthz")
	fs.StringVar(&h.tlsCert, "tls-cert", "", "--http: serve HTTPS with this certificate `FILE` (and --tls-key)")
	fs.StringVar(&h.tlsKey, "tls-key", "", "--http: the TLS key `FILE`")
	fs.BoolVar(&h.logRequests, "log-requests", true, "--http: log one JSON line a request on stderr")
}

// runServe is apsp serve.
func runServe(e *env, args []string) error {
	f, _ := newFlags("serve")
	if _, err := f.parse(e, mustCommand("serve"), args, 0, 0); err != nil {
		return err
	}
	if f.http.addr != "" {
		if f.stdio {
			return usagef("--stdio and --http: one transport at a time")
		}
		return runServeHTTP(e, &f.http)
	}
	if !f.stdio {
		return usagef("give a transport: apsp serve --stdio, or apsp serve --http ADDR")
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
		if maxHeld, err = sysmem.ParseBytes(f.maxHeld); err != nil || maxHeld == 0 || maxHeld >= 1<<62 {
			return usagef("--max-held %q: want a size such as 512M or 4G", f.maxHeld)
		}
	}
	s := &serve.Server{MaxLine: f.maxLine, MaxGraphs: f.maxGraphs, MaxHeld: int64(maxHeld), Version: versionLine()}
	return s.Serve(e.ctx, e.stdin, e.stdout)
}

// runServeHTTP is apsp serve --http.
func runServeHTTP(e *env, h *httpFlags) error {
	for _, v := range []struct {
		name string
		n    int64
	}{{"batch-max", int64(h.batchMax)}, {"batch-concurrency", int64(h.batchConc)}, {"max-body", h.maxBody}, {"max-vertices", int64(h.maxVertices)},
		{"max-arcs", int64(h.maxArcs)}, {"queue", int64(h.queue)}, {"workers", int64(h.workers)},
		{"batch-vertices", int64(h.batchVertices)}, {"batch-weighted-vertices", int64(h.batchWV)}} {
		if v.n <= 0 {
			return usagef("--%s %d: want a positive number", v.name, v.n)
		}
	}
	if h.timeout < 0 || h.batchWait < 0 {
		return usagef("--timeout and --batch-wait: want a duration >= 0")
	}
	if (h.tlsCert == "") != (h.tlsKey == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	var token string
	if h.tokenFile != "" {
		data, err := os.ReadFile(h.tokenFile)
		if err != nil {
			return fmt.Errorf("reading --token-file: %w", err)
		}
		token, _, _ = strings.Cut(string(data), "\n")
		token = strings.TrimSpace(token)
		if token == "" {
			return fmt.Errorf("--token-file %s: no token on its first line", h.tokenFile)
		}
	}
	logger := slog.New(slog.DiscardHandler)
	if h.logRequests {
		logger = slog.New(slog.NewJSONHandler(e.stderr, nil))
	}
	wait := h.batchWait
	if wait == 0 {
		wait = -1 // no window: HTTPOptions reads 0 as the default
	}
	svc := serve.NewHTTP(&serve.Server{Version: versionLine()}, serve.HTTPOptions{
		MaxBody: h.maxBody, MaxVertices: h.maxVertices, MaxArcs: h.maxArcs, Queue: h.queue,
		Workers: h.workers, BatchWait: wait, BatchMax: h.batchMax, BatchConcurrency: h.batchConc, BatchVertices: h.batchVertices,
		BatchWeightedVertices: h.batchWV, Timeout: h.timeout, Token: token, Log: logger,
	})
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		svc.Close()
		return fmt.Errorf("--http %s: %w", h.addr, err)
	}
	scheme := "http"
	if h.tlsCert != "" {
		scheme = "https"
	}
	fmt.Fprintf(e.stdout, "%s://%s\n", scheme, ln.Addr())
	if fl, ok := e.stdout.(interface{ Sync() error }); ok {
		fl.Sync()
	}
	logger.Info("listening", "url", scheme+"://"+ln.Addr().String())
	ctx, stop := signal.NotifyContext(e.ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	return svc.Serve(ctx, ln, h.tlsCert, h.tlsKey)
}
