package fw

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/comm/mpi"
	"github.com/apsp/apsp/internal/comm/nccl"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
)

// overFakeRanks runs rowsOverRanks as the ranks of an in-process
// communicator, rank r on ords[r] with job jobs[r], each in its goroutine
// (as mpirun's processes would).
func overFakeRanks(ords []int, jobs []Job, o ranksOpts) ([]*RowsResult, []error) {
	world, err := comm.NewFake(len(ords))
	if err != nil {
		panic(err)
	}
	out := make([]*RowsResult, len(ords))
	errs := make([]error, len(ords))
	var wg sync.WaitGroup
	for r := range ords {
		wg.Go(func() { out[r], errs[r] = rowsOverRanks(context.Background(), world[r], ords[r], jobs[r], o) })
	}
	wg.Wait()
	return out, errs
}

func same[T any](v T, k int) []T {
	out := make([]T, k)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestRanksWithoutNCCL: where NCCL cannot load (CI, or a host without
// it) every rank fails alike, with rank 0's reason, and none waits for
// another.
func TestRanksWithoutNCCL(t *testing.T) {
	t.Setenv("APSP_LIBNCCL", filepath.Join(t.TempDir(), "gone.so.2"))
	g := randomGraph(rand.New(rand.NewPCG(1, 1)), 50, 0.1, false, false, false)
	j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	_, errs := overFakeRanks([]int{0, 1, 2}, same(j, 3), ranksOpts{})
	for r, err := range errs {
		var re *comm.RankError
		if !errors.As(err, &re) || re.Rank != 0 || re.Failed != 3 || !strings.Contains(err.Error(), "NCCL") {
			t.Errorf("rank %d: %v; want every rank to report rank 0's missing NCCL", r, err)
		}
		if !errors.Is(err, nccl.ErrNoNCCL) {
			t.Errorf("rank %d: %v does not match nccl.ErrNoNCCL", r, err)
		}
	}
}

// TestRanksRefuse: a rank without its GPU, or holding another graph,
// makes every rank fail with that rank's reason (one GPU suffices: the
// refusals come before NCCL joins the ranks).
func TestRanksRefuse(t *testing.T) {
	requireGPU(t)
	if _, err := nccl.Load(); err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	g := randomGraph(rng, 200, 0.02, true, false, false)
	h := randomGraph(rng, 200, 0.02, true, false, false)
	j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	k := Job{Graph: h, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	tests := []struct {
		name string
		ords []int
		jobs []Job
		rank int
		want string
	}{
		{"no such GPU", []int{0, 99}, []Job{j, j}, 1, "99"},
		// Every rank finds the mismatch (rank 0 with the others' count).
		{"another graph", []int{0, 0}, []Job{j, k}, 0, "1 of the 2 ranks hold a graph other than rank 0's"},
		{"one GPU twice", []int{0, 0}, []Job{j, j}, 0, "ranks 0 and 1 both use GPU"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan []error, 1)
			go func() {
				_, errs := overFakeRanks(tt.ords, tt.jobs, ranksOpts{})
				done <- errs
			}()
			select {
			case errs := <-done:
				for r, err := range errs {
					var re *comm.RankError
					if !errors.As(err, &re) || re.Rank != tt.rank || !strings.Contains(err.Error(), tt.want) {
						t.Errorf("rank %d: %v; want rank %d's failure mentioning %q", r, err, tt.rank, tt.want)
					}
				}
			case <-time.After(time.Minute):
				t.Fatal("the ranks did not return within a minute")
			}
		})
	}
}

// TestRanksFWTwoGPUs runs two ranks over NCCL, one GPU each, on every
// multi-GPU case (sizes not multiples of the tile or of S·k, directed,
// negative arcs, int32, int16, float32), with the plan's strips and
// strips of one tile, copies late and early: every rank's summaries
// equal one GPU's (bit for bit for integers).
func TestRanksFWTwoGPUs(t *testing.T) {
	ords := multiGPUs(t)
	if _, err := nccl.Load(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 42))
	cases := mgCases(t, rng)
	for _, o := range []ranksOpts{{}, {block: 128}, {block: 128, early: true}, {early: true}} {
		for _, c := range cases {
			name := fmt.Sprintf("%s/block=%d/early=%v", c.name, o.block, o.early)
			one, err := Rows(ctx, gpu.OnGPU(0), c.job)
			if err != nil {
				t.Fatalf("%s: one GPU: %v", name, err)
			}
			got, errs := overFakeRanks(ords, same(c.job, 2), o)
			float := c.g.Kind() == graph.FloatWeights
			for r := range got {
				if errs[r] != nil {
					t.Fatalf("%s: rank %d: %v", name, r, errs[r])
				}
				if got[r].NegVertex != one.NegVertex {
					t.Fatalf("%s: rank %d: negative vertex %d, one GPU %d", name, r, got[r].NegVertex, one.NegVertex)
				}
				for u := range c.g.N() {
					a, b := got[r].Rows[u], one.Rows[u]
					if (!float && !gputest.SameRow(a, b)) || (float && (a.Reach != b.Reach || !near(a.MaxF, b.MaxF, true) || !near(a.SumF, b.SumF, true))) {
						t.Fatalf("%s: rank %d: row %d: %+v, one GPU %+v", name, r, u, a, b)
					}
				}
			}
		}
	}
	t.Logf("%d cases × 4 forms: both ranks equal one GPU", len(cases))
}

// TestRanksFWPerf times int32 Floyd–Warshall summaries at the sizes in
// APSP_RANKS_PERF over gpu:0,1 three ways, interleaved: one process with
// peer copies (rowsOn), and two in-process ranks over NCCL with the copies
// late (the default) and early. All three agree row for row; 16 rows are
// checked against Dijkstra.
func TestRanksFWPerf(t *testing.T) {
	sizes := gputest.EnvInts("APSP_RANKS_PERF", nil)
	if len(sizes) == 0 {
		t.Skip("APSP_RANKS_PERF not set")
	}
	ords := multiGPUs(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 9))
	warm := Job{Graph: fwGraph(rng, 3000, 8, true, false), Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	if _, err := rowsOn(ctx, ords, warm, 0); err != nil {
		t.Fatal(err)
	}
	if _, errs := overFakeRanks(ords, same(warm, 2), ranksOpts{}); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	for _, n := range sizes {
		g := fwGraph(rng, n, 8, true, false)
		j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
		relax := float64(n) * float64(n) * float64(n)
		peer, err := rowsOn(ctx, ords, j, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("PERF n=%d peer copies (one process): %.3f s, %.2f T relaxations/s", n, peer.Timing.Kernel/1000, relax/peer.Timing.Kernel/1e9)
		checkDijkstra(t, g, peer.Rows, 16, rng)
		for _, o := range []ranksOpts{{}, {early: true}} {
			wall := time.Now()
			got, errs := overFakeRanks(ords, same(j, 2), o)
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			t.Logf("PERF n=%d NCCL ranks (early=%v): %.3f s, %.2f T relaxations/s, %.3f of the peer run's rate; call %.3f s",
				n, o.early, got[0].Timing.Kernel/1000, relax/got[0].Timing.Kernel/1e9, peer.Timing.Kernel/got[0].Timing.Kernel, time.Since(wall).Seconds())
			for r := range got {
				for u := range n {
					if !gputest.SameRow(got[r].Rows[u], peer.Rows[u]) {
						t.Fatalf("n=%d rank %d row %d: %+v, peer run %+v", n, r, u, got[r].Rows[u], peer.Rows[u])
					}
				}
			}
		}
	}
}

// TestRanksMPI is the MPI path itself: run under mpirun (APSP_RANKS_MPI
// lists the sizes; rank r uses GPU r mod the GPUs), every rank computes
// the graphs of those sizes over MPI_COMM_WORLD and NCCL, and compares
// its summaries with one GPU's where the size is at most
// APSP_RANKS_MPI_ONE.
func TestRanksMPI(t *testing.T) {
	sizes := gputest.EnvInts("APSP_RANKS_MPI", nil)
	if len(sizes) == 0 {
		t.Skip("APSP_RANKS_MPI not set (run under mpirun)")
	}
	requireGPU(t)
	api, err := mpi.Load()
	if err != nil {
		t.Fatal(err)
	}
	world, err := api.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer api.Finalize()
	infos, err := gpu.Devices()
	if err != nil {
		t.Fatal(err)
	}
	ord := infos[world.Rank()%len(infos)].Ordinal
	oneUpTo := gputest.EnvInt("APSP_RANKS_MPI_ONE", 0)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6)) // the same graphs on every rank
	for _, n := range sizes {
		g := fwGraph(rng, n, 8, true, false)
		j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
		for rep := range 2 {
			wall := time.Now()
			got, err := Rows(ctx, gpu.OverRanks(world, ord), j)
			if err != nil {
				t.Fatalf("rank %d: %v", world.Rank(), err)
			}
			relax := float64(n) * float64(n) * float64(n)
			t.Logf("PERF rank %d of %d (gpu:%d) n=%d run %d: %.3f s, %.2f T relaxations/s; call %.3f s; %s",
				world.Rank(), world.Size(), ord, n, rep, got.Timing.Kernel/1000, relax/got.Timing.Kernel/1e9, time.Since(wall).Seconds(), got.Device)
			if rep > 0 || n > oneUpTo {
				continue
			}
			one, err := Rows(ctx, gpu.OnGPU(ord), Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1})
			if err != nil {
				t.Fatal(err)
			}
			for u := range n {
				if !gputest.SameRow(got.Rows[u], one.Rows[u]) {
					t.Fatalf("rank %d n=%d row %d: %+v, one GPU %+v", world.Rank(), n, u, got.Rows[u], one.Rows[u])
				}
			}
			t.Logf("rank %d n=%d: all %d rows equal one GPU's", world.Rank(), n, n)
		}
	}
}
