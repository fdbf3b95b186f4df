package run

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/result"
)

// Distributed computes g's Stats over the ranks of world: every rank calls
// it with the same graph and options and gets the same Stats back (see
// apsp.MPIJob.ComputeStats for the contract). Unweighted graphs run the
// bit-parallel search with the sources split over the ranks; the others
// Floyd–Warshall, on the ranks' CPUs with the matrix's tiles spread over
// them, or on their GPUs in strips of rows.
func Distributed(ctx context.Context, world comm.Comm, g *graph.Graph, o *plan.Options) (*result.Stats, error) {
	dev := o.Device
	switch {
	case o.Bounds:
		return nil, plan.ErrBoundsOnly()
	case o.NoMode("a distributed run") != nil:
		return nil, o.NoMode("a distributed run")
	case o.NoEffective("a distributed run") != nil:
		return nil, o.NoEffective("a distributed run")
	case o.NoSources("a distributed run") != nil:
		return nil, o.NoSources("a distributed run")
	case !o.Auto():
		return nil, &plan.OptionError{Option: "algorithm", Msg: fmt.Sprintf("%q: a distributed run is its own engine", o.Engine.Name())}
	case dev.Multi():
		return nil, &plan.OptionError{Option: "device", Msg: fmt.Sprintf("%q: a distributed run uses one GPU a rank (gpu: the local rank's, or gpu:N)", dev)}
	case dev.Kind != "gpu" && o.LanesNamed:
		return nil, &plan.OptionError{Option: "lanes", Msg: fmt.Sprintf("%q: a distributed run on CPUs picks int32 or int64 itself", o.Lanes)}
	case dev.Kind == "gpu" && o.LanesNamed && !slices.Contains(engine.DistributedGPUEngine().Caps().Lanes, o.Lanes):
		e := engine.DistributedGPUEngine()
		return nil, &plan.OptionError{Option: "lanes", Msg: fmt.Sprintf("a distributed run on GPUs computes as %s, in %v lanes, not %s", e.Name(), e.Caps().Lanes, o.Lanes)}
	case g == nil:
		return nil, ErrNilGraph
	}
	start := time.Now()
	// First, as the path taken depends on the graph: ranks that read
	// different graphs would take different paths and wait in different
	// collectives.
	if err := comm.Agree(ctx, world, engine.SameGraph(ctx, world, g)); err != nil {
		return nil, err
	}
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	var s *result.Stats
	switch {
	case g.Kind() == graph.Unweighted && !o.LanesNamed:
		var b *reduce.Brief
		var err error
		where, threads := "cpu", o.CPUs()
		if dev.Kind == "gpu" {
			b, err = bfsOnGPUs(ctx, world, g, dev)
			where, threads = "gpu", 1
		} else {
			b, err = engine.DistributedBFSBrief(ctx, world, g, o.CPUs())
		}
		if err != nil {
			return nil, err
		}
		s = result.FromBrief(b, g, o.Reachable, true)
		s.Algorithm, s.Device, s.Lanes = engine.DistributedBFSName, fmt.Sprintf("%s, %d MPI ranks", where, world.Size()), lanes.Int32.String()
		s.Seconds, s.Threads = time.Since(start).Seconds(), threads
		return s, nil
	case dev.Kind == "gpu":
		rows, kind, err := fwOnGPUs(ctx, world, g, o)
		if err != nil {
			return nil, err
		}
		s = result.FromRows(rows, g, kind != lanes.Float32, o.Reachable)
		s.Algorithm, s.Device, s.Lanes = engine.DistributedFWName, fmt.Sprintf("gpu, %d MPI ranks", world.Size()), kind.String()
	default:
		rows, kind, err := engine.DistributedFWRows(ctx, world, g)
		if err != nil {
			return nil, err
		}
		s = result.FromRows(rows, g, true, o.Reachable)
		s.Algorithm, s.Device, s.Lanes = engine.DistributedFWName, fmt.Sprintf("cpu, %d MPI ranks", world.Size()), kind.String()
	}
	s.Threads = 1
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// fwOnGPUs plans g as engine.DistributedGPUEngine would on the rank's GPU and runs it over
// the ranks, a GPU each. What a rank finds wrong on its own (no GPU, lanes
// the graph does not fit) is agreed on first, so that every rank fails
// together.
func fwOnGPUs(ctx context.Context, world comm.Comm, g *graph.Graph, o *plan.Options) ([]reduce.Row, lanes.Kind, error) {
	ordinal, err := rankGPU(world.Rank(), o.Device)
	var pl *plan.Plan
	if err == nil {
		on := *o
		on.Engine, on.Device = engine.DistributedGPUEngine(), plan.Device{Kind: "gpu", Ordinal: ordinal, Numbered: true}
		pl, err = plan.Resolve(g, plan.Request{Options: &on, Want: plan.Rows})
	}
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, 0, err
	}
	rows, err := engine.RanksRows(ctx, world, pl.Problem, ordinal)
	return rows, pl.Problem.Lanes, err
}

// bfsOnGPUs is gpu-bitbfs over the ranks, a GPU each: the sources split,
// the totals added.
func bfsOnGPUs(ctx context.Context, world comm.Comm, g *graph.Graph, dev plan.Device) (*reduce.Brief, error) {
	ordinal, err := rankGPU(world.Rank(), dev)
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, err
	}
	return engine.RanksBrief(ctx, world, g, ordinal)
}

// rankGPU is the GPU a rank computes on: N for device "gpu:N"; for "gpu",
// its rank among the job's ranks on its host (as the MPI launcher says:
// Open MPI, MPICH, Slurm), or its world rank where none says, modulo the
// host's GPUs.
func rankGPU(rank int, dev plan.Device) (int, error) {
	if dev.Numbered {
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

// Job is this process's rank in an MPI job.
type Job struct {
	world    comm.Comm
	finalize func() error
}

// JoinMPI initialises MPI (once a process) and returns this process's
// rank in MPI_COMM_WORLD.
func JoinMPI() (*Job, error) {
	world, finalize, err := engine.JoinMPI()
	if err != nil {
		return nil, err
	}
	return &Job{world: world, finalize: finalize}, nil
}

// Rank is this process's rank; Size is the job's.
func (j *Job) Rank() int { return j.world.Rank() }

// Size is the number of ranks in the job.
func (j *Job) Size() int { return j.world.Size() }

// Stats is Distributed over the job's ranks.
func (j *Job) Stats(ctx context.Context, g *graph.Graph, o *plan.Options) (*result.Stats, error) {
	return Distributed(ctx, j.world, g, o)
}

// Finalize ends MPI for this process.
func (j *Job) Finalize() error { return j.finalize() }

// ErrRankFailed is matched by the error every rank returns when one rank
// failed before the ranks began to wait for each other.
var ErrRankFailed = comm.ErrRankFailed

// Barrier returns once every rank has called it.
func (j *Job) Barrier(ctx context.Context) error { return j.world.Barrier(ctx) }
