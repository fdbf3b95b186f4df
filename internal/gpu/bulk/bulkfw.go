package bulk

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// FWMaxN is the most vertices a graph of FWRows may have: its
// int32 matrix is then 1 GiB, and a chunk holds at least one.
const FWMaxN = 16384

// ErrFWGraph is wrapped by the per-graph errors of FWRows and
// FWMatrices for a graph the bulk Floyd–Warshall does not take: nil,
// float weights, more than FWMaxN vertices, or integer path lengths
// that int32 lanes cannot hold exactly (the lane plan's rule).
var ErrFWGraph = errors.New("graph not supported by the GPU bulk Floyd–Warshall")

// NegativeCycleError is the per-graph error for a graph with a negative
// cycle; Vertex lies on it.
type NegativeCycleError struct{ Vertex int }

func (e *NegativeCycleError) Error() string {
	return fmt.Sprintf("negative cycle through vertex %d", e.Vertex)
}

// FWRows computes all-pairs shortest paths of every graph of gs on the one
// GPU of place (OnGPU, or OnGPUs of one; others are refused with
// gpu.ErrPlacement) by Floyd–Warshall, many graphs a launch, and
// reduces each source's distances on the device to what the one-graph GPU
// engine's Rows gives (reduce.Row: Reach, Unreach, MaxI, Sum), so that only
// the summaries cross the bus. rows[i] has one Row per vertex of gs[i].
//
// It takes unweighted and integer-weighted graphs, directed or not, whose
// lane plan (lanes.PlanFor) fits int32 lanes, of at most FWMaxN
// vertices; negative arcs are allowed. A graph whose plan holds int16
// lanes (with lanes.Plan.Tighten's bound where MaxReal alone does not) and
// has no negative length runs in packed int16×2 lanes (two relaxations an
// instruction), as the one-graph engine would run it, but for graphs of up
// to 16 vertices (int32 ran those faster); the others in int32, the batch
// split by lane kind as it is by padded size. A graph it does not take gets
// errs[i] wrapping ErrFWGraph (float graphs among them: use the
// one-graph engine's float32 lanes), a graph with a negative cycle a
// *NegativeCycleError (found on the host by Bellman–Ford, O(n·m) at worst,
// for the graphs with negative arcs only, before any lane could overflow);
// rows[i] is nil for both, and the other graphs are computed. err is for
// what fails every graph (no GPU, a driver error, a cancelled ctx).
//
// Graphs are grouped by lanes and padded size: up to 128 vertices a graph's matrix
// lives in the registers of a part of a warp (16 and 32), two warps (64)
// or a block (128), built from the arcs and reduced in the same kernel;
// larger graphs run blocked rounds, each round's three phases launched
// once for all graphs of the group (the pivot tiles closed in registers,
// the panels as min-plus products with them, the rest by the one-graph
// engine's product). Groups are cut into chunks of bounded device memory,
// pipelined so that the host prepares one while the GPU runs another.
//
// kinds[i] is the lanes graph i was computed in (lanes.Int16 or
// lanes.Int32; 0 for a graph with an error).
func FWRows(ctx context.Context, place gpu.Placement, gs []*graph.Graph) (rows [][]reduce.Row, kinds []lanes.Kind, errs []error, err error) {
	ordinal, err := one(place, "the bulk Floyd–Warshall", "the rows")
	if err != nil {
		return nil, nil, nil, err
	}
	res, _, err := bulkFW(ctx, ordinal, gs, bulkFWConfig{})
	if err != nil {
		return nil, nil, nil, err
	}
	kinds = make([]lanes.Kind, len(gs))
	for i, p := range res.pack {
		switch {
		case res.errs[i] != nil:
		case p == 2:
			kinds[i] = lanes.Int16
		default:
			kinds[i] = lanes.Int32
		}
	}
	return res.rows, kinds, res.errs, nil
}

// FWMatrices is FWRows with the distance matrices copied back
// instead of summaries: int32 lanes with lanes.Inf32 for no path (values
// above the plan's largest real distance become Inf32; graphs computed in
// int16 lanes are widened on the host), Size = Stride ≥ N (the padding
// vertices are isolated).
func FWMatrices(ctx context.Context, place gpu.Placement, gs []*graph.Graph) (ms []*lanes.Matrix[int32], errs []error, err error) {
	ordinal, err := one(place, "the bulk Floyd–Warshall", "the matrices")
	if err != nil {
		return nil, nil, err
	}
	res, _, err := bulkFW(ctx, ordinal, gs, bulkFWConfig{Matrices: true})
	if err != nil {
		return nil, nil, err
	}
	return res.matrices, res.errs, nil
}

// fwForm is the algorithm a group of graphs runs.
type fwForm int

const (
	formAuto    fwForm = iota // registers up to 128 vertices, blocked beyond
	formSeeds                 // the seeds' 32×32 multi-kernel form (benchmark)
	formColwise               // C2CU's thread-per-graph column-wise form (benchmark)
	formSingle                // registers up to 128, the single-kernel bulk (IDs m·d+g) beyond
	formInplace               // registers up to 128, blocked beyond with fw.cu's in-place pivot and panels (benchmark)
)

// bulkFWConfig shapes a run; the zero value is FWRows's choice.
type bulkFWConfig struct {
	Form fwForm
	// LargeTile is the blocked forms' tile: 64 or 128 (0: tileFor's choice
	// by size).
	LargeTile int
	// RC16 and RC32 are the register sub-tile widths for strides 16 and 32:
	// 4 or 8 (0: the defaults below).
	RC16, RC32 int
	// ChunkBytes bounds a chunk's matrices (0: chunkBytes's choice).
	ChunkBytes uint64
	// Matrices copies the matrices back instead of reducing them.
	Matrices bool
	// Unfused builds and reduces the matrices of graphs of up to 128
	// vertices in kernels of their own, as for larger graphs, instead of
	// inside the register kernel (benchmark: the steps' time alone).
	Unfused bool
	// Lanes is 0 for the plan's choice (int16 where it holds, else int32)
	// or lanes.Int32 to run every graph in int32 (benchmark: the packed
	// lanes' gain). Only formAuto packs; the other forms run int32.
	Lanes lanes.Kind
	// PackSmall packs graphs of stride 16 too (tests, benchmark): by
	// default they stay int32, where the H100 ran them faster (131 072
	// graphs of 16 vertices: fused 0.125 ms int32, 0.141 ms int16×2).
	PackSmall bool
	// Tighten proves a tighter distance bound (for int16 lanes) wherever
	// the plain bound is too large, even where the search costs the host
	// more than the lanes save the device (tightenPays: the default):
	// tests of the packed lanes, and the benchmark's int16 forms.
	Tighten bool
}

// packs says whether a graph of n vertices may run in int16 lanes under
// c (when its plan holds them).
func (c bulkFWConfig) packs(n int) bool {
	return c.Lanes == 0 && c.Form == formAuto && (c.PackSmall || c.stride(n) > 16)
}

const (
	bulkFWRC16       = 4 // faster than 8 on an H100 (docs/perf.md)
	bulkFWRC32       = 4
	bulkFWChunkBytes = 4 << 30  // summaries: the matrices never leave the GPU
	bulkFWChunkMats  = 1 << 30  // matrices: two page-locked buffers of a chunk's
	bulkFWChunkArcs  = 16 << 20 // 192 MiB of tails, heads and weights
	bulkFWMaxGroup   = 65535    // graphs a chunk of the blocked kernels: blockIdx.y
	// fusedShared bounds the dynamic shared memory of a fused register
	// kernel, where its block's graphs are built (fusedBytes): at most
	// 64 KiB a block of 256 threads in every shape.
	fusedShared = 64 << 10
)

func (c bulkFWConfig) withDefaults() (bulkFWConfig, error) {
	if c.RC16 == 0 {
		c.RC16 = bulkFWRC16
	}
	if c.RC32 == 0 {
		c.RC32 = bulkFWRC32
	}
	switch {
	case c.LargeTile != 0 && c.LargeTile != 64 && c.LargeTile != 128:
		return c, fmt.Errorf("bulk FW tile %d: want 64 or 128", c.LargeTile)
	case c.RC16 != 4 && c.RC16 != 8, c.RC32 != 4 && c.RC32 != 8:
		return c, fmt.Errorf("bulk FW register tiles %d, %d: want 4 or 8", c.RC16, c.RC32)
	case c.Lanes != 0 && c.Lanes != lanes.Int32:
		return c, fmt.Errorf("bulk FW lanes %v: want int32 or the plan's choice", c.Lanes)
	}
	return c, nil
}

// stride is the padded size of a graph of n vertices under c: the group
// it runs in.
func (c bulkFWConfig) stride(n int) int {
	switch {
	case c.Form == formSeeds:
		return max(32, (n+31)&^31)
	case n <= 16:
		return 16
	case n <= 32:
		return 32
	case n <= 64:
		return 64
	case n <= 128 || c.Form == formColwise:
		return (n + 127) &^ 127
	}
	t := c.tileFor(n)
	return (n + t - 1) / t * t
}

// rcFor is the register kernels' sub-tile width for stride S ≤ 128.
func (c bulkFWConfig) rcFor(S int) int {
	switch S {
	case 16:
		return c.RC16
	case 32:
		return c.RC32
	}
	return 8
}

// tileFor is the blocked forms' tile for a graph of n > 128 vertices:
// LargeTile, or 128 (on an H100, 12.3·10¹² relaxations/s at n = 256
// against 8.9·10¹² for 64) unless its padding costs more than that: when
// the stride rounded to 128 exceeds the one rounded to 64 by more than a
// tenth (1.1³ ≈ 1.33 < 12.3/8.9).
func (c bulkFWConfig) tileFor(n int) int {
	if c.LargeTile != 0 {
		return c.LargeTile
	}
	s64, s128 := (n+63)&^63, (n+127)&^127
	if 10*s128 <= 11*s64 {
		return 128
	}
	return 64
}

// bulkFWTiming is what a run measured with CUDA events (milliseconds,
// summed over chunks).
type bulkFWTiming struct {
	// ToDevice is the upload of the arcs and the building of the matrices
	// (in the fused kernel, the building is part of Kernel).
	ToDevice, Kernel, Reduce, ToHost, Device float64
	Chunks, Launches                         int
	Compiled                                 bool
	Prep, Convert                            time.Duration
}

// bulkFWResult is a run's output, per graph.
type bulkFWResult struct {
	rows     [][]reduce.Row
	matrices []*lanes.Matrix[int32]
	fwAdmitted
}

// fwAdmitted is admit's verdict on each graph of a call, with its shape.
// The passes after admit read the shape here rather than from the graph:
// a graph's first touch is a cache miss, and serial passes over 131 072
// graphs (planning, the chunks' offsets) took about 10 ms each on the
// host.
type fwAdmitted struct {
	errs    []error
	maxReal []int32
	// pack is the lanes a word holds for each graph: 2 (int16×2) or 1
	// (int32).
	pack  []int
	shape []fwShape
}

// fwShape is a graph's vertices and arcs.
type fwShape struct{ n, arcs int32 }

// inf16 is the packed lanes' infinity; every finite distance of a graph
// they take is below it (maxReal16).
const (
	inf16     = int32(lanes.Inf16)
	maxReal16 = inf16 - 1
)

// admit checks every graph and returns the lane bound of each (its largest
// real distance), the lanes a word holds (2 where int16 lanes hold it and
// c allows them, else 1), the per-graph errors and the shapes of the
// graphs admitted.
func admit(gs []*graph.Graph, c bulkFWConfig) fwAdmitted {
	a := fwAdmitted{errs: make([]error, len(gs)), maxReal: make([]int32, len(gs)), pack: make([]int, len(gs)), shape: make([]fwShape, len(gs))}
	threads := admitThreads(len(gs))
	gpu.Parallel(len(gs), admitPart, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			g := gs[i]
			pack := g != nil && c.packs(g.N())
			tighten := pack && (c.Tighten || tightenPays(g.N(), g.Arcs(), threads))
			a.maxReal[i], a.pack[i], a.errs[i] = admitOne(g, pack, tighten)
			if a.errs[i] == nil {
				a.shape[i] = fwShape{int32(g.N()), int32(g.Arcs())}
			}
		}
	})
	return a
}

// admitOne is admit's verdict on g: int16 lanes (pack 2) when pack and
// the plan holds them, proving a tighter bound first when tighten and
// the plain bound does not hold.
func admitOne(g *graph.Graph, pack, tighten bool) (int32, int, error) {
	switch {
	case g == nil:
		return 0, 1, fmt.Errorf("%w: nil graph", ErrFWGraph)
	case g.Kind() == graph.FloatWeights:
		return 0, 1, fmt.Errorf("%w: float weights (integer lanes only)", ErrFWGraph)
	case g.N() > FWMaxN:
		return 0, 1, fmt.Errorf("%w: %d vertices, at most %d", ErrFWGraph, g.N(), FWMaxN)
	}
	plan, err := lanes.PlanFor(g)
	if err != nil {
		return 0, 1, fmt.Errorf("%w: %w", ErrFWGraph, err)
	}
	if pack && !plan.Negative {
		// The one-graph engine's rule (engine's gpuEngine.job, with the
		// plan package's Tighten): int16 where the plan holds it and no
		// length is negative. Tighten searches only when MaxReal alone is
		// too large, and only where the search pays (tightenPays).
		if plan.Holds(lanes.Int16) != nil && tighten {
			plan = plan.Tighten(g)
		}
		if plan.Holds(lanes.Int16) == nil {
			return maxReal16, 2, nil
		}
	}
	if err := plan.Holds(lanes.Int32); err != nil {
		return 0, 1, fmt.Errorf("%w: %w", ErrFWGraph, err)
	}
	if plan.Negative {
		if v, ok := negativeCycle(g); ok {
			return 0, 1, &NegativeCycleError{Vertex: v}
		}
	}
	return int32(min(plan.MaxReal, int64(gpu.InfInt32-1))), 1, nil
}

// admitPart is the fewest graphs a goroutine of admit takes.
const admitPart = 16

// admitThreads is how many goroutines admit runs count graphs on (as
// gpu.Parallel deals them): the cores a graph's search shares the host
// with.
func admitThreads(count int) int {
	return max(1, min(goruntime.GOMAXPROCS(0), count/admitPart))
}

// tightenPays reports whether proving a tighter bound on g's distances
// (lanes.Plan.Tighten: searches of its arcs on the host, before any chunk
// starts, so not hidden behind the GPU) costs less time than the int16
// lanes it may allow save on the device: about half of n³ relaxations at
// the int32 ceiling (15.9·10¹²/s), against about 80 ns an arc on one of
// threads host cores. On the 16-core H200 host, admitting 1 024 graphs of
// 1 024 vertices and 8 192 arcs took 41 ms (78 ns an arc), and 1 024 of
// 256 vertices 11 ms for a kernel of 1.1 ms (docs/perf.md). The lanes
// chosen never change an answer: int32 holds whatever int16 would.
func tightenPays(n, arcs, threads int) bool {
	const ceiling, arcSeconds = 15.9e12, 80e-9
	nn := float64(n)
	return nn*nn*nn/ceiling/2 > float64(arcs)*arcSeconds/float64(max(1, threads))
}

// negativeCycle runs Bellman–Ford from a virtual source joined to every
// vertex by a 0 arc and returns a vertex on a negative cycle, if any. Only
// graphs with negative arcs get here; the plan bounds every sum to int64.
func negativeCycle(g *graph.Graph) (int, bool) {
	if v, ok := g.NegativeSelfLoop(); ok {
		return v, true
	}
	n := g.N()
	dist := make([]int64, n)
	pred := make([]int32, n)
	for i := range pred {
		pred[i] = -1
	}
	for pass := 0; pass <= n; pass++ {
		last := -1
		for u := 0; u < n; u++ {
			for i, v := range g.Neighbors(u) {
				if d := dist[u] + g.ArcInt(u, i); d < dist[v] {
					dist[v], pred[v], last = d, int32(u), int(v)
				}
			}
		}
		if last < 0 {
			return 0, false
		}
		if pass == n {
			// Still improving after n passes: walking back n steps from the
			// last improved vertex lands on the cycle.
			v := last
			for range n {
				if pred[v] < 0 { // not reached: the chain of a vertex improved in pass n is a cycle
					return last, true
				}
				v = int(pred[v])
			}
			return v, true
		}
	}
	return 0, false
}

// fwChunk is a group of graphs of one stride and lane kind computed
// together.
type fwChunk struct {
	stride int
	pack   int   // lanes a 32-bit word: 2 (int16×2) or 1 (int32)
	tile   int   // of the blocked forms
	graphs []int // indices into gs
	rows   int   // vertices: the reduce outputs
	words  int   // arc words: tails, heads, weights
	// rowAt[j] and arcAt[j] are where graph j's rows and arc words start
	// (one entry past the last graph: rows, words).
	rowAt, arcAt []int
}

// newFWChunk is the chunk of the graphs listed, their shapes in shape.
func newFWChunk(stride, pack, tile int, graphs []int, shape []fwShape) *fwChunk {
	ch := &fwChunk{stride: stride, pack: pack, tile: tile, graphs: graphs, rowAt: make([]int, len(graphs)+1), arcAt: make([]int, len(graphs)+1)}
	for j, i := range graphs {
		ch.rowAt[j+1] = ch.rowAt[j] + int(shape[i].n)
		ch.arcAt[j+1] = ch.arcAt[j] + 3*int(shape[i].arcs)
	}
	ch.rows, ch.words = ch.rowAt[len(graphs)], ch.arcAt[len(graphs)]
	return ch
}

// planFWChunks groups the admitted graphs (errs[i] == nil, n > 0) by lane
// kind (packs[i]: the lanes a word holds) and stride and cuts each group
// into chunks of at most chunkBytes of matrices (one graph at least) and
// bulkFWMaxGroup graphs.
func planFWChunks(a fwAdmitted, c bulkFWConfig) []*fwChunk {
	type group struct{ stride, pack int }
	byGroup := map[group]*[]int{}
	var groups []group
	// A batch's graphs mostly share their group with the one before: the
	// last group's list is kept at hand (a map lookup a graph was 12 ms of
	// 131 072 graphs on the host).
	var last group
	var lastIdx *[]int
	for i, sh := range a.shape {
		if a.errs[i] != nil || sh.n == 0 {
			continue
		}
		k := group{c.stride(int(sh.n)), a.pack[i]}
		if lastIdx == nil || k != last {
			idx, ok := byGroup[k]
			if !ok {
				idx = new([]int)
				byGroup[k] = idx
				groups = append(groups, k)
			}
			last, lastIdx = k, idx
		}
		*lastIdx = append(*lastIdx, i)
	}
	slices.SortFunc(groups, func(a, b group) int {
		if a.stride != b.stride {
			return a.stride - b.stride
		}
		return b.pack - a.pack
	})
	var chunks []*fwChunk
	for _, gr := range groups {
		s := gr.stride
		per := uint64(s) * uint64(s) * 4 / uint64(gr.pack)
		most := int(max(1, c.ChunkBytes/per))
		if c.Form == formSeeds || s > 128 {
			most = min(most, bulkFWMaxGroup)
		}
		idx := *byGroup[gr]
		arcs := 0
		for _, i := range idx {
			arcs += int(a.shape[i].arcs)
		}
		// Chunks of equal size, so that the last is not a small tail; about
		// bulkFWChunkArcs arcs at most, so that their page-locked upload
		// stays small for many dense small graphs.
		k := max((len(idx)+most-1)/most, (arcs+bulkFWChunkArcs-1)/bulkFWChunkArcs)
		k = min(k, len(idx))
		for j := 0; j < k; j++ {
			part := idx[len(idx)*j/k : len(idx)*(j+1)/k]
			chunks = append(chunks, newFWChunk(s, gr.pack, c.tileFor(int(a.shape[part[0]].n)), part, a.shape))
		}
	}
	return chunks
}

// Layout of a chunk's input (int32 words): the table, 8 words a graph
// ({n, arcs, at, row, maxReal, 0, 0, 0}), then each graph's arcs: tails,
// heads, weights (a tail an arc rather than offsets, so that the kernels
// spread the arcs over all their threads).
func (ch *fwChunk) inWords() int { return 8*len(ch.graphs) + ch.words }

// outBytes is the reduce output: reach and max (int32) and sum (int64) a
// row.
func (ch *fwChunk) outBytes() uint64 { return 16 * uint64(ch.rows) }

func (ch *fwChunk) matrixBytes() uint64 {
	return uint64(len(ch.graphs)) * uint64(ch.stride) * uint64(ch.stride) * 4 / uint64(ch.pack)
}

// inf is the chunk's lanes' infinity.
func (ch *fwChunk) inf() int32 {
	if ch.pack == 2 {
		return inf16
	}
	return gpu.InfInt32
}

// fill writes the chunk's input into in. Packed lanes get weights clamped
// to their infinity: a weight that large is on no shortest path (every
// distance is below it), and the clamped value stays an upper bound, so
// every distance comes out exact (lanes.Plan's packed rule).
func (ch *fwChunk) fill(gs []*graph.Graph, maxReal []int32, in []int32) {
	table := in[:8*len(ch.graphs)]
	gpu.Parallel(len(ch.graphs), 64, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			g := gs[ch.graphs[j]]
			n, arcs := g.N(), g.Arcs()
			t := table[8*j : 8*j+8 : 8*j+8]
			t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = int32(n), int32(arcs), int32(ch.arcAt[j]), int32(ch.rowAt[j]), maxReal[ch.graphs[j]], 0, 0, 0
			dst := in[len(table)+ch.arcAt[j] : len(table)+ch.arcAt[j+1]]
			tails, heads, w := dst[:arcs], dst[arcs:2*arcs], dst[2*arcs:2*arcs+arcs]
			a := csr.Of(g)
			base := a.Off[0]
			copy(heads, a.Heads[base:base+arcs])
			for u := 0; u < n; u++ {
				for k := a.Off[u] - base; k < a.Off[u+1]-base; k++ {
					tails[k] = int32(u)
				}
			}
			if g.Kind() != graph.IntWeights {
				for k := range w {
					w[k] = 1
				}
				continue
			}
			for u := 0; u < n; u++ {
				iw, ws := g.IntWeights(u), w[a.Off[u]-base:a.Off[u+1]-base]
				if ch.pack == 2 {
					for k, x := range iw {
						ws[k] = int32(min(x, int64(inf16))) // non-negative: the plan said so
					}
				} else {
					for k, x := range iw {
						ws[k] = int32(x) // the plan bounds every weight
					}
				}
			}
		}
	})
}

// fwKernels is bulkfw.cu (after fw.cu) loaded for one blocked tile and
// lane kind.
type fwKernels struct {
	init, reduce                   *cuda.Function
	reg, fused                     map[[2]int]*cuda.Function // {stride, rc}
	pivot, panel, panelMP          *cuda.Function
	rest, single                   *cuda.Function
	seedsA, seedsB, seedsC         *cuda.Function
	colwise, colwiseTo, colwiseFro *cuda.Function
	tile, tdim, trows, pack        int
	inplace, product               int // dynamic shared bytes
	compiled, used                 bool
}

type fwModuleKey struct{ tile, pack int }

// fwModule loads the kernels for tile and pack (1: int32, 2: int16×2).
// Packed products take the one-graph engine's shape (ConfigFor): 4 words
// of each of a thread's rows, 128 threads a block.
func fwModule(call *gpurt.Call, tile, pack int) (*fwKernels, error) {
	return gpurt.Cached(call, fwModuleKey{tile, pack}, func() (*fwKernels, error) {
		dev := call.Dev()
		k := &fwKernels{tile: tile, tdim: 16, trows: 16, pack: pack, reg: map[[2]int]*cuda.Function{}, fused: map[[2]int]*cuda.Function{}}
		minb := 1
		if tile == 128 {
			minb = 2
		}
		var lane []string
		if pack == 2 {
			// The one-graph engine's shape below 16 384 vertices, whose
			// products are the size of these (ConfigFor takes 8 × 8 a
			// thread only for the long products of larger graphs).
			c := gpu.ConfigFor(gpu.Multi, 4096, lanes.Int16) // the 128-wide shape
			if tile < 128 {
				c = gpu.ConfigFor(gpu.Multi, 1024, lanes.Int16) // the 64-wide one
			}
			k.tdim, k.trows, minb = c.TDim, c.Rows(), max(c.MinBlocks, 1)
			lane = []string{"-DLANE_I16"}
		}
		opts := append(lane, fmt.Sprintf("-DTILE=%d", tile), fmt.Sprintf("-DTDIM=%d", k.tdim), fmt.Sprintf("-DTROWS=%d", k.trows),
			"-DBK=32", fmt.Sprintf("-DMINB=%d", minb))
		ks := []gpu.Entry{{Fn: &k.init, Name: "bfw_init"}, {Fn: &k.reduce, Name: "bfw_reduce"}, {Fn: &k.pivot, Name: "bfw_pivot"},
			{Fn: &k.panel, Name: "bfw_panel"}, {Fn: &k.panelMP, Name: "bfw_panel_mp"}, {Fn: &k.rest, Name: "bfw_rest"},
			{Fn: &k.single, Name: "bfw_single"}, {Fn: &k.seedsA, Name: "seeds_a"}, {Fn: &k.seedsB, Name: "seeds_b"},
			{Fn: &k.seedsC, Name: "seeds_c"}, {Fn: &k.colwise, Name: "colwise_fw"}, {Fn: &k.colwiseTo, Name: "colwise_to"},
			{Fn: &k.colwiseFro, Name: "colwise_from"}}
		// The register kernels of each {stride, rows} shape, then the fused
		// ones, which build their block's graphs in shared memory.
		shapes := [...][2]int{{16, 4}, {16, 8}, {32, 4}, {32, 8}, {64, 8}, {128, 8}}
		var reg, fused [len(shapes)]*cuda.Function
		for i, sr := range shapes {
			ks = append(ks, gpu.Entry{Fn: &reg[i], Name: fmt.Sprintf("bfw_reg%d_%d", sr[0], sr[1])},
				gpu.Entry{Fn: &fused[i], Name: fmt.Sprintf("bfw_fused%d_%d", sr[0], sr[1]), Shared: fusedShared})
		}
		var err error
		if k.compiled, err = gpu.LoadKernels(call, "bulkfw.cu", opts, ks...); err != nil {
			return nil, err
		}
		for i, sr := range shapes {
			k.reg[sr], k.fused[sr] = reg[i], fused[i]
		}
		k.inplace = (tile*tile/pack + 4*tile) * 4
		k.product = gpu.ProductShared(tile, pack)
		if s := max(k.inplace, k.product); s > dev.Info.MaxShared {
			return nil, fmt.Errorf("bulk FW tile %d needs %d bytes of shared memory per block; this GPU allows %d", tile, s, dev.Info.MaxShared)
		}
		for _, f := range []*cuda.Function{k.pivot, k.panel} {
			if err := f.SetMaxDynamicShared(k.inplace); err != nil {
				return nil, err
			}
		}
		for _, f := range []*cuda.Function{k.rest, k.panelMP} {
			if err := f.SetMaxDynamicShared(k.product); err != nil {
				return nil, err
			}
		}
		if err := k.single.SetMaxDynamicShared(max(k.inplace, k.product)); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// bulkFW is FWRows and FWMatrices with a configuration.
func bulkFW(ctx context.Context, ordinal int, gs []*graph.Graph, cfg bulkFWConfig) (*bulkFWResult, bulkFWTiming, error) {
	var tm bulkFWTiming
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, tm, err
	}
	start := time.Now()
	res := &bulkFWResult{}
	res.fwAdmitted = admit(gs, cfg)
	if cfg.Matrices {
		res.matrices = make([]*lanes.Matrix[int32], len(gs))
	} else {
		res.rows = make([][]reduce.Row, len(gs))
	}
	for i, g := range gs {
		if res.errs[i] == nil && g.N() == 0 {
			if cfg.Matrices {
				res.matrices[i] = &lanes.Matrix[int32]{Inf: gpu.InfInt32, Data: []int32{}}
			} else {
				res.rows[i] = []reduce.Row{}
			}
		}
	}
	tm.Prep += time.Since(start)
	work := false
	for i, g := range gs {
		work = work || (res.errs[i] == nil && g.N() > 0)
	}
	if !work {
		return res, tm, nil
	}
	d, err := gpu.Do(ctx, ordinal, func(c *gpurt.Call) error {
		cfg := cfg
		if cfg.ChunkBytes == 0 {
			cfg.ChunkBytes = chunkBytes(c, cfg.Matrices)
		}
		start := time.Now()
		chunks := planFWChunks(res.fwAdmitted, cfg)
		tm.Prep += time.Since(start)
		return runFW(c, gs, chunks, cfg, res, &tm)
	})
	if err != nil {
		return nil, tm, err
	}
	d.AddTiming(tm.Kernel, tm.Device)
	return res, tm, nil
}

// chunkBytes bounds a chunk's matrices: bulkFWChunkMats when they come
// back through page-locked memory, else bulkFWChunkBytes (fewer chunks:
// fewer rounds of idle tails), but a quarter of the GPU's free memory at
// most.
func chunkBytes(c *gpurt.Call, matrices bool) uint64 {
	b := uint64(bulkFWChunkBytes)
	if matrices {
		b = bulkFWChunkMats
	}
	if free, _, err := c.Dev().MemInfo(); err == nil {
		b = min(b, max(free/4, 64<<20))
	}
	return b
}

// runFW computes the chunks as a pipeline of two slots on the device's
// stream (as bulk.go does): while the GPU works on chunk i, the host fills
// chunk i+1's arcs into the other slot's page-locked buffer, and after it
// turns chunk i's summaries into rows while chunk i+1 runs. The matrices
// need one buffer only: the stream orders chunk i+1's build after chunk
// i's reduction.
func runFW(c *gpurt.Call, gs []*graph.Graph, chunks []*fwChunk, cfg bulkFWConfig, res *bulkFWResult, tm *bulkFWTiming) error {
	var most, in, out uint64
	for _, ch := range chunks {
		most = max(most, ch.matrixBytes())
		in = max(in, (4*uint64(ch.inWords())+255)&^255) // the outputs after it stay aligned
		out = max(out, ch.outBytes())
	}
	if cfg.Matrices {
		out = most
	}
	slots := min(2, len(chunks))
	if !c.Has(most) {
		free, total, err := c.Dev().MemInfo()
		if err != nil {
			return err
		}
		if need := gpurt.Class(most) + uint64(slots)*gpurt.Class(in+out) + 64<<20; need > free {
			return fmt.Errorf("%w: bulk Floyd–Warshall chunk needs %.2f GiB; the GPU has %.2f GiB free of %.2f GiB",
				gpu.ErrDoesNotFit, float64(need)/(1<<30), float64(free)/(1<<30), float64(total)/(1<<30))
		}
	}
	mat, err := c.Mem(most)
	if err != nil {
		return err
	}
	var side uint64 // the colwise form's second layout
	if cfg.Form == formColwise {
		if side, err = c.Mem(most); err != nil {
			return err
		}
	}
	var host [2]unsafe.Pointer
	var dev [2]uint64
	for s := range slots {
		if dev[s], err = c.Mem(in + out); err != nil {
			return err
		}
		if host[s], err = c.Host(max(in, out)); err != nil {
			return err
		}
	}
	run := func(i int) (*fwRun, error) {
		ch := chunks[i]
		// One module a tile, compiled (or read from the disk cache) once.
		k, err := fwModule(c, ch.tile, ch.pack)
		if err != nil {
			return nil, err
		}
		if !k.used {
			tm.Compiled, k.used = tm.Compiled || k.compiled, true
		}
		start := time.Now()
		ch.fill(gs, res.maxReal, unsafe.Slice((*int32)(host[i%2]), ch.inWords()))
		tm.Prep += time.Since(start)
		return &fwRun{c: c, k: k, ch: ch, cfg: cfg, slot: i % 2, host: host[i%2], in: dev[i%2], out: dev[i%2] + in, mat: mat, side: side}, nil
	}
	r, err := run(0)
	if err != nil {
		return err
	}
	if err := r.enqueue(tm); err != nil {
		return err
	}
	for i := range chunks {
		var next *fwRun
		if i+1 < len(chunks) {
			if err := c.Ctx.Err(); err != nil {
				return err
			}
			if next, err = run(i + 1); err != nil {
				return err
			}
		}
		if err := c.Stream().Synchronize(); err != nil {
			return err
		}
		if next != nil {
			if err := next.enqueue(tm); err != nil {
				return err
			}
		}
		if err := r.collect(gs, res, tm); err != nil {
			return err
		}
		r = next
	}
	return nil
}

// fwRun is one chunk in a pipeline slot: its kernels, buffers and events
// (4·slot to 4·slot+3).
type fwRun struct {
	c         *gpurt.Call
	k         *fwKernels
	ch        *fwChunk
	cfg       bulkFWConfig
	slot      int
	host      unsafe.Pointer // page-locked: the input, then the output
	in, out   uint64         // device: the input, the summaries
	mat, side uint64         // device: the matrices (and their column-wise copy)
	fused     bool
	launches  int
}

func (r *fwRun) ev(i int) *cuda.Event { return r.c.Event(4*r.slot + i) }

// enqueue queues the chunk's upload, build, Floyd–Warshall, reduction and
// copy back between the slot's events.
func (r *fwRun) enqueue(tm *bulkFWTiming) error {
	st, k, ch, cfg := r.c.Stream(), r.k, r.ch, r.cfg
	if err := r.ev(0).RecordOn(st); err != nil {
		return err
	}
	if err := st.CopyToDeviceAsync(r.in, r.host, 4*uint64(ch.inWords())); err != nil {
		return err
	}
	S, count := int32(ch.stride), int32(len(ch.graphs))
	mat, table, csrD, inf := r.mat, r.in, r.in+32*uint64(count), ch.inf()
	reach, maxv, sum := r.out, r.out+4*uint64(ch.rows), r.out+8*uint64(ch.rows)
	r.fused = S <= 128 && !cfg.Unfused && cfg.Form != formSeeds && cfg.Form != formColwise
	if !r.fused {
		if err := k.init.LaunchOn(st, [3]uint32{uint32(count), rowBlocks(S), 1}, [3]uint32{256, 1, 1}, 0,
			unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&table), unsafe.Pointer(&csrD), unsafe.Pointer(&inf)); err != nil {
			return err
		}
	}
	if cfg.Form == formColwise {
		if err := k.colwiseLayout(st, ch, mat, r.side, true); err != nil {
			return err
		}
	}
	if err := r.ev(1).RecordOn(st); err != nil {
		return err
	}
	var err error
	r.launches = 1
	if r.fused {
		// Built, computed and reduced (or stored) in one kernel.
		rc := cfg.rcFor(int(S))
		per := int32(256 / regThreads(int(S), rc, ch.pack))
		var matArg uint64
		if cfg.Matrices {
			matArg = mat
		}
		err = k.fused[[2]int{int(S), rc}].LaunchOn(st, [3]uint32{uint32((count + per - 1) / per), 1, 1}, [3]uint32{256, 1, 1}, fusedBytes(int(S), rc, ch.pack),
			unsafe.Pointer(&table), unsafe.Pointer(&csrD), unsafe.Pointer(&count), unsafe.Pointer(&inf), unsafe.Pointer(&matArg),
			unsafe.Pointer(&reach), unsafe.Pointer(&maxv), unsafe.Pointer(&sum))
	} else {
		r.launches, err = k.fw(r.c, cfg, ch, mat, r.side)
	}
	if err != nil {
		return err
	}
	if err := r.ev(2).RecordOn(st); err != nil {
		return err
	}
	if cfg.Form == formColwise {
		if err := k.colwiseLayout(st, ch, mat, r.side, false); err != nil {
			return err
		}
	}
	switch {
	case cfg.Matrices:
		err = st.CopyToHostAsync(r.host, mat, ch.matrixBytes())
	case r.fused:
		err = st.CopyToHostAsync(r.host, r.out, ch.outBytes())
	default:
		if err = k.reduce.LaunchOn(st, [3]uint32{uint32(count), rowBlocks(S), 1}, [3]uint32{256, 1, 1}, 0,
			unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&table),
			unsafe.Pointer(&reach), unsafe.Pointer(&maxv), unsafe.Pointer(&sum)); err == nil {
			err = st.CopyToHostAsync(r.host, r.out, ch.outBytes())
		}
	}
	if err != nil {
		return err
	}
	return r.ev(3).RecordOn(st)
}

// fusedBytes is the shared memory a fused register kernel's block builds
// its graphs in: S² lanes (S²/pack words) for each of its
// 256/regThreads graphs. Asking no more than that leaves room for more
// blocks on an SM (16 KiB for strides 16 and 32 in 4×4 sub-tiles, against
// 64 KiB). Packed lanes fit twice the graphs in the same bytes.
func fusedBytes(S, rc, pack int) uint32 {
	return uint32(256 / regThreads(S, rc, pack) * S * S * 4 / pack)
}

// regThreads is the threads of a register kernel that hold one S×S
// matrix: rc rows × rc words (rc·pack lanes) a thread.
func regThreads(S, rc, pack int) int { return (S / rc) * (S / (rc * pack)) }

// rowBlocks is the second grid dimension of bfw_init and bfw_reduce: a
// block for 64 rows (INIT_ROWS), so that a few large graphs still fill
// the GPU.
func rowBlocks(S int32) uint32 { return uint32((S + 63) / 64) }

// collect adds the slot's timings (after a synchronisation) and turns the
// chunk's output into rows or matrices.
func (r *fwRun) collect(gs []*graph.Graph, res *bulkFWResult, tm *bulkFWTiming) error {
	var e [4]error
	var a, kk, b, t float64
	a, e[0] = r.ev(1).Elapsed(r.ev(0))
	kk, e[1] = r.ev(2).Elapsed(r.ev(1))
	b, e[2] = r.ev(3).Elapsed(r.ev(2))
	t, e[3] = r.ev(3).Elapsed(r.ev(0))
	if err := errors.Join(e[:]...); err != nil {
		return err
	}
	tm.ToDevice += a
	tm.Kernel += kk
	if r.cfg.Matrices {
		tm.ToHost += b
	} else {
		tm.Reduce += b
	}
	tm.Device += t
	tm.Chunks++
	tm.Launches += r.launches
	start := time.Now()
	r.ch.collect(gs, r.host, res)
	tm.Convert += time.Since(start)
	return nil
}

// fw queues the chunk's Floyd–Warshall kernels and returns how many.
func (k *fwKernels) fw(c *gpurt.Call, cfg bulkFWConfig, ch *fwChunk, mat, side uint64) (int, error) {
	st := c.Stream()
	S, count := int32(ch.stride), int32(len(ch.graphs))
	switch {
	case cfg.Form == formColwise:
		// The layout changes are not timed as the kernel (colwiseLayout).
		return 1, k.colwise.LaunchOn(st, [3]uint32{uint32((count + 63) / 64), 1, 1}, [3]uint32{64, 1, 1}, 0, unsafe.Pointer(&side), unsafe.Pointer(&S), unsafe.Pointer(&count))
	case cfg.Form == formSeeds:
		m := S / 32
		launches := 0
		for z := int32(0); z < m; z++ {
			if err := k.seedsA.LaunchOn(st, [3]uint32{1, uint32(count), 1}, [3]uint32{1024, 1, 1}, 0, unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&z)); err != nil {
				return 0, err
			}
			launches++
			if m == 1 {
				break
			}
			if err := k.seedsB.LaunchOn(st, [3]uint32{uint32(2 * (m - 1)), uint32(count), 1}, [3]uint32{1024, 1, 1}, 0,
				unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&z), unsafe.Pointer(&m)); err != nil {
				return 0, err
			}
			if err := k.seedsC.LaunchOn(st, [3]uint32{uint32((m - 1) * (m - 1)), uint32(count), 1}, [3]uint32{1024, 1, 1}, 0,
				unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&z), unsafe.Pointer(&m)); err != nil {
				return 0, err
			}
			launches += 2
		}
		return launches, nil
	case S <= 128:
		return 1, k.regFW(st, int(S), cfg.rcFor(int(S)), mat, count, int64(S)*int64(S)/int64(k.pack), S/int32(k.pack), 0)
	}
	m := S / int32(k.tile)
	block := [3]uint32{uint32(k.tdim * k.trows), 1, 1}
	if cfg.Form == formSingle {
		// The task counter, then each graph's per-tile round counts.
		words := uint64(count)*uint64(m*m) + 1
		flags, err := c.Mem(4 * words)
		if err != nil {
			return 0, err
		}
		if err := st.Memset32Async(flags, 0, words); err != nil {
			return 0, err
		}
		counter, done := flags, flags+4
		tasks := int(m) * int(m) * int(m) * int(count)
		// A grid of about what fits at once (a block beyond waits for a
		// place before it takes a task, so no size can deadlock).
		perSM := 4
		if k.tile == 128 {
			perSM = 2
		}
		blocks := uint32(min(c.Dev().Info.SMs*perSM, tasks))
		return 1, k.single.LaunchOn(st, [3]uint32{blocks, 1, 1}, block, uint32(max(k.inplace, k.product)),
			unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&m), unsafe.Pointer(&count), unsafe.Pointer(&counter), unsafe.Pointer(&done))
	}
	launches := 0
	inplace := cfg.Form == formInplace
	for z := int32(0); z < m; z++ {
		if z%16 == 0 {
			if err := c.Ctx.Err(); err != nil {
				return 0, err
			}
		}
		var err error
		if inplace {
			err = k.pivot.LaunchOn(st, [3]uint32{1, uint32(count), 1}, block, uint32(k.inplace), unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&z))
		} else {
			// The pivot tiles, closed in registers (offsets and rows in
			// words).
			p := int64(k.pack)
			off := int64(z) * int64(k.tile) * (int64(S) + 1) / p
			err = k.regFW(st, k.tile, 8, mat, count, int64(S)*int64(S)/p, S/int32(p), off)
		}
		if err != nil {
			return 0, err
		}
		launches++
		if m == 1 {
			break
		}
		panel, shared := k.panelMP, k.product
		if inplace {
			panel, shared = k.panel, k.inplace
		}
		if err := panel.LaunchOn(st, [3]uint32{uint32(2 * (m - 1)), uint32(count), 1}, block, uint32(shared),
			unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&z), unsafe.Pointer(&m)); err != nil {
			return 0, err
		}
		if err := k.rest.LaunchOn(st, [3]uint32{uint32((m - 1) * (m - 1)), uint32(count), 1}, block, uint32(k.product),
			unsafe.Pointer(&mat), unsafe.Pointer(&S), unsafe.Pointer(&z), unsafe.Pointer(&m)); err != nil {
			return 0, err
		}
		launches += 2
	}
	return launches, nil
}

// colwiseLayout moves the chunk's matrices between the row-major layout
// (mat) and the column-wise one (side), either way.
func (k *fwKernels) colwiseLayout(st *cuda.Stream, ch *fwChunk, mat, side uint64, toCols bool) error {
	S, count := int32(ch.stride), int32(len(ch.graphs))
	cells := uint64(S) * uint64(S) * uint64(count)
	grid := [3]uint32{uint32((cells + 255) / 256), 1, 1}
	f, from, to := k.colwiseTo, mat, side
	if !toCols {
		f, from, to = k.colwiseFro, side, mat
	}
	return f.LaunchOn(st, grid, [3]uint32{256, 1, 1}, 0, unsafe.Pointer(&from), unsafe.Pointer(&to), unsafe.Pointer(&S), unsafe.Pointer(&count))
}

// regFW launches the register kernel for count S×S matrices (row stride
// ld words) at mat + g·gstride + off words, in sub-tiles of rc×rc words a
// thread.
func (k *fwKernels) regFW(st *cuda.Stream, S, rc int, mat uint64, count int32, gstride int64, ld int32, off int64) error {
	f := k.reg[[2]int{S, rc}]
	if f == nil {
		return fmt.Errorf("no register kernel for %d×%d in %d×%d sub-tiles", S, S, rc, rc)
	}
	per := int32(256 / regThreads(S, rc, k.pack)) // graphs a block of 256 threads
	return f.LaunchOn(st, [3]uint32{uint32((count + per - 1) / per), 1, 1}, [3]uint32{256, 1, 1}, 0,
		unsafe.Pointer(&mat), unsafe.Pointer(&count), unsafe.Pointer(&gstride), unsafe.Pointer(&ld), unsafe.Pointer(&off))
}

// collect turns the chunk's output, in the page-locked buffer, into rows
// or matrices.
func (ch *fwChunk) collect(gs []*graph.Graph, host unsafe.Pointer, res *bulkFWResult) {
	if res.matrices != nil {
		cells := ch.stride * ch.stride
		all := unsafe.Slice((*int32)(host), cells*len(ch.graphs))
		all16 := unsafe.Slice((*int16)(host), cells*len(ch.graphs))
		gpu.Parallel(len(ch.graphs), 8, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				i := ch.graphs[j]
				data := make([]int32, cells)
				maxReal := res.maxReal[i]
				if ch.pack == 2 {
					// Widened: the packed infinity becomes int32's.
					for c, x := range all16[j*cells : (j+1)*cells] {
						data[c] = int32(x)
						if data[c] > maxReal {
							data[c] = gpu.InfInt32
						}
					}
				} else {
					for c, x := range all[j*cells : (j+1)*cells] {
						if x > maxReal {
							x = gpu.InfInt32 // infinity plus a negative length
						}
						data[c] = x
					}
				}
				m := &lanes.Matrix[int32]{N: gs[i].N(), Size: ch.stride, Stride: ch.stride, Inf: gpu.InfInt32, Data: data}
				for v := 0; v < m.N; v++ {
					if data[v*ch.stride+v] < 0 {
						res.errs[i] = &NegativeCycleError{Vertex: v}
						m = nil
						break
					}
				}
				res.matrices[i] = m
			}
		})
		return
	}
	reach := unsafe.Slice((*int32)(host), ch.rows)
	maxv := unsafe.Slice((*int32)(unsafe.Add(host, 4*ch.rows)), ch.rows)
	sum := unsafe.Slice((*int64)(unsafe.Add(host, 8*ch.rows)), ch.rows)
	gpu.Parallel(len(ch.graphs), 64, func(lo, hi int) {
		// One allocation a part, not a graph: 131 072 graphs' rows were
		// as many allocations.
		all := make([]reduce.Row, ch.rowAt[hi]-ch.rowAt[lo])
		for j := lo; j < hi; j++ {
			i := ch.graphs[j]
			a, b := ch.rowAt[j]-ch.rowAt[lo], ch.rowAt[j+1]-ch.rowAt[lo]
			n := b - a
			rows := all[a:b:b]
			for u := range rows {
				r := ch.rowAt[j] + u
				if reach[r] < 0 {
					res.errs[i] = &NegativeCycleError{Vertex: u}
					rows = nil
					break
				}
				rows[u] = reduce.Row{Reach: int64(reach[r]), MaxI: int64(maxv[r]), Unreach: int(reach[r]) < n-1}
				rows[u].Sum.Add(sum[r])
			}
			res.rows[i] = rows
		}
	})
}

// relaxations is the work of Floyd–Warshall on gs: Σ n³.
func relaxations(gs []*graph.Graph) float64 {
	var w float64
	for _, g := range gs {
		n := float64(g.N())
		w += n * n * n
	}
	return w
}
