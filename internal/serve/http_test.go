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
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/testgraphs"
)

// newTestHTTP starts the service on a loopback httptest server.
func newTestHTTP(t *testing.T, o HTTPOptions) (*HTTP, *httptest.Server) {
	t.Helper()
	h := NewHTTP(&Server{Version: "test"}, o)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		h.Close()
	})
	return h, ts
}

// post sends body to path and decodes the answer.
func post(t *testing.T, ts *httptest.Server, path, ctype, body string, hdr ...string) (int, response, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var r response
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: %q: %v", path, raw, err)
		}
	} else {
		r.Result = raw
	}
	return resp.StatusCode, r, resp.Header
}

// metric is the value of a counter or gauge (summed over its labels).
func metric(t *testing.T, h *HTTP, name string) float64 {
	t.Helper()
	mfs, err := h.m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return sum
}

// TestHTTPAgreesWithLibrary: every route answers what the library
// computes, as the stdio server's lines do.
func TestHTTPAgreesWithLibrary(t *testing.T) {
	_, ts := newTestHTTP(t, HTTPOptions{})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 24 {
		spec := testgraphs.Spec{N: 1 + rng.IntN(40), P: 0.1 + 0.2*rng.Float64(), Directed: trial%2 == 0, Lo: 1, Hi: 20, Parts: 1 + trial%3}
		spec.Kind = []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3]
		g := testgraphs.Random(rng, spec)
		b64 := trial%4 < 2
		opt := apsp.Options{Reachable: trial%5 == 0}
		opts := fmt.Sprintf(`, "options": {"reachable": %v}`, opt.Reachable)
		check := func(route, op string, want any, extra string) {
			t.Helper()
			code, r, _ := post(t, ts, route, "application/json", requestLine(t, trial, op, g, b64, opts+extra))
			if code != http.StatusOK || r.Error != "" || string(r.ID) != fmt.Sprint(trial) {
				t.Fatalf("trial %d %s: %d %s (%s) id %s", trial, route, code, r.Error, r.Kind, r.ID)
			}
			w, _ := json.Marshal(want)
			if !sameJSON(t, r.Result, w) {
				t.Fatalf("trial %d %s (%v): %s, library %s", trial, route, spec, r.Result, w)
			}
		}
		st, err := apsp.ComputeStats(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		check("/v1/stats", "stats", st, "")
		sum, errs := apsp.SummaryBatch(ctx, []*graph.Graph{g}, opt)
		if errs[0] != nil {
			t.Fatal(errs[0])
		}
		check("/v1/summary", "summary", sum[0], "")
		ecc, err := apsp.Eccentricities(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		check("/v1/eccentricities", "eccentricity", map[string]any{"eccentricity": ecc}, "")
		check("/v1/eccentricity", "eccentricity", map[string]any{"eccentricity": ecc}, "")
		ex, err := apsp.ComputeExtremes(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		check("/v1/extremes", "extremes", ex, "")
		if g.Kind() != graph.FloatWeights {
			hist, err := apsp.DistanceHistogram(ctx, g, opt)
			if err != nil {
				t.Fatal(err)
			}
			check("/v1/histogram", "histogram", hist, "")
		}
		d, err := apsp.AllPairs(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		code, r, _ := post(t, ts, "/v1/distances", "application/json", requestLine(t, trial, "distances", g, b64, opts))
		if code != http.StatusOK {
			t.Fatalf("distances: %d %s", code, r.Error)
		}
		checkNPY(t, r, d)
		code, r, hdr := post(t, ts, "/v1/distances", "application/json", requestLine(t, trial, "distances", g, b64, opts), "Accept", "application/x-npy")
		if code != http.StatusOK || hdr.Get("Content-Type") != "application/x-npy" {
			t.Fatalf("distances as .npy: %d %s %s", code, hdr.Get("Content-Type"), r.Result)
		}
		b, _ := json.Marshal(map[string]string{"npy_b64": base64.StdEncoding.EncodeToString(r.Result)})
		checkNPY(t, response{Result: b}, d)
	}
}

// TestHTTPBatched: concurrent summaries and stats, batched, each equal
// to the library's; batches of more than one graph happened.
func TestHTTPBatched(t *testing.T) {
	h, ts := newTestHTTP(t, HTTPOptions{BatchWait: 20 * time.Millisecond})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	const k = 48
	graphs := make([]*graph.Graph, k)
	for i := range graphs {
		spec := testgraphs.Spec{N: 2 + rng.IntN(60), P: 0.15, Directed: i%3 == 0, Lo: 1, Hi: 9, Parts: 1 + i%2}
		spec.Kind = []graph.WeightKind{graph.Unweighted, graph.IntWeights}[i%2]
		graphs[i] = testgraphs.Random(rng, spec)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 2*k)
	for i, g := range graphs {
		for _, op := range []string{"summary", "stats"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, r, _ := post(t, ts, "/v1/"+op, "application/json", requestLine(t, i, op, g, i%2 == 0, ""))
				var want any
				if op == "stats" {
					want, _ = apsp.ComputeStats(ctx, g, apsp.Options{})
				} else {
					s, _ := apsp.SummaryBatch(ctx, []*graph.Graph{g}, apsp.Options{})
					want = s[0]
				}
				w, _ := json.Marshal(want)
				if code != http.StatusOK || !sameJSON(t, r.Result, w) {
					errc <- fmt.Errorf("graph %d %s: %d %s %s, library %s", i, op, code, r.Error, r.Result, w)
				}
			}()
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	mfs, _ := h.m.reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() == "apsp_http_batch_graphs" {
			hist := mf.GetMetric()[0].GetHistogram()
			if hist.GetSampleCount() >= 2*k || hist.GetSampleSum() != 2*k {
				t.Errorf("%d batches for %v graphs: want fewer batches than graphs", hist.GetSampleCount(), hist.GetSampleSum())
			}
		}
	}
}

// TestHTTPGraphFile: a body in a graph file's format is read as apsp
// reads files, its options in the query.
func TestHTTPGraphFile(t *testing.T) {
	_, ts := newTestHTTP(t, HTTPOptions{})
	ctx := context.Background()
	for _, tc := range []struct {
		name, ctype, query, body string
		ro                       graph.ReadOptions
	}{
		{"edge list", "text/plain", "", "0 1\n1 2\n2 3\n3 0\n3 4\n", graph.ReadOptions{}},
		{"weighted, directed", "text/plain", "?directed=true&reachable=true", "0 1 5\n1 2 2\n2 0 1\n", graph.ReadOptions{Directed: true}},
		{"mtx", "application/octet-stream", "?format=mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 2\n4 3\n", graph.ReadOptions{Format: graph.FormatMatrixMarket}},
		{"labels, curl's default type", "", "?labels=true", "a b\nb c\n", graph.ReadOptions{Labels: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := graph.Read(strings.NewReader(tc.body), "body", tc.ro)
			if err != nil {
				t.Fatal(err)
			}
			opt := apsp.Options{Reachable: strings.Contains(tc.query, "reachable")}
			st, err := apsp.ComputeStats(ctx, g, opt)
			if err != nil {
				t.Fatal(err)
			}
			ctype := tc.ctype
			if ctype == "" {
				ctype = "application/x-www-form-urlencoded"
			}
			code, r, _ := post(t, ts, "/v1/stats"+tc.query, ctype, tc.body)
			w, _ := json.Marshal(st)
			if code != http.StatusOK || !sameJSON(t, r.Result, w) {
				t.Fatalf("%d %s %s, library %s", code, r.Error, r.Result, w)
			}
		})
	}
}

// TestHTTPRefusals: requests over a limit, malformed, or without the
// token get their status and kind, and the server goes on answering.
func TestHTTPRefusals(t *testing.T) {
	const token = "s3cret"
	_, ts := newTestHTTP(t, HTTPOptions{MaxBody: 4096, MaxVertices: 100, MaxArcs: 50, Token: token})
	auth := []string{"Authorization", "Bearer " + token}
	good := `{"id": 1, "n": 3, "edges": [[0, 1], [1, 2]]}`
	big := `{"n": 3, "edges": [` + strings.Repeat("[0, 1], ", 1000) + `[1, 2]]}`
	for _, tc := range []struct {
		name, path, ctype, body string
		hdr                     []string
		status                  int
		kind, limit             string
	}{
		{"no token", "/v1/stats", "application/json", good, nil, 401, "unauthorized", ""},
		{"wrong token", "/v1/stats", "application/json", good, []string{"Authorization", "Bearer s3creT"}, 401, "unauthorized", ""},
		{"body too long", "/v1/stats", "application/json", big, auth, 413, "too_large", "max-body"},
		{"too many vertices", "/v1/stats", "application/json", `{"n": 101}`, auth, 413, "too_large", "max-vertices"},
		{"vertex ids too large", "/v1/stats", "application/json", `{"edges": [[0, 1000000]]}`, auth, 413, "too_large", "max-vertices"},
		{"too many arcs", "/v1/stats", "application/json", `{"n": 3, "edges": [` + strings.Repeat("[0, 1], ", 25) + `[1, 2]]}`, auth, 413, "too_large", "max-arcs"},
		{"file too large", "/v1/stats", "text/plain", "0 1\n1 200\n", auth, 413, "too_large", "max-vertices"},
		{"bad JSON", "/v1/stats", "application/json", `{"n": 3, "edges": [[0, 1]`, auth, 400, "request", ""},
		{"unknown field", "/v1/stats", "application/json", `{"n": 3, "edgez": []}`, auth, 400, "request", ""},
		{"op of another route", "/v1/stats", "application/json", `{"op": "summary", "n": 2}`, auth, 400, "request", ""},
		{"unknown op", "/v1/nope", "application/json", good, auth, 400, "request", ""},
		{"a file on the server", "/v1/distances", "application/json", `{"n": 2, "edges": [[0, 1]], "file": "/tmp/x.npy"}`, auth, 400, "request", ""},
		{"bad graph file", "/v1/stats", "text/plain", "0 1 2 3 4\n", auth, 422, "graph", ""},
		{"bad options", "/v1/stats", "application/json", `{"n": 2, "edges": [[0, 1]], "options": {"device": "tpu"}}`, auth, 400, "options", ""},
		{"empty graph", "/v1/stats", "application/json", `{"n": 0}`, auth, 422, "graph", ""},
		{"negative cycle", "/v1/stats", "application/json", `{"n": 2, "directed": true, "edges": [[0, 1], [1, 0]], "weights": [1, -3]}`, auth, 422, "negative_cycle", ""},
		{"no route", "/v2/stats", "application/json", good, auth, 404, "not_found", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, raw := rawPost(t, ts, tc.path, tc.ctype, tc.body, tc.hdr...)
			var r struct{ Error, Kind, Limit string }
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatalf("%q: %v", raw, err)
			}
			if code != tc.status || r.Kind != tc.kind || r.Error == "" || r.Limit != tc.limit {
				t.Fatalf("%d %s, want %d %s (limit %q)", code, raw, tc.status, tc.kind, tc.limit)
			}
			// The server goes on.
			if code, r, _ := post(t, ts, "/v1/stats", "application/json", good, auth...); code != 200 || r.Error != "" {
				t.Fatalf("then a good request: %d %s", code, r.Error)
			}
		})
	}
	resp, err := ts.Client().Get(ts.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz without a token: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = ts.Client().Get(ts.URL + "/metrics")
	if err != nil || resp.StatusCode != 401 {
		t.Fatalf("metrics without a token: %v %v", resp, err)
	}
	resp.Body.Close()
}

// rawPost is post returning the body as it came.
func rawPost(t *testing.T, ts *httptest.Server, path, ctype, body string, hdr ...string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// TestHTTPQueueFull: past --queue requests, 503 with Retry-After, and the
// requests admitted are answered.
func TestHTTPQueueFull(t *testing.T) {
	h := NewHTTP(&Server{}, HTTPOptions{Queue: 2, Workers: 1})
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	h.onAlone = func(start bool) {
		if start {
			started <- struct{}{}
			<-release
		}
	}
	ts := httptest.NewServer(h)
	defer func() { ts.Close(); h.Close() }()
	req := `{"n": 3, "edges": [[0, 1], [1, 2]]}`
	codes := make(chan int, 2)
	for range 2 {
		go func() {
			code, _, _ := post(t, ts, "/v1/eccentricity", "application/json", req)
			codes <- code
		}()
	}
	<-started // one computes, the other waits for the worker: the queue is full
	for metric(t, h, "apsp_http_inflight_requests") < 2 {
		time.Sleep(time.Millisecond)
	}
	code, r, hdr := post(t, ts, "/v1/eccentricity", "application/json", req)
	if code != 503 || r.Kind != "busy" || hdr.Get("Retry-After") == "" {
		t.Fatalf("a third request: %d %s %q, want 503 busy with Retry-After", code, r.Kind, hdr.Get("Retry-After"))
	}
	close(release)
	for range 2 {
		if c := <-codes; c != 200 {
			t.Fatalf("an admitted request: %d", c)
		}
	}
}

// slowGraph is a graph whose Floyd–Warshall in float64 lanes takes
// seconds on one thread.
func slowGraph() *graph.Graph {
	const n = 1500
	b := graph.NewBuilder(false)
	b.SetVertices(n)
	for u := 1; u < n; u++ {
		b.AddFloatEdge(u-1, u, 0.5+float64(u%7))
	}
	return b.Build()
}

// TestHTTPClientGoneCancels: a client that goes away cancels the
// computation of its request, which stops long before it would end (a
// weighted graph of 1 500 vertices is batched, alone in its batch).
func TestHTTPClientGoneCancels(t *testing.T) {
	h, ts := newTestHTTP(t, HTTPOptions{})
	body := requestLine(t, 1, "stats", slowGraph(), true, `, "options": {"algorithm": "fw"}`)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/stats", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		for metric(t, h, "apsp_http_computing") < 1 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	_, err := ts.Client().Do(req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the request: %v, want cancelled", err)
	}
	gone := time.Now()
	for metric(t, h, "apsp_http_computing") > 0 {
		if d := time.Since(gone); d > 2*time.Second {
			t.Fatalf("the computation went on %v after the client went", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
	for metric(t, h, "apsp_http_cancelled_total") < 1 {
		time.Sleep(time.Millisecond) // the handler records it as it returns
	}
	if v := metric(t, h, "apsp_http_computing"); v != 0 {
		t.Fatalf("%v computations running after the cancel", v)
	}
}

// TestHTTPTimeout: past --timeout, 504, and the computation (alone: an
// operation that does not batch) is stopped.
func TestHTTPTimeout(t *testing.T) {
	h, ts := newTestHTTP(t, HTTPOptions{Timeout: 100 * time.Millisecond})
	body := requestLine(t, 1, "eccentricity", slowGraph(), true, `, "options": {"algorithm": "fw"}`)
	start := time.Now()
	code, r, _ := post(t, ts, "/v1/eccentricity", "application/json", body)
	if code != http.StatusGatewayTimeout || r.Kind != "timeout" || time.Since(start) > 3*time.Second {
		t.Fatalf("%d %s %q after %v, want 504 timeout", code, r.Kind, r.Error, time.Since(start))
	}
	if v := metric(t, h, "apsp_http_computing"); v != 0 {
		t.Fatalf("%v computations running after the timeout", v)
	}
}

// TestHTTPBatchDrop: a batched request cancelled before its batch starts
// is dropped from it.
func TestHTTPBatchDrop(t *testing.T) {
	h, ts := newTestHTTP(t, HTTPOptions{BatchWait: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/summary", strings.NewReader(`{"n": 2, "edges": [[0, 1]]}`))
	if _, err := ts.Client().Do(req); err == nil {
		t.Fatal("the request was answered within 30 ms despite a 300 ms batch window")
	}
	deadline := time.Now().Add(3 * time.Second)
	for metric(t, h, "apsp_http_batch_dropped_total") < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the cancelled graph was not dropped from its batch")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestHTTPBulk: JSON Lines in, answers in input order out, errors in
// their lines, whatever order they complete in.
func TestHTTPBulk(t *testing.T) {
	_, ts := newTestHTTP(t, HTTPOptions{})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 10))
	var in bytes.Buffer
	var want []string
	for i := range 300 {
		if i%7 == 3 {
			fmt.Fprintf(&in, "{\"id\": %d, \"op\": \"stats\", \"n\": 2, \"edges\": [[0, 5]]}\n", i)
			want = append(want, "graph")
			continue
		}
		g := testgraphs.Random(rng, testgraphs.Spec{N: 1 + rng.IntN(30), P: 0.2, Kind: graph.Unweighted, Lo: 1, Hi: 1, Parts: 1})
		op := []string{"summary", "stats", "eccentricity"}[i%3]
		in.WriteString(requestLine(t, i, op, g, i%2 == 0, "") + "\n")
		var res any
		switch op {
		case "summary":
			s, _ := apsp.SummaryBatch(ctx, []*graph.Graph{g}, apsp.Options{})
			res = s[0]
		case "stats":
			res, _ = apsp.ComputeStats(ctx, g, apsp.Options{})
		default:
			e, _ := apsp.Eccentricities(ctx, g, apsp.Options{})
			res = map[string]any{"eccentricity": e}
		}
		w, _ := json.Marshal(res)
		want = append(want, string(w))
	}
	resp, err := ts.Client().Post(ts.URL+"/v1/bulk", "application/x-ndjson", &in)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	i := 0
	for ; sc.Scan(); i++ {
		var r response
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %q: %v", i, sc.Text(), err)
		}
		if string(r.ID) != fmt.Sprint(i) {
			t.Fatalf("line %d has id %s: out of order", i, r.ID)
		}
		if want[i] == "graph" {
			if r.Kind != "graph" {
				t.Fatalf("line %d: %s, want a graph error", i, sc.Text())
			}
		} else if r.Error != "" || !sameJSON(t, r.Result, []byte(want[i])) {
			t.Fatalf("line %d: %s, library %s", i, sc.Text(), want[i])
		}
	}
	if i != len(want) {
		t.Fatalf("%d answers for %d lines", i, len(want))
	}
}

// TestHTTPShutdown: shutting down under load answers every request the
// server accepted; the ones it did not accept fail to connect.
func TestHTTPShutdown(t *testing.T) {
	h := NewHTTP(&Server{}, HTTPOptions{BatchWait: 5 * time.Millisecond})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, ln, "", "") }()
	url := "http://" + ln.Addr().String() + "/v1/summary"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	body := `{"n": 4, "edges": [[0, 1], [1, 2], [2, 3]]}`
	want := `"diameter":3`
	errc := make(chan error, 64)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				resp, err := client.Post(url, "application/json", strings.NewReader(body))
				if err != nil {
					refused.Add(1) // not accepted: the listener is closed
					return
				}
				raw, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || !strings.Contains(string(raw), want) {
					errc <- fmt.Errorf("an accepted request: %d %s %v", resp.StatusCode, raw, err)
					return
				}
				ok.Add(1)
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	accepted := metric(t, h, "apsp_http_requests_total")
	if float64(ok.Load()) != accepted || ok.Load() == 0 {
		t.Fatalf("%d answered of %v accepted (%d refused)", ok.Load(), accepted, refused.Load())
	}
	t.Logf("%d answered, %d clients refused after the shutdown", ok.Load(), refused.Load())
}

// TestHTTPSoak: mixed good and bad requests from many clients: no wrong
// answer, and memory comes back. APSP_SOAK=30s runs it longer.
func TestHTTPSoak(t *testing.T) {
	d := 2 * time.Second
	if s := os.Getenv("APSP_SOAK"); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	if testing.Short() {
		d = 500 * time.Millisecond
	}
	h, ts := newTestHTTP(t, HTTPOptions{MaxBody: 1 << 16, MaxVertices: 512, Queue: 256})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 12))
	type good struct {
		op, body string
		want     []byte
	}
	var goods []good
	for i := range 64 {
		g := testgraphs.Random(rng, testgraphs.Spec{N: 2 + rng.IntN(60), P: 0.1, Kind: graph.Unweighted, Lo: 1, Hi: 1, Parts: 1 + i%2})
		op := []string{"summary", "stats"}[i%2]
		var res any
		if op == "stats" {
			res, _ = apsp.ComputeStats(ctx, g, apsp.Options{})
		} else {
			s, _ := apsp.SummaryBatch(ctx, []*graph.Graph{g}, apsp.Options{})
			res = s[0]
		}
		w, _ := json.Marshal(res)
		goods = append(goods, good{op, requestLine(t, i, op, g, i%2 == 0, ""), w})
	}
	bads := []struct {
		body   string
		status int
	}{
		{`{"n": 3, "edges": [[0, 1]`, 400},
		{`{"n": 100000}`, 413},
		{`{"n": 2, "edges": [[0, 7]]}`, 422},
		{strings.Repeat("x", 1<<17), 413},
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var wrong, total atomic.Int64
	var firstWrong atomic.Value
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 1))
			for time.Now().Before(end) {
				total.Add(1)
				if r.IntN(4) == 0 {
					b := bads[r.IntN(len(bads))]
					code, _ := rawPost(t, ts, "/v1/summary", "application/json", b.body)
					if code != b.status && code != 503 {
						wrong.Add(1)
						firstWrong.CompareAndSwap(nil, fmt.Sprintf("bad request: %d, want %d", code, b.status))
					}
					continue
				}
				g := goods[r.IntN(len(goods))]
				code, resp, _ := post(t, ts, "/v1/"+g.op, "application/json", g.body)
				if code == 503 {
					continue
				}
				if code != 200 || !sameJSON(t, resp.Result, g.want) {
					wrong.Add(1)
					firstWrong.CompareAndSwap(nil, fmt.Sprintf("%d %s %s, want %s", code, resp.Error, resp.Result, g.want))
				}
			}
		}()
	}
	wg.Wait()
	ts.CloseClientConnections()
	if w := wrong.Load(); w > 0 {
		t.Fatalf("%d wrong answers of %d: first %v", w, total.Load(), firstWrong.Load())
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d requests in %v; heap %d → %d bytes", total.Load(), d, before.HeapAlloc, after.HeapAlloc)
	if grew > 32<<20 {
		t.Fatalf("the heap grew by %d bytes over the soak", grew)
	}
	if v := metric(t, h, "apsp_http_inflight_requests"); v != 0 {
		t.Fatalf("%v requests still admitted after the soak", v)
	}
}
