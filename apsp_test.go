package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/internal/result"
	"github.com/apsp/apsp/internal/run"

	"github.com/apsp/apsp/graph"
)

type weightMode int

const (
	unweighted weightMode = iota
	intWeights
	intNegative // directed only: reweighted by a potential, so no negative cycle
	floatWeights
	floatNegative
	bigIntWeights // forces int64 lanes
	floatTiny     // float lengths below 1e-11
	floatHuge     // multiples of 5e8, some 0.25 longer: near ties far above 1
)

func (m weightMode) String() string {
	return [...]string{"unweighted", "int", "int-negative", "float", "float-negative", "bigint", "float-tiny", "float-huge"}[m]
}

// randomGraph returns a random graph with about p·n² arcs. Negative modes
// add h(u) − h(v) to nonnegative weights, which makes some arcs negative
// but keeps every cycle's length unchanged (so nonnegative).
func randomGraph(rng *rand.Rand, n int, p float64, directed bool, mode weightMode) *graph.Graph {
	b := graph.NewBuilder(directed)
	must(b.SetVertices(n))
	h := make([]int64, n)
	for i := range h {
		h[i] = rng.Int64N(20)
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			if u == v || (!directed && v < u) || rng.Float64() >= p {
				continue
			}
			switch mode {
			case unweighted:
				must(b.AddEdge(u, v))
			case intWeights:
				must(b.AddIntEdge(u, v, rng.Int64N(10)))
			case intNegative:
				must(b.AddIntEdge(u, v, rng.Int64N(10)+h[u]-h[v]))
			case floatWeights:
				must(b.AddFloatEdge(u, v, rng.Float64()*10))
			case floatNegative:
				must(b.AddFloatEdge(u, v, float64(rng.Int64N(40))/4+float64(h[u]-h[v])))
			case bigIntWeights:
				must(b.AddIntEdge(u, v, 1<<40+rng.Int64N(1<<20)))
			case floatTiny:
				must(b.AddFloatEdge(u, v, rng.Float64()*1e-11))
			case floatHuge:
				must(b.AddFloatEdge(u, v, float64(1+rng.Int64N(4))*5e8+float64(rng.Int64N(2))*0.25))
			}
		}
	}
	return b.Build()
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// checkPath verifies that vs is a walk along arcs of g from u to v whose
// length is want.
func checkPath(t *testing.T, g *graph.Graph, vs []int, u, v int, want Length) {
	t.Helper()
	if len(vs) == 0 || vs[0] != u || vs[len(vs)-1] != v {
		t.Fatalf("path %v does not run from %d to %d", vs, u, v)
	}
	var li int64
	var lf, abs float64
	for i := 0; i+1 < len(vs); i++ {
		k := g.ArcIndex(vs[i], vs[i+1])
		if k < 0 {
			t.Fatalf("path %v uses a missing arc %d→%d", vs, vs[i], vs[i+1])
		}
		if g.Kind() == graph.FloatWeights {
			lf += g.ArcFloat(vs[i], k)
			abs += math.Abs(g.ArcFloat(vs[i], k))
		} else {
			li += g.ArcInt(vs[i], k)
		}
	}
	if g.Kind() == graph.FloatWeights {
		// Only the rounding of two sums of at most n lengths: a path
		// that is longer by more is not a shortest one.
		if math.Abs(lf-want.Float()) > 2*float64(g.N()+1)*0x1p-52*math.Max(abs, math.Abs(want.Float())) {
			t.Fatalf("path %v has length %v, distance is %v", vs, lf, want)
		}
	} else if li != want.Int() {
		t.Fatalf("path %v has length %d, distance is %v", vs, li, want)
	}
}

func sameLength(a, b Length) bool {
	if a.IsInf() || b.IsInf() {
		return a.IsInf() == b.IsInf()
	}
	if a.IsFloat() {
		return math.Abs(a.Float()-b.Float()) <= 1e-9*math.Max(math.Abs(a.Float()), math.Abs(b.Float()))
	}
	return a.Int() == b.Int()
}

// TestEnginesAgreeWithFW is the differential test: every engine, in several
// configurations, against the reference triple loop on hundreds of random
// graphs, comparing all n² distances and checking every path.
func TestEnginesAgreeWithFW(t *testing.T) {
	ctx := context.Background()
	configs := []Options{
		{Algorithm: "blocked"},
		{Algorithm: "blocked", Tile: 16, Threads: 3},
		{Algorithm: "blocked", Tile: 32, Threads: 1, Paths: true},
		{Algorithm: "blocked", Tile: 16, Paths: true},
		{Algorithm: "auto"},
		{Algorithm: "bfs"}, {Algorithm: "bitbfs", Paths: true}, {Algorithm: "bitbfs", Threads: 1},
		{Algorithm: "dijkstra"}, {Algorithm: "dijkstra", Paths: true, Threads: 3},
		{Algorithm: "johnson"}, {Algorithm: "johnson", Paths: true},
	}
	modes := []weightMode{unweighted, intWeights, intNegative, floatWeights, floatNegative, bigIntWeights, floatTiny, floatHuge}
	rng := rand.New(rand.NewPCG(1, 2))
	graphs := 0
	for _, mode := range modes {
		for trial := 0; trial < 40; trial++ {
			n := 1 + rng.IntN(90)
			p := []float64{0.02, 0.05, 0.15, 0.5}[trial%4]
			directed := trial%2 == 0 || mode == intNegative || mode == floatNegative
			g := randomGraph(rng, n, p, directed, mode)
			graphs++
			name := fmt.Sprintf("%v/n=%d/p=%v/directed=%v", mode, n, p, directed)
			ref, err := AllPairs(ctx, g, Options{Algorithm: "fw", Paths: true})
			if err != nil {
				t.Fatalf("%s: fw: %v", name, err)
			}
			if mode == bigIntWeights && g.Arcs() > 0 && ref.Lanes() != "int64" {
				t.Fatalf("%s: expected int64 lanes, got %s", name, ref.Lanes())
			}
			for _, opt := range append([]Options{{Algorithm: "fw", Paths: true}}, configs...) {
				if err := Supports(g, Options{Algorithm: opt.Algorithm}); err != nil {
					if opt.Algorithm != "auto" && opt.Algorithm != "blocked" && opt.Algorithm != "fw" {
						continue // the engine does not take this kind of graph
					}
					t.Fatalf("%s %+v: %v", name, opt, err)
				}
				got, err := AllPairs(ctx, g, opt)
				if err != nil {
					t.Fatalf("%s %+v: %v", name, opt, err)
				}
				// The per-source summaries agree with the matrix.
				checkRows(t, ctx, g, opt, got, name)
				if opt.Algorithm == "auto" {
					checkSingleSource(t, ctx, g, ref, name)
				}
				for u := 0; u < n; u++ {
					for v := 0; v < n; v++ {
						if !sameLength(ref.At(u, v), got.At(u, v)) {
							t.Fatalf("%s %+v: d(%d,%d) = %v, fw says %v", name, opt, u, v, got.At(u, v), ref.At(u, v))
						}
						if opt.Paths && !got.At(u, v).IsInf() {
							vs, err := got.Path(u, v)
							if err != nil {
								t.Fatalf("%s %+v: path %d→%d: %v", name, opt, u, v, err)
							}
							checkPath(t, g, vs, u, v, ref.At(u, v))
						}
					}
				}
			}
		}
	}
	if graphs < 200 {
		t.Fatalf("only %d graphs tested", graphs)
	}
}

// negativeWalkThrough reports whether some closed walk through v has
// negative length (Bellman–Ford from v, n rounds).
func negativeWalkThrough(g *graph.Graph, v int) bool {
	n := g.N()
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[v] = 0
	for range n {
		for u := 0; u < n; u++ {
			if math.IsInf(dist[u], 1) {
				continue
			}
			for i, w := range g.Neighbors(u) {
				dist[w] = math.Min(dist[w], dist[u]+g.ArcFloat(u, i))
			}
		}
	}
	return dist[v] < 0
}

func TestNegativeCycleDetected(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 60; trial++ {
		n := 3 + rng.IntN(60)
		g0 := randomGraph(rng, n, 0.1, true, intWeights)
		// Plant a negative cycle on k random vertices.
		b := graph.NewBuilder(true)
		must(b.SetVertices(n))
		for u := 0; u < n; u++ {
			for i, v := range g0.Neighbors(u) {
				must(b.AddIntEdge(u, int(v), g0.ArcInt(u, i)))
			}
		}
		perm := rng.Perm(n)[:2+rng.IntN(n-1)]
		for i := range perm {
			must(b.AddIntEdge(perm[i], perm[(i+1)%len(perm)], -1))
		}
		g := b.Build()
		for _, algo := range []string{"fw", "blocked", "johnson", "auto"} {
			_, err := AllPairs(ctx, g, Options{Algorithm: algo})
			var nc *NegativeCycleError
			if !errors.As(err, &nc) {
				t.Fatalf("trial %d %s: want a negative cycle error, got %v", trial, algo, err)
			}
			if !negativeWalkThrough(g, nc.Vertex) {
				t.Fatalf("trial %d %s: vertex %d is not on a negative cycle", trial, algo, nc.Vertex)
			}
		}
	}
	// A negative self-loop is a negative cycle by itself; an undirected
	// negative edge is one too.
	b := graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, 2))
	must(b.AddIntEdge(1, 1, -1))
	b2 := graph.NewBuilder(false)
	must(b2.AddIntEdge(0, 1, 2))
	must(b2.AddIntEdge(1, 2, -1))
	for _, g := range []*graph.Graph{b.Build(), b2.Build()} {
		for _, algo := range []string{"fw", "blocked", "johnson", "auto"} {
			var nc *NegativeCycleError
			if _, err := AllPairs(ctx, g, Options{Algorithm: algo}); !errors.As(err, &nc) {
				t.Fatalf("%s: want a negative cycle error, got %v", algo, err)
			}
		}
	}
}

// checkRows compares an engine's row summaries (as stats use them) with the
// rows of the distance matrix.
func checkRows(t *testing.T, ctx context.Context, g *graph.Graph, opt Options, d *Distances, name string) {
	t.Helper()
	opt.Paths = false
	o, err := opt.parse()
	if err != nil {
		t.Fatal(err)
	}
	rs, _, err := run.Rows(ctx, g, o)
	if err != nil {
		t.Fatalf("%s %+v rows: %v", name, opt, err)
	}
	want := result.RowsOf(d, 1)
	for u := range rs {
		a, b := rs[u], want[u]
		if a.Reach != b.Reach || a.Unreach != b.Unreach || a.MaxI != b.MaxI || a.Sum != b.Sum ||
			math.Abs(a.MaxF-b.MaxF) > 1e-9*math.Max(1, math.Abs(b.MaxF)) || math.Abs(a.SumF-b.SumF) > 1e-9*math.Max(1, math.Abs(b.SumF)) {
			t.Fatalf("%s %+v: row %d summary %+v, matrix says %+v", name, opt, u, a, b)
		}
	}
}

// checkSingleSource checks ShortestPath's one-source search on a few pairs.
func checkSingleSource(t *testing.T, ctx context.Context, g *graph.Graph, ref *Distances, name string) {
	t.Helper()
	n := g.N()
	for k := 0; k < 5; k++ {
		u, v := (k*7)%n, (k*13+1)%n
		p, err := ShortestPath(ctx, g, u, v, Options{})
		if ref.At(u, v).IsInf() {
			if !errors.Is(err, ErrNoPath) {
				t.Fatalf("%s: path %d→%d: want ErrNoPath, got %v", name, u, v, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: path %d→%d: %v", name, u, v, err)
		}
		if !sameLength(p.Length, ref.At(u, v)) {
			t.Fatalf("%s: path %d→%d length %v, want %v", name, u, v, p.Length, ref.At(u, v))
		}
		checkPath(t, g, p.Vertices, u, v, ref.At(u, v))
	}
}

// TestNilAndEmptyGraph: every one-graph entry point answers a nil graph
// with ErrNilGraph and a graph without vertices with ErrEmptyGraph,
// never a panic.
func TestNilAndEmptyGraph(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(*graph.Graph) error{
		"AllPairs":          func(g *graph.Graph) error { _, err := AllPairs(ctx, g, Options{}); return err },
		"ComputeStats":      func(g *graph.Graph) error { _, err := ComputeStats(ctx, g, Options{}); return err },
		"Eccentricities":    func(g *graph.Graph) error { _, err := Eccentricities(ctx, g, Options{}); return err },
		"ComputeExtremes":   func(g *graph.Graph) error { _, err := ComputeExtremes(ctx, g, Options{}); return err },
		"DistanceHistogram": func(g *graph.Graph) error { _, err := DistanceHistogram(ctx, g, Options{}); return err },
		"ShortestPath":      func(g *graph.Graph) error { _, err := ShortestPath(ctx, g, 0, 0, Options{}); return err },
		"ShortestPath/fw":   func(g *graph.Graph) error { _, err := ShortestPath(ctx, g, 0, 0, Options{Algorithm: "fw"}); return err },
		"Explain":           func(g *graph.Graph) error { _, err := Explain(g, Options{}, TaskStats); return err },
		"Supports":          func(g *graph.Graph) error { return Supports(g, Options{}) },
	}
	empty := graph.NewBuilder(false).Build()
	for name, call := range calls {
		if err := call(nil); !errors.Is(err, ErrNilGraph) {
			t.Errorf("%s(nil): %v, want ErrNilGraph", name, err)
		}
		if err := call(empty); !errors.Is(err, ErrEmptyGraph) {
			t.Errorf("%s(empty): %v, want ErrEmptyGraph", name, err)
		}
	}
}

// TestProgressEnds: every CPU engine's progress rises and ends at 1 (fw
// reported at the start of every 64th round only, so at n = 200 it ended
// at 0.96).
func TestProgressEnds(t *testing.T) {
	ctx := context.Background()
	g := randomGraph(rand.New(rand.NewPCG(3, 4)), 200, 0.05, true, intWeights)
	for _, algo := range []string{"fw", "blocked", "dijkstra", "johnson", "auto"} {
		var last float64
		var calls int
		opt := Options{Algorithm: algo, Progress: func(f float64) {
			if f < last {
				t.Errorf("%s: progress fell from %v to %v", algo, last, f)
			}
			last = f
			calls++
		}}
		if _, err := AllPairs(ctx, g, opt); err != nil {
			t.Fatal(err)
		}
		if calls == 0 || last != 1 {
			t.Errorf("%s: %d progress reports, the last %v; want it to end at 1", algo, calls, last)
		}
	}
}

// TestGraphCheckedBeforeOptions: a nil or empty graph is reported before
// invalid options, by every entry point that takes one graph, and the
// bounds method named outside the extremes before anything about the
// graph's weights or vertices.
func TestGraphCheckedBeforeOptions(t *testing.T) {
	ctx := context.Background()
	bad := Options{Device: "tpu"}
	empty := graph.NewBuilder(false).Build()
	calls := map[string]func(g *graph.Graph) error{
		"AllPairs":          func(g *graph.Graph) error { _, err := AllPairs(ctx, g, bad); return err },
		"ComputeStats":      func(g *graph.Graph) error { _, err := ComputeStats(ctx, g, bad); return err },
		"ComputeExtremes":   func(g *graph.Graph) error { _, err := ComputeExtremes(ctx, g, bad); return err },
		"Eccentricities":    func(g *graph.Graph) error { _, err := Eccentricities(ctx, g, bad); return err },
		"DistanceHistogram": func(g *graph.Graph) error { _, err := DistanceHistogram(ctx, g, bad); return err },
		"Explain":           func(g *graph.Graph) error { _, err := Explain(g, bad, TaskStats); return err },
		"Supports":          func(g *graph.Graph) error { return Supports(g, bad) },
	}
	for name, call := range calls {
		if err := call(nil); !errors.Is(err, ErrNilGraph) {
			t.Errorf("%s(nil graph, invalid options) = %v, want ErrNilGraph", name, err)
		}
		if err := call(empty); !errors.Is(err, ErrEmptyGraph) {
			t.Errorf("%s(empty graph, invalid options) = %v, want ErrEmptyGraph", name, err)
		}
	}
	b := graph.NewBuilder(false)
	if err := b.AddFloatEdge(0, 1, 0.5); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	bounds := Options{Algorithm: BoundsAlgorithm}
	if _, err := ShortestPath(ctx, g, 0, 7, bounds); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("ShortestPath with bounds and a vertex out of range: %v, want ErrInvalidOptions", err)
	}
	if _, err := DistanceHistogram(ctx, g, bounds); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("DistanceHistogram with bounds on a float graph: %v, want ErrInvalidOptions", err)
	}
}
