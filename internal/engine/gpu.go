package engine

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNoGPU is wrapped when a GPU was asked for and none is usable.
var ErrNoGPU = errors.New("no usable GPU")

const (
	gpuMulti  = gpu.Multi
	gpuSingle = gpu.Single
)

// GPUEngine is the blocked Floyd–Warshall on a GPU in the given form.
func GPUEngine(k gpu.Kernel) Engine { return gpuEngine{k} }

// AutoGPU is the GPU engine "auto" would use for n vertices.
func AutoGPU(n int) Engine { return gpuEngine{gpu.AutoKernel(n)} }

// gpuEngine is the blocked Floyd–Warshall on a GPU, multi-kernel or SKSS.
type gpuEngine struct {
	kernel gpu.Kernel
}

func (e gpuEngine) Name() string { return e.kernel.String() }

func (e gpuEngine) Caps() Caps {
	// int32 lanes, or float32 for float graphs: the lane plan refuses
	// lengths float32 cannot hold and weights below its normal range.
	return Caps{Device: GPU, Weights: AnyWeights, Negative: true, Rows: true, Auto: true,
		Lanes: []lanes.Kind{lanes.Int32, lanes.Float32}}
}

func (e gpuEngine) Supports(p *Problem) error {
	_, err := Devices()
	return err
}

// WorkBytes is the host side: the pinned transfer buffer and its copy
// (4 bytes a cell each) and, for a matrix, the result in its own lanes.
func (e gpuEngine) WorkBytes(p *Problem, dense bool) uint64 {
	n := uint64(p.Graph.N())
	if !dense {
		return n * RowVertexBytes
	}
	cells := n * n
	need := cells * uint64(8+p.Lanes.Bytes())
	if p.Paths {
		need += cells * 4
	}
	return need
}

// Devices lists the GPUs this machine offers, or says why there are none
// (wrapping ErrNoGPU).
func Devices() ([]cuda.Info, error) {
	api, err := cuda.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoGPU, err)
	}
	infos, err := api.Devices()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoGPU, err)
	}
	if len(infos) == 0 {
		return nil, fmt.Errorf("%w: the CUDA driver sees no GPU", ErrNoGPU)
	}
	return infos, nil
}

func (e gpuEngine) open(p *Problem) (*gpu.Session, error) {
	s, err := gpu.Open(p.Ordinal)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoGPU, err)
	}
	return s, nil
}

// prepare checks for negative cycles and sizes the problem.
func (e gpuEngine) prepare(ctx context.Context, p *Problem) (gpu.Problem, bool, error) {
	float := p.Graph.Kind() == graph.FloatWeights
	var maxReal int32 = math.MaxInt32
	if !float {
		maxReal = int32(p.Plan.MaxReal)
	}
	if p.Plan.Negative {
		if err := cpu.FindNegativeCycle(ctx, p.Graph); err != nil {
			return gpu.Problem{}, false, err
		}
	}
	n := p.Graph.N()
	c := gpu.DefaultConfig(e.kernel, n, float)
	stride := (n + c.Tile - 1) / c.Tile * c.Tile
	return gpu.Problem{N: n, Stride: stride, Config: c, MaxReal: maxReal}, float, nil
}

func (e gpuEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	gp, float, err := e.prepare(ctx, p)
	if err != nil {
		return nil, err
	}
	s, err := e.open(p)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res, err := s.Run(ctx, gp, gpu.InitFromGraph(p.Graph, gp.Stride, float), true)
	if err != nil {
		return nil, err
	}
	r := &Result{Device: s.Dev.Info.Name, Threads: 1}
	if float {
		m := &lanes.Matrix[float32]{N: gp.N, Size: gp.Stride, Stride: gp.Stride, Inf: float32(math.Inf(1)), Data: make([]float32, len(res.Matrix))}
		for i, b := range res.Matrix {
			m.Data[i] = math.Float32frombits(b)
		}
		r.Matrix = m
	} else {
		inf := lanes.InfOf[int32]()
		m := &lanes.Matrix[int32]{N: gp.N, Size: gp.Stride, Stride: gp.Stride, Inf: inf, Data: make([]int32, len(res.Matrix))}
		for i, b := range res.Matrix {
			x := int32(b)
			if x > int32(gp.MaxReal) {
				x = inf // infinity plus a negative length
			}
			m.Data[i] = x
		}
		r.Matrix = m
		for v := 0; v < gp.N; v++ {
			if x := m.At(v, v); x < 0 {
				return nil, &cpu.NegativeCycleError{Vertex: v}
			}
		}
	}
	if p.Paths {
		r.Next, r.NextStride = Successors(r.Matrix, p.Graph, p.Threads), gp.N
	}
	return r, nil
}

// Rows reduces on the device: only per-source summaries cross the bus.
func (e gpuEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	gp, float, err := e.prepare(ctx, p)
	if err != nil {
		return nil, "", err
	}
	s, err := e.open(p)
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	res, err := s.Run(ctx, gp, gpu.InitFromGraph(p.Graph, gp.Stride, float), false)
	if err != nil {
		return nil, "", err
	}
	if res.NegVertex >= 0 {
		return nil, "", &cpu.NegativeCycleError{Vertex: res.NegVertex}
	}
	rows := make([]reduce.Row, gp.N)
	for u := range rows {
		r := reduce.Row{Reach: int64(res.Reach[u]), Unreach: int(res.Reach[u]) < gp.N-1}
		if float {
			r.MaxF = float64(math.Float32frombits(res.Max[u]))
			r.SumF = res.Sum[u]
		} else {
			r.MaxI = int64(int32(res.Max[u]))
			r.Sum.Add(int64(res.Sum[u])) // exact: below 2^53 for int32 lanes
		}
		rows[u] = r
	}
	return rows, s.Dev.Info.Name, nil
}
