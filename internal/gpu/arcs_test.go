package gpu

import (
	"errors"
	"testing"

	"github.com/apsp/apsp/graph"
)

// TestArcLanes: negative arcs and lengths past the lanes are refused before
// the GPU is touched.
func TestArcLanes(t *testing.T) {
	build := func(add func(b *graph.Builder) error) *graph.Graph {
		b := graph.NewBuilder(true)
		if err := b.SetVertices(3); err != nil {
			t.Fatal(err)
		}
		if err := add(b); err != nil {
			t.Fatal(err)
		}
		return b.Build()
	}
	cases := []struct {
		name  string
		g     *graph.Graph
		float bool
		neg   bool
		ok    bool
	}{
		{name: "unweighted", g: build(func(b *graph.Builder) error { return b.AddEdge(0, 1) }), ok: true},
		{name: "zero", g: build(func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 0) }), ok: true},
		{name: "negative int", g: build(func(b *graph.Builder) error { return b.AddIntEdge(0, 1, -1) }), neg: true},
		{name: "negative float", g: build(func(b *graph.Builder) error { return b.AddFloatEdge(0, 1, -0.5) }), float: true, neg: true},
		{name: "float", g: build(func(b *graph.Builder) error { return b.AddFloatEdge(0, 1, 0.5) }), float: true, ok: true},
		{name: "int at infinity", g: build(func(b *graph.Builder) error { return b.AddIntEdge(0, 1, int64(InfInt32)) })},
		{name: "int in float lanes", g: build(func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 3) }), float: true},
	}
	for _, c := range cases {
		err := CheckArcs(c.g, c.float)
		if (err == nil) != c.ok || (c.neg && !errors.Is(err, ErrNegativeArc)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
