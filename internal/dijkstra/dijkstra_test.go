package dijkstra

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// randomSpecs returns count random specs: every weight kind, directed or
// not, sparse to dense, in up to 3 parts, lengths from 0, 1 or 5 spanning
// up to 10⁶; negative ones (for Johnson) are directed with potentials.
func randomSpecs(rng *rand.Rand, count int, negative bool) []testgraphs.Spec {
	kinds := []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}
	specs := make([]testgraphs.Spec, count)
	for i := range specs {
		s := testgraphs.Spec{
			N:        1 + rng.IntN(60),
			Directed: rng.IntN(2) == 0,
			Kind:     kinds[rng.IntN(3)],
			P:        []float64{0.02, 0.08, 0.2, 0.5}[rng.IntN(4)],
			Parts:    []int{1, 1, 2, 3}[rng.IntN(4)],
			Lo:       []int64{0, 1, 5}[rng.IntN(3)],
		}
		s.Hi = s.Lo + []int64{0, 3, 100, 1e6}[rng.IntN(4)]
		if negative {
			s.Directed = true
			s.Kind = kinds[1+rng.IntN(2)]
			s.Potential = []int64{2, 10, 1000}[rng.IntN(3)]
		}
		specs[i] = s
	}
	return specs
}

// oracle returns the Floyd–Warshall distances of g as float64 and whether
// they are exact integers (then also as int64).
func oracle(t *testing.T, g *graph.Graph) (*lanes.Matrix[int64], *lanes.Matrix[float64]) {
	t.Helper()
	ctx := context.Background()
	if g.Kind() == graph.FloatWeights {
		m, err := lanes.NewMatrix[float64](g, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := cpu.FloydWarshall(ctx, m, nil, nil); err != nil {
			t.Fatal(err)
		}
		return nil, m
	}
	m, err := lanes.NewMatrix[int64](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.FloydWarshall(ctx, m, nil, nil); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

// expectedRows derives the per-source summaries from an oracle matrix.
func expectedRows(mi *lanes.Matrix[int64], mf *lanes.Matrix[float64]) []reduce.Row {
	if mi != nil {
		rows := make([]reduce.Row, mi.N)
		for u := range rows {
			for v, d := range mi.Row(u) {
				switch {
				case v == u:
				case d == mi.Inf:
					rows[u].Unreach = true
				default:
					rows[u].AddInt(d)
				}
			}
		}
		return rows
	}
	rows := make([]reduce.Row, mf.N)
	for u := range rows {
		for v, d := range mf.Row(u) {
			switch {
			case v == u:
			case d == mf.Inf:
				rows[u].Unreach = true
			default:
				rows[u].AddFloat(d)
			}
		}
	}
	return rows
}

// near reports whether float results agree to 1e-9 relative (absolute near
// zero, where Johnson's float potentials leave rounding noise).
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))
}

func compareRows(t *testing.T, name string, got, want []reduce.Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
	}
	for u := range want {
		g, w := got[u], want[u]
		if g.Reach != w.Reach || g.Unreach != w.Unreach || g.MaxI != w.MaxI || g.Sum != w.Sum ||
			!near(g.MaxF, w.MaxF) || !near(g.SumF, w.SumF) {
			t.Fatalf("%s: row %d = %+v, want %+v", name, u, g, w)
		}
	}
}

// compareFill checks every entry of m against the oracle, and that padding
// beyond N was left alone.
func compareFill[T lanes.Lane](t *testing.T, name string, m *lanes.Matrix[T], pad T, mi *lanes.Matrix[int64], mf *lanes.Matrix[float64]) {
	t.Helper()
	for u := 0; u < m.N; u++ {
		for v := 0; v < m.N; v++ {
			got := m.At(u, v)
			if mi != nil {
				want := mi.At(u, v)
				if (want == mi.Inf) != (got == m.Inf) || (want != mi.Inf && int64(got) != want) {
					t.Fatalf("%s %T: d(%d,%d) = %v, want %v", name, got, u, v, got, want)
				}
				continue
			}
			want := mf.At(u, v)
			if (want == mf.Inf) != (got == m.Inf) || (want != mf.Inf && !near(float64(got), want)) {
				t.Fatalf("%s %T: d(%d,%d) = %v, want %v", name, got, u, v, got, want)
			}
		}
		for j := m.N; j < m.Stride; j++ {
			if m.Data[u*m.Stride+j] != pad {
				t.Fatalf("%s: padding (%d,%d) overwritten", name, u, j)
			}
		}
	}
}

type rowsFunc func(context.Context, *graph.Graph, int, func(float64)) ([]reduce.Row, error)

// engines lists the functions under test with their Fill twins.
type engine struct {
	name string
	rows rowsFunc
	fill func(ctx context.Context, g *graph.Graph, mi32 *lanes.Matrix[int32], mi64 *lanes.Matrix[int64], mf *lanes.Matrix[float64], threads int) error
}

var engines = []engine{
	{"dijkstra", Rows, func(ctx context.Context, g *graph.Graph, a *lanes.Matrix[int32], b *lanes.Matrix[int64], c *lanes.Matrix[float64], threads int) error {
		return fillAny(ctx, g, a, b, c, threads, Fill[int32], Fill[int64], Fill[float64])
	}},
	{"johnson", JohnsonRows, func(ctx context.Context, g *graph.Graph, a *lanes.Matrix[int32], b *lanes.Matrix[int64], c *lanes.Matrix[float64], threads int) error {
		return fillAny(ctx, g, a, b, c, threads, JohnsonFill[int32], JohnsonFill[int64], JohnsonFill[float64])
	}},
}

type fillFunc[T lanes.Lane] func(context.Context, *graph.Graph, *lanes.Matrix[T], int, func(float64)) error

func fillAny(ctx context.Context, g *graph.Graph, a *lanes.Matrix[int32], b *lanes.Matrix[int64], c *lanes.Matrix[float64], threads int,
	fa fillFunc[int32], fb fillFunc[int64], fc fillFunc[float64]) error {
	switch {
	case a != nil:
		return fa(ctx, g, a, threads, nil)
	case b != nil:
		return fb(ctx, g, b, threads, nil)
	}
	return fc(ctx, g, c, threads, nil)
}

// checkGraph runs every engine that accepts g against the oracle: Rows and
// Fill into every lane type that holds g's distances, with padded strides.
func checkGraph(t *testing.T, name string, g *graph.Graph, engs []engine, threads int) {
	t.Helper()
	mi, mf := oracle(t, g)
	checkAgainst(t, name, g, engs, threads, mi, mf)
}

// checkAgainst is checkGraph with the oracle's answer given: exact
// distances mi, or float ones mf.
func checkAgainst(t *testing.T, name string, g *graph.Graph, engs []engine, threads int, mi *lanes.Matrix[int64], mf *lanes.Matrix[float64]) {
	t.Helper()
	ctx := context.Background()
	want := expectedRows(mi, mf)
	for _, e := range engs {
		label := name + "/" + e.name
		rows, err := e.rows(ctx, g, threads, nil)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		compareRows(t, label, rows, want)

		stride := g.N() + (g.N() % 3) // some padded, some not
		if g.Kind() == graph.FloatWeights {
			m := newMatrix[float64](t, g, stride)
			must2(t, label, e.fill(ctx, g, nil, nil, m, threads))
			compareFill(t, label, m, m.Inf, mi, mf)
			continue
		}
		plan, err := lanes.PlanFor(g)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Lanes == lanes.Int32 {
			m := newMatrix[int32](t, g, stride)
			must2(t, label, e.fill(ctx, g, m, nil, nil, threads))
			compareFill(t, label, m, m.Inf, mi, mf)
		}
		m := newMatrix[int64](t, g, stride)
		must2(t, label, e.fill(ctx, g, nil, m, nil, threads))
		compareFill(t, label, m, m.Inf, mi, mf)
		mF := newMatrix[float64](t, g, stride)
		must2(t, label, e.fill(ctx, g, nil, nil, mF, threads))
		compareFill(t, label, mF, mF.Inf, mi, mf)
	}
}

func newMatrix[T lanes.Lane](t *testing.T, g *graph.Graph, stride int) *lanes.Matrix[T] {
	t.Helper()
	m, err := lanes.NewMatrix[T](g, stride)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func must2(t *testing.T, name string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestRandomNonNegative compares both engines with Floyd–Warshall on
// random graphs of every kind, directed and undirected, often disconnected.
func TestRandomNonNegative(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i, s := range randomSpecs(rng, 800, false) {
		g := testgraphs.Random(rng, s)
		checkGraph(t, fmt.Sprintf("#%d/%v", i, s), g, engines, 1+i%3)
	}
}

// TestRandomNegative checks Johnson on directed graphs with negative arcs
// but no negative cycle: lengths base + h(u) − h(v) with base ≥ 0 make every
// cycle as long as its base lengths.
func TestRandomNegative(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	negatives := 0
	for i, s := range randomSpecs(rng, 600, true) {
		g := testgraphs.Random(rng, s)
		if g.HasNegativeWeights() {
			negatives++
		}
		checkGraph(t, fmt.Sprintf("#%d/%v", i, s), g, engines[1:], 1+i%3)
	}
	if negatives < 250 {
		t.Fatalf("only %d graphs had negative arcs", negatives)
	}
}

// TestSmallCases covers the empty graph, single vertices, zero lengths and
// isolated vertices.
func TestSmallCases(t *testing.T) {
	cases := map[string]func(b *graph.Builder){
		"empty":    func(b *graph.Builder) {},
		"single":   func(b *graph.Builder) { must(b.SetVertices(1)) },
		"isolated": func(b *graph.Builder) { must(b.SetVertices(5)); must(b.AddIntEdge(1, 2, 7)) },
		"zeros": func(b *graph.Builder) {
			must(b.AddIntEdge(0, 1, 0))
			must(b.AddIntEdge(1, 2, 0))
			must(b.AddIntEdge(2, 0, 0))
		},
		"zero-float": func(b *graph.Builder) { must(b.AddFloatEdge(0, 1, 0)); must(b.AddFloatEdge(1, 2, 0.5)) },
		"big":        func(b *graph.Builder) { must(b.AddIntEdge(0, 1, 1<<40)); must(b.AddIntEdge(1, 2, 1<<40)) },
		"neg-dag": func(b *graph.Builder) {
			must(b.AddIntEdge(0, 1, -5))
			must(b.AddIntEdge(1, 2, -7))
			must(b.AddIntEdge(0, 2, 1))
		},
	}
	for name, add := range cases {
		for _, directed := range []bool{true, false} {
			b := graph.NewBuilder(directed)
			add(b)
			g := b.Build()
			engs := engines
			if g.HasNegativeWeights() {
				if !directed {
					continue // an undirected negative edge is a negative cycle
				}
				engs = engines[1:]
			}
			checkGraph(t, fmt.Sprintf("%s/directed=%v", name, directed), g, engs, 2)
		}
	}
}

// TestNegativeCycles checks that Johnson returns cpu.FindNegativeCycle's
// error, naming a vertex that lies on a negative cycle.
func TestNegativeCycles(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		n := 2 + rng.IntN(30)
		directed := rng.IntN(4) != 0
		float := rng.IntN(2) == 0
		b := graph.NewBuilder(directed)
		must(b.SetVertices(n))
		add := func(u, v int, w int64) {
			if float {
				must(b.AddFloatEdge(u, v, float64(w)+0.25))
			} else {
				must(b.AddIntEdge(u, v, w))
			}
		}
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if u != v && rng.Float64() < 0.1 {
					add(u, v, rng.Int64N(50))
				}
			}
		}
		// A cycle of random length ≥ 2 whose total is negative.
		k := 2 + rng.IntN(n-1)
		perm := rng.Perm(n)[:k]
		for j := range k {
			w := rng.Int64N(20)
			if j == 0 {
				w = -int64(k)*20 - 1
			}
			add(perm[j], perm[(j+1)%k], w)
		}
		g := b.Build()
		name := fmt.Sprintf("#%d/n=%d/directed=%v/float=%v", i, n, directed, float)
		check := func(err error) {
			t.Helper()
			var nc *cpu.NegativeCycleError
			if !errors.As(err, &nc) {
				t.Fatalf("%s: err = %v, want a *cpu.NegativeCycleError", name, err)
			}
			if !onNegativeCycle(g, nc.Vertex) {
				t.Fatalf("%s: vertex %d is not on a negative cycle", name, nc.Vertex)
			}
		}
		_, err := JohnsonRows(ctx, g, 2, nil)
		check(err)
		if float {
			m := newMatrix[float64](t, g, 0)
			check(JohnsonFill(ctx, g, m, 2, nil))
		} else {
			m := newMatrix[int64](t, g, 0)
			check(JohnsonFill(ctx, g, m, 2, nil))
		}
		if _, err := Rows(ctx, g, 2, nil); !errors.Is(err, ErrNegativeWeights) {
			t.Fatalf("%s: Rows err = %v, want ErrNegativeWeights", name, err)
		}
	}
}

// onNegativeCycle runs Floyd–Warshall to the end (lengths here are small
// enough that values at most double per pivot without overflowing) and
// reports whether v has a negative closed walk.
func onNegativeCycle(g *graph.Graph, v int) bool {
	n := g.N()
	d := make([]float64, n*n)
	for i := range d {
		d[i] = math.Inf(1)
	}
	for u := range n {
		d[u*n+u] = 0
		for i, x := range g.Neighbors(u) {
			d[u*n+int(x)] = g.ArcFloat(u, i)
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				d[i*n+j] = min(d[i*n+j], d[i*n+k]+d[k*n+j])
			}
		}
	}
	return d[v*n+v] < 0
}

// TestRowsRejectsNegative checks the error that points to Johnson.
func TestRowsRejectsNegative(t *testing.T) {
	b := graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, 3))
	must(b.AddIntEdge(1, 2, -1))
	g := b.Build()
	ctx := context.Background()
	_, err := Rows(ctx, g, 1, nil)
	if !errors.Is(err, ErrNegativeWeights) {
		t.Fatalf("Rows err = %v, want ErrNegativeWeights", err)
	}
	t.Logf("Rows: %v", err)
	if err := Fill(ctx, g, newMatrix[int64](t, g, 0), 1, nil); !errors.Is(err, ErrNegativeWeights) {
		t.Fatalf("Fill err = %v, want ErrNegativeWeights", err)
	}
	// A dropped negative self-loop is still a negative length.
	b = graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, 3))
	must(b.AddIntEdge(1, 1, -1))
	if _, err := Rows(ctx, b.Build(), 1, nil); !errors.Is(err, ErrNegativeWeights) {
		t.Fatalf("Rows with a negative loop: err = %v", err)
	}
}

// TestMatrixChecks checks that Fill refuses matrices that cannot hold the
// distances.
func TestMatrixChecks(t *testing.T) {
	ctx := context.Background()
	b := graph.NewBuilder(true)
	must(b.AddFloatEdge(0, 1, 0.5))
	gf := b.Build()
	if err := Fill(ctx, gf, newMatrix[int64](t, gf, 0), 1, nil); err == nil {
		t.Fatal("float graph into int64 lanes: no error")
	}
	b = graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, 1<<40))
	gi := b.Build()
	if err := JohnsonFill(ctx, gi, newMatrix[int32](t, gi, 0), 1, nil); !errors.Is(err, lanes.ErrWeightsTooLarge) {
		t.Fatalf("2^40 into int32 lanes: err = %v", err)
	}
	b = graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, math.MaxInt64/2))
	must(b.AddIntEdge(1, 2, math.MaxInt64/2))
	must(b.AddIntEdge(2, 3, math.MaxInt64/2))
	if _, err := Rows(ctx, b.Build(), 1, nil); !errors.Is(err, lanes.ErrWeightsTooLarge) {
		t.Fatalf("overflowing lengths: err = %v", err)
	}
	// Two such arcs fit int64 (a wide plan): exact, by the guarded search.
	b = graph.NewBuilder(true)
	must(b.AddIntEdge(0, 1, math.MaxInt64/2))
	must(b.AddIntEdge(1, 2, math.MaxInt64/2))
	must(b.AddIntEdge(2, 0, 0))
	rows, err := Rows(ctx, b.Build(), 1, nil)
	if err != nil || rows[0].MaxI != math.MaxInt64-1 || rows[1].MaxI != math.MaxInt64/2 {
		t.Fatalf("wide lengths: %v %+v", err, rows)
	}
	b = graph.NewBuilder(true)
	must(b.AddIntEdge(0, 2, 1))
	if err := Fill(ctx, b.Build(), newMatrix[int64](t, gi, 0), 1, nil); err == nil {
		t.Fatal("matrix of another graph: no error")
	}
}

// TestFillNarrowKinds fills the lane kinds the plan holds beyond int32,
// int64 and float64 (int8, int16, integer distances in float32) with both
// fills and compares them with int64; kinds the plan does not hold are
// refused.
func TestFillNarrowKinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	ctx := context.Background()
	tried := map[lanes.Kind]int{}
	for trial := 0; trial < 60; trial++ {
		s := testgraphs.Spec{N: 1 + rng.IntN(40), Directed: trial%2 == 0, Kind: graph.IntWeights, P: 0.1, Parts: 1 + trial%3, Lo: 0, Hi: []int64{1, 3, 50}[trial%3]}
		if s.Directed && trial%5 == 4 {
			s.Potential = 2 // negative arcs for Johnson
		}
		g := testgraphs.Random(rng, s)
		plan, err := lanes.PlanFor(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, fill := range []struct {
			name string
			i64  fillFunc[int64]
			i8   fillFunc[int8]
			i16  fillFunc[int16]
			f32  fillFunc[float32]
		}{{"dijkstra", Fill[int64], Fill[int8], Fill[int16], Fill[float32]}, {"johnson", JohnsonFill[int64], JohnsonFill[int8], JohnsonFill[int16], JohnsonFill[float32]}} {
			if fill.name == "dijkstra" && g.HasNegativeWeights() {
				continue
			}
			want := newMatrix[int64](t, g, 0)
			must2(t, fill.name, fill.i64(ctx, g, want, 2, nil))
			name := fmt.Sprintf("%s/%v", fill.name, s)
			tried[lanes.Int8] += fillKind(t, ctx, name, g, plan, fill.i8, want)
			tried[lanes.Int16] += fillKind(t, ctx, name, g, plan, fill.i16, want)
			tried[lanes.Float32] += fillKind(t, ctx, name, g, plan, fill.f32, want)
		}
	}
	if tried[lanes.Int8] == 0 || tried[lanes.Int16] == 0 || tried[lanes.Float32] == 0 {
		t.Fatalf("kinds filled: %v", tried)
	}
}

// fillKind fills a matrix of T and compares it with want when the plan
// holds T (returning 1), else checks that the fill refuses it (0).
func fillKind[T lanes.Lane](t *testing.T, ctx context.Context, name string, g *graph.Graph, plan lanes.Plan, fill fillFunc[T], want *lanes.Matrix[int64]) int {
	t.Helper()
	m := newMatrix[T](t, g, g.N()+1)
	err := fill(ctx, g, m, 2, nil)
	if plan.Holds(m.Kind()) != nil {
		// Refused as the plan refuses it: lengths too long for the kind,
		// or negative weights, which the packed kinds never take.
		if !errors.Is(err, lanes.ErrWeightsTooLarge) && !errors.Is(err, lanes.ErrNoKind) {
			t.Fatalf("%s %v: plan %d..%d, err = %v", name, m.Kind(), plan.MinReal, plan.MaxReal, err)
		}
		return 0
	}
	must2(t, name, err)
	for u := 0; u < g.N(); u++ {
		for v := 0; v < g.N(); v++ {
			d, ok := want.Int(u, v)
			if m.IsInf(u, v) == ok || (ok && m.Float(u, v) != float64(d)) {
				t.Fatalf("%s %v: d(%d,%d) = %v, want %v", name, m.Kind(), u, v, m.At(u, v), want.At(u, v))
			}
		}
	}
	return 1
}

// TestCancel checks that a cancelled context, before or during the run,
// returns ctx.Err().
func TestCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	gs := map[string]*graph.Graph{
		"int":   testgraphs.Random(rng, testgraphs.Spec{N: 300, Kind: graph.IntWeights, P: 0.05, Lo: 1, Hi: 100}),
		"float": testgraphs.Random(rng, testgraphs.Spec{N: 300, Kind: graph.FloatWeights, P: 0.05, Lo: 1, Hi: 100}),
		"neg":   testgraphs.Random(rng, testgraphs.Spec{N: 300, Directed: true, Kind: graph.IntWeights, P: 0.05, Lo: 1, Hi: 100, Potential: 50}),
		"bfs":   testgraphs.Random(rng, testgraphs.Spec{N: 300, Kind: graph.Unweighted, P: 0.05}),
	}
	for name, g := range gs {
		for _, e := range engines {
			if g.HasNegativeWeights() && e.name == "dijkstra" {
				continue
			}
			label := name + "/" + e.name
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := e.rows(ctx, g, 2, nil); err != ctx.Err() {
				t.Fatalf("%s: pre-cancelled rows err = %v", label, err)
			}
			ctx, cancel = context.WithCancel(context.Background())
			var calls int
			rows, err := e.rows(ctx, g, 2, func(float64) { calls++; cancel() })
			if err != context.Canceled || rows != nil || calls == 0 {
				t.Fatalf("%s: cancelled mid-run: rows %d, err = %v, progress calls %d", label, len(rows), err, calls)
			}
			ctx, cancel = context.WithCancel(context.Background())
			cancel()
			m := newMatrix[float64](t, g, 0)
			if err := e.fill(ctx, g, nil, nil, m, 2); err != ctx.Err() {
				t.Fatalf("%s: pre-cancelled fill err = %v", label, err)
			}
		}
	}
}

// TestProgress checks that progress rises to exactly 1.
func TestProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := testgraphs.Random(rng, testgraphs.Spec{N: 1000, Kind: graph.IntWeights, P: 0.01, Lo: 1, Hi: 9})
	var got []float64
	if _, err := Rows(context.Background(), g, 2, func(f float64) { got = append(got, f) }); err != nil {
		t.Fatal(err)
	}
	if len(got) < 10 || got[len(got)-1] != 1 {
		t.Fatalf("progress %v", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] || got[i] > 1 {
			t.Fatalf("progress goes back or past 1: %v", got)
		}
	}
}
