package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/encode"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/npy"
)

// distOf computes what apsp dist --directed computes for an edge list.
func distOf(t *testing.T, edges string, directed bool) *apsp.Distances {
	t.Helper()
	g, err := graph.Read(strings.NewReader(edges), "stdin", graph.ReadOptions{Format: graph.FormatEdgeList, Directed: directed})
	if err != nil {
		t.Fatal(err)
	}
	d, err := apsp.AllPairs(context.Background(), g, apsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkNPY compares every cell of a .npy file with d under the convention:
// the dtype's maximum (integers) or +Inf (floats) for unreachable pairs.
func checkNPY(t *testing.T, path string, d *apsp.Distances, descr string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := npy.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	n := d.N()
	if a.Descr != descr || len(a.Shape) != 2 || a.Shape[0] != n || a.Shape[1] != n {
		t.Fatalf("header: descr %s shape %v, want %s (%d, %d)", a.Descr, a.Shape, descr, n, n)
	}
	size, _ := npy.DescrSize(descr)
	le := binary.LittleEndian
	var inf int
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			c := a.Data[(u*n+v)*size:]
			l := d.At(u, v)
			var ok bool
			switch descr {
			case "|u1":
				ok = l.IsInf() && c[0] == math.MaxUint8 || !l.IsInf() && int64(c[0]) == l.Int()
			case "<i2":
				x := int16(le.Uint16(c))
				ok = l.IsInf() && x == math.MaxInt16 || !l.IsInf() && int64(x) == l.Int()
			case "<u2":
				x := le.Uint16(c)
				ok = l.IsInf() && x == math.MaxUint16 || !l.IsInf() && int64(x) == l.Int()
			case "<i4":
				x := int32(le.Uint32(c))
				ok = l.IsInf() && x == math.MaxInt32 || !l.IsInf() && int64(x) == l.Int()
			case "<i8":
				x := int64(le.Uint64(c))
				ok = l.IsInf() && x == math.MaxInt64 || !l.IsInf() && x == l.Int()
			case "<f4":
				x := math.Float32frombits(le.Uint32(c))
				ok = x == float32(l.Float()) && (l.IsFloat() || l.IsInf() || int64(x) == l.Int())
			case "<f8":
				x := math.Float64frombits(le.Uint64(c))
				ok = x == l.Float() && (l.IsFloat() || l.IsInf() || int64(x) == l.Int())
			}
			if !ok {
				t.Fatalf("%s cell (%d,%d) wrong: want %v", descr, u, v, l)
			}
			if l.IsInf() {
				inf++
			}
		}
	}
	if inf == 0 {
		t.Fatal("no unreachable pair: the graph does not test the sentinel")
	}
}

// apsp dist -o d.npy writes one convention for every graph, with and
// without negative weights, in every dtype, and refuses the dtypes that
// cannot hold the distances (writing no file).
func TestDistNPYDtypes(t *testing.T) {
	const refused = "refused"
	graphs := []struct {
		name, edges string
		want        map[string]string // --dtype -> descr or refused
	}{
		{"int", "0 1 3\n1 2 4\n3 2 1\n", map[string]string{
			"auto": "|u1", "uint8": "|u1", "int16": "<i2", "uint16": "<u2", "int32": "<i4", "int64": "<i8", "float32": "<f4", "float64": "<f8"}},
		{"uint8 max", "0 1 255\n", map[string]string{
			"auto": "<u2", "uint8": refused, "int16": "<i2", "uint16": "<u2", "int32": "<i4", "int64": "<i8", "float32": "<f4", "float64": "<f8"}},
		{"int negative", "0 1 -2\n1 2 5\n2 3 -1\n4 3 -7\n", map[string]string{
			"auto": "<i2", "uint8": refused, "int16": "<i2", "uint16": refused, "int32": "<i4", "int64": "<i8", "float32": "<f4", "float64": "<f8"}},
		{"int16 max", "0 1 32767\n1 2 -1\n", map[string]string{
			"auto": "<i4", "uint8": refused, "int16": refused, "uint16": refused, "int32": "<i4", "int64": "<i8", "float32": "<f4", "float64": "<f8"}},
		{"uint16 max", "0 1 65535\n", map[string]string{
			"auto": "<i4", "uint8": refused, "int16": refused, "uint16": refused, "int32": "<i4", "int64": "<i8", "float32": "<f4", "float64": "<f8"}},
		{"int32 max", "0 1 2147483647\n1 2 -1\n", map[string]string{
			"auto": "<i8", "uint8": refused, "int16": refused, "uint16": refused, "int32": refused, "int64": "<i8", "float32": refused, "float64": "<f8"}},
		{"int64 negative", "0 1 -3000000000\n2 1 7\n", map[string]string{
			"auto": "<i8", "uint8": refused, "int16": refused, "uint16": refused, "int32": refused, "int64": "<i8", "float32": refused, "float64": "<f8"}},
		{"int64 max", "0 1 9223372036854775807\n", map[string]string{
			"auto": refused, "uint8": refused, "int16": refused, "uint16": refused, "int32": refused, "int64": refused, "float32": refused, "float64": refused}},
		{"float", "0 1 0.5\n1 2 0.25\n3 0 1.5\n", map[string]string{
			"auto": "<f8", "uint8": refused, "int16": refused, "uint16": refused, "int32": refused, "int64": refused, "float32": "<f4", "float64": "<f8"}},
		{"float negative", "0 1 -0.5\n1 2 2.1\n3 2 -1e-3\n", map[string]string{
			"auto": "<f8", "uint8": refused, "int16": refused, "uint16": refused, "int32": refused, "int64": refused, "float32": "<f4", "float64": "<f8"}},
	}
	dir := t.TempDir()
	for _, gc := range graphs {
		d := distOf(t, gc.edges, true)
		for _, dt := range []string{"auto", "uint8", "int16", "uint16", "int32", "int64", "float32", "float64"} {
			t.Run(gc.name+"/"+dt, func(t *testing.T) {
				out := filepath.Join(dir, strings.ReplaceAll(gc.name, " ", "_")+"-"+dt+".npy")
				args := []string{"dist", "--directed", "-", "-o", out}
				if dt != "auto" {
					args = append(args, "--dtype", dt)
				}
				code, _, errs := run(t, gc.edges, args...)
				if gc.want[dt] == refused {
					if code != 1 || !strings.Contains(errs, "cannot write") {
						t.Fatalf("exit %d, stderr %q: want a refusal", code, errs)
					}
					if _, err := os.Stat(out); !os.IsNotExist(err) {
						t.Fatalf("a refused dtype left a file: %v", err)
					}
					return
				}
				if code != 0 || errs != "" {
					t.Fatalf("exit %d, stderr %q", code, errs)
				}
				checkNPY(t, out, d, gc.want[dt])
			})
		}
	}
}

func TestDistNPY(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.npy")
	code, _, errs := run(t, "", "dist", "../../testdata/disconnected.txt", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x93NUMPY\x01\x00")) {
		t.Fatalf("not an npy file: %q", b[:10])
	}
	hlen := int(binary.LittleEndian.Uint16(b[8:10]))
	header := string(b[10 : 10+hlen])
	// Hop distances: the default is one byte, 255 for unreachable.
	if !strings.Contains(header, "'descr': '|u1'") || !strings.Contains(header, "'shape': (6, 6)") || (10+hlen)%64 != 0 {
		t.Fatalf("bad header %q", header)
	}
	data := b[10+hlen:]
	if len(data) != 36 {
		t.Fatalf("%d data bytes, want %d", len(data), 36)
	}
	at := func(i, j int) uint8 { return data[i*6+j] }
	if at(0, 1) != 1 || at(0, 3) != math.MaxUint8 || at(3, 5) != 2 || at(4, 4) != 0 {
		t.Fatalf("wrong values: d(0,1)=%d d(0,3)=%d d(3,5)=%d", at(0, 1), at(0, 3), at(3, 5))
	}
}

func TestDistUsage(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"dist", "../../testdata/karate.txt", "--dtype", "int32"}, 2, "--dtype int32 needs -o FILE.npy"},
		{[]string{"dist", "../../testdata/karate.txt", "-o", "x.tsv", "--dtype", "float64"}, 2, "needs -o FILE.npy"},
		{[]string{"dist", "../../testdata/karate.txt", "-o", "x.npy", "--dtype", "int8"}, 2, `unknown dtype "int8"`},
		{[]string{"dist", "-h"}, 0, ""},
	}
	for _, tt := range tests {
		code, out, errs := run(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", tt.args, code, errs, tt.code, tt.stderr)
		}
		if tt.code == 0 && (!strings.Contains(out, "--dtype") || !strings.Contains(out, "np.iinfo(d.dtype).max")) {
			t.Errorf("dist help lacks --dtype and the numpy conversion:\n%s", out)
		}
	}
}

// apsp dist's TSV is package encode's, which keeps the old bytes.
func TestDistTSV(t *testing.T) {
	inputs := []struct{ name, stdin string }{
		{"../../testdata/disconnected.txt", ""},
		{"../../testdata/weighted.txt", ""},
		{"../../testdata/small.gr", ""},
		{"-", "0 1 -2\n1 2 5\n2 3 -1\n"},
		{"-", "0 1 0.1\n1 2 2.5e-7\n3 2 1e300\n"},
		{"-", "0 1 9223372036854775807\n"},
	}
	for _, in := range inputs {
		code, out, errs := run(t, in.stdin, "dist", "--directed", in.name)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", in.name, code, errs)
		}
		var g *graph.Graph
		var err error
		if in.name == "-" {
			g, err = graph.Read(strings.NewReader(in.stdin), "stdin", graph.ReadOptions{Directed: true})
		} else {
			g, err = graph.ReadFile(in.name, graph.ReadOptions{Directed: true})
		}
		if err != nil {
			t.Fatal(err)
		}
		d, err := apsp.AllPairs(context.Background(), g, apsp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := encode.TSV(&want, d); err != nil {
			t.Fatal(err)
		}
		if out != want.String() {
			t.Errorf("%s %q: got\n%s\nwant\n%s", in.name, in.stdin, out, want.String())
		}
	}
}
