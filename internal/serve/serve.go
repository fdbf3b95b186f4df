package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/encode"
	"github.com/apsp/apsp/graph"
)

// DefaultMaxLine bounds a request line (a graph of tens of millions of
// edges in base64; as JSON pairs, a line takes about twenty times its
// bytes to decode): a longer line is answered with an error, skipped, and
// the stream goes on.
const DefaultMaxLine = 256 << 20

// maxInlineMatrix bounds a distance matrix returned inline: base64 and
// JSON take several copies of it, so a larger one goes to a "file".
const maxInlineMatrix = 64 << 20

// Server answers requests.
type Server struct {
	// MaxLine bounds a request's bytes (0: DefaultMaxLine).
	MaxLine int
	// Version is what ping answers.
	Version string
	// MaxGraphs and MaxHeld bound the graphs held by op load: their
	// count and their bytes (0: DefaultMaxGraphs, DefaultMaxHeld).
	MaxGraphs int
	MaxHeld   int64
	// Evaluators are kept a set of options each, so that a search loop's
	// summaries reuse the kept plan (apsp.Evaluator); mu guards the map
	// (the HTTP service answers requests concurrently).
	mu         sync.Mutex
	evaluators map[options]*apsp.Evaluator
	// held are the loaded graphs by handle, heldTotal their bytes, named
	// the last handle the server made up (handles.go); heldMu guards them,
	// so that concurrent changes to one handle apply one after the other.
	heldMu    sync.Mutex
	held      map[string]*held
	heldTotal int64
	named     int
}

// Serve reads requests from r until its end and writes each response to w
// as soon as it is computed, flushing it. Only a failure to read r or to
// write w ends it early; ctx's cancellation fails the request in progress
// and the next ones, which are still answered.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriterSize(w, 1<<16)
	maxLine := s.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readLine(in, maxLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			var resp []byte
			if tooLong {
				resp = failure(nil, badRequest("line %d: longer than %d bytes (the server's limit)", lineNo, maxLine))
			} else {
				resp = s.Handle(ctx, line)
			}
			if _, werr := out.Write(resp); werr != nil {
				return werr
			}
			if werr := out.Flush(); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its line ending; a line of more than
// max bytes (the ending aside) is consumed to its end and reported by
// tooLong with no bytes.
func readLine(in *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := in.ReadSlice('\n')
		if !tooLong {
			// Up to max bytes and a CRLF may be kept until the end.
			if len(line)+len(chunk) > max+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > max {
			tooLong, line = true, nil
		}
		return line, tooLong, err
	}
}

// Handle answers one request line with one response line (newline
// included). It never panics on any input: a panic below it is answered as
// an internal error.
func (s *Server) Handle(ctx context.Context, line []byte) (resp []byte) {
	var id json.RawMessage // the request's, once decoded
	defer func() {
		if p := recover(); p != nil {
			resp = failure(id, fmt.Errorf("%w: %v", errInternal, p))
		}
	}()
	r, err := decode(line)
	id = r.ID
	if err != nil {
		return failure(id, err)
	}
	res, err := s.do(ctx, r)
	if err != nil {
		return failure(id, err)
	}
	return success(id, res)
}

// errInternal marks a panic below the server (a bug).
var errInternal = errors.New("internal error")

// do runs one request.
func (s *Server) do(ctx context.Context, r *request) (any, error) {
	opt := r.Options.apsp()
	const ops = "ping, stats, summary, extremes, eccentricity, closeness, harmonic, estimate, distances, histogram, path, load, update or drop"
	switch r.Op {
	case "ping":
		return map[string]string{"version": s.Version}, nil
	case "load", "update", "drop":
		if err := r.checkHeldOp(); err != nil {
			return nil, err
		}
		switch r.Op {
		case "load":
			return s.load(r)
		case "drop":
			return s.drop(r)
		}
		g, _, err := s.changed(r)
		if err != nil {
			return nil, err
		}
		return heldInfo(r.Graph, g), nil
	case "stats", "summary", "extremes", "eccentricity", "closeness", "harmonic", "estimate", "distances", "histogram", "path":
	case "":
		return nil, badRequest(`no "op" (want %s)`, ops)
	default:
		return nil, badRequest("unknown op %q (want %s)", r.Op, ops)
	}
	if (r.Source != nil || r.Target != nil) != (r.Op == "path") {
		return nil, badRequest(`"source" and "target" belong to op "path", which needs both`)
	}
	if r.File != "" && r.Op != "distances" {
		return nil, badRequest(`"file" belongs to op "distances"`)
	}
	if r.WFImproved != nil && r.Op != "closeness" {
		return nil, badRequest(`"wf_improved" belongs to op "closeness"`)
	}
	if ((r.Sample != nil || r.Seed != 0) && r.Op != "estimate" && r.Op != "closeness") || (r.Op == "estimate" && r.Sample == nil) ||
		(r.Seed != 0 && r.Sample == nil) {
		return nil, badRequest(`"sample" (and "seed") belong to ops "estimate", which needs "sample", and "closeness"`)
	}
	if r.Sample != nil && r.Sources != nil {
		return nil, badRequest(`"sample" draws its own sources: not with "sources"`)
	}
	if r.Sources != nil && r.Op != "distances" && r.Op != "histogram" {
		if r.Op != "eccentricity" && r.Op != "closeness" && r.Op != "harmonic" {
			return nil, badRequest(`"sources" belongs to ops "eccentricity", "closeness", "harmonic", "distances" and "histogram"`)
		}
		opt.Sources = r.Sources
	}
	if r.Targets != nil && r.Op != "distances" && r.Op != "histogram" {
		return nil, badRequest(`"targets" belongs to ops "distances" and "histogram"`)
	}
	if r.Handle != "" {
		return nil, badRequest(`"handle" names the graph a load holds: a measure names a held graph by "graph"`)
	}
	if err := opt.Validate(r.Op == "extremes"); err != nil {
		return nil, err
	}
	if r.Candidates != nil {
		return s.candidates(ctx, r, opt)
	}
	var ev *apsp.Evaluator
	if r.Op == "summary" {
		var err error
		if ev, err = s.evaluator(r.Options); err != nil {
			return nil, err
		}
	}
	var g *graph.Graph
	var undo func()
	var err error
	switch {
	case r.Graph != "":
		if r.hasGraphFields() {
			return nil, badRequest(`a request names a held graph ("graph") or carries one, not both`)
		}
		if r.Op == "path" {
			// Refused before any change is made.
			s.heldMu.Lock()
			h, err := s.heldGraph(r.Graph)
			n := 0
			if err == nil {
				n = h.g.N()
			}
			s.heldMu.Unlock()
			if err != nil {
				return nil, err
			}
			if err := checkPath(n, r); err != nil {
				return nil, err
			}
		}
		g, undo, err = s.changed(r)
	case r.Add != nil || r.Remove != nil || r.AddWeights != nil:
		return nil, badRequest(`"add", "remove" and "add_weights" change a held graph: name it by "graph"`)
	default:
		g, err = r.buildGraph()
	}
	if err != nil {
		return nil, err
	}
	if undo != nil {
		// A failed request (an error, or a panic that Handle recovers)
		// leaves its held graph as it was.
		done := false
		defer func() {
			if !done {
				undo()
			}
		}()
		res, err := s.measure(ctx, r, g, opt, ev)
		done = err == nil
		return res, err
	}
	return s.measure(ctx, r, g, opt, ev)
}

// measure answers measuring op r on graph g.
func (s *Server) measure(ctx context.Context, r *request, g *graph.Graph, opt apsp.Options, ev *apsp.Evaluator) (any, error) {
	switch r.Op {
	case "stats":
		return apsp.ComputeStats(ctx, g, opt)
	case "extremes":
		return apsp.ComputeExtremes(ctx, g, opt)
	case "summary":
		return ev.Summary(ctx, g)
	case "eccentricity":
		ecc, err := apsp.Eccentricities(ctx, g, opt)
		if err != nil {
			return nil, err
		}
		return map[string]any{"eccentricity": ecc}, nil
	case "closeness":
		wf := r.WFImproved == nil || *r.WFImproved // NetworkX's default
		if r.Sample != nil {
			est, err := apsp.EstimateCloseness(ctx, g, *r.Sample, r.Seed, opt, wf)
			if err != nil {
				return nil, err
			}
			return map[string]any{"closeness": est}, nil
		}
		c, err := apsp.ClosenessCentrality(ctx, g, opt, wf)
		if err != nil {
			return nil, err
		}
		return map[string]any{"closeness": finiteOrNull(c)}, nil
	case "estimate":
		return apsp.EstimateStats(ctx, g, *r.Sample, r.Seed, opt)
	case "harmonic":
		h, err := apsp.HarmonicCentrality(ctx, g, opt)
		if err != nil {
			return nil, err
		}
		return map[string]any{"harmonic": finiteOrNull(h)}, nil
	case "histogram":
		if r.Sources != nil || r.Targets != nil {
			return apsp.DistanceHistogramBetween(ctx, g, r.Sources, r.Targets, opt)
		}
		return apsp.DistanceHistogram(ctx, g, opt)
	case "path":
		if err := checkPath(g.N(), r); err != nil {
			return nil, err
		}
		return apsp.ShortestPath(ctx, g, *r.Source, *r.Target, opt)
	}
	return s.distances(ctx, g, opt, r)
}

// listed is the length of a list of vertices, n for nil (every vertex).
func listed(vs []int, n int) uint64 {
	if vs == nil {
		return uint64(n)
	}
	return uint64(len(vs))
}

// checkPath checks a path's source and target on a graph of n vertices.
func checkPath(n int, r *request) error {
	if r.Source == nil || r.Target == nil {
		return badRequest(`op "path" needs "source" and "target"`)
	}
	if u, v := *r.Source, *r.Target; u < 0 || v < 0 || u >= n || v >= n {
		return &graphError{fmt.Errorf("path from %d to %d: vertex out of range 0..%d", u, v, n-1)}
	}
	return nil
}

// evaluator is the kept Evaluator for o, made on first use.
func (s *Server) evaluator(o options) (*apsp.Evaluator, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev := s.evaluators[o]; ev != nil {
		return ev, nil
	}
	ev, err := apsp.NewEvaluator(o.apsp())
	if err != nil {
		return nil, err
	}
	if s.evaluators == nil {
		s.evaluators = map[options]*apsp.Evaluator{}
	}
	if len(s.evaluators) >= 64 {
		clear(s.evaluators) // a client that varies its options every call keeps no plans
	}
	s.evaluators[o] = ev
	return ev, nil
}

// distances computes the matrix and returns it as a .npy file's bytes, in
// the default dtype of apsp dist (the narrowest exact one: clients read the
// sentinel as the dtype's maximum, as the Python package does), in
// base64 (up to maxInlineMatrix bytes of matrix), or writes that file at
// path: a regular file, created beside it before computing and renamed
// into place when written, so that a failure leaves nothing and an
// unwritable path is refused before any work. Devices, pipes, links and
// directories are refused, rather than replaced or written through.
func (s *Server) distances(ctx context.Context, g *graph.Graph, opt apsp.Options, r *request) (any, error) {
	path := r.File
	var tmp *os.File
	if path != "" {
		if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
			return nil, badRequest("file %s: not a regular file (%v)", path, st.Mode().Type())
		}
		var err error
		if tmp, err = os.CreateTemp(filepath.Dir(path), ".apsp-*.npy"); err != nil {
			return nil, badRequest("file: %v", err)
		}
		defer func() {
			if tmp != nil {
				tmp.Close()
				os.Remove(tmp.Name())
			}
		}()
	} else if rows, cols := listed(r.Sources, g.N()), listed(r.Targets, g.N()); rows*cols > maxInlineMatrix { // a byte a distance at least (uint8)
		return nil, fmt.Errorf("distances of %d×%d vertices: %d bytes or more, over the %d returned inline: give a \"file\": %w",
			rows, cols, rows*cols, maxInlineMatrix, graph.ErrTooLarge)
	}
	var d encode.Matrix
	var err error
	if r.Sources != nil || r.Targets != nil {
		d, err = apsp.DistancesBetween(ctx, g, r.Sources, r.Targets, opt)
	} else {
		d, err = apsp.AllPairs(ctx, g, opt)
	}
	if err != nil {
		return nil, err
	}
	if path == "" {
		var buf bytes.Buffer
		if err := encode.NPY(&buf, d, encode.Auto); err != nil {
			return nil, err
		}
		if buf.Len() > maxInlineMatrix+4096 {
			return nil, fmt.Errorf("distances: %d bytes, over the %d returned inline: give a \"file\": %w", buf.Len(), maxInlineMatrix, graph.ErrTooLarge)
		}
		return map[string]any{"npy_b64": base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm() // a file replaced keeps its permissions
	}
	err = encode.NPY(tmp, d, encode.Auto)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return nil, err
	}
	tmp = nil // renamed: nothing to remove
	return map[string]any{"file": path}, nil
}

// success is a response line with the result.
func success(id json.RawMessage, res any) []byte {
	body, err := json.Marshal(res)
	if err != nil {
		return failure(id, fmt.Errorf("%w: encoding the result: %v", errInternal, err))
	}
	return line(map[string]json.RawMessage{"id": idOf(id), "result": body})
}

// failure is a response line with the error, its kind, and the vertex of
// a negative cycle.
func failure(id json.RawMessage, err error) []byte {
	kind := Kind(err)
	m := map[string]json.RawMessage{"id": idOf(id), "error": quote(err.Error()), "kind": quote(kind)}
	var nc *apsp.NegativeCycleError
	if errors.As(err, &nc) {
		m["vertex"] = json.RawMessage(fmt.Sprint(nc.Vertex))
	}
	return line(m)
}

// idOf is the request's id, null when it has none.
func idOf(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

func quote(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// line writes m as one JSON line, "id" first.
func line(m map[string]json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	b.Write(m["id"])
	for _, k := range []string{"result", "error", "kind", "vertex"} {
		if v, ok := m[k]; ok {
			fmt.Fprintf(&b, ",%q:", k)
			b.Write(v)
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// Kind names what went wrong, for a client to dispatch on: request,
// unknown_handle, options, graph, negative_cycle, weights_too_large, too_large, no_gpu,
// no_path, internal, or failed (any other failure of the computation).
func Kind(err error) string {
	var re *requestError
	var he *handleError
	var ge *graphError
	var nc *apsp.NegativeCycleError
	switch {
	case errors.As(err, &re):
		return "request"
	case errors.As(err, &he):
		return "unknown_handle"
	case errors.Is(err, errInternal):
		return "internal"
	case errors.Is(err, apsp.ErrInvalidOptions):
		return "options"
	case errors.As(err, &nc):
		return "negative_cycle"
	case errors.Is(err, apsp.ErrWeightsTooLarge):
		return "weights_too_large"
	case errors.Is(err, graph.ErrTooLarge):
		return "too_large"
	case errors.Is(err, apsp.ErrNoGPU):
		return "no_gpu"
	case errors.Is(err, apsp.ErrNoPath):
		return "no_path"
	case errors.As(err, &ge), errors.Is(err, apsp.ErrEmptyGraph), errors.Is(err, apsp.ErrNilGraph), errors.Is(err, apsp.ErrNegativeLengths):
		return "graph"
	}
	return "failed"
}

// finiteOrNull is xs for JSON, null in place of +Inf (a closeness of
// lengths so small that their sum underflows, as NetworkX's inf).
func finiteOrNull(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		if !math.IsInf(x, 0) {
			out[i] = x
		}
	}
	return out
}
