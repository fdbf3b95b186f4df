package serve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// HTTPOptions configure the HTTP service. Zero values take the defaults
// named beside each field.
type HTTPOptions struct {
	// MaxBody bounds a request's body in bytes (0: 64 MiB); a bulk
	// request's body is unbounded but each of its lines is bounded so.
	MaxBody int64
	// MaxVertices and MaxArcs bound a graph (0: 1 048 576 vertices and
	// 67 108 864 arcs): a larger one is answered 413.
	MaxVertices, MaxArcs int
	// Queue bounds the requests admitted at once, waiting or computing
	// (0: 4096): one more is answered 503 with Retry-After. Memory is
	// bounded by Queue bodies of at most MaxBody bytes and their graphs.
	Queue int
	// Workers bounds the requests computed alone at once, the graphs too
	// large for a batch and the operations that do not batch (0: 1, so
	// that the library's memory admission sees one computation at a time).
	Workers int
	// BatchWait is the longest a small graph waits for others to share
	// its batch (0: 1 ms; negative: no wait), BatchMax the most graphs a
	// batch takes (0: 4096).
	BatchWait time.Duration
	BatchMax  int
	// BatchConcurrency is the most batches computing at once (0: 2): a
	// second one prepares its graphs on the host while the first one's
	// kernels run.
	BatchConcurrency int
	// BatchVertices are the largest unweighted and weighted graphs that
	// are gathered into batches (0: 1024 and 2048, where a batch of many
	// graphs pays most); larger ones run alone, each a batch of one where
	// a bulk engine takes it.
	BatchVertices, BatchWeightedVertices int
	// Timeout bounds a request from its arrival to its answer (0: none);
	// a request past it is answered 504 and its computation stopped.
	Timeout time.Duration
	// Token, when not empty, is the bearer token every request but GET
	// /healthz must carry (401 without it).
	Token string
	// Log receives one line per request (nil: none).
	Log *slog.Logger
}

func (o *HTTPOptions) defaults() {
	set := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 64 << 20
	}
	set(&o.MaxVertices, 1<<20)
	set(&o.MaxArcs, 1<<26)
	set(&o.Queue, 4096)
	set(&o.Workers, 1)
	set(&o.BatchMax, 4096)
	set(&o.BatchConcurrency, 2)
	set(&o.BatchVertices, 1024)
	set(&o.BatchWeightedVertices, 2048)
	if o.BatchWait == 0 {
		o.BatchWait = time.Millisecond
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
}

// HTTP is the service `apsp serve --http` runs: the requests of the
// stdio co-process (same JSON, same answers) over HTTP, with small graphs'
// stats and summaries gathered into batches. Make it with NewHTTP; it is
// an http.Handler.
type HTTP struct {
	s       *Server
	o       HTTPOptions
	m       *metrics
	b       *batcher
	slots   chan struct{} // admission: one a request admitted
	workers chan struct{} // one a computation running alone
	mux     *http.ServeMux
	closing atomic.Bool
	// Hooks for tests: called when a computation alone starts and ends.
	onAlone func(start bool)
}

// NewHTTP returns the service answering with s. Close it after the HTTP
// server that uses it has shut down.
func NewHTTP(s *Server, o HTTPOptions) *HTTP {
	o.defaults()
	h := &HTTP{s: s, o: o, m: newMetrics(),
		slots: make(chan struct{}, o.Queue), workers: make(chan struct{}, o.Workers)}
	h.b = newBatcher(o.Queue, o.BatchMax, o.BatchConcurrency, o.BatchWait, h.m)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.healthz)
	mux.Handle("GET /metrics", h.auth("metrics", promhttp.HandlerFor(h.m.reg, promhttp.HandlerOpts{})))
	mux.Handle("POST /v1/bulk", h.auth("bulk", http.HandlerFunc(h.bulk)))
	mux.Handle("POST /v1/{op}", h.auth("op", http.HandlerFunc(h.one)))
	mux.Handle("GET /v1/ping", h.auth("op", http.HandlerFunc(h.one)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, "", http.StatusNotFound, "not_found", nil,
			fmt.Errorf("no route %s %s (POST /v1/OP, POST /v1/bulk, GET /healthz, GET /metrics)", r.Method, r.URL.Path))
	})
	h.mux = mux
	return h
}

// Close stops the batcher once it has computed what was queued.
func (h *HTTP) Close() {
	h.closing.Store(true)
	h.b.close()
}

func (h *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// Serve answers on ln (with TLS when certFile and keyFile are given) until
// ctx ends, then shuts down gracefully: it stops accepting, answers every
// request already accepted, computes what was queued, and returns. ready,
// when set, is called with the address once it listens.
func (h *HTTP) Serve(ctx context.Context, ln net.Listener, certFile, keyFile string) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(h.o.Log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() {
		if certFile != "" || keyFile != "" {
			errc <- srv.ServeTLS(ln, certFile, keyFile)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		h.Close()
		return fmt.Errorf("serving http: %w", err)
	case <-ctx.Done():
	}
	h.o.Log.Info("shutting down: answering the requests accepted")
	// No deadline: every request accepted is answered (each is bounded by
	// its --timeout, when set).
	err := srv.Shutdown(context.Background())
	h.Close()
	if err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// Routes' ops: a route names its op, and aliases map to stdio's names.
var opAliases = map[string]string{"eccentricities": "eccentricity", "hist": "histogram"}

// errShuttingDown answers a request that comes while the service stops.
var errShuttingDown = errors.New("the server is shutting down")

// limitError is a request over one of the server's limits: 413.
type limitError struct {
	limit string // the flag that sets it
	msg   string
}

func (e *limitError) Error() string { return e.msg }

func (h *HTTP) healthz(w http.ResponseWriter, r *http.Request) {
	if h.closing.Load() {
		http.Error(w, "shutting down\n", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}

// auth checks the bearer token, when the service has one.
func (h *HTTP) auth(route string, next http.Handler) http.Handler {
	if h.o.Token == "" {
		return next
	}
	want := []byte("Bearer " + h.o.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			h.m.rejected.WithLabelValues("unauthorized").Inc()
			w.Header().Set("WWW-Authenticate", `Bearer realm="apsp"`)
			h.fail(w, r, route, http.StatusUnauthorized, "unauthorized", nil, errors.New("a bearer token is required (Authorization: Bearer TOKEN)"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admit takes a slot of the bounded queue, or answers 503.
func (h *HTTP) admit(w http.ResponseWriter, r *http.Request, route string) bool {
	if h.closing.Load() {
		h.fail(w, r, route, http.StatusServiceUnavailable, "busy", nil, errShuttingDown)
		return false
	}
	select {
	case h.slots <- struct{}{}:
		h.m.inflight.Inc()
		return true
	default:
		h.m.rejected.WithLabelValues("busy").Inc()
		w.Header().Set("Retry-After", "1")
		h.fail(w, r, route, http.StatusServiceUnavailable, "busy", nil,
			fmt.Errorf("the queue is full (%d requests: --queue): retry later", cap(h.slots)))
		return false
	}
}

func (h *HTTP) release() {
	<-h.slots
	h.m.inflight.Dec()
}

// begin admits a request (see admit) and gives it its context, ended by
// --timeout; done releases both. ok is false when the request was
// refused, and answered.
func (h *HTTP) begin(w http.ResponseWriter, r *http.Request, route string) (ctx context.Context, done func(), ok bool) {
	if !h.admit(w, r, route) {
		return nil, nil, false
	}
	ctx, cancel := r.Context(), context.CancelFunc(func() {})
	if h.o.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, h.o.Timeout)
	}
	return ctx, func() { cancel(); h.release() }, true
}

// one answers POST /v1/{op}: one request, its answer as stdio's line.
func (h *HTTP) one(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	op := r.PathValue("op")
	if r.Method == http.MethodGet {
		op = "ping"
	}
	if a, ok := opAliases[op]; ok {
		op = a
	}
	route := "/v1/" + op
	ctx, done, ok := h.begin(w, r, route)
	if !ok {
		return
	}
	defer done()
	req, err := h.readRequest(w, r, op)
	defer releaseBody(req) // after the answer: nothing then refers to the body
	var id json.RawMessage
	if req != nil {
		id = req.ID
	}
	var res any
	if err == nil {
		res, err = h.answer(ctx, req)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			err = fmt.Errorf("past the server's --timeout (%v): %w", h.o.Timeout, err)
		}
		status, kind := h.status(err)
		h.failAt(w, r, route, status, kind, id, err, start)
		return
	}
	if op == "distances" && acceptsNPY(r) {
		if m, ok := res.(map[string]any); ok {
			if b64, ok := m["npy_b64"].(string); ok {
				npy, err := base64.StdEncoding.DecodeString(b64)
				if err == nil {
					w.Header().Set("Content-Type", "application/x-npy")
					w.Header().Set("Content-Length", strconv.Itoa(len(npy)))
					w.WriteHeader(http.StatusOK)
					w.Write(npy)
					h.done(r, route, http.StatusOK, 1, start)
					return
				}
			}
		}
	}
	body := success(id, res)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
	h.done(r, route, http.StatusOK, 1, start)
}

func acceptsNPY(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/x-npy")
}

// readRequest reads the body of a request for op: a stdio request in
// JSON (its "op" absent or op), or a graph file in any format apsp reads
// (any other Content-Type), its options in the query.
func (h *HTTP) readRequest(w http.ResponseWriter, r *http.Request, op string) (*request, error) {
	body := http.MaxBytesReader(w, r.Body, h.o.MaxBody)
	ct := r.Header.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.TrimSpace(strings.ToLower(ct))
	if r.Method == http.MethodGet || op == "ping" {
		return &request{Op: "ping"}, nil
	}
	// JSON when it says so; curl's -d default and no type at all are
	// sniffed: an object is a request, anything else a graph file.
	if r.ContentLength > h.o.MaxBody {
		// Refused before a buffer of that size is made.
		return nil, h.bodyError(&http.MaxBytesError{Limit: h.o.MaxBody})
	}
	var buf, pooled []byte
	if ct == "" || ct == "application/x-www-form-urlencoded" {
		var err error
		if buf, err = readAll(body, r.ContentLength, &pooled); err != nil {
			return nil, h.bodyError(err)
		}
		if t := bytes.TrimLeft(buf, " \t\r\n"); len(t) > 0 && t[0] == '{' {
			ct = "application/json"
		}
		body = io.NopCloser(bytes.NewReader(buf))
	}
	if ct == "application/json" {
		if buf == nil {
			var err error
			if buf, err = readAll(body, r.ContentLength, &pooled); err != nil {
				return nil, h.bodyError(err)
			}
		}
		req, err := decode(buf)
		req.body = pooled
		if err != nil {
			return req, err
		}
		if req.Op != "" && req.Op != op {
			return req, badRequest("op %q in the body of %s", req.Op, r.URL.Path)
		}
		req.Op = op
		return req, h.checkRequest(req)
	}
	return h.readGraphFile(body, r, op)
}

// bodyPool keeps the buffers of request bodies read whole (JSON requests
// of known length up to maxScratch bytes) between requests: a request's
// body is most of what it allocates.
var bodyPool sync.Pool

// readAll reads a body, its length known or not; a buffer it took from
// bodyPool is put in *pooled, for the caller to give back with
// releaseBody once nothing refers to the body's bytes.
func readAll(body io.Reader, n int64, pooled *[]byte) ([]byte, error) {
	if n > 0 && n < 1<<30 {
		var buf []byte
		if n <= maxScratch {
			if p, ok := bodyPool.Get().(*[]byte); ok {
				if int64(cap(*p)) >= n {
					buf = (*p)[:n]
				} else {
					bodyPool.Put(p) // for a smaller body
				}
			}
			if buf == nil {
				buf = make([]byte, n, max(n, 128<<10))
			}
			*pooled = buf
		} else {
			buf = make([]byte, n)
		}
		if _, err := io.ReadFull(body, buf); err != nil {
			return nil, err
		}
		// The reader must see its end for MaxBytesReader to refuse more.
		var one [1]byte
		if k, err := body.Read(one[:]); k > 0 || (err != nil && err != io.EOF) {
			if err == nil {
				err = errors.New("body longer than its Content-Length")
			}
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(body)
}

// releaseBody gives a request's pooled body buffer back.
func releaseBody(r *request) {
	if r != nil && r.body != nil {
		b := r.body
		r.body, r.edgesRaw, r.weightsRaw = nil, nil, nil
		bodyPool.Put(&b)
	}
}

func (h *HTTP) bodyError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &limitError{"max-body", fmt.Sprintf("request body over %d bytes (the server's --max-body)", mb.Limit)}
	}
	return badRequest("reading the body: %v", err)
}

// checkRequest refuses, before any graph is built, what the service
// does not serve: a "file" written on the server, and graphs over the
// limits.
func (h *HTTP) checkRequest(r *request) error {
	if r.File != "" {
		return badRequest(`"file" (a path on the server) is not served over HTTP: ask for the matrix in the answer (Accept: application/x-npy)`)
	}
	m := len(r.Edges)
	if r.EdgesB64 != "" {
		m = base64.StdEncoding.DecodedLen(len(r.EdgesB64)) / 8
	} else if r.edgesRaw != nil {
		m = base64.StdEncoding.DecodedLen(len(r.edgesRaw)) / 8
	}
	directed := 2
	if r.Directed {
		directed = 1
	}
	if m*directed > h.o.MaxArcs {
		return &limitError{"max-arcs", fmt.Sprintf("%d arcs or more, over the %d of a request (the server's --max-arcs)", m*directed, h.o.MaxArcs)}
	}
	n := 0
	if r.N != nil {
		n = *r.N
	} else if r.Edges != nil {
		for _, e := range r.Edges {
			for _, v := range e {
				n = max(n, int(min(v, 1<<40))+1)
			}
		}
	} else if r.edgesRaw != nil || r.EdgesB64 != "" {
		raw := r.edgesRaw
		if raw == nil {
			raw = []byte(r.EdgesB64)
		}
		if dec, err := decodeB64(raw); err == nil {
			for i := 0; i+4 <= len(dec); i += 4 {
				v := int(int32(uint32(dec[i]) | uint32(dec[i+1])<<8 | uint32(dec[i+2])<<16 | uint32(dec[i+3])<<24))
				n = max(n, v+1)
			}
		}
	}
	if n > h.o.MaxVertices {
		return &limitError{"max-vertices", fmt.Sprintf("%d vertices, over the %d of a request (the server's --max-vertices)", n, h.o.MaxVertices)}
	}
	return nil
}

// readGraphFile reads a body that is a graph file: ?format= names its
// format (default: sniffed from the content), ?directed, ?one_based,
// ?unweighted, ?labels, ?weight_key read it as the CLI's flags do, and
// ?algorithm, ?device, ?threads, ?lanes, ?reachable, ?source, ?target,
// ?wf_improved, ?id are the request's other fields.
func (h *HTTP) readGraphFile(body io.Reader, r *http.Request, op string) (*request, error) {
	q := r.URL.Query()
	req := &request{Op: op}
	if id := q.Get("id"); id != "" {
		if json.Valid([]byte(id)) {
			req.ID = json.RawMessage(id)
		} else {
			req.ID = quote(id)
		}
	}
	var err error
	boolean := func(key string) bool {
		v := q.Get(key)
		if v == "" || err != nil {
			return false
		}
		b, e := strconv.ParseBool(v)
		if e != nil {
			err = badRequest("?%s=%s: want true or false", key, v)
		}
		return b
	}
	integer := func(key string) *int {
		v := q.Get(key)
		if v == "" || err != nil {
			return nil
		}
		x, e := strconv.Atoi(v)
		if e != nil {
			err = badRequest("?%s=%s: want an integer", key, v)
		}
		return &x
	}
	ro := graph.ReadOptions{Directed: boolean("directed"), OneBased: boolean("one_based"),
		Unweighted: boolean("unweighted"), Labels: boolean("labels"), WeightKey: q.Get("weight_key")}
	req.Directed = ro.Directed
	req.Options = options{Algorithm: q.Get("algorithm"), Device: q.Get("device"), Lanes: q.Get("lanes"), Reachable: boolean("reachable")}
	if t := integer("threads"); t != nil {
		req.Options.Threads = *t
	}
	req.Source, req.Target = integer("source"), integer("target")
	if q.Has("wf_improved") {
		wf := boolean("wf_improved")
		req.WFImproved = &wf
	}
	if err != nil {
		return req, err
	}
	if f := q.Get("format"); f != "" {
		if ro.Format, err = graph.ParseFormat(f); err != nil {
			return req, badRequest("?format=%s: %v", f, err)
		}
	}
	// The body is read whole (it is bounded by --max-body) before it is
	// parsed: graph.Read reads a stream of unknown size ahead on another
	// goroutine, whose read in progress would otherwise outlive a parse
	// that failed early and race the answer on the ResponseWriter.
	data, err := io.ReadAll(body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return req, h.bodyError(err)
		}
		return req, badRequest("reading the body: %v", err)
	}
	g, err := graph.Read(bytes.NewReader(data), "body", ro)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return req, h.bodyError(err)
		}
		if errors.Is(err, graph.ErrTooLarge) {
			return req, err
		}
		return req, &graphError{err}
	}
	if g.N() > h.o.MaxVertices {
		return req, &limitError{"max-vertices", fmt.Sprintf("%d vertices, over the %d of a request (the server's --max-vertices)", g.N(), h.o.MaxVertices)}
	}
	if g.Arcs() > h.o.MaxArcs {
		return req, &limitError{"max-arcs", fmt.Sprintf("%d arcs, over the %d of a request (the server's --max-arcs)", g.Arcs(), h.o.MaxArcs)}
	}
	req.g = g
	return req, nil
}

// answer computes a request: a small graph's stats or summary in a batch,
// anything else alone, as the stdio server does.
func (h *HTTP) answer(ctx context.Context, r *request) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("%w: %v", errInternal, p)
		}
	}()
	if g, ok := h.batchable(r); ok {
		j := &job{ctx: ctx, op: r.Op, opt: r.Options, g: g, done: make(chan outcome, 1)}
		if err := h.b.submit(ctx, j); err != nil {
			return nil, err
		}
		select {
		case o := <-j.done:
			return o.res, o.err
		case <-ctx.Done():
			return nil, ctx.Err() // the batcher drops it if its batch has not started
		}
	}
	if r.Op == "ping" {
		return h.s.do(ctx, r)
	}
	h.m.queued.Inc()
	select {
	case h.workers <- struct{}{}:
		h.m.queued.Dec()
	case <-ctx.Done():
		h.m.queued.Dec()
		return nil, ctx.Err()
	}
	defer func() { <-h.workers }()
	if h.onAlone != nil {
		h.onAlone(true)
		defer h.onAlone(false)
	}
	h.m.computeRun.Inc()
	start := time.Now()
	res, err = h.s.do(ctx, r)
	h.m.compute.WithLabelValues("alone").Add(time.Since(start).Seconds())
	h.m.computeRun.Dec()
	return res, err
}

// batchable returns the graph of a request the batcher computes: stats
// or summary of a graph given in the request (not one the server holds),
// no larger than the batch sizes, with valid options and no field of
// another op. Anything else goes the stdio server's way, which also says
// what is wrong with a request.
func (h *HTTP) batchable(r *request) (*graph.Graph, bool) {
	if r.Op != "stats" && r.Op != "summary" {
		return nil, false
	}
	if r.Source != nil || r.Target != nil || r.File != "" || r.WFImproved != nil {
		return nil, false
	}
	// A held graph's fields (with an inline graph the stdio path refuses
	// them, as it does every request it cannot answer as asked).
	if r.Graph != "" || r.Handle != "" || r.Add != nil || r.Remove != nil || r.AddWeights != nil || r.Candidates != nil {
		return nil, false
	}
	if r.g == nil && r.N == nil && r.Edges == nil && r.edgesRaw == nil && r.EdgesB64 == "" {
		return nil, false // no inline graph
	}
	if r.Options.apsp().Validate(false) != nil {
		return nil, false
	}
	g, err := r.buildGraph()
	if err != nil {
		return nil, false
	}
	r.g = g // built once: the stdio path reuses it
	limit := h.o.BatchVertices
	if g.Weighted() {
		limit = h.o.BatchWeightedVertices
	}
	if g.N() > limit {
		return nil, false
	}
	return g, true
}

// status maps an error to an HTTP status and an error kind: stdio's kinds,
// and timeout, cancelled, busy and too_large for the server's own limits.
func (h *HTTP) status(err error) (int, string) {
	var le *limitError
	switch {
	case errors.As(err, &le):
		h.m.rejected.WithLabelValues("limit").Inc()
		return http.StatusRequestEntityTooLarge, "too_large"
	case errors.Is(err, context.DeadlineExceeded):
		h.m.cancelled.Inc()
		return http.StatusGatewayTimeout, "timeout"
	case errors.Is(err, context.Canceled):
		h.m.cancelled.Inc()
		return 499, "cancelled" // the client went away: nobody reads it
	case errors.Is(err, errShuttingDown):
		return http.StatusServiceUnavailable, "busy"
	}
	kind := Kind(err)
	switch kind {
	case "request", "options":
		return http.StatusBadRequest, kind
	case "graph", "negative_cycle", "weights_too_large", "no_path", "no_gpu":
		return http.StatusUnprocessableEntity, kind
	case "too_large":
		return http.StatusInsufficientStorage, kind // the library's memory admission
	}
	return http.StatusInternalServerError, kind
}

// fail writes an error answer: stdio's failure line (with "limit" for a
// server limit) and status.
func (h *HTTP) fail(w http.ResponseWriter, r *http.Request, route string, status int, kind string, id json.RawMessage, err error) {
	h.failAt(w, r, route, status, kind, id, err, time.Time{})
}

// failAt is fail for a request that arrived at start.
func (h *HTTP) failAt(w http.ResponseWriter, r *http.Request, route string, status int, kind string, id json.RawMessage, err error, start time.Time) {
	m := map[string]json.RawMessage{"id": idOf(id), "error": quote(err.Error()), "kind": quote(kind)}
	var nc *apsp.NegativeCycleError
	if errors.As(err, &nc) {
		m["vertex"] = json.RawMessage(strconv.Itoa(nc.Vertex))
	}
	body := line(m)
	var le *limitError
	if errors.As(err, &le) {
		body = append(body[:len(body)-2], `,"limit":`...)
		body = append(body, quote(le.limit)...)
		body = append(body, "}\n"...)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if status == http.StatusRequestEntityTooLarge || status == http.StatusBadRequest {
		// The body may not have been read to its end.
		w.Header().Set("Connection", "close")
	}
	w.WriteHeader(status)
	w.Write(body)
	var d time.Duration
	if !start.IsZero() {
		d = time.Since(start)
	}
	if route != "" {
		h.m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
		if !start.IsZero() {
			h.m.latency.WithLabelValues(route).Observe(d.Seconds())
		}
	}
	h.o.Log.Info("request", "method", r.Method, "route", routeOr(route, r), "status", status, "kind", kind,
		"graphs", 0, "duration", d, "remote", r.RemoteAddr, "error", err.Error())
}

func routeOr(route string, r *http.Request) string {
	if route == "" {
		return r.URL.Path
	}
	return route
}

// done records a request answered.
func (h *HTTP) done(r *http.Request, route string, status, graphs int, start time.Time) {
	d := time.Since(start)
	h.m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	h.m.latency.WithLabelValues(route).Observe(d.Seconds())
	h.m.graphs.WithLabelValues(route).Add(float64(graphs))
	h.o.Log.Info("request", "method", r.Method, "route", route, "status", status,
		"graphs", graphs, "duration", d, "remote", r.RemoteAddr)
}

// bulkWindow bounds the lines of one bulk request in flight at once.
const bulkWindow = 256

// bulk answers POST /v1/bulk: stdio requests as JSON Lines in, their
// answers as JSON Lines out, in input order, each written and flushed as
// soon as it and those before it are done. A line's failure is its
// answer's error; the status is 200 once the stream has started.
func (h *HTTP) bulk(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	const route = "/v1/bulk"
	ctx, done, ok := h.begin(w, r, route)
	if !ok {
		return
	}
	defer done()
	rc := http.NewResponseController(w)
	rc.EnableFullDuplex() // read lines while answers go out (HTTP/1.1)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)

	type pending struct{ out chan []byte }
	queue := make(chan pending, bulkWindow)
	var wg sync.WaitGroup
	written := 0
	writeErr := make(chan struct{})
	go func() { // the writer: answers in input order
		defer close(writeErr)
		failed := false
		for p := range queue {
			resp := <-p.out
			if failed {
				continue
			}
			if _, err := w.Write(resp); err != nil {
				failed = true
				continue
			}
			if err := rc.Flush(); err != nil {
				failed = true
				continue
			}
			written++
		}
	}()
	in := bufio.NewReaderSize(r.Body, 1<<16)
	maxLine := int(min(h.o.MaxBody, 1<<31-1))
	var readErr error
	for lineNo := 1; ctx.Err() == nil; lineNo++ {
		line, tooLong, err := readLine(in, maxLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			p := pending{out: make(chan []byte, 1)}
			queue <- p // blocks while bulkWindow lines are in flight
			if tooLong {
				p.out <- failure(nil, &limitError{"max-body", fmt.Sprintf("line %d: longer than %d bytes (the server's --max-body)", lineNo, maxLine)})
			} else {
				wg.Add(1)
				go func(line []byte) {
					defer wg.Done()
					p.out <- h.bulkLine(ctx, line)
				}(line)
			}
		}
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
	}
	close(queue)
	wg.Wait()
	<-writeErr
	status := http.StatusOK
	if readErr != nil || ctx.Err() != nil {
		status = 499
	}
	h.done(r, route, status, written, start)
}

// bulkLine answers one line of a bulk request.
func (h *HTTP) bulkLine(ctx context.Context, text []byte) []byte {
	req, err := decode(text)
	var id json.RawMessage
	if req != nil {
		id = req.ID
	}
	if err == nil {
		err = h.checkRequest(req)
	}
	if err == nil && req.Op == "" {
		err = badRequest(`no "op" (a bulk line is a request of apsp serve --stdio)`)
	}
	var res any
	if err == nil {
		res, err = h.answer(ctx, req)
	}
	if err != nil {
		_, kind := h.status(err)
		m := map[string]json.RawMessage{"id": idOf(id), "error": quote(err.Error()), "kind": quote(kind)}
		var nc *apsp.NegativeCycleError
		if errors.As(err, &nc) {
			m["vertex"] = json.RawMessage(strconv.Itoa(nc.Vertex))
		}
		return line(m)
	}
	return success(id, res)
}
