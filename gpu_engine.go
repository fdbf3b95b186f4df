package apsp

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNoGPU is matched (errors.Is) by every error that means no usable
// GPU: no CUDA driver library (or one that is not CUDA), a driver that sees
// no GPU, a GPU number (gpu:N) out of range, a GPU whose context cannot be
// created.
var ErrNoGPU = gpu.ErrNoGPU

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

// Devices lists the GPUs this machine offers, or says why there are none
// (matching ErrNoGPU). The driver is loaded and the GPUs are listed once per
// process (until Close).
func Devices() ([]gpu.DeviceInfo, error) { return gpu.Devices() }

// gpuEngine is the blocked Floyd–Warshall on a GPU, multi-kernel or SKSS.
type gpuEngine struct {
	kernel gpu.Kernel
}

func (e gpuEngine) Name() string   { return e.kernel.String() }
func (e gpuEngine) Device() string { return "gpu" }

func (e gpuEngine) Supports(p *Problem) error {
	if _, err := gpuPlan(p.Graph); err != nil {
		return err
	}
	_, ordinal, err := parseDevice(p.Device)
	if err != nil {
		return err
	}
	return gpu.Check(ordinal)
}

// gpuPlan checks that g's path lengths fit the GPU's lanes: int32, or
// float32 for float graphs.
func gpuPlan(g *graph.Graph) (cpu.Plan, error) {
	plan, err := cpu.PlanLanes(g)
	if err != nil {
		return plan, err
	}
	if g.Kind() == graph.FloatWeights {
		return plan, fitsFloat32(g, plan)
	}
	if plan.Lanes != cpu.Int32 {
		return plan, fmt.Errorf("path lengths may exceed the GPU's int32 lanes (%s lanes needed)", plan.Lanes)
	}
	return plan, nil
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

// job plans p for the GPU; negative cycles are searched for on the CPU
// only when the graph has negative lengths.
func (e gpuEngine) job(ctx context.Context, p *Problem) (gpu.Job, error) {
	plan, err := gpuPlan(p.Graph)
	if err != nil {
		return gpu.Job{}, err
	}
	_, ordinal, err := parseDevice(p.Device)
	if err != nil {
		return gpu.Job{}, err
	}
	if plan.Negative {
		if err := cpu.FindNegativeCycle(ctx, p.Graph); err != nil {
			return gpu.Job{}, err
		}
	}
	j := gpu.Job{Graph: p.Graph, Ordinal: ordinal, Kernel: e.kernel, MaxReal: math.MaxInt32}
	if p.Graph.Kind() != graph.FloatWeights {
		j.MaxReal = int32(min(plan.MaxReal, math.MaxInt32))
	}
	return j, nil
}

func (e gpuEngine) Run(ctx context.Context, p *Problem) (*Distances, error) {
	start := time.Now()
	j, err := e.job(ctx, p)
	if err != nil {
		return nil, err
	}
	// The host holds the pinned transfer buffer (4 bytes a cell) and the
	// result in its own lanes.
	float := p.Graph.Kind() == graph.FloatWeights
	lanes := cpu.Int32
	if float {
		lanes = cpu.Float64
	}
	n, stride := p.Graph.N(), gpu.Stride(p.Graph.N(), e.kernel)
	need := uint64(stride) * uint64(stride) * uint64(4+lanes.Bytes())
	if p.Paths {
		need += uint64(n) * uint64(n) * 4
	}
	if err := checkBytes(n, need, lanes, p.Paths); err != nil {
		return nil, err
	}
	m, err := gpu.Matrix(ctx, j)
	if err != nil {
		return nil, err
	}
	if m.NegVertex >= 0 {
		return nil, &NegativeCycleError{Vertex: m.NegVertex}
	}
	var d *Distances
	if float {
		d = newDistances(&cpu.Matrix[float64]{N: n, Size: m.Stride, Stride: m.Stride, Inf: math.Inf(1), Data: m.Float}, nil)
		d.laneName = "float32"
	} else {
		d = newDistances(&cpu.Matrix[int32]{N: n, Size: m.Stride, Stride: m.Stride, Inf: cpu.Inf32, Data: m.Int}, nil)
	}
	if p.Paths {
		d.next, d.nextStride = deriveSuccessors(d, p.Graph, p.Threads), d.n
	}
	d.Algorithm, d.Device, d.Threads = e.Name(), m.Device, 1
	d.Seconds = time.Since(start).Seconds()
	return d, nil
}

// Rows reduces on the device: only per-source summaries cross the bus.
func (e gpuEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	j, err := e.job(ctx, p)
	if err != nil {
		return nil, "", err
	}
	r, err := gpu.Rows(ctx, j)
	if err != nil {
		return nil, "", err
	}
	if r.NegVertex >= 0 {
		return nil, "", &NegativeCycleError{Vertex: r.NegVertex}
	}
	return r.Rows, r.Device, nil
}
