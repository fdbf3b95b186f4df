package lanes

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/reduce"
)

func TestPadStrideAndBytes(t *testing.T) {
	for _, k := range Kinds() {
		per := 64 / k.Bytes()
		for _, size := range []int{0, 1, 15, 16, 64, 100, 1024, 4097} {
			s := PadStride(size, k)
			if s < size || s%per != 0 || (s/per)%2 != 1 {
				t.Errorf("%v: PadStride(%d) = %d", k, size, s)
			}
			b, err := MatrixBytes(size, k)
			if err != nil || b != uint64(size)*uint64(s)*uint64(k.Bytes()) {
				t.Errorf("%v: MatrixBytes(%d) = %d, %v", k, size, b, err)
			}
		}
		if _, err := MatrixBytes(1<<40, k); !errors.Is(err, graph.ErrTooLarge) {
			t.Errorf("%v: MatrixBytes(2^40): %v", k, err)
		}
	}
	if _, err := MatrixBytes(4, 0); err == nil {
		t.Error("MatrixBytes of an invalid kind")
	}
}

// sparse is a directed graph with small weights (0..3, or 0.5..3.5) and
// unreachable pairs.
func sparse(rng *rand.Rand, n int, float bool) *graph.Graph {
	b := graph.NewBuilder(true)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	for range 2 * n {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v {
			continue
		}
		var err error
		if float {
			err = b.AddFloatEdge(u, v, 0.5+float64(rng.IntN(4)))
		} else {
			err = b.AddIntEdge(u, v, rng.Int64N(4))
		}
		if err != nil {
			panic(err)
		}
	}
	return b.Build()
}

// TestAny builds a matrix of every kind through New and checks every
// accessor of the erased matrix against direct reads of the Matrix[T].
func TestAny(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 70, 130} {
		gi, gf := sparse(rng, n, false), sparse(rng, n, true)
		for _, k := range Kinds() {
			g := gi
			if k.IsFloat() && n%2 == 1 {
				g = gf
			}
			size := n + n%5
			a, err := New(k, g, size, false)
			if err != nil {
				t.Fatalf("New(%v): %v", k, err)
			}
			if a.Kind() != k || a.Vertices() != n || a.Wide() {
				t.Fatalf("%v: Kind %v Vertices %d Wide %v", k, a.Kind(), a.Vertices(), a.Wide())
			}
			checkAnyOf(t, a)
		}
	}
}

// checkAnyOf dispatches on the kind to the typed check (tests may switch).
func checkAnyOf(t *testing.T, a Any) {
	t.Helper()
	switch m := a.(type) {
	case *Matrix[int8]:
		checkAny(t, m)
	case *Matrix[int16]:
		checkAny(t, m)
	case *Matrix[int32]:
		checkAny(t, m)
	case *Matrix[int64]:
		checkAny(t, m)
	case *Matrix[float32]:
		checkAny(t, m)
	case *Matrix[float64]:
		checkAny(t, m)
	default:
		t.Fatalf("New returned %T", a)
	}
}

func checkAny[T Lane](t *testing.T, m *Matrix[T]) {
	t.Helper()
	var a Any = m
	k := a.Kind()
	if KindOf[T]() != k || m.Stride != PadStride(m.Size, k) || len(m.Data) != m.Size*m.Stride {
		t.Fatalf("%v: layout %d/%d/%d", k, m.N, m.Size, m.Stride)
	}
	const unreachable = -7
	prefix := []int64{42}
	want := make([]reduce.Row, m.N)
	for u := 0; u < m.N; u++ {
		ri := a.RowInt64(u, prefix, unreachable)
		rf := a.RowFloat64(u, nil)
		if len(ri) != m.N+1 || ri[0] != 42 || len(rf) != m.N {
			t.Fatalf("%v: row lengths %d %d", k, len(ri), len(rf))
		}
		ri = ri[1:]
		for v := 0; v < m.N; v++ {
			x := m.At(u, v)
			inf := x == m.Inf
			if m.Data[u*m.Stride+v] != x || a.IsInf(u, v) != inf {
				t.Fatalf("%v: IsInf(%d,%d) = %v for %v", k, u, v, a.IsInf(u, v), x)
			}
			i, ok := a.Int(u, v)
			f := a.Float(u, v)
			switch {
			case inf:
				if ok || i != 0 || !math.IsInf(f, 1) || ri[v] != unreachable || !math.IsInf(rf[v], 1) {
					t.Fatalf("%v: (%d,%d) infinite: Int %d %v Float %v rows %d %v", k, u, v, i, ok, f, ri[v], rf[v])
				}
			default:
				if !ok || i != int64(x) || f != float64(x) || ri[v] != int64(x) || rf[v] != float64(x) {
					t.Fatalf("%v: (%d,%d) = %v: Int %d %v Float %v rows %d %v", k, u, v, x, i, ok, f, ri[v], rf[v])
				}
			}
			switch {
			case v == u:
			case inf:
				want[u].Unreach = true
			case k.IsFloat():
				want[u].AddFloat(float64(x))
			default:
				want[u].AddInt(int64(x))
			}
		}
	}
	for _, threads := range []int{1, 3} {
		if got := a.Rows(threads); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: Rows(%d) = %+v, want %+v", k, threads, got, want)
		}
	}
}

// TestAnyWide checks a wide int64 matrix: InfWide marks no path and
// lengths up to MaxInt64 read back exactly.
func TestAnyWide(t *testing.T) {
	b := graph.NewBuilder(true)
	if err := b.SetVertices(4); err != nil { // vertex 3 is isolated
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := b.AddIntEdge(i, i+1, math.MaxInt64/2); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	p, err := PlanFor(g)
	if err != nil || !p.Wide {
		t.Fatalf("plan %+v, %v", p, err)
	}
	a, err := New(Int64, g, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	m := a.(*Matrix[int64])
	if !a.Wide() || m.Inf != InfWide {
		t.Fatalf("Wide %v Inf %d", a.Wide(), m.Inf)
	}
	m.Data[0*m.Stride+2] = math.MaxInt64 - 1 // as Floyd–Warshall leaves it
	if d, ok := a.Int(0, 2); !ok || d != math.MaxInt64-1 {
		t.Fatalf("Int(0,2) = %d, %v", d, ok)
	}
	if !a.IsInf(0, 3) || a.IsInf(0, 1) || !math.IsInf(a.Float(3, 0), 1) {
		t.Fatal("IsInf / Float of a wide matrix")
	}
	if row := a.RowInt64(0, nil, -1); row[0] != 0 || row[1] != math.MaxInt64/2 || row[2] != math.MaxInt64-1 || row[3] != -1 {
		t.Fatalf("RowInt64(0) = %v", row)
	}
	Normalize(m, p.MaxReal) // leaves wide matrices alone
	if m.At(0, 2) != math.MaxInt64-1 {
		t.Fatal("Normalize touched a wide matrix")
	}
	rows := a.Rows(2)
	if rows[0].Reach != 2 || rows[0].MaxI != math.MaxInt64-1 || !rows[0].Unreach || rows[3].Reach != 0 {
		t.Fatalf("Rows: %+v", rows)
	}
	checkAnyOf(t, a)
}

// TestNewRefuses checks the weights New will not convert.
func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name string
		kind Kind
		g    *graph.Graph
		wide bool
		err  error
	}{
		{"wide int32", Int32, path(t, 3, 1), true, nil},
		{"wide with a negative weight", Int64, path(t, 3, -1), true, nil},
		{"float weights in int16", Int16, floatPath(t, 3, 1), false, ErrNoKind},
		{"-63 in int8", Int8, path(t, 3, -63), false, ErrNoKind},
		{"-1 in int16 (packed lanes take no negative weight)", Int16, path(t, 3, -1), false, ErrNoKind},
		{"2^30 in int32", Int32, path(t, 3, 1<<30), false, ErrWeightsTooLarge},
		{"1e39 in float32", Float32, floatPath(t, 3, 1e39), false, ErrWeightsTooLarge},
		{"invalid kind", 0, path(t, 3, 1), false, nil},
	}
	for _, tt := range tests {
		a, err := New(tt.kind, tt.g, 0, tt.wide)
		if err == nil || a != nil || (tt.err != nil && !errors.Is(err, tt.err)) {
			t.Errorf("%s: %v, %v", tt.name, a, err)
		}
	}
	for _, ok := range []struct {
		kind Kind
		g    *graph.Graph
	}{{Int8, path(t, 3, 62)}, {Int8, path(t, 3, 0)}, {Float32, floatPath(t, 3, 1e38)}, {Float64, path(t, 3, 1<<60)}, {Int16, graph.NewBuilder(true).Build()}} {
		if _, err := New(ok.kind, ok.g, 0, false); err != nil {
			t.Errorf("%v: %v", ok.kind, err)
		}
	}
	// Packed lanes store a weight at or above their infinity as infinity,
	// never wrapped: 63, 64 and 2^32+1 in int8, 65 537 in int16.
	for _, c := range []struct {
		kind Kind
		w    int64
	}{{Int8, 63}, {Int8, 64}, {Int8, 1<<32 + 1}, {Int16, 16383}, {Int16, 65537}, {Int16, 1<<32 + 1}} {
		a, err := New(c.kind, path(t, 3, c.w), 0, false)
		if err != nil {
			t.Fatalf("%v weight %d: %v", c.kind, c.w, err)
		}
		if !a.IsInf(0, 1) || a.IsInf(0, 0) {
			d, _ := a.Int(0, 1)
			t.Errorf("%v weight %d: stored as %d", c.kind, c.w, d)
		}
	}
}

// TestNormalize checks every integer kind: values above MaxReal (infinity
// plus a negative length) become Inf; float matrices are left alone.
func TestNormalize(t *testing.T) {
	normalizeKind[int8](t)
	normalizeKind[int16](t)
	normalizeKind[int32](t)
	normalizeKind[int64](t)
	normalizeKind[float32](t)
	normalizeKind[float64](t)
}

func normalizeKind[T Lane](t *testing.T) {
	g := path(t, 4, -2)
	p, err := PlanFor(g)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatrix[T](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Data[3*m.Stride+1] = m.Inf - 2 // Inf plus an arc of −2
	Normalize(m, p.MaxReal)
	if KindOf[T]().IsFloat() {
		if !math.IsInf(float64(m.At(3, 1)), 1) {
			t.Errorf("%T: %v", m.Inf, m.At(3, 1))
		}
		return
	}
	if m.At(3, 1) != m.Inf || m.At(0, 1) != -2 || m.At(1, 1) != 0 {
		t.Errorf("%T: row 3 %v row 0 %v", m.Inf, m.Row(3), m.Row(0))
	}
}
