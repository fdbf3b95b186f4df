package apsp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/apsp/apsp/internal/run"

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
	for trial := range 16 {
		n := 1 + rng.IntN(150)
		mode := []weightMode{unweighted, intWeights}[trial%2]
		if trial >= 12 {
			// Several chunks of 512 sources: every rank searches some.
			n, mode = 600+rng.IntN(2000), unweighted
		}
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
					wantAlgo := DistributedName
					if g.Kind() == graph.Unweighted {
						wantAlgo = DistributedBFSName
					}
					if got.Algorithm != wantAlgo {
						t.Fatalf("algorithm %q, want %q", got.Algorithm, wantAlgo)
					}
					got.Algorithm, got.Device, got.Lanes, got.Threads = want.Algorithm, want.Device, want.Lanes, want.Threads
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
	for _, device := range []string{"gpu:all", "gpu:0,1"} {
		_, errs := distributed(t, randomGraph(rng, 5, 0.5, false, unweighted), Options{Device: device}, 2)
		for r, err := range errs {
			if !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("device %s, rank %d: %v, want ErrInvalidOptions", device, r, err)
			}
		}
	}
	_, errs := distributed(t, randomGraph(rng, 5, 0.5, false, unweighted), Options{Device: "cpu", Lanes: "int16"}, 2)
	if !errors.Is(errs[0], ErrInvalidOptions) {
		t.Fatalf("lanes int16 on the CPU: %v, want ErrInvalidOptions", errs[0])
	}
	// Lanes the GPU ranks' engine does not offer are invalid options on
	// every rank, found before any GPU is looked for.
	for _, lanes := range []string{"int64", "int8", "float64"} {
		_, errs := distributed(t, randomGraph(rng, 5, 0.5, false, intWeights), Options{Device: "gpu:0", Lanes: lanes}, 2)
		for r, err := range errs {
			if !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("lanes %s on GPU ranks, rank %d: %v, want ErrInvalidOptions", lanes, r, err)
			}
		}
	}
}

// TestStatsDistributedWithoutGPU: where a rank has no GPU, every rank of
// a GPU run fails alike (ErrRankFailed, and ErrNoGPU's reason), none
// waiting for another.
func TestStatsDistributedWithoutGPU(t *testing.T) {
	if _, err := Devices(); err == nil {
		t.Skip("this machine has a GPU")
	}
	g := randomGraph(rand.New(rand.NewPCG(1, 2)), 30, 0.2, false, unweighted)
	for _, device := range []string{"gpu", "gpu:1"} {
		_, errs := distributed(t, g, Options{Device: device}, 3)
		for r, err := range errs {
			if !errors.Is(err, ErrRankFailed) || !strings.Contains(err.Error(), "rank 0 of 3") {
				t.Errorf("device %s, rank %d: %v; want rank 0's failure on every rank", device, r, err)
			}
		}
		if !errors.Is(errs[0], ErrNoGPU) {
			t.Errorf("device %s, rank 0: %v, want ErrNoGPU", device, errs[0])
		}
	}
}

// TestStatsDistributedGPUs: two in-process ranks, a GPU each, over NCCL
// (APSP_REQUIRE_GPUS=2 where the machine has two): their Stats equal the
// CPU's (float32 lanes within tolerance) on unweighted, integer, negative
// and float graphs, directed or not, connected or not.
func TestStatsDistributedGPUs(t *testing.T) {
	infos, err := Devices()
	if err != nil || len(infos) < 2 {
		if os.Getenv("APSP_REQUIRE_GPUS") == "2" {
			t.Fatalf("APSP_REQUIRE_GPUS=2: %d GPUs, %v", len(infos), err)
		}
		t.Skip("needs two GPUs")
	}
	rng := rand.New(rand.NewPCG(43, 44))
	ctx := context.Background()
	modes := []weightMode{unweighted, intWeights, intNegative, floatWeights}
	for trial := range 18 {
		n := 1 + rng.IntN(600)
		if trial >= 16 {
			n = 3000 + rng.IntN(3000) // several batches of sources: each rank searches some
		}
		mode := modes[trial%4]
		if trial >= 16 {
			mode = unweighted
		}
		directed := trial%3 == 0 || mode == intNegative
		g := randomGraph(rng, n, []float64{0.004, 0.02, 0.1}[trial%3], directed, mode)
		want, err := ComputeStats(ctx, g, Options{Device: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		stats, errs := distributed(t, g, Options{Device: "gpu"}, 2)
		for r := range stats {
			if errs[r] != nil {
				t.Fatalf("trial %d (n=%d, %v), rank %d: %v", trial, n, mode, r, errs[r])
			}
			got := *stats[r]
			wantAlgo := DistributedName
			if g.Kind() == graph.Unweighted {
				wantAlgo = DistributedBFSName
			}
			if got.Algorithm != wantAlgo || !strings.HasPrefix(got.Device, "gpu, 2 MPI ranks") {
				t.Fatalf("algorithm %q device %q", got.Algorithm, got.Device)
			}
			if mode == floatWeights {
				a, b := float64(got.ASPL), float64(want.ASPL)
				if got.ReachablePairs != want.ReachablePairs || math.Abs(a-b) > 1e-5*math.Max(1, math.Abs(b)) {
					t.Fatalf("trial %d, rank %d: pairs %d ASPL %v, CPU %d %v", trial, r, got.ReachablePairs, a, want.ReachablePairs, b)
				}
				continue
			}
			got.Algorithm, got.Device, got.Lanes, got.Threads = want.Algorithm, want.Device, want.Lanes, want.Threads
			if a, b := statsJSON(t, &got), statsJSON(t, want); a != b {
				t.Fatalf("trial %d (n=%d, %v), rank %d:\n%s\nwant\n%s", trial, n, mode, r, a, b)
			}
		}
	}
}

func distributed(t *testing.T, g *graph.Graph, opt Options, ranks int) ([]*Stats, []error) {
	t.Helper()
	world, err := comm.NewFake(ranks)
	if err != nil {
		t.Fatal(err)
	}
	stats, errs := make([]*Stats, ranks), make([]error, ranks)
	o, err := opt.parse()
	if err != nil {
		for r := range errs {
			errs[r] = err
		}
		return stats, errs
	}
	var wg sync.WaitGroup
	for r, c := range world {
		wg.Go(func() { stats[r], errs[r] = run.Distributed(context.Background(), c, g, o) })
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
