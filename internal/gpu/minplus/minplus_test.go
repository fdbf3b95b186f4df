package minplus

import (
	"context"
	"errors"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/gpu"
)

// TestMinPlusProducts: ⌈log₂(n−1)⌉ squarings reach paths of n−1 arcs, one
// more confirms.
func TestMinPlusProducts(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 1}, {2, 1}, {3, 2}, {5, 3}, {6, 4}, {1024, 11}, {1025, 11}, {1026, 12}, {8192, 14}} {
		if got := Products(c.n); got != c.want {
			t.Errorf("Products(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestRefusesPlacements: gpu-minplus runs on one GPU; several GPUs, every
// GPU and MPI ranks are refused (gpu.ErrPlacement) before anything runs.
func TestRefusesPlacements(t *testing.T) {
	world, err := comm.NewFake(2)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewBuilder(false).Build()
	for _, p := range []gpu.Placement{gpu.OnGPUs([]int{0, 1}), gpu.OnGPUs(nil), gpu.OnAll(), gpu.OverRanks(world[0], 0)} {
		if _, err := Rows(context.Background(), p, g, false); !errors.Is(err, gpu.ErrPlacement) {
			t.Errorf("Rows on %v: %v, want gpu.ErrPlacement", p, err)
		}
		if _, err := Matrix(context.Background(), p, g, false); !errors.Is(err, gpu.ErrPlacement) {
			t.Errorf("Matrix on %v: %v, want gpu.ErrPlacement", p, err)
		}
	}
	// One GPU listed alone is one GPU (an empty graph needs none).
	if r, err := Rows(context.Background(), gpu.OnGPUs([]int{0}), g, false); err != nil || r.N != 0 {
		t.Errorf("gpu:0 listed alone: %+v, %v", r, err)
	}
}
