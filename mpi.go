package apsp

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/comm/mpi"
	"github.com/apsp/apsp/internal/dist"
)

// ErrNoMPI is matched by JoinMPI's error when there is no usable Open MPI
// library (APSP_LIBMPI names one directly).
var ErrNoMPI = mpi.ErrNoMPI

// ErrNotDistributable is matched by MPIJob.ComputeStats's error for a
// graph the distributed run does not take: float weights or negative arcs.
var ErrNotDistributable = dist.ErrNotDistributable

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
// it with the same graph and options, holds only its tiles of the
// distance matrix (a 2-D block-cyclic distribution over a grid of the
// ranks), runs blocked Floyd–Warshall on its CPU with the rows and
// columns of each round's pivot broadcast by MPI, and gets the same Stats
// back. Integer weights without negative arcs, or none; the engine, device
// and lanes are the distributed run's own, so of Options only Reachable
// counts (each rank computes on one thread: start a rank per core). Every
// rank must read the same graph (checked). If one rank fails, every rank
// fails.
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

// DistributedName is the algorithm a distributed run reports.
const DistributedName = "distributed-fw"

// statsDistributed is MPIJob.ComputeStats over any communicator (the
// tests use the in-process fake).
func statsDistributed(ctx context.Context, world comm.Comm, g *graph.Graph, opt Options) (*Stats, error) {
	if err := opt.Validate(false); err != nil {
		return nil, err
	}
	switch {
	case opt.Algorithm != "" && opt.Algorithm != "auto":
		return nil, &OptionError{Option: "algorithm", Msg: fmt.Sprintf("%q: a distributed run is its own engine", opt.Algorithm)}
	case opt.Device != "" && opt.Device != "auto" && opt.Device != "cpu":
		return nil, &OptionError{Option: "device", Msg: fmt.Sprintf("%q: a distributed run computes on the ranks' CPUs", opt.Device)}
	case opt.Lanes != "" && opt.Lanes != "auto":
		return nil, &OptionError{Option: "lanes", Msg: fmt.Sprintf("%q: a distributed run picks int32 or int64 itself", opt.Lanes)}
	case g == nil:
		return nil, ErrNilGraph
	}
	start := time.Now()
	rows, kind, err := dist.Summaries(ctx, world, g, dist.DefaultTile)
	if err != nil {
		return nil, err
	}
	s := statsFromRows(rows, g, true, opt.Reachable)
	s.Algorithm, s.Device, s.Lanes, s.Threads = DistributedName, fmt.Sprintf("cpu, %d MPI ranks", world.Size()), kind.String(), 1
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}
