package bitbfs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/reduce"
)

// Result is what Rows found: every vertex's row summary and the
// histogram of distances.
type Result struct {
	Rows []reduce.Row
	// Hist[d] is the number of ordered pairs (u, v), u ≠ v, at distance d;
	// Hist[0] is 0 and the length is the largest distance plus one (as
	// internal/bfs's Summary).
	Hist   []int64
	Device string
	// Timing is the run's (with several GPUs, the one that took longest);
	// PerGPU is each GPU's, in the order listed, when there were several
	// (zero for a GPU that got no batch).
	Timing Timing
	PerGPU []Timing
}

// Timing is what a gpu-bitbfs run measured: CUDA events in
// milliseconds, host wall time, and how the run was laid out.
type Timing struct {
	Upload   float64       // the zeroing of the totals and the first group's init, overlapped with the arcs' padding on the host, then the arcs' copy, piece by piece
	Search   float64       // the levels and merge of every group and the init of all but the first, host round trips included
	Download float64       // the totals and the histogram
	Total    float64       // from the padding of the first piece of arcs to the last copy
	Wall     time.Duration // the whole call on the owner goroutine, host work included
	Prep     time.Duration // padding the arcs into the page-locked buffer, piece by piece as they upload
	Setup    time.Duration // before the first copy: the layout of the padded arcs, memory, module, plan
	Finish   time.Duration // after the last synchronisation: the rows and histogram

	Words, Lanes, Exit, Slots, Groups int
	Registers                         int   // of the level kernel
	Launches, Syncs                   int   // level launches; host round trips reading found[]
	Compiled                          bool  // NVRTC ran
	Rows, Arcs, Blocks                int64 // with stats: rows gathered, arc slots read, level blocks run
}

// bitConfig shapes a run; the zero value is Rows's choice.
type bitConfig struct {
	Words int // W: 2, 4, 8, 16 or 32 words of sources per vertex (0: bitWords)
	Slots int // batches searched at once (0: plan by size and memory)
	// Lanes is the threads sharing a vertex's row in a level: 1, 2 or 4,
	// at most W/2 (a lane loads 16 bytes at a time; with 2 or more the lanes
	// of a vertex load whole 32-byte sectors together); 0 is bitLanesFor.
	Lanes int
	// PastL1 reads the frontier rows with ld.global.cg (L2 only) instead of
	// through L1.
	PastL1 bool
	// Stream marks the arcs and visited rows evict-first.
	Stream bool
	// Exit is how many arcs a vertex ORs between checks that every source
	// has reached it: 4 or 8 (0: bitExit).
	Exit  int
	Stats bool // count rows and arcs read (a slower kernel)
}

// bitExit is the default arcs between covered checks.
const bitExit = 4

const (
	bitBlock = 256
	// bitThreads is about how many vertex threads a level launch should
	// have to fill an H100 (132 SMs of 2048 threads, several times over):
	// small graphs search several batches at once.
	bitThreads = 1 << 21
	// bitMaxChunk bounds the levels launched between two reads of found[].
	bitMaxChunk = 64
	// bitFirstChunk is the levels launched before the first read, when no
	// group has run yet (random sparse graphs of 10^4..10^6 vertices end
	// in 4 to 8).
	bitFirstChunk = 6
	// bitHintChunk bounds the levels a search launches before its first
	// read from the last search's depth: a long path before a random
	// graph costs at most this many empty levels.
	bitHintChunk = 16
)

// bitWords is the default W for n vertices: 2048 sources a batch up to
// 2^19 vertices, 1024 beyond, and 1024 for a matrix (its page-locked block
// of a batch's distances is 4·64·W bytes a vertex). Fewer batches read the
// arcs fewer times and find more of each row's sources at once, but stop
// less early (a vertex is done when all 64·W sources reached it); on an
// H100 (docs/perf.md, random regular graphs) 32 words beat 16 by 8 % at
// 65 536 and 262 144 vertices and lost by 8 % at 10^6, and 16 beat 8 by 3
// to 15 %.
func bitWords(n int, dense bool) int {
	if n <= 1<<19 && !dense {
		return 32
	}
	return 16
}

// bitLanesFor is the default lanes a vertex for W words: each lane holds
// at most 8 words (more spill registers), and 2 lanes at least when the
// row allows, so that a warp's loads take whole sectors.
func bitLanesFor(words int) int {
	switch {
	case words >= 32:
		return 4
	case words >= 4:
		return 2
	}
	return 1
}

// bitPlan is a run's layout.
type bitPlan struct {
	n, words, size    int // vertices, W, sources a batch (64·W)
	lanes, exit       int // threads a vertex in a level; arcs between covered checks
	batches, slots    int
	groups            int // rounds of slots
	nw                int // 32-bit words of a slot's nz bitmap
	heads             int // padded heads
	headsAt, csrBytes uint64
	slotBytes, fixed  uint64 // device memory per slot, and the rest
	distBytes         uint64 // a batch's distance block (matrix mode)
}

// planBit lays out a run of g: words and slots from cfg or the defaults,
// slots bounded so that the device memory needed stays within free.
func planBit(n, heads int, cfg bitConfig, free uint64, dist bool) (bitPlan, error) {
	p := bitPlan{n: n, words: cfg.Words}
	if p.words == 0 {
		p.words = bitWords(n, dist)
	}
	switch p.words {
	case 2, 4, 8, 16, 32:
	default:
		return p, fmt.Errorf("gpu-bitbfs words %d: want 2, 4, 8, 16 or 32", p.words)
	}
	p.lanes = cfg.Lanes
	if p.lanes == 0 {
		p.lanes = bitLanesFor(p.words)
	}
	// A lane loads 16 bytes (2 words) at a time.
	if (p.lanes != 1 && p.lanes != 2 && p.lanes != 4) || 2*p.lanes > p.words {
		return p, fmt.Errorf("gpu-bitbfs lanes %d with %d words: want 1, 2 or 4, at most half the words", p.lanes, p.words)
	}
	p.exit = cfg.Exit
	if p.exit == 0 {
		p.exit = bitExit
	}
	if p.exit != 4 && p.exit != 8 {
		return p, fmt.Errorf("gpu-bitbfs exit %d: want 4 or 8", p.exit)
	}
	p.heads = heads
	p.size = 64 * p.words
	p.batches = (n + p.size - 1) / p.size
	p.nw = (n + 31) / 32
	p.headsAt = (8*uint64(n+1) + 15) &^ 15
	p.csrBytes = p.headsAt + 4*uint64(p.heads)
	rows := uint64(n) * uint64(p.words) * 8
	// vis, two frontiers, two nz bitmaps and the totals (sum, harm, reach,
	// ecc).
	p.slotBytes = 3*rows + 2*4*uint64(p.nw) + 24*uint64(n)
	// the arcs, the histogram (n levels at most), found[] (32 bytes a
	// slot) and the stats.
	p.fixed = p.csrBytes + 8*uint64(max(n, 1)) + 32*uint64(min(p.batches, 65535)) + 4096
	if dist {
		p.distBytes = uint64(n) * uint64(p.size) * 4
		p.fixed += p.distBytes
	}
	p.slots = cfg.Slots
	if p.slots <= 0 {
		p.slots = max(1, bitThreads/max(n, 1))
	}
	if dist {
		p.slots = 1 // one batch's distances at a time
	}
	p.slots = max(1, min(p.slots, p.batches, 65535))
	// Leave a margin for the pools' rounding and the context.
	const margin = 256 << 20
	if p.fixed+p.slotBytes+margin > free {
		return p, fmt.Errorf("%w: gpu-bitbfs needs %.2f GiB for %d vertices and %d padded arcs; the GPU has %.2f GiB free",
			gpu.ErrDoesNotFit, float64(p.fixed+p.slotBytes+margin)/(1<<30), n, p.heads, float64(free)/(1<<30))
	}
	p.slots = max(1, min(p.slots, int((free-margin-p.fixed)/p.slotBytes)))
	p.groups = (p.batches + p.slots - 1) / p.slots
	return p, nil
}

// paddedChunk is the vertices of a chunk of the padded arcs, the unit of
// their fill and upload.
const paddedChunk = 1 << 10

// paddedLayout is where g's padded arcs go: every vertex's arcs rounded up
// to a multiple of 4 (the kernel reads heads 16 bytes at a time), chunk c
// (vertices c·paddedChunk on) from padded head starts[c]; starts has one
// entry past the last chunk, the total.
type paddedLayout struct {
	starts []int64
}

func layoutPadded(g *graph.Graph) paddedLayout {
	a := csr.Of(g)
	n := g.N()
	chunks := (n + paddedChunk - 1) / paddedChunk
	starts := make([]int64, chunks+1)
	total := 0
	for c := range chunks {
		for v := c * paddedChunk; v < min(n, (c+1)*paddedChunk); v++ {
			total += (a.Off[v+1] - a.Off[v] + 3) &^ 3
		}
		starts[c+1] = int64(total)
	}
	return paddedLayout{starts: starts}
}

// heads is the padded heads' count.
func (l paddedLayout) heads() int { return int(l.starts[len(l.starts)-1]) }

// chunks is the number of chunks.
func (l paddedLayout) chunks() int { return len(l.starts) - 1 }

// fill writes the padded arcs of chunks [c0, c1) of g into off (n+1
// entries, off[n] with the last chunk) and heads (heads() entries), the
// padding -1, which the kernel skips. A chunk whose vertices need no
// padding (every degree a multiple of 4, as in the search loop's regular
// graphs) is one copy: per vertex, the copies cost about 10 ns each.
func (l paddedLayout) fill(g *graph.Graph, off []int64, heads []int32, c0, c1 int) {
	a := csr.Of(g)
	n := g.N()
	gpu.Parallel(c1-c0, 4, func(lo, hi int) {
		for c := c0 + lo; c < c0+hi; c++ {
			l.fillChunk(a, n, off, heads, c)
		}
	})
	if c1 == l.chunks() {
		off[n] = l.starts[c1]
	}
}

// fillChunk is fill of chunk c.
func (l paddedLayout) fillChunk(a csr.CSR, n int, off []int64, heads []int32, c int) {
	v0, v1 := c*paddedChunk, min(n, (c+1)*paddedChunk)
	pos := l.starts[c]
	if l.starts[c+1]-pos == int64(a.Off[v1]-a.Off[v0]) {
		copy(heads[pos:l.starts[c+1]], a.Heads[a.Off[v0]:a.Off[v1]])
		shift := pos - int64(a.Off[v0])
		for v := v0; v < v1; v++ {
			off[v] = int64(a.Off[v]) + shift
		}
		return
	}
	for v := v0; v < v1; v++ {
		nb := a.Heads[a.Off[v]:a.Off[v+1]]
		off[v] = pos
		next := pos + int64((len(nb)+3)&^3)
		dst := heads[pos:next]
		copy(dst, nb)
		for i := len(nb); i < len(dst); i++ {
			dst[i] = -1
		}
		pos = next
	}
}

// paddedPieces is how many pieces runBit fills and uploads the padded
// arcs in, each piece's upload overlapping the next one's fill: two from
// 2^19 heads (2 MiB). A piece is filled on several goroutines when it has
// chunks enough (parallel); on the 16-core H100 host one goroutine filled
// 4 MiB in 0.8 ms, and waking helpers costs tens of µs a piece
// (docs/perf.md).
func paddedPieces(l paddedLayout) int {
	return max(1, min(2, l.chunks(), l.heads()/(1<<18)))
}

// bitKernels is bitbfs.cu loaded for one W.
type bitKernels struct {
	init, level, merge *cuda.Function
	compiled, used     bool
	// deep is the deepest level with pairs of the last search run with
	// these kernels (0 before the first): the next search launches as
	// many levels and one more before its first read of the counters,
	// because a search loop's graphs are alike. Only the owner goroutine
	// of the device touches it.
	deep int
}

type bitModuleKey struct {
	words, lanes, exit    int
	pastL1, stream, stats bool
}

func bitModule(call *gpurt.Call, key bitModuleKey) (*bitKernels, error) {
	return gpurt.Cached(call, key, func() (*bitKernels, error) {
		opts := []string{fmt.Sprintf("-DW=%d", key.words), fmt.Sprintf("-DBLOCK=%d", bitBlock), fmt.Sprintf("-DLANES=%d", key.lanes), fmt.Sprintf("-DEXIT=%d", key.exit)}
		if key.pastL1 {
			opts = append(opts, "-DROWLOAD=0")
		}
		if key.stream {
			opts = append(opts, "-DSTREAM=1")
		}
		if key.stats {
			opts = append(opts, "-DSTATS")
		}
		k := &bitKernels{}
		var err error
		if k.compiled, err = gpu.LoadKernels(call, "bitbfs.cu", opts,
			gpu.Entry{Fn: &k.init, Name: "bitbfs_init"}, gpu.Entry{Fn: &k.level, Name: "bitbfs_level"}, gpu.Entry{Fn: &k.merge, Name: "bitbfs_merge"}); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// HostBytes bounds the page-locked host memory Rows (dense false) or
// Matrix (dense true) takes for n vertices and arcs arcs: the padded
// arcs, then the summaries and histogram or a batch's block of distances.
func HostBytes(n, arcs int, dense bool) uint64 {
	w := bitWords(n, dense)
	nn, batches := uint64(n), uint64(n+64*w-1)/uint64(64*w)
	arcsAt := (8*(nn+1) + 15) &^ 15
	out := 32*nn + 32*min(batches, 65535) + 72
	if dense {
		out = max(out, nn*64*uint64(w)*4)
	}
	return arcsAt + 4*(uint64(arcs)+3*nn) + 16 + out
}

// ErrGraph is wrapped when gpu-bitbfs is given a weighted graph.
var ErrGraph = errors.New("gpu-bitbfs needs an unweighted graph")

// Rows computes every vertex's row summary (reach, sum of distances, Σ 1/d
// for harmonic centrality, eccentricity over the reached vertices, whether
// some vertex is not reached) and the histogram of distances of an
// unweighted graph, directed or not, at place, with a bit-parallel multi-source breadth-first search
// (batches of 64·W sources as bit sets, as internal/bfs.BitRows); the
// totals are reduced on the device and only n summaries and the histogram
// cross the bus.
//
// On several GPUs (OnGPUs, distinct ordinals as gpu.CheckAll checks, or
// OnAll) the batches of sources are dealt out to them in groups
// (gpu.SplitWork), every GPU searches its own at once, and their totals
// are merged on the host (per vertex the sums, Σ 1/d and reach add, the
// eccentricity is the largest; the histograms add): the integers are
// bit-identical to one GPU's result, Σ 1/d within a relative 1e-12 (added
// in another order); a GPU that fails fails the call, with an error naming
// it.
// MPI ranks are refused (gpu.ErrPlacement): Brief splits over them.
func Rows(ctx context.Context, place gpu.Placement, g *graph.Graph) (*Result, error) {
	ordinals, err := gpus(place, "the rows")
	if err != nil {
		return nil, err
	}
	return bitRowsOn(ctx, ordinals, g, bitConfig{})
}

// gpus is the GPUs of place, or the refusal of ranks.
func gpus(place gpu.Placement, what string) ([]int, error) {
	if _, _, ok := place.Ranks(); ok {
		return nil, gpu.Refuse("gpu-bitbfs", what, place)
	}
	return place.GPUs()
}

func bitRows(ctx context.Context, ordinal int, g *graph.Graph, cfg bitConfig) (*Result, error) {
	return bitRowsOn(ctx, []int{ordinal}, g, cfg)
}

// bitSplit deals the batches of sources of an n-vertex run in cfg's layout
// to k GPUs, in chunks of a group (the slots the default plan searches at
// once; one batch for a matrix).
func bitSplit(n int, cfg bitConfig, k int, dist bool) ([][]gpu.Span, error) {
	p, err := planBit(n, 0, cfg, ^uint64(0)>>2, dist)
	if err != nil {
		return nil, err
	}
	return gpu.SplitWork(p.batches, p.slots, k), nil
}

func bitRowsOn(ctx context.Context, ordinals []int, g *graph.Graph, cfg bitConfig) (*Result, error) {
	res := &Result{Rows: []reduce.Row{}, Hist: []int64{0}}
	err := bitSearchOn(ctx, ordinals, g, cfg, res, func(t bitSums) {
		res.Rows, res.Hist = bitSummaries(t), trimHist(t.hist)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Brief is Rows reduced to what the summary measures need (see
// reduce.Brief): each source's eccentricity and reach, and the totals from
// the histogram. It skips building n reduce.Rows, which was 0.93 ms of a
// 10.4 ms call at 65 536 vertices on an H100 (docs/perf.md). The second
// result is the device's name.
//
// Over MPI ranks (gpu.OverRanks) the batches of sources are split over
// the ranks instead of the GPUs of one process, each rank searching its
// share on its GPU (briefOverRanks, ranks.go): every rank calls Brief with
// the same graph and gets the same Brief; failures before the search are
// agreed (comm.ErrRankFailed), a failed search aborts world.
func Brief(ctx context.Context, place gpu.Placement, g *graph.Graph) (*reduce.Brief, string, error) {
	if world, ordinal, ok := place.Ranks(); ok {
		return briefOverRanks(ctx, world, ordinal, g)
	}
	ordinals, err := place.GPUs()
	if err != nil {
		return nil, "", err
	}
	return bitBriefOn(ctx, ordinals, g, bitConfig{})
}

func bitBriefOn(ctx context.Context, ordinals []int, g *graph.Graph, cfg bitConfig) (*reduce.Brief, string, error) {
	b := reduce.NewBrief(g.N())
	res := &Result{}
	err := bitSearchOn(ctx, ordinals, g, cfg, res, func(t bitSums) {
		briefOfTotals(b, t.reach, t.ecc, t.hist)
	})
	if err != nil {
		return nil, "", err
	}
	return b, res.Device, nil
}

// Totals is Rows reduced to what the centralities need (reduce.Totals:
// each vertex's reach, sum of distances and Σ 1/d), copied from the
// device's columns without building rows (at 4 096 vertices the rows and
// the centralities from them were a tenth of a call on the host). The
// second result is the device's name. MPI ranks are refused
// (gpu.ErrPlacement).
func Totals(ctx context.Context, place gpu.Placement, g *graph.Graph) (*reduce.Totals, string, error) {
	ordinals, err := gpus(place, "the totals")
	if err != nil {
		return nil, "", err
	}
	return bitTotalsOn(ctx, ordinals, g, bitConfig{})
}

func bitTotalsOn(ctx context.Context, ordinals []int, g *graph.Graph, cfg bitConfig) (*reduce.Totals, string, error) {
	t := reduce.NewTotals(g.N())
	res := &Result{}
	if err := bitSearchOn(ctx, ordinals, g, cfg, res, func(s bitSums) { totalsOf(t, s) }); err != nil {
		return nil, "", err
	}
	return t, res.Device, nil
}

// totalsOf copies the device's totals into t's columns; a sum becomes a
// float64 as reduce.Wide.Float would round it.
func totalsOf(t *reduce.Totals, s bitSums) {
	gpu.Parallel(len(s.sums), 1<<13, func(lo, hi int) {
		reach, sum, sums, from := t.Reach[lo:hi], t.Sum[lo:hi], s.sums[lo:hi], s.reach[lo:hi]
		for v := range reach {
			reach[v], sum[v] = int32(from[v]), float64(sums[v])
		}
		copy(t.Harm[lo:hi], s.harm[lo:hi])
	})
}

// briefOfTotals fills b from the device's per-source reach and
// eccentricity and the histogram of distances (the pairs at each
// distance), as reduce.BriefOf fills it from rows.
func briefOfTotals(b *reduce.Brief, reach, ecc []uint32, hist []int64) {
	gpu.Parallel(len(reach), 1<<16, func(lo, hi int) { // one goroutine up to 2^17: waking others costs more
		for v := lo; v < hi; v++ {
			b.Reach[v] = int32(reach[v])
			if reach[v] > 0 {
				b.Ecc[v] = int64(ecc[v])
			}
		}
	})
	b.Pairs, b.Sum = reduce.HistTotals(hist)
}

// bitSearchOn runs the bit-parallel search of g's summaries over the GPUs
// listed and hands the totals (one GPU's, or every GPU's merged) to
// deliver, which must copy what it keeps; it sets res's Device, Timing
// and, with several GPUs, PerGPU.
func bitSearchOn(ctx context.Context, ordinals []int, g *graph.Graph, cfg bitConfig, res *Result,
	deliver func(bitSums)) error {
	if g.Weighted() {
		return fmt.Errorf("%w (it has %s weights)", ErrGraph, g.Kind())
	}
	if g.N() == 0 {
		return nil
	}
	spans, err := bitSplit(g.N(), cfg, len(ordinals), false)
	if err != nil {
		return err
	}
	single := len(ordinals) == 1
	tot := &bitTotals{}
	timings := make([]Timing, len(ordinals))
	devs, err := gpu.OnEach(ctx, ordinals, func(i int) bool { return len(spans[i]) > 0 }, func(i int, c *gpurt.Call) error {
		return runBit(c, g, cfg, spans[i], &timings[i], func(t bitSums) {
			if single {
				deliver(t)
				return
			}
			tot.add(t)
		}, nil)
	})
	if err != nil {
		return err
	}
	if !single {
		deliver(tot.bitSums)
		res.PerGPU = timings
	}
	res.Timing = gpu.Slowest(timings, func(t Timing) float64 { return t.Total })
	res.Device = gpu.DeviceName(ordinals, devs)
	for i, d := range devs {
		if d != nil {
			d.AddTiming(timings[i].Search, timings[i].Total)
		}
	}
	return nil
}

// Matrix computes the distance matrix of an unweighted graph at place
// with the same search as Rows: dist[u·n+v] is the distance from u to v,
// -1 when there is no path. A batch's columns come back over the bus as it
// ends. On several GPUs each GPU searches its batches (gpu.SplitWork, a
// batch at a time) and copies their columns into the one matrix. MPI
// ranks are refused (gpu.ErrPlacement). The second result is the device's
// name.
func Matrix(ctx context.Context, place gpu.Placement, g *graph.Graph) ([]int32, string, error) {
	ordinals, err := gpus(place, "the matrix")
	if err != nil {
		return nil, "", err
	}
	return bitMatrixOn(ctx, ordinals, g, bitConfig{})
}

func bitMatrix(ctx context.Context, ordinal int, g *graph.Graph, cfg bitConfig) ([]int32, string, error) {
	return bitMatrixOn(ctx, []int{ordinal}, g, cfg)
}

func bitMatrixOn(ctx context.Context, ordinals []int, g *graph.Graph, cfg bitConfig) ([]int32, string, error) {
	if g.Weighted() {
		return nil, "", fmt.Errorf("%w (it has %s weights)", ErrGraph, g.Kind())
	}
	n := g.N()
	dist := make([]int32, n*n)
	if n == 0 {
		return dist, "", nil
	}
	spans, err := bitSplit(n, cfg, len(ordinals), true)
	if err != nil {
		return nil, "", err
	}
	timings := make([]Timing, len(ordinals))
	devs, err := gpu.OnEach(ctx, ordinals, func(i int) bool { return len(spans[i]) > 0 }, func(i int, c *gpurt.Call) error {
		return runBit(c, g, cfg, spans[i], &timings[i], nil, dist)
	})
	if err != nil {
		return nil, "", err
	}
	for i, d := range devs {
		if d != nil {
			d.AddTiming(timings[i].Search, timings[i].Total)
		}
	}
	return dist, gpu.DeviceName(ordinals, devs), nil
}

// runBit runs the search of the batches of spans on the owner goroutine:
// the arcs go up once, then each group of batches (up to the plan's slots
// of one span) is initialised and its levels launched in chunks, with one
// read of found[] a chunk (the chunk is as long as the previous group
// needed, so usually one read a group); the slots' totals are merged on
// the device, copied back with the histogram and handed to take while
// they lie in page-locked memory. With dist, the run is one batch a group
// and each batch's distance block is copied back into dist.
func runBit(c *gpurt.Call, g *graph.Graph, cfg bitConfig, spans []gpu.Span, tm *Timing,
	take func(bitSums), dist []int32) error {
	wall := time.Now()
	n := g.N()
	free, _, err := c.Dev().MemInfo()
	if err != nil {
		return err
	}
	lay := layoutPadded(g)
	p, err := planBit(n, lay.heads(), cfg, free, dist != nil)
	if err != nil {
		return err
	}
	k, err := bitModule(c, bitModuleKey{words: p.words, lanes: p.lanes, exit: p.exit, pastL1: cfg.PastL1, stream: cfg.Stream, stats: cfg.Stats})
	if err != nil {
		return err
	}
	if !k.used {
		tm.Compiled, k.used = k.compiled, true
	}
	tm.Registers = k.level.Registers()
	tm.Words, tm.Lanes, tm.Exit, tm.Slots = p.words, p.lanes, p.exit, p.slots

	// Page-locked host memory: the arcs, then found[] and the results.
	outAt := (p.csrBytes + 15) &^ 15
	outBytes := 32*uint64(n) + 32*uint64(p.slots) + 72
	host, err := c.Host(outAt + max(outBytes, p.distBytes))
	if err != nil {
		return err
	}
	csrD, err := c.Mem(p.csrBytes)
	if err != nil {
		return err
	}
	slotsD, err := c.Mem(p.slotBytes*uint64(p.slots) + 16)
	if err != nil {
		return err
	}
	fixedD, err := c.Mem(p.fixed - p.csrBytes)
	if err != nil {
		return err
	}
	rows := uint64(n) * uint64(p.words) * 8 * uint64(p.slots)
	nzBytes := 4 * uint64(p.nw) * uint64(p.slots)
	vis, frA, frB := slotsD, slotsD+rows, slotsD+2*rows
	nzA, nzB := slotsD+3*rows, slotsD+3*rows+nzBytes
	sumD := (nzB + nzBytes + 15) &^ 15 // 8 bytes a vertex and slot
	harmD := sumD + 8*uint64(n)*uint64(p.slots)
	reachD := harmD + 8*uint64(n)*uint64(p.slots)
	eccD := reachD + 4*uint64(n)*uint64(p.slots)
	histD := fixedD
	deepD := histD + 8*uint64(n) // the deepest level with pairs (u32), then found[]
	foundD := deepD + 8
	statsD := foundD + 32*uint64(p.slots)
	distD := uint64(0)
	if dist != nil {
		distD = (statsD + 64 + 255) &^ 255
	}
	if p.slotBytes*uint64(p.slots)+16 < eccD+4*uint64(n)*uint64(p.slots)-slotsD {
		return fmt.Errorf("gpu-bitbfs: slot layout overflows its %d bytes (a bug)", p.slotBytes*uint64(p.slots))
	}

	st := c.Stream()
	ev := [4]*cuda.Event{c.Event(0), c.Event(1), c.Event(2), c.Event(3)}
	if err := ev[0].RecordOn(st); err != nil {
		return err
	}
	tm.Setup = time.Since(wall)

	nv, nw := int32(n), int32(p.nw)
	blocks := uint32((n + bitBlock - 1) / bitBlock)
	block := [3]uint32{bitBlock, 1, 1}
	type group struct{ first, count int }
	var groups []group
	for _, sp := range spans {
		for b := sp.Lo; b < sp.Hi; b += p.slots {
			groups = append(groups, group{b, min(p.slots, sp.Hi-b)})
		}
	}
	tm.Groups = len(groups)
	// initGroup sets up a group's slots: visited, frontier, found[].
	initGroup := func(grp group) error {
		base, gs := int32(grp.first), uint32(grp.count)
		return k.init.LaunchOn(st, [3]uint32{blocks, gs, 1}, block, 0, unsafe.Pointer(&nv), unsafe.Pointer(&nw),
			unsafe.Pointer(&base), unsafe.Pointer(&vis), unsafe.Pointer(&frA), unsafe.Pointer(&nzA),
			unsafe.Pointer(&foundD), unsafe.Pointer(&distD))
	}
	// The totals (sum, harm, reach, ecc of every slot), the histogram, found[] and
	// the stats start at zero, and the first group's slots are set up,
	// while the host fills the arcs below: none of it reads them (at
	// 65 536 vertices the set-up writes 0.5 GiB of visited rows, 0.2 ms).
	if err := st.Memset32Async(sumD, 0, 6*uint64(n)*uint64(p.slots)); err != nil {
		return err
	}
	if err := st.Memset32Async(histD, 0, (statsD+64-histD)/4); err != nil {
		return err
	}
	if len(groups) > 0 {
		if err := initGroup(groups[0]); err != nil {
			return err
		}
	}
	// The padded arcs, filled and uploaded piece by piece: a piece's copy
	// runs while the next is filled. The offsets go last.
	prep := time.Now()
	offH, headsH := unsafe.Slice((*int64)(host), n+1), unsafe.Slice((*int32)(unsafe.Add(host, p.headsAt)), p.heads)
	pieces := paddedPieces(lay)
	for i := range pieces {
		c0, c1 := i*lay.chunks()/pieces, (i+1)*lay.chunks()/pieces
		lay.fill(g, offH, headsH, c0, c1)
		at, bytes := p.headsAt+4*uint64(lay.starts[c0]), 4*uint64(lay.starts[c1]-lay.starts[c0])
		if bytes == 0 {
			continue
		}
		if err := st.CopyToDeviceAsync(csrD+at, unsafe.Add(host, at), bytes); err != nil {
			return err
		}
	}
	if err := st.CopyToDeviceAsync(csrD, host, 8*uint64(n+1)); err != nil {
		return err
	}
	tm.Prep = time.Since(prep)
	if err := ev[1].RecordOn(st); err != nil {
		return err
	}

	offD, headsD := csrD, csrD+p.headsAt
	deepH := (*uint32)(unsafe.Add(host, outAt))
	foundH := unsafe.Slice((*uint64)(unsafe.Add(host, outAt+8)), 4*p.slots)
	levelBlocks := uint32((n*p.lanes + bitBlock - 1) / bitBlock)
	chunk := bitFirstChunk
	if k.deep > 0 {
		chunk = min(k.deep+1, bitHintChunk)
	}
	for gi, grp := range groups {
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		gs := uint32(grp.count)
		if gi > 0 {
			if err := initGroup(grp); err != nil {
				return err
			}
		}
		level := int32(1)
		// After the first chunk, launch 2, 4, 8, ... levels a read: a graph
		// of long paths needs many, a group one level deeper than the last
		// few.
		for todo, next := chunk, 2; ; todo, next = next, min(2*next, bitMaxChunk) {
			for range todo {
				cur, nxt, nzc, nzn := frA, frB, nzA, nzB
				if level%2 == 0 {
					cur, nxt, nzc, nzn = frB, frA, nzB, nzA
				}
				if err := k.level.LaunchOn(st, [3]uint32{levelBlocks, gs, 1}, block, 0, unsafe.Pointer(&nv), unsafe.Pointer(&nw),
					unsafe.Pointer(&level), unsafe.Pointer(&offD), unsafe.Pointer(&headsD), unsafe.Pointer(&vis),
					unsafe.Pointer(&cur), unsafe.Pointer(&nxt), unsafe.Pointer(&nzc), unsafe.Pointer(&nzn),
					unsafe.Pointer(&foundD), unsafe.Pointer(&deepD), unsafe.Pointer(&sumD), unsafe.Pointer(&harmD), unsafe.Pointer(&reachD),
					unsafe.Pointer(&eccD), unsafe.Pointer(&histD), unsafe.Pointer(&distD), unsafe.Pointer(&statsD)); err != nil {
					return err
				}
				tm.Launches++
				level++
			}
			if err := st.CopyToHostAsync(unsafe.Pointer(deepH), deepD, 8+32*uint64(gs)); err != nil {
				return err
			}
			if err := st.Synchronize(); err != nil {
				return err
			}
			tm.Syncs++
			last := (level - 1) & 3
			done := true
			for s := range int(gs) {
				done = done && foundH[4*s+int(last)] == 0
			}
			if done {
				break
			}
			if err := c.Ctx.Err(); err != nil {
				return err
			}
		}
		// The next group is as deep as the deepest so far, likely: launch
		// its levels and the one that finds nothing at once.
		chunk = int(*deepH) + 1
		k.deep = int(*deepH)
		if dist != nil {
			if err := copyDist(c, p, grp.first, distD, unsafe.Add(host, outAt), dist); err != nil {
				return err
			}
		}
	}
	merge := int32(p.slots)
	if err := k.merge.LaunchOn(st, [3]uint32{blocks, 1, 1}, block, 0, unsafe.Pointer(&nv), unsafe.Pointer(&merge),
		unsafe.Pointer(&sumD), unsafe.Pointer(&harmD), unsafe.Pointer(&reachD), unsafe.Pointer(&eccD)); err != nil {
		return err
	}
	if err := ev[2].RecordOn(st); err != nil {
		return err
	}
	out := unsafe.Add(host, outAt)
	if dist == nil {
		// sum (8n), harm (8n), reach (4n), ecc (4n), the histogram (8n) and
		// the stats.
		for _, cp := range []struct {
			at, from, bytes uint64
		}{{0, sumD, 8 * uint64(n)}, {8 * uint64(n), harmD, 8 * uint64(n)}, {16 * uint64(n), reachD, 4 * uint64(n)},
			{20 * uint64(n), eccD, 4 * uint64(n)}, {24 * uint64(n), histD, 8 * uint64(n)}, {32 * uint64(n), statsD, 24}} {
			if err := st.CopyToHostAsync(unsafe.Add(out, cp.at), cp.from, cp.bytes); err != nil {
				return err
			}
		}
	}
	if err := ev[3].RecordOn(st); err != nil {
		return err
	}
	if err := st.Synchronize(); err != nil {
		return err
	}
	finish := time.Now()
	defer func() { tm.Finish = time.Since(finish) }()
	var errs [4]error
	tm.Upload, errs[0] = ev[1].Elapsed(ev[0])
	tm.Search, errs[1] = ev[2].Elapsed(ev[1])
	tm.Download, errs[2] = ev[3].Elapsed(ev[2])
	tm.Total, errs[3] = ev[3].Elapsed(ev[0])
	if err := errors.Join(errs[:]...); err != nil {
		return err
	}
	if dist == nil {
		stats := unsafe.Slice((*int64)(unsafe.Add(out, 32*uint64(n))), 3)
		take(bitSums{
			sums:  unsafe.Slice((*uint64)(out), n),
			harm:  unsafe.Slice((*float64)(unsafe.Add(out, 8*uint64(n))), n),
			reach: unsafe.Slice((*uint32)(unsafe.Add(out, 16*uint64(n))), n),
			ecc:   unsafe.Slice((*uint32)(unsafe.Add(out, 20*uint64(n))), n),
			hist:  unsafe.Slice((*int64)(unsafe.Add(out, 24*uint64(n))), n),
		})
		if cfg.Stats {
			tm.Rows, tm.Arcs, tm.Blocks = stats[0], stats[1], stats[2]
		}
	}
	tm.Wall = time.Since(wall)
	return nil
}

// bitSums is a search's totals a vertex (over the sources that reach
// it: the sum of their distances, Σ 1/d, their count and the largest)
// and the histogram of distances, as the device leaves them (page-locked,
// valid during a take) or merged.
type bitSums struct {
	sums  []uint64
	harm  []float64
	reach []uint32
	ecc   []uint32
	hist  []int64
}

// bitSummaries turns the device's totals into rows.
func bitSummaries(t bitSums) []reduce.Row {
	n := len(t.sums)
	rows := reduce.NewRows(n) // every row set below
	// One goroutine up to 2^14 rows: waking others costs more than the
	// few microseconds they would save. The rows are written in place
	// over slices of one length (no bounds checks): half the time of a
	// row built aside and copied, 4 ns a row.
	gpu.Parallel(n, 1<<13, func(lo, hi int) {
		rows, sums, harm, reach, ecc := rows[lo:hi], t.sums[lo:hi], t.harm[lo:hi], t.reach[lo:hi], t.ecc[lo:hi]
		for v := range rows {
			r := &rows[v]
			*r = reduce.Row{Reach: int64(reach[v]), MaxI: int64(ecc[v]), Harm: harm[v], Unreach: int(reach[v]) < n-1}
			r.Sum.Add(int64(sums[v]))
		}
	})
	return rows
}

// trimHist copies the histogram up to its last non-zero count, with
// Hist[0] = 0 and at least that entry.
func trimHist(h []int64) []int64 {
	last := 0
	for d := len(h) - 1; d > 0; d-- {
		if h[d] != 0 {
			last = d
			break
		}
	}
	out := make([]int64, last+1)
	copy(out[1:], h[1:last+1])
	return out
}

// copyDist copies the distance block of batch (its group's one batch: n
// rows of 64·W int32) into the page-locked buffer and from there into
// dist's columns of the batch.
func copyDist(c *gpurt.Call, p bitPlan, batch int, distD uint64, host unsafe.Pointer, dist []int32) error {
	st := c.Stream()
	if err := st.CopyToHostAsync(host, distD, p.distBytes); err != nil {
		return err
	}
	if err := st.Synchronize(); err != nil {
		return err
	}
	n, first := p.n, batch*p.size
	count := min(p.size, n-first)
	block := unsafe.Slice((*int32)(host), n*p.size)
	gpu.Parallel(n, 1024, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			copy(dist[v*n+first:v*n+first+count], block[v*p.size:v*p.size+count])
		}
	})
	return nil
}

// bitTotals merges the partial totals of gpu-bitbfs workers: per vertex the
// sums, Σ 1/d and reach add and the eccentricity is the largest, and the
// histograms add. Workers call add with their page-locked arrays (valid
// only during their call), one at a time. The integers are those of one
// GPU's run, bit for bit; Σ 1/d is added in another order (within a
// relative 1e-12 of it, as reduce.Same allows).
type bitTotals struct {
	mu sync.Mutex
	bitSums
}

func (t *bitTotals) add(p bitSums) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p.sums)
	if t.sums == nil {
		t.sums, t.harm, t.reach, t.ecc = make([]uint64, n), make([]float64, n), make([]uint32, n), make([]uint32, n)
	}
	if len(p.hist) > len(t.hist) {
		t.hist = append(t.hist, make([]int64, len(p.hist)-len(t.hist))...)
	}
	for d, c := range p.hist {
		t.hist[d] += c
	}
	gpu.Parallel(n, 1<<14, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			t.sums[v] += p.sums[v]
			t.harm[v] += p.harm[v]
			t.reach[v] += p.reach[v]
			t.ecc[v] = max(t.ecc[v], p.ecc[v])
		}
	})
}
