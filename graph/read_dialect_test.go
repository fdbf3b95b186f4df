package graph

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadDialects reads the edge lists other tools write: NetworkX's
// write_edgelist with its attribute dicts, comma- and tab-separated
// lists, names (Labels), and CSV with a header.
func TestReadDialects(t *testing.T) {
	el, csv := FormatEdgeList, FormatCSV
	tests := []struct {
		name   string
		format Format
		opt    ReadOptions
		in     string
		arcs   string   // dump of the graph
		names  []string // nil: no names
	}{
		{name: "networkx no data", format: el, in: "0 1 {}\n1 2 {}\n", arcs: "0>1 1>0 1>2 2>1"},
		{name: "networkx weight", format: el, in: "0 1 {'weight': 4}\n1 2 {'weight': 2.5, 'color': 'red'}\n",
			arcs: "0>1:4 1>0:4 1>2:2.5 2>1:2.5"},
		{name: "networkx missing weight is 1", format: el, in: "0 1 {'color': 'a, b: {c}'}\n1 2 {'weight': 7}\n",
			arcs: "0>1:1 1>0:1 1>2:7 2>1:7"},
		{name: "networkx other key", format: el, opt: ReadOptions{WeightKey: "length"},
			in: "0 1 {'weight': 4, 'length': 9}\n", arcs: "0>1:9 1>0:9"},
		{name: "networkx numpy scalar", format: el, in: "0 1 {'weight': np.float64(4.5)}\n",
			arcs: "0>1:4.5 1>0:4.5"},
		{name: "networkx double quotes nested", format: el, in: "0 1 {\"w's\": [1, {2: 3}], \"weight\": -2,}\n",
			arcs: "0>1:-2 1>0:-2"},
		{name: "networkx unweighted option", format: el, opt: ReadOptions{Unweighted: true},
			in: "0 1 {'weight': 4}\n", arcs: "0>1 1>0"},
		{name: "networkx directed names", format: el, opt: ReadOptions{Labels: true, Directed: true},
			in: "x y {'weight': 2}\ny z {}\n", arcs: "0>1:2 1>2:1", names: []string{"x", "y", "z"}},
		{name: "comma separated", format: el, in: "0,1\n1,2,3\n", opt: ReadOptions{Unweighted: true},
			arcs: "0>1 1>0 1>2 2>1"},
		{name: "comma and blanks", format: el, in: "0, 1, 5\n1 ,2 ,6\n", arcs: "0>1:5 1>0:5 1>2:6 2>1:6"},
		{name: "tabs", format: el, in: "0\t1\t2\n", arcs: "0>1:2 1>0:2"},
		{name: "networkx comma delimiter", format: el, in: "0,1,{'weight': 2}\n1,2,{}\n", arcs: "0>1:2 1>0:2 1>2:1 2>1:1"},
		{name: "labels", format: el, opt: ReadOptions{Labels: true}, in: "b a 1\na c 3\n",
			arcs: "0>1:1 1>0:1 1>2:3 2>1:3", names: []string{"b", "a", "c"}},
		{name: "labels look like ids", format: el, opt: ReadOptions{Labels: true}, in: "10 20\n20 5\n",
			arcs: "0>1 1>0 1>2 2>1", names: []string{"10", "20", "5"}},
		{name: "labels isolated vertex and c", format: el, opt: ReadOptions{Labels: true}, in: "c\nc a\np q\nz\n",
			arcs: "0>1 1>0 2>3 3>2", names: []string{"c", "a", "p", "q", "z"}},
		{name: "labels header", format: el, in: "# labels: true\n# vertices: 3\nu v\nw\n",
			arcs: "0>1 1>0", names: []string{"u", "v", "w"}},
		{name: "labels and vertices option", format: el, opt: ReadOptions{Labels: true, Vertices: 4}, in: "u v\n",
			arcs: "0>1 1>0", names: []string{"u", "v", "2", "3"}},
		{name: "csv", format: csv, in: "source,target,weight\na,b,3\nb,c,1.5\n",
			arcs: "0>1:3 1>0:3 1>2:1.5 2>1:1.5", names: []string{"a", "b", "c"}},
		{name: "csv pandas index and quotes", format: csv, in: ",target,source,other\n0,\"x, y\",z,q\n1,z,w,\n",
			arcs: "0>1 0>2 1>0 2>0", names: []string{"z", "x, y", "w"}},
		{name: "csv named columns directed", format: csv,
			opt: ReadOptions{Directed: true, CSV: CSVColumns{Source: "from", Target: "to", Weight: "cost"}},
			in:  "from,to,cost,weight\n1,2,7,100\n2,3,8,100\n", arcs: "0>1:7 1>2:8", names: []string{"1", "2", "3"}},
		{name: "csv isolated vertex", format: csv, in: "source,target\na,\nb,c\n",
			arcs: "1>2 2>1", names: []string{"a", "b", "c"}},
		{name: "csv unweighted option", format: csv, opt: ReadOptions{Unweighted: true},
			in: "source,target,weight\na,b,x\n", arcs: "0>1 1>0", names: []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			opt.Format = tt.format
			g, err := Read(strings.NewReader(tt.in), "in", opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(g); got != tt.arcs || !slices.Equal(g.Names(), tt.names) {
				t.Errorf("got %q names %q; want %q names %q", got, g.Names(), tt.arcs, tt.names)
			}
		})
	}
}

func TestReadDialectsReject(t *testing.T) {
	el, csv := FormatEdgeList, FormatCSV
	tests := []struct {
		name   string
		format Format
		opt    ReadOptions
		in     string
		want   string
	}{
		{"dict weight not a number", el, ReadOptions{}, "0 1 {'weight': 'heavy'}\n", `in:1: edge attributes "{'weight': 'heavy'}": "weight" is 'heavy', not a number`},
		{"dict weight bool", el, ReadOptions{}, "0 1 {}\n0 2 {'weight': True}\n", `in:2: edge attributes`},
		{"dict weight nan", el, ReadOptions{}, "0 1 {'weight': nan}\n", `in:1: weight "nan" is not a finite number`},
		{"dict unclosed", el, ReadOptions{}, "0 1 {'weight': 4\n", `in:1: edge attributes`},
		{"dict text after", el, ReadOptions{}, "0 1 {} x\n", `text after the dict`},
		{"dict three fields", el, ReadOptions{}, "0 1 2 {}\n", `in:1: want "u v {attributes}", found 3 fields`},
		{"dict key twice", el, ReadOptions{}, "0 1 {'weight': 1, 'weight': 2}\n", `key "weight" twice`},
		{"empty comma field", el, ReadOptions{}, "0,1,3\n0,,5\n", `in:2: comma-separated field 2 is empty or holds a blank`},
		{"blank inside comma field", el, ReadOptions{}, "0 1,2\n", `in:1: comma-separated field 1 is empty`},
		{"names without labels", el, ReadOptions{}, "a b\n", `in:1: bad vertex id "a" (vertex names that are not ids need --labels`},
		{"labels header count", el, ReadOptions{}, "# labels: true\n# vertices: 4\nu v\n", `in:2: header says "# vertices: 4", but the file names 2 vertices`},
		{"csv no header columns", csv, ReadOptions{}, "u,v\n1,2\n", `in:1: the CSV header ["u" "v"] lacks the source and target columns "source" and "target"`},
		{"csv missing weight column", csv, ReadOptions{CSV: CSVColumns{Weight: "w"}}, "source,target\n1,2\n", `has no weight column "w"`},
		{"csv ragged", csv, ReadOptions{}, "source,target\n1,2\n3\n", `in:3: wrong number of fields`},
		{"csv bad weight", csv, ReadOptions{}, "source,target,weight\n1,2,3\n\n4,5,x\n", `in:4: bad weight "x"`},
		{"csv empty weight", csv, ReadOptions{}, "source,target,weight\n1,2,\n", `in:2: empty weight`},
		{"csv empty source", csv, ReadOptions{}, "source,target\n,2\n", `in:2: empty source vertex name`},
		{"csv bad quote", csv, ReadOptions{}, "source,target\n\"a,b\n", `in:2:`},
		{"csv column twice", csv, ReadOptions{}, "source,target,weight,weight\na,b,1,2\n", `in:1: the CSV header names column "weight" twice (columns 3 and 4)`},
		{"csv empty", csv, ReadOptions{}, "", `in:1: empty CSV file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			opt.Format = tt.format
			_, err := Read(strings.NewReader(tt.in), "in", opt)
			var pe *ParseError
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &pe) {
				t.Fatalf("error %v, want a ParseError containing %q", err, tt.want)
			}
		})
	}
}

// TestReadWarnsSparseIDs: integer ids that leave most vertices without
// an edge (a SNAP file's names) are warned of, naming --labels; a file
// whose header declares its vertices, or read with labels, is not.
func TestReadWarnsSparseIDs(t *testing.T) {
	tests := []struct {
		in   string
		opt  ReadOptions
		warn bool
	}{
		{"1 5\n5 9\n", ReadOptions{}, true},
		{"0 1\n1 2\n", ReadOptions{}, false},
		{"0 1\n1 3\n", ReadOptions{}, false}, // one of four isolated
		{"# vertices: 10\n1 5\n5 9\n", ReadOptions{}, false},
		{"1 5\n5 9\n", ReadOptions{Labels: true}, false},
	}
	for _, tt := range tests {
		var got []string
		opt := tt.opt
		opt.Warn = func(s string) { got = append(got, s) }
		if _, err := Read(strings.NewReader(tt.in), "snap.txt", opt); err != nil {
			t.Fatal(err)
		}
		if (len(got) > 0) != tt.warn || tt.warn && !strings.Contains(got[0], "snap.txt: 7 of the 10 vertices have no edge") ||
			tt.warn && !strings.Contains(got[0], "--labels") {
			t.Errorf("%q: warnings %q, want warning %t", tt.in, got, tt.warn)
		}
	}
}

// TestNamedRoundTrip: a named graph written as an edge list and as CSV
// reads back with the same names and arcs, isolated vertices included.
func TestNamedRoundTrip(t *testing.T) {
	b := NewBuilder(false)
	for _, e := range [][2]string{{"alice", "bob"}, {"bob", "carol"}} {
		u, _ := b.Vertex(e[0])
		v, _ := b.Vertex(e[1])
		if err := b.AddIntEdge(u, v, int64(len(e[0]))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Vertex("dave"); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *Graph) error
	}{
		{"x.txt", func(w *bytes.Buffer, g *Graph) error { return WriteEdgeList(w, g) }},
		{"x.csv", func(w *bytes.Buffer, g *Graph) error { return WriteCSV(w, g) }},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf, g); err != nil {
			t.Fatal(err)
		}
		h, err := Read(bytes.NewReader(buf.Bytes()), tc.name, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, buf.String())
		}
		if namedDump(h) != namedDump(g) {
			t.Errorf("%s: read back %q, want %q\n%s", tc.name, namedDump(h), namedDump(g), buf.String())
		}
	}
	// A name an edge list cannot hold is refused, not mangled.
	bad, err := g.WithNames([]string{"a b", "c", "d", "e"})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteEdgeList(&bytes.Buffer{}, bad); err == nil || !strings.Contains(err.Error(), `"a b"`) {
		t.Errorf("WriteEdgeList of a name with a blank: %v", err)
	}
}

// TestNamedVertexLimit: names read from an edge list with labels, or from
// CSV, meet the vertex limit of the work that follows as ids do: a file
// naming more vertices than that work can hold is refused while read,
// wrapping ErrTooLarge.
func TestNamedVertexLimit(t *testing.T) {
	var el, csv strings.Builder
	csv.WriteString("source,target\n")
	for i := range 300 {
		fmt.Fprintf(&el, "v%d v%d\n", i, i+1)
		fmt.Fprintf(&csv, "v%d,v%d\n", i, i+1)
	}
	// A pair of bytes a gigabyte: a few vertices fit in any memory here.
	then := Work{Name: "test", PairBytes: 1 << 30}
	for _, tc := range []struct {
		in     string
		format Format
	}{{el.String(), FormatEdgeList}, {csv.String(), FormatCSV}} {
		_, err := Read(strings.NewReader(tc.in), "in", ReadOptions{Format: tc.format, Labels: true, Then: then})
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: %v, want ErrTooLarge", tc.format, err)
		}
	}
}
