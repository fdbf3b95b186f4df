package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fuzzHeadroom is the memory a fuzzed input may take: it caps the vertex
// count a fuzzed header may claim (see vertexLimit) at a few million, so
// that Build's offsets stay small and fast.
const fuzzHeadroom = 64 << 20

// checkGraph asserts the invariants every graph Read returns must hold.
func checkGraph(t *testing.T, g *Graph, directed bool) {
	t.Helper()
	// Under setHeadroom, the offsets alone (8 bytes a vertex) must have fit.
	if maxN := min(MaxVertices, fuzzHeadroom/8); g.N() < 0 || g.N() > maxN {
		t.Fatalf("N = %d out of 0..%d", g.N(), maxN)
	}
	if g.Directed() != directed {
		t.Fatalf("Directed() = %v, want %v", g.Directed(), directed)
	}
	arcs := 0
	for u := range g.N() {
		hs := g.Neighbors(u)
		arcs += len(hs)
		if g.Degree(u) != len(hs) {
			t.Fatalf("Degree(%d) = %d, but %d neighbours", u, g.Degree(u), len(hs))
		}
		for i, v := range hs {
			if v < 0 || int(v) >= g.N() {
				t.Fatalf("arc %d>%d: head out of range 0..%d", u, v, g.N()-1)
			}
			if int(v) == u {
				t.Fatalf("self-loop %d>%d kept", u, v)
			}
			if i > 0 && hs[i-1] >= v {
				t.Fatalf("arcs of %d not strictly increasing: %v", u, hs)
			}
		}
		iw, fw := g.IntWeights(u), g.FloatWeights(u)
		switch g.Kind() {
		case Unweighted:
			if iw != nil || fw != nil {
				t.Fatalf("unweighted graph has weights")
			}
		case IntWeights:
			if len(iw) != len(hs) || fw != nil {
				t.Fatalf("vertex %d: %d int weights for %d arcs", u, len(iw), len(hs))
			}
		case FloatWeights:
			if len(fw) != len(hs) || iw != nil {
				t.Fatalf("vertex %d: %d float weights for %d arcs", u, len(fw), len(hs))
			}
			for _, w := range fw {
				if math.IsNaN(w) || math.IsInf(w, 0) || (w == 0 && math.Signbit(w)) {
					t.Fatalf("vertex %d: weight %v", u, w)
				}
			}
		default:
			t.Fatalf("kind %v", g.Kind())
		}
		if !directed {
			// Each edge is stored both ways with the same length.
			for i, v := range hs {
				j := g.ArcIndex(int(v), u)
				if j < 0 || g.ArcFloat(int(v), j) != g.ArcFloat(u, i) {
					t.Fatalf("edge %d-%d not symmetric", u, v)
				}
			}
		}
	}
	if arcs != g.Arcs() {
		t.Fatalf("Arcs() = %d, but %d neighbours in all", g.Arcs(), arcs)
	}
	if v, ok := g.NegativeSelfLoop(); ok && (v < 0 || v >= g.N()) {
		t.Fatalf("NegativeSelfLoop() = %d out of range", v)
	}
}

// limitMemory sets the memory limit fuzzHeadroom above what the process
// holds, and restores it at the end of the fuzz target. Each input must call
// setHeadroom again: a fuzzing worker itself holds over 100 MiB, and more
// as it runs, so that a fixed limit would leave no headroom and make every
// read fail with ErrTooLarge.
func limitMemory(f *testing.F) {
	old := debug.SetMemoryLimit(-1)
	f.Cleanup(func() { debug.SetMemoryLimit(old) })
	setHeadroom()
}

// setHeadroom sets the memory limit fuzzHeadroom above the memory the Go
// runtime holds now (what the limit counts, as in sysmem).
func setHeadroom() {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(int64(s[0].Value.Uint64()-s[1].Value.Uint64()) + fuzzHeadroom)
}

func FuzzReadEdgeList(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "0 1\n", "0 1 2\n1 2 3\n", "# c\n% c\n\n0 1 2.5\n", "1 2\n2 3\n", "0 0 -1\n",
		"0 1\n1 2 3\n", "0 x\n", "0 1 nan\n", "0 1 2 3\n", "-1 2\n", "0\t1\r\n", "4294967296 1\n",
		"0 1 9223372036854775808\n", "0 1 -9223372036854775808\n", "0 1 1e400\n", "0 1 0x1p3\n",
		"0 1 -0.0\n1 2 -0\n", "0 1 1e-400\n", "0 1 -0e-400\n", "0 1 5e-324\n", "0 1 2e-324\n", "0 1 0x1p-1080\n",
		"0 1 -0x0.0p9\n", "0 1 .0e-999\n",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n", "0 1\n% %%matrixmarket\n",
		"# c\np sp 2 1\na 1 2 3\n", "0 1 1\na 1 2 3\n", "c x\n0 1\n", "p max 2 1\n",
		"# vertices: 3\n", "# vertices: 1\n# directed: true\n", "# directed: true\n0 1\n1 2\n",
		"# directed: false\n0 1\n", "# directed: true\n# directed: false\n", "0 1\n# vertices: 9\n# directed: true\n",
		"# vertices: 99999999999\n", "# vertices: many\n#vertices: 4\n# Directed: true\n",
		"# apsp edge list\n# vertices: 4\n# edges: 1\n# directed: true\n# weights: float\n2 0 0.5\n",
		"# vertices: 3\n0 1\n2 5\n", "# vertices: 2\n# vertices: 3\n", "# vertices: 3\n# vertices: 003\n1 2\n",
		"# vertices: 0\n0 1\n", "c x\n1 2\n", "c\n\nc y\np sp 2 1\na 1 2 3\n", "c x\na 1 2 3\n", "0 1\nc x y z\n",
		"0,1\n1, 2\n", "0,1,2\n1 2,3\n", ",0,,1,\n", "0,,5\n", "0,1,\n", "0 , 1 ,2\n", "0,1,{'weight': 2}\n", "c,1\n", "0 1 {}\n1 2 {'weight': 3}\n", "0 1 {'weight': 'x'}\n",
		"0 1 {\"a\": [1, {2: 3}], 'weight': np.float64(2.5),}\n", "0 1 {'weight': 1} x\n", "0 1 {'weight\n",
		"# labels: true\nb a\nc\n", "# labels: true\n# vertices: 2\np sp\n",
	} {
		f.Add([]byte(s), false, false, false, false)
		f.Add([]byte(s), true, true, true, true)
		f.Add([]byte(s), false, false, false, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, oneBased, unweighted, directedSet bool) {
		setHeadroom()
		opt := ReadOptions{Format: FormatEdgeList, Directed: directed, OneBased: oneBased, Unweighted: unweighted,
			DirectedSet: directedSet}
		g, err := Read(bytes.NewReader(data), "fuzz", opt)
		if !bytes.HasPrefix(data, []byte(gzipMagic)) {
			want, wantLine, limit, foreign := refEdgeList(string(data), opt)
			var pe *ParseError
			switch {
			case wantLine < 0:
				// NetworkX's attribute dicts and named vertices, which
				// the reference does not read: TestReadDialects checks
				// them, and the checks below still hold.
			case limit || errors.Is(err, ErrTooLarge):
				// Limits follow the memory free at the time of each read,
				// which the two reads need not find the same.
			case wantLine > 0 && (!errors.As(err, &pe) || pe.Line != wantLine):
				t.Fatalf("got error %v, want one on line %d", err, wantLine)
			case wantLine > 0 && foreign != "" && !strings.Contains(err.Error(), "this is a "+foreign+" "):
				t.Fatalf("got error %v, want one that says this is a %s file", err, foreign)
			case wantLine > 0 && foreign == "" && strings.Contains(err.Error(), "not an edge list"):
				t.Fatalf("got error %v, want no other format named", err)
			case wantLine == 0 && err != nil:
				t.Fatalf("got error %v, want none", err)
			case wantLine == 0 && (dump(g) != dump(want) || g.N() != want.N() || g.Kind() != want.Kind() ||
				g.Directed() != want.Directed()):
				t.Fatalf("got N=%d %v directed=%v %q, want N=%d %v directed=%v %q", g.N(), g.Kind(), g.Directed(), dump(g),
					want.N(), want.Kind(), want.Directed(), dump(want))
			}
		}
		if err != nil {
			return
		}
		// A "# directed:" header decides unless the option is asked for.
		if (directed || directedSet) && g.Directed() != directed {
			t.Fatalf("read directed=%v although Directed=%v was asked for", g.Directed(), directed)
		}
		checkGraph(t, g, g.Directed())
		if unweighted && g.Weighted() {
			t.Fatalf("Unweighted read gave kind %v", g.Kind())
		}
	})
}

var intLiteral = regexp.MustCompile(`^[+-]?[0-9]+$`)

// refEdgeList is a slow, independent reading of an edge list with
// strings and strconv, to check the fast reader against. It returns the
// graph, or the number of the first bad line, whether the line was refused
// for a size limit and the format ("Matrix Market", "DIMACS") the error
// must say the file is, if any.
func refEdgeList(data string, opt ReadOptions) (g *Graph, badLine int, limit bool, foreign string) {
	type edge struct {
		line, u, v int
		kind       WeightKind
		i          int64
		f          float64
	}
	var edges []edge
	directed, dirLine, headerN, nLine := opt.Directed, 0, 0, 0
	data = strings.TrimPrefix(data, "\xef\xbb\xbf")
	lines := strings.SplitAfter(data, "\n")
	split := func(line string) []string {
		return strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t\r\v\f\n", r) })
	}
	isDIMACS := func(fs []string) bool {
		return len(fs) >= 2 && fs[0] == "p" && fs[1] == "sp" || len(fs) == 4 && fs[0] == "a"
	}
	firstFields := 0
	for i, line := range lines {
		fs := split(line)
		if len(fs) == 0 {
			continue
		}
		// Lines of Matrix Market and DIMACS files are refused.
		switch {
		case len(fs[0]) >= 14 && strings.EqualFold(fs[0][:14], "%%MatrixMarket"):
			return nil, i + 1, false, "Matrix Market"
		case isDIMACS(fs):
			return nil, i + 1, false, "DIMACS"
		case strings.HasPrefix(fs[0], "<?xml") || strings.HasPrefix(fs[0], "<graphml"):
			return nil, i + 1, false, "GraphML"
		case refGMLGraph(fs):
			return nil, i + 1, false, "GML"
		case refPajekSection(fs[0]):
			return nil, i + 1, false, "Pajek"
		case fs[0] == "c":
			// A bad id or field count, but DIMACS comments if more "c"
			// lines (or blank ones) lead to a DIMACS line.
			for _, next := range lines[i+1:] {
				nfs := split(next)
				switch {
				case len(nfs) == 0 || nfs[0] == "c":
					continue
				case isDIMACS(nfs):
					return nil, i + 1, false, "DIMACS"
				}
				break
			}
			return nil, i + 1, false, ""
		}
		if fs[0][0] == '#' || fs[0][0] == '%' {
			// Header lines come before the first edge.
			if len(edges) > 0 || len(fs) != 3 || fs[0] != "#" {
				continue
			}
			switch {
			case fs[1] == "labels:" && fs[2] == "true":
				return nil, -1, false, ""
			case fs[1] == "vertices:" && digits.MatchString(fs[2]):
				n, err := strconv.ParseUint(fs[2], 10, 63)
				if err != nil || n > uint64(vertexLimit()) {
					return nil, i + 1, true, ""
				}
				if nLine > 0 && int(n) != headerN { // a second count, another N
					return nil, i + 1, false, ""
				}
				headerN, nLine = int(n), i+1
			case fs[1] == "directed:" && (fs[2] == "true" || fs[2] == "false"):
				d := fs[2] == "true"
				asked := opt.Directed || opt.DirectedSet
				if dirLine > 0 && d != directed || asked && d != opt.Directed {
					return nil, i + 1, false, ""
				}
				directed, dirLine = d, i+1
			}
			continue
		}
		if strings.Contains(line, "{") {
			return nil, -1, false, ""
		}
		if strings.Contains(line, ",") { // commas separate fields, one value each
			fs = strings.Split(strings.TrimRight(line, "\n"), ",")
			for k := range fs {
				fs[k] = strings.Trim(fs[k], " \t\r\v\f")
				if fs[k] == "" || strings.ContainsAny(fs[k], " \t\r\v\f") {
					return nil, i + 1, false, ""
				}
			}
		}
		if len(fs) < 2 || len(fs) > 3 {
			return nil, i + 1, false, ""
		}
		if firstFields == 0 {
			firstFields = len(fs)
		} else if len(fs) != firstFields && !opt.Unweighted {
			return nil, i + 1, false, ""
		}
		e := edge{line: i + 1}
		for k, id := range []*int{&e.u, &e.v} {
			x, err := strconv.ParseUint(fs[k], 10, 63)
			if err != nil && !errors.Is(err, strconv.ErrRange) || (opt.OneBased && x == 0) {
				return nil, i + 1, false, ""
			}
			if opt.OneBased {
				x--
			}
			if err != nil || x >= uint64(vertexLimit()) {
				return nil, i + 1, true, ""
			}
			*id = int(x)
		}
		if nLine > 0 && (e.u >= headerN || e.v >= headerN) { // ids beyond "# vertices: N"
			return nil, i + 1, false, ""
		}
		switch {
		case len(fs) == 2 || opt.Unweighted:
		case intLiteral.MatchString(fs[2]):
			w, err := strconv.ParseInt(fs[2], 10, 64)
			if err != nil {
				return nil, i + 1, false, ""
			}
			e.kind, e.i = IntWeights, w
		default:
			if strings.Contains(fs[2], "_") {
				return nil, i + 1, false, ""
			}
			f, err := strconv.ParseFloat(fs[2], 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, i + 1, false, ""
			}
			if f == 0 {
				if refNonzero(fs[2]) {
					return nil, i + 1, false, "" // underflow
				}
				f = 0 // -0 is +0
			}
			e.kind, e.f = FloatWeights, f
		}
		edges = append(edges, e)
	}
	b := NewBuilder(directed)
	if err := b.SetVertices(headerN); err != nil {
		return nil, 1, errors.Is(err, ErrTooLarge), ""
	}
	for _, e := range edges {
		var err error
		switch e.kind {
		case Unweighted:
			err = b.AddEdge(e.u, e.v)
		case IntWeights:
			err = b.AddIntEdge(e.u, e.v, e.i)
		case FloatWeights:
			err = b.AddFloatEdge(e.u, e.v, e.f)
		}
		if err != nil {
			return nil, e.line, errors.Is(err, ErrTooLarge), ""
		}
	}
	return b.Build(), 0, false, ""
}

var digits = regexp.MustCompile(`^[0-9]+$`)

// refNonzero reports whether a float literal has a nonzero digit before its
// exponent.
func refNonzero(s string) bool {
	s = strings.TrimLeft(s, "+-")
	exp := "eE"
	if t, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		s, exp = t, "pP"
	}
	if i := strings.IndexAny(s, exp); i >= 0 {
		s = s[:i]
	}
	return strings.Trim(s, "0.") != ""
}

func FuzzReadMatrixMarket(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n",
		"%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 2\n2 1 5\n3 3 -1\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1.5\n2 1 1e-3\n",
		"%%MatrixMarket matrix coordinate double symmetric\n2 2 1\n2 1 2\n",
		"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
		"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
		"%%MatrixMarket matrix coordinate real general\n2 3 0\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1\n",
		"%%MatrixMarket matrix coordinate integer general\n5 5 1\n1 7 1\n",
		"%%MatrixMarket matrix coordinate pattern general\n9999999999 9999999999 0\n",
		"%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 -0.0\n1 1 -0\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e-400\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4e-324\n",
		"\n \r\n%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", "\n\n", "\n3 3 0\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e400\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, unweighted bool) {
		setHeadroom()
		opt := ReadOptions{Format: FormatMatrixMarket, Unweighted: unweighted}
		g, err := Read(bytes.NewReader(data), "fuzz", opt)
		checkBlankLinesFirst(t, data, opt, g, err)
		if err != nil {
			return
		}
		// The header decides directedness; check symmetry when undirected.
		checkGraph(t, g, g.Directed())
		if unweighted && g.Weighted() {
			t.Fatalf("Unweighted read gave kind %v", g.Kind())
		}
	})
}

// checkBlankLinesFirst checks that blank lines before a Matrix Market file
// change nothing but the line numbers: data read after two blank lines gives
// the graph g, or the error err two lines further down.
func checkBlankLinesFirst(t *testing.T, data []byte, opt ReadOptions, g *Graph, err error) {
	t.Helper()
	if bytes.HasPrefix(data, []byte(gzipMagic)) || bytes.HasPrefix(data, []byte(utf8BOM)) ||
		len(bytes.Fields(data)) == 0 {
		return // gzip and a byte order mark must come first; an empty file has no line to move
	}
	g2, err2 := Read(bytes.NewReader(append([]byte("\n \t\n"), data...)), "fuzz", opt)
	var pe, pe2 *ParseError
	switch {
	case errors.Is(err, ErrTooLarge) || errors.Is(err2, ErrTooLarge):
		// The limit follows the memory free at the time of each read.
	case err == nil && err2 == nil:
		if dump(g2) != dump(g) || g2.N() != g.N() || g2.Directed() != g.Directed() || g2.Kind() != g.Kind() {
			t.Fatalf("after blank lines: N=%d %q, want N=%d %q", g2.N(), dump(g2), g.N(), dump(g))
		}
	case errors.As(err, &pe) && errors.As(err2, &pe2):
		if pe2.Line != pe.Line+2 || pe2.Msg != pe.Msg {
			t.Fatalf("after blank lines: %v, want %v two lines further down", err2, err)
		}
	default:
		t.Fatalf("after blank lines: %v, want %v", err2, err)
	}
}

func FuzzReadDIMACS(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"",
		"c x\np sp 3 2\na 1 2 5\na 3 1 -2\n",
		"p sp 2 1\na 2 1 0.25\n",
		"p sp 2 1\na 2 2 -1\n",
		"p sp 4 0\n",
		"a 1 2 3\np sp 2 1\n",
		"p sp 2 0\np sp 2 0\n",
		"p max 2 0\n",
		"p sp 5 1\na 1 7 1\n",
		"p sp 5 2\na 1 2 1\n",
		"p sp 2147483648 0\n",
		"p sp 3 1\nn 1 2\n",
		"p sp 2 2\na 1 2 -0.0\na 2 1 -0\n",
		"p sp 2 1\na 1 2 -1e-400\n",
		"p sp 2 1\na 1 2 0x1p-1074\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, unweighted bool) {
		setHeadroom()
		opt := ReadOptions{Format: FormatDIMACS, Unweighted: unweighted}
		g, err := Read(bytes.NewReader(data), "fuzz", opt)
		if err != nil {
			return
		}
		checkGraph(t, g, true)
		if unweighted && g.Weighted() {
			t.Fatalf("Unweighted read gave kind %v", g.Kind())
		}
	})
}

func FuzzReadAuto(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "\n \n", "0 1\n", "# c\n0 1 2\n", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n",
		"\xef\xbb\xbf%%matrixmarket matrix coordinate real symmetric\n2 2 1\n2 1 0.5\n",
		"\n%%MatrixMarket matrix coordinate pattern general\n1 1 0\n", "% c\n%%MatrixMarket\n",
		"c x\nc\n\np sp 2 1\na 1 2 3\n", "p sp 1 0", "c x\n0 1\n", "c x\n", "cx\np sp 1 0\n", "p max 1 0\n",
		"0 1\np sp 2 1\n", "0 1 1\na 1 2 3\n",
		"<?xml version=\"1.0\"?>\n<graphml><graph edgedefault=\"directed\"><edge source=\"a\" target=\"b\"/></graph></graphml>",
		"<svg/>", "graph [ node [ id 0 ] ]", "Creator \"x\"\ngraph\n[\n]\n", "graph x\n", "*Vertices 2\n*Arcs\n1 2\n",
		"*network\n", "c x\n*Vertices 1\n", "0 1\n*Edges\n", "0 1\ngraph [\n", "0 1\n<graphml>\n",
	} {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, unweighted bool) {
		setHeadroom()
		// Sniffing must pick the format refSniff picks, and reading with
		// it must be the same as naming it.
		opt := ReadOptions{Directed: directed, Unweighted: unweighted}
		g, err := Read(bytes.NewReader(data), "stdin", opt)
		if bytes.HasPrefix(data, []byte(gzipMagic)) {
			return
		}
		opt.Format = refSniff(string(data))
		want, wantErr := Read(bytes.NewReader(data), "stdin", opt)
		switch {
		case errors.Is(err, ErrTooLarge) || errors.Is(wantErr, ErrTooLarge):
			// The limit follows the memory available at the time of each read.
		case (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()):
			t.Fatalf("sniffed: %v; as %v: %v", err, opt.Format, wantErr)
		case err == nil && (dump(g) != dump(want) || g.N() != want.N() || g.Directed() != want.Directed() ||
			g.Kind() != want.Kind()):
			t.Fatalf("sniffed: N=%d %q; as %v: N=%d %q", g.N(), dump(g), opt.Format, want.N(), dump(want))
		}
	})
}

// refSniff is an independent statement of Read's sniffing rule for inputs
// shorter than the first sniff window.
func refSniff(data string) Format {
	data = strings.TrimPrefix(data, "\xef\xbb\xbf")
	comments := false
	for _, line := range strings.Split(data, "\n") {
		fs := strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t\r\v\f", r) })
		switch {
		case len(fs) == 0:
		case !comments && len(fs[0]) >= 14 && strings.EqualFold(fs[0][:14], "%%MatrixMarket"):
			return FormatMatrixMarket
		case len(fs) >= 2 && fs[0] == "p" && fs[1] == "sp":
			return FormatDIMACS
		case !comments && refSixFirst(line) != FormatAuto:
			return refSixFirst(line)
		case !comments && fs[0][0] == '<':
			return FormatGraphML
		case !comments && (refGMLGraph(fs) || len(fs) >= 2 && fs[0] == "Creator" && fs[1][0] == '"'):
			return FormatGML
		case !comments && refPajekSection(fs[0]):
			return FormatPajek
		case fs[0] == "c":
			comments = true
		default:
			return FormatEdgeList
		}
	}
	return FormatEdgeList
}

// refSixFirst is the sniffing rule of nauty's formats for a first line: a
// header, or ':' or '&' and then bytes 63..126 only, blanks around.
func refSixFirst(line string) Format {
	line = strings.Trim(line, " \t\r\v\f")
	for h, f := range map[string]Format{">>graph6<<": FormatGraph6, ">>sparse6<<": FormatSparse6, ">>digraph6<<": FormatDigraph6} {
		if strings.HasPrefix(line, h) {
			return f
		}
	}
	if len(line) < 2 || strings.IndexFunc(line[1:], func(r rune) bool { return r < 63 || r > 126 }) >= 0 {
		return FormatAuto
	}
	switch line[0] {
	case ':':
		return FormatSparse6
	case '&':
		return FormatDigraph6
	}
	return FormatAuto
}

// fuzzSix reads every graph of data as format with a SixReader: no input
// may panic; each graph accepted must hold the invariants (checkGraph),
// be directed as its line says, read the same through ReadSixLine, and be
// written (graph6 and sparse6 when undirected, digraph6 always) and read
// back the same.
func fuzzSix(t *testing.T, data []byte, format Format, directed, directedSet bool) {
	setHeadroom()
	opt := ReadOptions{Format: format, Directed: directed, DirectedSet: directedSet}
	r, err := NewSixReader(bytes.NewReader(data), "fuzz", opt)
	if err != nil {
		return
	}
	for range 1000 {
		g, line, err := r.Next()
		var pe *ParseError
		switch {
		case errors.Is(err, io.EOF):
			return
		case errors.As(err, &pe):
			if pe.Line != line {
				t.Fatalf("error %v reported for line %d", err, line)
			}
			continue
		case err != nil:
			return
		}
		checkGraph(t, g, g.Directed())
		if (directed || directedSet) && g.Directed() != directed {
			t.Fatalf("read directed=%v although Directed=%v was asked for", g.Directed(), directed)
		}
		// The dense formats take n² bits: only for small graphs (a
		// sparse6 line of a few bytes may declare 200 000 vertices).
		var writers []func(io.Writer, *Graph) error
		if g.N() <= 2000 {
			writers = append(writers, WriteDigraph6)
		}
		if !g.Directed() {
			writers = append(writers, WriteSparse6)
			if g.N() <= 2000 {
				writers = append(writers, WriteGraph6)
			}
		}
		for _, write := range writers {
			var buf bytes.Buffer
			if err := write(&buf, g); err != nil {
				t.Fatalf("writing line %d: %v", line, err)
			}
			back, err := ReadSixLine(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), "back", 1, ReadOptions{})
			if errors.Is(err, ErrTooLarge) {
				continue // the limit follows the memory free at each read
			}
			if err != nil {
				t.Fatalf("line %d written as %q: %v", line, buf.String(), err)
			}
			// digraph6 holds an undirected graph as its arcs both ways.
			if back.N() != g.N() || dump(back) != dump(g) || back.Directed() != (g.Directed() || buf.Bytes()[0] == '&') {
				t.Fatalf("line %d written as %q read back N=%d directed=%v %q, want N=%d directed=%v %q",
					line, buf.String(), back.N(), back.Directed(), dump(back), g.N(), g.Directed(), dump(g))
			}
		}
	}
}

// sixSeeds are inputs of every kind of line, good and bad.
var sixSeeds = []string{
	"", "C~\n", "DQc\n", "?\n", "@\n", ">>graph6<<Bw\n", ">>graph6<<\nBw\nC~\n", ":Fa@x^\n", ":CcKI\n",
	":CcJ\n", ":B_LV\n", ":?\n", ":@\n", "&DI?AO?\n", "&?\n", ">>digraph6<<&DI?AO?\n", ">>sparse6<<:Fa@x^\n",
	"B x\n", "C\n", "C~~\n", "~?\n", "Bx\n", "&A@\n", ";Fa@x^\n", ":Fa@x^~~\n", "~~~~~~~~\n", ":~~~~~~~~\n",
	"~??Bw\n", "~~???~??\n", ":~??~~~~\n", "Bw\r\n\n  C~  \n", "\xef\xbb\xbfBw\n",
}

func FuzzReadGraph6(f *testing.F) {
	limitMemory(f)
	for _, s := range sixSeeds {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, directedSet bool) {
		fuzzSix(t, data, FormatGraph6, directed, directedSet)
	})
}

func FuzzReadSparse6(f *testing.F) {
	limitMemory(f)
	for _, s := range sixSeeds {
		f.Add([]byte(s), false, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, directedSet bool) {
		fuzzSix(t, data, FormatSparse6, directed, directedSet)
	})
}

func FuzzReadDigraph6(f *testing.F) {
	limitMemory(f)
	for _, s := range sixSeeds {
		f.Add([]byte(s), false, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, directedSet bool) {
		fuzzSix(t, data, FormatDigraph6, directed, directedSet)
	})
}

// refGMLGraph reports whether a line's fields open a GML graph.
func refGMLGraph(fs []string) bool {
	return fs[0] == "graph" && (len(fs) == 1 || strings.HasPrefix(fs[1], "[")) || strings.HasPrefix(fs[0], "graph[")
}

// refPajekSection reports whether a field is a Pajek section keyword.
func refPajekSection(f string) bool {
	for _, s := range []string{"*vertices", "*arcs", "*edges", "*arcslist", "*edgeslist", "*network", "*matrix"} {
		if strings.EqualFold(f, s) {
			return true
		}
	}
	return false
}

// TestFuzzSeedFiles checks that the named seeds in testdata/fuzz are what
// their names say: valid_* inputs read without error, invalid_* ones fail.
// Other files there (crashers kept as regression seeds) are left to the
// fuzz targets themselves.
func TestFuzzSeedFiles(t *testing.T) {
	formats := map[string]Format{
		"FuzzReadEdgeList":     FormatEdgeList,
		"FuzzReadMatrixMarket": FormatMatrixMarket,
		"FuzzReadDIMACS":       FormatDIMACS,
	}
	for target, format := range formats {
		paths, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*valid_*"))
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			t.Errorf("%s: no seed files", target)
		}
		for _, p := range paths {
			data, bools := readSeed(t, p)
			opt := ReadOptions{Format: format}
			if format == FormatEdgeList {
				opt.Directed, opt.OneBased, opt.Unweighted, opt.DirectedSet = bools[0], bools[1], bools[2], bools[3]
			} else {
				opt.Unweighted = bools[0]
			}
			_, err := Read(bytes.NewReader(data), filepath.Base(p), opt)
			valid := strings.HasPrefix(filepath.Base(p), "valid_")
			if valid != (err == nil) {
				t.Errorf("%s: valid=%v but Read error %v", p, valid, err)
			}
		}
	}
}

// readSeed parses a "go test fuzz v1" file of a []byte and some bools.
func readSeed(t *testing.T, path string) ([]byte, []bool) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) < 3 || lines[0] != "go test fuzz v1" ||
		!strings.HasPrefix(lines[1], "[]byte(") || !strings.HasSuffix(lines[1], ")") {
		t.Fatalf("%s: not a fuzz seed of []byte and bools", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var bools []bool
	for _, l := range lines[2:] {
		switch l {
		case "bool(true)":
			bools = append(bools, true)
		case "bool(false)":
			bools = append(bools, false)
		default:
			t.Fatalf("%s: unexpected line %q", path, l)
		}
	}
	return []byte(s), bools
}

// FuzzReadJSONLines reads an input of JSON Lines a line at a time
// (JSONLineReader) and each line's graph (ReadJSONLine). No input may
// panic; the lines must account for every byte of the input; a graph
// accepted must come from a line encoding/json finds valid, hold every
// graph's invariants (checkGraph), have the directedness, id and vertex
// count the line says, and be read again the same.
func FuzzReadJSONLines(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "\n \n", "{}", "{}\n{}\n", "0 1\n1 2\n", "\n[1,2]\n{}\n",
		`{"id":"path","edges":[[0,1],[1,2],[2,3]]}`,
		`{"id": 7, "n": 5, "edges": [[0,1,2.5],[1,2,1],[2,0,4]], "directed": true}`,
		`{"edges":[[0,1],[1,2,3]]}`, `{"id":"malformed","edges":[[0,1]`,
		`{"id":"neg","directed":true,"edges":[[0,1,-2],[1,0,1]]}`, `{"id":"empty","n":0}`,
		`{"id":"range","n":2,"edges":[[0,2]]}`, `{"id":"unknown","nodes":3}`, `{"id":"type","n":"3"}`,
		`{"id":"weight","edges":[[0,1,1e400]]}`, `{"id":"frac","edges":[[0.5,1]]}`, `{"id":"last","n":3}`,
		`{"id":"a","edges":[[1,2,5],[2,3,7]]}`, `{"id":"b","edges":[[0,1]],"directed":false}`,
		`{"id":null,"n":null,"edges":null,"directed":null}`, `{"\u0069d":"x\/y","n":1}`, `{"n":3,"n":4}`,
		`{"edges":[[0,1,-0.0],[1,2,1e-3],[2,0,1E+2]]}`, `{"edges":[[0,1,9223372036854775807],[1,2,-9223372036854775808]]}`,
		`{"edges":[[0,1,1e-400]]}`, `{"edges":[[0,2147483647]]}`, `{"n":3000000000}`, `{"n":99999999}`,
		` { "id" : -0.5e+3 , "edges" : [ [ 0 , 1 ] ] } ` + "\r\n" + `{"id":"\u00e9\n\"q\"","n":1}`,
		`{"edges":[[0,1]]}` + "\n" + strings.Repeat(" ", 600) + "{}\n" + `{"edges":[` + strings.Repeat("[0,1],", 100) + "[0,1]]}\n{}",
	} {
		f.Add([]byte(s), false, false, false, false)
		f.Add([]byte(s), true, true, true, true)
		f.Add([]byte(s), true, false, false, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, oneBased, unweighted, directedSet bool) {
		setHeadroom()
		opt := ReadOptions{Directed: directed, OneBased: oneBased, Unweighted: unweighted, DirectedSet: directedSet}
		r := NewJSONLineReader(bytes.NewReader(data), "fuzz")
		r.MaxLine = 512
		total, last, calls := 0, 0, 0
		for {
			line, lineNo, size, err := r.Next()
			total += size
			if err == io.EOF {
				if line != nil || total != len(data) {
					t.Fatalf("at the end: line %q, %d bytes taken of %d", line, total, len(data))
				}
				return
			}
			calls++
			if lineNo <= last || size <= 0 {
				t.Fatalf("line %d after line %d, %d bytes", lineNo, last, size)
			}
			last = lineNo
			switch {
			case errors.Is(err, ErrLineTooLong):
				if line != nil {
					t.Fatalf("a long line returned")
				}
				continue
			case errors.Is(err, ErrNotJSONLines):
				if calls != 1 || bytes.HasPrefix(bytes.TrimLeft(line, " \t\r"), []byte("{")) {
					t.Fatalf("line %d %q: %v", lineNo, line, err)
				}
				if line == nil {
					continue // too long as well
				}
			case err != nil:
				t.Fatalf("line %d: %v", lineNo, err)
			}
			if len(line) > r.MaxLine || bytes.IndexByte(line, '\n') >= 0 || len(bytes.TrimSpace(line)) == 0 {
				t.Fatalf("line %d: %q", lineNo, line)
			}
			checkJSONLine(t, line, lineNo, opt)
		}
	})
}

// checkJSONLine checks ReadJSONLine on one line against encoding/json.
func checkJSONLine(t *testing.T, line []byte, lineNo int, opt ReadOptions) {
	t.Helper()
	id, g, err := ReadJSONLine(line, "fuzz", lineNo, opt)
	if id != nil && !json.Valid(id) {
		t.Fatalf("line %d: id %q is not JSON", lineNo, id)
	}
	if err != nil {
		var pe *ParseError
		if g != nil || !errors.As(err, &pe) || pe.File != "fuzz" || pe.Line != lineNo {
			t.Fatalf("line %d: error %v (graph %v)", lineNo, err, g != nil)
		}
		return
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		t.Fatalf("line %d %q accepted, but encoding/json says %v", lineNo, line, err)
	}
	null := func(k string) bool { return obj[k] == nil || string(obj[k]) == "null" }
	if null("id") != (id == nil) || (id != nil && !bytes.Equal(id, obj["id"])) {
		t.Fatalf("line %d: id %s, the line's %s", lineNo, id, obj["id"])
	}
	wantDirected := opt.Directed
	if !null("directed") {
		wantDirected = string(obj["directed"]) == "true"
	}
	checkGraph(t, g, wantDirected)
	var edges [][]json.Number
	if !null("edges") {
		dec := json.NewDecoder(bytes.NewReader(obj["edges"]))
		dec.UseNumber()
		if err := dec.Decode(&edges); err != nil {
			t.Fatalf("line %d: edges %s: %v", lineNo, obj["edges"], err)
		}
	}
	wantN := 0
	if !null("n") {
		n, err := strconv.Atoi(string(obj["n"]))
		if err != nil {
			t.Fatalf("line %d: n %s accepted", lineNo, obj["n"])
		}
		wantN = n
	} else {
		for _, e := range edges {
			for _, x := range e[:2] {
				v, err := strconv.ParseInt(string(x), 10, 64)
				if err != nil {
					t.Fatalf("line %d: vertex id %s accepted", lineNo, x)
				}
				if opt.OneBased {
					v--
				}
				wantN = max(wantN, int(v)+1)
			}
		}
	}
	maxArcs := len(edges)
	if !g.Directed() {
		maxArcs *= 2
	}
	if g.N() != wantN || g.Arcs() > maxArcs || (opt.Unweighted && g.Weighted()) {
		t.Fatalf("line %d: %d vertices, %d arcs, %v; want %d vertices, at most %d arcs (%d edges)",
			lineNo, g.N(), g.Arcs(), g.Kind(), wantN, maxArcs, len(edges))
	}
	// Read again, the same graph.
	id2, g2, err := ReadJSONLine(bytes.Clone(line), "fuzz", lineNo, opt)
	switch {
	case errors.Is(err, ErrTooLarge):
		// The limit follows the memory free at the time of each read.
	case err != nil || !bytes.Equal(id, id2):
		t.Fatalf("line %d read again: id %s, %v", lineNo, id2, err)
	default:
		wrSameGraph(t, g2, g)
	}
}

// FuzzReadNamed reads edge lists with Labels and CSV files: no input may
// panic, and an accepted graph has one distinct name a vertex and reads
// back the same (arcs and names) from what WriteCSV, and WriteEdgeList
// where its names allow, write.
func FuzzReadNamed(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "a b\n", "a b 1\nb c 2.5\n", "x\ny z\n", "# labels: true\n# vertices: 2\nu v\n", "a,b\nb, c\n",
		"a b {'weight': 3}\nb c {}\n", "p sp\nc d\n", "\xef\xbb\xbfa b\n",
		"source,target,weight\na,b,1\nb,,\n", "target,source\n\"x,y\",z\n", ",source,target\n0,1,2\n",
		"source,target,weight\na,b,nan\n", "source,target\n\"a\n", "source,target,weight\na,b,1\nb,c,\n",
	} {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, csv, directed bool) {
		setHeadroom()
		format := FormatEdgeList
		if csv {
			format = FormatCSV
		}
		g, err := Read(bytes.NewReader(data), "fuzz", ReadOptions{Format: format, Labels: true, Directed: directed})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		checkGraph(t, g, directed)
		if g.N() > 0 && len(g.Names()) != g.N() {
			t.Fatalf("%d names for %d vertices", len(g.Names()), g.N())
		}
		seen := map[string]bool{}
		for _, s := range g.Names() {
			if seen[s] {
				t.Fatalf("name %q twice", s)
			}
			seen[s] = true
		}
		writers := map[string]func(*bytes.Buffer) error{"x.csv": func(w *bytes.Buffer) error { return WriteCSV(w, g) }}
		if edgeListNames(g) == nil && g.Names() != nil {
			writers["x.txt"] = func(w *bytes.Buffer) error { return WriteEdgeList(w, g) }
		}
		for name, write := range writers {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			h, err := Read(&buf, name, ReadOptions{Directed: directed})
			if err != nil {
				t.Fatalf("%s: reading back: %v", name, err)
			}
			// Names are the vertices' identity: written by edge, they are
			// numbered again in the order they appear in the file.
			if namedDump(h) != namedDump(g) || h.N() != g.N() {
				t.Fatalf("%s: read back %q, want %q", name, namedDump(h), namedDump(g))
			}
		}
	})
}

// namedDump is dump in the vertices' names, the arcs sorted: the same for
// graphs that differ only in how their named vertices are numbered.
func namedDump(g *Graph) string {
	var arcs []string
	for u := range g.N() {
		for i, v := range g.Neighbors(u) {
			a := g.Name(u) + ">" + g.Name(int(v))
			if g.Weighted() {
				a += ":" + strconv.FormatFloat(g.ArcFloat(u, i), 'g', -1, 64)
			}
			arcs = append(arcs, strconv.Quote(a))
		}
	}
	slices.Sort(arcs)
	names := slices.Clone(g.Names())
	slices.Sort(names)
	return strings.Join(arcs, " ") + " names " + strings.Join(names, ",")
}

// fuzzStructured reads data as format with the options the bools give,
// checks the graph as every fuzz target does, and writes it back with
// write: unless the writer refuses it (a name the format cannot hold, or a
// graph METIS cannot), the file must read back as the same graph with the
// same names.
func fuzzStructured(t *testing.T, data []byte, format Format, write func(io.Writer, *Graph) error,
	directed, unweighted, directedSet bool) {
	setHeadroom()
	opt := ReadOptions{Format: format, Directed: directed, Unweighted: unweighted, DirectedSet: directedSet}
	g, err := Read(bytes.NewReader(data), "fuzz", opt)
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) && !errors.Is(err, ErrTooLarge) && !bytes.HasPrefix(data, []byte(gzipMagic)) {
			t.Fatalf("error %v is no ParseError", err)
		}
		return
	}
	if (directed || directedSet) && g.Directed() != directed {
		t.Fatalf("read directed=%v although Directed=%v was asked for", g.Directed(), directed)
	}
	checkGraph(t, g, g.Directed())
	if unweighted && g.Weighted() {
		t.Fatalf("Unweighted read gave kind %v", g.Kind())
	}
	if names := g.Names(); names != nil {
		if len(names) != g.N() {
			t.Fatalf("%d names for %d vertices", len(names), g.N())
		}
		if _, err := g.WithNames(names); err != nil {
			t.Fatalf("names: %v", err)
		}
	}
	if g.N() > 1<<16 {
		return // a declared count of millions would be written and read for seconds: fuzz the rest
	}
	var buf bytes.Buffer
	if err := write(&buf, g); err != nil {
		if errors.Is(err, ErrNotMETIS) || strings.Contains(err.Error(), ": name ") {
			return
		}
		t.Fatalf("writing back: %v", err)
	}
	h, err := Read(bytes.NewReader(buf.Bytes()), "fuzz", ReadOptions{Format: format})
	switch {
	case errors.Is(err, ErrTooLarge):
		return // the limit follows the memory free at the time of each read
	case err != nil:
		t.Fatalf("reading back: %v\n%s", err, buf.Bytes())
	}
	want := wrPlusZero(g)
	if _, neg := g.NegativeSelfLoop(); g.Arcs() == 0 && !neg {
		want = want.Unweighted() // no weight is written to show the kind (see write.go)
	}
	wrSameGraph(t, h, want)
	if !slices.Equal(h.Names(), g.Names()) || (h.Names() == nil) != (g.Names() == nil) {
		t.Fatalf("names read back %q, want %q", h.Names(), g.Names())
	}
}

func FuzzReadGraphML(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "<graphml/>", "<graphml><graph/></graphml>",
		`<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="d0" for="edge" attr.name="weight" attr.type="double"><default>2</default></key>
<graph edgedefault="directed"><node id="a"/><node id="b"/>
<edge source="a" target="b"><data key="d0">1.5</data></edge><edge source="b" target="c" directed="true"/>
</graph></graphml>`,
		`<graphml><key id="w" for="edge" attr.name="weight" attr.type="long"/><graph edgedefault="undirected">
<node id="0"/><node id="1"/><edge source="0" target="1"><data key="w">-3</data></edge>
<edge source="1" target="1"><data key="w">-1</data></edge></graph></graphml>`,
		`<graphml><graph edgedefault="undirected"><node id="x&amp;"><graph/></node></graph></graphml>`,
		`<graphml><graph edgedefault="undirected"><edge source="a" target="b" directed="true"/></graph></graphml>`,
		`<graphml><key id="w" attr.name="weight"/><graph edgedefault="undirected"><edge source="a" target="b"><data key="w">1e400</data></edge></graph></graphml>`,
		`<graphml><graph edgedefault="undirected"><hyperedge/></graph><graph/></graphml>`,
	} {
		f.Add([]byte(s), false, false, false)
		f.Add([]byte(s), true, true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, unweighted, directedSet bool) {
		fuzzStructured(t, data, FormatGraphML, WriteGraphML, directed, unweighted, directedSet)
	})
}

func FuzzReadGML(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "graph [ ]", "graph [\n  directed 1\n  node [\n    id 0\n    label \"a\"\n  ]\n  node [ id 1 ]\n  edge [\n    source 0\n    target 1\n    weight 2.5\n  ]\n]\n",
		"Creator \"x\"\ngraph\n[\n node [ id -5 label \"&#233;&#34;&amp;&#xFFFF;\" graphics [ x 1.0 ] ]\n node [ id 3 ]\n edge [ source 3 target -5 weight -1 ]\n edge [ source 3 target 3 weight -2 ]\n]\n",
		"graph [ node [ id 0 ] node [ id 0 ] ]", "graph [ node [ id 0 label \"1\" ] node [ id 1 ] ]",
		"graph [ edge [ source 0 target 1 ] ]", "graph [ directed 2 ]", "graph [ node [ id 0 label \"a ] ]",
		"graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 weight 9223372036854775808 ] ]",
		"graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 weight 1 ] edge [ source 1 target 0 weight 0.5 ] ]",
	} {
		f.Add([]byte(s), false, false, false)
		f.Add([]byte(s), true, true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, unweighted, directedSet bool) {
		fuzzStructured(t, data, FormatGML, WriteGML, directed, unweighted, directedSet)
	})
}

func FuzzReadPajek(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "*Vertices 0\n", "*vertices 4\n1 \"a b\" 0.0 0.0 ellipse\n2 c\n4 é\"&\n*edges\n1 2 2.5\n2 3 1.0\n",
		"% c\n*Network n\n*Vertices 3 1\n*Arcs\n1 2 4 c Blue\n*Edges\n2 3 5\n3 3 -1\n",
		"*Vertices 4\n*Arcslist\n1 2 3 4\n*Edgeslist\n4 2\n", "*Vertices 2\n1 \"2\"\n", "*Vertices 2\n1 a\n2 a\n",
		"*Vertices 2\n*Edges\n1 2 3\n2 1\n", "*Vertices 99999999999\n", "*Vertices 2\n*Matrix\n", "*Vertices 3\n2 \"\"\n*Arcs\n",
	} {
		f.Add([]byte(s), false, false, false)
		f.Add([]byte(s), true, true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, unweighted, directedSet bool) {
		fuzzStructured(t, data, FormatPajek, WritePajek, directed, unweighted, directedSet)
	})
}

func FuzzReadMETIS(f *testing.F) {
	limitMemory(f)
	for _, s := range []string{
		"", "0 0\n", "% c\n4 2\n2 3\n1\n1\n\n", "3 2 1\n2 5 3 1\n1 5\n1 1\n", "3 1 111 2\n9 1 2 2 7\n9 3 4 1 7\n0 0 0\n",
		"2 1 10\n4 2\n4 1\n", "3 1\n2\n3\n\n", "2 1 1\n2 3\n1 4\n", "2 1\n1\n", "1 0\n\n% c\n\n2\n", "2 1 1\n2 1.5\n1 1.5\n",
		"99999999999 0\n", "2 1 1 3\n",
	} {
		f.Add([]byte(s), false, false, false)
		f.Add([]byte(s), true, true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, directed, unweighted, directedSet bool) {
		fuzzStructured(t, data, FormatMETIS, WriteMETIS, directed, unweighted, directedSet)
	})
}
