package engine

import (
	"context"

	"github.com/apsp/apsp/internal/gpu"
	gpuminplus "github.com/apsp/apsp/internal/gpu/minplus"
	"github.com/apsp/apsp/internal/gpu/sssp"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// SSSPEngine is gpu-sssp: a shortest-path search from every source on a
// GPU (sssp.Rows), for sparse graphs with arcs of length at least 0.
func SSSPEngine() Engine { return gpuSSSPEngine{} }

// MinPlusEngine is gpu-minplus: repeated min-plus squaring of the distance
// matrix on a GPU (gpuminplus.Rows), an independent check of the
// Floyd–Warshall engines that auto never picks.
func MinPlusEngine() Engine { return gpuMinPlusEngine{} }

// gpuSSSPEngine runs gpu-sssp: summaries reduced on the device; the matrix
// comes back a launch of sources' rows at a time.
type gpuSSSPEngine struct{}

func (gpuSSSPEngine) Name() string { return "gpu-sssp" }

// Caps: int32 lanes, or float32 for float graphs (as the GPU's
// Floyd–Warshall: the lane plan refuses lengths float32 cannot hold). No
// negative arcs: the relaxation order assumes none. Auto: AutoGPUFor picks
// it for weighted graphs where its estimate beats the Floyd–Warshall's
// (sparse ones, where it measured several times faster: docs/perf.md,
// "gpu-sssp and gpu-minplus").
// It splits its sources over several GPUs.
func (gpuSSSPEngine) Caps() Caps {
	return Caps{Device: GPU, Weights: AnyWeights, Rows: true, Auto: true, MultiGPU: true, Lanes: []lanes.Kind{lanes.Int32, lanes.Float32}}
}

// Supports finds every GPU asked for.
func (gpuSSSPEngine) Supports(p *Problem) error {
	if err := lanesFollowGraph(p); err != nil {
		return err
	}
	return multiGPU(p)
}

// WorkBytes is the host side: the page-locked arcs and summaries or rows
// of distances (sssp.HostBytes), plus the rows for a summary or the
// matrix.
func (gpuSSSPEngine) WorkBytes(p *Problem, dense bool) uint64 {
	n := uint64(p.Graph.N())
	need := sssp.HostBytes(p.Graph.N(), p.Graph.Arcs(), dense)
	if !dense {
		return need + n*RowVertexBytes
	}
	return need + matrixBytes(p.Graph.N(), p.Lanes, p.Paths)
}

// Rows and Run split the sources over every GPU asked for
// (sssp.Rows, sssp.Matrix); the result is one GPU's, bit for bit.
func (gpuSSSPEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, "", err
	}
	r, err := sssp.Rows(ctx, gpu.OnGPUs(ords), p.Graph, p.Lanes.IsFloat())
	if err != nil {
		return nil, "", err
	}
	return r.Rows, r.Device, nil
}

func (gpuSSSPEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, err
	}
	m, err := sssp.Matrix(ctx, gpu.OnGPUs(ords), p.Graph, p.Lanes.IsFloat())
	if err != nil {
		return nil, err
	}
	return sparseResult(p, m.N, m.Int, m.Float, m.Device), nil
}

// sparseResult wraps an n×n matrix (InfInt32 or +Inf for no path) from the
// GPU as a Result, successors derived when paths were asked for.
func sparseResult(p *Problem, n int, ints []int32, floats []float32, device string) *Result {
	r := &Result{Device: device, Threads: 1}
	if floats != nil {
		r.Matrix = &lanes.Matrix[float32]{N: n, Size: n, Stride: n, Inf: lanes.InfOf[float32](), Data: floats}
	} else {
		r.Matrix = &lanes.Matrix[int32]{N: n, Size: n, Stride: n, Inf: lanes.InfOf[int32](), Data: ints}
	}
	if p.Paths {
		r.Next, r.NextStride = Successors(r.Matrix, p.Graph, p.Threads), n
	}
	return r
}

// gpuMinPlusEngine runs gpu-minplus.
type gpuMinPlusEngine struct{}

func (gpuMinPlusEngine) Name() string { return "gpu-minplus" }

// Caps: the lanes of gpu-sssp; never auto (log₂ n times Floyd–Warshall's
// work).
func (gpuMinPlusEngine) Caps() Caps {
	return Caps{Device: GPU, Weights: AnyWeights, Rows: true, Lanes: []lanes.Kind{lanes.Int32, lanes.Float32}}
}

// Supports finds the GPU asked for; it refuses several.
func (e gpuMinPlusEngine) Supports(p *Problem) error {
	if err := lanesFollowGraph(p); err != nil {
		return err
	}
	return oneGPU(e.Name(), p)
}

// WorkBytes is the page-locked buffer (the padded matrix when it comes
// back, else the arcs and summaries) and the result.
func (gpuMinPlusEngine) WorkBytes(p *Problem, dense bool) uint64 {
	n := uint64(p.Graph.N())
	need := gpuminplus.HostBytes(p.Graph.N(), p.Graph.Arcs(), dense)
	if !dense {
		return need + n*RowVertexBytes
	}
	return need + matrixBytes(p.Graph.N(), p.Lanes, p.Paths)
}

func (gpuMinPlusEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	r, err := gpuminplus.Rows(ctx, gpu.OnGPU(p.Ordinal), p.Graph, p.Lanes.IsFloat())
	if err != nil {
		return nil, "", err
	}
	return r.Rows, r.Device, nil
}

func (gpuMinPlusEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	m, err := gpuminplus.Matrix(ctx, gpu.OnGPU(p.Ordinal), p.Graph, p.Lanes.IsFloat())
	if err != nil {
		return nil, err
	}
	return sparseResult(p, m.N, m.Int, m.Float, m.Device), nil
}
