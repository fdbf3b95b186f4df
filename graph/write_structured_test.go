package graph

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// structWriters are the writers of the formats that read_structured reads.
var structWriters = []struct {
	name   string
	format Format
	write  func(*bytes.Buffer, *Graph) error
	sniff  bool // the content tells the format
}{
	{"graphml", FormatGraphML, func(b *bytes.Buffer, g *Graph) error { return WriteGraphML(b, g) }, true},
	{"gml", FormatGML, func(b *bytes.Buffer, g *Graph) error { return WriteGML(b, g) }, true},
	{"pajek", FormatPajek, func(b *bytes.Buffer, g *Graph) error { return WritePajek(b, g) }, true},
	{"metis", FormatMETIS, func(b *bytes.Buffer, g *Graph) error { return WriteMETIS(b, g) }, false},
}

// named returns g with names: each vertex's id in words, with characters
// that the formats must escape.
func named(t *testing.T, g *Graph) *Graph {
	t.Helper()
	names := make([]string, g.N())
	for v := range names {
		names[v] = fmt.Sprintf("v %d <&é中>'", v)
		if v%3 == 1 {
			names[v] = fmt.Sprint(v + 7) // a number that is not the id
		}
	}
	h, err := g.WithNames(names)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestWriteStructuredRoundTrip(t *testing.T) {
	var cases []wrCase
	for _, c := range wrCases(t) {
		cases = append(cases, c, wrCase{c.name + "/named", named(t, c.g)})
	}
	for _, c := range cases {
		for _, wr := range structWriters {
			t.Run(c.name+"/"+wr.name, func(t *testing.T) {
				var buf bytes.Buffer
				err := wr.write(&buf, c.g)
				_, neg := c.g.NegativeSelfLoop()
				if wr.format == FormatMETIS && (c.g.Directed() || c.g.Kind() == FloatWeights || neg) {
					if !errors.Is(err, ErrNotMETIS) {
						t.Fatalf("got %v, want ErrNotMETIS", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				want := wrPlusZero(c.g)
				opts := []ReadOptions{{Format: wr.format}}
				if wr.sniff {
					opts = append(opts, ReadOptions{})
				}
				for _, opt := range opts {
					got, err := Read(bytes.NewReader(buf.Bytes()), "stdin", opt)
					if err != nil {
						t.Fatalf("%v\n%s", err, buf.String())
					}
					wrSameGraph(t, got, want)
					wantNames := c.g.Names()
					if wr.format == FormatMETIS {
						wantNames = nil
					}
					if !slices.Equal(got.Names(), wantNames) || (got.Names() == nil) != (wantNames == nil) {
						t.Fatalf("names %q, want %q", got.Names(), wantNames)
					}
				}
			})
		}
	}
}

func TestWriteStructuredRefusesNames(t *testing.T) {
	g := wrBuild(t, false, Unweighted, 2, []wrEdge{{0, 1, 1}})
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *Graph) error
		bad   string
	}{
		{"graphml", func(b *bytes.Buffer, g *Graph) error { return WriteGraphML(b, g) }, "a\x01"},
		{"graphml", func(b *bytes.Buffer, g *Graph) error { return WriteGraphML(b, g) }, "a\xff"},
		{"gml", func(b *bytes.Buffer, g *Graph) error { return WriteGML(b, g) }, "a\xff"},
		{"pajek", func(b *bytes.Buffer, g *Graph) error { return WritePajek(b, g) }, `a" b`},
		{"pajek", func(b *bytes.Buffer, g *Graph) error { return WritePajek(b, g) }, `"ab`},
		{"pajek", func(b *bytes.Buffer, g *Graph) error { return WritePajek(b, g) }, "a\nb"},
	} {
		h, err := g.WithNames([]string{"ok", tc.bad})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tc.write(&buf, h); err == nil || !strings.Contains(err.Error(), "vertex 1: name") {
			t.Errorf("%s %q: got %v, want a refusal", tc.name, tc.bad, err)
		}
	}
}

func TestWriteStructuredText(t *testing.T) {
	g, err := wrBuild(t, false, FloatWeights, 3, []wrEdge{{0, 1, 1e21}, {1, 2, 0.5}}).WithNames([]string{"a", "b c", `d"&`})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *Graph) error
		want  string
	}{
		{"graphml", func(b *bytes.Buffer, g *Graph) error { return WriteGraphML(b, g) }, `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>
  <graph id="G" edgedefault="undirected">
    <node id="a"/>
    <node id="b c"/>
    <node id="d&#34;&amp;"/>
    <edge source="a" target="b c"><data key="weight">1e+21</data></edge>
    <edge source="b c" target="d&#34;&amp;"><data key="weight">0.5</data></edge>
  </graph>
</graphml>
`},
		{"gml", func(b *bytes.Buffer, g *Graph) error { return WriteGML(b, g) }, `graph [
  directed 0
  node [
    id 0
    label "a"
  ]
  node [
    id 1
    label "b c"
  ]
  node [
    id 2
    label "d&#34;&#38;"
  ]
  edge [
    source 0
    target 1
    weight 1.0e+21
  ]
  edge [
    source 1
    target 2
    weight 0.5
  ]
]
`},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf, g); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, buf.String(), tc.want)
		}
	}
	h := wrBuild(t, true, IntWeights, 3, []wrEdge{{0, 1, 4}, {2, 0, -1}})
	var buf bytes.Buffer
	if err := WritePajek(&buf, h); err != nil {
		t.Fatal(err)
	}
	if want := "*Vertices 3\n1 \"1\"\n2 \"2\"\n3 \"3\"\n*Arcs\n1 2 4\n3 1 -1\n"; buf.String() != want {
		t.Errorf("pajek:\n%s\nwant:\n%s", buf.String(), want)
	}
	u := wrBuild(t, false, IntWeights, 3, []wrEdge{{0, 1, 4}, {2, 0, 2}})
	buf.Reset()
	if err := WriteMETIS(&buf, u); err != nil {
		t.Fatal(err)
	}
	if want := "3 2 1\n2 4 3 2\n1 4\n1 2\n"; buf.String() != want {
		t.Errorf("metis:\n%s\nwant:\n%s", buf.String(), want)
	}
}
