package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/npy"
	"github.com/apsp/apsp/internal/testgraphs"
)

// response is a decoded response line.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
	Kind   string          `json:"kind"`
	Vertex *int            `json:"vertex"`
}

func answer(t *testing.T, s *Server, req string) response {
	t.Helper()
	line := s.Handle(context.Background(), []byte(req))
	if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("%s: response is not one line: %q", req, line)
	}
	var r response
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		t.Fatalf("%s: response %q: %v", req, line, err)
	}
	return r
}

// TestErrorKinds: every bad request is answered with its id, a message and
// the kind a client dispatches on.
func TestErrorKinds(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct{ req, kind, id string }{
		{`garbage`, "request", "null"},
		{`{"id": 1}`, "request", "1"},
		{`{"id": 2, "op": "nope"}`, "request", "2"},
		{`{"id": "x", "op": "stats", "edgez": []}`, "request", `"x"`},
		{`{"id": 3, "op": "stats", "edges": [[0, 1, 2]]}`, "request", "3"},
		{`{"id": 4, "op": "stats", "edges": [[0, 1]], "weights": [1, 2]}`, "request", "4"},
		{`{"id": 5, "op": "stats", "edges_b64": "AAA"}`, "request", "5"},
		{`{"id": 6, "op": "stats", "n": 2, "edges": [[0, 1]], "source": 0}`, "request", "6"},
		{`{"id": 7, "op": "path", "n": 2, "edges": [[0, 1]]}`, "request", "7"},
		{`{"id": 8, "op": "stats", "n": -1}`, "request", "8"},
		{`{"id": 9, "op": "stats", "n": 2, "edges": [[0, 2]]}`, "graph", "9"},
		{`{"id": 10, "op": "stats", "n": 0}`, "graph", "10"},
		{`{"id": 11, "op": "stats", "n": 2, "edges": [[0, 1]], "options": {"device": "tpu"}}`, "options", "11"},
		{`{"id": 12, "op": "stats", "n": 2, "edges": [[0, 1]], "options": {"algorithm": "bounds"}}`, "options", "12"},
		{`{"id": 13, "op": "stats", "n": 2, "directed": true, "edges": [[0, 1], [1, 0]], "weights": [1, -3]}`, "negative_cycle", "13"},
		{`{"id": 14, "op": "stats", "n": 3, "edges": [[0, 1], [1, 2]], "weights": [9223372036854775807, 9223372036854775807]}`, "weights_too_large", "14"},
		{`{"id": 15, "op": "stats", "n": 100000000000}`, "too_large", "15"},
		{`{"id": 16, "op": "path", "n": 3, "edges": [[0, 1]], "source": 0, "target": 2}`, "no_path", "16"},
		{`{"id": 17, "op": "path", "n": 3, "edges": [[0, 1]], "source": 0, "target": 9}`, "graph", "17"},
		{`{"id": 18, "op": "histogram", "n": 2, "edges": [[0, 1]], "weights": [0.5]}`, "failed", "18"},
		{`{"id": 19, "op": "stats", "n": 2, "edges": [[0, 1]], "weights": ["x"]}`, "request", "19"},
		{`{"id": 20, "op": "distances", "n": 2, "edges": [[0, 1]], "file": "/nonexistent/d.npy"}`, "request", "20"},
		{`{"id": 21, "op": "stats", "n": 2, "edges": [[0, 1]], "options": {"device": "gpu:7"}}`, "", "21"}, // no_gpu here, or a result on a machine with 8 GPUs
	} {
		r := answer(t, s, tc.req)
		if string(r.ID) != tc.id {
			t.Errorf("%s: id %s, want %s", tc.req, r.ID, tc.id)
		}
		if tc.kind == "" {
			if r.Error != "" && r.Kind != "no_gpu" {
				t.Errorf("%s: %s (%s), want a result or no_gpu", tc.req, r.Error, r.Kind)
			}
			continue
		}
		if r.Kind != tc.kind || r.Error == "" || r.Result != nil {
			t.Errorf("%s: kind %q, error %q, result %s; want kind %q", tc.req, r.Kind, r.Error, r.Result, tc.kind)
		}
		if tc.kind == "negative_cycle" && (r.Vertex == nil || *r.Vertex < 0 || *r.Vertex > 1) {
			t.Errorf("%s: vertex %v", tc.req, r.Vertex)
		}
	}
}

// requestLine writes g as a request of op with the edges as JSON pairs or in
// base64, and the weights likewise.
func requestLine(t testing.TB, id int, op string, g *graph.Graph, b64 bool, extra string) string {
	t.Helper()
	var us, vs []int32
	var ints []int64
	var floats []float64
	for u := range g.N() {
		for i, h := range g.Neighbors(u) {
			v := int(h)
			if !g.Directed() && v < u {
				continue
			}
			us, vs = append(us, int32(u)), append(vs, int32(v))
			switch g.Kind() {
			case graph.IntWeights:
				ints = append(ints, g.ArcInt(u, i))
			case graph.FloatWeights:
				floats = append(floats, g.ArcFloat(u, i))
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"id": %d, "op": %q, "n": %d, "directed": %v`, id, op, g.N(), g.Directed())
	if b64 {
		raw := make([]byte, 8*len(us))
		for i := range us {
			binary.LittleEndian.PutUint32(raw[8*i:], uint32(us[i]))
			binary.LittleEndian.PutUint32(raw[8*i+4:], uint32(vs[i]))
		}
		fmt.Fprintf(&b, `, "edges_b64": %q`, base64.StdEncoding.EncodeToString(raw))
	} else {
		pairs := make([][2]int32, len(us))
		for i := range us {
			pairs[i] = [2]int32{us[i], vs[i]}
		}
		e, _ := json.Marshal(pairs)
		fmt.Fprintf(&b, `, "edges": %s`, e)
	}
	switch {
	case ints != nil && b64:
		raw := make([]byte, 8*len(ints))
		for i, w := range ints {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(w))
		}
		fmt.Fprintf(&b, `, "weights_b64": %q, "weights_dtype": "int64"`, base64.StdEncoding.EncodeToString(raw))
	case floats != nil && b64:
		raw := make([]byte, 8*len(floats))
		for i, w := range floats {
			binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(w))
		}
		fmt.Fprintf(&b, `, "weights_b64": %q, "weights_dtype": "float64"`, base64.StdEncoding.EncodeToString(raw))
	case ints != nil:
		w, _ := json.Marshal(ints)
		fmt.Fprintf(&b, `, "weights": %s`, w)
	case floats != nil:
		// With a point in each, so that integral lengths stay floats: the
		// server reads weights written as integers as integer weights.
		parts := make([]string, len(floats))
		for i, w := range floats {
			parts[i] = strconv.FormatFloat(w, 'f', -1, 64)
			if !strings.ContainsAny(parts[i], ".eE") {
				parts[i] += ".0"
			}
		}
		fmt.Fprintf(&b, `, "weights": [%s]`, strings.Join(parts, ","))
	}
	b.WriteString(extra + "}")
	return b.String()
}

// TestAgreesWithLibrary: on random graphs of every kind, sent both ways,
// every op answers what the library computes on the same graph.
func TestAgreesWithLibrary(t *testing.T) {
	s := &Server{}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 60 {
		spec := testgraphs.Spec{N: 1 + rng.IntN(40), P: 0.1 + 0.2*rng.Float64(), Directed: trial%2 == 0, Lo: 1, Hi: 20, Parts: 1 + trial%3}
		spec.Kind = []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3]
		g := testgraphs.Random(rng, spec)
		b64 := trial%4 < 2
		reachable := trial%5 == 0
		opts := fmt.Sprintf(`, "options": {"reachable": %v}`, reachable)
		opt := apsp.Options{Reachable: reachable}
		check := func(op string, want any, extra string) {
			t.Helper()
			r := answer(t, s, requestLine(t, trial, op, g, b64, opts+extra))
			if r.Error != "" {
				t.Fatalf("trial %d %s: %s (%s)", trial, op, r.Error, r.Kind)
			}
			w, _ := json.Marshal(want)
			if !sameJSON(t, r.Result, w) {
				t.Fatalf("trial %d %s (%v): %s, library %s", trial, op, spec, r.Result, w)
			}
		}
		st, err := apsp.ComputeStats(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		check("stats", st, "")
		ecc, err := apsp.Eccentricities(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		check("eccentricity", map[string]any{"eccentricity": ecc}, "")
		wf := trial%2 == 0
		c, err := apsp.ClosenessCentrality(ctx, g, apsp.Options{}, wf)
		if err != nil {
			t.Fatal(err)
		}
		r := answer(t, s, requestLine(t, trial, "closeness", g, b64, fmt.Sprintf(`, "wf_improved": %v`, wf)))
		if w, _ := json.Marshal(map[string]any{"closeness": c}); r.Error != "" || string(r.Result) != string(w) {
			t.Fatalf("trial %d closeness: %s (%s), library %s", trial, r.Result, r.Error, w)
		}
		mode := []string{"out", "in", "all"}[trial%3]
		modeOpts := fmt.Sprintf(`, "options": {"reachable": %v, "mode": %q}`, reachable, mode)
		h, err := apsp.HarmonicCentrality(ctx, g, apsp.Options{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		r = answer(t, s, requestLine(t, trial, "harmonic", g, b64, fmt.Sprintf(`, "options": {"mode": %q}`, mode)))
		if w, _ := json.Marshal(map[string]any{"harmonic": h}); r.Error != "" || string(r.Result) != string(w) {
			t.Fatalf("trial %d harmonic mode %s: %s (%s), library %s", trial, mode, r.Result, r.Error, w)
		}
		eccM, err := apsp.Eccentricities(ctx, g, apsp.Options{Reachable: reachable, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if r := answer(t, s, requestLine(t, trial, "eccentricity", g, b64, modeOpts)); r.Error != "" {
			t.Fatalf("trial %d eccentricity mode %s: %s", trial, mode, r.Error)
		} else if w, _ := json.Marshal(map[string]any{"eccentricity": eccM}); !sameJSON(t, r.Result, w) {
			t.Fatalf("trial %d eccentricity mode %s: %s, library %s", trial, mode, r.Result, w)
		}
		sum, errs := apsp.SummaryBatch(ctx, []*graph.Graph{g}, opt)
		if errs[0] != nil {
			t.Fatal(errs[0])
		}
		check("summary", sum[0], "")
		if g.Kind() != graph.FloatWeights {
			h, err := apsp.DistanceHistogram(ctx, g, opt)
			if err != nil {
				t.Fatal(err)
			}
			check("histogram", h, "")
			src, tgt := []int{rng.IntN(g.N()), rng.IntN(g.N())}, []int{rng.IntN(g.N())}
			if h, err = apsp.DistanceHistogramBetween(ctx, g, src, tgt, opt); err == nil {
				check("histogram", h, fmt.Sprintf(`, "sources": %s, "targets": %s`, mustJSON(t, src), mustJSON(t, tgt)))
			} else if !g.HasNegativeWeights() {
				t.Fatal(err)
			}
		}
		d, err := apsp.AllPairs(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		r = answer(t, s, requestLine(t, trial, "distances", g, b64, opts))
		checkNPY(t, r, d)
		// An origin–destination matrix: chosen rows, columns, or both.
		pick := func() []int {
			var vs []int
			for range 1 + rng.IntN(5) {
				vs = append(vs, rng.IntN(g.N()))
			}
			return vs
		}
		for _, st := range [][2][]int{{pick(), nil}, {nil, pick()}, {pick(), pick()}} {
			od, err := apsp.DistancesBetween(ctx, g, st[0], st[1], opt)
			if err != nil {
				t.Fatal(err)
			}
			extra := ""
			if st[0] != nil {
				extra += fmt.Sprintf(`, "sources": %s`, mustJSON(t, st[0]))
			}
			if st[1] != nil {
				extra += fmt.Sprintf(`, "targets": %s`, mustJSON(t, st[1]))
			}
			checkNPY(t, answer(t, s, requestLine(t, trial, "distances", g, b64, opts+extra)), od)
		}
		u, v := rng.IntN(g.N()), rng.IntN(g.N())
		if p, err := apsp.ShortestPath(ctx, g, u, v, opt); err == nil {
			r := answer(t, s, requestLine(t, trial, "path", g, b64, opts+fmt.Sprintf(`, "source": %d, "target": %d`, u, v)))
			var got apsp.Path
			if err := json.Unmarshal(r.Result, &got); err != nil || got.Length.Float() != p.Length.Float() || got.Vertices[0] != u || got.Vertices[len(got.Vertices)-1] != v {
				t.Fatalf("trial %d path %d→%d: %s (%s), library %+v", trial, u, v, r.Result, r.Error, p)
			}
		}
	}
}

// sameJSON compares two results with the timing fields left out.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y map[string]any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	for _, m := range []map[string]any{x, y} {
		delete(m, "seconds")
		delete(m, "threads")
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// matrix is what checkNPY compares an answer with: *apsp.Distances or
// *apsp.SourceDistances.
type matrix interface {
	Rows() int
	Cols() int
	At(i, j int) apsp.Length
}

// checkNPY decodes a distances answer and compares it with d.
func checkNPY(t *testing.T, r response, d matrix) {
	t.Helper()
	var res struct {
		NPY string `json:"npy_b64"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || res.NPY == "" {
		t.Fatalf("distances: %s (%s)", r.Result, r.Error)
	}
	raw, err := base64.StdEncoding.DecodeString(res.NPY)
	if err != nil {
		t.Fatal(err)
	}
	a, err := npy.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	rows, n := d.Rows(), d.Cols()
	if len(a.Shape) != 2 || a.Shape[0] != rows || a.Shape[1] != n {
		t.Fatalf("shape %v, want (%d, %d)", a.Shape, rows, n)
	}
	le := binary.LittleEndian
	for u := range rows {
		for v := range n {
			want := d.At(u, v)
			var got float64
			var inf bool
			switch i := u*n + v; a.Descr {
			case "|u1":
				x := a.Data[i]
				got, inf = float64(x), x == math.MaxUint8
			case "<i2":
				x := int16(le.Uint16(a.Data[2*i:]))
				got, inf = float64(x), x == math.MaxInt16
			case "<u2":
				x := le.Uint16(a.Data[2*i:])
				got, inf = float64(x), x == math.MaxUint16
			case "<i4":
				x := int32(le.Uint32(a.Data[4*i:]))
				got, inf = float64(x), x == math.MaxInt32
			case "<i8":
				x := int64(le.Uint64(a.Data[8*i:]))
				got, inf = float64(x), x == math.MaxInt64
			case "<f8":
				got = math.Float64frombits(le.Uint64(a.Data[8*i:]))
				inf = math.IsInf(got, 1)
			default:
				t.Fatalf("dtype %s", a.Descr)
			}
			if want.IsInf() != inf || (!inf && want.Float() != got) {
				t.Fatalf("d(%d,%d) = %v (inf %v), library %v", u, v, got, inf, want)
			}
		}
	}
}

// TestInteractive: each response comes as soon as its request is read,
// before the next request is written (a search loop's co-process).
func TestInteractive(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- (&Server{}).Serve(context.Background(), inR, outW); outW.Close() }()
	out := bufio.NewReader(outR)
	for i := range 5 {
		go fmt.Fprintf(inW, `{"id": %d, "op": "summary", "n": 4, "edges": [[0,1],[1,2],[2,3]]}`+"\n", i)
		got := make(chan string, 1)
		go func() { l, _ := out.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if !strings.HasPrefix(l, fmt.Sprintf(`{"id":%d,"result":`, i)) {
				t.Fatalf("response %d: %s", i, l)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no response to request %d within 10 s", i)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestLongLine: a line over the limit is answered with an error and the
// next line is read.
func TestLongLine(t *testing.T) {
	in := strings.Repeat("x", 5000) + "\n" + `{"id": 2, "op": "ping"}` + "\n"
	var out bytes.Buffer
	if err := (&Server{MaxLine: 1000}).Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"kind":"request"`) || !strings.Contains(lines[0], "longer than 1000 bytes") ||
		!strings.HasPrefix(lines[1], `{"id":2,"result":`) {
		t.Fatalf("%q", lines)
	}
}

// TestDistancesFile: a distances request with "file" writes the .npy and
// answers its path.
func TestDistancesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.npy")
	r := answer(t, &Server{}, fmt.Sprintf(`{"id": 1, "op": "distances", "n": 3, "edges": [[0, 1], [1, 2]], "file": %q}`, path))
	if r.Error != "" || !strings.Contains(string(r.Result), "d.npy") {
		t.Fatalf("%s %s", r.Result, r.Error)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := npy.Read(bytes.NewReader(raw)); err != nil || fmt.Sprint(a.Shape) != "[3 3]" {
		t.Fatalf("%v %v", a, err)
	}
}

// FuzzHandle: no request line panics the server or gets anything but one
// JSON line carrying an id and either a result or an error with a kind.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"op":"stats","n":4,"edges":[[0,1],[1,2],[2,3]]}`,
		`{"id":2,"op":"summary","edges":[[0,1],[1,2]],"weights":[1,2.5]}`,
		`{"id":3,"op":"path","n":3,"edges":[[0,1],[1,2]],"source":0,"target":2}`,
		`{"id":4,"op":"distances","n":2,"edges_b64":"AAAAAAEAAAA="}`,
		`{"id":5,"op":"eccentricity","n":3,"directed":true,"edges":[[0,1]],"weights_b64":"AQAAAAAAAAA=","weights_dtype":"int64"}`,
		`{"id":6,"op":"histogram","n":2,"edges":[[0,1]],"options":{"reachable":true}}`,
		`{"op":"extremes","n":5,"edges":[[0,1],[1,2],[2,3],[3,4]]}`,
		`nonsense`, `{}`, `[]`, `{"id":[1,{"a":null}],"op":"ping"}`,
		// Held graphs: the server keeps them from one input to the next.
		`{"id":7,"op":"load","handle":"h","n":4,"edges":[[0,1],[1,2],[2,3]]}`,
		`{"id":8,"op":"summary","graph":"h","remove":[[2,3]],"add":[[1,3]]}`,
		`{"id":9,"op":"update","graph":"h","remove":[[1,3]],"add":[[3,2]]}`,
		`{"id":10,"op":"stats","graph":"h","remove":[[0,2]]}`,
		`{"id":11,"op":"load","n":3,"directed":true,"edges":[[0,1]],"weights":[2.5]}`,
		`{"id":12,"op":"path","graph":"g1","add":[[1,2]],"add_weights":[3],"source":0,"target":2}`,
		`{"id":13,"op":"drop","graph":"h"}`,
		`{"id":14,"op":"summary","graph":"nope","add":[[0,0]]}`,
	} {
		f.Add([]byte(s))
	}
	s := &Server{MaxGraphs: 16}
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > 1<<12 {
			return
		}
		// Keep the graphs small: a fuzzed n of billions is refused by
		// memory admission, but a few thousand vertices, given as n or
		// implied by an id, would be computed (all pairs, seconds).
		if r, err := decode(line); err == nil {
			if r.N != nil && *r.N > 2000 {
				return
			}
			us, vs, err := r.endpoints(new(scratch))
			if err == nil {
				for i := range us {
					if us[i] > 2000 || vs[i] > 2000 {
						return
					}
				}
			}
		}
		out := s.Handle(context.Background(), line)
		var r map[string]json.RawMessage
		if err := json.Unmarshal(out, &r); err != nil || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("%q -> %q: %v", line, out, err)
		}
		_, res := r["result"]
		_, bad := r["error"]
		if _, id := r["id"]; !id || res == bad || (bad && len(r["kind"]) == 0) {
			t.Fatalf("%q -> %q", line, out)
		}
	})
}

// TestLineLimit: a line of exactly MaxLine bytes is read, with or without
// a line ending (LF or CRLF, at the end of input too); one byte more is
// refused.
func TestLineLimit(t *testing.T) {
	ping := `{"op":"ping","id":"` // padded to the limit below
	pad := func(n int) string { return ping + strings.Repeat("x", n-len(ping)-2) + `"}` }
	const max = 64
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{pad(max) + "\n", true}, {pad(max) + "\r\n", true}, {pad(max), true},
		{pad(max+1) + "\n", false}, {pad(max+1) + "\r\n", false}, {pad(max + 1), false},
	} {
		var out bytes.Buffer
		if err := (&Server{MaxLine: max}).Serve(context.Background(), strings.NewReader(tc.in), &out); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), `"result"`); got != tc.ok {
			t.Errorf("%q: %s", tc.in, out.String())
		}
	}
}

// TestDistancesLimits: a matrix over the inline bound is refused with
// too_large before it is computed, and a "file" that is not a regular file
// is refused rather than replaced.
func TestDistancesLimits(t *testing.T) {
	s := &Server{}
	if r := answer(t, s, `{"id":1,"op":"distances","n":9000,"edges":[[0,1]]}`); r.Kind != "too_large" || !strings.Contains(r.Error, `"file"`) {
		t.Errorf("9 000 vertices inline (81 MB at a byte a distance): %s (%s)", r.Error, r.Kind)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "link.npy")
	if err := os.Symlink(filepath.Join(dir, "target.npy"), link); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{dir, link} {
		r := answer(t, s, fmt.Sprintf(`{"id":2,"op":"distances","n":3,"edges":[[0,1]],"file":%q}`, p))
		if r.Kind != "request" || !strings.Contains(r.Error, "not a regular file") {
			t.Errorf("file %s: %s (%s)", p, r.Error, r.Kind)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st, err)
	}
}

// TestStrictLines: text after the object, and integer weights beyond
// int64, are refused as the file readers refuse them.
func TestStrictLines(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct{ req, kind string }{
		{`{"id":5,"op":"ping"}]`, "request"},
		{`{"id":6,"op":"ping"}}}`, "request"},
		{`{"id":7,"op":"stats","n":2,"edges":[[0,1]],"weights":[9223372036854775808]}`, "graph"},
	} {
		if r := answer(t, s, tc.req); r.Kind != tc.kind {
			t.Errorf("%s: %s (%s), want %s", tc.req, r.Error, r.Kind, tc.kind)
		}
	}
}

// TestMeasureFields: "sources", "sample" and "seed" go to the ops that
// read them; op estimate answers EstimateStats and harmonic with sources
// the library's values for them.
func TestMeasureFields(t *testing.T) {
	s := &Server{}
	const graph = `"n": 4, "edges": [[0,1],[1,2],[2,3]]`
	for _, tc := range []struct {
		line, kind, result string
	}{
		{`{"id": 1, "op": "stats", ` + graph + `, "sources": [0]}`, "request", ""},
		{`{"id": 2, "op": "stats", ` + graph + `, "sample": 2}`, "request", ""},
		{`{"id": 3, "op": "estimate", ` + graph + `}`, "request", ""},
		{`{"id": 4, "op": "estimate", ` + graph + `, "sample": 0}`, "options", ""},
		{`{"id": 5, "op": "harmonic", ` + graph + `, "sources": [3, 1]}`, "", `{"harmonic":[1.8333333333333333,2.5]}`},
		{`{"id": 6, "op": "eccentricity", ` + graph + `, "sources": [9]}`, "options", ""},
		{`{"id": 7, "op": "estimate", ` + graph + `, "sample": 4, "seed": 3}`, "", `"aspl":{"value":1.6666666666666667,"ci95_low":1.6666666666666667,"ci95_high":1.6666666666666667,"estimate":true},"diameter_lower_bound":3`},
		{`{"id": 9, "op": "closeness", ` + graph + `, "sample": 4, "seed": 5}`, "", `{"closeness":[{"value":0.5,"ci95_low":0.5,"ci95_high":0.5,"estimate":true},`},
		{`{"id": 10, "op": "closeness", ` + graph + `, "sample": 2, "sources": [1]}`, "request", ""},
		{`{"id": 11, "op": "harmonic", ` + graph + `, "seed": 2}`, "request", ""},
		{`{"id": 12, "op": "distances", ` + graph + `, "sources": [9]}`, "options", ""},
		{`{"id": 13, "op": "distances", ` + graph + `, "targets": [-1]}`, "options", ""},
		{`{"id": 14, "op": "eccentricity", ` + graph + `, "targets": [1]}`, "request", ""},
		{`{"id": 8, "op": "harmonic", ` + graph + `, "options": {"mode": "all", "algorithm": "bitbfs"}}`, "", `{"harmonic":[1.8333333333333333,2.5,2.5,1.8333333333333333]}`},
	} {
		r := answer(t, s, tc.line)
		if r.Kind != tc.kind || !strings.Contains(string(r.Result), tc.result) {
			t.Errorf("%s: kind %q (%s), result %s; want kind %q, %s", tc.line, r.Kind, r.Error, r.Result, tc.kind, tc.result)
		}
	}
}

func mustJSON(t *testing.T, x any) string {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
