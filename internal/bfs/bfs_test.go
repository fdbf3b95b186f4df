package bfs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// testGraph is a graph together with its own adjacency lists, so that the
// reference below does not go through the CSR code under test.
type testGraph struct {
	name string
	g    *graph.Graph
	n    int
	adj  [][]int
}

func build(t testing.TB, name string, n int, directed bool, edges [][2]int) testGraph {
	t.Helper()
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		t.Fatal(err)
	}
	adj := make([][]int, n)
	for _, e := range edges {
		if err := b.AddEdge(e[0], e[1]); err != nil {
			t.Fatal(err)
		}
		adj[e[0]] = append(adj[e[0]], e[1])
		if !directed {
			adj[e[1]] = append(adj[e[1]], e[0])
		}
	}
	return testGraph{name: name, g: b.Build(), n: n, adj: adj}
}

// refDist is a plain BFS from s over the test's own lists.
func (tg testGraph) refDist(s int) []int32 {
	d := make([]int32, tg.n)
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range tg.adj[u] {
			if d[v] < 0 {
				d[v] = d[u] + 1
				q = append(q, v)
			}
		}
	}
	return d
}

// reference computes the Summary and the matrix the slow, obvious way.
func (tg testGraph) reference() (*Summary, []int32) {
	n := tg.n
	s := &Summary{Rows: make([]reduce.Row, n), Hist: []int64{0}}
	m := make([]int32, 0, n*n)
	for u := range n {
		d := tg.refDist(u)
		m = append(m, d...)
		r := &s.Rows[u]
		for v, x := range d {
			switch {
			case v == u:
			case x < 0:
				r.Unreach = true
			default:
				r.AddInt(int64(x))
				for len(s.Hist) <= int(x) {
					s.Hist = append(s.Hist, 0)
				}
				s.Hist[x]++
			}
		}
	}
	return s, m
}

// randomGraph is testgraphs' G(n, p), unweighted, with its own lists.
func randomGraph(t testing.TB, rng *rand.Rand, n int, directed bool, p float64) testGraph {
	var edges [][2]int
	for _, e := range testgraphs.RandomEdges(rng, testgraphs.Spec{N: n, P: p, Directed: directed}) {
		edges = append(edges, [2]int{e.U, e.V})
	}
	// A few self-loops and repeated edges, which the builder drops.
	if n > 0 && rng.IntN(4) == 0 {
		u := rng.IntN(n)
		edges = append(edges, [2]int{u, u})
		if len(edges) > 1 {
			edges = append(edges, edges[0])
		}
	}
	kind := "undirected"
	if directed {
		kind = "directed"
	}
	return build(t, fmt.Sprintf("random %s n=%d p=%.3f", kind, n, p), n, directed, edges)
}

// randomGraphs are the cross-checked cases: every size up to 70 (around the
// 64-bit word), then larger ones around multiples of 64 and W·64, with
// densities from empty (isolated vertices) through sparse (disconnected)
// to dense.
func randomGraphs(t testing.TB) []testGraph {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []testGraph
	sizes := []int{}
	for n := 1; n <= 70; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 100, 127, 128, 129, 191, 255, 256, 257, 300)
	for _, n := range sizes {
		for _, directed := range []bool{false, true} {
			ps := []float64{0, 1.0 / float64(n), 2.5 / float64(n), 0.1, 0.5}
			if n > 70 {
				ps = []float64{0, 1.0 / float64(n), 3.0 / float64(n), 0.05, 0.6}
			}
			for _, p := range ps {
				out = append(out, randomGraph(t, rng, n, directed, p))
			}
		}
	}
	// Paths and directed cycles with distances past 255, which the matrix
	// writes without its byte buffer.
	for _, n := range []int{300, 600} {
		var path, cyc [][2]int
		for i := range n - 1 {
			path = append(path, [2]int{i, i + 1})
			cyc = append(cyc, [2]int{i, i + 1})
		}
		cyc = append(cyc, [2]int{n - 1, 0})
		out = append(out, build(t, fmt.Sprintf("path %d", n), n, false, path),
			build(t, fmt.Sprintf("directed path %d", n), n, true, path),
			build(t, fmt.Sprintf("directed cycle %d", n), n, true, cyc))
	}
	return out
}

// knownGraphs have eccentricities and histograms known in closed form.
func knownGraphs(t testing.TB) []struct {
	tg   testGraph
	ecc  []int64
	hist []int64
} {
	type known = struct {
		tg   testGraph
		ecc  []int64
		hist []int64
	}
	var out []known
	for _, n := range []int{3, 4, 7, 64, 65, 200} {
		var cyc, dcyc, path, star, complete [][2]int
		for i := range n {
			cyc = append(cyc, [2]int{i, (i + 1) % n})
			if i+1 < n {
				path = append(path, [2]int{i, i + 1})
			}
			if i > 0 {
				star = append(star, [2]int{0, i})
			}
			for j := i + 1; j < n; j++ {
				complete = append(complete, [2]int{i, j})
			}
		}
		dcyc = cyc
		// Cycle C_n: every eccentricity floor(n/2); each vertex has two
		// vertices at each distance below n/2 and one at n/2 when n is even.
		ecc := make([]int64, n)
		hist := make([]int64, n/2+1)
		for u := range n {
			ecc[u] = int64(n / 2)
		}
		for d := 1; d <= n/2; d++ {
			hist[d] = 2 * int64(n)
			if 2*d == n {
				hist[d] = int64(n)
			}
		}
		out = append(out, known{build(t, fmt.Sprintf("cycle %d", n), n, false, cyc), ecc, hist})
		// Directed cycle: eccentricity n-1, one vertex at each distance.
		ecc = make([]int64, n)
		hist = make([]int64, n)
		for u := range n {
			ecc[u] = int64(n - 1)
			if u > 0 {
				hist[u] = int64(n)
			}
		}
		out = append(out, known{build(t, fmt.Sprintf("directed cycle %d", n), n, true, dcyc), ecc, hist})
		// Path: eccentricity max(u, n-1-u); 2(n-d) ordered pairs at d.
		ecc = make([]int64, n)
		hist = make([]int64, n)
		for u := range n {
			ecc[u] = int64(max(u, n-1-u))
			if u > 0 {
				hist[u] = 2 * int64(n-u)
			}
		}
		out = append(out, known{build(t, fmt.Sprintf("path %d", n), n, false, path), ecc, hist})
		// Star: the centre 1, the leaves 2.
		ecc = make([]int64, n)
		for u := range n {
			ecc[u] = 2
		}
		ecc[0] = 1
		hist = []int64{0, 2 * int64(n-1), int64(n-1) * int64(n-2)}
		out = append(out, known{build(t, fmt.Sprintf("star %d", n), n, false, star), ecc, hist})
		// Complete graph: every eccentricity 1.
		ecc = make([]int64, n)
		for u := range n {
			ecc[u] = 1
		}
		out = append(out, known{build(t, fmt.Sprintf("complete %d", n), n, false, complete), ecc, []int64{0, int64(n) * int64(n-1)}})
	}
	return out
}

// engines are the summary engines under test, including the batched search
// at word counts other than the default (the generic pull and short
// batches).
func engines() []struct {
	name string
	run  func(context.Context, *graph.Graph, int, func(float64)) (*Summary, error)
} {
	type engine = struct {
		name string
		run  func(context.Context, *graph.Graph, int, func(float64)) (*Summary, error)
	}
	out := []engine{{"Rows", Rows}, {"BitRows", BitRows}}
	for _, cfg := range configs() {
		out = append(out, engine{cfg.String(), func(ctx context.Context, g *graph.Graph, threads int, p func(float64)) (*Summary, error) {
			cfg.outer = threads
			return runBatches(ctx, g, cfg, p, nil)
		}})
	}
	return out
}

// configs are the batched layouts under test: every kernel (assembly and
// Go, w = 1, 4 and 8, the generic Go pull for other w) and split levels.
func configs() []config {
	var out []config
	for _, w := range []int{1, 2, 3, 4, 8} {
		for _, noAsm := range []bool{false, true} {
			if noAsm && (w == 3 || w == 2) {
				continue // the same generic Go pull either way
			}
			out = append(out, config{words: w, inner: 1, noAsm: noAsm})
		}
	}
	out = append(out, config{words: 4, inner: 2}, config{words: 8, inner: 3}, config{words: 2, inner: 2, noAsm: true}, config{words: 1, inner: 2})
	// The lockstep layout: parts a worker, parts handed out in turn, and
	// groups of one worker.
	out = append(out, config{words: 8, inner: 3, lockstep: true}, config{words: 1, inner: 2, lockstep: true, chunks: 4},
		config{words: 4, inner: 1, lockstep: true}, config{words: 2, inner: 2, noAsm: true, lockstep: true, chunks: 3},
		config{words: 2, inner: 2, lockstep: true})
	// Level 1 from the arcs (the assembly is for w = 8; others pull), in
	// both layouts and matrix mode.
	out = append(out, config{words: 8, inner: 1, firstFromArcs: true}, config{words: 8, inner: 3, lockstep: true, chunks: 2, firstFromArcs: true},
		config{words: 4, inner: 2, lockstep: true, firstFromArcs: true})
	return out
}

func (c config) String() string {
	s := fmt.Sprintf("bits/w=%d/inner=%d", c.words, c.inner)
	if c.noAsm {
		s += "/go"
	}
	if c.lockstep {
		s += fmt.Sprintf("/lockstep/chunks=%d", c.chunks)
	}
	if c.firstFromArcs {
		s += "/first-from-arcs"
	}
	return s
}

func checkSummary(t *testing.T, name string, got, want *Summary) {
	t.Helper()
	if len(got.Rows) != len(want.Rows) {
		t.Fatalf("%s: %d rows, want %d", name, len(got.Rows), len(want.Rows))
	}
	for u := range want.Rows {
		if !reduce.Same(got.Rows[u], want.Rows[u]) {
			t.Fatalf("%s: row %d = %+v, want %+v", name, u, got.Rows[u], want.Rows[u])
		}
	}
	if !slices.Equal(got.Hist, want.Hist) {
		t.Fatalf("%s: Hist = %v, want %v", name, got.Hist, want.Hist)
	}
}

func TestRandomGraphs(t *testing.T) {
	ctx := context.Background()
	for i, tg := range randomGraphs(t) {
		want, wantM := tg.reference()
		threads := 1 + i%3
		for _, e := range engines() {
			got, err := e.run(ctx, tg.g, threads, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", tg.name, e.name, err)
			}
			checkSummary(t, tg.name+" "+e.name, got, want)
		}
		checkBriefs(t, tg.name, tg.g, threads, reduce.BriefOf(want.Rows), want.Hist)
		m, err := Matrix(ctx, tg.g, threads, nil)
		if err != nil {
			t.Fatalf("%s Matrix: %v", tg.name, err)
		}
		if !slices.Equal(m, wantM) {
			t.Fatalf("%s: Matrix differs from the reference", tg.name)
		}
		for _, cfg := range configs() {
			cfg.outer = threads
			m := make([]int32, tg.n*tg.n)
			if _, err := runBatches(ctx, tg.g, cfg, nil, m); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m, wantM) {
				t.Fatalf("%s: matrix with %s differs from the reference", tg.name, cfg)
			}
		}
	}
}

// checkBriefs compares BitBrief and BitHist, and the Brief and histogram
// of every layout under test, with want and wantHist.
func checkBriefs(t *testing.T, name string, g *graph.Graph, threads int, want *reduce.Brief, wantHist []int64) {
	t.Helper()
	ctx := context.Background()
	got, err := BitBrief(ctx, g, threads, nil)
	if err != nil {
		t.Fatalf("%s BitBrief: %v", name, err)
	}
	checkBrief(t, name+" BitBrief", got, want)
	hist, err := BitHist(ctx, g, threads, nil)
	if err != nil || !slices.Equal(hist, wantHist) {
		t.Fatalf("%s BitHist: %v, %v; want %v", name, hist, err, wantHist)
	}
	for _, cfg := range configs() {
		cfg.outer = threads
		b, err := searchBrief(ctx, g, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkBrief(t, name+" brief "+cfg.String(), b, want)
		hist, err := searchHist(ctx, g, cfg, nil)
		if err != nil || !slices.Equal(hist, wantHist) {
			t.Fatalf("%s hist %s: %v, %v; want %v", name, cfg, hist, err, wantHist)
		}
	}
}

func checkBrief(t *testing.T, name string, got, want *reduce.Brief) {
	t.Helper()
	if !slices.Equal(got.Ecc, want.Ecc) || !slices.Equal(got.Reach, want.Reach) || got.Pairs != want.Pairs || got.Sum != want.Sum {
		t.Fatalf("%s: brief %+v, want %+v", name, got, want)
	}
	if len(got.Ecc) > 0 && (!got.EccKnown || got.EccMin != slices.Min(got.Ecc) || got.EccMax != slices.Max(got.Ecc)) {
		t.Fatalf("%s: eccentricities known %v in [%d, %d], want [%d, %d]", name, got.EccKnown, got.EccMin, got.EccMax, slices.Min(got.Ecc), slices.Max(got.Ecc))
	}
}

func TestKnownGraphs(t *testing.T) {
	ctx := context.Background()
	for _, k := range knownGraphs(t) {
		want, _ := k.tg.reference()
		for _, e := range engines() {
			got, err := e.run(ctx, k.tg.g, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSummary(t, k.tg.name+" "+e.name, got, want)
			for u, r := range got.Rows {
				if r.MaxI != k.ecc[u] || r.Unreach || r.Reach != int64(k.tg.n-1) {
					t.Fatalf("%s %s: row %d = %+v, want eccentricity %d reaching all", k.tg.name, e.name, u, r, k.ecc[u])
				}
			}
			if !slices.Equal(got.Hist, k.hist) {
				t.Fatalf("%s %s: Hist = %v, want %v", k.tg.name, e.name, got.Hist, k.hist)
			}
		}
	}
}

func TestFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, directed := range []bool{false, true} {
		tg := randomGraph(t, rng, 150, directed, 1.5/150)
		dist := make([]int32, tg.n)
		for s := range tg.n {
			for i := range dist {
				dist[i] = 7 // From must not rely on the caller's values
			}
			ecc, reached := From(tg.g, s, dist, nil)
			want := tg.refDist(s)
			if !slices.Equal(dist, want) {
				t.Fatalf("%s: From(%d) dist differs", tg.name, s)
			}
			wantReached, wantEcc := 0, int32(0)
			for _, d := range want {
				if d >= 0 {
					wantReached++
					wantEcc = max(wantEcc, d)
				}
			}
			if ecc != wantEcc || reached != wantReached {
				t.Fatalf("%s: From(%d) = %d, %d; want %d, %d", tg.name, s, ecc, reached, wantEcc, wantReached)
			}
		}
	}
}

func TestEmptyGraph(t *testing.T) {
	g := graph.NewBuilder(false).Build()
	for _, e := range engines() {
		s, err := e.run(context.Background(), g, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Rows) != 0 || !slices.Equal(s.Hist, []int64{0}) {
			t.Fatalf("%s on the empty graph: %+v", e.name, s)
		}
	}
	if m, err := Matrix(context.Background(), g, 0, nil); err != nil || len(m) != 0 {
		t.Fatalf("Matrix on the empty graph: %v, %v", m, err)
	}
}

func TestCancel(t *testing.T) {
	tg := randomGraph(t, rand.New(rand.NewPCG(5, 6)), 300, false, 0.02)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, e := range engines() {
		if s, err := e.run(ctx, tg.g, 2, nil); !errors.Is(err, context.Canceled) || s != nil {
			t.Fatalf("%s with a cancelled context: %v, %v", e.name, s, err)
		}
	}
	if m, err := Matrix(ctx, tg.g, 2, nil); !errors.Is(err, context.Canceled) || m != nil {
		t.Fatalf("Matrix with a cancelled context: %v", err)
	}
}

// TestCancelMidway cancels from the progress callback, so the engines are
// stopped between batches rather than before the first.
func TestCancelMidway(t *testing.T) {
	tg := randomGraph(t, rand.New(rand.NewPCG(7, 8)), 1000, true, 0.005)
	for _, e := range engines() {
		ctx, cancel := context.WithCancel(context.Background())
		s, err := e.run(ctx, tg.g, 2, func(float64) { cancel() })
		cancel()
		if !errors.Is(err, context.Canceled) || s != nil {
			t.Fatalf("%s cancelled midway: %v, %v", e.name, s, err)
		}
	}
}

func TestProgress(t *testing.T) {
	tg := randomGraph(t, rand.New(rand.NewPCG(9, 10)), 700, false, 0.01)
	for _, e := range engines() {
		var last float64
		calls := 0
		// One thread, so the calls arrive in order.
		if _, err := e.run(context.Background(), tg.g, 1, func(f float64) {
			if f < last || f > 1 {
				t.Errorf("%s: progress %v after %v", e.name, f, last)
			}
			last = f
			calls++
		}); err != nil {
			t.Fatal(err)
		}
		if calls == 0 || last != 1 {
			t.Fatalf("%s: %d progress calls, last %v", e.name, calls, last)
		}
	}
}

func TestMatrixTooLarge(t *testing.T) {
	// 2^31-1 vertices need about 2^64 bytes, which overflows int everywhere.
	if _, err := matrixSize(graph.MaxVertices); !errors.Is(err, graph.ErrTooLarge) {
		t.Fatalf("matrixSize(MaxVertices) = %v, want ErrTooLarge", err)
	}
	if size, err := matrixSize(1000); err != nil || size != 1000*1000 {
		t.Fatalf("matrixSize(1000) = %d, %v", size, err)
	}
}

// TestTorus checks the batched engines on a 3-dimensional torus (a product
// of cycles) with over 16384 vertices, so that the assembly pull runs in
// several slices and levels split in parts, against its distance
// distribution: the distance between two vertices is the sum of the cycle
// distances of their coordinates, so the vertices at distance d from any
// vertex are the convolution of the cycles' counts. The directed torus
// (arcs to the next vertex of each cycle) has one vertex at each distance
// on each cycle.
func TestTorus(t *testing.T) {
	if testing.Short() {
		t.Skip("large graphs")
	}
	dims := []int{25, 26, 27}
	n := 1
	for _, m := range dims {
		n *= m
	}
	for _, directed := range []bool{false, true} {
		var edges [][2]int
		for v := range n {
			stride := 1
			for _, m := range dims {
				x := v / stride % m
				edges = append(edges, [2]int{v, v + ((x+1)%m-x)*stride})
				stride *= m
			}
		}
		tg := build(t, fmt.Sprintf("torus %v directed=%v", dims, directed), n, directed, edges)
		perVertex := []int64{1} // vertices at each distance from any vertex
		for _, m := range dims {
			c := make([]int64, m)
			for x := range m {
				d := x
				if !directed {
					d = min(x, m-x)
				}
				c[d]++
			}
			conv := make([]int64, len(perVertex)+m-1)
			for d1, x := range perVertex {
				for d2, y := range c {
					conv[d1+d2] += x * y
				}
			}
			perVertex = conv
		}
		for len(perVertex) > 1 && perVertex[len(perVertex)-1] == 0 {
			perVertex = perVertex[:len(perVertex)-1]
		}
		wantHist := make([]int64, len(perVertex))
		var sum int64
		var harm float64
		for d := 1; d < len(perVertex); d++ {
			wantHist[d] = int64(n) * perVertex[d]
			sum += int64(d) * perVertex[d]
			harm += float64(perVertex[d]) / float64(d)
		}
		want := reduce.Row{Reach: int64(n - 1), MaxI: int64(len(perVertex) - 1), Harm: harm}
		want.Sum.Add(sum)
		for _, cfg := range []config{{words: words(), outer: 2, inner: 1}, {words: 4, outer: 1, inner: 2}, {words: words(), outer: 2, inner: 2, lockstep: true, chunks: 2}} {
			got, err := runBatches(context.Background(), tg.g, cfg, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			for v, r := range got.Rows {
				if !reduce.Same(r, want) {
					t.Fatalf("%s %s: row %d = %+v, want %+v", tg.name, cfg, v, r, want)
				}
			}
			if !slices.Equal(got.Hist, wantHist) {
				t.Fatalf("%s %s: Hist = %v, want %v", tg.name, cfg, got.Hist, wantHist)
			}
		}
	}
}

func TestDefaultConfig(t *testing.T) {
	for _, n := range []int{0, 1, 100, 2048, 5000, 16384, 65536, 1 << 20} {
		for _, threads := range []int{1, 2, 3, 8, 64} {
			c := defaultConfig(threads, n)
			if c.outer < 1 || c.inner < 1 || c.outer*c.inner > threads {
				t.Errorf("defaultConfig(%d, %d) = %+v: want 1 ≤ outer·inner ≤ threads", threads, n, c)
			}
		}
	}
}

// TestPaddedArcsUsesGraphSlack: graphs from package graph leave the heads
// capacity the kernels read ahead into, so a search takes their arrays
// without copying — with duplicate arcs removed (the heads shrunk or not)
// and without — and a graph with no arc still works.
func TestPaddedArcsUsesGraphSlack(t *testing.T) {
	for _, c := range []struct {
		name string
		dup  int // each edge added this many times
		n, m int
	}{{"plain", 1, 500, 4000}, {"duplicates, shrunk", 8, 500, 4000}, {"duplicates", 2, 50, 40}, {"no arcs", 1, 10, 0}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.dup)))
		b := graph.NewBuilder(false)
		if err := b.SetVertices(c.n); err != nil {
			t.Fatal(err)
		}
		for range c.m {
			u, v := rng.IntN(c.n), rng.IntN(c.n)
			for range c.dup {
				if u != v {
					if err := b.AddEdge(u, v); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		g := b.Build()
		own := csr.Of(g)
		if cap(own.Heads)-len(own.Heads) < prefetchPad {
			t.Fatalf("%s: heads have %d of slack, want at least %d", c.name, cap(own.Heads)-len(own.Heads), prefetchPad)
		}
		arcs, giveBack := scratches.paddedArcs(g)
		if len(own.Heads) > 0 && &arcs.Heads[0] != &own.Heads[0] {
			t.Fatalf("%s: the heads were copied", c.name)
		}
		giveBack()
		s, err := BitRows(context.Background(), g, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := Rows(context.Background(), g, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkSummary(t, c.name, s, ref)
	}
}

// TestLocalOrderSameRows: the rows of a search renumbered in breadth-first
// order (localOrder, forced on small graphs) equal the rows without it,
// for every vertex and for chosen sources, on random graphs directed or
// not, connected or not; the renumbered arcs are the same graph.
func TestLocalOrderSameRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 31))
	ctx := context.Background()
	for trial := range 60 {
		n := 1 + rng.IntN(90)
		g := randomGraph(t, rng, n, trial%2 == 0, rng.Float64()*0.1).g
		a := csr.Of(g)
		b, newID, ok := localOrder(&a, 2)
		if !ok {
			t.Fatal("no memory for a tiny copy")
		}
		for u := range n {
			var mapped []int32
			for _, v := range a.Nbrs(int32(u)) {
				mapped = append(mapped, newID[v])
			}
			slices.Sort(mapped)
			if !slices.Equal(mapped, b.Nbrs(newID[u])) {
				t.Fatalf("trial %d: vertex %d's arcs %v renumbered %v, want %v", trial, u, a.Nbrs(int32(u)), b.Nbrs(newID[u]), mapped)
			}
		}
		var sources []int32
		for range 1 + rng.IntN(40) {
			sources = append(sources, int32(rng.IntN(n)))
		}
		for _, src := range [][]int32{nil, sources} {
			want, err := rowsFrom(ctx, g, src, 2, nil, math.MaxInt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := rowsFrom(ctx, g, src, 2, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(src) > 0 && len(src) < localSearches {
				continue // too few searches to renumber: nothing to compare
			}
			if !slices.Equal(got.Rows, want.Rows) || !slices.Equal(got.Hist, want.Hist) {
				t.Fatalf("trial %d (n=%d, %d sources): renumbered rows differ", trial, n, len(src))
			}
		}
	}
}
