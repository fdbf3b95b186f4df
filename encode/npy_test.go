package encode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/npy"
)

// A dtype test case: a directed graph (edge list) with unreachable pairs,
// the dtype Auto picks ("" when every dtype is refused), and the dtypes that
// are refused.
type dtypeCase struct {
	name    string
	edges   string
	def     Dtype
	refused []Dtype
}

var allDtypes = []Dtype{Int32, Int64, Float32, Float64}

// dtypeCases covers int32, int64, float32 and float64, with and without
// negative weights. Every graph is directed and has unreachable pairs.
var dtypeCases = []dtypeCase{
	{name: "unweighted", edges: "0 1\n1 2\n3 2\n", def: Int32},
	{name: "int", edges: "0 1 3\n1 2 4\n3 2 1\n", def: Int32},
	{name: "int negative", edges: "0 1 -2\n1 2 5\n2 3 -1\n4 3 -7\n", def: Int32},
	// The unreachable sentinel of int32 is its maximum: a distance one
	// below fits, the maximum itself collides.
	{name: "int32 max-1", edges: "0 1 2147483646\n", def: Int32, refused: []Dtype{Float32}},
	{name: "int32 max", edges: "0 1 2147483647\n", def: Int64, refused: []Dtype{Int32, Float32}},
	{name: "int32 min", edges: "0 1 -2147483648\n", def: Int32, refused: []Dtype{Float32}},
	{name: "below int32", edges: "0 1 -2147483649\n", def: Int64, refused: []Dtype{Int32, Float32}},
	{name: "int64", edges: "0 1 3000000000\n1 2 -5\n", def: Int64, refused: []Dtype{Int32, Float32}},
	{name: "int64 negative", edges: "0 1 -3000000000\n2 1 7\n", def: Int64, refused: []Dtype{Int32, Float32}},
	// Wide int64 plans: the largest weight is a real distance.
	{name: "int64 max-1", edges: "0 1 9223372036854775806\n", def: Int64, refused: []Dtype{Int32, Float32, Float64}},
	{name: "int64 max", edges: "0 1 9223372036854775807\n", refused: allDtypes},
	// Floats hold integers exactly up to 2^24 and 2^53.
	{name: "float32 exact", edges: "0 1 16777216\n", def: Int32},
	{name: "beyond float32", edges: "0 1 16777217\n", def: Int32, refused: []Dtype{Float32}},
	{name: "float64 exact", edges: "0 1 -9007199254740992\n", def: Int64, refused: []Dtype{Int32, Float32}},
	{name: "beyond float64", edges: "0 1 9007199254740993\n", def: Int64, refused: []Dtype{Int32, Float32, Float64}},
	{name: "float", edges: "0 1 0.5\n1 2 0.25\n3 0 1.5\n", def: Float64, refused: []Dtype{Int32, Int64}},
	{name: "float negative", edges: "0 1 -0.5\n1 2 2.25\n3 2 -1e-3\n", def: Float64, refused: []Dtype{Int32, Int64}},
	// float32 rounds float distances (0.1 has no exact float32) but
	// refuses those it cannot hold with a bounded relative error.
	{name: "float lossy", edges: "0 1 0.1\n1 2 0.2\n", def: Float64, refused: []Dtype{Int32, Int64}},
	{name: "float beyond float32", edges: "0 1 1e39\n1 2 0.5\n", def: Float64, refused: []Dtype{Int32, Int64, Float32}},
	{name: "float below float32", edges: "0 1 1e-39\n1 2 0.5\n", def: Float64, refused: []Dtype{Int32, Int64, Float32}},
}

func distances(t testing.TB, edges string, directed bool) *apsp.Distances {
	t.Helper()
	g, err := graph.Read(strings.NewReader(edges), "test", graph.ReadOptions{Format: graph.FormatEdgeList, Directed: directed})
	if err != nil {
		t.Fatal(err)
	}
	d, err := apsp.AllPairs(context.Background(), g, apsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// CheckNPY reads a .npy matrix and compares every cell with d under the
// convention: the dtype's maximum or +Inf for unreachable pairs, the exact
// distance otherwise (float32 on float distances: the nearest float32).
func CheckNPY(t *testing.T, b []byte, d *apsp.Distances, dt Dtype) {
	t.Helper()
	a, err := npy.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	n := d.N()
	if a.Descr != string(dt.npyDtype()) || len(a.Shape) != 2 || a.Shape[0] != n || a.Shape[1] != n {
		t.Fatalf("header: descr %s shape %v, want %s (%d, %d)", a.Descr, a.Shape, dt.npyDtype(), n, n)
	}
	size, _ := npy.DescrSize(a.Descr)
	le := binary.LittleEndian
	unreachable := 0
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			c := a.Data[(u*n+v)*size:]
			l := d.At(u, v)
			if l.IsInf() {
				unreachable++
			}
			switch dt {
			case Int32:
				got := int32(le.Uint32(c))
				if l.IsInf() && got != math.MaxInt32 || !l.IsInf() && int64(got) != l.Int() {
					t.Fatalf("d(%d,%d) = %d, want %v (unreachable: MaxInt32)", u, v, got, l)
				}
			case Int64:
				got := int64(le.Uint64(c))
				if l.IsInf() && got != math.MaxInt64 || !l.IsInf() && got != l.Int() {
					t.Fatalf("d(%d,%d) = %d, want %v (unreachable: MaxInt64)", u, v, got, l)
				}
			case Float64:
				got := math.Float64frombits(le.Uint64(c))
				want := l.Float()
				if !l.IsFloat() && !l.IsInf() && int64(got) != l.Int() || got != want {
					t.Fatalf("d(%d,%d) = %v, want %v", u, v, got, l)
				}
			case Float32:
				got := math.Float32frombits(le.Uint32(c))
				want := float32(l.Float())
				if !l.IsFloat() && !l.IsInf() && int64(got) != l.Int() || got != want {
					t.Fatalf("d(%d,%d) = %v, want %v", u, v, got, l)
				}
			}
		}
	}
	if unreachable == 0 {
		t.Fatalf("no unreachable pair: the test graph does not test the sentinel")
	}
}

func TestNPYDtypes(t *testing.T) {
	for _, tc := range dtypeCases {
		t.Run(tc.name, func(t *testing.T) {
			d := distances(t, tc.edges, true)
			got, err := NPYDtype(d, Auto)
			if tc.def == "" {
				if !errors.Is(err, ErrDtype) {
					t.Fatalf("default dtype %q, %v: want a refusal", got, err)
				}
				var b bytes.Buffer
				if err := NPY(&b, d, Auto); !errors.Is(err, ErrDtype) || b.Len() > 0 {
					t.Fatalf("NPY wrote %d bytes, %v: want a refusal and nothing written", b.Len(), err)
				}
			} else if err != nil || got != tc.def {
				t.Fatalf("default dtype %q, %v: want %s", got, err, tc.def)
			} else {
				var b bytes.Buffer
				if err := NPY(&b, d, Auto); err != nil {
					t.Fatal(err)
				}
				CheckNPY(t, b.Bytes(), d, tc.def)
			}
			for _, dt := range allDtypes {
				var b bytes.Buffer
				err := NPY(&b, d, dt)
				if refused := containsDtype(tc.refused, dt); refused {
					if !errors.Is(err, ErrDtype) || !strings.Contains(err.Error(), string(dt)) || b.Len() > 0 {
						t.Fatalf("%s: %v, %d bytes written: want a refusal naming the dtype and nothing written", dt, err, b.Len())
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", dt, err)
				}
				CheckNPY(t, b.Bytes(), d, dt)
			}
		})
	}
}

func containsDtype(ds []Dtype, d Dtype) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// The refusals say why: a collision with the sentinel, or a value beyond
// the dtype.
func TestNPYRefusalMessages(t *testing.T) {
	tests := []struct {
		edges string
		dt    Dtype
		want  string
	}{
		{"0 1 2147483647\n", Int32, "cannot write int32: distance 2147483647 is its maximum, which stands for unreachable (use int64)"},
		{"0 1 3000000000\n", Int32, "distance 3000000000 is beyond what it holds exactly (use int64)"},
		{"0 1 -3000000000\n", Int32, "distance -3000000000 is beyond"},
		{"0 1 9223372036854775807\n", Int64, "distance 9223372036854775807 is its maximum, which stands for unreachable\n"},
		{"0 1 9223372036854775807\n", Int32, "distance 9223372036854775807 is beyond what it holds exactly\n"},
		{"0 1 9223372036854775807\n", Auto, "no dtype holds distance 9223372036854775807 exactly"},
		{"0 1 16777217\n", Float32, "(use float64)"},
		{"0 1 0.5\n", Int64, "the distances are floats"},
		{"0 1 1e39\n", Float32, "beyond float32's range"},
	}
	for _, tt := range tests {
		d := distances(t, tt.edges, true)
		_, err := NPYDtype(d, tt.dt)
		if err == nil || !strings.Contains(err.Error()+"\n", tt.want) {
			t.Errorf("%q as %q: %v, want %q", tt.edges, tt.dt, err, tt.want)
		}
	}
}

func TestParseDtype(t *testing.T) {
	for _, s := range []string{"int32", "int64", "float32", "float64", "auto", ""} {
		if _, err := ParseDtype(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"int16", "uint32", "<i4", "Int32"} {
		if _, err := ParseDtype(s); err == nil {
			t.Errorf("%q: want an error", s)
		}
	}
	if _, err := NPYDtype(distances(t, "0 1\n", false), "int8"); err == nil {
		t.Error("NPYDtype took int8")
	}
}

// The row accessors agree with At on every cell, reusing dst.
func TestRows(t *testing.T) {
	for _, tc := range dtypeCases {
		d := distances(t, tc.edges, true)
		n := d.N()
		var ls []apsp.Length
		var is []int64
		var fs []float64
		for u := 0; u < n; u++ {
			ls = d.Row(u, ls)
			fs = d.RowFloat64(u, fs)
			if d.Exact() {
				is = d.RowInt64(u, is, -42)
			}
			if len(ls) != n || len(fs) != n {
				t.Fatalf("%s: rows of %d and %d, want %d", tc.name, len(ls), len(fs), n)
			}
			for v := 0; v < n; v++ {
				l := d.At(u, v)
				if ls[v] != l || fs[v] != l.Float() {
					t.Fatalf("%s: row %d[%d] = %v, %v, want %v", tc.name, u, v, ls[v], fs[v], l)
				}
				if d.Exact() && (l.IsInf() && is[v] != -42 || !l.IsInf() && is[v] != l.Int()) {
					t.Fatalf("%s: RowInt64 %d[%d] = %d, want %v", tc.name, u, v, is[v], l)
				}
			}
		}
	}
	d := distances(t, "0 1 0.5\n", true)
	defer func() {
		if recover() == nil {
			t.Error("RowInt64 on float distances did not panic")
		}
	}()
	d.RowInt64(0, nil, 0)
}
