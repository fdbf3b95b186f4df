package engine

import (
	"context"
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
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
// It splits its sources over several GPUs, and searches chosen sources
// (SourceSearcher: RowsFrom, DistancesFrom).
func (gpuSSSPEngine) Caps() Caps {
	return Caps{Device: GPU, Weights: AnyWeights, Rows: true, Harmonic: true, Auto: true, MultiGPU: true, Sources: true, Lanes: []lanes.Kind{lanes.Int32, lanes.Float32}}
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
// (sssp.Rows, sssp.Matrix); the result is one GPU's, bit for bit. The
// rows' Σ 1/d (Caps.Harmonic) is summed on the device.
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

// RowsFrom summarises the chosen sources (Harm included, summed here).
func (gpuSSSPEngine) RowsFrom(ctx context.Context, p *Problem, sources []int32) ([]reduce.Row, error) {
	d, err := searchSources(ctx, p, sources)
	if err != nil {
		return nil, err
	}
	rows := make([]reduce.Row, len(sources))
	for i, s := range sources {
		r := &rows[i]
		for v := range d.n {
			if v == int(s) {
				continue
			}
			switch x, f, ok := d.at(i, v); {
			case !ok:
				r.Unreach = true
			case d.floats != nil:
				r.AddFloat(f)
			default:
				r.AddInt(x)
			}
		}
	}
	return rows, nil
}

// WorkBytesFrom is the host side of a search from k sources: the graph
// renumbered, the page-locked arcs and rows of distances, the k rows of
// the matrix, and the result.
func (gpuSSSPEngine) WorkBytesFrom(p *Problem, k int, matrix bool) uint64 {
	n, arcs := uint64(p.Graph.N()), uint64(p.Graph.Arcs())
	copyBytes := (n+1)*8 + arcs*(graph.HeadBytes+graph.WeightBytes) + n*4
	return copyBytes + sssp.HostBytes(p.Graph.N(), p.Graph.Arcs(), true) + uint64(k)*n*4 + resultBytes(p, k, matrix)
}

// DistancesFrom gives the distances from the chosen sources.
func (gpuSSSPEngine) DistancesFrom(ctx context.Context, p *Problem, sources []int32, unreachable int64) ([]int64, []float64, error) {
	d, err := searchSources(ctx, p, sources)
	if err != nil {
		return nil, nil, err
	}
	k, n := len(sources), d.n
	if d.floats != nil {
		out := make([]float64, k*n)
		for i := range k {
			for v := range n {
				_, f, ok := d.at(i, v)
				if !ok {
					f = math.Inf(1)
				}
				out[i*n+v] = f
			}
		}
		return nil, out, nil
	}
	out := make([]int64, k*n)
	for i := range k {
		for v := range n {
			x, _, ok := d.at(i, v)
			if !ok {
				x = unreachable
			}
			out[i*n+v] = x
		}
	}
	return out, nil, nil
}

// sourceRows are the GPU's rows of chosen sources, in the numbering of a
// renumbered graph: source i's distance to vertex v is at row pos[i],
// column newID[v].
type sourceRows struct {
	n      int
	pos    []int
	newID  []int32
	ints   []int32
	floats []float32
}

// at is source i's distance to v, and whether there is a path.
func (d *sourceRows) at(i, v int) (int64, float64, bool) {
	j := d.pos[i]*d.n + int(d.newID[v])
	if d.floats != nil {
		f := float64(d.floats[j])
		return 0, f, !math.IsInf(f, 1)
	}
	x := d.ints[j]
	return int64(x), 0, x != lanes.InfOf[int32]()
}

// searchSources searches the chosen sources on the GPU, whose searches
// take a range of sources: the graph is copied with the distinct sources
// numbered first (graph.Graph.Renumber: a copy, each vertex's arcs sorted
// again) and the first rows of its matrix computed (sssp.MatrixRows), k·n
// distances for k distinct sources.
func searchSources(ctx context.Context, p *Problem, sources []int32) (*sourceRows, error) {
	g := p.Graph
	n := g.N()
	if len(sources) == 0 {
		return &sourceRows{n: n}, nil
	}
	newID := make([]int32, n)
	for v := range newID {
		newID[v] = -1
	}
	d := &sourceRows{n: n, pos: make([]int, len(sources)), newID: newID}
	k := 0
	for i, s := range sources {
		if s < 0 || int(s) >= n {
			return nil, fmt.Errorf("source %d: not a vertex (0..%d)", s, n-1)
		}
		if newID[s] < 0 {
			newID[s] = int32(k)
			k++
		}
		d.pos[i] = int(newID[s])
	}
	next := int32(k)
	for v := range newID {
		if newID[v] < 0 {
			newID[v] = next
			next++
		}
	}
	h, err := g.Renumber(newID)
	if err != nil {
		return nil, err
	}
	ords, err := GPUsOf(p)
	if err != nil {
		return nil, err
	}
	m, err := sssp.MatrixRows(ctx, gpu.OnGPUs(ords), h, p.Lanes.IsFloat(), k)
	if err != nil {
		return nil, err
	}
	d.ints, d.floats = m.Int, m.Float
	return d, nil
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
