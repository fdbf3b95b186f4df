package bounds

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/testgraphs"
)

type edge struct{ u, v int }

func build(t testing.TB, directed bool, n int, edges []edge) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		if err := b.AddEdge(e.u, e.v); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// brute is the reference with Options.Reachable: a search from every
// vertex.
func brute(g *graph.Graph) (diam, rad int64, connected bool) {
	ecc, connected := bruteEcc(g, true)
	diam, rad = extremes(ecc)
	return diam, rad, connected
}

// bruteStrict is the reference without Options.Reachable: a vertex that
// does not reach every other has an infinite eccentricity, the diameter
// is infinite unless the graph is (strongly) connected, and the radius is
// the smallest eccentricity.
func bruteStrict(g *graph.Graph) (diam, rad int64, connected bool) {
	ecc, connected := bruteEcc(g, false)
	diam, rad = extremes(ecc)
	if !connected {
		diam = Infinite
	}
	return diam, rad, connected
}

// extremes returns the largest and smallest of ecc (0, 0 when empty).
func extremes(ecc []int64) (diam, rad int64) {
	if len(ecc) == 0 {
		return 0, 0
	}
	rad = ecc[0]
	for _, e := range ecc {
		diam, rad = max(diam, e), min(rad, e)
	}
	return diam, rad
}

// bruteEcc returns every vertex's eccentricity by a search from each:
// over the vertices it reaches with reachable, else Infinite for those
// that miss one.
func bruteEcc(g *graph.Graph, reachable bool) (ecc []int64, connected bool) {
	n := g.N()
	connected = true
	ecc = make([]int64, n)
	dist := make([]int32, n)
	queue := make([]int32, n)
	for s := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		queue[0] = int32(s)
		head, tail := 0, 1
		for head < tail {
			u := queue[head]
			head++
			for _, v := range g.Neighbors(int(u)) {
				if dist[v] < 0 {
					dist[v] = dist[u] + 1
					queue[tail] = v
					tail++
				}
			}
		}
		ecc[s] = int64(dist[queue[tail-1]])
		if tail < n {
			connected = false
			if !reachable {
				ecc[s] = Infinite
			}
		}
	}
	return ecc, connected
}

type gen struct {
	name     string
	directed bool
	n        int
	edges    []edge
}

func path(n int) []edge {
	var es []edge
	for i := 0; i+1 < n; i++ {
		es = append(es, edge{i, i + 1})
	}
	return es
}

func cycle(n int) []edge {
	es := path(n)
	if n > 1 {
		es = append(es, edge{n - 1, 0})
	}
	return es
}

func grid(r, c int) []edge {
	var es []edge
	for i := range r {
		for j := range c {
			if j+1 < c {
				es = append(es, edge{i*c + j, i*c + j + 1})
			}
			if i+1 < r {
				es = append(es, edge{i*c + j, (i+1)*c + j})
			}
		}
	}
	return es
}

func randomTree(rng *rand.Rand, n int) []edge {
	var es []edge
	for v := 1; v < n; v++ {
		es = append(es, edge{rng.IntN(v), v})
	}
	return es
}

// randomEdges is testgraphs' M model: m edges of uniform ends, self-loops
// and repeats included.
func randomEdges(rng *rand.Rand, n, m int) []edge {
	var es []edge
	for _, e := range testgraphs.RandomEdges(rng, testgraphs.Spec{N: n, M: m, Loops: true}) {
		es = append(es, edge{e.U, e.V})
	}
	return es
}

// permute permutes vertex ids so structure does not follow id order.
func permute(rng *rand.Rand, n int, es []edge) []edge {
	p := rng.Perm(n)
	out := make([]edge, len(es))
	for i, e := range es {
		out[i] = edge{p[e.u], p[e.v]}
	}
	return out
}

func fixedGraphs() []gen {
	var gs []gen
	add := func(name string, directed bool, n int, es []edge) {
		gs = append(gs, gen{name, directed, n, es})
	}
	for _, d := range []bool{false, true} {
		add("n1", d, 1, nil)
		add("n2-edge", d, 2, []edge{{0, 1}})
		add("n2-none", d, 2, nil)
		add("n3-none", d, 3, nil)
		for _, n := range []int{3, 4, 5, 10, 31} {
			add(fmt.Sprintf("path%d", n), d, n, path(n))
			add(fmt.Sprintf("cycle%d", n), d, n, cycle(n))
			var star, complete []edge
			for v := 1; v < n; v++ {
				star = append(star, edge{0, v}, edge{v, 0})
			}
			for u := range n {
				for v := range n {
					if u != v {
						complete = append(complete, edge{u, v})
					}
				}
			}
			add(fmt.Sprintf("star%d", n), d, n, star)
			add(fmt.Sprintf("complete%d", n), d, n, complete)
			add(fmt.Sprintf("path%d+isolated", n), d, n+2, path(n))
		}
		for _, rc := range [][2]int{{1, 7}, {2, 2}, {3, 5}, {6, 6}, {7, 10}} {
			add(fmt.Sprintf("grid%dx%d", rc[0], rc[1]), d, rc[0]*rc[1], grid(rc[0], rc[1]))
		}
	}
	// Two grids side by side: components of different diameters.
	es := grid(5, 5)
	for _, e := range grid(3, 9) {
		es = append(es, edge{e.u + 25, e.v + 25})
	}
	add("two-grids", false, 52, es)
	return gs
}

func randomGraphs(count int) []gen {
	rng := rand.New(rand.NewPCG(7, 11))
	var gs []gen
	for i := range count {
		n := 1 + rng.IntN(80)
		var g gen
		switch i % 10 {
		case 0: // sparse undirected, often disconnected
			g = gen{"sparse", false, n, randomEdges(rng, n, rng.IntN(2*n+1))}
		case 1: // connected: random tree plus chords
			g = gen{"tree+chords", false, n, append(randomTree(rng, n), randomEdges(rng, n, rng.IntN(n/4+1))...)}
		case 2:
			g = gen{"tree", false, n, permute(rng, n, randomTree(rng, n))}
		case 3: // a forest of paths and cycles
			var es []edge
			for base := 0; base < n; {
				k := min(n-base, 1+rng.IntN(20))
				part := path(k)
				if rng.IntN(2) == 0 {
					part = cycle(k)
				}
				for _, e := range part {
					es = append(es, edge{e.u + base, e.v + base})
				}
				base += k
			}
			g = gen{"paths+cycles", false, n, permute(rng, n, es)}
		case 4: // strongly connected: Hamiltonian cycle plus random arcs
			es := permute(rng, n, cycle(n))
			g = gen{"hamiltonian+arcs", true, n, append(es, randomEdges(rng, n, rng.IntN(2*n+1))...)}
		case 5: // directed, usually not strongly connected
			g = gen{"digraph", true, n, randomEdges(rng, n, rng.IntN(3*n+1))}
		case 6: // directed with long cycles: sparse and strongly connected
			es := permute(rng, n, cycle(n))
			g = gen{"hamiltonian", true, n, append(es, randomEdges(rng, n, rng.IntN(3))...)}
		case 7: // dense-ish undirected
			g = gen{"dense", false, n, randomEdges(rng, n, n*rng.IntN(6))}
		case 8: // a DAG
			var es []edge
			for v := 1; v < n; v++ {
				for range rng.IntN(3) {
					es = append(es, edge{rng.IntN(v), v})
				}
			}
			g = gen{"dag", true, n, permute(rng, n, es)}
		case 9: // cycles joined by one-way arcs, sometimes both ways
			var es []edge
			prev := -1
			for base := 0; base < n; {
				k := min(n-base, 1+rng.IntN(8))
				for _, e := range cycle(k) {
					es = append(es, edge{e.u + base, e.v + base})
				}
				if prev >= 0 {
					a, b := prev+rng.IntN(base-prev), base+rng.IntN(k)
					es = append(es, edge{a, b})
					if rng.IntN(4) == 0 {
						es = append(es, edge{b, a})
					}
				}
				prev, base = base, base+k
			}
			g = gen{"cycle-chain", true, n, permute(rng, n, es)}
		}
		g.name = fmt.Sprintf("%s-%d-n%d", g.name, i, n)
		gs = append(gs, g)
	}
	return gs
}

func check(t *testing.T, g *graph.Graph, name string) {
	t.Helper()
	reachD, reachR, conn := brute(g)
	strictD, strictR, _ := bruteStrict(g)
	for _, st := range []strategy{boundingDiameters, ifub} {
		for _, opt := range []Options{
			{Threads: 1, WantRadius: true},
			{Threads: 1, WantRadius: true, Reachable: true},
			{Threads: 2, WantRadius: true, Reachable: true},
			{Threads: 3, WantRadius: true},
			{Threads: 1},
			{Threads: 2, Reachable: true},
		} {
			res, err := diameter(context.Background(), g, opt, st)
			if err != nil {
				t.Fatalf("%s %+v %d: %v", name, opt, st, err)
			}
			if res.Connected != conn {
				t.Fatalf("%s %+v: connected %v, want %v", name, opt, res.Connected, conn)
			}
			wantD, wr := reachD, reachR
			if !opt.Reachable {
				wantD, wr = strictD, strictR
			}
			if !opt.WantRadius {
				wr = -1
			}
			if res.Diameter != wantD || res.Radius != wr {
				t.Fatalf("%s %+v %d: diameter %d radius %d, want %d %d", name, opt, st, res.Diameter, res.Radius, wantD, wr)
			}
			if res.Traversals < 1 {
				t.Fatalf("%s: %d traversals", name, res.Traversals)
			}
		}
	}
}

func TestAgainstBruteForce(t *testing.T) {
	gs := append(fixedGraphs(), randomGraphs(1000)...)
	for _, c := range gs {
		t.Run(c.name, func(t *testing.T) {
			check(t, build(t, c.directed, c.n, c.edges), c.name)
		})
	}
}

func TestEmpty(t *testing.T) {
	g := build(t, false, 0, nil)
	res, err := Diameter(context.Background(), g, Options{WantRadius: true})
	if err != nil || res != (Result{Connected: true}) {
		t.Fatalf("got %+v, %v", res, err)
	}
}

// TestGridTraversals checks that a 200×200 grid (40,000 vertices) takes a
// handful of searches, and exercises the parallel paths on a component
// large enough to use them.
func TestGridTraversals(t *testing.T) {
	const r, c = 200, 200
	g := build(t, false, r*c, grid(r, c))
	for _, st := range []strategy{boundingDiameters, ifub} {
		for _, threads := range []int{1, 2} {
			res, err := diameter(context.Background(), g, Options{Threads: threads, WantRadius: true}, st)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("200x200 grid, strategy %d, %d threads: diameter %d radius %d, %d traversals", st, threads, res.Diameter, res.Radius, res.Traversals)
			if res.Diameter != r-1+c-1 || res.Radius != (r)/2+(c)/2 {
				t.Fatalf("got %+v", res)
			}
			if res.Traversals > 50 {
				t.Fatalf("%d traversals", res.Traversals)
			}
		}
	}
}

// TestLargeDirected compares with brute force on strongly connected
// digraphs big enough for concurrent forward and backward searches.
func TestLargeDirected(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 4 {
		n := 2000
		es := permute(rng, n, cycle(n))
		es = append(es, randomEdges(rng, n, n/(1+i*3))...)
		g := build(t, true, n, es)
		wantD, wantR, _ := brute(g)
		res, err := Diameter(context.Background(), g, Options{Threads: 2, WantRadius: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d m=%d: diameter %d radius %d, %d traversals", n, g.Edges(), res.Diameter, res.Radius, res.Traversals)
		if res.Diameter != wantD || res.Radius != wantR {
			t.Fatalf("got %+v, want %d %d", res, wantD, wantR)
		}
	}
}

// TestLargeWeakDirected compares with brute force on digraphs that are not
// strongly connected, with Options.Reachable: random ones (a giant
// component with tendrils, or none), a one-way-street geometric graph, a
// DAG, and cycles chained one way.
func TestLargeWeakDirected(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	const n = 2000
	var dag, chain []edge
	for v := 1; v < n; v++ {
		for range 2 {
			dag = append(dag, edge{rng.IntN(v), v})
		}
	}
	for base := 0; base+10 <= n; base += 10 {
		for _, e := range cycle(10) {
			chain = append(chain, edge{base + e.u, base + e.v})
		}
		if base > 0 {
			chain = append(chain, edge{base - 10 + rng.IntN(10), base + rng.IntN(10)})
		}
	}
	var oneWay []edge
	geo := geometricGraph(t, n, 7, 5)
	for u := range n {
		for _, v := range geo.Neighbors(u) {
			if int(v) > u {
				switch rng.IntN(4) {
				case 0:
					oneWay = append(oneWay, edge{u, int(v)})
				case 1:
					oneWay = append(oneWay, edge{int(v), u})
				default:
					oneWay = append(oneWay, edge{u, int(v)}, edge{int(v), u})
				}
			}
		}
	}
	graphs := map[string][]edge{
		"random1.5": randomEdges(rng, n, 3*n/2),
		"random3":   randomEdges(rng, n, 3*n),
		"dag":       permute(rng, n, dag),
		"chain":     permute(rng, n, chain),
		"one-way":   oneWay,
	}
	for name, es := range graphs {
		g := build(t, true, n, es)
		wantD, wantR, conn := brute(g)
		for _, threads := range []int{1, 2} {
			res, err := Diameter(context.Background(), g, Options{Reachable: true, WantRadius: true, Threads: threads})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: n=%d m=%d: diameter %d radius %d, %d traversals", name, g.N(), g.Edges(), res.Diameter, res.Radius, res.Traversals)
			if res.Diameter != wantD || res.Radius != wantR || res.Connected != conn {
				t.Fatalf("%s: got %+v, want %d %d %v", name, res, wantD, wantR, conn)
			}
		}
	}
}

// TestLargeUndirected compares with brute force on components big enough
// for the bounds to interact: geometric (large diameter), preferential
// attachment (small world) and sparse random graphs.
func TestLargeUndirected(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	const n = 3000
	var pa []edge
	var ends []int
	for v := 1; v < n; v++ {
		for k := range 1 + v%2 {
			u := 0
			if len(ends) > 0 && k < v {
				u = ends[rng.IntN(len(ends))]
			}
			pa = append(pa, edge{u, v})
			ends = append(ends, u, v)
		}
	}
	graphs := map[string]*graph.Graph{
		"geometric": geometricGraph(t, n, 6, 2),
		"pa":        build(t, false, n, pa),
		"sparse":    build(t, false, n, randomEdges(rng, n, 2*n)),
		"grid":      build(t, false, 37*41, permute(rng, 37*41, grid(37, 41))),
	}
	for name, g := range graphs {
		wantD, wantR, conn := brute(g)
		for _, st := range []strategy{boundingDiameters, ifub} {
			res, err := diameter(context.Background(), g, Options{Reachable: true, WantRadius: true}, st)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s strategy %d: n=%d m=%d: diameter %d radius %d, %d traversals", name, st, g.N(), g.Edges(), res.Diameter, res.Radius, res.Traversals)
			if res.Diameter != wantD || res.Radius != wantR || res.Connected != conn {
				t.Fatalf("%s strategy %d: got %+v, want %d %d %v", name, st, res, wantD, wantR, conn)
			}
		}
	}
}

// TestWeightsIgnored checks that arc weights do not change the answer.
func TestWeightsIgnored(t *testing.T) {
	for _, directed := range []bool{false, true} {
		b := graph.NewBuilder(directed)
		for i, e := range cycle(9) {
			if err := b.AddIntEdge(e.u, e.v, int64(100*i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.AddFloatEdge(0, 4, 0.5); err != nil {
			t.Fatal(err)
		}
		g := b.Build()
		wantD, wantR, _ := brute(g)
		res, err := Diameter(context.Background(), g, Options{WantRadius: true})
		if err != nil || res.Diameter != wantD || res.Radius != wantR {
			t.Fatalf("directed %v: got %+v, %v; want %d %d", directed, res, err, wantD, wantR)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := build(t, false, 3, path(3))
	if _, err := Diameter(ctx, g, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// TestSingleArcRadius is the smallest digraph that is not strongly
// connected but has a vertex reaching every other: 0→1 has ecc(0) = 1,
// ecc(1) infinite, so radius 1 and an infinite diameter.
func TestSingleArcRadius(t *testing.T) {
	g := build(t, true, 2, []edge{{0, 1}})
	for _, threads := range []int{1, 2} {
		res, err := Diameter(context.Background(), g, Options{WantRadius: true, Threads: threads})
		want := Result{Diameter: Infinite, Radius: 1, Connected: false, Traversals: res.Traversals}
		if err != nil || res != want {
			t.Fatalf("got %+v, %v; want %+v", res, err, want)
		}
		res, err = Diameter(context.Background(), g, Options{WantRadius: true, Reachable: true, Threads: threads})
		want = Result{Diameter: 1, Radius: 0, Connected: false, Traversals: res.Traversals}
		if err != nil || res != want {
			t.Fatalf("reachable: got %+v, %v; want %+v", res, err, want)
		}
	}
	// Reversed, vertex 1 is the centre; with an isolated third vertex no
	// vertex reaches every other.
	for _, c := range []struct {
		n       int
		es      []edge
		radius  int64
		explain string
	}{
		{2, []edge{{1, 0}}, 1, "1→0"},
		{3, []edge{{0, 1}}, Infinite, "0→1 and isolated 2"},
		{3, []edge{{0, 1}, {2, 1}}, Infinite, "two sources"},
		{4, []edge{{0, 1}, {1, 0}, {1, 2}, {2, 3}}, 2, "0↔1→2→3"},
	} {
		res, err := Diameter(context.Background(), build(t, true, c.n, c.es), Options{WantRadius: true})
		if err != nil || res.Radius != c.radius || res.Diameter != Infinite || res.Connected {
			t.Fatalf("%s: got %+v, %v; want radius %d", c.explain, res, err, c.radius)
		}
	}
}

// TestRadiusNotStronglyConnected compares with eccentricities by brute
// force on small random digraphs built as a condensation with one source
// component (so the radius is finite though the graph is not strongly
// connected), sometimes with a second source or stray arcs, with and
// without Options.Reachable.
func TestRadiusNotStronglyConnected(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	finite := 0
	for trial := range 600 {
		n := 2 + rng.IntN(40)
		// Vertices in blocks (future components), each block a cycle
		// with chords, block b > 0 entered from a random earlier block.
		var es []edge
		for base, prev := 0, -1; base < n; {
			k := min(n-base, 1+rng.IntN(6))
			if k > 1 {
				for _, e := range cycle(k) {
					es = append(es, edge{base + e.u, base + e.v})
				}
				for _, e := range randomEdges(rng, k, rng.IntN(k)) {
					es = append(es, edge{base + e.u, base + e.v})
				}
			}
			if prev >= 0 {
				for range 1 + rng.IntN(2) {
					es = append(es, edge{rng.IntN(base), base + rng.IntN(k)})
				}
			}
			prev, base = base, base+k
		}
		switch trial % 4 {
		case 1: // forward arcs between blocks keep one source
			for range rng.IntN(n) {
				u, v := rng.IntN(n), rng.IntN(n)
				es = append(es, edge{min(u, v), max(u, v)})
			}
		case 2: // any arcs: may merge blocks, even make it strongly connected
			es = append(es, randomEdges(rng, n, rng.IntN(3))...)
		case 3: // an extra source vertex: radius infinite
			n++
			es = append(es, edge{n - 1, rng.IntN(n - 1)})
		}
		g := build(t, true, n, permute(rng, n, es))
		strictD, strictR, conn := bruteStrict(g)
		reachD, reachR, _ := brute(g)
		if !conn && strictR != Infinite {
			finite++
		}
		for _, opt := range []Options{
			{WantRadius: true, Threads: 1},
			{WantRadius: true, Threads: 2},
			{WantRadius: true, Threads: 1, Reachable: true},
		} {
			res, err := Diameter(context.Background(), g, opt)
			if err != nil {
				t.Fatal(err)
			}
			wantD, wantR := strictD, strictR
			if opt.Reachable {
				wantD, wantR = reachD, reachR
			}
			if res.Diameter != wantD || res.Radius != wantR || res.Connected != conn {
				t.Fatalf("trial %d n=%d %+v: got %+v, want diameter %d radius %d connected %v\n%v",
					trial, n, opt, res, wantD, wantR, conn, es)
			}
		}
	}
	if finite < 200 {
		t.Fatalf("only %d graphs not strongly connected with a finite radius", finite)
	}
	t.Logf("%d of 600 not strongly connected with a finite radius", finite)
}

// TestBudget checks that Options.Budget stops the search with ErrBudget
// on graphs that need many searches (random sparse graphs, undirected and
// strongly connected directed), after about Budget searches of the whole
// graph, and that a generous or zero budget changes nothing.
func TestBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1000
	undirected := randomEdges(rng, n, 2*n)
	strong := append(permute(rng, n, cycle(n)), randomEdges(rng, n, 3*n)...)
	for _, c := range []struct {
		name string
		g    *graph.Graph
	}{
		{"undirected", build(t, false, n, append(randomTree(rng, n), undirected...))},
		{"directed", build(t, true, n, strong)},
	} {
		full, err := Diameter(context.Background(), c.g, Options{WantRadius: true})
		if err != nil {
			t.Fatal(err)
		}
		if full.Traversals < 20 {
			t.Fatalf("%s: only %d searches; the test needs a harder graph", c.name, full.Traversals)
		}
		res, err := Diameter(context.Background(), c.g, Options{WantRadius: true, Budget: 5})
		if !errors.Is(err, ErrBudget) || res.Traversals < 3 || res.Traversals > 6 {
			t.Fatalf("%s: budget 5: got %+v, %v; want ErrBudget after 3 to 6 searches", c.name, res, err)
		}
		for _, b := range []float64{0, 3 * float64(full.Traversals)} {
			res, err := Diameter(context.Background(), c.g, Options{WantRadius: true, Budget: b})
			if err != nil || res != full {
				t.Fatalf("%s: budget %g: got %+v, %v; want %+v", c.name, b, res, err, full)
			}
		}
		t.Logf("%s: %d searches unlimited, %d with budget 5", c.name, full.Traversals, res.Traversals)
	}
}
