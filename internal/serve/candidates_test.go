package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestCandidatesAgreeInline: candidates (random swaps of held graphs,
// directed and undirected, unweighted and weighted, one that cannot be
// made among them) are each answered as the changed graph sent inline,
// and leave the held graph as it was.
func TestCandidatesAgreeInline(t *testing.T) {
	s := &Server{}
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 12 {
		spec := testgraphs.Spec{N: 4 + rng.IntN(40), P: 0.15 + 0.2*rng.Float64(), Directed: trial%2 == 1, Lo: 1, Hi: 9}
		spec.Kind = []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3]
		g := testgraphs.Random(rng, spec)
		m := modelOf(g)
		name := fmt.Sprintf("c%d", trial)
		if r := answer(t, s, requestLine(t, 0, "load", g, false, fmt.Sprintf(`, "handle": %q`, name))); r.Error != "" {
			t.Fatal(r.Error)
		}
		for round := range 4 {
			var cands []map[string]any
			var want []*model // nil: the candidate cannot be made
			for k := range 1 + rng.IntN(9) {
				remove, add, ok := m.swap(rng)
				if !ok {
					break
				}
				if m.directed {
					remove[0] = [2]int{remove[0][1], remove[0][0]}
				}
				c := map[string]any{"remove": remove, "add": add}
				next := &model{n: m.n, directed: m.directed, kind: m.kind, w: maps.Clone(m.w)}
				weights := next.apply(rng, remove, add)
				if m.kind != graph.Unweighted {
					c["add_weights"] = weights
				}
				if k == 2 { // an edge the graph keeps: refused, alone
					for e := range m.w {
						if e != m.key(remove[0][0], remove[0][1]) && e != m.key(remove[1][0], remove[1][1]) {
							c["add"] = [][2]int{add[0], e}
							next = nil
							break
						}
					}
				}
				cands = append(cands, c)
				want = append(want, next)
			}
			cj, _ := json.Marshal(cands)
			// On a GPU (where there is one) the swaps of an unweighted
			// graph go to the bulk search as arc edits. (Lengths would be
			// float32 lanes there, which agree with the CPU to rounding
			// only.)
			device := "cpu"
			if _, err := apsp.Devices(); err == nil && round%2 == 1 && spec.Kind == graph.Unweighted {
				device = "gpu"
			}
			r := answer(t, s, fmt.Sprintf(`{"id": %d, "op": "summary", "graph": %q, "options": {"device": %q}, "candidates": %s}`, round, name, device, cj))
			if r.Error != "" {
				t.Fatalf("trial %d round %d: %s (%s)", trial, round, r.Error, r.Kind)
			}
			var res struct{ Summaries []json.RawMessage }
			if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Summaries) != len(cands) {
				t.Fatalf("trial %d round %d: %s (%v), want %d summaries", trial, round, r.Result, err, len(cands))
			}
			for k, mk := range want {
				got := res.Summaries[k]
				if mk == nil {
					if !strings.Contains(string(got), `"kind":"request"`) || !strings.Contains(string(got), fmt.Sprintf("candidates[%d]", k)) {
						t.Fatalf("trial %d round %d candidate %d: %s, want its refusal", trial, round, k, got)
					}
					continue
				}
				inline := answer(t, s, requestLine(t, k, "summary", mk.graph(), k%2 == 0, ""))
				if inline.Error != "" || !sameMeasures(t, got, inline.Result) {
					t.Fatalf("trial %d round %d candidate %d (%v): %s, inline %s %s", trial, round, k, spec, got, inline.Result, inline.Error)
				}
			}
			// The held graph is as it was.
			held := answer(t, s, fmt.Sprintf(`{"id": 0, "op": "summary", "graph": %q}`, name))
			inline := answer(t, s, requestLine(t, 0, "summary", m.graph(), false, ""))
			if held.Error != "" || !sameMeasures(t, held.Result, inline.Result) {
				t.Fatalf("trial %d round %d: held %s %s, want %s", trial, round, held.Result, held.Error, inline.Result)
			}
		}
	}
}

// sameMeasures compares two results but for how they were computed
// (seconds, threads, algorithm: a batch and an Evaluator may differ).
func sameMeasures(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("%s or %s is not a JSON object", a, b)
	}
	for _, m := range []map[string]any{x, y} {
		delete(m, "seconds")
		delete(m, "threads")
		delete(m, "algorithm")
		delete(m, "device")
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// TestCandidatesRefused: candidates belong to op summary of a held graph
// as it is, within the limits.
func TestCandidatesRefused(t *testing.T) {
	s := &Server{MaxHeld: 350}
	if r := answer(t, s, `{"id":0,"op":"load","handle":"p","n":4,"edges":[[0,1],[1,2],[2,3]]}`); r.Error != "" {
		t.Fatal(r.Error)
	}
	one := `[{"remove":[[0,1]],"add":[[0,2]]}]`
	for _, tc := range []struct{ req, kind, want string }{
		{`{"id":1,"op":"stats","graph":"p","candidates":` + one + `}`, "request", `belong to op "summary"`},
		{`{"id":2,"op":"summary","n":4,"edges":[[0,1]],"candidates":` + one + `}`, "request", `name it by "graph"`},
		{`{"id":3,"op":"summary","graph":"p","add":[[0,3]],"candidates":` + one + `}`, "request", `op "update"`},
		{`{"id":4,"op":"summary","graph":"q","candidates":` + one + `}`, "unknown_handle", `"q"`},
		// 5·8 + 6·4 = 64 bytes a graph, the held one's among them: four
		// candidates pass 350 (64 + 256), not five (64 + 320).
		{`{"id":5,"op":"summary","graph":"p","candidates":[{},{},{},{},{}]}`, "too_large", `--max-held 350`},
		{`{"id":55,"op":"summary","graph":"p","candidates":[{},{},{},{}]}`, "", `{"summaries":[{`},
		{`{"id":6,"op":"summary","graph":"p","candidates":[{},{},{}]}`, "", `{"summaries":[{`},
		{`{"id":7,"op":"summary","graph":"p","candidates":[{"add":[[0,9]]}]}`, "", `"kind":"graph"`},
		{`{"id":8,"op":"summary","graph":"p","candidates":[{"add":[[0,2,5]]}]}`, "", `candidates[0]: add[0]: 3 numbers`},
		{`{"id":9,"op":"summary","graph":"p","candidates":[]}`, "", `{"summaries":[]}`},
	} {
		r := answer(t, s, tc.req)
		if r.Kind != tc.kind || !strings.Contains(string(r.Result)+r.Error, tc.want) {
			t.Errorf("%s: %s%s (%s), want kind %q and %s", tc.req, r.Result, r.Error, r.Kind, tc.kind, tc.want)
		}
	}
}

// TestCandidatesCancelled: a request whose context ends while its
// candidates are measured is answered with that error, not with a
// "failed" entry a candidate.
func TestCandidatesCancelled(t *testing.T) {
	s := &Server{}
	if r := answer(t, s, `{"id":0,"op":"load","handle":"p","n":4,"edges":[[0,1],[1,2],[2,3]]}`); r.Error != "" {
		t.Fatal(r.Error)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	line := s.Handle(ctx, []byte(`{"id":1,"op":"summary","graph":"p","candidates":[{},{"remove":[[0,1]],"add":[[0,2]]}]}`))
	if !strings.Contains(string(line), `"error"`) || strings.Contains(string(line), `"summaries"`) {
		t.Fatalf("cancelled: %s, want the request's error", line)
	}
}

// TestHTTPHeldFieldsNotBatched: over HTTP, a summary that carries a graph
// and a held graph's fields ("candidates", "add", "graph") is refused as
// over stdio, not batched as a plain summary of the graph.
func TestHTTPHeldFieldsNotBatched(t *testing.T) {
	_, ts := newTestHTTP(t, HTTPOptions{})
	for _, extra := range []string{`"candidates":[{}]`, `"add":[[0,2]]`, `"graph":"g1"`} {
		body := `{"n":3,"edges":[[0,1],[1,2]],` + extra + `}`
		code, r, _ := post(t, ts, "/v1/summary", "application/json", body)
		if code != http.StatusBadRequest || r.Kind != "request" {
			t.Errorf("%s: %d %s %s (%s), want 400 request", body, code, r.Result, r.Error, r.Kind)
		}
	}
}
