package bulk

import (
	"context"
	"errors"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/reduce"
)

// requireGPU skips without a GPU (CI has none), or fails when
// APSP_REQUIRE_GPU=1 says there must be one.
func requireGPU(t testing.TB) {
	t.Helper()
	if _, err := gpu.Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
}

// TestRefusesPlacements: the bulk families run a batch on one GPU; several
// GPUs, every GPU and MPI ranks are refused (gpu.ErrPlacement) before
// anything runs, and one GPU listed alone is taken.
func TestRefusesPlacements(t *testing.T) {
	world, err := comm.NewFake(2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gs := []*graph.Graph{outRegular(8, 2)}
	never := func(lo, hi int, rows [][]reduce.Row) error { return errors.New("onGroup called") }
	for _, p := range []gpu.Placement{gpu.OnGPUs([]int{0, 1}), gpu.OnGPUs(nil), gpu.OnAll(), gpu.OverRanks(world[0], 0)} {
		_, err1 := Rows(ctx, p, gs)
		_, err2 := Summaries(ctx, p, gs)
		err3 := Stream(ctx, p, gs, StreamConfig{Group: 1}, never)
		_, _, _, err4 := FWRows(ctx, p, gs)
		_, _, err5 := FWMatrices(ctx, p, gs)
		for i, err := range []error{err1, err2, err3, err4, err5} {
			if !errors.Is(err, gpu.ErrPlacement) {
				t.Errorf("%v: call %d: %v, want gpu.ErrPlacement", p, i+1, err)
			}
		}
	}
	// One GPU listed alone is one GPU: no graph with vertices, so no GPU
	// is needed.
	empty := []*graph.Graph{graph.NewBuilder(false).Build()}
	if rows, err := Rows(ctx, gpu.OnGPUs([]int{0}), empty); err != nil || len(rows) != 1 {
		t.Errorf("gpu:0 listed alone: %v, %v", rows, err)
	}
}
