package bitbfs

import (
	"context"
	"errors"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
)

// requireGPU skips without a GPU (CI has none), or fails when
// APSP_REQUIRE_GPU=1 says there must be one.
func requireGPU(t testing.TB) {
	t.Helper()
	if _, err := gpu.Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
}

// TestRefusesPlacements: gpu-bitbfs splits its sources over the GPUs of
// one process, and its Brief over MPI ranks; Rows and Matrix over ranks
// are refused (gpu.ErrPlacement) before anything runs.
func TestRefusesPlacements(t *testing.T) {
	world, err := comm.NewFake(2)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewBuilder(false).Build()
	p := gpu.OverRanks(world[0], 0)
	if _, err := Rows(context.Background(), p, g); !errors.Is(err, gpu.ErrPlacement) {
		t.Errorf("Rows on %v: %v, want gpu.ErrPlacement", p, err)
	}
	if _, _, err := Matrix(context.Background(), p, g); !errors.Is(err, gpu.ErrPlacement) {
		t.Errorf("Matrix on %v: %v, want gpu.ErrPlacement", p, err)
	}
	// The GPUs of this process: an empty graph needs none.
	for _, p := range []gpu.Placement{gpu.OnGPU(0), gpu.OnGPUs([]int{0, 1})} {
		if r, err := Rows(context.Background(), p, g); err != nil || len(r.Rows) != 0 {
			t.Errorf("Rows on %v: %+v, %v", p, r, err)
		}
		if d, _, err := Matrix(context.Background(), p, g); err != nil || len(d) != 0 {
			t.Errorf("Matrix on %v: %v, %v", p, d, err)
		}
	}
}
