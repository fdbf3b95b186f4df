package serve

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestHandles: load, measure by handle with changes, update and drop, one
// request after another on one server, and the errors, each of which
// leaves the held graph as it was.
func TestHandles(t *testing.T) {
	s := &Server{}
	path4 := `"n": 4, "edges": [[0,1],[1,2],[2,3]]`
	for i, tc := range []struct {
		req  string
		kind string // "" for a result
		want string // in the result, or the error
	}{
		{`{"id":1,"op":"load","handle":"a",` + path4 + `}`, "", `"handle":"a","vertices":4,"arcs":6,"edges":3,"directed":false,"weighted":false`},
		{`{"id":2,"op":"load","handle":"a",` + path4 + `}`, "request", `"a" is in use`},
		{`{"id":3,"op":"load",` + path4 + `}`, "", `"handle":"g1"`},
		{`{"id":4,"op":"summary","graph":"a"}`, "", `"diameter":3`},
		// The path 0-1-2-3 becomes 1-0-3-2: still diameter 3; then a
		// cycle.
		{`{"id":5,"op":"summary","graph":"a","remove":[[2,1]],"add":[[0,3]]}`, "", `"diameter":3`},
		{`{"id":6,"op":"update","graph":"a","add":[[1,2]]}`, "", `"arcs":8,"edges":4`},
		{`{"id":7,"op":"stats","graph":"a"}`, "", `"diameter":2`},
		// Errors, each changing nothing (the stats after them agree).
		{`{"id":8,"op":"update","graph":"a","remove":[[0,1],[0,2]]}`, "request", `remove[1]: 0 2: no such edge (nothing changed)`},
		{`{"id":9,"op":"update","graph":"a","add":[[0,2],[1,2]]}`, "request", `add[1]: 1 2: edge already in the graph`},
		{`{"id":10,"op":"summary","graph":"a","remove":[[0,1]],"add":[[0,9]]}`, "graph", `out of range`},
		{`{"id":11,"op":"summary","graph":"a","add":[[2,2]]}`, "graph", `self-loop`},
		{`{"id":12,"op":"summary","graph":"a","add":[[0,2,5]]}`, "request", `add[0]: 3 numbers`},
		{`{"id":13,"op":"summary","graph":"a","add":[[0,2]],"add_weights":[1,2]}`, "request", `2 add_weights for 1`},
		{`{"id":14,"op":"path","graph":"a","remove":[[0,1]],"source":0,"target":7}`, "graph", `out of range`},
		{`{"id":15,"op":"summary","graph":"a","options":{"algorithm":"nope"},"remove":[[0,1]]}`, "options", ``},
		{`{"id":16,"op":"stats","graph":"a"}`, "", `"arcs":8,"edges":4,"directed":false,"weighted":false,"connected":true,"reachable_only":false,"diameter":2`},
		{`{"id":17,"op":"summary","graph":"zz"}`, "unknown_handle", `no graph is held as "zz"`},
		{`{"id":18,"op":"update","graph":"zz","add":[[0,1]]}`, "unknown_handle", ``},
		{`{"id":19,"op":"summary","graph":"a","n":4}`, "request", `not both`},
		{`{"id":20,"op":"summary",` + path4 + `,"add":[[0,3]]}`, "request", `name it by "graph"`},
		{`{"id":21,"op":"load","graph":"a",` + path4 + `}`, "request", `not "graph"`},
		{`{"id":22,"op":"update","handle":"a","add":[[0,1]]}`, "request", `"handle" names the graph a load holds`},
		{`{"id":23,"op":"load","handle":"b",` + path4 + `,"options":{"threads":2}}`, "request", `takes no options`},
		{`{"id":24,"op":"drop","graph":"a","add":[[0,2]]}`, "request", `takes no "add"`},
		{`{"id":25,"op":"update","graph":"a",` + path4 + `}`, "request", `carries no graph`},
		{`{"id":26,"op":"summary","handle":"a"}`, "request", `"handle" names`},
		{`{"id":27,"op":"update"}`, "request", `needs "graph"`},
		{`{"id":28,"op":"path","graph":"a","source":0,"target":2}`, "", `"length":2`},
		// A weighted graph: lengths of added edges, integer then float
		// (the kind follows), and missing ones of length 1.
		{`{"id":29,"op":"load","handle":"w","n":3,"edges":[[0,1],[1,2]],"weights":[2,3]}`, "", `"weighted":true`},
		{`{"id":30,"op":"summary","graph":"w","add":[[0,2]],"add_weights":[4]}`, "", `"diameter":4`},
		{`{"id":31,"op":"summary","graph":"w","remove":[[0,2]],"add":[[2,0]],"add_weights":[0.5]}`, "", `"diameter":2.5`},
		{`{"id":32,"op":"summary","graph":"w","remove":[[0,2]],"add":[[0,2]]}`, "", `"diameter":3`},
		{`{"id":33,"op":"drop","graph":"a"}`, "", `{"handle":"a","dropped":true}`},
		{`{"id":34,"op":"summary","graph":"a"}`, "unknown_handle", ``},
		{`{"id":35,"op":"drop","graph":"a"}`, "unknown_handle", ``},
		{`{"id":36,"op":"load","handle":"a","n":2,"directed":true,"edges":[[0,1]]}`, "", `"arcs":1,"edges":1,"directed":true`},
		{`{"id":37,"op":"update","graph":"a","add":[[1,0]]}`, "", `"arcs":2`},
		{`{"id":38,"op":"update","graph":"a","remove":[[1,0],[1,0]]}`, "request", `remove[1]: 1 0: no such edge`},
		{`{"id":39,"op":"eccentricity","graph":"a","remove":[[1,0]]}`, "", `{"eccentricity":[1,null]}`},
	} {
		r := answer(t, s, tc.req)
		if want := fmt.Sprint(i + 1); string(r.ID) != want {
			t.Errorf("%s: id %s", tc.req, r.ID)
		}
		if r.Kind != tc.kind {
			t.Fatalf("%s: %s %s (%s), want kind %q", tc.req, r.Result, r.Error, r.Kind, tc.kind)
		}
		if got := string(r.Result) + r.Error; !strings.Contains(got, tc.want) {
			t.Fatalf("%s: %s, want %s", tc.req, got, tc.want)
		}
	}
}

// TestHandleLimits: --max-graphs and --max-held refuse a load, or a change,
// with too_large naming the limit, and a drop makes room again.
func TestHandleLimits(t *testing.T) {
	s := &Server{MaxGraphs: 2}
	for i := range 2 {
		if r := answer(t, s, fmt.Sprintf(`{"id":%d,"op":"load","n":3,"edges":[[0,1]]}`, i)); r.Error != "" {
			t.Fatal(r.Error)
		}
	}
	r := answer(t, s, `{"id":3,"op":"load","n":3,"edges":[[0,1]]}`)
	if r.Kind != "too_large" || !strings.Contains(r.Error, "--max-graphs 2") {
		t.Fatalf("a third graph: %s (%s)", r.Error, r.Kind)
	}
	answer(t, s, `{"id":4,"op":"drop","graph":"g1"}`)
	if r := answer(t, s, `{"id":5,"op":"load","n":3,"edges":[[0,1]]}`); r.Error != "" || !strings.Contains(string(r.Result), `"handle":"g3"`) {
		t.Fatalf("after a drop: %s %s", r.Result, r.Error)
	}
	// 3 vertices and 2 arcs unweighted: 4·8 + 2·4 = 40 bytes; 2 arcs
	// more pass a limit of 45.
	s = &Server{MaxHeld: 45}
	if r := answer(t, s, `{"id":1,"op":"load","handle":"x","n":3,"edges":[[0,1]]}`); r.Error != "" {
		t.Fatal(r.Error)
	}
	r = answer(t, s, `{"id":2,"op":"load","n":3,"edges":[[0,1]]}`)
	if r.Kind != "too_large" || !strings.Contains(r.Error, "--max-held 45") {
		t.Fatalf("a second graph: %s (%s)", r.Error, r.Kind)
	}
	r = answer(t, s, `{"id":3,"op":"summary","graph":"x","add":[[1,2]]}`)
	if r.Kind != "too_large" || !strings.Contains(r.Error, "nothing changed") {
		t.Fatalf("growing past the limit: %s (%s)", r.Error, r.Kind)
	}
	if r := answer(t, s, `{"id":4,"op":"summary","graph":"x","remove":[[1,0]],"add":[[1,2]]}`); r.Error != "" || !strings.Contains(string(r.Result), `"connected":false`) {
		t.Fatalf("a swap within the limit: %s %s", r.Result, r.Error)
	}
	if s.heldTotal != 40 {
		t.Fatalf("held %d bytes, want 40", s.heldTotal)
	}
}

// model is a graph's edges with their lengths, changed as the server's
// held graph is and sent inline to compare.
type model struct {
	n        int
	directed bool
	kind     graph.WeightKind
	w        map[[2]int]float64 // (u, v), u < v when undirected
}

func modelOf(g *graph.Graph) *model {
	m := &model{n: g.N(), directed: g.Directed(), kind: g.Kind(), w: map[[2]int]float64{}}
	for u := range g.N() {
		for i, v := range g.Neighbors(u) {
			if g.Directed() || u < int(v) {
				m.w[[2]int{u, int(v)}] = g.ArcFloat(u, i)
			}
		}
	}
	return m
}

func (m *model) key(u, v int) [2]int {
	if !m.directed && v < u {
		u, v = v, u
	}
	return [2]int{u, v}
}

func (m *model) graph() *graph.Graph {
	b := graph.NewBuilder(m.directed)
	_ = b.SetVertices(m.n)
	keys := slices.Collect(func(yield func([2]int) bool) {
		for k := range m.w {
			if !yield(k) {
				return
			}
		}
	})
	slices.SortFunc(keys, func(a, b [2]int) int { return (a[0]-b[0])*m.n + a[1] - b[1] })
	for _, k := range keys {
		switch m.kind {
		case graph.IntWeights:
			_ = b.AddIntEdge(k[0], k[1], int64(m.w[k]))
		case graph.FloatWeights:
			_ = b.AddFloatEdge(k[0], k[1], m.w[k])
		default:
			_ = b.AddEdge(k[0], k[1])
		}
	}
	return b.Build()
}

// apply removes the edges remove and adds the edges add, with random
// lengths of the model's kind, and returns those lengths.
func (m *model) apply(rng *rand.Rand, remove, add [][2]int) []float64 {
	for _, e := range remove {
		delete(m.w, m.key(e[0], e[1]))
	}
	var weights []float64
	for _, e := range add {
		w := 1.0
		switch m.kind {
		case graph.IntWeights:
			w = float64(1 + rng.IntN(9))
		case graph.FloatWeights:
			w = 0.25 + float64(rng.IntN(40))/8
		}
		weights = append(weights, w)
		m.w[m.key(e[0], e[1])] = w
	}
	return weights
}

// swap picks two edges a–b, c–d and the edges a–c, b–d (a→d, c→b when
// directed, which keeps every degree) to put in their place, or ok false.
func (m *model) swap(rng *rand.Rand) (remove, add [][2]int, ok bool) {
	if len(m.w) < 2 {
		return nil, nil, false
	}
	keys := make([][2]int, 0, len(m.w))
	for k := range m.w {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return (a[0]-b[0])*m.n + a[1] - b[1] })
	for range 20 {
		e, f := keys[rng.IntN(len(keys))], keys[rng.IntN(len(keys))]
		a, b, c, d := e[0], e[1], f[0], f[1]
		if !m.directed && rng.IntN(2) == 0 {
			c, d = d, c
		}
		x, y := [2]int{a, c}, [2]int{b, d}
		if m.directed {
			x, y = [2]int{a, d}, [2]int{c, b}
		}
		_, xThere := m.w[m.key(x[0], x[1])]
		_, yThere := m.w[m.key(y[0], y[1])]
		if e == f || x[0] == x[1] || y[0] == y[1] || xThere || yThere || m.key(x[0], x[1]) == m.key(y[0], y[1]) {
			continue
		}
		return [][2]int{{e[1], e[0]}, f}, [][2]int{x, y}, true
	}
	return nil, nil, false
}

// TestHandlesAgreeInline: random swaps applied to held graphs, directed
// and undirected, unweighted and weighted, give at every step the answer
// of the same graph sent inline.
func TestHandlesAgreeInline(t *testing.T) {
	s := &Server{}
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 12 {
		spec := testgraphs.Spec{N: 4 + rng.IntN(30), P: 0.15 + 0.2*rng.Float64(), Directed: trial%2 == 0, Lo: 1, Hi: 9}
		spec.Kind = []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3]
		g := testgraphs.Random(rng, spec)
		m := modelOf(g)
		name := fmt.Sprintf("t%d", trial)
		r := answer(t, s, requestLine(t, 0, "load", g, trial%4 < 2, fmt.Sprintf(`, "handle": %q`, name)))
		if r.Error != "" {
			t.Fatal(r.Error)
		}
		for step := range 60 {
			remove, add, ok := m.swap(rng)
			if !ok {
				break
			}
			if m.directed {
				remove[0] = [2]int{remove[0][1], remove[0][0]}
			}
			weights := m.apply(rng, remove, add)
			rj, _ := json.Marshal(remove)
			aj, _ := json.Marshal(add)
			change := fmt.Sprintf(`"remove": %s, "add": %s`, rj, aj)
			if m.kind != graph.Unweighted {
				wj, _ := json.Marshal(weights)
				change += fmt.Sprintf(`, "add_weights": %s`, wj)
			}
			op := []string{"summary", "summary", "stats", "eccentricity", "update"}[step%5]
			got := answer(t, s, fmt.Sprintf(`{"id": %d, "op": %q, "graph": %q, %s}`, step, op, name, change))
			if got.Error != "" {
				t.Fatalf("trial %d step %d %s: %s (%s)", trial, step, change, got.Error, got.Kind)
			}
			if op == "update" {
				op = "summary" // measured without a change
				got = answer(t, s, fmt.Sprintf(`{"id": %d, "op": %q, "graph": %q}`, step, op, name))
			}
			want := answer(t, s, requestLine(t, step, op, m.graph(), step%2 == 0, ""))
			if want.Error != "" || !sameJSON(t, got.Result, want.Result) {
				t.Fatalf("trial %d step %d %s (%v): by handle %s, inline %s %s", trial, step, op, spec, got.Result, want.Result, want.Error)
			}
		}
		answer(t, s, fmt.Sprintf(`{"id": 0, "op": "drop", "graph": %q}`, name))
	}
	if len(s.held) != 0 || s.heldTotal != 0 {
		t.Fatalf("after the drops: %d graphs, %d bytes", len(s.held), s.heldTotal)
	}
}

// TestInteractiveHandle: a load, then a summary by handle with a change a
// step, each answered before the next request is written.
func TestInteractiveHandle(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- (&Server{}).Serve(context.Background(), inR, outW); outW.Close() }()
	out := bufio.NewReader(outR)
	reqs := []string{`{"id": 0, "op": "load", "handle": "c", "n": 4, "edges": [[0,1],[1,2],[2,3]]}`}
	for i := 1; i < 6; i++ {
		change := `"remove": [[2,3]], "add": [[1,3]]` // a star: diameter 2
		if i%2 == 0 {
			change = `"remove": [[1,3]], "add": [[2,3]]` // the path again
		}
		reqs = append(reqs, fmt.Sprintf(`{"id": %d, "op": "summary", "graph": "c", %s}`, i, change))
	}
	for i, req := range reqs {
		go fmt.Fprintln(inW, req)
		got := make(chan string, 1)
		go func() { l, _ := out.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if !strings.HasPrefix(l, fmt.Sprintf(`{"id":%d,"result":`, i)) {
				t.Fatalf("response %d: %s", i, l)
			}
			if want := []string{`"diameter":3`, `"diameter":2`}[i%2]; i > 0 && !strings.Contains(l, want) {
				t.Fatalf("response %d: %s, want %s", i, l, want)
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

// BenchmarkHandleSummary: one request line of the search loop (a swap of
// two edges and the summary, every other line the swap's undoing)
// against the Evaluator's Summary of the graph alone (as the root's
// BenchmarkLoopEvaluator), on random 16-regular graphs (apsp gen regular
// n=N d=16 seed=1): what the server adds to the library. Each reports
// its median call as median-ns/call (python/bench.py --handles --go reads
// the library's). APSP_BENCH_DEVICE=gpu runs them all on the GPU.
func BenchmarkHandleSummary(b *testing.B) {
	dev := cmp.Or(os.Getenv("APSP_BENCH_DEVICE"), "cpu") // gpu on a GPU machine
	for _, n := range []int{64, 1024} {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), "d=16", "seed=1")
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		s := &Server{}
		load := requestLine(b, 0, "load", g, true, `, "handle": "b"`)
		if r := s.Handle(ctx, []byte(load)); !strings.Contains(string(r), `"result"`) {
			b.Fatalf("%s", r)
		}
		m := modelOf(g)
		rng := rand.New(rand.NewPCG(1, 2))
		remove, add, _ := m.swap(rng)
		rj, _ := json.Marshal(remove)
		aj, _ := json.Marshal(add)
		swap := []byte(fmt.Sprintf(`{"id":1,"op":"summary","graph":"b","remove":%s,"add":%s,"options":{"device":%q}}`, rj, aj, dev))
		undo := []byte(fmt.Sprintf(`{"id":2,"op":"summary","graph":"b","remove":%s,"add":%s,"options":{"device":%q}}`, aj, rj, dev))
		swapped := false // across the runs of the benchmark
		b.Run(fmt.Sprintf("n=%d/handle", n), func(b *testing.B) {
			medianCall(b, func() {
				line := swap
				if swapped {
					line = undo
				}
				if r := s.Handle(ctx, line); !strings.Contains(string(r), `"result"`) {
					b.Fatalf("%s", r)
				}
				swapped = !swapped
			})
		})
		// The Go search loop's own step: the swap applied with graph.Change,
		// then the Evaluator on the new graph (a new graph each call, as in
		// a search, not the same one again).
		b.Run(fmt.Sprintf("n=%d/library-swap", n), func(b *testing.B) {
			ev, err := apsp.NewEvaluator(apsp.Options{Device: dev})
			if err != nil {
				b.Fatal(err)
			}
			cur, swappedGo := g, false
			medianCall(b, func() {
				c := graph.Changes{Remove: remove, Add: add}
				if swappedGo {
					c = graph.Changes{Remove: add, Add: remove}
				}
				next, err := cur.Change(c)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ev.Summary(ctx, next); err != nil {
					b.Fatal(err)
				}
				cur, swappedGo = next, !swappedGo
			})
		})
		// A neighbourhood at once: K swaps of the held graph as candidates
		// in one request, against the Go loop that makes the K graphs with
		// graph.Change and measures them with SummaryBatch; each reports
		// its median request and the time a candidate.
		const k = 64
		cands := make([]map[string]any, 0, k)
		var changes []graph.Changes
		for len(changes) < k {
			remove, add, ok := m.swap(rng)
			if !ok {
				b.Fatal("no swap")
			}
			cands = append(cands, map[string]any{"remove": remove, "add": add})
			changes = append(changes, graph.Changes{Remove: remove, Add: add})
		}
		cj, _ := json.Marshal(cands)
		batch := []byte(fmt.Sprintf(`{"id":3,"op":"summary","graph":"b","candidates":%s,"options":{"device":%q}}`, cj, dev))
		if swapped { // the held graph as loaded: the swaps were drawn on it
			if r := s.Handle(ctx, undo); !strings.Contains(string(r), `"result"`) {
				b.Fatalf("%s", r)
			}
			swapped = false
		}
		b.Run(fmt.Sprintf("n=%d/candidates-%d", n, k), func(b *testing.B) {
			perCandidate(b, k, func() {
				if r := s.Handle(ctx, batch); !strings.Contains(string(r), `"summaries"`) || strings.Contains(string(r), `"error"`) {
					b.Fatalf("%s", r)
				}
			})
		})
		b.Run(fmt.Sprintf("n=%d/library-batch-%d", n, k), func(b *testing.B) {
			opt := apsp.Options{Device: dev}
			perCandidate(b, k, func() {
				gs := make([]*graph.Graph, k)
				for i, c := range changes {
					var err error
					if gs[i], err = g.Change(c); err != nil {
						b.Fatal(err)
					}
				}
				_, errs := apsp.SummaryBatch(ctx, gs, opt)
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		})
		b.Run(fmt.Sprintf("n=%d/library", n), func(b *testing.B) {
			ev, err := apsp.NewEvaluator(apsp.Options{Device: dev})
			if err != nil {
				b.Fatal(err)
			}
			medianCall(b, func() {
				if _, err := ev.Summary(ctx, g); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// medianCall runs call in the benchmark's loop and reports the median
// call as median-ns/call besides the mean.
func medianCall(b *testing.B, call func()) { perCandidate(b, 1, call) }

// perCandidate is medianCall for a call that measures k candidates: it
// reports the median call's time a candidate too (k > 1).
func perCandidate(b *testing.B, k int, call func()) {
	var times []time.Duration
	for b.Loop() {
		t := time.Now()
		call()
		times = append(times, time.Since(t))
	}
	slices.Sort(times)
	if len(times) > 0 {
		med := float64(times[len(times)/2].Nanoseconds())
		b.ReportMetric(med, "median-ns/call")
		if k > 1 {
			b.ReportMetric(med/float64(k), "median-ns/candidate")
		}
	}
}

// TestHandlesConcurrent: requests on held graphs from many goroutines at
// once (as the HTTP service answers them) — each goroutine's own handle
// swapped and swapped back, and every one of them swapping one shared
// handle's edge back and forth — keep every graph consistent: each
// private graph ends as it began, and the shared one's changes apply one
// after another (each remove finds its edge or is refused whole).
// Run with -race.
func TestHandlesConcurrent(t *testing.T) {
	g, err := gen.Make("regular", "n=64", "d=4", "seed=3")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := &Server{}
	want := string(s.Handle(ctx, []byte(requestLine(t, 0, "summary", g, false, ""))))
	want = want[strings.Index(want, `"result"`):]
	if r := s.Handle(ctx, []byte(requestLine(t, 0, "load", g, false, `, "handle": "shared"`))); !strings.Contains(string(r), `"result"`) {
		t.Fatalf("%s", r)
	}
	var wg sync.WaitGroup
	for k := range 8 {
		wg.Go(func() {
			name := fmt.Sprintf("own%d", k)
			if r := s.Handle(ctx, []byte(requestLine(t, 1, "load", g, false, fmt.Sprintf(`, "handle": %q`, name)))); !strings.Contains(string(r), `"result"`) {
				t.Errorf("%s", r)
				return
			}
			m := modelOf(g)
			rng := rand.New(rand.NewPCG(uint64(k), 9))
			for range 25 {
				remove, add, ok := m.swap(rng)
				if !ok {
					continue
				}
				rj, _ := json.Marshal(remove)
				aj, _ := json.Marshal(add)
				for _, line := range []string{
					fmt.Sprintf(`{"id":2,"op":"summary","graph":%q,"remove":%s,"add":%s}`, name, rj, aj),
					fmt.Sprintf(`{"id":3,"op":"update","graph":%q,"remove":%s,"add":%s}`, name, aj, rj),
				} {
					if r := s.Handle(ctx, []byte(line)); !strings.Contains(string(r), `"result"`) {
						t.Errorf("%s: %s", line, r)
						return
					}
				}
				// The shared graph: one edge out and back in, racing the others.
				s.Handle(ctx, []byte(`{"id":4,"op":"update","graph":"shared","remove":[[0,`+strconv.Itoa(int(g.Neighbors(0)[0]))+`]]}`))
				s.Handle(ctx, []byte(`{"id":5,"op":"update","graph":"shared","add":[[0,`+strconv.Itoa(int(g.Neighbors(0)[0]))+`]]}`))
			}
			got := string(s.Handle(ctx, []byte(fmt.Sprintf(`{"id":6,"op":"summary","graph":%q}`, name))))
			if got = got[strings.Index(got, `"result"`):]; !sameSummary(got, want) {
				t.Errorf("%s after swaps and undos: %s, want %s", name, got, want)
			}
		})
	}
	wg.Wait()
	// Every remove of the shared edge was followed by its add, in some
	// order: the edge is back whichever ran last (an add of a present edge,
	// or a remove of an absent one, was refused whole).
	s.Handle(ctx, []byte(`{"id":7,"op":"update","graph":"shared","add":[[0,`+strconv.Itoa(int(g.Neighbors(0)[0]))+`]]}`))
	got := string(s.Handle(ctx, []byte(`{"id":8,"op":"summary","graph":"shared"}`)))
	if got = got[strings.Index(got, `"result"`):]; !sameSummary(got, want) {
		t.Errorf("shared graph at the end: %s, want %s", got, want)
	}
}

// sameSummary compares two summary results but for their seconds and
// algorithm fields.
func sameSummary(a, b string) bool {
	strip := func(s string) string {
		var m map[string]any
		if json.Unmarshal([]byte("{"+strings.TrimSpace(s)), &m) != nil {
			return s
		}
		r, _ := m["result"].(map[string]any)
		delete(r, "seconds")
		delete(r, "algorithm")
		delete(r, "threads")
		out, _ := json.Marshal(r)
		return string(out)
	}
	return strip(a) == strip(b)
}

// TestHandleFailedMeasure: a measuring request whose computation refuses
// the changed graph leaves its held graph as it was.
func TestHandleFailedMeasure(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct {
		req, kind, want string
	}{
		{`{"id":1,"op":"load","handle":"w","n":3,"edges":[[0,1],[1,2]],"weights":[2,3]}`, "", `"weighted":true`},
		// Lengths past int8 with int8 lanes: refused once the graph is
		// changed, so the change is undone.
		{`{"id":2,"op":"stats","graph":"w","remove":[[1,2]],"add":[[1,2]],"add_weights":[300],"options":{"lanes":"int8"}}`, "weights_too_large", `int8`},
		{`{"id":3,"op":"summary","graph":"w"}`, "", `"diameter":5`},
		// The same change with lanes that hold it stays.
		{`{"id":4,"op":"stats","graph":"w","remove":[[1,2]],"add":[[1,2]],"add_weights":[300]}`, "", `"diameter":302`},
		{`{"id":5,"op":"summary","graph":"w"}`, "", `"diameter":302`},
	} {
		before := s.heldTotal
		r := answer(t, s, tc.req)
		if r.Kind != tc.kind {
			t.Fatalf("%s: %s %s (%s), want kind %q", tc.req, r.Result, r.Error, r.Kind, tc.kind)
		}
		if got := string(r.Result) + r.Error; !strings.Contains(got, tc.want) {
			t.Fatalf("%s: %s, want %s", tc.req, got, tc.want)
		}
		if tc.kind != "" && s.heldTotal != before {
			t.Fatalf("%s: held bytes %d after the failure, %d before", tc.req, s.heldTotal, before)
		}
	}
}
