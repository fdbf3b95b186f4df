package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNoGPU is wrapped when a GPU was asked for and none is usable.
var ErrNoGPU = errors.New("no usable GPU")

// parseDevice reads Options.Device: "", "auto", "cpu", "gpu" or "gpu:N".
func parseDevice(s string) (kind string, ordinal int, err error) {
	switch {
	case s == "" || s == "auto":
		return "auto", 0, nil
	case s == "cpu":
		return "cpu", 0, nil
	case s == "gpu":
		return "gpu", 0, nil
	case strings.HasPrefix(s, "gpu:"):
		n, err := strconv.Atoi(s[4:])
		if err != nil || n < 0 {
			return "", 0, fmt.Errorf("device %q: want gpu:N with N a GPU number", s)
		}
		return "gpu", n, nil
	}
	return "", 0, fmt.Errorf("device %q: want auto, cpu, gpu or gpu:N", s)
}

// Devices lists the GPUs this machine offers, or says why there are none.
func Devices() ([]cuda.Info, error) {
	api, err := cuda.Load()
	if err != nil {
		return nil, err
	}
	infos, err := api.Devices()
	if err != nil {
		return nil, err
	}
	if len(infos) == 0 {
		return nil, fmt.Errorf("%w: the CUDA driver sees no GPU", ErrNoGPU)
	}
	return infos, nil
}

// gpuEngine is the blocked Floyd–Warshall on a GPU, multi-kernel or SKSS.
type gpuEngine struct {
	kernel gpu.Kernel
}

func (e gpuEngine) Name() string   { return e.kernel.String() }
func (e gpuEngine) Device() string { return "gpu" }

func (e gpuEngine) Supports(p *Problem) error {
	plan, err := cpu.PlanLanes(p.Graph)
	if err != nil {
		return err
	}
	if p.Graph.Kind() == graph.FloatWeights {
		if err := fitsFloat32(p.Graph, plan); err != nil {
			return err
		}
	} else if plan.Lanes != cpu.Int32 {
		return fmt.Errorf("path lengths may exceed the GPU's int32 lanes (%s lanes needed)", plan.Lanes)
	}
	if _, err := Devices(); err != nil {
		return err
	}
	return nil
}

// fitsFloat32 refuses float graphs that float32 lanes would get wrong by
// more than rounding: a path length (or the sum of two, Floyd–Warshall's
// candidate) that could overflow to +Inf, read as "no path", or a nonzero
// weight that would become 0 or lose its precision below float32's normal
// range. The bound allows float32 rounding of up to n·2⁻²² relative.
func fitsFloat32(g *graph.Graph, plan cpu.Plan) error {
	grow := 1 + float64(g.N())/(1<<22)
	if 2*plan.MaxAbsFloat*grow > math.MaxFloat32 {
		return fmt.Errorf("%w: float path lengths may reach %.3g, beyond what float32 lanes hold without overflow (use the CPU's float64)",
			cpu.ErrWeightsTooLarge, plan.MaxAbsFloat)
	}
	for u := 0; u < g.N(); u++ {
		for _, w := range g.FloatWeights(u) {
			if w != 0 && math.Abs(w) < 0x1p-126 {
				return fmt.Errorf("weight %g is below float32's normal range (about 1.2e-38); use the CPU's float64", w)
			}
		}
	}
	return nil
}

func (e gpuEngine) open(p *Problem) (*gpu.Session, error) {
	_, ordinal, err := parseDevice(p.Device)
	if err != nil {
		return nil, err
	}
	s, err := gpu.Open(ordinal)
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
		plan, err := cpu.PlanLanes(p.Graph)
		if err != nil {
			return gpu.Problem{}, false, err
		}
		maxReal = int32(plan.MaxReal)
	}
	if err := cpu.FindNegativeCycle(ctx, p.Graph); err != nil {
		return gpu.Problem{}, false, err
	}
	n := p.Graph.N()
	c := gpu.DefaultConfig(e.kernel, n, float)
	stride := (n + c.Tile - 1) / c.Tile * c.Tile
	return gpu.Problem{N: n, Stride: stride, Config: c, MaxReal: maxReal}, float, nil
}

func (e gpuEngine) Run(ctx context.Context, p *Problem) (*Distances, error) {
	start := time.Now()
	gp, float, err := e.prepare(ctx, p)
	if err != nil {
		return nil, err
	}
	// The host holds the pinned transfer buffer and a copy of it (4 bytes a
	// cell each) and the result in its own lanes.
	lanes := cpu.Int32
	if float {
		lanes = cpu.Float64
	}
	cells := uint64(gp.Stride) * uint64(gp.Stride)
	need := cells * uint64(8+lanes.Bytes())
	if p.Paths {
		need += uint64(gp.N) * uint64(gp.N) * 4
	}
	if err := checkBytes(gp.N, need, lanes, p.Paths); err != nil {
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
	var d *Distances
	if float {
		m := &cpu.Matrix[float64]{N: gp.N, Size: gp.Stride, Stride: gp.Stride, Inf: math.Inf(1), Data: make([]float64, len(res.Matrix))}
		for i, b := range res.Matrix {
			m.Data[i] = float64(math.Float32frombits(b))
		}
		d = newDistances(m, nil)
		d.laneName = "float32"
	} else {
		m := &cpu.Matrix[int32]{N: gp.N, Size: gp.Stride, Stride: gp.Stride, Inf: cpu.Inf32, Data: make([]int32, len(res.Matrix))}
		for i, b := range res.Matrix {
			m.Data[i] = int32(b)
		}
		cpu.Normalize(m, int64(gp.MaxReal))
		d = newDistances(m, nil)
	}
	for v := 0; v < gp.N; v++ {
		if d.At(v, v).Float() < 0 {
			return nil, &NegativeCycleError{Vertex: v}
		}
	}
	if p.Paths {
		d.next, d.nextStride = deriveSuccessors(d, p.Graph, p.Threads), d.n
	}
	d.Algorithm, d.Device, d.Threads = e.Name(), s.Dev.Info.Name, 1
	d.Seconds = time.Since(start).Seconds()
	return d, nil
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
		return nil, "", &NegativeCycleError{Vertex: res.NegVertex}
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
