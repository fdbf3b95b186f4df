package graph

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// sixEdges builds the unweighted graph of n vertices with the given edges.
func sixEdges(t testing.TB, directed bool, n int, edges ...[2]int) *Graph {
	t.Helper()
	es := make([]wrEdge, len(edges))
	for i, e := range edges {
		es[i] = wrEdge{u: e[0], v: e[1]}
	}
	return wrBuild(t, directed, Unweighted, n, es)
}

// sixCases are encodings known from the spec (formats.txt) and NetworkX.
func sixCases(t testing.TB) []struct {
	name, line string
	g          *Graph
} {
	k4 := sixEdges(t, false, 4, [2]int{0, 1}, [2]int{0, 2}, [2]int{0, 3}, [2]int{1, 2}, [2]int{1, 3}, [2]int{2, 3})
	return []struct {
		name, line string
		g          *Graph
	}{
		{"graph6 K4 (NetworkX)", "C~", k4},
		{"graph6 spec example", "DQc", sixEdges(t, false, 5, [2]int{0, 2}, [2]int{0, 4}, [2]int{1, 3}, [2]int{3, 4})},
		{"graph6 empty", "?", sixEdges(t, false, 0)},
		{"graph6 one vertex", "@", sixEdges(t, false, 1)},
		{"graph6 P3", "Bg", sixEdges(t, false, 3, [2]int{0, 1}, [2]int{1, 2})},
		{"sparse6 spec example", ":Fa@x^", sixEdges(t, false, 7, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}, [2]int{5, 6})},
		{"sparse6 K4 (NetworkX)", ":CcKI", k4},
		{"sparse6 empty", ":?", sixEdges(t, false, 0)},
		{"sparse6 one vertex", ":@", sixEdges(t, false, 1)},
		// n = 2^k with the decoder at n-2: a 0-bit pads first (spec).
		{"sparse6 n=4 edge 0-2", ":Co", sixEdges(t, false, 4, [2]int{0, 2})},
		{"sparse6 n=4 0-bit padding", ":CcJ", sixEdges(t, false, 4, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2})},
		{"digraph6 spec example", "&DI?AO?", sixEdges(t, true, 5, [2]int{0, 2}, [2]int{0, 4}, [2]int{3, 1}, [2]int{3, 4})},
		{"digraph6 empty", "&?", sixEdges(t, true, 0)},
	}
}

func TestSixKnown(t *testing.T) {
	for _, tc := range sixCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Read(strings.NewReader(tc.line+"\n"), "x.g6", ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			wrSameGraph(t, g, tc.g)
			var buf bytes.Buffer
			switch tc.line[0] {
			case ':':
				err = WriteSparse6(&buf, tc.g)
			case '&':
				err = WriteDigraph6(&buf, tc.g)
			default:
				err = WriteGraph6(&buf, tc.g)
			}
			if err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.line+"\n" {
				t.Errorf("written %q, want %q", buf.String(), tc.line+"\n")
			}
		})
	}
}

func TestSixAccepts(t *testing.T) {
	k3 := sixEdges(t, false, 3, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2})
	for _, tc := range []struct {
		name, in, file string
		opt            ReadOptions
		want           *Graph
	}{
		{"header", ">>graph6<<Bw\n", "x.g6", ReadOptions{}, k3},
		{"header and newline", ">>graph6<<\nBw\n", "x.g6", ReadOptions{}, k3},
		{"sparse6 header sniffed", ">>sparse6<<:Fa@x^\n", "stdin", ReadOptions{},
			sixEdges(t, false, 7, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}, [2]int{5, 6})},
		{"sparse6 sniffed", "\n  :Fa@x^\r\n\n", "stdin", ReadOptions{},
			sixEdges(t, false, 7, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}, [2]int{5, 6})},
		{"digraph6 sniffed", "&DI?AO?", "stdin", ReadOptions{},
			sixEdges(t, true, 5, [2]int{0, 2}, [2]int{0, 4}, [2]int{3, 1}, [2]int{3, 4})},
		{"named format", "Bw\n", "stdin", ReadOptions{Format: FormatGraph6}, k3},
		{"a sparse6 line in a .g6 file", ":Bf\n", "x.g6", ReadOptions{}, sixEdges(t, false, 3, [2]int{0, 1})},
		{"gzip", string(gzipBytes(t, "Bw\n")), "x.g6.gz", ReadOptions{}, k3},
		{"vertices option", "Bw\n", "x.g6", ReadOptions{Vertices: 5},
			sixEdges(t, false, 5, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2})},
		{"undirected asked for", "Bw\n", "x.g6", ReadOptions{DirectedSet: true}, k3},
		// sparse6 loops and parallel edges: dropped and merged.
		{"sparse6 multigraph (NetworkX)", ":B_LV", "x.s6", ReadOptions{}, sixEdges(t, false, 3, [2]int{0, 1}, [2]int{1, 2})},
		// N(n) in a longer form than needed, as nauty reads it.
		{"long N(n)", "~??Bw\n", "x.g6", ReadOptions{}, k3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Read(strings.NewReader(tc.in), tc.file, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			wrSameGraph(t, g, tc.want)
		})
	}
}

func TestSixRejects(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      ReadOptions
		line     int
		msg      string
	}{
		{"empty", "", ReadOptions{}, 1, "no graph"},
		{"header only", ">>graph6<<", ReadOptions{}, 1, "no graph"},
		{"two graphs", "Bw\n\nBw\nC~\n", ReadOptions{}, 3, "holds 3 graphs, one a line, but this reads one: use apsp bulk"},
		{"bad byte", "B w\n", ReadOptions{}, 1, `byte 2 of the graph6 line is ' ', outside 63..126`},
		{"header later", "Bw\n>>graph6<<Bw\n", ReadOptions{}, 2, "holds 2 graphs"},
		{"cut short", "C\n", ReadOptions{}, 1, "graph6 line cut short: 4 vertices take 1 bytes of adjacency, found 0"},
		{"too long", "C~~\n", ReadOptions{}, 1, "too long"},
		{"cut in N(n)", "~?\n", ReadOptions{}, 1, "cut short in its vertex count"},
		{"padding", "Bx\n", ReadOptions{}, 1, "padding"},
		{"digraph6 padding", "&A@\n", ReadOptions{}, 1, "padding"},
		{"incremental sparse6", ";Fa@x^\n", ReadOptions{}, 1, "incremental sparse6"},
		{"sparse6 garbage after the edges", ":Fa@x^~~\n", ReadOptions{}, 1, "bits after its last edge"},
		{"directed asked for", "Bw\n", ReadOptions{Directed: true}, 1, "the graph6 line says the graph is undirected"},
		{"undirected asked for", "&DI?AO?\n", ReadOptions{DirectedSet: true}, 1, "the digraph6 line says the graph is directed"},
		{"fewer vertices asked for", "Bw\n", ReadOptions{Vertices: 2}, 1, "says 3 vertices, but it is read with 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "x.g6", tc.opt)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Fatalf("got %v, want a ParseError at line %d with %q", err, tc.line, tc.msg)
			}
			if pe.File != "x.g6" {
				t.Errorf("file %q", pe.File)
			}
		})
	}
}

func TestSixTooLarge(t *testing.T) {
	// N(n) = 2^36-1, the largest: refused at once, before any allocation.
	for _, in := range []string{"~~~~~~~~\n", ":~~~~~~~~\n", "&~~~~~~~~\n", "~~z?????\n"} {
		_, err := Read(strings.NewReader(in), "x.g6", ReadOptions{})
		var pe *ParseError
		if !errors.Is(err, ErrTooLarge) || !errors.As(err, &pe) || pe.Line != 1 {
			t.Errorf("%q: got %v, want ErrTooLarge at line 1", in, err)
		}
	}
	// Beyond what fits in memory, though below MaxVertices.
	withMemoryLimit(t, 256<<20, func() {
		var buf bytes.Buffer
		sw := newSixWriter(&buf)
		sw.bw.WriteByte(':')
		sw.size(1 << 30)
		sw.end()
		if _, err := Read(&buf, "x.s6", ReadOptions{}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("2^30 vertices: got %v, want ErrTooLarge", err)
		}
	})
}

// sixRoundTrip writes g with write and reads it back.
func sixRoundTrip(t *testing.T, g *Graph, write func(io.Writer, *Graph) error, name string) {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, g); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte("\n")) || bytes.Count(buf.Bytes(), []byte("\n")) != 1 ||
		!sixBytes(bytes.TrimLeft(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), ":&")) {
		t.Fatalf("not one line of bytes 63..126: %.80q", buf.String())
	}
	back, err := Read(&buf, name, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := g
	if name == "x.d6" && !g.Directed() {
		want = wrAsDirected(t, g)
	}
	wrSameGraph(t, back, want)
}

// wrAsDirected is g with each edge as two arcs, as digraph6 reads it back.
func wrAsDirected(t *testing.T, g *Graph) *Graph {
	var es []wrEdge
	for u := range g.N() {
		for _, v := range g.Neighbors(u) {
			es = append(es, wrEdge{u: u, v: int(v)})
		}
	}
	return wrBuild(t, true, Unweighted, g.N(), es)
}

func TestSixRoundTrip(t *testing.T) {
	// Dense formats across N(n)'s 62/63 boundary, and small ones.
	for _, n := range []int{0, 1, 2, 3, 5, 6, 7, 8, 12, 13, 62, 63, 64, 100} {
		for seed := range uint64(3) {
			for _, directed := range []bool{false, true} {
				g := wrRandomGraph(t, directed, Unweighted, max(n, 1), n*int(seed+1), seed)
				if n == 0 {
					g = sixEdges(t, directed, 0)
				}
				sixRoundTrip(t, g, WriteDigraph6, "x.d6")
				if !directed {
					sixRoundTrip(t, g, WriteGraph6, "x.g6")
					sixRoundTrip(t, g, WriteSparse6, "x.s6")
				}
			}
		}
	}
	// sparse6 padding: every n = 2^k up to 32, with the last edge at n-2
	// or n-1, for every residue of the bit count.
	for k := 1; k <= 5; k++ {
		n := 1 << k
		for m := 0; m < 8; m++ {
			var es [][2]int
			for i := range m {
				es = append(es, [2]int{i % (n - 1), n - 2})
			}
			sixRoundTrip(t, sixEdges(t, false, n, es...), WriteSparse6, "x.s6")
			sixRoundTrip(t, sixEdges(t, false, n, append(es, [2]int{0, n - 1})...), WriteSparse6, "x.s6")
		}
	}
	// sparse6 across N(n)'s 258047/258048 boundary: few edges keep it cheap.
	for _, n := range []int{258047, 258048, 300000} {
		g := sixEdges(t, false, n, [2]int{0, 1}, [2]int{5, n - 1}, [2]int{n - 2, n - 1}, [2]int{7, 100000})
		sixRoundTrip(t, g, WriteSparse6, "x.s6")
	}
}

func TestSixSizeEncoding(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "?"}, {30, "]"}, {62, "}"}, {63, "~??~"}, {12345, "~B?x"}, {258047, "~}~~"},
		{258048, "~~???~??"}, {460175067, "~~?ZZZZZ"},
	} {
		var buf bytes.Buffer
		sw := newSixWriter(&buf)
		sw.size(tc.n)
		sw.bw.Flush()
		if buf.String() != tc.want {
			t.Errorf("N(%d) = %q, want %q", tc.n, buf.String(), tc.want)
		}
		n, used, ok := sixSize(buf.Bytes())
		if !ok || n != uint64(tc.n) || used != len(tc.want) {
			t.Errorf("sixSize(%q) = %d, %d, %v", tc.want, n, used, ok)
		}
	}
}

func TestSixWriteRefuses(t *testing.T) {
	weighted := wrBuild(t, false, IntWeights, 3, []wrEdge{{0, 1, 2}})
	directed := sixEdges(t, true, 3, [2]int{0, 1})
	for _, tc := range []struct {
		name  string
		write func(io.Writer, *Graph) error
		g     *Graph
		msg   string
	}{
		{"graph6 weighted", WriteGraph6, weighted, "would be lost"},
		{"sparse6 weighted", WriteSparse6, weighted, "would be lost"},
		{"digraph6 weighted", WriteDigraph6, weighted, "would be lost"},
		{"graph6 directed", WriteGraph6, directed, "write it as digraph6"},
		{"sparse6 directed", WriteSparse6, directed, "write it as digraph6"},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf, tc.g); err == nil || !strings.Contains(err.Error(), tc.msg) || buf.Len() > 0 {
			t.Errorf("%s: got %v and %d bytes, want an error with %q and nothing written", tc.name, err, buf.Len(), tc.msg)
		}
	}
}

func TestSixReader(t *testing.T) {
	in := ">>graph6<<Bw\n\n:Fa@x^\nB x\n&DI?AO?\r\n;Fa\n"
	r, err := NewSixReader(strings.NewReader(in), "many", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Format() != FormatGraph6 {
		t.Errorf("format %v", r.Format())
	}
	type res struct {
		n, line int
		bad     bool
	}
	var got []res
	for {
		g, line, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *ParseError
		switch {
		case errors.As(err, &pe):
			if pe.Line != line {
				t.Errorf("error at line %d reported for line %d", pe.Line, line)
			}
			got = append(got, res{0, line, true})
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, res{g.N(), line, false})
		}
	}
	want := []res{{3, 1, false}, {7, 3, false}, {0, 4, true}, {5, 5, false}, {0, 6, true}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("graph %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := NewSixReader(strings.NewReader("0 1\n"), "x.txt", ReadOptions{}); err == nil ||
		!strings.Contains(err.Error(), "not a graph6, sparse6 or digraph6 file") {
		t.Errorf("edge list: got %v", err)
	}
}

func TestSixSniff(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{
		{">>graph6<<Bw\n", FormatGraph6}, {">>sparse6<<\n", FormatSparse6}, {">>digraph6<<&@\n", FormatDigraph6},
		{":Fa@x^\n", FormatSparse6}, {"  &DI?AO?\r\n", FormatDigraph6}, {"\n:Fa@x^", FormatSparse6},
		{"Bw\n", FormatEdgeList}, {":\n", FormatEdgeList}, {": 1 2\n", FormatEdgeList}, {":Fa@x^ 1\n", FormatEdgeList},
		{"&a b\n", FormatEdgeList}, {"# c\n:Fa@x^\n", FormatEdgeList}, {"c x\n:Fa@x^\n", FormatEdgeList},
	} {
		if got, ok := sniffFormat([]byte(tc.in), true, true); !ok || got != tc.want {
			t.Errorf("sniffFormat(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
		}
	}
}

func TestSixFormatNames(t *testing.T) {
	for s, want := range map[string]Format{"graph6": FormatGraph6, "G6": FormatGraph6, "sparse6": FormatSparse6,
		"s6": FormatSparse6, "digraph6": FormatDigraph6, "d6": FormatDigraph6} {
		if f, err := ParseFormat(s); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %v, %v", s, f, err)
		}
	}
	for _, f := range []Format{FormatGraph6, FormatSparse6, FormatDigraph6} {
		if g, err := ParseFormat(f.String()); err != nil || g != f || !f.OneGraphALine() || f.CountsFromOne() {
			t.Errorf("%v: ParseFormat(String()) = %v, %v", f, g, err)
		}
	}
	for name, want := range map[string]Format{"a.g6": FormatGraph6, "a.G6.gz": FormatGraph6, "a.s6": FormatSparse6,
		"a.d6.gz": FormatDigraph6, "a.g6.txt": FormatEdgeList} {
		if got := FormatFromName(name); got != want {
			t.Errorf("FormatFromName(%q) = %v, want %v", name, got, want)
		}
	}
}
