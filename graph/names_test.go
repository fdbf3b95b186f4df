package graph

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestBuilderNames(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *Builder) error
		want  []string
		arcs  int
	}{
		{"none", func(b *Builder) error { return b.AddEdge(0, 1) }, nil, 2},
		{"in order", func(b *Builder) error {
			for _, e := range [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}} {
				u, err := b.Vertex(e[0])
				if err != nil {
					return err
				}
				v, err := b.VertexBytes([]byte(e[1]))
				if err != nil {
					return err
				}
				if err := b.AddEdge(u, v); err != nil {
					return err
				}
			}
			return nil
		}, []string{"a", "b", "c"}, 6},
		{"unnamed first", func(b *Builder) error {
			if err := b.SetVertices(2); err != nil {
				return err
			}
			v, err := b.Vertex("1") // the unnamed vertices are named by their ids
			if v != 1 {
				return fmt.Errorf(`Vertex("1") = %d, want 1`, v)
			}
			return err
		}, []string{"0", "1"}, 0},
		{"taken id", func(b *Builder) error {
			if _, err := b.Vertex("1"); err != nil {
				return err
			}
			return b.AddEdge(1, 2) // vertex 1 is unnamed, and "1" is vertex 0's
		}, []string{"1", "1#2", "2"}, 2},
		{"unnamed last", func(b *Builder) error {
			if _, err := b.Vertex("x"); err != nil {
				return err
			}
			return b.SetVertices(3)
		}, []string{"x", "1", "2"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder(false)
			if err := tt.build(b); err != nil {
				t.Fatal(err)
			}
			g := b.Build()
			if !slices.Equal(g.Names(), tt.want) || g.Arcs() != tt.arcs {
				t.Fatalf("names %q, arcs %d; want %q, %d", g.Names(), g.Arcs(), tt.want, tt.arcs)
			}
			for v := range g.N() {
				if u, ok := g.VertexNamed(g.Name(v)); tt.want != nil && (!ok || u != v) {
					t.Errorf("VertexNamed(%q) = %d, %t; want %d", g.Name(v), u, ok, v)
				}
			}
			if g.Unweighted().Names() == nil != (tt.want == nil) {
				t.Error("Unweighted dropped the names")
			}
		})
	}
}

func TestWithNames(t *testing.T) {
	b := NewBuilder(true)
	if err := b.AddEdge(0, 2); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	if _, err := g.WithNames([]string{"a", "b"}); err == nil {
		t.Error("two names for three vertices accepted")
	}
	if _, err := g.WithNames([]string{"a", "b", "a"}); !errors.Is(err, ErrDuplicateName) {
		t.Errorf("duplicate names: %v, want ErrDuplicateName", err)
	}
	h, err := g.WithNames([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Name(2) != "c" || g.Name(2) != "2" || h.Transpose().Name(0) != "a" {
		t.Errorf("names: %q %q %q", h.Name(2), g.Name(2), h.Transpose().Name(0))
	}
}
