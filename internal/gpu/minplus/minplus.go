package minplus

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/reduce"
)

// minplusTile is minplus.cu's MP_TILE: the stride is a multiple of it.
const minplusTile = 64

// Timing is what a gpu-minplus run measured (CUDA events, ms).
type Timing struct {
	Build    float64 // the arcs' copy and the initial matrix
	Square   float64 // every squaring, the reads of the changed flag included
	Out      float64 // the reduction and its copy, or the matrix's copy
	Total    float64
	Wall     time.Duration
	Products int // squarings run (the last changed nothing, unless the bound stopped them)
	Compiled bool
}

// Result is gpu-minplus's answer: summaries (Rows) or the matrix
// (Int with gpu.InfInt32, or Float with +Inf, n×n row-major).
type Result struct {
	N      int
	Rows   []reduce.Row
	Int    []int32
	Float  []float32
	Device string
	Timing Timing
}

type minplusKernels struct {
	init, square, reduce *cuda.Function
	compiled, used       bool
}

type minplusKey struct{ float bool }

func minplusModule(call *gpurt.Call, float bool) (*minplusKernels, error) {
	return gpurt.Cached(call, minplusKey{float}, func() (*minplusKernels, error) {
		var opts []string
		if float {
			opts = append(opts, "-DLANE_FLOAT")
		}
		k := &minplusKernels{}
		var err error
		if k.compiled, err = gpu.LoadKernels(call, "minplus.cu", opts,
			gpu.Entry{Fn: &k.init, Name: "minplus_init"}, gpu.Entry{Fn: &k.square, Name: "minplus_square"}, gpu.Entry{Fn: &k.reduce, Name: "minplus_reduce"}); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// Products is the most squarings gpu-minplus runs for n vertices:
// after k of them the matrix holds every shortest path of at most 2^k arcs,
// and a shortest path has at most n−1; one more confirms nothing changes.
func Products(n int) int {
	k := 0
	for 1<<k < n-1 {
		k++
	}
	return k + 1
}

// Rows runs gpu-minplus on the one GPU of place (OnGPU, or OnGPUs of one;
// others are refused with gpu.ErrPlacement): the distance matrix of g
// (arcs of length at least 0) by repeated min-plus squaring, D ← D ⊗ D
// until a product changes nothing (at most Products(n)), in int32 lanes
// (the caller's lane plan must hold them) or float32 (float). It is an
// independent check of the Floyd–Warshall engines: every product is n³
// relaxations, so it does log₂ n times their work. Only the rows'
// summaries come back (Result.Rows).
func Rows(ctx context.Context, place gpu.Placement, g *graph.Graph, float bool) (*Result, error) {
	ordinal, ok := place.One()
	if !ok {
		return nil, gpu.Refuse("gpu-minplus", "the rows", place)
	}
	return minPlus(ctx, ordinal, g, float, false)
}

// Matrix is Rows with the distance matrix copied back instead of the
// summaries (Result.Int or Result.Float).
func Matrix(ctx context.Context, place gpu.Placement, g *graph.Graph, float bool) (*Result, error) {
	ordinal, ok := place.One()
	if !ok {
		return nil, gpu.Refuse("gpu-minplus", "the matrix", place)
	}
	return minPlus(ctx, ordinal, g, float, true)
}

// minPlus runs gpu-minplus on GPU ordinal, the matrix coming back with
// dense, else the rows' summaries.
func minPlus(ctx context.Context, ordinal int, g *graph.Graph, float, dense bool) (*Result, error) {
	if err := gpu.CheckArcs(g, float); err != nil {
		return nil, fmt.Errorf("gpu-minplus: %w", err)
	}
	n := g.N()
	res := &Result{N: n, Rows: []reduce.Row{}}
	if n == 0 {
		return res, nil
	}
	d, err := gpu.Do(ctx, ordinal, func(c *gpurt.Call) error { return runMinPlus(c, g, float, dense, res) })
	if err != nil {
		return nil, err
	}
	res.Device = d.Info.Name
	d.AddTiming(res.Timing.Square, res.Timing.Total)
	return res, nil
}

func runMinPlus(c *gpurt.Call, g *graph.Graph, float, dense bool, res *Result) error {
	wall := time.Now()
	tm := &res.Timing
	defer func() { tm.Wall = time.Since(wall) }()
	n, m := g.N(), g.Arcs()
	stride := (n + minplusTile - 1) / minplusTile * minplusTile
	cells := uint64(stride) * uint64(stride)
	csrBytes := (8*uint64(n+1) + 8*uint64(m) + 15) &^ 15
	free, _, err := c.Dev().MemInfo()
	if err != nil {
		return err
	}
	if need := 4*cells + csrBytes + 16*uint64(n) + 64<<20; need > free {
		return fmt.Errorf("%w: gpu-minplus needs %.2f GiB for %d vertices; the GPU has %.2f GiB free",
			gpu.ErrDoesNotFit, float64(need)/(1<<30), n, float64(free)/(1<<30))
	}
	k, err := minplusModule(c, float)
	if err != nil {
		return err
	}
	if !k.used {
		tm.Compiled, k.used = k.compiled, true
	}
	outBytes := 16*uint64(n) + 16
	if dense {
		outBytes = 4 * cells
	}
	host, err := c.Host(max(csrBytes, outBytes))
	if err != nil {
		return err
	}
	gpu.FillArcs(g, host, float)
	csrD, err := c.Mem(csrBytes)
	if err != nil {
		return err
	}
	dD, err := c.Mem(4 * cells)
	if err != nil {
		return err
	}
	auxD, err := c.Mem(16*uint64(n) + 16) // reach, max, sums; the changed flag
	if err != nil {
		return err
	}
	st := c.Stream()
	ev := [4]*cuda.Event{c.Event(0), c.Event(1), c.Event(2), c.Event(3)}
	if err := ev[0].RecordOn(st); err != nil {
		return err
	}
	if err := st.CopyToDeviceAsync(csrD, host, csrBytes); err != nil {
		return err
	}
	offD, headsD, wD := csrD, csrD+8*uint64(n+1), csrD+8*uint64(n+1)+4*uint64(m)
	inf, maxReal := uint32(gpu.InfInt32), uint32(gpu.InfInt32-1)
	if float {
		inf, maxReal = math.Float32bits(float32(math.Inf(1))), math.Float32bits(math.MaxFloat32)
	}
	sv, nv := int32(stride), int32(n)
	if err := k.init.LaunchOn(st, [3]uint32{uint32(stride), 1, 1}, [3]uint32{256, 1, 1}, 0, unsafe.Pointer(&dD),
		unsafe.Pointer(&sv), unsafe.Pointer(&nv), unsafe.Pointer(&offD), unsafe.Pointer(&headsD), unsafe.Pointer(&wD),
		unsafe.Pointer(&inf)); err != nil {
		return err
	}
	if err := ev[1].RecordOn(st); err != nil {
		return err
	}
	changedD := auxD + 16*uint64(n)
	changedH := (*int32)(host) // the arcs are on the device already
	tiles := uint32(stride / minplusTile)
	for range Products(n) {
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		if err := st.Memset32Async(changedD, 0, 1); err != nil {
			return err
		}
		if err := k.square.LaunchOn(st, [3]uint32{tiles, tiles, 1}, [3]uint32{256, 1, 1}, 0, unsafe.Pointer(&dD),
			unsafe.Pointer(&sv), unsafe.Pointer(&changedD)); err != nil {
			return err
		}
		tm.Products++
		if err := st.CopyToHostAsync(unsafe.Pointer(changedH), changedD, 4); err != nil {
			return err
		}
		if err := st.Synchronize(); err != nil {
			return err
		}
		if *changedH == 0 {
			break
		}
	}
	if err := ev[2].RecordOn(st); err != nil {
		return err
	}
	if dense {
		if err := st.CopyToHostAsync(host, dD, 4*cells); err != nil {
			return err
		}
	} else {
		reachD, maxD, sumD := auxD, auxD+4*uint64(n), auxD+8*uint64(n)
		if err := k.reduce.LaunchOn(st, [3]uint32{uint32(n), 1, 1}, [3]uint32{256, 1, 1}, 0, unsafe.Pointer(&dD),
			unsafe.Pointer(&sv), unsafe.Pointer(&nv), unsafe.Pointer(&maxReal), unsafe.Pointer(&reachD),
			unsafe.Pointer(&maxD), unsafe.Pointer(&sumD)); err != nil {
			return err
		}
		if err := st.CopyToHostAsync(host, auxD, 16*uint64(n)); err != nil {
			return err
		}
	}
	if err := ev[3].RecordOn(st); err != nil {
		return err
	}
	if err := st.Synchronize(); err != nil {
		return err
	}
	var errs [4]error
	tm.Build, errs[0] = ev[1].Elapsed(ev[0])
	tm.Square, errs[1] = ev[2].Elapsed(ev[1])
	tm.Out, errs[2] = ev[3].Elapsed(ev[2])
	tm.Total, errs[3] = ev[3].Elapsed(ev[0])
	if err := errors.Join(errs[:]...); err != nil {
		return err
	}
	if !dense {
		res.Rows = minplusSummaries(host, n, float)
		return nil
	}
	lanes := unsafe.Slice((*uint32)(host), cells)
	if float {
		res.Float = make([]float32, n*n)
	} else {
		res.Int = make([]int32, n*n)
	}
	gpu.Parallel(n, 256, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			row := lanes[u*stride : u*stride+n]
			if float {
				copy(unsafe.Slice((*uint32)(unsafe.Pointer(&res.Float[u*n])), n), row)
			} else {
				copy(unsafe.Slice((*uint32)(unsafe.Pointer(&res.Int[u*n])), n), row)
			}
		}
	})
	return nil
}

// minplusSummaries reads minplus_reduce's output: reach int32[n], max lanes
// [n], sums float64[n] (exact for int32 lanes: below 2^53).
func minplusSummaries(out unsafe.Pointer, n int, float bool) []reduce.Row {
	reach := unsafe.Slice((*int32)(out), n)
	maxv := unsafe.Slice((*uint32)(unsafe.Add(out, 4*n)), n)
	sums := unsafe.Slice((*float64)(unsafe.Add(out, 8*n)), n)
	rows := make([]reduce.Row, n)
	for u := range rows {
		r := reduce.Row{Reach: int64(reach[u]), Unreach: int(reach[u]) < n-1}
		if float {
			r.MaxF = float64(math.Float32frombits(maxv[u]))
			r.SumF = sums[u]
		} else {
			r.MaxI = int64(int32(maxv[u]))
			r.Sum.Add(int64(sums[u]))
		}
		rows[u] = r
	}
	return rows
}

// HostBytes bounds the page-locked host memory Rows (dense false) or
// Matrix (dense true) takes: the arcs, or the padded matrix when it comes
// back.
func HostBytes(n, arcs int, dense bool) uint64 {
	csr := (8*uint64(n+1) + 8*uint64(arcs) + 15) &^ 15
	if !dense {
		return max(csr, 16*uint64(n)+16)
	}
	stride := uint64((n + minplusTile - 1) / minplusTile * minplusTile)
	return max(csr, 4*stride*stride)
}
