package apsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/internal/run"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/plan"
)

// bruteExtremes is the reference for ComputeExtremes, by a search from
// every vertex with the README's definitions: eccentricity(u) is the
// largest distance from u, infinite when u misses a vertex unless
// reachable (then over the vertices u reaches, 0 when none); the diameter
// is infinite when the graph is not (strongly) connected unless
// reachable, else the largest distance over pairs with a path; the radius
// is the smallest eccentricity.
func bruteExtremes(g *graph.Graph, reachable bool) (diam, rad Length, connected bool) {
	n := g.N()
	connected = true
	dist := make([]int, n)
	queue := make([]int, n)
	var maxFinite int64
	rad = Infinite(false)
	for s := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[s], queue[0] = 0, s
		head, tail := 0, 1
		for head < tail {
			u := queue[head]
			head++
			for _, v := range g.Neighbors(u) {
				if dist[v] < 0 {
					dist[v] = dist[u] + 1
					queue[tail] = int(v)
					tail++
				}
			}
		}
		far := int64(dist[queue[tail-1]])
		maxFinite = max(maxFinite, far)
		ecc := IntLength(far)
		if tail < n {
			connected = false
			if !reachable {
				ecc = Infinite(false)
			}
		}
		if ecc.Less(rad) {
			rad = ecc
		}
	}
	diam = IntLength(maxFinite)
	if !connected && !reachable {
		diam = Infinite(false)
	}
	return diam, rad, connected
}

// TestExtremesMatchStats checks the bounds method (no all pairs), under
// "auto" and named, against a search from every vertex and against the
// full statistics on random sparse graphs, connected or not, directed or
// not, with and without --reachable.
func TestExtremesMatchStats(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	finiteRadius := 0
	for trial := 0; trial < 120; trial++ {
		n := 1 + rng.IntN(120)
		directed := trial%2 == 1
		b := graph.NewBuilder(directed)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		m := rng.IntN(3 * n)
		if trial%3 == 0 { // a spanning cycle makes most of them connected
			for i := 0; i < n && n > 1; i++ {
				_ = b.AddEdge(i, (i+1)%n)
			}
		}
		if trial%3 == 1 && directed { // a spanning path and few arcs: one vertex often reaches all
			for i := 0; i+1 < n; i++ {
				_ = b.AddEdge(i, i+1)
			}
			m /= 8
		}
		for range m {
			_ = b.AddEdge(rng.IntN(n), rng.IntN(n))
		}
		g := b.Build()
		for _, reachable := range []bool{false, true} {
			name := fmt.Sprintf("trial %d n=%d directed=%v reachable=%v", trial, n, directed, reachable)
			wantD, wantR, wantC := bruteExtremes(g, reachable)
			if !wantC && !reachable && !wantR.IsInf() {
				finiteRadius++
			}
			want, err := ComputeStats(ctx, g, Options{Reachable: reachable, Algorithm: "blocked"})
			if err != nil {
				t.Fatal(err)
			}
			if want.Connected != wantC || want.Diameter != wantD || want.Radius != wantR {
				t.Fatalf("%s: stats say connected %v diameter %v radius %v; brute force %v %v %v",
					name, want.Connected, want.Diameter, want.Radius, wantC, wantD, wantR)
			}
			for _, algo := range []string{"", BoundsAlgorithm} {
				got, err := ComputeExtremes(ctx, g, Options{Reachable: reachable, Algorithm: algo})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				// Under auto a budget as large as the all-pairs estimate
				// may run out on a small graph, and the all-pairs engine
				// answers; the bounds method itself must always answer.
				if got.Algorithm != BoundsAlgorithm && (algo == BoundsAlgorithm || got.Traversals == 0) {
					t.Fatalf("%s: %q used %s (%d traversals), want bounds", name, algo, got.Algorithm, got.Traversals)
				}
				if got.Connected != wantC || got.Diameter != wantD || got.Radius != wantR {
					t.Fatalf("%s %q: bounds connected %v diameter %v radius %v; brute force %v %v %v",
						name, algo, got.Connected, got.Diameter, got.Radius, wantC, wantD, wantR)
				}
			}
		}
	}
	t.Logf("%d graphs not strongly connected with a finite radius", finiteRadius)
	if finiteRadius < 10 {
		t.Fatalf("only %d graphs not strongly connected with a finite radius", finiteRadius)
	}
}

// TestExtremesSingleArc: the arc 0→1 has ecc(0) = 1 and ecc(1) infinite,
// so radius 1 and an infinite diameter; over reachable pairs the diameter
// is 1 and the radius 0 (vertex 1 reaches nothing).
func TestExtremesSingleArc(t *testing.T) {
	b := graph.NewBuilder(true)
	if err := b.AddEdge(0, 1); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	for _, c := range []struct {
		reachable bool
		d, r      Length
	}{
		{false, Infinite(false), IntLength(1)},
		{true, IntLength(1), IntLength(0)},
	} {
		s, err := ComputeExtremes(context.Background(), g, Options{Reachable: c.reachable})
		if err != nil {
			t.Fatal(err)
		}
		if s.Connected || s.Diameter != c.d || s.Radius != c.r || s.Algorithm != BoundsAlgorithm {
			t.Fatalf("reachable %v: got connected %v diameter %v radius %v by %s, want false %v %v by bounds",
				c.reachable, s.Connected, s.Diameter, s.Radius, s.Algorithm, c.d, c.r)
		}
	}
}

func regularGraph(t *testing.T, n int) *graph.Graph {
	t.Helper()
	g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), "d=4", "seed=1")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestExtremesBudgetFallback checks that "auto" gives up on bounds when
// its budget runs out and answers from an all-pairs engine, saying which
// and how many searches bounds spent, and that "bounds" by name has no
// budget.
func TestExtremesBudgetFallback(t *testing.T) {
	ctx := context.Background()
	g := regularGraph(t, 600)
	want, err := ComputeStats(ctx, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tiny := func(*graph.Graph, int) float64 { return 3 }
	s, err := computeExtremes(t, ctx, g, Options{}, tiny)
	if err != nil {
		t.Fatal(err)
	}
	if s.Algorithm == BoundsAlgorithm || s.Algorithm != want.Algorithm || s.Traversals < 3 || s.Traversals > 5 {
		t.Fatalf("tiny budget: answered by %s after %d searches, want %s after 3 to 5", s.Algorithm, s.Traversals, want.Algorithm)
	}
	if s.Diameter != want.Diameter || s.Radius != want.Radius || !s.Connected || !s.NoASPL {
		t.Fatalf("tiny budget: diameter %v radius %v connected %v no-aspl %v; want %v %v true true",
			s.Diameter, s.Radius, s.Connected, s.NoASPL, want.Diameter, want.Radius)
	}
	named, err := computeExtremes(t, ctx, g, Options{Algorithm: BoundsAlgorithm}, tiny)
	if err != nil {
		t.Fatal(err)
	}
	if named.Algorithm != BoundsAlgorithm || named.Diameter != want.Diameter || named.Radius != want.Radius {
		t.Fatalf("bounds by name: %s gave diameter %v radius %v, want bounds %v %v",
			named.Algorithm, named.Diameter, named.Radius, want.Diameter, want.Radius)
	}
	t.Logf("n=%d: bounds unlimited %d searches; diameter %v radius %v", g.N(), named.Traversals, named.Diameter, named.Radius)

	// A digraph that is not strongly connected: the regular graph's
	// edges both ways plus a vertex with one arc into it, which alone
	// reaches every vertex. The fallback gives its finite radius too.
	b := graph.NewBuilder(true)
	for u := range g.N() {
		for _, v := range g.Neighbors(u) {
			_ = b.AddEdge(u, int(v))
		}
	}
	_ = b.AddEdge(g.N(), 0)
	dg := b.Build()
	wantD, wantR, _ := bruteExtremes(dg, false)
	if !wantD.IsInf() || wantR.IsInf() {
		t.Fatalf("directed: brute force diameter %v radius %v, want inf and finite", wantD, wantR)
	}
	s, err = computeExtremes(t, ctx, dg, Options{}, tiny)
	if err != nil {
		t.Fatal(err)
	}
	if s.Algorithm == BoundsAlgorithm || s.Traversals == 0 || s.Connected || s.Diameter != wantD || s.Radius != wantR {
		t.Fatalf("directed, tiny budget: %s after %d searches: connected %v diameter %v radius %v; want a fallback, false %v %v",
			s.Algorithm, s.Traversals, s.Connected, s.Diameter, s.Radius, wantD, wantR)
	}
}

// TestExtremesExpanderFallsBack checks the real budget on a random
// 4-regular graph, where bounds needs searches from a good part of the
// vertices: "auto" must hand over to the all-pairs engine after a few
// dozen.
func TestExtremesExpanderFallsBack(t *testing.T) {
	ctx := context.Background()
	g := regularGraph(t, 4000)
	s, err := ComputeExtremes(ctx, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ComputeStats(ctx, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("n=%d: %s after %d bounds searches, %.3f s (all pairs %.3f s); budget %.1f searches",
		g.N(), s.Algorithm, s.Traversals, s.Seconds, want.Seconds, plan.BoundsBudget(g, s.Threads))
	if s.Algorithm == BoundsAlgorithm || s.Traversals == 0 || s.Diameter != want.Diameter || s.Radius != want.Radius {
		t.Fatalf("got %s after %d searches, diameter %v radius %v; want a fallback to %s, %v %v",
			s.Algorithm, s.Traversals, s.Diameter, s.Radius, want.Algorithm, want.Diameter, want.Radius)
	}
}

// TestExtremesNamedLanes: a named lane other than int32 leaves the bounds
// method (int32 searches) aside for an engine that computes in it, with
// the same answer.
func TestExtremesNamedLanes(t *testing.T) {
	b := graph.NewBuilder(false)
	for v := 1; v < 40; v++ {
		if err := b.AddEdge(v-1, v); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	ctx := context.Background()
	want, err := ComputeExtremes(ctx, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"int8", "int16", "int64"} {
		got, err := ComputeExtremes(ctx, g, Options{Lanes: l})
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if got.Algorithm == BoundsAlgorithm || got.Lanes != l || got.Diameter != want.Diameter || got.Radius != want.Radius {
			t.Fatalf("%s: %s in %s lanes, diameter %v radius %v; want %v %v", l, got.Algorithm, got.Lanes, got.Diameter, got.Radius, want.Diameter, want.Radius)
		}
		c, err := Explain(g, Options{Lanes: l}, TaskExtremes)
		if err != nil || c.Engine == BoundsAlgorithm || c.Lanes != l {
			t.Fatalf("%s: Explain %+v, %v", l, c, err)
		}
	}
}

// computeExtremes is ComputeExtremes with the bounds method's budget
// under "auto" given by budget.
func computeExtremes(t *testing.T, ctx context.Context, g *graph.Graph, opt Options, budget run.Budget) (*Stats, error) {
	t.Helper()
	o, err := opt.parse()
	if err != nil {
		t.Fatal(err)
	}
	return run.Extremes(ctx, g, o, budget)
}
