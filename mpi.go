package apsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/comm/mpi"
	"github.com/apsp/apsp/internal/dist"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNoMPI is matched by JoinMPI's error when there is no usable Open MPI
// library (APSP_LIBMPI names one directly).
var ErrNoMPI = mpi.ErrNoMPI

// ErrNotDistributable is matched by MPIJob.ComputeStats's error for a
// graph the distributed run does not take: float weights or negative arcs.
var ErrNotDistributable = dist.ErrNotDistributable

// ErrRankFailed is matched by the error every rank of a distributed run
// returns when one rank failed before the ranks began to wait for each
// other (no GPU, a different graph): the error names that rank and its
// reason, the same on every rank.
var ErrRankFailed = comm.ErrRankFailed

// MPIJob is this process's rank in an MPI job: a program that mpirun
// started on one or several hosts, every process running the same code.
// Open MPI is loaded at run time (no cgo).
type MPIJob struct {
	Rank, Size int
	api        *mpi.API
	world      comm.Comm
	closed     atomic.Bool
}

// JoinMPI initialises MPI (once a process) and returns this process's
// rank in MPI_COMM_WORLD. A process not started by mpirun is a job of one
// rank. Close ends MPI.
func JoinMPI() (*MPIJob, error) {
	api, err := mpi.Load()
	if err != nil {
		return nil, err
	}
	world, err := api.Init()
	if err != nil {
		return nil, err
	}
	return &MPIJob{Rank: world.Rank(), Size: world.Size(), api: api, world: world}, nil
}

// ComputeStats computes g's Stats over the job's ranks: every rank calls
// it with the same graph and options and gets the same Stats back. Every
// rank must read the same graph (checked). If one rank fails, every rank
// fails.
//
// Unweighted graphs run the bit-parallel search with the sources split
// over the ranks (chunks of 512 dealt in turn), nothing exchanged until the
// totals are combined at the end (Algorithm DistributedBFSName): on each
// rank's CPU with Threads threads (0: every CPU; with several ranks on a
// host, give each a share), or on its GPU (gpu-bitbfs). Naming Lanes sends
// an unweighted graph to Floyd–Warshall on GPU ranks instead (CPU ranks
// refuse named lanes).
//
// Other graphs run Floyd–Warshall (Algorithm DistributedName). On the CPU
// (Device "", "auto" or "cpu") each rank holds only its tiles
// of the distance matrix (a 2-D block-cyclic distribution over a grid of
// the ranks), runs blocked Floyd–Warshall on one thread (start a rank per
// core), and the rows and columns of each round's pivot go by MPI; integer
// weights without negative arcs; the lanes are int32 or int64 as the
// weights prove.
//
// On GPUs (Device "gpu": each rank the GPU of its local rank on its host,
// modulo the GPUs there; or "gpu:N" on every rank) each rank holds strips
// of rows on its GPU, runs gpu-multi's rounds, and each round's pivot strip
// goes from its GPU to the others by an NCCL broadcast (NCCL bootstrapped
// over MPI); any weights, negative arcs without a negative cycle included,
// Lanes as for gpu-multi (int16 where the distances allow it).
func (j *MPIJob) ComputeStats(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	if j.closed.Load() {
		return nil, errors.New("apsp: MPIJob used after Close")
	}
	return statsDistributed(ctx, j.world, g, opt)
}

// Close ends MPI for this process; a second Close does nothing. MPI cannot
// start again in the same process: JoinMPI then fails.
func (j *MPIJob) Close() error {
	if j.closed.Swap(true) {
		return nil
	}
	return j.api.Finalize()
}

// DistributedName is the algorithm a distributed run of Floyd–Warshall
// reports (weighted graphs); DistributedBFSName is the bit-parallel search
// with the sources split over the ranks (unweighted graphs).
const (
	DistributedName    = "distributed-fw"
	DistributedBFSName = "distributed-bitbfs"
)

// statsDistributed is MPIJob.ComputeStats over any communicator (the
// tests use the in-process fake).
func statsDistributed(ctx context.Context, world comm.Comm, g *graph.Graph, opt Options) (*Stats, error) {
	if err := opt.Validate(false); err != nil {
		return nil, err
	}
	dev, _ := plan.ParseDevice(opt.Device) // valid: Validate parsed it
	switch {
	case opt.Algorithm != "" && opt.Algorithm != "auto":
		return nil, &OptionError{Option: "algorithm", Msg: fmt.Sprintf("%q: a distributed run is its own engine", opt.Algorithm)}
	case dev.Multi():
		return nil, &OptionError{Option: "device", Msg: fmt.Sprintf("%q: a distributed run uses one GPU a rank (gpu: the local rank's, or gpu:N)", opt.Device)}
	case dev.Kind != "gpu" && opt.Lanes != "" && opt.Lanes != "auto":
		return nil, &OptionError{Option: "lanes", Msg: fmt.Sprintf("%q: a distributed run on CPUs picks int32 or int64 itself", opt.Lanes)}
	case g == nil:
		return nil, ErrNilGraph
	}
	start := time.Now()
	// First, as the path taken depends on the graph: ranks that read
	// different graphs would take different paths and wait in different
	// collectives.
	if err := comm.Agree(ctx, world, dist.SameGraph(ctx, world, g)); err != nil {
		return nil, err
	}
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	var s *Stats
	unweighted := g.Kind() == graph.Unweighted && (opt.Lanes == "" || opt.Lanes == "auto")
	switch {
	case unweighted:
		var b *reduce.Brief
		var err error
		where, threads := "cpu", par.Threads(opt.Threads)
		if dev.Kind == "gpu" {
			b, err = bfsOnGPUs(ctx, world, g, opt, dev)
			where, threads = "gpu", 1
		} else {
			b, err = bfsOnCPUs(ctx, world, g, opt)
		}
		if err != nil {
			return nil, err
		}
		s = statsFromBrief(b, g, opt.Reachable, true)
		s.Algorithm, s.Device, s.Lanes = DistributedBFSName, fmt.Sprintf("%s, %d MPI ranks", where, world.Size()), lanes.Int32.String()
		s.Seconds, s.Threads = time.Since(start).Seconds(), threads
		return s, nil
	case dev.Kind == "gpu":
		rows, kind, err := distributedOnGPUs(ctx, world, g, opt, dev)
		if err != nil {
			return nil, err
		}
		s = statsFromRows(rows, g, kind != lanes.Float32, opt.Reachable)
		s.Algorithm, s.Device, s.Lanes = DistributedName, fmt.Sprintf("gpu, %d MPI ranks", world.Size()), kind.String()
	default:
		rows, kind, err := dist.Summaries(ctx, world, g, dist.DefaultTile)
		if err != nil {
			return nil, err
		}
		s = statsFromRows(rows, g, true, opt.Reachable)
		s.Algorithm, s.Device, s.Lanes = DistributedName, fmt.Sprintf("cpu, %d MPI ranks", world.Size()), kind.String()
	}
	s.Threads = 1
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// distributedOnGPUs plans g as gpu-multi would and runs it over the ranks,
// a GPU each. What a rank finds wrong on its own (no GPU, lanes the graph
// does not fit) is agreed on first, so that every rank fails together.
func distributedOnGPUs(ctx context.Context, world comm.Comm, g *graph.Graph, opt Options, dev plan.Device) ([]reduce.Row, lanes.Kind, error) {
	ordinal, err := rankGPU(world.Rank(), opt.Device, dev)
	var pl *plan.Plan
	if err == nil {
		pl, err = plan.Resolve(g, plan.Request{Algorithm: gpuMultiName, Device: "gpu:" + strconv.Itoa(ordinal),
			Threads: opt.Threads, Want: plan.Rows, Lanes: opt.Lanes})
	}
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, 0, err
	}
	rows, err := engine.RanksRows(ctx, world, pl.Problem, ordinal)
	return rows, pl.Problem.Lanes, err
}

// bfsOnGPUs is gpu-bitbfs over the ranks, a GPU each: the sources split,
// the totals added.
func bfsOnGPUs(ctx context.Context, world comm.Comm, g *graph.Graph, opt Options, dev plan.Device) (*reduce.Brief, error) {
	ordinal, err := rankGPU(world.Rank(), opt.Device, dev)
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, err
	}
	return engine.RanksBrief(ctx, world, g, ordinal)
}

// bfsOnCPUs is bitbfs over the ranks, on each rank's CPU: the chunks of
// sources dealt to the ranks, the totals combined.
func bfsOnCPUs(ctx context.Context, world comm.Comm, g *graph.Graph, opt Options) (*reduce.Brief, error) {
	t, err := bfs.BitTotals(ctx, g, opt.Threads, world.Rank(), world.Size())
	if err != nil {
		world.Abort(err)
		return nil, err
	}
	reach, ecc := make([]int64, len(t.Reach)), make([]int64, len(t.Ecc))
	for v := range reach {
		reach[v], ecc[v] = int64(t.Reach[v]), int64(t.Ecc[v])
	}
	b, err := dist.CombineBrief(ctx, world, reach, ecc, t.Hist)
	if err != nil {
		world.Abort(err)
	}
	return b, err
}

// gpuMultiName is the engine whose rounds a distributed GPU run shares.
const gpuMultiName = "gpu-multi"

// rankGPU is the GPU a rank computes on: N for device "gpu:N"; for
// "gpu", its rank among the job's ranks on its host (as the MPI launcher
// says: Open MPI, MPICH, Slurm), or its world rank where none says, modulo
// the host's GPUs.
func rankGPU(rank int, device string, dev plan.Device) (int, error) {
	if device != "gpu" {
		return dev.Ordinal, nil
	}
	local := rank
	for _, name := range []string{"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"} {
		if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
			local = v
			break
		}
	}
	infos, err := engine.Devices()
	if err != nil {
		return 0, err
	}
	return infos[local%len(infos)].Ordinal, nil
}
