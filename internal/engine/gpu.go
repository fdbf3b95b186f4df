package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/bitbfs"
	gpufw "github.com/apsp/apsp/internal/gpu/fw"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNoGPU is matched (errors.Is) by every error that means no usable
// GPU: no CUDA driver library (or one that is not CUDA), a driver that sees
// no GPU, a GPU number (gpu:N) out of range, a GPU whose context cannot be
// created.
var ErrNoGPU = gpu.ErrNoGPU

// ErrInvalid is wrapped by every error about the request itself; the
// planner's and the API's (plan.ErrInvalid, apsp.ErrInvalidOptions) are
// this one, so that an engine's refusal of a request (several GPUs for an
// engine that runs on one) matches them.
var ErrInvalid = errors.New("invalid options")

// GPUsOf resolves the GPUs p asks for: "gpu:all" is every GPU the driver
// sees (found once the driver is loaded), a list is itself (each checked
// to exist and be listed once), else the one Ordinal. Errors match
// ErrNoGPU when a GPU is missing, ErrInvalid when one is listed twice.
func GPUsOf(p *Problem) ([]int, error) {
	switch {
	case p.AllGPUs:
		return gpu.Visible()
	case len(p.GPUs) > 0:
		if err := gpu.CheckAll(p.GPUs); err != nil {
			if errors.Is(err, gpu.ErrDuplicateGPU) {
				return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
			}
			return nil, err
		}
		return p.GPUs, nil
	}
	return []int{p.Ordinal}, gpu.Check(p.Ordinal)
}

// oneGPU is Supports for the engines that run on one GPU (min-plus): the
// GPU, or why not. A list of GPUs, or gpu:all where the driver sees
// several, is refused (ErrInvalid); gpu-bitbfs and gpu-sssp split their
// sources over several GPUs, gpu-multi and gpu-single the rows of one
// matrix.
func oneGPU(name string, p *Problem) error {
	ords, err := GPUsOf(p)
	if err != nil {
		return err
	}
	if len(ords) > 1 {
		what := fmt.Sprintf("%d GPUs", len(ords))
		if p.AllGPUs {
			what = fmt.Sprintf("gpu:all (%d GPUs)", len(ords))
		}
		return fmt.Errorf("%w: %s runs on one GPU, not %s (gpu-multi, gpu-single, gpu-bitbfs and gpu-sssp split their work over several GPUs; use gpu:N)",
			ErrInvalid, name, what)
	}
	return nil
}

// multiGPU is Supports for the engines that split their work over the
// GPUs p lists: every one must exist.
func multiGPU(p *Problem) error {
	_, err := GPUsOf(p)
	return err
}

// multiRequested says whether p may name several GPUs.
func multiRequested(p *Problem) bool { return p.AllGPUs || len(p.GPUs) > 1 }

const (
	gpuMulti  = gpu.Multi
	gpuSingle = gpu.Single
)

// GPUEngine is the blocked Floyd–Warshall on a GPU in the given form.
func GPUEngine(k gpu.Kernel) Engine { return gpuEngine{k} }

// AutoGPU is the GPU engine "auto" would use for n vertices.
func AutoGPU(n int) Engine { return gpuEngine{gpu.AutoKernel(n)} }

// AutoGPUFor is the GPU engine "auto" should use for p's graph, and its
// estimate: gpu-bitbfs (unweighted graphs) or gpu-sssp (weighted ones, no
// negative arc) where it takes the graph and its estimate is lower than
// Floyd–Warshall's (unweighted graphs beyond a few thousand vertices,
// sparse weighted ones), or whenever it takes the graph and p names
// several GPUs (Floyd–Warshall splits over them too, but these two split
// without exchanging rows), else AutoGPU. The estimate comes back because
// the searching engines' estimates run a host BFS, which the caller need
// not repeat (they do not depend on p's lanes).
func AutoGPUFor(p *Problem) (Engine, float64) {
	// Both estimates include the GPU's start (GPUStartSeconds), which drops
	// once a GPU is open: a GPU opened between them (apsp.WarmUp in another
	// goroutine) would charge it to one engine only, so they are taken
	// again until no GPU opened meanwhile.
	for range 3 {
		opened := gpu.Opened()
		e, t := autoGPUFor(p)
		if gpu.Opened() == opened {
			return e, t
		}
	}
	return autoGPUFor(p)
}

func autoGPUFor(p *Problem) (Engine, float64) {
	fw := AutoGPU(p.Graph.N())
	b := BitEngine()
	if p.Graph.Weighted() {
		b = SSSPEngine()
	}
	fwTime := fw.Estimate(p)
	if Check(b, p.Graph, p.Plan) != nil {
		return fw, fwTime
	}
	if t := b.Estimate(p); t < fwTime || multiRequested(p) {
		return b, t
	}
	return fw, fwTime
}

// gpuEngine is the blocked Floyd–Warshall on a GPU, multi-kernel or SKSS;
// the process's GPU runtime (internal/gpu) keeps the driver, contexts,
// modules and buffers between calls.
type gpuEngine struct {
	kernel gpu.Kernel
}

func (e gpuEngine) Name() string { return e.kernel.String() }

func (e gpuEngine) Caps() Caps {
	// int16 packed two a word where the plan holds them (non-negative
	// lengths below lanes.Inf16: __viaddmin_s16x2 relaxes two a DPX
	// instruction), else int32, or float32 for float graphs: the lane plan
	// refuses lengths float32 cannot hold and weights below its normal
	// range. int8 (four a word) is not offered: on Hopper its byte-wise
	// minimum costs more instructions than the 16-bit DPX pair, so it is
	// slower than int16 (docs/perf.md, "Packed lanes on the GPU").
	// Several GPUs (gpu:all, gpu:0,1) share one matrix by strips of rows
	// (gpufw.Matrix, gpufw.Rows; both forms then run the multi-kernel
	// rounds).
	return Caps{Device: GPU, Weights: AnyWeights, Negative: true, Rows: true, Auto: true, MultiGPU: true,
		Lanes: []lanes.Kind{lanes.Int16, lanes.Int32, lanes.Float32}}
}

// Supports finds every GPU asked for (the runtime lists the GPUs once).
func (e gpuEngine) Supports(p *Problem) error {
	if err := lanesFollowGraph(p); err != nil {
		return err
	}
	return multiGPU(p)
}

// lanesFollowGraph refuses lanes of the other class than the graph's: the
// GPU kernels take their lanes from the graph (an integer graph in integer
// lanes, a float graph in float32), so float32 named for an integer graph
// would compute int32 and be read as float32.
func lanesFollowGraph(p *Problem) error {
	float := p.Graph.Kind() == graph.FloatWeights
	if p.Lanes.IsFloat() == float {
		return nil
	}
	want := "integer"
	if float {
		want = "float32"
	}
	return fmt.Errorf("computes %s graphs in %s lanes, not %s", p.Graph.Kind(), want, p.Lanes)
}

// WorkBytes is the host side: for a matrix the pooled page-locked transfer
// buffer (4 bytes a cell, or the packed lane's bytes) and the result in its
// lanes (int16, int32 or float32), plus successors;
// for summaries the rows.
func (e gpuEngine) WorkBytes(p *Problem, dense bool) uint64 {
	n := uint64(p.Graph.N())
	if !dense {
		return n * RowVertexBytes
	}
	stride := uint64(gpufw.Stride(p.Graph.N(), e.kernel))
	transfer := uint64(4)
	if packed(p.Lanes) {
		transfer = uint64(p.Lanes.Bytes())
	}
	need := stride * stride * (transfer + uint64(p.Lanes.Bytes()))
	if p.Paths {
		need += n * n * 4
	}
	return need
}

// packed says whether the GPU kernels pack kind into 32-bit words.
func packed(kind lanes.Kind) bool { return kind == lanes.Int16 || kind == lanes.Int8 }

// Devices lists the GPUs this machine offers, or says why there are none
// (matching ErrNoGPU). The driver is loaded and the GPUs are listed once per
// process (until Close).
func Devices() ([]gpu.DeviceInfo, error) { return gpu.Devices() }

// OpenGPUs opens the GPUs listed, or every GPU the driver sees when all
// is set, all at once: the driver and each context, which later calls
// find open (the kernels still load on first use). Its error joins every
// GPU's that failed.
func OpenGPUs(ordinals []int, all bool) error {
	if all {
		var err error
		if ordinals, err = gpu.Visible(); err != nil {
			return err
		}
	}
	// At once: creating a context is a large share of a GPU's start
	// (docs/perf.md, "The GPU runtime: repeated calls"), and the runtime
	// opens different GPUs concurrently.
	errs := make([]error, len(ordinals))
	var wg sync.WaitGroup
	for i, o := range ordinals {
		wg.Go(func() { _, errs[i] = gpufw.Open(o) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// job plans p for the GPU; negative cycles are searched for on the CPU
// only when the graph has negative lengths.
func (e gpuEngine) job(ctx context.Context, p *Problem) (gpufw.Job, error) {
	if p.Plan.Negative {
		if err := cpu.FindNegativeCycle(ctx, p.Graph); err != nil {
			return gpufw.Job{}, err
		}
	}
	j := gpufw.Job{Graph: p.Graph, Kernel: e.kernel, MaxReal: math.MaxInt32}
	if p.Graph.Kind() != graph.FloatWeights {
		// Values above MaxReal are infinity plus negative lengths. A
		// plan whose real distances are all ≤ 0 has MaxReal 0, which the
		// job reads as "none given" (infinity − 1, so infinity − 2 would
		// read as a distance): 1 is as sound a bound and is honoured.
		j.MaxReal = int32(max(min(p.Plan.MaxReal, math.MaxInt32), 1))
	}
	// Packed lanes only where the plan holds them (never negative lengths:
	// the kernels compare lanes as unsigned, and sums must stay below the
	// lane's range).
	if packed(p.Lanes) && p.Plan.Holds(p.Lanes) == nil && !p.Plan.Negative {
		j.Lanes = p.Lanes
	}
	return j, nil
}

func (e gpuEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	j, err := e.job(ctx, p)
	if err != nil {
		return nil, err
	}
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, err
	}
	m, err := gpufw.Matrix(ctx, gpu.OnGPUs(ords), j)
	if err != nil {
		return nil, err
	}
	if m.NegVertex >= 0 {
		return nil, &cpu.NegativeCycleError{Vertex: m.NegVertex}
	}
	r := &Result{Device: m.Device, Threads: 1}
	switch {
	case m.Float != nil:
		r.Matrix = &lanes.Matrix[float32]{N: m.N, Size: m.Stride, Stride: m.Stride, Inf: lanes.InfOf[float32](), Data: m.Float}
	case m.Int16 != nil:
		r.Matrix = &lanes.Matrix[int16]{N: m.N, Size: m.Stride, Stride: m.Stride, Inf: lanes.Inf16, Data: m.Int16}
	case m.Int8 != nil:
		r.Matrix = &lanes.Matrix[int8]{N: m.N, Size: m.Stride, Stride: m.Stride, Inf: lanes.Inf8, Data: m.Int8}
	default:
		r.Matrix = &lanes.Matrix[int32]{N: m.N, Size: m.Stride, Stride: m.Stride, Inf: lanes.InfOf[int32](), Data: m.Int}
	}
	if p.Paths {
		r.Next, r.NextStride = Successors(r.Matrix, p.Graph, p.Threads), m.N
	}
	return r, nil
}

// Rows reduces on the device: only per-source summaries cross the bus.
func (e gpuEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	j, err := e.job(ctx, p)
	if err != nil {
		return nil, "", err
	}
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, "", err
	}
	r, err := gpufw.Rows(ctx, gpu.OnGPUs(ords), j)
	if err != nil {
		return nil, "", err
	}
	if r.NegVertex >= 0 {
		return nil, "", &cpu.NegativeCycleError{Vertex: r.NegVertex}
	}
	return r.Rows, r.Device, nil
}

// RanksRows is gpu-multi's Rows over the ranks of world, a GPU each
// (gpufw.Rows over gpu.OverRanks; ordinal is this rank's): every rank
// calls it with the same problem and gets every source's summary. A
// negative cycle is searched for first, on every rank, and reported by
// every rank.
func RanksRows(ctx context.Context, world comm.Comm, p *Problem, ordinal int) ([]reduce.Row, error) {
	// The cycle search is every rank's alike for one graph, but a rank
	// whose search was cancelled, or whose graph differs, must not leave
	// the others waiting: agreed.
	j, err := gpuEngine{gpuMulti}.job(ctx, p)
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, err
	}
	r, err := gpufw.Rows(ctx, gpu.OverRanks(world, ordinal), j)
	if err != nil {
		return nil, err
	}
	if r.NegVertex >= 0 {
		return nil, &cpu.NegativeCycleError{Vertex: r.NegVertex}
	}
	return r.Rows, nil
}

// RanksBrief is gpu-bitbfs's Brief over the ranks of world, a GPU each
// (bitbfs.Brief over gpu.OverRanks): the batches of sources split over
// the ranks.
func RanksBrief(ctx context.Context, world comm.Comm, g *graph.Graph, ordinal int) (*reduce.Brief, error) {
	b, _, err := bitbfs.Brief(ctx, gpu.OverRanks(world, ordinal), g)
	return b, err
}

// BitEngine is gpu-bitbfs: the bit-parallel multi-source BFS of
// internal/bfs's bitbfs on a GPU, for unweighted graphs (bitbfs.Rows).
func BitEngine() Engine { return gpuBitEngine{} }

// gpuBitEngine runs gpu-bitbfs: summaries and the histogram are reduced on
// the device; the matrix comes back a batch of columns at a time.
type gpuBitEngine struct{}

func (gpuBitEngine) Name() string { return "gpu-bitbfs" }

// Caps: auto picks it through AutoGPUFor, the planner's GPU candidate for
// unweighted graphs. It splits its batches of sources over several GPUs.
func (gpuBitEngine) Caps() Caps {
	return Caps{Device: GPU, Weights: Unweighted, Rows: true, Harmonic: true, Hist: true, Auto: true, MultiGPU: true, Lanes: []lanes.Kind{lanes.Int32}}
}

// Supports finds every GPU asked for.
func (gpuBitEngine) Supports(p *Problem) error { return multiGPU(p) }

// WorkBytes is the host side: the page-locked buffer (the padded arcs, then
// the summaries or a batch's block of distances), plus the rows for a
// summary or the matrix.
func (gpuBitEngine) WorkBytes(p *Problem, dense bool) uint64 {
	n := uint64(p.Graph.N())
	need := bitbfs.HostBytes(p.Graph.N(), p.Graph.Arcs(), dense)
	if !dense {
		return need + n*RowVertexBytes
	}
	return need + matrixBytes(p.Graph.N(), lanes.Int32, p.Paths)
}

// Rows, Hist and Run split the batches of sources over every GPU asked
// for (bitbfs.Rows, bitbfs.Matrix); the result is one GPU's, bit for
// bit, but for the rows' Σ 1/d (the same within reduce.Same's tolerance).
func (gpuBitEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, "", err
	}
	r, err := bitbfs.Rows(ctx, gpu.OnGPUs(ords), p.Graph)
	if err != nil {
		return nil, "", err
	}
	return r.Rows, r.Device, nil
}

// Brief is Rows without building the rows (bitbfs.Brief).
func (gpuBitEngine) Brief(ctx context.Context, p *Problem) (*reduce.Brief, string, error) {
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, "", err
	}
	return bitbfs.Brief(ctx, gpu.OnGPUs(ords), p.Graph)
}

// Totals is the centralities' columns without the rows (bitbfs.Totals).
func (gpuBitEngine) Totals(ctx context.Context, p *Problem) (*reduce.Totals, string, error) {
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, "", err
	}
	return bitbfs.Totals(ctx, gpu.OnGPUs(ords), p.Graph)
}

func (gpuBitEngine) Hist(ctx context.Context, p *Problem) ([]int64, error) {
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, err
	}
	r, err := bitbfs.Rows(ctx, gpu.OnGPUs(ords), p.Graph)
	if err != nil {
		return nil, err
	}
	return r.Hist, nil
}

func (gpuBitEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	n := p.Graph.N()
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, err
	}
	data, device, err := bitbfs.Matrix(ctx, gpu.OnGPUs(ords), p.Graph)
	if err != nil {
		return nil, err
	}
	inf := lanes.InfOf[int32]()
	for i, x := range data {
		if x < 0 { // not reached
			data[i] = inf
		}
	}
	m := &lanes.Matrix[int32]{N: n, Size: n, Stride: n, Data: data, Inf: inf}
	r := &Result{Matrix: m, Device: device, Threads: 1}
	if p.Paths {
		r.Next, r.NextStride = Successors(m, p.Graph, p.Threads), n
	}
	return r, nil
}
