package graph

import (
	"slices"
	"strings"
	"testing"
)

func TestFromSortedAdjacency(t *testing.T) {
	// A 4-cycle 0-1-2-3-0.
	cycOff := []int{0, 2, 4, 6, 8}
	cases := []struct {
		name    string
		n       int
		off     []int
		heads   []int32
		wantErr string
	}{
		{"cycle", 4, cycOff, []int32{1, 3, 0, 2, 1, 3, 0, 2}, ""},
		{"empty", 0, []int{0}, nil, ""},
		{"unsorted", 4, cycOff, []int32{3, 1, 0, 2, 1, 3, 0, 2}, "not increasing"},
		{"twice", 3, []int{0, 2, 3, 4}, []int32{1, 1, 0, 0}, "twice"},
		{"out of range", 2, []int{0, 1, 2}, []int32{2, 0}, "out of range"},
		{"one-way", 3, []int{0, 1, 2, 3}, []int32{1, 2, 0}, "not listed"},
		{"missing back arc", 3, []int{0, 1, 1, 2}, []int32{2, 1}, "not listed"},
		{"offsets", 2, []int{0, 1}, []int32{1}, "offsets"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := FromSortedAdjacency(c.n, c.off, c.heads)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := NewBuilder(false)
			b.SetVertices(c.n)
			for u := range c.n {
				for _, v := range c.heads[c.off[u]:c.off[u+1]] {
					b.AddEdge(u, int(v))
				}
			}
			want := b.Build()
			if g.N() != want.N() || g.Arcs() != want.Arcs() || g.Directed() || g.Weighted() {
				t.Fatalf("n %d arcs %d, want %d %d", g.N(), g.Arcs(), want.N(), want.Arcs())
			}
			for u := range c.n {
				if a, b := g.Neighbors(u), want.Neighbors(u); !slices.Equal(a, b) {
					t.Fatalf("vertex %d: %v, want %v", u, a, b)
				}
			}
			if cap(g.heads) < len(g.heads)+64 {
				t.Errorf("heads without slack: cap %d len %d", cap(g.heads), len(g.heads))
			}
		})
	}
}
