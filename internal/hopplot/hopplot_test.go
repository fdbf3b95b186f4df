package hopplot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// karate is the hop histogram of Zachary's karate club.
var karate = []int64{0, 156, 530, 274, 146, 16}

// valid checks that b is a well-formed file of format f.
func valid(t *testing.T, f Format, b []byte) {
	t.Helper()
	switch f {
	case SVG:
		d := xml.NewDecoder(bytes.NewReader(b))
		root := ""
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("SVG does not parse as XML: %v", err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Fatalf("SVG root element %q", root)
		}
	case PNG:
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		if r := img.Bounds(); r.Dx() < 400 || r.Dy() < 200 {
			t.Fatalf("PNG only %v", r)
		}
	case PDF:
		if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b[len(b)-64:], []byte("%%EOF")) {
			t.Fatalf("not a PDF: %q…", b[:min(len(b), 16)])
		}
	}
}

// Every format, every mode, and the awkward histograms (empty, a single
// vertex, zero-length pairs, gaps of zero on a log axis, many distances)
// draw a valid file, written through a real file as apsp hist does.
func TestDraw(t *testing.T) {
	hists := []struct {
		name        string
		count       []int64
		unreachable int64
	}{
		{"karate", karate, 0},
		{"disconnected", []int64{0, 10, 2}, 18},
		{"no pair", []int64{0}, 0},
		{"nothing", nil, 0},
		{"all unreachable", []int64{0}, 12},
		{"zero length", []int64{4, 0, 0, 7}, 0},
		{"long", append(make([]int64, 500), 3), 1},
	}
	dir := t.TempDir()
	for _, f := range []Format{SVG, PDF, PNG} {
		for _, h := range hists {
			for _, mode := range []Options{{}, {Log: true}, {Cumulative: true}, {Log: true, Cumulative: true}, {Weighted: true}} {
				opt := mode
				opt.Format, opt.Title = f, "g.txt"
				path := filepath.Join(dir, "h."+string(f))
				out, err := os.Create(path)
				if err != nil {
					t.Fatal(err)
				}
				err = Draw(out, h.count, h.unreachable, opt)
				if cerr := out.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatalf("%s %s %+v: %v", f, h.name, mode, err)
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				valid(t, f, b)
			}
		}
	}
}

// --log and --cumulative change the drawing; the same options draw the
// same bytes.
func TestModesDiffer(t *testing.T) {
	draw := func(opt Options) string {
		opt.Format, opt.Title = SVG, "karate.txt"
		var b bytes.Buffer
		if err := Draw(&b, karate, 0, opt); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	modes := []Options{{}, {Log: true}, {Cumulative: true}, {Log: true, Cumulative: true}, {Weighted: true}}
	seen := map[string]Options{}
	for _, m := range modes {
		s := draw(m)
		if s != draw(m) {
			t.Errorf("%+v: two drawings differ", m)
		}
		if prev, ok := seen[s]; ok {
			t.Errorf("%+v draws the same as %+v", m, prev)
		}
		seen[s] = m
	}
	for _, tc := range []struct {
		opt  Options
		want []string
	}{
		{Options{}, []string{"distance (hops)", "pairs", "karate.txt", "1122 reachable ordered pairs, 0 unreachable"}},
		{Options{Weighted: true}, []string{">distance<"}},
		{Options{Cumulative: true}, []string{"fraction of reachable pairs within distance"}},
	} {
		s := draw(tc.opt)
		for _, w := range tc.want {
			if !bytes.Contains([]byte(s), []byte(w)) {
				t.Errorf("%+v: the SVG lacks %q", tc.opt, w)
			}
		}
	}
}

func TestFormatOf(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Format
	}{
		{"h.svg", SVG}, {"dir.x/H.PDF", PDF}, {"a.b.png", PNG}, {"h.eps", ""},
		{"h.jpg", ""}, {"h", ""}, {"svg", ""},
	} {
		got, err := FormatOf(tc.path)
		if got != tc.want || (tc.want == "") != errors.Is(err, ErrFormat) {
			t.Errorf("%s: %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
	if err := Draw(io.Discard, karate, 0, Options{Format: "jpg"}); !errors.Is(err, ErrFormat) {
		t.Errorf("Draw as jpg: %v", err)
	}
	if err := Draw(io.Discard, []int64{0, -1}, 0, Options{Format: SVG}); err == nil {
		t.Error("Draw took a negative count")
	}
}

func TestIntTicks(t *testing.T) {
	vals := func(lo, hi float64) []float64 {
		var v []float64
		for _, tk := range intTicks(lo, hi) {
			v = append(v, tk.Value)
		}
		return v
	}
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0.5, 5.5, []float64{1, 2, 3, 4, 5}},
		{-0.5, 3.5, []float64{0, 1, 2, 3}},
		{0.5, 10.5, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{0.5, 12.5, []float64{2, 4, 6, 8, 10, 12}},
		{0.5, 20.5, []float64{2, 4, 6, 8, 10, 12, 14, 16, 18, 20}},
		{0.5, 30.5, []float64{5, 10, 15, 20, 25, 30}},
		{0.5, 500.5, []float64{50, 100, 150, 200, 250, 300, 350, 400, 450, 500}},
		{0.2, 0.8, nil},
	} {
		if got := vals(tc.lo, tc.hi); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("[%g, %g]: %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}
