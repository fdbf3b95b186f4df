package graph

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// structCase is a read of a GraphML, GML, Pajek or METIS input: want is
// the arcs (see dump) or, with a ':', the start of the error after the
// file name ("3: ..." for line 3).
type structCase struct {
	name  string
	in    string
	opt   ReadOptions
	want  string
	names string // the names joined by ',', or "-" for none
	dir   bool   // directed, when want is a graph
}

// runStructCases reads every case, plain and gzipped, under a name that
// names no format (the format is in opt) and under file.
func runStructCases(t *testing.T, format Format, file string, cases []structCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := []byte(tc.in)
				if gz {
					in = gzipBytes(t, tc.in)
				}
				opt := tc.opt
				opt.Format = format
				g, err := Read(bytes.NewReader(in), file, opt)
				if strings.Contains(tc.want, ": ") {
					var pe *ParseError
					if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), file+":"+tc.want) {
						t.Fatalf("gzip %v: got %v, want a ParseError %q", gz, err, file+":"+tc.want)
					}
					continue
				}
				if err != nil {
					t.Fatalf("gzip %v: %v", gz, err)
				}
				checkGraph(t, g, tc.dir)
				if got := dump(g); got != tc.want {
					t.Errorf("gzip %v: arcs %q, want %q", gz, got, tc.want)
				}
				names := "-"
				if g.Names() != nil {
					names = strings.Join(g.Names(), ",")
				}
				if names != tc.names {
					t.Errorf("gzip %v: names %q, want %q", gz, names, tc.names)
				}
			}
		})
	}
}

const graphmlHead = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
`

func TestReadGraphML(t *testing.T) {
	wkey := `<key id="d0" for="edge" attr.name="weight" attr.type="double"/>` + "\n"
	ikey := `<key id="d1" for="edge" attr.name="weight" attr.type="long"/>` + "\n"
	runStructCases(t, FormatGraphML, "g.graphml", []structCase{
		{name: "undirected names", in: graphmlHead + `<graph edgedefault="undirected">
<node id="a"/><node id="b"/><node id="c"/>
<edge source="a" target="b"/><edge source="c" target="b"/>
</graph></graphml>`, want: "0>1 1>0 1>2 2>1", names: "a,b,c"},
		{name: "directed float weights, default", in: graphmlHead + `<key id="d0" for="edge" attr.name="weight" attr.type="double"><default>2</default></key>
<graph edgedefault="directed"><node id="x"/><node id="y"/>
<edge source="x" target="y"><data key="d0">1.5</data></edge><edge source="y" target="x"/>
</graph></graphml>`, want: "0>1:1.5 1>0:2", names: "x,y", dir: true},
		{name: "int weights, undeclared nodes, missing weight is 1", in: graphmlHead + ikey + `<graph edgedefault="directed">
<node id="p"><data key="other">x</data></node>
<edge source="q" target="p"><data key="d1"> 7 </data></edge>
<edge source="p" target="r"/>
</graph></graphml>`, want: "0>2:1 1>0:7", names: "p,q,r", dir: true},
		{name: "ids as names are no names", in: graphmlHead + `<graph edgedefault="undirected"><node id="0"/><node id="1"/>
<edge source="0" target="1"/></graph></graphml>`, want: "0>1 1>0", names: "-"},
		{name: "unweighted option", in: graphmlHead + wkey + `<graph edgedefault="undirected">
<edge source="a" target="b"><data key="d0">nan</data></edge></graph></graphml>`, opt: ReadOptions{Unweighted: true},
			want: "0>1 1>0", names: "a,b"},
		{name: "weight key option", in: graphmlHead + `<key id="k" for="edge" attr.name="len"/>` + wkey + `<graph edgedefault="undirected">
<edge source="a" target="b"><data key="k">3</data><data key="d0">9</data></edge></graph></graphml>`,
			opt: ReadOptions{WeightKey: "len"}, want: "0>1:3 1>0:3", names: "a,b"},
		{name: "vertices option adds isolated vertices", in: graphmlHead + `<graph edgedefault="undirected">
<edge source="a" target="b"/></graph></graphml>`, opt: ReadOptions{Vertices: 3}, want: "0>1 1>0", names: "a,b,2"},
		{name: "escaped names, yfiles data, byte order mark", in: "\xef\xbb\xbf" + graphmlHead + `<key id="y" for="node" yfiles.type="nodegraphics"/>
<graph edgedefault="undirected"><node id="a&amp;b"><data key="y"><y:Shape xmlns:y="urn:y" type="r"/></data></node>
<edge source="a&amp;b" target="&#233;"/></graph></graphml>`, want: "0>1 1>0", names: "a&b,é"},
		{name: "no edgedefault: the options decide", in: graphmlHead + `<graph><edge source="a" target="b"/></graph></graphml>`,
			opt: ReadOptions{Directed: true}, want: "0>1", names: "a,b", dir: true},

		{name: "empty", in: "", want: "1: no <graphml> element"},
		{name: "not graphml", in: "<svg>\n</svg>", want: "1: root element <svg> is not <graphml>"},
		{name: "no graph", in: graphmlHead + "</graphml>\n", want: "4: no <graph> element"},
		{name: "bad XML", in: graphmlHead + "<graph>\n<node id=a/>\n</graph></graphml>", want: "4: bad XML"},
		{name: "truncated", in: graphmlHead + "<graph>\n<node id='a'/>\n", want: "5: bad XML"},
		{name: "mixed directed", in: graphmlHead + `<graph edgedefault="undirected">
<edge source="a" target="b" directed="true"/></graph></graphml>`, want: `4: edge says directed="true", but the graph is undirected`},
		{name: "edgedefault against the option", in: graphmlHead + `<graph edgedefault="undirected"></graph></graphml>`,
			opt: ReadOptions{Directed: true}, want: "3: edgedefault=\"undirected\" says the graph is undirected"},
		{name: "bad edgedefault", in: graphmlHead + `<graph edgedefault="both"></graph></graphml>`, want: `3: edgedefault "both"`},
		{name: "bad weight", in: graphmlHead + wkey + `<graph edgedefault="undirected">
<edge source="a" target="b">
<data key="d0">1e400</data></edge></graph></graphml>`, want: "6: weight \"1e400\" overflows"},
		{name: "float in a long key", in: graphmlHead + ikey + `<graph edgedefault="undirected">
<edge source="a" target="b"><data key="d1">1.5</data></edge></graph></graphml>`, want: `5: bad integer weight "1.5"`},
		{name: "node twice", in: graphmlHead + `<graph edgedefault="undirected"><node id="a"/>
<node id="a"/></graph></graphml>`, want: `4: node "a" declared twice`},
		{name: "edge without target", in: graphmlHead + `<graph edgedefault="undirected">
<edge source="a"/></graph></graphml>`, want: "4: <edge> without a source and a target"},
		{name: "nested graph", in: graphmlHead + `<graph edgedefault="undirected"><node id="a">
<graph edgedefault="undirected"/></node></graph></graphml>`, want: "4: nested graphs are not supported"},
		{name: "hyperedge", in: graphmlHead + `<graph edgedefault="undirected">
<hyperedge/></graph></graphml>`, want: "4: hyperedges are not supported"},
		{name: "second graph", in: graphmlHead + `<graph edgedefault="undirected"/>
<graph edgedefault="undirected"/></graphml>`, want: "4: second <graph> (the first is on line 3)"},
		{name: "boolean weight key", in: graphmlHead + `<key id="d0" for="edge" attr.name="weight" attr.type="boolean"/>`,
			want: `3: the key for the edges' "weight" has attr.type "boolean"`},
		{name: "second weight", in: graphmlHead + wkey + `<graph edgedefault="undirected"><edge source="a" target="b">
<data key="d0">1</data>
<data key="d0">2</data></edge></graph></graphml>`, want: "6: second weight of the edge (the first is on line 5)"},
		{name: "weight key inside the graph", in: graphmlHead + `<graph edgedefault="undirected">
<key id="d0" for="edge" attr.name="weight"/></graph></graphml>`, want: `4: the key for the edges' "weight" is not a child of <graphml>`},
		{name: "charset", in: `<?xml version="1.0" encoding="ISO-8859-1"?>` + "\n<graphml/>", want: "1: bad XML"},
	})
}

func TestReadGML(t *testing.T) {
	runStructCases(t, FormatGML, "g.gml", []structCase{
		{name: "networkx undirected", in: `graph [
  node [
    id 0
    label "a b"
  ]
  node [
    id 1
    label "c"
  ]
  node [ id 7 label "&#233;&#34;&#38;" ]
  edge [
    source 0
    target 1
    weight 2.5
  ]
  edge [ source 1 target 7 ]
]
`, want: "0>1:2.5 1>0:2.5 1>2:1 2>1:1", names: "a b,c,é\"&"},
		{name: "directed, no labels, comments, Creator", in: "Creator \"x\"\n# c\ngraph\n[\n directed 1\n node [ id 5 ]\n node [ id -2 graphics [ x 1 y [ 2 ] ] ]\n edge [ source 5 target -2 weight -3 ]\n]\n",
			want: "0>1:-3", names: "5,-2", dir: true},
		{name: "ids as names are no names", in: "graph [ node [ id 0 label \"0\" ] node [ id 1 ] edge [ source 1 target 0 ] ]",
			want: "0>1 1>0", names: "-"},
		{name: "weight key and unweighted", in: "graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 len 4 weight x ] ]",
			opt: ReadOptions{WeightKey: "len"}, want: "0>1:4 1>0:4", names: "-"},
		{name: "unweighted option", in: "graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 weight NAN ] ]",
			opt: ReadOptions{Unweighted: true}, want: "0>1 1>0", names: "-"},
		{name: "numeric label", in: "graph [ node [ id 0 label 10 ] node [ id 1 label 11 ] edge [ source 0 target 1 ] ]",
			want: "0>1 1>0", names: "10,11"},

		{name: "empty", in: "", want: "1: no graph [ ... ] in the file"},
		{name: "unterminated list", in: "graph [\n node [ id 0 ]\n", want: "2: the file ends inside a list (graph [ on line 1)"},
		{name: "unterminated string", in: "graph [\n node [ id 0 label \"a ]\n]\n", want: `2: string "\"a ]" does not end on its line`},
		{name: "no id", in: "graph [\n node [\n label \"a\" ]\n]", want: "2: node without an id"},
		{name: "string id", in: "graph [\n node [ id \"a\" ]\n]", want: `2: node id "a" is not an integer`},
		{name: "id twice", in: "graph [\n node [ id 1 ]\n node [ id 1 ]\n]", want: "3: node id 1 is taken"},
		{name: "label twice", in: "graph [\n node [ id 1 label \"x\" ]\n node [ id 2 label \"x\" ]\n]", want: `3: the name "x" is taken`},
		{name: "undeclared source", in: "graph [\n node [ id 1 ]\n edge [ source 1\n target 2 ]\n]", want: "4: edge target 2: no node with that id"},
		{name: "bad weight", in: "graph [\n node [ id 1 ] node [ id 2 ]\n edge [ source 1 target 2\n weight 1e-400 ]\n]", want: `4: weight "1e-400" underflows`},
		{name: "string weight", in: "graph [\n node [ id 1 ] node [ id 2 ]\n edge [ source 1 target 2 weight \"3\" ]\n]", want: `3: weight "3" is a string`},
		{name: "directed after an edge", in: "graph [\n node [ id 1 ] node [ id 2 ]\n edge [ source 1 target 2 ]\n directed 1\n]", want: "4: directed 1 comes after the first edge (line 3)"},
		{name: "directed against the option", in: "graph [\n directed 1\n]", opt: ReadOptions{DirectedSet: true},
			want: "2: directed 1 says the graph is directed"},
		{name: "bad directed", in: "graph [\n directed yes\n]", want: `2: directed "yes", want 0 or 1`},
		{name: "second graph", in: "graph [ ]\ngraph [ ]\n", want: "2: second graph (the first is on line 1)"},
		{name: "a value for a key", in: "graph [\n 3 4\n]", want: `2: want a key, found "3"`},
		{name: "key without value", in: "graph [\n node [ id ]\n]", want: `2: key "id" has no value`},
		{name: "stray bracket", in: "]\n", want: `1: want a key, found "]"`},
	})
}

func TestReadPajek(t *testing.T) {
	runStructCases(t, FormatPajek, "g.net", []structCase{
		{name: "networkx edges", in: "*vertices 4\n1 \"a b\" 0.0 0.0 ellipse\n2 c 0.0 0.0 ellipse\n3 d\n4 é\"& 0.0 0.0 ellipse\n*edges\n1 2 2.5\n2 3 1.0\n",
			want: "0>1:2.5 1>0:2.5 1>2:1 2>1:1", names: "a b,c,d,é\"&"},
		{name: "arcs and edges: directed", in: "% c\n*Network x\n*Vertices 3\n*Arcs\n1 2 4 c Blue\n*Edges\n2 3 5\n",
			want: "0>1:4 1>2:5 2>1:5", names: "-", dir: true},
		{name: "labels by number, missing vertex lines", in: "*Vertices 3\n2 \"b\"\n*Edges\n1 2\n3 1\n",
			want: "0>1 0>2 1>0 2>0", names: "1,b,3"},
		{name: "numbers as labels are no names", in: "*Vertices 2\n1 \"1\"\n2 2\n*Arcs\n1 2\n",
			want: "0>1", names: "-", dir: true},
		{name: "lists", in: "*Vertices 4\n*Arcslist\n1 2 3 4\n*Edgeslist\n4 2\n",
			want: "0>1 0>2 0>3 1>3 3>1", names: "-", dir: true},
		{name: "crlf and unweighted option", in: "*Vertices 2\r\n1 \"x\"\r\n*Edges\r\n1 2 nan\r\n",
			opt: ReadOptions{Unweighted: true}, want: "0>1 1>0", names: "x,2"},
		{name: "vertices only, options decide", in: "*Vertices 2\n", opt: ReadOptions{Directed: true}, want: "", names: "-", dir: true},

		{name: "empty", in: "", want: `1: missing "*Vertices N" line`},
		{name: "edge before vertices", in: "*Arcs\n1 2\n", want: `1: *Arcs before "*Vertices N"`},
		{name: "line before vertices", in: "\n1 2\n", want: `2: line before "*Vertices N"`},
		{name: "second vertices", in: "*Vertices 2\n*Vertices 2\n", want: "2: second *Vertices line (the first is on line 1)"},
		{name: "id out of range", in: "*Vertices 2\n*Edges\n1 3\n", want: "3: vertex 3 out of range 1..2"},
		{name: "mixed weights", in: "*Vertices 2\n*Edges\n1 2 3\n2 1\n", want: "4: edge has no weight but the edge on line 3 has one"},
		{name: "bad weight", in: "*Vertices 2\n*Edges\n1 2 x\n", want: `3: bad weight "x"`},
		{name: "vertex line twice", in: "*Vertices 2\n1 a\n1 b\n", want: "3: second line of vertex 1"},
		{name: "label twice", in: "*Vertices 2\n1 a\n2 a\n", want: `3: label "a" is taken by the vertex on line 2`},
		{name: "label is another's number", in: "*Vertices 2\n1 \"2\"\n", want: `2: label "2" is the number of vertex 2`},
		{name: "unclosed label", in: "*Vertices 2\n1 \"a b\n", want: `2: label "\"a b" has no closing quote`},
		{name: "matrix", in: "*Vertices 2\n*Matrix\n0 1\n1 0\n", want: "2: *Matrix sections are not supported"},
		{name: "unknown section", in: "*Vertices 2\n*Partition\n", want: `2: unknown section "*Partition"`},
		{name: "arcs against the option", in: "*Vertices 2\n*Arcs\n", opt: ReadOptions{DirectedSet: true},
			want: "2: a *Arcs section says the graph is directed"},
		{name: "edges against the option", in: "*Vertices 2\n*Edges\n1 2\n", opt: ReadOptions{Directed: true},
			want: "2: an *Edges section with no *Arcs says the graph is undirected"},
		{name: "vertices below the option", in: "*Vertices 3\n", opt: ReadOptions{Vertices: 2},
			want: "1: the *Vertices line says 3 vertices, but it is read with 2"},
	})
}

func TestReadMETIS(t *testing.T) {
	runStructCases(t, FormatMETIS, "g.graph", []structCase{
		{name: "plain", in: "% c\n4 2\n2 3\n1\n1\n\n", want: "0>1 0>2 1>0 2>0", names: "-"},
		{name: "edge weights", in: "3 2 1\n2 5 3 1\n1 5\n1 1\n", want: "0>1:5 0>2:1 1>0:5 2>0:1", names: "-"},
		{name: "sizes and two vertex weights", in: "3 1 111 2\n% vertex 1\n9 1 2 2 7\n9 3 4 1 7\n0 0 0\n",
			want: "0>1:7 1>0:7", names: "-"},
		{name: "vertex weights, ncon 1", in: "2 1 10\n4 2\n4 1\n", want: "0>1 1>0", names: "-"},
		{name: "missing last lines", in: "3 1\n2\n1\n", want: "0>1 1>0", names: "-"},
		{name: "unweighted option", in: "2 1 1\n2 x\n1 y\n", opt: ReadOptions{Unweighted: true}, want: "0>1 1>0", names: "-"},

		{name: "empty", in: "", want: `1: missing header "n m [fmt [ncon]]"`},
		{name: "bad header", in: "3\n", want: `1: want header "n m [fmt [ncon]]", found 1 fields`},
		{name: "bad fmt", in: "3 1 12\n", want: `1: bad fmt "12"`},
		{name: "ncon without vertex weights", in: "3 1 1 2\n", want: `1: ncon "2" without vertex weights`},
		{name: "edge count", in: "3 2\n2\n1\n\n", want: "1: header says 2 edges, which is 4 neighbour entries, but the file has 2"},
		{name: "asymmetric", in: "3 1\n2\n3\n\n", want: "1: vertex 1 lists 2, but vertex 2 does not list 1"},
		{name: "two weights", in: "2 1 1\n2 3\n1 4\n", want: "1: edge 1-2 has two weights"},
		{name: "self-loop", in: "2 1\n1\n", want: "2: vertex 1 lists itself"},
		{name: "out of range", in: "2 1\n3\n", want: "2: vertex 3 out of range 1..2"},
		{name: "missing weight", in: "2 1 1\n2\n", want: `2: neighbour 2 has no edge weight (fmt 1)`},
		{name: "bad vertex weight", in: "2 1 10\nx 2\n", want: `2: bad vertex size or weight "x"`},
		{name: "too many lines", in: "1 0\n\n% c\n\n2\n", want: "5: more than the 1 vertex lines the header says"},
		{name: "duplicate neighbour", in: "2 1\n2 2\n\n", want: "1: a vertex lists a neighbour twice"},
		{name: "directed option", in: "2 0\n", opt: ReadOptions{Directed: true}, want: "1: a METIS file says the graph is undirected"},
	})
}

// TestReadDeclaredCountsRefused checks that a tiny file declaring a
// billion vertices is refused at once, wrapping ErrTooLarge.
func TestReadDeclaredCountsRefused(t *testing.T) {
	withMemoryLimit(t, 64<<20, func() {
		for _, tc := range []struct {
			format Format
			in     string
		}{
			{FormatPajek, "*Vertices 1000000000\n"},
			{FormatMETIS, "1000000000 0\n"},
			{FormatMETIS, "99999999999999999999 0\n"},
		} {
			start := time.Now()
			_, err := Read(strings.NewReader(tc.in), "big", ReadOptions{Format: tc.format})
			var pe *ParseError
			if !errors.Is(err, ErrTooLarge) || !errors.As(err, &pe) || pe.Line != 1 {
				t.Errorf("%v %q: got %v, want ErrTooLarge at line 1", tc.format, tc.in, err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("%v: refused after %v", tc.format, d)
			}
		}
	})
}

func TestReadSniffStructured(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{
		{graphmlHead + "<graph/></graphml>", FormatGraphML},
		{"\n<graphml/>", FormatGraphML},
		{"graph [\n]\n", FormatGML},
		{"graph[ ]\n", FormatGML},
		{"Creator \"igraph\"\nVersion 1\ngraph\n[\n]\n", FormatGML},
		{"*Vertices 2\n", FormatPajek},
		{"*network x\n*vertices 0\n", FormatPajek},
		{"2 1\n2\n1\n", FormatEdgeList}, // METIS: by name only
	} {
		_, format, err := ReadFormat(strings.NewReader(tc.in), "stdin", ReadOptions{})
		if format != tc.want {
			t.Errorf("%q: sniffed %v (%v), want %v", tc.in, format, err, tc.want)
		}
	}
	// An edge list may hold no line of these formats.
	for _, tc := range []struct{ in, want string }{
		{"0 1\n<?xml version='1.0'?>\n", "stdin:2: this is a GraphML file, not an edge list"},
		{"0 1\ngraph [\n", "stdin:2: this is a GML file, not an edge list"},
		{"# c\n*Vertices 3\n", "stdin:2: this is a Pajek file, not an edge list"},
	} {
		_, err := Read(strings.NewReader(tc.in), "stdin", ReadOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}
