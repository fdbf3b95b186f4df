package fw

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/gpu"
)

// TestRefusesPlacements: the matrix is not computed over MPI ranks (each
// holds only its strips): refused with gpu.ErrPlacement, naming the
// kernel, before anything runs.
func TestRefusesPlacements(t *testing.T) {
	world, err := comm.NewFake(2)
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Graph: graph.NewBuilder(false).Build(), Kernel: gpu.Multi}
	_, err = Matrix(context.Background(), gpu.OverRanks(world[0], 0), j)
	if !errors.Is(err, gpu.ErrPlacement) || !strings.Contains(err.Error(), "gpu-multi") {
		t.Errorf("Matrix over ranks: %v, want gpu.ErrPlacement naming gpu-multi", err)
	}
}
