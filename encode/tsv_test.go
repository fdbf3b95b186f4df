package encode

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/npy"
)

// legacyTSV is apsp dist's TSV writer before this package (a cell at a
// time through At): TSV must write the same bytes.
func legacyTSV(w io.Writer, d *apsp.Distances) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	n := d.N()
	var buf []byte
	for u := 0; u < n; u++ {
		buf = buf[:0]
		for v := 0; v < n; v++ {
			if v > 0 {
				buf = append(buf, '\t')
			}
			buf = d.At(u, v).Append(buf)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// legacyNPY is apsp dist's .npy writer before this package (-1 for
// unreachable, no negative weights), kept as the benchmark's baseline.
func legacyNPY(w io.Writer, d *apsp.Distances) error {
	n := d.N()
	if !d.Exact() {
		nw, err := npy.NewWriter(w, npy.Float64, n, n)
		if err != nil {
			return err
		}
		row := make([]float64, n)
		for u := 0; u < n; u++ {
			for v := range row {
				row[v] = d.Float(u, v)
			}
			if err := nw.WriteFloatRow(row); err != nil {
				return err
			}
		}
		return nw.Flush()
	}
	dtype := npy.Int32
	if d.Lanes() == "int64" {
		dtype = npy.Int64
	}
	nw, err := npy.NewWriter(w, dtype, n, n)
	if err != nil {
		return err
	}
	row := make([]int64, n)
	for u := 0; u < n; u++ {
		for v := range row {
			x, ok := d.Int(u, v)
			if !ok {
				x = -1
			}
			row[v] = x
		}
		if err := nw.WriteIntRow(row); err != nil {
			return err
		}
	}
	return nw.Flush()
}

// TSV writes what apsp dist wrote before, byte for byte, on the testdata
// graphs and the dtype cases (negative, huge and float weights).
func TestTSVUnchanged(t *testing.T) {
	files, err := filepath.Glob("../testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	var ds []*apsp.Distances
	var names []string
	for _, f := range files {
		g, err := graph.ReadFile(f, graph.ReadOptions{})
		if err != nil {
			continue // bad.txt
		}
		d, err := apsp.AllPairs(context.Background(), g, apsp.Options{})
		if err != nil {
			continue // negcycle.gr
		}
		ds, names = append(ds, d), append(names, filepath.Base(f))
	}
	if len(ds) < 4 {
		t.Fatalf("only %d testdata graphs: %v", len(ds), names)
	}
	for _, tc := range dtypeCases {
		ds, names = append(ds, distances(t, tc.edges, true)), append(names, tc.name)
	}
	for i, d := range ds {
		var got, want bytes.Buffer
		if err := TSV(&got, d); err != nil {
			t.Fatal(err)
		}
		if err := legacyTSV(&want, d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: TSV differs from the old writer:\n%s\nwant\n%s", names[i], got.Bytes(), want.Bytes())
		}
	}
	// One golden file, so that the old format is pinned beyond this test's
	// copy of the old writer.
	want := "0\t1\t1\tinf\tinf\tinf\n"
	var b bytes.Buffer
	g, err := graph.ReadFile("../testdata/disconnected.txt", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := apsp.AllPairs(context.Background(), g, apsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := TSV(&b, d); err != nil || !strings.HasPrefix(b.String(), want) {
		t.Fatalf("%q, %v", b.String(), err)
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	v := map[string]any{"diameter": apsp.Infinite(false), "aspl": apsp.Mean(math.Inf(1)), "n": 3}
	if err := JSON(&b, v); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"aspl\": null,\n  \"diameter\": null,\n  \"n\": 3\n}\n"
	if b.String() != want {
		t.Fatalf("%q, want %q", b.String(), want)
	}
}

// benchDistances computes a 4096-vertex directed random graph's distances
// (weights 1..1000, or 0.001..1 with float), not strongly connected.
func benchDistances(b *testing.B, float bool) *apsp.Distances {
	b.Helper()
	w := "1..1000"
	if float {
		w = "0.001..1.0"
	}
	spec, err := gen.ParseSpec("gnp", []string{"n=4096", "r=0.2", "weights=" + w, "seed=1", "directed"})
	if err != nil {
		b.Fatal(err)
	}
	g, err := gen.Generate(spec)
	if err != nil {
		b.Fatal(err)
	}
	d, err := apsp.AllPairs(context.Background(), g, apsp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkWrite writes a 4096×4096 matrix: go test -run - -bench Write
// ./encode. "legacy" is the cell-at-a-time writer apsp dist used before.
func BenchmarkWrite(b *testing.B) {
	for _, float := range []bool{false, true} {
		d := benchDistances(b, float)
		kind := "int"
		if float {
			kind = "float"
		}
		for _, w := range []struct {
			name string
			fn   func(io.Writer, *apsp.Distances) error
		}{
			{"tsv/legacy", legacyTSV},
			{"tsv", TSV},
			{"npy/legacy", legacyNPY},
			{"npy", func(w io.Writer, d *apsp.Distances) error { return NPY(w, d, Auto) }},
			{"npydtype", func(w io.Writer, d *apsp.Distances) error { _, err := NPYDtype(d, Auto); return err }},
		} {
			b.Run(kind+"/"+w.name, func(b *testing.B) {
				var cw countWriter
				for b.Loop() {
					if err := w.fn(&cw, d); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(cw.n / int64(b.N))
			})
		}
	}
}

// countWriter discards what it is given and counts it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
