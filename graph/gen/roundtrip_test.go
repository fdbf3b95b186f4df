package gen_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// roundTripParams gives small sizes for every kind, some with one vertex.
var roundTripParams = map[string][][]string{
	"regular":   {{"n=12", "d=3"}},
	"geometric": {{"n=30", "d=2"}},
	"gnp":       {{"n=15", "r=30"}},
	"ba":        {{"n=20", "d=2"}},
	"grid":      {{"a=3", "b=4"}, {"a=1", "b=1"}},
	"torus":     {{"a=3", "b=4"}},
	"hypercube": {{"d=3"}, {"d=0"}},
	"complete":  {{"n=5"}, {"n=1"}},
	"cycle":     {{"n=5"}},
	"path":      {{"n=6"}, {"n=1"}},
	"petersen":  {nil},
}

// roundTripWeights are the weights= options tried with every kind: none,
// integers (negative, and ±2^62), floats (negative, huge, tiny and
// subnormal, where some draws are 0).
var roundTripWeights = []string{
	"", "weights=1..9", "weights=-5..5", "weights=-4611686018427387904..4611686018427387904",
	"weights=0.5..2.5", "weights=-1e300..1e300", "weights=0..1e-300", "weights=0.0..2e-323",
}

// TestWriteReadRoundTrip writes every kind of generated graph in every format
// and reads it back, with no options, by the format's file name and from
// stdin (sniffed): the same graph must come back. DIMACS files are directed
// and weighted, so they give the directed graph with the same arcs and,
// for an unweighted graph, integer weights 1.
func TestWriteReadRoundTrip(t *testing.T) {
	writers := []struct {
		name  string
		write func(io.Writer, *graph.Graph) error
	}{
		{"g.txt", graph.WriteEdgeList},
		{"g.mtx", graph.WriteMatrixMarket},
		{"g.gr", graph.WriteDIMACS},
	}
	for _, k := range gen.Kinds() {
		params, ok := roundTripParams[k.Name]
		if !ok {
			t.Errorf("kind %s: no round-trip parameters", k.Name)
			continue
		}
		for _, p := range params {
			for _, w := range roundTripWeights {
				for _, directed := range []bool{false, true} {
					args := slices.Clone(p)
					if w != "" {
						args = append(args, w)
					}
					if directed {
						args = append(args, "directed")
					}
					s, err := gen.ParseSpec(k.Name, args)
					if err != nil {
						t.Fatalf("%s %v: %v", k.Name, args, err)
					}
					g, err := gen.Generate(s)
					if err != nil {
						t.Fatalf("%s %v: %v", k.Name, args, err)
					}
					for _, wr := range writers {
						var buf bytes.Buffer
						if err := wr.write(&buf, g); err != nil {
							t.Fatal(err)
						}
						want := g
						if strings.HasSuffix(wr.name, ".gr") {
							want = asDIMACS(t, g)
						}
						for _, name := range []string{wr.name, "stdin"} {
							got, err := graph.Read(bytes.NewReader(buf.Bytes()), name, graph.ReadOptions{})
							if err != nil {
								t.Fatalf("%s %v as %s: %v", k.Name, args, name, err)
							}
							if diff := graphDiff(got, want); diff != "" {
								t.Fatalf("%s %v written as %s, read as %s: %s", k.Name, args, wr.name, name, diff)
							}
						}
					}
				}
			}
		}
	}
}

// asDIMACS is what a DIMACS file of g reads back as: directed, with the same
// arcs, and weights 1 in place of none.
func asDIMACS(t *testing.T, g *graph.Graph) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(true)
	if err := b.SetVertices(g.N()); err != nil {
		t.Fatal(err)
	}
	for u := range g.N() {
		for i, v := range g.Neighbors(u) {
			var err error
			if g.Kind() == graph.FloatWeights {
				err = b.AddFloatEdge(u, int(v), g.ArcFloat(u, i))
			} else {
				err = b.AddIntEdge(u, int(v), g.ArcInt(u, i))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.Build()
}

// graphDiff describes the first difference between got and want, or returns
// "": vertex count, directedness, weight kind, negative self-loop, and every
// arc with its weight, floats compared bit for bit.
func graphDiff(got, want *graph.Graph) string {
	if got.N() != want.N() || got.Directed() != want.Directed() || got.Kind() != want.Kind() || got.Arcs() != want.Arcs() {
		return "got " + describe(got) + ", want " + describe(want)
	}
	gl, gok := got.NegativeSelfLoop()
	wl, wok := want.NegativeSelfLoop()
	if gok != wok || gl != wl {
		return "negative self-loops differ"
	}
	for u := range want.N() {
		if !slices.Equal(got.Neighbors(u), want.Neighbors(u)) {
			return "arcs of a vertex differ"
		}
		if !slices.Equal(got.IntWeights(u), want.IntWeights(u)) {
			return "integer weights differ"
		}
		gf, wf := got.FloatWeights(u), want.FloatWeights(u)
		for i := range wf {
			if math.Float64bits(gf[i]) != math.Float64bits(wf[i]) {
				return "float weights differ"
			}
		}
	}
	return ""
}

func describe(g *graph.Graph) string {
	return fmt.Sprintf("%v graph (directed %t) of %d vertices and %d arcs", g.Kind(), g.Directed(), g.N(), g.Arcs())
}
