package graph

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// wrEdge is a test edge; w is used as an int or a float weight by kind.
type wrEdge struct {
	u, v int
	w    float64
}

func wrBuild(t testing.TB, directed bool, kind WeightKind, n int, edges []wrEdge) *Graph {
	t.Helper()
	b := NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		var err error
		switch kind {
		case Unweighted:
			err = b.AddEdge(e.u, e.v)
		case IntWeights:
			err = b.AddIntEdge(e.u, e.v, int64(e.w))
		case FloatWeights:
			err = b.AddFloatEdge(e.u, e.v, e.w)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func wrRandomGraph(t testing.TB, directed bool, kind WeightKind, n, m int, seed uint64) *Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	edges := make([]wrEdge, m)
	for i := range edges {
		e := wrEdge{u: r.IntN(n), v: r.IntN(n)}
		switch kind {
		case IntWeights:
			e.w = float64(r.IntN(2001) - 1000)
		case FloatWeights:
			e.w = (r.Float64() - 0.3) * math.Pow(10, float64(r.IntN(40)-20))
			if r.IntN(5) == 0 {
				e.w = float64(r.IntN(100)) // integral floats must stay floats
			}
		}
		if e.u == e.v && e.w < 0 {
			e.w = -e.w // a negative loop is tested separately
		}
		edges[i] = e
	}
	return wrBuild(t, directed, kind, n, edges)
}

// wrSameGraph compares two graphs arc by arc, weights included.
func wrSameGraph(t *testing.T, got, want *Graph) {
	t.Helper()
	if got.N() != want.N() || got.Directed() != want.Directed() || got.Kind() != want.Kind() {
		t.Fatalf("got n=%d directed=%t %v, want n=%d directed=%t %v",
			got.N(), got.Directed(), got.Kind(), want.N(), want.Directed(), want.Kind())
	}
	if got.Arcs() != want.Arcs() {
		t.Fatalf("got %d arcs, want %d", got.Arcs(), want.Arcs())
	}
	gl, gok := got.NegativeSelfLoop()
	wl, wok := want.NegativeSelfLoop()
	if gok != wok || (wok && gl != wl) {
		t.Fatalf("negative self-loop: got %d %t, want %d %t", gl, gok, wl, wok)
	}
	for u := 0; u < want.N(); u++ {
		if !slices.Equal(got.Neighbors(u), want.Neighbors(u)) {
			t.Fatalf("vertex %d: heads %v, want %v", u, got.Neighbors(u), want.Neighbors(u))
		}
		if !slices.Equal(got.IntWeights(u), want.IntWeights(u)) {
			t.Fatalf("vertex %d: int weights %v, want %v", u, got.IntWeights(u), want.IntWeights(u))
		}
		gf, wf := got.FloatWeights(u), want.FloatWeights(u)
		for i := range wf {
			if math.Float64bits(gf[i]) != math.Float64bits(wf[i]) {
				t.Fatalf("vertex %d arc %d: float weight %v, want %v", u, i, gf[i], wf[i])
			}
		}
	}
}

// wrAsDIMACS is what a DIMACS round trip yields: a directed graph, and integer
// weights 1 in place of none.
func wrAsDIMACS(t *testing.T, g *Graph) *Graph {
	t.Helper()
	b := NewBuilder(true)
	if err := b.SetVertices(g.N()); err != nil {
		t.Fatal(err)
	}
	if v, ok := g.NegativeSelfLoop(); ok {
		var err error
		if g.Kind() == FloatWeights {
			err = b.AddFloatEdge(v, v, -1)
		} else {
			err = b.AddIntEdge(v, v, -1)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for u := 0; u < g.N(); u++ {
		for i, v := range g.Neighbors(u) {
			var err error
			if g.Kind() == FloatWeights {
				err = b.AddFloatEdge(u, int(v), g.ArcFloat(u, i))
			} else {
				err = b.AddIntEdge(u, int(v), g.ArcInt(u, i))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.Build()
}

// wrPlusZero returns g with every -0 weight made +0, which is how the readers
// read a zero and how the writers write one.
func wrPlusZero(g *Graph) *Graph {
	h := *g
	h.floatW = slices.Clone(g.floatW)
	for i, w := range h.floatW {
		if w == 0 {
			h.floatW[i] = 0
		}
	}
	return &h
}

type wrCase struct {
	name string
	g    *Graph
}

func wrCases(t *testing.T) []wrCase {
	var cs []wrCase
	for _, directed := range []bool{false, true} {
		for _, kind := range []WeightKind{Unweighted, IntWeights, FloatWeights} {
			name := kind.String()
			if directed {
				name += "/directed"
			}
			cs = append(cs,
				wrCase{name + "/random", wrRandomGraph(t, directed, kind, 60, 400, 1)},
				wrCase{name + "/isolated-tail", wrBuild(t, directed, kind, 9,
					[]wrEdge{{0, 1, 2}, {1, 2, 3}, {4, 2, 1}})},
				wrCase{name + "/no-edges", wrBuild(t, directed, kind, 4, nil)},
				wrCase{name + "/empty", wrBuild(t, directed, kind, 0, nil)},
			)
			if kind != Unweighted {
				cs = append(cs, wrCase{name + "/negative-loop", wrBuild(t, directed, kind, 5,
					[]wrEdge{{0, 1, -2}, {3, 3, -5}, {3, 4, 1}, {4, 2, 7}})})
			}
		}
	}
	for _, directed := range []bool{false, true} {
		name := "undirected"
		if directed {
			name = "directed"
		}
		cs = append(cs,
			wrCase{"float/extremes/" + name, wrBuild(t, directed, FloatWeights, 6, []wrEdge{
				{0, 1, math.MaxFloat64}, {1, 2, math.SmallestNonzeroFloat64}, {2, 3, -0.1},
				{3, 0, 1e21}, {0, 2, math.Nextafter(0.3, 1)}, {2, 4, math.Copysign(0, -1)}, {1, 4, 5},
				{4, 0, 1 << 62}, {3, 1, -(1 << 62)}, {1, 3, -math.MaxFloat64}, {0, 4, 2.2250738585072014e-308},
				{2, 0, math.Nextafter(1, 2)}, {3, 4, 1e-300}, {4, 3, 0},
			})},
			wrCase{"one-vertex/" + name, wrBuild(t, directed, Unweighted, 1, nil)},
			wrCase{"one-vertex-negative-loop/" + name, wrBuild(t, directed, IntWeights, 1, []wrEdge{{0, 0, -3}})},
			wrCase{"float-negative-loop-only/" + name, wrBuild(t, directed, FloatWeights, 3, []wrEdge{{2, 2, -0.5}})},
			wrCase{"int/big/" + name, wrBuild(t, directed, IntWeights, 4, []wrEdge{
				{0, 1, 1 << 62}, {1, 2, -(1 << 62)}, {2, 3, 0}, {3, 0, -1},
			})},
		)
	}
	cs = append(cs, wrCase{"int/extremes", wrBuild(t, true, IntWeights, 3, nil)})
	b := NewBuilder(true)
	for _, e := range []struct {
		u, v int
		w    int64
	}{{0, 1, math.MaxInt64}, {1, 2, math.MinInt64}, {2, 0, 0}} {
		if err := b.AddIntEdge(e.u, e.v, e.w); err != nil {
			t.Fatal(err)
		}
	}
	cs[len(cs)-1].g = b.Build()
	return cs
}

func TestWriteRoundTrip(t *testing.T) {
	writers := []struct {
		name   string
		format Format
		write  func(*bytes.Buffer, *Graph) error
	}{
		{"edgelist", FormatEdgeList, func(b *bytes.Buffer, g *Graph) error { return WriteEdgeList(b, g) }},
		{"mtx", FormatMatrixMarket, func(b *bytes.Buffer, g *Graph) error { return WriteMatrixMarket(b, g) }},
		{"dimacs", FormatDIMACS, func(b *bytes.Buffer, g *Graph) error { return WriteDIMACS(b, g) }},
	}
	for _, c := range wrCases(t) {
		for _, wr := range writers {
			t.Run(c.name+"/"+wr.name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := wr.write(&buf, c.g); err != nil {
					t.Fatal(err)
				}
				want := wrPlusZero(c.g)
				if wr.format == FormatDIMACS {
					want = wrAsDIMACS(t, want)
				}
				// No options: the file says it all, whether the format is
				// named or sniffed (stdin).
				for _, opt := range []ReadOptions{{Format: wr.format}, {}} {
					got, err := Read(bytes.NewReader(buf.Bytes()), "stdin", opt)
					if err != nil {
						t.Fatalf("%v\n%s", err, buf.String())
					}
					wrSameGraph(t, got, want)
				}
			})
		}
	}
}

func TestWriteEdgeListText(t *testing.T) {
	g := wrBuild(t, false, IntWeights, 6, []wrEdge{{2, 0, 5}, {1, 2, -3}})
	var buf bytes.Buffer
	if err := WriteEdgeList(&buf, g); err != nil {
		t.Fatal(err)
	}
	want := `# apsp edge list
# vertices: 6
# edges: 2
# directed: false
# weights: integer
0 2 5
1 2 -3
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteMatrixMarketText(t *testing.T) {
	g := wrBuild(t, false, FloatWeights, 3, []wrEdge{{0, 1, 2.5}, {2, 1, 4}})
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, g); err != nil {
		t.Fatal(err)
	}
	want := `%%MatrixMarket matrix coordinate real symmetric
% written by apsp: 3 vertices, undirected
3 3 2
2 1 2.5
3 2 4.0
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteDIMACSText(t *testing.T) {
	g := wrBuild(t, false, Unweighted, 3, []wrEdge{{0, 2, 0}})
	var buf bytes.Buffer
	if err := WriteDIMACS(&buf, g); err != nil {
		t.Fatal(err)
	}
	want := `c written by apsp: 3 vertices, undirected (each edge written as two arcs), unweighted weights
p sp 3 2
a 1 3 1
a 3 1 1
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestAppendFloatWeight(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{3, "3.0"}, {-1, "-1.0"}, {0.5, "0.5"}, {1e21, "1e+21"}, {1e20, "1e+20"},
		{math.Copysign(0, -1), "0.0"}, {0, "0.0"}, {math.Nextafter(0.3, 1), "0.30000000000000004"},
		{math.SmallestNonzeroFloat64, "5e-324"}, {-math.MaxFloat64, "-1.7976931348623157e+308"},
		{1 << 62, "4.611686018427388e+18"}, {-(1 << 62), "-4.611686018427388e+18"},
	} {
		if got := string(appendFloatWeight(nil, c.x)); got != c.want {
			t.Errorf("appendFloatWeight(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

type wrFailWriter struct{ after int }

var errWrFail = errors.New("disk full")

func (f *wrFailWriter) Write(p []byte) (int, error) {
	if f.after < len(p) {
		n := f.after
		f.after = 0
		return n, errWrFail
	}
	f.after -= len(p)
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	g := wrRandomGraph(t, false, FloatWeights, 2000, 20000, 2)
	for name, write := range map[string]func(*wrFailWriter, *Graph) error{
		"edgelist": func(w *wrFailWriter, g *Graph) error { return WriteEdgeList(w, g) },
		"mtx":      func(w *wrFailWriter, g *Graph) error { return WriteMatrixMarket(w, g) },
		"dimacs":   func(w *wrFailWriter, g *Graph) error { return WriteDIMACS(w, g) },
	} {
		for _, after := range []int{0, 10, 100000} {
			if err := write(&wrFailWriter{after: after}, g); !errors.Is(err, errWrFail) {
				t.Errorf("%s failing after %d bytes: got %v, want %v", name, after, err, errWrFail)
			}
		}
	}
}

func TestWriteEdgeListHeaderReadsBack(t *testing.T) {
	// What the header says comes back without options: the isolated vertices
	// 3..5 and directedness.
	for _, directed := range []bool{false, true} {
		g := wrBuild(t, directed, Unweighted, 6, []wrEdge{{2, 0, 0}})
		var buf bytes.Buffer
		if err := WriteEdgeList(&buf, g); err != nil {
			t.Fatal(err)
		}
		got, err := Read(&buf, "g.txt", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		wrSameGraph(t, got, g)
	}
}

func BenchmarkWriteEdgeList(b *testing.B) {
	g := wrRandomGraph(b, false, FloatWeights, 100000, 1000000, 3)
	b.ResetTimer()
	for b.Loop() {
		if err := WriteEdgeList(&bytes.Buffer{}, g); err != nil {
			b.Fatal(err)
		}
	}
}
