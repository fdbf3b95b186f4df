package encode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
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

var allDtypes = []Dtype{Uint8, Int16, Uint16, Int32, Int64, Float32, Float64}

// narrow are the dtypes of one and two bytes; ints every integer dtype.
var (
	narrow = []Dtype{Uint8, Int16, Uint16}
	ints   = []Dtype{Uint8, Int16, Uint16, Int32, Int64}
)

// with returns ds followed by more, in a new slice.
func with(ds []Dtype, more ...Dtype) []Dtype {
	return append(append([]Dtype(nil), ds...), more...)
}

// path returns a directed path of k arcs: hop distances up to k.
func path(k int) string {
	var b strings.Builder
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	return b.String()
}

// dtypeCases covers every dtype, with and without negative weights, at
// each integer dtype's boundaries (its maximum is the unreachable
// sentinel). Every graph is directed and has unreachable pairs.
var dtypeCases = []dtypeCase{
	{name: "unweighted", edges: "0 1\n1 2\n3 2\n", def: Uint8},
	{name: "hops 254", edges: path(254), def: Uint8},
	{name: "hops 255", edges: path(255), def: Uint16, refused: []Dtype{Uint8}},
	{name: "int", edges: "0 1 3\n1 2 4\n3 2 1\n", def: Uint8},
	{name: "int negative", edges: "0 1 -2\n1 2 5\n2 3 -1\n4 3 -7\n", def: Int16, refused: []Dtype{Uint8, Uint16}},
	{name: "uint8 max-1", edges: "0 1 254\n", def: Uint8},
	{name: "uint8 max", edges: "0 1 255\n", def: Uint16, refused: []Dtype{Uint8}},
	{name: "int16 max-1", edges: "0 1 32766\n", def: Uint16, refused: []Dtype{Uint8}},
	{name: "int16 max", edges: "0 1 32767\n", def: Uint16, refused: []Dtype{Uint8, Int16}},
	{name: "int16 max-1 negative", edges: "0 1 32766\n2 1 -1\n", def: Int16, refused: []Dtype{Uint8, Uint16}},
	{name: "int16 max negative", edges: "0 1 32767\n2 1 -1\n", def: Int32, refused: narrow},
	{name: "int16 min", edges: "0 1 -32768\n", def: Int16, refused: []Dtype{Uint8, Uint16}},
	{name: "below int16", edges: "0 1 -32769\n", def: Int32, refused: narrow},
	{name: "uint16 max-1", edges: "0 1 65534\n", def: Uint16, refused: []Dtype{Uint8, Int16}},
	{name: "uint16 max", edges: "0 1 65535\n", def: Int32, refused: narrow},
	// The unreachable sentinel of int32 is its maximum: a distance one
	// below fits, the maximum itself collides.
	{name: "int32 max-1", edges: "0 1 2147483646\n", def: Int32, refused: with(narrow, Float32)},
	{name: "int32 max", edges: "0 1 2147483647\n", def: Int64, refused: with(narrow, Int32, Float32)},
	{name: "int32 min", edges: "0 1 -2147483648\n", def: Int32, refused: with(narrow, Float32)},
	{name: "below int32", edges: "0 1 -2147483649\n", def: Int64, refused: with(narrow, Int32, Float32)},
	{name: "int64", edges: "0 1 3000000000\n1 2 -5\n", def: Int64, refused: with(narrow, Int32, Float32)},
	{name: "int64 negative", edges: "0 1 -3000000000\n2 1 7\n", def: Int64, refused: with(narrow, Int32, Float32)},
	// Wide int64 plans: the largest weight is a real distance.
	{name: "int64 max-1", edges: "0 1 9223372036854775806\n", def: Int64, refused: with(narrow, Int32, Float32, Float64)},
	{name: "int64 max", edges: "0 1 9223372036854775807\n", refused: allDtypes},
	// Floats hold integers exactly up to 2^24 and 2^53.
	{name: "float32 exact", edges: "0 1 16777216\n", def: Int32, refused: narrow},
	{name: "beyond float32", edges: "0 1 16777217\n", def: Int32, refused: with(narrow, Float32)},
	{name: "float64 exact", edges: "0 1 -9007199254740992\n", def: Int64, refused: with(narrow, Int32, Float32)},
	{name: "beyond float64", edges: "0 1 9007199254740993\n", def: Int64, refused: with(narrow, Int32, Float32, Float64)},
	{name: "float", edges: "0 1 0.5\n1 2 0.25\n3 0 1.5\n", def: Float64, refused: ints},
	{name: "float negative", edges: "0 1 -0.5\n1 2 2.25\n3 2 -1e-3\n", def: Float64, refused: ints},
	// float32 rounds float distances (0.1 has no exact float32) but
	// refuses those it cannot hold with a bounded relative error.
	{name: "float lossy", edges: "0 1 0.1\n1 2 0.2\n", def: Float64, refused: ints},
	{name: "float beyond float32", edges: "0 1 1e39\n1 2 0.5\n", def: Float64, refused: with(ints, Float32)},
	{name: "float below float32", edges: "0 1 1e-39\n1 2 0.5\n", def: Float64, refused: with(ints, Float32)},
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
			if _, sentinel, isInt := intRange(dt); isInt {
				got := readInt(dt, c)
				if l.IsInf() && got != sentinel || !l.IsInf() && got != l.Int() {
					t.Fatalf("d(%d,%d) = %d, want %v (unreachable: %d)", u, v, got, l, sentinel)
				}
				continue
			}
			switch dt {
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

// readInt reads one element of integer dtype dt.
func readInt(dt Dtype, c []byte) int64 {
	le := binary.LittleEndian
	switch dt {
	case Uint8:
		return int64(c[0])
	case Int16:
		return int64(int16(le.Uint16(c)))
	case Uint16:
		return int64(le.Uint16(c))
	case Int32:
		return int64(int32(le.Uint32(c)))
	}
	return int64(le.Uint64(c))
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
		{"0 1 255\n", Uint8, "cannot write uint8: distance 255 is its maximum, which stands for unreachable (use uint16)\n"},
		{"0 1 256\n", Uint8, "cannot write uint8: distance 256 is beyond what it holds exactly (use uint16)\n"},
		{"0 1 -1\n", Uint8, "cannot write uint8: distance -1 is negative (use int16)\n"},
		{"0 1 -1\n", Uint16, "cannot write uint16: distance -1 is negative (use int16)\n"},
		{"0 1 32767\n", Int16, "cannot write int16: distance 32767 is its maximum, which stands for unreachable (use uint16)\n"},
		{"0 1 40000\n2 1 -1\n", Int16, "cannot write int16: distance 40000 is beyond what it holds exactly (use int32)\n"},
		{"0 1 -40000\n", Int16, "cannot write int16: distance -40000 is beyond what it holds exactly (use int32)\n"},
		{"0 1 65535\n", Uint16, "cannot write uint16: distance 65535 is its maximum, which stands for unreachable (use int32)\n"},
		{"0 1 0.5\n", Uint8, "cannot write uint8: the distances are floats (use float64, or float32 to round them)\n"},
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
	for _, s := range []string{"uint8", "int16", "uint16", "int32", "int64", "float32", "float64", "auto", ""} {
		if _, err := ParseDtype(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"int8", "uint32", "uint64", "<i4", "|u1", "Int32"} {
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

// NPY writes an origin–destination matrix as a Rows×Cols array: each cell
// the distance, the sentinel or +Inf where there is no path.
func TestNPYSourceDistances(t *testing.T) {
	g, err := graph.Read(strings.NewReader("0 1 3\n1 2 4\n3 2 1\n"), "test", graph.ReadOptions{Format: graph.FormatEdgeList, Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	var _ Matrix = (*apsp.SourceDistances)(nil)
	d, err := apsp.DistancesBetween(context.Background(), g, []int{2, 0, 1}, []int{2, 3}, apsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dt   Dtype
		want []float64 // row by row
	}{
		{Uint8, []float64{0, 255, 7, 255, 4, 255}},
		{Float64, []float64{0, math.Inf(1), 7, math.Inf(1), 4, math.Inf(1)}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := NPY(&b, d, tt.dt); err != nil {
			t.Fatal(err)
		}
		a, err := npy.Read(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Shape, []int{3, 2}) || a.Descr != string(tt.dt.npyDtype()) {
			t.Fatalf("%s: descr %s shape %v, want (3, 2)", tt.dt, a.Descr, a.Shape)
		}
		size, _ := npy.DescrSize(a.Descr)
		for i, want := range tt.want {
			c := a.Data[i*size:]
			got := float64(readInt(tt.dt, c))
			if tt.dt == Float64 {
				got = math.Float64frombits(binary.LittleEndian.Uint64(c))
			}
			if got != want {
				t.Fatalf("%s: cell %d = %v, want %v", tt.dt, i, got, want)
			}
		}
	}
}
