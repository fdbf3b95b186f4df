package fw

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// kernels is fw.cu loaded for one Config: it stays loaded for the life of
// the runtime (gpurt.Cached), so a call looks it up by the Config itself.
type kernels struct {
	pivot, panel, rest, single, reduce, init *cuda.Function
	strip                                    *cuda.Function // the out-of-core product (outofcore.go)
	shared                                   int            // dynamic shared bytes per block
	product                                  int            // the part the min-plus product needs
	compiled                                 bool           // NVRTC ran (the cubin was not cached on disk)
	used                                     bool           // a call has reported compiled already
}

// moduleKey keys the loaded modules among the device's cached values: the
// Config less its Kernel, since one module holds both forms.
type moduleKey struct{ c gpu.Config }

// module returns the kernels for c, compiling (or taking the cubin from the
// disk cache) and loading them the first time on the device.
func module(call *gpurt.Call, c gpu.Config) (*kernels, error) {
	key := c
	key.Kernel, key.Coarse = 0, 0 // the same kernels serve both
	return gpurt.Cached(call, moduleKey{key}, func() (*kernels, error) {
		dev := call.Dev()
		opts := []string{fmt.Sprintf("-DTILE=%d", c.Tile), fmt.Sprintf("-DTDIM=%d", c.TDim), fmt.Sprintf("-DTROWS=%d", c.Rows()),
			"-DBK=32", fmt.Sprintf("-DMINB=%d", max(c.MinBlocks, 1))}
		switch {
		case c.Float:
			opts = append(opts, "-DLANE_FLOAT")
		case c.Pack() == 2:
			opts = append(opts, "-DLANE_I16")
		case c.Pack() == 4:
			opts = append(opts, "-DLANE_I8")
		}
		k := &kernels{}
		var err error
		if k.compiled, err = gpu.LoadKernels(call, "fw.cu", opts,
			gpu.Entry{Fn: &k.pivot, Name: "fw_pivot"}, gpu.Entry{Fn: &k.panel, Name: "fw_panel"}, gpu.Entry{Fn: &k.rest, Name: "fw_rest"},
			gpu.Entry{Fn: &k.single, Name: "fw_single"}, gpu.Entry{Fn: &k.reduce, Name: "fw_reduce"}, gpu.Entry{Fn: &k.init, Name: "fw_init"},
			gpu.Entry{Fn: &k.strip, Name: "fw_strip"}); err != nil {
			return nil, err
		}
		// In-place tiles keep the pivot tile in shared memory; the product
		// stages two k-slices.
		inplace := (c.Tile*c.Tile/c.Pack() + 4*c.Tile) * 4
		k.product = gpu.ProductShared(c.Tile, c.Pack())
		k.shared = max(inplace, k.product)
		if k.shared > dev.Info.MaxShared {
			return nil, fmt.Errorf("tile %d needs %d bytes of shared memory per block; this GPU allows %d", c.Tile, k.shared, dev.Info.MaxShared)
		}
		for _, f := range []*cuda.Function{k.pivot, k.panel, k.rest, k.single, k.strip} {
			if err := f.SetMaxDynamicShared(k.shared); err != nil {
				return nil, err
			}
		}
		return k, nil
	})
}

// source is where the initial matrix comes from: a graph, built on the
// device from its arcs, or a function that fills a host buffer.
type source struct {
	graph *graph.Graph
	host  func(host []uint32)
}

// sink is what happens to the result: the matrix handed to a function
// while it lies in a page-locked buffer (valid only during the call), or,
// when matrix is nil, the rows reduced on the device into res.
type sink struct {
	matrix func(host []uint32) error
}

// run computes one problem on the device's owner goroutine: every copy and
// launch is queued on the device's stream, with one synchronisation at the
// end, and all memory comes from the device's pools.
func run(call *gpurt.Call, p Problem, src source, out sink, res *Result) error {
	if err := p.Config.Check(); err != nil {
		return err
	}
	if p.Stride%p.Config.Tile != 0 || p.Stride < p.N {
		return fmt.Errorf("stride %d is not a multiple of the tile %d at least n = %d", p.Stride, p.Config.Tile, p.N)
	}
	k, err := module(call, p.Config)
	if err != nil {
		return err
	}
	if !k.used {
		res.Timing.Compiled, k.used = k.compiled, true
	}
	dev, st := call.Dev(), call.Stream()
	bytes := uint64(p.Stride) * uint64(p.Stride) * uint64(p.Config.LaneBytes())
	words := bytes / 4
	limit, err := memoryLimit()
	if err != nil {
		return err
	}
	if limit > 0 && gpurt.Class(bytes)+oocMargin > limit {
		// The cap, but never more than the GPU has free (it may be shared).
		free, _, err := dev.MemInfo()
		if err != nil {
			return err
		}
		budget := min(limit, free)
		return runOutOfCore(call, k, p, src, out, res, budget-min(budget, oocMargin))
	}
	if !call.Has(bytes) {
		free, total, err := dev.MemInfo()
		if err != nil {
			return err
		}
		// Idle pooled buffers are not free to the driver: count them, as
		// the pool gives them up when an allocation fails.
		idle, _ := call.PoolStats()
		free += idle.IdleBytes
		if gpurt.Class(bytes)+oocMargin > free {
			if free < 2*oocMargin {
				return fmt.Errorf("%w: %d×%d lanes need %.2f GiB; the GPU has %.2f GiB free of %.2f GiB",
					gpu.ErrDoesNotFit, p.Stride, p.Stride, float64(bytes)/(1<<30), float64(free)/(1<<30), float64(total)/(1<<30))
			}
			return runOutOfCore(call, k, p, src, out, res, free-oocMargin)
		}
	}
	d, err := call.Mem(bytes)
	if err != nil {
		return err
	}
	ev := [4]*cuda.Event{call.Event(0), call.Event(1), call.Event(2), call.Event(3)}
	if err := ev[0].RecordOn(st); err != nil {
		return err
	}
	var host unsafe.Pointer // the page-locked matrix, when one is used
	if g := src.graph; g != nil && src.host == nil && csrBytes(g) <= bytes {
		if err := initOnDevice(call, k, p, g, d); err != nil {
			return err
		}
	} else {
		fill := src.host
		if fill == nil {
			fill = InitLanes(g, p.Stride, p.Config)
		}
		if host, err = call.Host(bytes); err != nil {
			return err
		}
		fill(unsafe.Slice((*uint32)(host), words))
		if err := st.CopyToDeviceAsync(d, host, bytes); err != nil {
			return err
		}
	}
	if err := ev[1].RecordOn(st); err != nil {
		return err
	}
	if err := fw(call, k, p, d); err != nil {
		return err
	}
	if err := ev[2].RecordOn(st); err != nil {
		return err
	}
	var rows unsafe.Pointer // the page-locked row summaries
	if out.matrix != nil {
		if host == nil {
			if host, err = call.Host(bytes); err != nil {
				return err
			}
		}
		if err := st.CopyToHostAsync(host, d, bytes); err != nil {
			return err
		}
	} else if rows, err = reduceRows(call, k, p, d); err != nil {
		return err
	}
	if err := ev[3].RecordOn(st); err != nil {
		return err
	}
	if err := st.Synchronize(); err != nil {
		return err
	}
	if err := timings(ev, out.matrix != nil, &res.Timing); err != nil {
		return err
	}
	call.Device().AddTiming(res.Timing.Kernel, res.Timing.Total)
	if out.matrix != nil {
		return out.matrix(unsafe.Slice((*uint32)(host), words))
	}
	readSummaries(rows, p.N, res)
	return nil
}

// oocMargin is device memory left free beside a run's buffers (modules,
// the summaries, the driver's own).
const oocMargin = 64 << 20

// readSummaries copies the row summaries of fw_reduce (reach, max, sum,
// negative vertex; page-locked at rows) into res.
func readSummaries(rows unsafe.Pointer, n int, res *Result) {
	res.Reach = append([]int32(nil), unsafe.Slice((*int32)(rows), n)...)
	res.Max = append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Add(rows, 4*n)), n)...)
	res.Sum = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Add(rows, 8*n)), n)...)
	if neg := *(*int32)(unsafe.Add(rows, 16*n)); neg != math.MaxInt32 {
		res.NegVertex = int(neg)
	}
}

// timings reads the four events of a run (synchronised already).
func timings(ev [4]*cuda.Event, matrix bool, t *Timing) error {
	var err [4]error
	var back float64
	t.ToDevice, err[0] = ev[1].Elapsed(ev[0])
	t.Kernel, err[1] = ev[2].Elapsed(ev[1])
	back, err[2] = ev[3].Elapsed(ev[2])
	t.Total, err[3] = ev[3].Elapsed(ev[0])
	if matrix {
		t.ToHost = back
	} else {
		t.Reduce = back
	}
	return errors.Join(err[:]...)
}

// csrBytes is the size of g's arcs as uploaded for fw_init: 64-bit offsets,
// 32-bit heads and, when weighted, 32-bit weights.
func csrBytes(g *graph.Graph) uint64 {
	b := 8*uint64(g.N()+1) + 4*uint64(g.Arcs())
	if g.Weighted() {
		b += 4 * uint64(g.Arcs())
	}
	return b
}

// initOnDevice uploads g's arcs (a few bytes an arc instead of four a
// matrix cell) through a page-locked buffer and builds the initial matrix
// with fw_init.
func initOnDevice(call *gpurt.Call, k *kernels, p Problem, g *graph.Graph, d uint64) error {
	arcs, err := uploadArcs(call, p, g)
	if err != nil {
		return err
	}
	return arcs.initRows(call.Stream(), k, p, d, 0, p.Stride)
}

// deviceArcs is a graph's arcs on the device, as fw_init reads them.
type deviceArcs struct {
	offsets, heads, weights uint64 // weights 0 when unweighted
	inf                     uint32
}

// uploadArcs queues the upload of g's arcs (on the call's stream) through
// a page-locked buffer; the device buffer lives until the call ends.
func uploadArcs(call *gpurt.Call, p Problem, g *graph.Graph) (deviceArcs, error) {
	n, arcs := g.N(), g.Arcs()
	size := csrBytes(g)
	host, err := call.Host(size)
	if err != nil {
		return deviceArcs{}, err
	}
	buf, err := call.Mem(size)
	if err != nil {
		return deviceArcs{}, err
	}
	headsAt := 8 * uintptr(n+1)
	weightsAt := headsAt + 4*uintptr(arcs)
	offs := unsafe.Slice((*int64)(host), n+1)
	heads := unsafe.Slice((*int32)(unsafe.Add(host, headsAt)), arcs)
	var weights []uint32
	if g.Weighted() {
		weights = unsafe.Slice((*uint32)(unsafe.Add(host, weightsAt)), arcs)
	}
	pos := 0
	for u := 0; u < n; u++ {
		offs[u] = int64(pos)
		nb := g.Neighbors(u)
		copy(heads[pos:], nb)
		switch {
		case weights == nil:
		case g.Kind() == graph.FloatWeights:
			for i, w := range g.FloatWeights(u) {
				weights[pos+i] = math.Float32bits(float32(w))
			}
		case p.Config.Pack() > 1:
			// Packed lanes: a weight above the lane's infinity is stored
			// as infinity (exact for their non-negative weights; the plan
			// bounds the distances, not the weights), never wrapped.
			inf := int64(p.Config.Inf())
			for i, w := range g.IntWeights(u) {
				weights[pos+i] = uint32(min(w, inf))
			}
		default:
			for i, w := range g.IntWeights(u) {
				weights[pos+i] = uint32(int32(w)) // int32 lanes: the lane plan bounds every weight
			}
		}
		pos += len(nb)
	}
	offs[n] = int64(pos)
	if err := call.Stream().CopyToDeviceAsync(buf, host, size); err != nil {
		return deviceArcs{}, err
	}
	a := deviceArcs{offsets: buf, heads: buf + uint64(headsAt), inf: uint32(p.Config.Inf())}
	if weights != nil {
		a.weights = buf + uint64(weightsAt)
	}
	if p.Config.Float {
		a.inf = math.Float32bits(float32(math.Inf(1)))
	}
	return a, nil
}

// initRows queues fw_init on st for the matrix rows [r0, r0+rows), which d
// holds contiguously (rows of p.Stride lanes).
func (a deviceArcs) initRows(st *cuda.Stream, k *kernels, p Problem, d uint64, r0, rows int) error {
	if rows <= 0 {
		return nil
	}
	stride, nv, first := int32(p.Stride), int32(p.N), int32(r0)
	return k.init.LaunchOn(st, [3]uint32{uint32(rows), 1, 1}, [3]uint32{256, 1, 1}, 0,
		unsafe.Pointer(&d), unsafe.Pointer(&stride), unsafe.Pointer(&nv), unsafe.Pointer(&first), unsafe.Pointer(&a.offsets),
		unsafe.Pointer(&a.heads), unsafe.Pointer(&a.weights), unsafe.Pointer(&a.inf))
}

// fw queues the kernels on matrix d.
func fw(call *gpurt.Call, k *kernels, p Problem, d uint64) error {
	dev, st := call.Dev(), call.Stream()
	c := p.Config
	n := int32(p.Stride)
	m := int32(p.Stride / c.Tile)
	block := [3]uint32{uint32(c.TDim * c.Rows()), 1, 1}
	shared := uint32(k.shared)
	if c.Kernel == gpu.Single {
		// flags holds the task counter, then the per-tile completion counts.
		flags, err := call.Mem(uint64(m*m+1) * 4)
		if err != nil {
			return err
		}
		if err := st.Memset32Async(flags, 0, uint64(m*m+1)); err != nil {
			return err
		}
		counter, done := flags, flags+4
		// A persistent grid: as many blocks as can be resident at once,
		// but no more than there are tasks in a round.
		blocks := uint32(min(dev.Info.SMs*max(c.MinBlocks, 2), int(m*m)))
		return k.single.LaunchOn(st, [3]uint32{blocks, 1, 1}, block, shared,
			unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&m), unsafe.Pointer(&counter), unsafe.Pointer(&done))
	}
	if c.Coarse > 0 && c.Coarse < p.Stride {
		return fwCoarse(call, k, p, d)
	}
	return fwBlock(call, k, c, d, int(n), int(m))
}

// fwBlock queues the multi-kernel rounds on the m×m tiles at d of a matrix
// whose rows are pitch lanes apart: the whole matrix, or an out-of-core
// pivot block.
func fwBlock(call *gpurt.Call, k *kernels, c gpu.Config, d uint64, pitch, tiles int) error {
	st := call.Stream()
	n, m := int32(pitch), int32(tiles)
	block := [3]uint32{uint32(c.TDim * c.Rows()), 1, 1}
	shared := uint32(k.shared)
	for z := int32(0); z < m; z++ {
		if z%16 == 0 {
			if err := call.Ctx.Err(); err != nil {
				return err
			}
		}
		if err := k.pivot.LaunchOn(st, [3]uint32{1, 1, 1}, block, shared, unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&z)); err != nil {
			return err
		}
		if m == 1 {
			break
		}
		if err := k.panel.LaunchOn(st, [3]uint32{uint32(2 * (m - 1)), 1, 1}, block, shared,
			unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&z), unsafe.Pointer(&m)); err != nil {
			return err
		}
		if err := k.rest.LaunchOn(st, [3]uint32{uint32(m - 1), uint32(m - 1), 1}, block, uint32(k.product),
			unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&z)); err != nil {
			return err
		}
	}
	return nil
}

// reduceRows queues the row reduction of matrix d and the copy of its
// summaries into a page-locked buffer, which it returns: reach int32[n],
// max lanes uint32[n] (int32 values for packed lanes), sums float64[n] and the negative-diagonal vertex
// (int32, MaxInt32 for none).
func reduceRows(call *gpurt.Call, k *kernels, p Problem, d uint64) (unsafe.Pointer, error) {
	st := call.Stream()
	size := uint64(p.N)*16 + 4
	buf, err := call.Mem(size)
	if err != nil {
		return nil, err
	}
	host, err := call.Host(size)
	if err != nil {
		return nil, err
	}
	nv, n, r0 := int32(p.N), int32(p.Stride), int32(0)
	reach, maxv, sum, neg := buf, buf+uint64(p.N)*4, buf+uint64(p.N)*8, buf+uint64(p.N)*16
	if err := st.Memset32Async(neg, uint32(math.MaxInt32), 1); err != nil {
		return nil, err
	}
	maxReal := uint32(p.MaxReal)
	if p.Config.Float {
		maxReal = math.Float32bits(math.MaxFloat32)
	}
	if err := k.reduce.LaunchOn(st, [3]uint32{uint32(p.N), 1, 1}, [3]uint32{256, 1, 1}, 0,
		unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&nv), unsafe.Pointer(&r0), unsafe.Pointer(&maxReal),
		unsafe.Pointer(&reach), unsafe.Pointer(&maxv), unsafe.Pointer(&sum), unsafe.Pointer(&neg)); err != nil {
		return nil, err
	}
	return host, st.CopyToHostAsync(host, buf, size)
}
