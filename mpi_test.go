package apsp

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
)

// TestStatsDistributed: the Stats of a run over 1 to 4 in-process ranks
// (the fake communicator) equal ComputeStats's, on every rank, for
// unweighted and integer-weighted graphs, connected or not, with and
// without Reachable; float weights and negative arcs are refused.
func TestStatsDistributed(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	ctx := context.Background()
	for trial := range 12 {
		n := 1 + rng.IntN(150)
		mode := []weightMode{unweighted, intWeights}[trial%2]
		var g *graph.Graph
		if trial%3 == 0 {
			g = sparseGraphIn(rng, n, trial%4 == 0, mode)
		} else {
			g = randomGraph(rng, n, []float64{0.02, 0.1, 0.4}[trial%3], trial%4 == 0, mode)
		}
		for _, reachable := range []bool{false, true} {
			opt := Options{Reachable: reachable}
			want, err := ComputeStats(ctx, g, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, ranks := range []int{1, 2, 4} {
				stats, errs := distributed(t, g, opt, ranks)
				for r := range stats {
					if errs[r] != nil {
						t.Fatalf("trial %d, %d ranks, rank %d: %v", trial, ranks, r, errs[r])
					}
					got := *stats[r]
					if got.Algorithm != DistributedName {
						t.Fatalf("algorithm %q", got.Algorithm)
					}
					got.Algorithm, got.Device, got.Lanes = want.Algorithm, want.Device, want.Lanes
					if a, b := statsJSON(t, &got), statsJSON(t, want); a != b {
						t.Fatalf("trial %d (n=%d), %d ranks, rank %d, reachable %v:\n%s\nwant\n%s", trial, n, ranks, r, reachable, a, b)
					}
				}
			}
		}
	}
	for _, mode := range []weightMode{floatWeights, intNegative} {
		g := randomGraph(rng, 20, 0.3, true, mode)
		_, errs := distributed(t, g, Options{}, 2)
		for r, err := range errs {
			if !errors.Is(err, ErrNotDistributable) {
				t.Fatalf("mode %v, rank %d: %v, want ErrNotDistributable", mode, r, err)
			}
		}
	}
	_, errs := distributed(t, randomGraph(rng, 5, 0.5, false, unweighted), Options{Device: "gpu"}, 2)
	if !errors.Is(errs[0], ErrInvalidOptions) {
		t.Fatalf("device gpu: %v", errs[0])
	}
}

func distributed(t *testing.T, g *graph.Graph, opt Options, ranks int) ([]*Stats, []error) {
	t.Helper()
	world, err := comm.NewFake(ranks)
	if err != nil {
		t.Fatal(err)
	}
	stats, errs := make([]*Stats, ranks), make([]error, ranks)
	var wg sync.WaitGroup
	for r, c := range world {
		wg.Go(func() { stats[r], errs[r] = statsDistributed(context.Background(), c, g, opt) })
	}
	wg.Wait()
	return stats, errs
}

// TestJoinMPIWithoutLibrary: no Open MPI library is an error matching
// ErrNoMPI.
func TestJoinMPIWithoutLibrary(t *testing.T) {
	t.Setenv("APSP_LIBMPI", "/nonexistent/libmpi.so")
	if _, err := JoinMPI(); !errors.Is(err, ErrNoMPI) {
		t.Fatalf("JoinMPI: %v, want ErrNoMPI", err)
	}
}
