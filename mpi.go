package apsp

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/run"
)

// ErrNoMPI is matched by JoinMPI's error when there is no usable Open MPI
// library (APSP_LIBMPI names one directly).
var ErrNoMPI = engine.ErrNoMPI

// ErrNotDistributable is matched by MPIJob.ComputeStats's error for a
// graph the distributed run does not take: float weights or negative arcs.
var ErrNotDistributable = engine.ErrNotDistributable

// ErrRankFailed is matched by the error every rank of a distributed run
// returns when one rank failed before the ranks began to wait for each
// other (no GPU, a different graph): the error names that rank and its
// reason, the same on every rank.
var ErrRankFailed = run.ErrRankFailed

// MPIJob is this process's rank in an MPI job: a program that mpirun
// started on one or several hosts, every process running the same code.
// Open MPI is loaded at run time (no cgo).
type MPIJob struct {
	Rank, Size int
	job        *run.Job
	closed     atomic.Bool
}

// JoinMPI initialises MPI (once a process) and returns this process's
// rank in MPI_COMM_WORLD. A process not started by mpirun is a job of one
// rank. Close ends MPI.
func JoinMPI() (*MPIJob, error) {
	job, err := run.JoinMPI()
	if err != nil {
		return nil, err
	}
	return &MPIJob{Rank: job.Rank(), Size: job.Size(), job: job}, nil
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
	o, err := opt.parse()
	if err != nil {
		return nil, err
	}
	return j.job.Stats(ctx, g, o)
}

// Close ends MPI for this process; a second Close does nothing. MPI cannot
// start again in the same process: JoinMPI then fails.
func (j *MPIJob) Close() error {
	if j.closed.Swap(true) {
		return nil
	}
	return j.job.Finalize()
}

// DistributedName is the algorithm a distributed run of Floyd–Warshall
// reports (weighted graphs); DistributedBFSName is the bit-parallel search
// with the sources split over the ranks (unweighted graphs).
const (
	DistributedName    = engine.DistributedFWName
	DistributedBFSName = engine.DistributedBFSName
)

// Barrier returns once every rank of the job has called it. A program
// that reports a failure every rank shares from rank 0 calls it after
// printing, so that no rank ends first: Open MPI ends the whole job when
// one process exits with an error, possibly before rank 0 has printed.
func (j *MPIJob) Barrier(ctx context.Context) error {
	if j.closed.Load() {
		return errors.New("apsp: MPIJob used after Close")
	}
	return j.job.Barrier(ctx)
}
