package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// request is one line of input.
type request struct {
	ID           json.RawMessage `json:"id"`
	Op           string          `json:"op"`
	N            *int            `json:"n"`
	Directed     bool            `json:"directed"`
	Edges        [][]int64       `json:"edges"`
	EdgesB64     string          `json:"edges_b64"`
	Weights      []json.Number   `json:"weights"`
	WeightsB64   string          `json:"weights_b64"`
	WeightsDtype string          `json:"weights_dtype"`
	Options      options         `json:"options"`
	Source       *int            `json:"source"`
	Target       *int            `json:"target"`
	File         string          `json:"file"`
	WFImproved   *bool           `json:"wf_improved"`
	// Sources are the vertices ops eccentricity, closeness and harmonic
	// answer for (Options.Sources), and the rows of op distances;
	// Targets its columns (apsp.DistancesBetween: either alone means
	// every vertex for the other).
	Sources []int `json:"sources"`
	Targets []int `json:"targets"`
	// Sample and Seed are op estimate's draw (apsp.EstimateStats).
	Sample *int   `json:"sample"`
	Seed   uint64 `json:"seed"`
	// Graph names a held graph (handles.go) in place of the graph
	// fields; Handle names the graph a load holds; Add, Remove and
	// AddWeights change a held graph.
	Graph      string        `json:"graph"`
	Handle     string        `json:"handle"`
	Add        [][]int64     `json:"add"`
	Remove     [][]int64     `json:"remove"`
	AddWeights []json.Number `json:"add_weights"`
	// Candidates are changes each measured apart on a held graph that
	// none of them changes (op summary; candidates.go).
	Candidates []candidate `json:"candidates"`

	// g, when set, is the request's graph, read by the HTTP service from a
	// graph file in the body: buildGraph returns it.
	g *graph.Graph

	// edgesRaw and weightsRaw are the base64 fields' bytes when liftB64
	// took them out of the line (EdgesB64 and WeightsB64 are then "").
	edgesRaw, weightsRaw []byte
	// body, when not nil, is the pooled buffer the HTTP service read the
	// request into (releaseBody).
	body []byte
}

// options are apsp.Options as a request spells them.
type options struct {
	Algorithm string  `json:"algorithm"`
	Device    string  `json:"device"`
	Threads   int     `json:"threads"`
	Lanes     string  `json:"lanes"`
	Reachable bool    `json:"reachable"`
	Mode      string  `json:"mode"`
	Effective float64 `json:"effective"`
}

func (o options) apsp() apsp.Options {
	return apsp.Options{Algorithm: o.Algorithm, Device: o.Device, Threads: o.Threads, Lanes: o.Lanes, Reachable: o.Reachable,
		Mode: o.Mode, Effective: o.Effective}
}

// requestError is a request the server cannot read: kind "request".
type requestError struct{ msg string }

func (e *requestError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &requestError{fmt.Sprintf(format, args...)}
}

// graphError is a graph the request describes wrongly: kind "graph".
type graphError struct{ err error }

func (e *graphError) Error() string { return e.err.Error() }
func (e *graphError) Unwrap() error { return e.err }

// decode reads one request strictly: unknown fields are refused, so that a
// misspelt option is not silently ignored.
func decode(line []byte) (*request, error) {
	var r request
	line, r.edgesRaw, r.weightsRaw = liftB64(line)
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	d.UseNumber()
	if err := d.Decode(&r); err != nil {
		return &r, badRequest("%v", err)
	}
	if len(bytes.TrimSpace(line[d.InputOffset():])) > 0 {
		return &r, badRequest("one JSON object a line: more after it")
	}
	return &r, nil
}

// buildGraph makes the request's graph.
func (r *request) buildGraph() (*graph.Graph, error) {
	if r.g != nil {
		return r.g, nil
	}
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	us, vs, err := r.endpoints(sc)
	if err != nil {
		return nil, err
	}
	ints, floats, err := r.weights(len(us))
	if err != nil {
		return nil, err
	}
	if r.N != nil && *r.N < 0 {
		return nil, badRequest("n = %d: want a vertex count", *r.N)
	}
	if ints == nil && floats == nil {
		// Unweighted: straight from the arrays, no arc buffer.
		n := -1
		if r.N != nil {
			n = *r.N
		}
		g, err := graph.FromEdges(n, r.Directed, us, vs)
		if err != nil && !errors.Is(err, graph.ErrTooLarge) {
			err = &graphError{err}
		}
		return g, err
	}
	b := graph.NewBuilder(r.Directed)
	n := 0
	if r.N != nil {
		n = *r.N
	} else {
		for i := range us {
			n = max(n, int(us[i])+1, int(vs[i])+1)
		}
	}
	if err := b.SetVertices(n); err != nil {
		return nil, err
	}
	b.Grow(len(us))
	for i := range us {
		u, v := int(us[i]), int(vs[i])
		if u < 0 || v < 0 || u >= n || v >= n {
			return nil, &graphError{fmt.Errorf("edge %d: vertex out of range 0..%d: %d %d", i, n-1, u, v)}
		}
		switch {
		case ints != nil:
			err = b.AddIntEdge(u, v, ints[i])
		case floats != nil:
			err = b.AddFloatEdge(u, v, floats[i])
		default:
			err = b.AddEdge(u, v)
		}
		if err != nil {
			if errors.Is(err, graph.ErrTooLarge) {
				return nil, err
			}
			return nil, &graphError{fmt.Errorf("edge %d: %w", i, err)}
		}
	}
	return b.Build(), nil
}

// scratch holds the arrays a request's edges pass through on their way
// into a graph (the decoded base64, the endpoints), which the graph does
// not keep: pooled, so that a busy service does not make them garbage
// twice a request (the GC took a quarter of the HTTP service's CPU at
// 15 000 graphs of 87 KB a second).
type scratch struct {
	raw    []byte
	us, vs []int32
}

// maxScratch bounds the bytes a pooled scratch keeps between requests.
const maxScratch = 16 << 20

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (sc *scratch) release() {
	if cap(sc.raw) > maxScratch || 4*cap(sc.us) > maxScratch {
		*sc = scratch{}
	}
	scratchPool.Put(sc)
}

// grown returns s resized to n, reusing its array when it is large enough.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// endpoints are the edges' tails and heads, from "edges" or "edges_b64",
// in sc's arrays.
func (r *request) endpoints(sc *scratch) (us, vs []int32, err error) {
	if r.EdgesB64 != "" {
		r.edgesRaw = []byte(r.EdgesB64)
	}
	if r.Edges != nil && r.edgesRaw != nil {
		return nil, nil, badRequest("edges and edges_b64 both given")
	}
	if r.edgesRaw != nil {
		sc.raw = grown(sc.raw, base64.StdEncoding.DecodedLen(len(r.edgesRaw)))
		k, err := base64.StdEncoding.Decode(sc.raw, r.edgesRaw)
		if err != nil {
			return nil, nil, badRequest("edges_b64: %v", err)
		}
		raw := sc.raw[:k]
		if len(raw)%8 != 0 {
			return nil, nil, badRequest("edges_b64: %d bytes, not pairs of little-endian int32", len(raw))
		}
		m := len(raw) / 8
		sc.us, sc.vs = grown(sc.us, m), grown(sc.vs, m)
		us, vs = sc.us, sc.vs
		for i := range m {
			us[i] = int32(binary.LittleEndian.Uint32(raw[8*i:]))
			vs[i] = int32(binary.LittleEndian.Uint32(raw[8*i+4:]))
		}
		return us, vs, nil
	}
	sc.us, sc.vs = grown(sc.us, len(r.Edges)), grown(sc.vs, len(r.Edges))
	us, vs = sc.us, sc.vs
	for i, e := range r.Edges {
		if len(e) != 2 {
			return nil, nil, badRequest("edges[%d]: %d numbers, want [u, v] (weights go in \"weights\")", i, len(e))
		}
		if min(e[0], e[1]) < math.MinInt32 || max(e[0], e[1]) > math.MaxInt32 {
			return nil, nil, &graphError{fmt.Errorf("edge %d: vertex id beyond int32: %d %d", i, e[0], e[1])}
		}
		us[i], vs[i] = int32(e[0]), int32(e[1])
	}
	return us, vs, nil
}

// weights are the edges' lengths: integers when every weight is one (or
// the dtype is int64), else float64; nil, nil for an unweighted graph.
func (r *request) weights(m int) (ints []int64, floats []float64, err error) {
	if r.WeightsB64 != "" {
		r.weightsRaw = []byte(r.WeightsB64)
	}
	switch {
	case r.Weights != nil && r.weightsRaw != nil:
		return nil, nil, badRequest("weights and weights_b64 both given")
	case r.weightsRaw != nil:
		raw, err := decodeB64(r.weightsRaw)
		if err != nil {
			return nil, nil, badRequest("weights_b64: %v", err)
		}
		if len(raw) != 8*m {
			return nil, nil, badRequest("weights_b64: %d bytes for %d edges, want 8 a weight", len(raw), m)
		}
		switch r.WeightsDtype {
		case "int64":
			ints = make([]int64, m)
			for i := range ints {
				ints[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			return ints, nil, nil
		case "float64":
			floats = make([]float64, m)
			for i := range floats {
				floats[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			return nil, floats, checkFloats(floats)
		}
		return nil, nil, badRequest("weights_dtype %q: want int64 or float64", r.WeightsDtype)
	case r.Weights != nil:
		if len(r.Weights) != m {
			return nil, nil, badRequest("%d weights for %d edges", len(r.Weights), m)
		}
		return numbers(r.Weights, "weight")
	}
	return nil, nil, nil
}

// numbers are JSON numbers as lengths: integers when every one is one,
// else float64 (finite).
func numbers(ws []json.Number, what string) (ints []int64, floats []float64, err error) {
	ints = make([]int64, len(ws))
	for i, w := range ws {
		x, err := w.Int64()
		if err != nil {
			if !strings.ContainsAny(string(w), ".eE") {
				// An integer, as the file readers take them: one
				// beyond int64 is refused, not rounded to a float.
				return nil, nil, &graphError{fmt.Errorf("%s %d: %s does not fit in a 64-bit integer", what, i, w)}
			}
			ints = nil
			break
		}
		ints[i] = x
	}
	if ints != nil {
		return ints, nil, nil
	}
	floats = make([]float64, len(ws))
	for i, w := range ws {
		x, err := w.Float64()
		if err != nil {
			return nil, nil, &graphError{fmt.Errorf("%s %d: %q: %w", what, i, w, err)}
		}
		floats[i] = x
	}
	return nil, floats, checkFloats(floats)
}

// checkFloats refuses NaN and infinite weights, as the file readers do.
func checkFloats(ws []float64) error {
	for i, w := range ws {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return &graphError{fmt.Errorf("weight %d: %v is not a length", i, w)}
		}
	}
	return nil
}

// decodeB64 decodes standard base64.
func decodeB64(src []byte) ([]byte, error) {
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(dst, src)
	return dst[:n], err
}
