package sssp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/reduce"
)

// Timing is what a gpu-sssp run measured: CUDA events in milliseconds,
// host wall time, and the layout.
type Timing struct {
	Upload   float64 // the arcs' copy
	Search   float64 // every source's search and summary (and the rows' copies, for a matrix)
	Download float64 // the summaries
	Total    float64
	Wall     time.Duration // the whole call on the owner goroutine

	Shared          bool // distances in shared memory (else a global row a block)
	Grid, Block     int
	Launches, Syncs int
	Compiled        bool
}

// Result is every source's summary from Rows.
type Result struct {
	Rows   []reduce.Row
	Device string
	// Timing is the run's (with several GPUs, the one that took longest);
	// PerGPU is each GPU's, in the order listed, when there were several.
	Timing Timing
	PerGPU []Timing
}

// MatrixResult is the distance matrix from Matrix, n×n row-major:
// Int (gpu.InfInt32 for no path) for integer lanes, Float (+Inf) for float32.
type MatrixResult struct {
	N      int
	Int    []int32
	Float  []float32
	Device string
	Timing Timing
}

// ssspConfig shapes a run; the zero value is the default.
type ssspConfig struct {
	Block  int  // threads a block: 128..1024, a power of two (0: by occupancy)
	Global bool // keep distances in global memory even where shared memory holds them
}

// ssspPlan is a run's layout, computed on the host (tested without a GPU).
type ssspPlan struct {
	n, nw      int
	shared     bool
	dynShared  int // dynamic shared bytes a block
	block      int
	grid       int    // blocks in flight: each takes sources grid apart
	scratch    uint64 // global distance rows (grid·n·4) when not shared
	csrBytes   uint64 // offsets, heads, weights
	rows       int    // matrix: sources a launch (their rows fill the dist buffer)
	distBytes  uint64 // matrix: the device and page-locked buffer of rows
	chunk      int    // summaries: sources a launch (a read of the context between)
	sumBytes   uint64 // reach, max, sum, Σ 1/d: 24 bytes a source
	deviceNeed uint64
}

// ssspReserved is the shared memory the driver reserves a block: an SM
// offers a block's opt-in maximum plus this much.
const ssspReserved = 1024

// ssspStatic bounds the kernel's static shared memory (the block's
// counters and a Σ 1/d a warp, 32 warps at most), which shares the opt-in
// maximum with the dynamic part.
const ssspStatic = 64 + 8*32

// planSSSP lays out a run of n vertices and arcs arcs on a GPU with sms
// multiprocessors, maxShared bytes of shared memory a block (opt-in) and
// free bytes of memory; dense asks for the matrix.
func planSSSP(n, arcs, sms, maxShared int, free uint64, cfg ssspConfig, dense bool) (ssspPlan, error) {
	p := ssspPlan{n: n, nw: (n + 31) / 32}
	dynMax := maxShared - ssspStatic // the dynamic part's share
	marks := 4 * ((p.nw + 3) &^ 3)
	p.shared = !cfg.Global && marks+4*n <= dynMax
	p.dynShared = marks
	if p.shared {
		p.dynShared += 4 * n
	}
	if p.dynShared > dynMax {
		return p, fmt.Errorf("%w: gpu-sssp's marks of %d vertices need %d bytes of shared memory a block; the GPU allows %d (%d less the kernel's own %d)",
			gpu.ErrDoesNotFit, n, p.dynShared, dynMax, maxShared, ssspStatic)
	}
	perSM := max(1, min(16, (maxShared+ssspReserved)/(p.dynShared+ssspReserved+ssspStatic)))
	if !p.shared {
		// Global rows: few sources in flight, so that their rows stay in
		// L2 as long as they can.
		perSM = min(perSM, 4)
	}
	p.block = cfg.Block
	if p.block == 0 {
		// About 2048 threads an SM, at most 1024 a block, and no more
		// threads than words of marks to scan (beyond 128).
		p.block = 1024
		for p.block > 128 && (p.block*perSM > 2048 || p.block/2 >= p.nw) {
			p.block /= 2
		}
		// From 4096 vertices 512 threads a source: on an H100 (gnp, mean
		// degree 4 and 32, weights 1..100) they beat 256 at n = 8192 (7.2
		// against 11.8 ms, 101 against 120 ms) and 1024 at n = 32 768 (146
		// against 152 ms, 1.15 against 1.83 s): fewer sources in flight
		// share L1 and L2 better.
		if p.nw >= 128 {
			p.block = 512
		}
	}
	if p.block < 32 || p.block > 1024 || p.block&(p.block-1) != 0 {
		return p, fmt.Errorf("gpu-sssp block %d: want a power of two from 32 to 1024", p.block)
	}
	perSM = min(perSM, 2048/p.block)
	p.grid = max(1, min(n, sms*perSM))
	p.csrBytes = (8*uint64(n+1) + 8*uint64(arcs) + 15) &^ 15
	p.sumBytes = 24 * uint64(n)
	if !p.shared {
		p.scratch = 4 * uint64(n) * uint64(p.grid)
	}
	const margin = 256 << 20
	p.deviceNeed = p.csrBytes + p.sumBytes + p.scratch + margin
	if dense {
		// Rows of up to 256 MiB a launch, at least a block's worth.
		p.rows = max(1, min(n, max(p.grid, (256<<20)/max(1, 4*n))))
		p.distBytes = 4 * uint64(p.rows) * uint64(n)
		p.deviceNeed += p.distBytes
	}
	// Launches of about 64 sources a block, so that a cancelled context is
	// seen within a fraction of a large run.
	p.chunk = max(p.grid, min(n, 64*p.grid))
	if p.deviceNeed > free {
		return p, fmt.Errorf("%w: gpu-sssp needs %.2f GiB for %d vertices and %d arcs; the GPU has %.2f GiB free",
			gpu.ErrDoesNotFit, float64(p.deviceNeed)/(1<<30), n, arcs, float64(free)/(1<<30))
	}
	return p, nil
}

type ssspKernels struct {
	rows           *cuda.Function
	compiled, used bool
}

type ssspModuleKey struct {
	float, shared bool
	block         int
}

func ssspModule(call *gpurt.Call, key ssspModuleKey) (*ssspKernels, error) {
	return gpurt.Cached(call, key, func() (*ssspKernels, error) {
		opts := []string{fmt.Sprintf("-DBLOCK=%d", key.block)}
		if key.float {
			opts = append(opts, "-DLANE_FLOAT")
		}
		if key.shared {
			opts = append(opts, "-DSHARED_DIST")
		}
		k := &ssspKernels{}
		var err error
		if k.compiled, err = gpu.LoadKernels(call, "sssp.cu", opts, gpu.Entry{Fn: &k.rows, Name: "sssp_rows"}); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// Rows runs gpu-sssp at place: a shortest-path search from every source
// of g (arcs of length at least 0), many sources at once, each source's
// row reduced on the device; only n summaries cross the bus. With float,
// the lanes are float32 (for float graphs); else int32, which the caller's
// lane plan must hold (lanes.Plan.Holds(lanes.Int32)).
//
// On several GPUs (OnGPUs, distinct ordinals, or OnAll) the sources are
// dealt out to them in ranges (ssspSplit), every GPU searches its own at
// once, and the summaries are merged on the host, bit-identical to one
// GPU's; a GPU that fails fails the call, with an error naming it. MPI
// ranks are refused (gpu.ErrPlacement).
func Rows(ctx context.Context, place gpu.Placement, g *graph.Graph, float bool) (*Result, error) {
	ordinals, err := gpus(place, "the rows")
	if err != nil {
		return nil, err
	}
	return ssspRowsOn(ctx, ordinals, g, float, ssspConfig{})
}

// gpus is the GPUs of place, or the refusal of ranks.
func gpus(place gpu.Placement, what string) ([]int, error) {
	if _, _, ok := place.Ranks(); ok {
		return nil, gpu.Refuse("gpu-sssp", what, place)
	}
	return place.GPUs()
}

func ssspRows(ctx context.Context, ordinal int, g *graph.Graph, float bool, cfg ssspConfig) (*Result, error) {
	return ssspRowsOn(ctx, []int{ordinal}, g, float, cfg)
}

// ssspSplit deals the n sources to k GPUs: four ranges a GPU, taken in
// turn across the vertices (gpu.SplitWork), so that a GPU's share is spread
// over the graph, yet each range still fills a launch on graphs of a few
// thousand vertices.
func ssspSplit(n, k int) [][]gpu.Span {
	return gpu.SplitWork(n, (n+4*k-1)/max(1, 4*k), k)
}

func ssspRowsOn(ctx context.Context, ordinals []int, g *graph.Graph, float bool, cfg ssspConfig) (*Result, error) {
	if err := gpu.CheckArcs(g, float); err != nil {
		return nil, fmt.Errorf("gpu-sssp: %w", err)
	}
	res := &Result{Rows: []reduce.Row{}}
	n := g.N()
	if n == 0 {
		return res, nil
	}
	spans := ssspSplit(n, len(ordinals))
	single := len(ordinals) == 1
	tot := &ssspTotals{}
	timings := make([]Timing, len(ordinals))
	devs, err := gpu.OnEach(ctx, ordinals, func(i int) bool { return len(spans[i]) > 0 }, func(i int, c *gpurt.Call) error {
		sums, err := runSSSP(c, g, float, cfg, &timings[i], nil, spans[i])
		if err != nil {
			return err
		}
		if single {
			res.Rows = ssspSummaries(sums, n, float)
			return nil
		}
		tot.add(ssspArrays(sums, n, float))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !single {
		res.Rows = ssspRowsOf(tot.ssspSums)
		res.PerGPU = timings
	}
	res.Timing = gpu.Slowest(timings, func(t Timing) float64 { return t.Total })
	res.Device = gpu.DeviceName(ordinals, devs)
	for i, d := range devs {
		if d != nil {
			d.AddTiming(timings[i].Search, timings[i].Total)
		}
	}
	return res, nil
}

// Matrix runs the same search as Rows at place and returns the distance
// matrix; rows come back a launch of sources at a time. On several GPUs
// each GPU's sources' rows go straight into the one matrix. MPI ranks are
// refused (gpu.ErrPlacement).
func Matrix(ctx context.Context, place gpu.Placement, g *graph.Graph, float bool) (*MatrixResult, error) {
	ordinals, err := gpus(place, "the matrix")
	if err != nil {
		return nil, err
	}
	return ssspMatrixOn(ctx, ordinals, g, float, ssspConfig{})
}

// MatrixRows is Matrix for the first k sources alone (vertices 0..k-1):
// k rows of n distances, the memory k·n. A caller with other sources
// numbers them first (graph.Graph.Renumber).
func MatrixRows(ctx context.Context, place gpu.Placement, g *graph.Graph, float bool, k int) (*MatrixResult, error) {
	ordinals, err := gpus(place, "the matrix")
	if err != nil {
		return nil, err
	}
	if k < 0 || k > g.N() {
		return nil, fmt.Errorf("gpu-sssp: %d sources of a graph of %d vertices", k, g.N())
	}
	return ssspMatrixRowsOn(ctx, ordinals, g, float, k, ssspConfig{})
}

func ssspMatrix(ctx context.Context, ordinal int, g *graph.Graph, float bool, cfg ssspConfig) (*MatrixResult, error) {
	return ssspMatrixOn(ctx, []int{ordinal}, g, float, cfg)
}

func ssspMatrixOn(ctx context.Context, ordinals []int, g *graph.Graph, float bool, cfg ssspConfig) (*MatrixResult, error) {
	return ssspMatrixRowsOn(ctx, ordinals, g, float, g.N(), cfg)
}

// ssspMatrixRowsOn is the matrix's first k rows (MatrixResult.N is still
// the vertex count n: the rows are n long).
func ssspMatrixRowsOn(ctx context.Context, ordinals []int, g *graph.Graph, float bool, k int, cfg ssspConfig) (*MatrixResult, error) {
	if err := gpu.CheckArcs(g, float); err != nil {
		return nil, fmt.Errorf("gpu-sssp: %w", err)
	}
	n := g.N()
	out := &MatrixResult{N: n}
	var bits []uint32
	if float {
		out.Float = make([]float32, k*n)
		if k*n > 0 {
			bits = unsafe.Slice((*uint32)(unsafe.Pointer(&out.Float[0])), k*n)
		}
	} else {
		out.Int = make([]int32, k*n)
		if k*n > 0 {
			bits = unsafe.Slice((*uint32)(unsafe.Pointer(&out.Int[0])), k*n)
		}
	}
	if k*n == 0 {
		return out, nil
	}
	spans := ssspSplit(k, len(ordinals))
	timings := make([]Timing, len(ordinals))
	devs, err := gpu.OnEach(ctx, ordinals, func(i int) bool { return len(spans[i]) > 0 }, func(i int, c *gpurt.Call) error {
		_, err := runSSSP(c, g, float, cfg, &timings[i], bits, spans[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Timing = gpu.Slowest(timings, func(t Timing) float64 { return t.Total })
	out.Device = gpu.DeviceName(ordinals, devs)
	for i, d := range devs {
		if d != nil {
			d.AddTiming(timings[i].Search, timings[i].Total)
		}
	}
	return out, nil
}

// runSSSP runs the searches from the sources of spans on the owner
// goroutine: the arcs go up once and the summaries are zeroed, then
// launches of plan.chunk sources (or plan.rows with a matrix, whose rows
// come back after each) queue on the stream; it returns the page-locked
// summaries (reach int32[n], max lane bits uint32[n], sums uint64 or
// float64 [n], Σ 1/d float64[n]; zero for the sources of no span), valid
// until the call ends.
func runSSSP(c *gpurt.Call, g *graph.Graph, float bool, cfg ssspConfig, tm *Timing, dist []uint32, spans []gpu.Span) (unsafe.Pointer, error) {
	wall := time.Now()
	defer func() { tm.Wall = time.Since(wall) }()
	n, m := g.N(), g.Arcs()
	info := c.Dev().Info
	free, _, err := c.Dev().MemInfo()
	if err != nil {
		return nil, err
	}
	p, err := planSSSP(n, m, info.SMs, info.MaxShared, free, cfg, dist != nil)
	if err != nil {
		return nil, err
	}
	tm.Shared, tm.Grid, tm.Block = p.shared, p.grid, p.block
	k, err := ssspModule(c, ssspModuleKey{float: float, shared: p.shared, block: p.block})
	if err != nil {
		return nil, err
	}
	if !k.used {
		tm.Compiled, k.used = k.compiled, true
	}
	if err := k.rows.SetMaxDynamicShared(p.dynShared); err != nil {
		return nil, err
	}
	host, err := c.Host(p.csrBytes + max(p.sumBytes, p.distBytes))
	if err != nil {
		return nil, err
	}
	gpu.FillArcs(g, host, float)
	csrD, err := c.Mem(p.csrBytes)
	if err != nil {
		return nil, err
	}
	sumsD, err := c.Mem(p.sumBytes)
	if err != nil {
		return nil, err
	}
	scratchD, distD := uint64(0), uint64(0)
	if p.scratch > 0 {
		if scratchD, err = c.Mem(p.scratch); err != nil {
			return nil, err
		}
	}
	if p.distBytes > 0 {
		if distD, err = c.Mem(p.distBytes); err != nil {
			return nil, err
		}
	}
	st := c.Stream()
	ev := [4]*cuda.Event{c.Event(0), c.Event(1), c.Event(2), c.Event(3)}
	if err := ev[0].RecordOn(st); err != nil {
		return nil, err
	}
	if err := st.CopyToDeviceAsync(csrD, host, p.csrBytes); err != nil {
		return nil, err
	}
	// Sources outside spans keep zero summaries, which the merge of
	// several GPUs' adds.
	if err := st.Memset32Async(sumsD, 0, p.sumBytes/4); err != nil {
		return nil, err
	}
	if err := ev[1].RecordOn(st); err != nil {
		return nil, err
	}
	offD, headsD, wD := csrD, csrD+8*uint64(n+1), csrD+8*uint64(n+1)+4*uint64(m)
	reachD, maxD, sumD, harmD := sumsD, sumsD+4*uint64(n), sumsD+8*uint64(n), sumsD+16*uint64(n)
	inf := uint32(gpu.InfInt32)
	if float {
		inf = math.Float32bits(float32(math.Inf(1)))
	}
	nv := int32(n)
	step := p.chunk
	if dist != nil {
		step = p.rows
	}
	out := unsafe.Add(host, p.csrBytes)
	type launch struct{ first, count int }
	var launches []launch
	for _, sp := range spans {
		for first := sp.Lo; first < sp.Hi; first += step {
			launches = append(launches, launch{first, min(step, sp.Hi-first)})
		}
	}
	for li, l := range launches {
		first := l.first
		if err := c.Ctx.Err(); err != nil {
			return nil, err
		}
		f, count := int32(first), int32(l.count)
		grid := uint32(min(p.grid, int(count)))
		if err := k.rows.LaunchOn(st, [3]uint32{grid, 1, 1}, [3]uint32{uint32(p.block), 1, 1}, uint32(p.dynShared),
			unsafe.Pointer(&nv), unsafe.Pointer(&f), unsafe.Pointer(&count), unsafe.Pointer(&offD), unsafe.Pointer(&headsD),
			unsafe.Pointer(&wD), unsafe.Pointer(&scratchD), unsafe.Pointer(&inf), unsafe.Pointer(&reachD),
			unsafe.Pointer(&maxD), unsafe.Pointer(&sumD), unsafe.Pointer(&harmD), unsafe.Pointer(&distD)); err != nil {
			return nil, err
		}
		tm.Launches++
		if dist != nil {
			bytes := 4 * uint64(count) * uint64(n)
			if err := st.CopyToHostAsync(out, distD, bytes); err != nil {
				return nil, err
			}
		}
		if dist != nil || li+1 < len(launches) {
			if err := st.Synchronize(); err != nil {
				return nil, err
			}
			tm.Syncs++
		}
		if dist != nil {
			copy(dist[first*n:(first+int(count))*n], unsafe.Slice((*uint32)(out), int(count)*n))
		}
	}
	if err := ev[2].RecordOn(st); err != nil {
		return nil, err
	}
	if dist == nil {
		if err := st.CopyToHostAsync(out, sumsD, p.sumBytes); err != nil {
			return nil, err
		}
	}
	if err := ev[3].RecordOn(st); err != nil {
		return nil, err
	}
	if err := st.Synchronize(); err != nil {
		return nil, err
	}
	var errs [4]error
	tm.Upload, errs[0] = ev[1].Elapsed(ev[0])
	tm.Search, errs[1] = ev[2].Elapsed(ev[1])
	tm.Download, errs[2] = ev[3].Elapsed(ev[2])
	tm.Total, errs[3] = ev[3].Elapsed(ev[0])
	return out, errors.Join(errs[:]...)
}

// ssspSummaries turns the device's page-locked summaries into rows.
func ssspSummaries(out unsafe.Pointer, n int, float bool) []reduce.Row {
	return ssspRowsOf(ssspArrays(out, n, float))
}

// ssspSums is the summaries a source: reach, the maxima's lane bits, the
// sums, integer (sumI) or float (sumF), and Σ 1/d.
type ssspSums struct {
	reach []int32
	maxv  []uint32
	sumI  []uint64
	sumF  []float64
	harm  []float64
}

// ssspArrays views runSSSP's page-locked summaries.
func ssspArrays(out unsafe.Pointer, n int, float bool) ssspSums {
	t := ssspSums{
		reach: unsafe.Slice((*int32)(out), n),
		maxv:  unsafe.Slice((*uint32)(unsafe.Add(out, 4*n)), n),
		harm:  unsafe.Slice((*float64)(unsafe.Add(out, 16*n)), n),
	}
	if float {
		t.sumF = unsafe.Slice((*float64)(unsafe.Add(out, 8*n)), n)
	} else {
		t.sumI = unsafe.Slice((*uint64)(unsafe.Add(out, 8*n)), n)
	}
	return t
}

// ssspRowsOf turns summaries into rows: float32 maxima and float64 sums
// when sumF is given, else integers.
func ssspRowsOf(t ssspSums) []reduce.Row {
	n := len(t.reach)
	rows := reduce.NewRows(n) // every row set below
	for u := range rows {
		r := reduce.Row{Reach: int64(t.reach[u]), Harm: t.harm[u], Unreach: int(t.reach[u]) < n-1}
		if t.sumF != nil {
			r.MaxF = float64(math.Float32frombits(t.maxv[u]))
			r.SumF = t.sumF[u]
		} else {
			r.MaxI = int64(t.maxv[u])
			r.Sum.Add(int64(t.sumI[u]))
		}
		rows[u] = r
	}
	return rows
}

// HostBytes bounds the page-locked host memory Rows (dense false) or
// Matrix (dense true) takes for n vertices and arcs arcs: the arcs,
// then the summaries or a launch's rows (256 MiB, or 4096 rows when those
// are more: no GPU runs more sources at once).
func HostBytes(n, arcs int, dense bool) uint64 {
	nn := uint64(n)
	csr := (8*(nn+1) + 8*uint64(arcs) + 15) &^ 15
	out := 24 * nn
	if dense {
		out = max(out, min(nn, max(4096, (256<<20)/max(1, 4*nn)))*4*nn)
	}
	return csr + out
}

// ssspTotals merges the partial summaries of gpu-sssp workers: each GPU
// zeroes its summaries, then writes those of its own sources, so reach,
// sums and Σ 1/d add (a source's from one GPU, zeros from the others: the
// float sums bit for bit) and the maximum takes the largest (lane bits of
// non-negative values order as the values).
type ssspTotals struct {
	mu sync.Mutex
	ssspSums
}

// add merges p, one worker's summaries.
func (t *ssspTotals) add(p ssspSums) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p.reach)
	if t.reach == nil {
		t.reach, t.maxv, t.harm = make([]int32, n), make([]uint32, n), make([]float64, n)
		if p.sumF != nil {
			t.sumF = make([]float64, n)
		} else {
			t.sumI = make([]uint64, n)
		}
	}
	gpu.Parallel(n, 1<<14, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			t.reach[u] += p.reach[u]
			t.maxv[u] = max(t.maxv[u], p.maxv[u])
			t.harm[u] += p.harm[u]
			if p.sumF != nil {
				t.sumF[u] += p.sumF[u]
			} else {
				t.sumI[u] += p.sumI[u]
			}
		}
	})
}
