package gen

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
)

func generate(t testing.TB, kind string, args ...string) *graph.Graph {
	t.Helper()
	s, err := ParseSpec(kind, args)
	if err != nil {
		t.Fatalf("ParseSpec(%s %v): %v", kind, args, err)
	}
	g, err := Generate(s)
	if err != nil {
		t.Fatalf("Generate(%s %v): %v", kind, args, err)
	}
	return g
}

// reached returns how many vertices a BFS from 0 along arcs reaches.
func reached(g *graph.Graph) int {
	if g.N() == 0 {
		return 0
	}
	seen := make([]bool, g.N())
	queue := []int{0}
	seen[0] = true
	for i := 0; i < len(queue); i++ {
		for _, v := range g.Neighbors(queue[i]) {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, int(v))
			}
		}
	}
	return len(queue)
}

func connected(g *graph.Graph) bool { return reached(g) == g.N() }

// stronglyConnected checks reachability from 0 in g and in its transpose.
func stronglyConnected(g *graph.Graph) bool {
	return connected(g) && connected(g.Transpose())
}

// noLoops checks that no vertex lists itself. Parallel edges cannot be seen
// in a built graph (the builder merges them), so tests that care compare
// degrees instead.
func noLoops(t *testing.T, g *graph.Graph) {
	t.Helper()
	for u := range g.N() {
		if g.ArcIndex(u, u) >= 0 {
			t.Fatalf("self-loop at %d", u)
		}
	}
}

func sameArcs(a, b *graph.Graph) bool {
	if a.N() != b.N() || a.Arcs() != b.Arcs() || a.Directed() != b.Directed() {
		return false
	}
	for u := range a.N() {
		if !slices.Equal(a.Neighbors(u), b.Neighbors(u)) {
			return false
		}
	}
	return true
}

func sameGraph(a, b *graph.Graph) bool {
	if !sameArcs(a, b) || a.Kind() != b.Kind() {
		return false
	}
	for u := range a.N() {
		if !slices.Equal(a.IntWeights(u), b.IntWeights(u)) || !slices.Equal(a.FloatWeights(u), b.FloatWeights(u)) {
			return false
		}
	}
	return true
}

func TestCounts(t *testing.T) {
	for _, c := range []struct {
		kind     string
		args     []string
		n, edges int
		degLo    int
		degHi    int
	}{
		{"regular", []string{"n=1", "d=0"}, 1, 0, 0, 0},
		{"regular", []string{"n=2", "d=1"}, 2, 1, 1, 1},
		{"regular", []string{"n=3", "d=2"}, 3, 3, 2, 2},
		{"regular", []string{"n=100", "d=2"}, 100, 100, 2, 2},
		{"regular", []string{"n=4", "d=3"}, 4, 6, 3, 3},
		{"regular", []string{"n=8", "d=3"}, 8, 12, 3, 3},
		{"regular", []string{"n=10", "d=4"}, 10, 20, 4, 4},
		{"regular", []string{"n=11", "d=6"}, 11, 33, 6, 6},
		{"regular", []string{"n=1000", "d=3"}, 1000, 1500, 3, 3},
		{"regular", []string{"n=1000", "d=499"}, 1000, 249500, 499, 499},
		{"regular", []string{"n=1000", "d=500"}, 1000, 250000, 500, 500},
		{"regular", []string{"n=1001", "d=998"}, 1001, 499499, 998, 998},
		{"regular", []string{"n=5000", "d=40"}, 5000, 100000, 40, 40},
		{"gnp", []string{"n=1", "r=5"}, 1, 0, 0, 0},
		{"gnp", []string{"n=2", "r=100"}, 2, 1, 1, 1},
		{"gnp", []string{"n=1000", "r=1"}, 1000, 4995, -1, -1}, // random degrees
		{"gnp", []string{"n=1000", "r=0.2"}, 1000, 999, -1, -1},
		{"gnp", []string{"n=500", "r=50"}, 500, 62375, -1, -1},
		{"gnp", []string{"n=300", "r=100"}, 300, 44850, 299, 299},
		{"ba", []string{"n=2", "d=1"}, 2, 1, 1, 1},
		{"ba", []string{"n=4", "d=3"}, 4, 6, 3, 3},
		{"ba", []string{"n=1000", "d=1"}, 1000, 999, -1, -1}, // a random tree
		{"ba", []string{"n=2000", "d=4"}, 2000, 10 + 1995*4, -1, -1},
		{"grid", []string{"a=1", "b=1"}, 1, 0, 0, 0},
		{"grid", []string{"a=1", "b=5"}, 5, 4, 1, 2},
		{"grid", []string{"a=7", "b=5"}, 35, 7*4 + 5*6, 2, 4},
		{"torus", []string{"a=3", "b=3"}, 9, 18, 4, 4},
		{"torus", []string{"a=10", "b=4"}, 40, 80, 4, 4},
		{"hypercube", []string{"d=0"}, 1, 0, 0, 0},
		{"hypercube", []string{"d=1"}, 2, 1, 1, 1},
		{"hypercube", []string{"d=10"}, 1024, 5120, 10, 10},
		{"complete", []string{"n=1"}, 1, 0, 0, 0},
		{"complete", []string{"n=50"}, 50, 1225, 49, 49},
		{"cycle", []string{"n=3"}, 3, 3, 2, 2},
		{"cycle", []string{"n=100"}, 100, 100, 2, 2},
		{"path", []string{"n=1"}, 1, 0, 0, 0},
		{"path", []string{"n=2"}, 2, 1, 1, 1},
		{"path", []string{"n=100"}, 100, 99, 1, 2},
		{"petersen", nil, 10, 15, 3, 3},
	} {
		name := c.kind + " " + strings.Join(c.args, " ")
		t.Run(name, func(t *testing.T) {
			g := generate(t, c.kind, c.args...)
			if g.N() != c.n || g.Edges() != c.edges || g.Directed() {
				t.Fatalf("got n=%d edges=%d directed=%t, want n=%d edges=%d undirected",
					g.N(), g.Edges(), g.Directed(), c.n, c.edges)
			}
			if lo, hi := g.DegreeRange(); c.degLo >= 0 && (lo != c.degLo || hi != c.degHi) {
				t.Errorf("degrees %d..%d, want %d..%d", lo, hi, c.degLo, c.degHi)
			}
			if g.Kind() != graph.Unweighted {
				t.Errorf("kind %v, want unweighted", g.Kind())
			}
			noLoops(t, g)
			if !connected(g) {
				t.Errorf("not connected")
			}
			// Directed: gnp and cycle keep the edge count, the others double it.
			d := generate(t, c.kind, append(slices.Clone(c.args), "directed")...)
			want := 2 * c.edges
			if c.kind == "gnp" || c.kind == "cycle" {
				want = c.edges
			}
			if !d.Directed() || d.N() != c.n || d.Edges() != want {
				t.Errorf("directed: got n=%d arcs=%d directed=%t, want n=%d arcs=%d", d.N(), d.Edges(), d.Directed(), c.n, want)
			}
			if c.kind != "gnp" && !stronglyConnected(d) {
				t.Errorf("directed graph is not strongly connected")
			}
		})
	}
}

func TestRegular(t *testing.T) {
	for _, c := range []struct{ n, d int }{
		{6, 3}, {8, 3}, {12, 5}, {50, 3}, {99, 4}, {100, 7}, {200, 20}, {64, 31}, {65, 32}, {64, 62}, {2000, 3},
	} {
		for seed := range 5 {
			args := []string{"n=" + strconv.Itoa(c.n), "d=" + strconv.Itoa(c.d), "seed=" + strconv.Itoa(seed)}
			g := generate(t, "regular", args...)
			// The builder merges parallel edges and drops loops, so exact
			// degrees prove the graph simple.
			if lo, hi := g.DegreeRange(); lo != c.d || hi != c.d || g.Edges() != c.n*c.d/2 {
				t.Fatalf("%v: degrees %d..%d, %d edges; want %d, %d", args, lo, hi, g.Edges(), c.d, c.n*c.d/2)
			}
			noLoops(t, g)
			if !connected(g) {
				t.Fatalf("%v: not connected", args)
			}
		}
	}
}

func TestReproducible(t *testing.T) {
	for _, c := range []struct {
		kind string
		args []string
	}{
		{"regular", []string{"n=500", "d=3"}},
		{"regular", []string{"n=100", "d=2"}},
		{"regular", []string{"n=100", "d=80"}},
		{"gnp", []string{"n=300", "r=2"}},
		{"gnp", []string{"n=300", "r=60"}},
		{"ba", []string{"n=500", "d=3"}},
	} {
		a := generate(t, c.kind, slices.Concat(c.args, []string{"seed=7"})...)
		b := generate(t, c.kind, slices.Concat(c.args, []string{"seed=7"})...)
		other := generate(t, c.kind, slices.Concat(c.args, []string{"seed=8"})...)
		dflt := generate(t, c.kind, c.args...)
		seed1 := generate(t, c.kind, slices.Concat(c.args, []string{"seed=1"})...)
		if !sameGraph(a, b) {
			t.Errorf("%s %v: seed=7 twice gave different graphs", c.kind, c.args)
		}
		if sameArcs(a, other) {
			t.Errorf("%s %v: seeds 7 and 8 gave the same graph", c.kind, c.args)
		}
		if !sameGraph(dflt, seed1) {
			t.Errorf("%s %v: the default seed is not 1", c.kind, c.args)
		}
		// Weights and orientation come from their own streams.
		w := generate(t, c.kind, slices.Concat(c.args, []string{"seed=7", "weights=1..9"})...)
		if !sameArcs(a, w) {
			t.Errorf("%s %v: adding weights changed the structure", c.kind, c.args)
		}
		w2 := generate(t, c.kind, slices.Concat(c.args, []string{"seed=7", "weights=1..9"})...)
		if !sameGraph(w, w2) {
			t.Errorf("%s %v: weights are not reproducible", c.kind, c.args)
		}
	}
}

func TestGnpDirected(t *testing.T) {
	u := generate(t, "gnp", "n=400", "r=3", "seed=3")
	d := generate(t, "gnp", "n=400", "r=3", "seed=3", "directed")
	if d.Edges() != u.Edges() {
		t.Fatalf("directed gnp has %d arcs, want %d", d.Edges(), u.Edges())
	}
	forward := 0
	for x := range d.N() {
		for _, y := range d.Neighbors(x) {
			if d.ArcIndex(int(y), x) >= 0 {
				t.Fatalf("both %d→%d and %d→%d", x, y, y, x)
			}
			if u.ArcIndex(x, int(y)) < 0 {
				t.Fatalf("arc %d→%d is not an edge of the undirected graph of the same seed", x, y)
			}
			if int(y) > x {
				forward++
			}
		}
	}
	// Orientations are random: both directions are common.
	if forward < d.Edges()/3 || forward > 2*d.Edges()/3 {
		t.Errorf("%d of %d arcs point upwards", forward, d.Edges())
	}
}

func TestDirectedCycle(t *testing.T) {
	g := generate(t, "cycle", "n=7", "directed", "weights=1..5")
	if g.Arcs() != 7 {
		t.Fatalf("%d arcs, want 7", g.Arcs())
	}
	for u := range 7 {
		if nb := g.Neighbors(u); len(nb) != 1 || int(nb[0]) != (u+1)%7 {
			t.Fatalf("arcs of %d: %v, want [%d]", u, nb, (u+1)%7)
		}
	}
}

func TestDirectedBothArcsIndependentWeights(t *testing.T) {
	g := generate(t, "grid", "a=20", "b=20", "directed", "weights=1..1000000")
	differ := 0
	for u := range g.N() {
		ws := g.IntWeights(u)
		for i, v := range g.Neighbors(u) {
			j := g.ArcIndex(int(v), u)
			if j < 0 {
				t.Fatalf("arc %d→%d has no reverse", u, v)
			}
			if ws[i] != g.IntWeights(int(v))[j] {
				differ++
			}
		}
	}
	if differ < g.Arcs()/2 {
		t.Errorf("only %d of %d arcs differ in weight from their reverse", differ, g.Arcs())
	}
}

func TestStructure(t *testing.T) {
	t.Run("grid ids", func(t *testing.T) {
		g := generate(t, "grid", "a=3", "b=4")
		// (1, 2) has id 6, neighbours (0,2)=2, (2,2)=10, (1,1)=5, (1,3)=7.
		if got := g.Neighbors(6); !slices.Equal(got, []int32{2, 5, 7, 10}) {
			t.Errorf("neighbours of 6: %v", got)
		}
	})
	t.Run("torus ids", func(t *testing.T) {
		g := generate(t, "torus", "a=3", "b=4")
		if got := g.Neighbors(0); !slices.Equal(got, []int32{1, 3, 4, 8}) {
			t.Errorf("neighbours of 0: %v", got)
		}
	})
	t.Run("hypercube bits", func(t *testing.T) {
		g := generate(t, "hypercube", "d=4")
		if got := g.Neighbors(5); !slices.Equal(got, []int32{1, 4, 7, 13}) {
			t.Errorf("neighbours of 5: %v", got)
		}
	})
	t.Run("petersen", func(t *testing.T) {
		g := generate(t, "petersen")
		for _, arc := range [][2]int{{0, 1}, {4, 0}, {0, 5}, {5, 7}, {9, 6}, {4, 9}} {
			if g.ArcIndex(arc[0], arc[1]) < 0 {
				t.Errorf("no edge %d–%d", arc[0], arc[1])
			}
		}
		// Strongly regular (10, 3, 0, 1): adjacent vertices share no
		// neighbour, non-adjacent ones exactly one.
		for u := range 10 {
			for v := u + 1; v < 10; v++ {
				common := 0
				for _, w := range g.Neighbors(u) {
					if g.ArcIndex(v, int(w)) >= 0 {
						common++
					}
				}
				want := 1
				if g.ArcIndex(u, v) >= 0 {
					want = 0
				}
				if common != want {
					t.Errorf("%d and %d share %d neighbours, want %d", u, v, common, want)
				}
			}
		}
	})
	t.Run("path", func(t *testing.T) {
		g := generate(t, "path", "n=5")
		if g.ArcIndex(0, 1) < 0 || g.ArcIndex(3, 4) < 0 || g.Degree(0) != 1 || g.Degree(4) != 1 {
			t.Errorf("not the path 0–1–2–3–4")
		}
	})
}

func TestWeights(t *testing.T) {
	for _, c := range []struct {
		weights string
		kind    graph.WeightKind
		lo, hi  float64
		hiOpen  bool
	}{
		{"1..10", graph.IntWeights, 1, 10, false},
		{"-5..5", graph.IntWeights, -5, 5, false},
		{"7..7", graph.IntWeights, 7, 7, false},
		{"-9223372036854775808..9223372036854775807", graph.IntWeights, math.MinInt64, math.MaxInt64, false},
		{"0..1.0", graph.FloatWeights, 0, 1, true},
		{"0.5..2", graph.FloatWeights, 0.5, 2, true},
		{"-1e3..-1e2", graph.FloatWeights, -1000, -100, true},
		{"2.5..2.5", graph.FloatWeights, 2.5, 2.5, false},
	} {
		g := generate(t, "torus", "a=30", "b=30", "weights="+c.weights)
		if g.Kind() != c.kind {
			t.Errorf("weights=%s: kind %v, want %v", c.weights, g.Kind(), c.kind)
			continue
		}
		lo, hi := g.FloatWeightRange()
		if lo < c.lo || hi > c.hi || (c.hiOpen && hi >= c.hi) {
			t.Errorf("weights=%s: range %v..%v outside %v..%v", c.weights, lo, hi, c.lo, c.hi)
		}
		// 1800 draws cover most of a small integer range.
		if c.kind == graph.IntWeights && c.hi-c.lo <= 10 && (lo != c.lo || hi != c.hi) {
			t.Errorf("weights=%s: drew only %v..%v", c.weights, lo, hi)
		}
		if c.kind == graph.IntWeights && c.lo < 0 && !g.HasNegativeWeights() {
			t.Errorf("weights=%s: no negative weight", c.weights)
		}
	}
	// An undirected edge has one weight, the same in both directions.
	g := generate(t, "complete", "n=30", "weights=0..1.0")
	for u := range g.N() {
		for i, v := range g.Neighbors(u) {
			if g.FloatWeights(u)[i] != g.FloatWeights(int(v))[g.ArcIndex(int(v), u)] {
				t.Fatalf("edge %d–%d has two weights", u, v)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		kind   string
		args   []string
		want   string
		tooBig bool
	}{
		{"nosuch", nil, `unknown graph kind "nosuch"`, false},
		{"regular", []string{"n=10"}, "regular needs n= and d=", false},
		{"regular", nil, "regular needs n= and d=", false},
		{"gnp", []string{"r=5"}, "gnp needs n= and r=", false},
		{"grid", []string{"a=5"}, "grid needs a= and b=", false},
		{"hypercube", nil, "hypercube needs d=", false},
		{"regular", []string{"n=10", "d=3", "x=1"}, `unknown parameter "x" (regular takes n= d= weights=LO..HI seed=N directed)`, false},
		{"petersen", []string{"n=10"}, `unknown parameter "n"`, false},
		{"cycle", []string{"n=5", "d=2"}, `unknown parameter "d"`, false},
		{"regular", []string{"n=10", "d"}, `argument "d" is not key=value`, false},
		{"regular", []string{"n=10", "n=11", "d=2"}, "n= given twice", false},
		{"regular", []string{"n=ten", "d=3"}, "n=ten: want a non-negative integer", false},
		{"regular", []string{"n=-4", "d=3"}, "want a non-negative integer", false},
		{"regular", []string{"n=010", "d=3", "seed=x"}, "seed=x", false},
		{"regular", []string{"n=10", "d=3", "directed=maybe"}, "directed=maybe", false},
		{"regular", []string{"n=5", "d=3"}, "n*d must be even", false},
		{"regular", []string{"n=5", "d=5"}, "d=5 must be less than n=5", false},
		{"regular", []string{"n=5", "d=0"}, "not connected", false},
		{"regular", []string{"n=6", "d=1"}, "not connected", false},
		{"regular", []string{"n=0", "d=0"}, "at least 1", false},
		{"gnp", []string{"n=1000", "r=0.1"}, "fewer than the 999 a connected graph needs; use r >= 0.2", false},
		{"gnp", []string{"n=3", "r=30"}, "use r >= 66.7", false},
		{"gnp", []string{"n=10", "r=0"}, "above 0 and at most 100", false},
		{"gnp", []string{"n=10", "r=101"}, "above 0 and at most 100", false},
		{"gnp", []string{"n=10", "r=NaN"}, "above 0 and at most 100", false},
		{"gnp", []string{"n=10", "r=lots"}, "want a percentage", false},
		{"torus", []string{"a=2", "b=5"}, "at least 3", false},
		{"grid", []string{"a=0", "b=5"}, "at least 1", false},
		{"cycle", []string{"n=2"}, "at least 3", false},
		{"path", []string{"n=0"}, "at least 1", false},
		{"hypercube", []string{"d=25"}, "at most 24", false},
		{"ba", []string{"n=10", "d=0"}, "at least 1 edge", false},
		{"ba", []string{"n=3", "d=3"}, "at least d+1 vertices", false},
		{"path", []string{"n=5", "weights=1"}, "want LO..HI", false},
		{"path", []string{"n=5", "weights=5..1"}, "LO 5 is above HI 1", false},
		{"path", []string{"n=5", "weights=1..x"}, "bad number", false},
		{"path", []string{"n=5", "weights=0..inf"}, "not a finite number", false},
		{"path", []string{"n=5", "weights=-1e308..1e308"}, "too wide", false},
		{"path", []string{"n=5", "weights=1..99999999999999999999"}, "64-bit", false},
		{"path", []string{"n=5", "weights=2.0..1"}, "above HI", false},
		{"complete", []string{"n=70000"}, "edges: graph too large", true},
		{"complete", []string{"n=50000", "directed"}, "edges: graph too large", true},
		{"grid", []string{"a=100000", "b=100000"}, "vertices: graph too large", true},
		{"path", []string{"n=3000000000"}, "graph too large", true},
		{"path", []string{"n=99999999999999999999"}, "graph too large", true},
		{"gnp", []string{"n=1000000", "r=50"}, "graph too large", true},
		{"regular", []string{"n=2000000000", "d=4"}, "graph too large", true},
	} {
		name := c.kind + " " + strings.Join(c.args, " ")
		_, err := ParseSpec(c.kind, c.args)
		if err == nil {
			t.Errorf("%s: ParseSpec accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", name, err, c.want)
		}
		if errors.Is(err, graph.ErrTooLarge) != c.tooBig {
			t.Errorf("%s: errors.Is(%q, ErrTooLarge) = %t", name, err, !c.tooBig)
		}
		// Generate checks a Spec built by hand in the same way, except for
		// what only the argument list can get wrong.
		params := map[string]string{}
		for _, a := range c.args {
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				v = "true"
			}
			params[k] = v
		}
		if strings.Contains(c.want, "twice") {
			continue
		}
		if _, err := Generate(Spec{Kind: c.kind, Params: params}); err == nil {
			t.Errorf("%s: Generate accepted", name)
		}
	}
}

func TestParseSpec(t *testing.T) {
	s, err := ParseSpec("regular", []string{"n=100", "d=4", "weights=1..10", "seed=7", "directed"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"n": "100", "d": "4", "weights": "1..10", "seed": "7", "directed": "true"}
	if s.Kind != "regular" || len(s.Params) != len(want) {
		t.Fatalf("got %+v", s)
	}
	for k, v := range want {
		if s.Params[k] != v {
			t.Errorf("%s=%q, want %q", k, s.Params[k], v)
		}
	}
	g, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Directed() || g.Edges() != 400 || g.Kind() != graph.IntWeights {
		t.Errorf("got directed=%t arcs=%d %v", g.Directed(), g.Edges(), g.Kind())
	}
	g = generate(t, "cycle", "n=5", "directed=false")
	if g.Directed() {
		t.Errorf("directed=false gave a directed graph")
	}
	// A nil Params map is fine for a kind without parameters.
	if g, err := Generate(Spec{Kind: "petersen"}); err != nil || g.Edges() != 15 {
		t.Errorf("petersen from a bare Spec: %v", err)
	}
}

func TestKinds(t *testing.T) {
	kinds := Kinds()
	var names []string
	for _, k := range kinds {
		names = append(names, k.Name)
		if k.Description == "" || !strings.HasPrefix(k.Example, "apsp gen "+k.Name) {
			t.Errorf("%s: incomplete help %+v", k.Name, k)
		}
		if !strings.Contains(k.Description, "directed") {
			t.Errorf("%s: description does not say what directed does", k.Name)
		}
		fields := strings.Fields(k.Example)[3:]
		for _, p := range strings.Fields(k.Params) {
			if !slices.ContainsFunc(fields, func(f string) bool { return strings.HasPrefix(f, p) }) {
				t.Errorf("%s: example %q lacks %s", k.Name, k.Example, p)
			}
		}
		if _, err := ParseSpec(k.Name, fields); err != nil {
			t.Errorf("%s: example %q: %v", k.Name, k.Example, err)
		}
	}
	want := []string{"regular", "geometric", "gnp", "ba", "grid", "torus", "hypercube", "complete", "cycle", "path", "petersen"}
	if !slices.Equal(names, want) {
		t.Errorf("kinds %v, want %v", names, want)
	}
	kinds[0].Name = "changed"
	if Kinds()[0].Name != "regular" {
		t.Errorf("Kinds returns shared state")
	}
}

func BenchmarkRegular65536x4(b *testing.B) {
	s, err := ParseSpec("regular", []string{"n=65536", "d=4"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRegular1e6x4(b *testing.B) {
	s, err := ParseSpec("regular", []string{"n=1000000", "d=4"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGnp4096r50(b *testing.B) {
	s, err := ParseSpec("gnp", []string{"n=4096", "r=50"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGnp65536r0_05(b *testing.B) {
	s, err := ParseSpec("gnp", []string{"n=65536", "r=0.05"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}

func TestGeometric(t *testing.T) {
	s, err := ParseSpec("geometric", []string{"n=20000", "d=6", "seed=3"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	mean := float64(g.Arcs()) / float64(g.N())
	// Boundary effects lower the mean a little below d.
	if g.N() != 20000 || mean < 5 || mean > 6.5 {
		t.Fatalf("n=%d mean degree %.2f, want 20000 and about 6", g.N(), mean)
	}
	g2, _ := Generate(s)
	if g2.Arcs() != g.Arcs() {
		t.Fatal("not reproducible for one seed")
	}
	for _, bad := range [][]string{{"n=10", "d=0"}, {"n=0", "d=3"}, {"n=5", "d=5"}} {
		if _, err := ParseSpec("geometric", bad); err == nil {
			t.Errorf("%v: want an error", bad)
		}
	}
}

// TestBA: every vertex has at least d edges, the graph is simple (the edge
// count is exact) and connected, and the degrees are heavy-tailed: the
// largest far above the mean 2d, which a uniform choice would not give.
func TestBA(t *testing.T) {
	for _, c := range []struct{ n, d int }{{20000, 1}, {20000, 3}, {5000, 10}} {
		args := []string{"n=" + strconv.Itoa(c.n), "d=" + strconv.Itoa(c.d), "seed=5"}
		g := generate(t, "ba", args...)
		lo, hi := g.DegreeRange()
		if lo != c.d || g.Edges() != c.d*(c.d+1)/2+(c.n-c.d-1)*c.d {
			t.Fatalf("%v: lowest degree %d, %d edges", args, lo, g.Edges())
		}
		if hi < 20*c.d {
			t.Errorf("%v: highest degree %d, want a heavy tail (at least %d)", args, hi, 20*c.d)
		}
		noLoops(t, g)
		if !connected(g) {
			t.Fatalf("%v: not connected", args)
		}
	}
}
