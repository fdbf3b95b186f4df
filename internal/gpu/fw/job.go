package fw

import (
	"context"
	"math"
	goruntime "runtime"
	"sync"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// Job is one all-pairs computation of a graph; where it runs is the
// placement given with it.
type Job struct {
	Graph  *graph.Graph
	Kernel gpu.Kernel
	// MaxReal bounds the real distances of an integer graph (the lane
	// plan's bound, below gpu.InfInt32); larger values are infinity.
	MaxReal int32
	// Lanes is lanes.Int16 or lanes.Int8 for packed lanes (the lane plan
	// must hold the kind: non-negative lengths with MaxReal below its
	// infinity), anything else for int32 (float32 for float graphs).
	Lanes lanes.Kind
}

// Stride is the matrix stride the GPU uses for n vertices: n rounded up to
// the default tile.
func Stride(n int, k gpu.Kernel) int {
	c := gpu.DefaultConfig(k, n, false)
	return (n + c.Tile - 1) / c.Tile * c.Tile
}

func (j Job) problem() Problem {
	n := j.Graph.N()
	kind := j.Lanes
	if j.Graph.Kind() == graph.FloatWeights {
		kind = lanes.Float32
	}
	c := gpu.ConfigFor(j.Kernel, n, kind)
	maxReal := j.MaxReal
	if maxReal <= 0 || maxReal >= c.Inf() {
		maxReal = c.Inf() - 1
	}
	return Problem{N: n, Stride: Stride(n, j.Kernel), Config: c, MaxReal: maxReal}
}

// RowsResult is the per-source summaries of a job.
type RowsResult struct {
	Rows      []reduce.Row
	Device    string // the GPU's name
	NegVertex int    // a vertex whose distance to itself is negative, or -1
	Timing    Timing
}

// Rows computes j at place and reduces every source's distances on the
// device: the matrix is built on the device from the graph's arcs and
// never crosses the bus; only the summaries do.
//
// On several GPUs of this process (OnGPUs, distinct ordinals, or OnAll)
// one matrix is split into strips of rows over them (multifw.go); one GPU
// listed runs as OnGPU. Over MPI ranks (OverRanks) every rank calls Rows
// with the same job (the graph is checked), holds only its strips of the
// matrix, and gets every source's summaries, the same on every rank
// (ranks.go): a failure that a rank finds before the ranks start to wait
// for each other (no NCCL, no GPU, a graph that differs, too little
// memory) is an error on every rank, wrapping comm.ErrRankFailed; a later
// one aborts world. Either way the summaries are one GPU's, bit for bit
// for integer lanes.
func Rows(ctx context.Context, place gpu.Placement, j Job) (*RowsResult, error) {
	if world, ordinal, ok := place.Ranks(); ok {
		return rowsOverRanks(ctx, world, ordinal, j, ranksOpts{})
	}
	ordinals, err := place.GPUs()
	if err != nil {
		return nil, err
	}
	if len(ordinals) == 1 {
		return rows(ctx, ordinals[0], j)
	}
	return rowsOn(ctx, ordinals, j, 0)
}

// rows is Rows on GPU ordinal.
func rows(ctx context.Context, ordinal int, j Job) (*RowsResult, error) {
	p := j.problem()
	res := &Result{NegVertex: -1}
	d, err := gpu.Do(ctx, ordinal, func(c *gpurt.Call) error { return run(c, p, source{graph: j.Graph}, sink{}, res) })
	if err != nil {
		return nil, err
	}
	return rowsResultOf(res, p, d.Info.Name), nil
}

// rowsResultOf turns a run's row summaries into RowsResult's rows.
func rowsResultOf(res *Result, p Problem, device string) *RowsResult {
	out := &RowsResult{Rows: make([]reduce.Row, p.N), Device: device, NegVertex: res.NegVertex, Timing: res.Timing}
	for u := range out.Rows {
		r := reduce.Row{Reach: int64(res.Reach[u]), Unreach: int(res.Reach[u]) < p.N-1}
		if p.Config.Float {
			r.MaxF = float64(math.Float32frombits(res.Max[u]))
			r.SumF = res.Sum[u]
		} else {
			r.MaxI = int64(int32(res.Max[u]))
			r.Sum.Add(int64(res.Sum[u])) // exact: below 2^53 for int32 lanes
		}
		out.Rows[u] = r
	}
	return out
}

// MatrixResult is the distance matrix of a job: N vertices in rows of
// Stride lanes; exactly one of Int (gpu.InfInt32 for no path), Int16
// (lanes.Inf16), Int8 (lanes.Inf8) and Float (+Inf) is set.
type MatrixResult struct {
	N, Stride int
	Int       []int32
	Int16     []int16
	Int8      []int8
	Float     []float32
	Device    string
	NegVertex int // a vertex whose distance to itself is negative, or -1
	Timing    Timing
}

// Matrix computes j at place and copies the matrix back through a pooled
// page-locked buffer into Go memory (int32, or float64 for float graphs).
// On several GPUs of this process the strips of rows of each GPU are
// copied into the one matrix (see Rows); MPI ranks are refused
// (gpu.ErrPlacement): each rank holds only its strips.
func Matrix(ctx context.Context, place gpu.Placement, j Job) (*MatrixResult, error) {
	if _, _, ok := place.Ranks(); ok {
		return nil, gpu.Refuse(j.Kernel.String(), "the matrix", place)
	}
	ordinals, err := place.GPUs()
	if err != nil {
		return nil, err
	}
	if len(ordinals) == 1 {
		return matrix(ctx, ordinals[0], j)
	}
	return matrixOn(ctx, ordinals, j, 0)
}

// matrix is Matrix on GPU ordinal.
func matrix(ctx context.Context, ordinal int, j Job) (*MatrixResult, error) {
	p := j.problem()
	out := newMatrixResult(p)
	res := &Result{NegVertex: -1}
	sk := sink{matrix: func(host []uint32) error {
		convert(host, out, p.MaxReal)
		return nil
	}}
	d, err := gpu.Do(ctx, ordinal, func(c *gpurt.Call) error { return run(c, p, source{graph: j.Graph}, sk, res) })
	if err != nil {
		return nil, err
	}
	out.Device, out.Timing = d.Info.Name, res.Timing
	for v := 0; v < p.N; v++ {
		i := v*p.Stride + v
		if (out.Int != nil && out.Int[i] < 0) || (out.Float != nil && out.Float[i] < 0) ||
			(out.Int16 != nil && out.Int16[i] < 0) || (out.Int8 != nil && out.Int8[i] < 0) {
			out.NegVertex = v
			break
		}
	}
	return out, nil
}

// convert copies the lanes into out in parallel: int32 values above maxReal
// (infinity plus a negative length) become gpu.InfInt32. Packed lanes are
// copied as they are: their lengths are never negative, so no value lies
// between maxReal and the kind's infinity.
func convert(host []uint32, out *MatrixResult, maxReal int32) {
	switch {
	case out.Int16 != nil:
		copy(out.Int16, unsafe.Slice((*int16)(unsafe.Pointer(&host[0])), len(out.Int16)))
		return
	case out.Int8 != nil:
		copy(out.Int8, unsafe.Slice((*int8)(unsafe.Pointer(&host[0])), len(out.Int8)))
		return
	}
	workers := min(goruntime.GOMAXPROCS(0), max(1, len(host)>>20))
	chunk := (len(host) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(host); lo += chunk {
		hi := min(lo+chunk, len(host))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out.Float != nil {
				for i, b := range host[lo:hi] {
					out.Float[lo+i] = math.Float32frombits(b)
				}
				return
			}
			dst := out.Int[lo:hi]
			for i, b := range host[lo:hi] {
				x := int32(b)
				if x > maxReal {
					x = gpu.InfInt32
				}
				dst[i] = x
			}
		}()
	}
	wg.Wait()
}
