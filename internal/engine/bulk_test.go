package engine

import (
	"context"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/bulk"
	"github.com/apsp/apsp/internal/reduce"
)

// TestBulkFits: the GPU bulk search takes unweighted graphs of 1 to
// bulk.MaxN vertices, directed or not, and nothing else.
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
	// Past bulk.AnyGPUMaxN a graph fits unless a GPU already known lacks
	// the shared memory (BulkFits loads no driver: on a machine without
	// one, or before any GPU use, it fits; the bulk call checks again).
	infos, _ := gpu.LoadedDevices()
	large := true
	for _, in := range infos {
		large = large && bulk.FitsShared(bulk.MaxN, in.MaxShared)
	}
	for _, tc := range []struct {
		g    *graph.Graph
		want bool
	}{
		{nil, false},
		{build(0, false, 0), false},
		{build(1, false, 0), true},
		{build(bulk.AnyGPUMaxN, true, 0), true},
		{build(bulk.MaxN, true, 0), large},
		{build(bulk.MaxN+1, false, 0), false},
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

// TestBulkWins: "auto" takes the bulk search only with a GPU open, and the
// estimates favour it for many graphs of 1024 vertices on 16 threads, as
// measured on an H100.
func TestBulkWins(t *testing.T) {
	b := graph.NewBuilder(false)
	n := 1024
	for u := range n {
		for k := 1; k <= 8; k++ {
			if err := b.AddEdge(u, (u+k*37)%n); err != nil {
				t.Fatal(err)
			}
		}
	}
	g := b.Build()
	gs := make([]*graph.Graph, 1000)
	for i := range gs {
		gs[i] = g
	}
	if bulk, cpu := bulkSeconds(gs), batchCPUSeconds(gs, 16); bulk >= cpu {
		t.Fatalf("1000 graphs of 1024 vertices, degree 16: bulk %.3g s, cpu %.3g s on 16 threads", bulk, cpu)
	}
	if gpu.Opened() == 0 && BulkWins(gs, 16) {
		t.Fatal("the bulk search wins without an open GPU")
	}
}

// bulkRows returns every source's summary of each graph of gs (each
// BulkFits) from one bulk search on GPU ordinal, and the GPU's name. Its
// errors are the batch's: no usable GPU (matching ErrNoGPU), a driver
// failure, ctx's.
func bulkRows(ctx context.Context, ordinal int, gs []*graph.Graph) ([][]reduce.Row, string, error) {
	rows, err := bulk.Rows(ctx, gpu.OnGPU(ordinal), gs)
	if err != nil {
		return nil, "", err
	}
	return rows, deviceName(ordinal), nil
}
