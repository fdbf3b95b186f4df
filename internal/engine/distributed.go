package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/comm/mpi"
	"github.com/apsp/apsp/internal/distributed"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// The distributed runs: one graph over the ranks of an MPI job (or any
// comm.Comm; tests use the in-process fake). Every rank calls the same
// function with the same graph.

// Names of the distributed runs: Floyd–Warshall with the matrix spread over
// the ranks (weighted graphs), and the bit-parallel search with the
// sources split over them (unweighted graphs).
const (
	DistributedFWName  = "distributed-fw"
	DistributedBFSName = "distributed-bitbfs"
)

// ErrNoMPI is wrapped when no usable Open MPI library is found.
var ErrNoMPI = mpi.ErrNoMPI

// ErrNotDistributable is wrapped for a graph the distributed CPU run does
// not take: float weights or negative arcs.
var ErrNotDistributable = distributed.ErrNotDistributable

// JoinMPI initialises MPI (once a process) and returns this process's
// view of MPI_COMM_WORLD and the function that ends MPI.
func JoinMPI() (world comm.Comm, finalize func() error, err error) {
	api, err := mpi.Load()
	if err != nil {
		return nil, nil, err
	}
	world, err = api.Init()
	if err != nil {
		return nil, nil, err
	}
	return world, api.Finalize, nil
}

// SameGraph fails on every rank unless every rank holds the same graph.
func SameGraph(ctx context.Context, world comm.Comm, g *graph.Graph) error {
	return distributed.SameGraph(ctx, world, g)
}

// DistributedFWRows is blocked Floyd–Warshall over the ranks' CPUs, each
// holding its tiles of the matrix (a 2-D block-cyclic distribution): every
// source's summary on every rank, and the lanes (int32 or int64).
func DistributedFWRows(ctx context.Context, world comm.Comm, g *graph.Graph) ([]reduce.Row, lanes.Kind, error) {
	return distributed.Summaries(ctx, world, g, distributed.DefaultTile)
}

// DistributedBFSBrief is bitbfs over the ranks' CPUs on threads threads
// each: chunks of sources dealt to the ranks, the totals combined.
func DistributedBFSBrief(ctx context.Context, world comm.Comm, g *graph.Graph, threads int) (*reduce.Brief, error) {
	t, err := bfs.BitTotals(ctx, g, threads, world.Rank(), world.Size())
	if err != nil {
		world.Abort(err)
		return nil, err
	}
	reach, ecc := make([]int64, len(t.Reach)), make([]int64, len(t.Ecc))
	for v := range reach {
		reach[v], ecc[v] = int64(t.Reach[v]), int64(t.Ecc[v])
	}
	b, err := distributed.CombineBrief(ctx, world, reach, ecc, t.Hist)
	if err != nil {
		world.Abort(err)
	}
	return b, err
}

// DistributedGPUEngine is the engine whose plan and rounds a distributed
// run on GPUs shares: gpu-multi, the matrix in strips of rows.
func DistributedGPUEngine() Engine { return GPUEngine(gpuMulti) }
