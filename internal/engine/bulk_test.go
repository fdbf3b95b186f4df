package engine

import (
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
)

// TestBulkFits: the GPU bulk search takes unweighted graphs of 1 to
// gpu.BulkMaxN vertices, directed or not, and nothing else.
func TestBulkFits(t *testing.T) {
	build := func(n int, directed bool, w int64) *graph.Graph {
		b := graph.NewBuilder(directed)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		if n > 1 {
			var err error
			if w == 0 {
				err = b.AddEdge(0, 1)
			} else {
				err = b.AddIntEdge(0, 1, w)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	for _, tc := range []struct {
		g    *graph.Graph
		want bool
	}{
		{nil, false},
		{build(0, false, 0), false},
		{build(1, false, 0), true},
		{build(gpu.BulkMaxN, true, 0), true},
		{build(gpu.BulkMaxN+1, false, 0), false},
		{build(10, false, 3), false},
		{build(10, false, 3).Unweighted(), true},
	} {
		if got := BulkFits(tc.g); got != tc.want {
			n := -1
			if tc.g != nil {
				n = tc.g.N()
			}
			t.Fatalf("BulkFits(%d vertices) = %v, want %v", n, got, tc.want)
		}
	}
}
