package bulk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/reduce"
)

// MaxN is the most vertices a graph of Rows may have: a thread block
// searches a graph with one thread per vertex up to threadMaxN vertices,
// then 1024 threads of up to 16 vertices each, whose two frontiers of
// 32-bit words (128 KiB at MaxN) must fit in a block's shared memory.
const MaxN = 16384

// threadMaxN is the most vertices a graph may have for a thread a vertex
// (a block has at most 1024 threads); larger graphs take the mid-size
// kernels (*_vN), batches of 32 sources and 16-bit heads.
const threadMaxN = 1024

// AnyGPUMaxN is the most vertices every GPU holds in the bulk search:
// the mid-size kernels' frontiers take 8n bytes of a block's shared
// memory (32 KiB here), which every GPU the kernels compile for has.
const AnyGPUMaxN = 4096

// FitsShared reports whether a graph of n ≤ MaxN vertices fits a block's
// shared memory of maxShared bytes (cuda.Info.MaxShared) in the bulk
// search: the two frontiers of the mid-size kernels, and past four
// vertices a thread their offsets (an H100 or H200, 227 KiB, holds MaxN;
// an A100, 163 KiB, about 13 900 vertices; a GPU of 99 KiB, 8 400).
func FitsShared(n, maxShared int) bool {
	switch {
	case n <= threadMaxN:
		return true
	case midVertices[midIndex(n)] <= 4:
		return 8*n <= maxShared
	}
	return 8*n+4*(n+1) <= maxShared
}

// MaxOn is the most vertices FitsShared takes for maxShared bytes.
func MaxOn(maxShared int) int {
	lo, hi := threadMaxN, MaxN // FitsShared holds at lo and is monotone in n
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if FitsShared(mid, maxShared) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// midIndex is the mid-size kernels' index for a graph of n vertices,
// threadMaxN < n ≤ MaxN: the fewest vertices a thread that cover n.
func midIndex(n int) int {
	for i, vpt := range midVertices {
		if n <= vpt*threadMaxN {
			return i
		}
	}
	panic(fmt.Sprintf("bulk: %d vertices is past MaxN", n))
}

// ErrGraph is wrapped by Rows's refusals of a graph it cannot
// search: weighted, or more than MaxN vertices.
var ErrGraph = errors.New("graph not supported by the GPU bulk search")

// Rows computes, for each unweighted graph of gs (directed or not, at
// most MaxN vertices), every source's summary: Reach (vertices other
// than the source it reaches), Unreach (some vertex is not reached), MaxI
// (the eccentricity over the reached vertices) and Sum (the sum of the
// distances to them) — what internal/bfs.BitRows gives. The graphs are
// searched together on the one GPU of place (OnGPU, or OnGPUs of one;
// others are refused with gpu.ErrPlacement) by a bit-parallel breadth-first search,
// a thread block per graph (or per part of its sources when there are few
// graphs); only the per-vertex summaries come back over the bus. The result
// has one slice per graph, in order.
func Rows(ctx context.Context, place gpu.Placement, gs []*graph.Graph) ([][]reduce.Row, error) {
	ordinal, err := one(place, "the bulk search", "the rows")
	if err != nil {
		return nil, err
	}
	rows, _, err := bulkRows(ctx, ordinal, gs, bulkConfig{})
	return rows, err
}

// one is the GPU of place, which must be one GPU of this process: the
// bulk families run a batch on one GPU.
func one(place gpu.Placement, family, what string) (int, error) {
	ordinal, ok := place.One()
	if !ok {
		return 0, gpu.Refuse(family, what, place)
	}
	return ordinal, nil
}

// Summary is what a search loop asks of a graph (Graph Golf's
// annealing: its diameter and average shortest path length), without the
// per-vertex rows.
type Summary struct {
	Vertices int
	// Pairs counts the ordered pairs (u, v), u ≠ v, with a path from u to
	// v; Sum is the sum of their distances (the ASPL is Sum/Pairs).
	Pairs, Sum int64
	// Diameter is the largest finite distance (0 without pairs).
	Diameter int64
	// Connected reports that every vertex reaches every other (strongly,
	// when directed); a graph of one vertex is.
	Connected bool
}

// Summaries is Rows reduced to one Summary a graph: the GPU
// reduces each graph's per-vertex summaries itself and writes 32 bytes a
// graph straight into page-locked host memory, so that no copy back is
// queued and no rows are built.
func Summaries(ctx context.Context, place gpu.Placement, gs []*graph.Graph) ([]Summary, error) {
	ordinal, err := one(place, "the bulk search", "the summaries")
	if err != nil {
		return nil, err
	}
	if err := checkBulk(gs); err != nil {
		return nil, err
	}
	sums := make([]Summary, len(gs))
	if _, _, err := bulkRunInto(ctx, ordinal, gs, bulkConfig{}, &bulkOut{sums: sums}, nil); err != nil {
		return nil, err
	}
	return sums, nil
}

// bulkOut is where a run's results go: every graph's rows, or, when sums
// is set, its summary alone.
type bulkOut struct {
	rows [][]reduce.Row
	sums []Summary
}

// bulkConfig shapes a bulk run; the zero value is Rows's choice.
type bulkConfig struct {
	// Words is W, the 64-bit words of sources per vertex in a batch (64·W
	// sources): 1, 2 or 4. 0 takes bulkWords for batches that fill the GPU
	// and half words (below) for fewer graphs, split over more blocks.
	Words int
	// Half takes batches of 32 sources (one 32-bit word per vertex):
	// twice the blocks of Words = 1 for a graph, for single graphs.
	Half bool
	// MinBlocks is how many blocks of 1024 threads per SM the kernels are
	// register-limited for: 1 or 2 (0: bulkMinBlocks).
	MinBlocks int
	// NoShared keeps the arcs in global memory even where the ELL table
	// fits in shared memory.
	NoShared bool
	// ChunkBytes bounds the input of one chunk, the unit of the pipeline
	// (0: bulkChunkBytes).
	ChunkBytes int
	// Split is how many blocks share a graph's batches (0: choose).
	Split int
	// Group is b, the graphs of a group (Stream): each group is cut
	// into chunks of its own and delivered as soon as they are done. 0:
	// the whole batch is one group.
	Group int
	// Streams is how many CUDA streams the chunks take in turn, so that a
	// chunk's copies overlap its predecessor's kernels (0: bulkStreams;
	// 1 to MaxStreams).
	Streams int
	// Heads is the width of the heads uploaded: 16 or 32 bits (0: 32 for
	// a chunk of half words and at most bulkWideArcs arcs, where narrowing
	// them on one host thread costs more than the copy it saves; else 16).
	// 32 needs half words.
	Heads int
	// Events says whether the chunks are timed with CUDA events (0: when
	// the call has more than one graph, so that a single-graph call saves
	// the records and reads; 1: always; -1: never).
	Events int
	// Sources is the sources of a batch of the summaries' half-word
	// kernels: 8, 16 or 32 (0: 32). Smaller batches spread a graph over
	// more blocks, but a block's time is its graph's arcs times its
	// levels whatever its sources: on an H100, one graph of 1 024
	// vertices took the same 18 µs kernel in 32, 64 or 128 blocks.
	Sources int
	// RowSums makes Summaries reduce per-vertex rows on the host, as
	// Rows copies them back, instead of on the device (comparisons).
	RowSums bool
	// CopyOut makes Summaries copy the graphs' 32 bytes back after
	// the kernels, instead of each graph's last block writing them into
	// the page-locked buffer itself (comparisons).
	CopyOut bool
	// sums is set by bulkRunInto for Summaries without RowSums: the
	// bulk_sum_* kernels, sumWords words a graph out.
	sums bool
	// edits, set by EditSummaries, makes every graph of the run one base
	// graph with arc edits of its own (the bulk_sum_*_sh_e kernels).
	edits *editSet
}

// MaxStreams is the most streams Stream spreads a batch's groups over.
const MaxStreams = 4

// sumWords is the 32-bit words of a graph's summary as the bulk_sum_*
// kernels leave it (SUM_WORDS in kernels/bulkbfs.cu): pairs, diameter,
// blocks done, zero, then the distance sum in 64 bits.
const sumWords = 8

const (
	bulkStreams    = 2
	bulkWideArcs   = 1 << 16
	bulkWords      = 2
	bulkMinBlocks  = 2
	bulkChunkBytes = 64 << 20
	// bulkSharedMax bounds a block's shared memory, so that two blocks fit
	// on an SM (228 KiB on Hopper).
	bulkSharedMax = 112 << 10
)

// bulkTiming is what a bulk run measured with CUDA events (milliseconds,
// summed over its chunks) and moved.
type bulkTiming struct {
	ToDevice, Kernel, ToHost, Device float64
	Chunks, Launches, Blocks         int
	InBytes, OutBytes                uint64
	Words                            int  // of the last chunk
	Half                             bool // of the last chunk
	Compiled                         bool
	// Host time (wall) on the owner goroutine: planning and filling the
	// inputs, waiting for the stream, converting the summaries into rows.
	Prep, Wait, Convert time.Duration
	// Enqueue is the host time of queuing copies, launches and events;
	// Inside the whole run on the owner goroutine (the rest of a call's
	// wall time is the hand-off there and back).
	Enqueue, Inside time.Duration
	// Plan is the part of Prep spent planning the chunks; CopyIn, Launch
	// and CopyOut the parts of Enqueue spent in those driver calls.
	Plan, CopyIn, Launch, CopyOut time.Duration
	// Groups is each group's times from the start of the run on the
	// owner goroutine: when its first chunk began to be filled
	// (submitted) and when its rows were in host memory (done).
	Groups  []groupTime
	Streams int
}

// groupTime is one group's submission and completion, from the start of
// the run.
type groupTime struct{ Submit, Done time.Duration }

// bulkKernels is bulkbfs.cu loaded for one MinBlocks: fn[kind][sh], kind
// indexing 32-bit words, then W = 1, 2, 4 64-bit words; sum and sumWide
// are the summaries' kernels of the same shapes.
type bulkKernels struct {
	fn      [4][2]*cuda.Function
	wide    [2]*cuda.Function // h1 with 32-bit heads: wide[sh]
	sum     [4][2]*cuda.Function
	sumWide [2]*cuda.Function
	// mid and midSum are the mid-size kernels (32-bit words, 16-bit
	// heads), [i][sh] for midVertices[i] vertices a thread.
	mid, midSum [len(midVertices)][2]*cuda.Function
	// sumEdit are the summaries' kernels of edited copies of one graph
	// (arcs in shared memory), by kind as fn.
	sumEdit  [4]*cuda.Function
	compiled bool
	used     bool
}

// midVertices are the vertices a thread of the mid-size kernels owns: a
// graph of n > threadMaxN vertices takes the first that covers n/1024.
var midVertices = [...]int{2, 4, 8, 16}

type bulkModuleKey struct{ minBlocks int }

func bulkModule(call *gpurt.Call, minBlocks int) (*bulkKernels, error) {
	return gpurt.Cached(call, bulkModuleKey{minBlocks}, func() (*bulkKernels, error) {
		// Every kernel may take all the shared memory a block can have.
		k := &bulkKernels{}
		most := call.Dev().Info.MaxShared
		var ks []gpu.Entry
		for p, prefix := range []string{"bulk_", "bulk_sum_"} {
			fn, wide := &k.fn, &k.wide
			if p == 1 {
				fn, wide = &k.sum, &k.sumWide
			}
			for wi, w := range []string{"h1", "w1", "w2", "w4"} {
				for sh, suffix := range []string{"gl", "sh"} {
					ks = append(ks, gpu.Entry{Fn: &fn[wi][sh], Name: prefix + w + "_" + suffix, Shared: most})
				}
			}
			for sh, suffix := range []string{"gl", "sh"} {
				ks = append(ks, gpu.Entry{Fn: &wide[sh], Name: prefix + "h1_" + suffix + "_i32", Shared: most})
			}
			mid := &k.mid
			if p == 1 {
				mid = &k.midSum
			}
			for i, vpt := range midVertices {
				for sh, suffix := range []string{"gl", "sh"} {
					ks = append(ks, gpu.Entry{Fn: &mid[i][sh], Name: fmt.Sprintf("%sh1_%s_v%d", prefix, suffix, vpt), Shared: most})
				}
			}
		}
		for wi, w := range []string{"h1", "w1", "w2", "w4"} {
			ks = append(ks, gpu.Entry{Fn: &k.sumEdit[wi], Name: "bulk_sum_" + w + "_sh_e", Shared: most})
		}
		var err error
		if k.compiled, err = gpu.LoadKernels(call, "bulkbfs.cu", []string{fmt.Sprintf("-DMINB=%d", minBlocks)}, ks...); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// kernelIndex is the row of fn for a chunk's words.
func (ch *bulkChunk) kernelIndex() int {
	switch {
	case ch.half:
		return 0
	case ch.words == 2:
		return 2
	case ch.words == 4:
		return 3
	}
	return 1
}

// batchSize is the sources of a batch, wordBytes a vertex's bytes of one
// frontier.
func (ch *bulkChunk) batchSize() int {
	if ch.half {
		if ch.sources > 0 {
			return ch.sources
		}
		return 32
	}
	return 64 * ch.words
}

func (ch *bulkChunk) wordBytes() int {
	if ch.half {
		return 4
	}
	return 8 * ch.words
}

// checkBulk refuses what the kernels cannot search.
func checkBulk(gs []*graph.Graph) error {
	for i, g := range gs {
		switch {
		case g == nil:
			return fmt.Errorf("%w: graph %d is nil", ErrGraph, i)
		case g.Weighted():
			return fmt.Errorf("%w: graph %d has %s weights; the bulk search takes unweighted graphs", ErrGraph, i, g.Kind())
		case g.N() > MaxN:
			return fmt.Errorf("%w: graph %d has %d vertices; the bulk search takes at most %d", ErrGraph, i, g.N(), MaxN)
		}
	}
	return nil
}

func (c bulkConfig) check() error {
	switch c.Words {
	case 0, 1, 2, 4:
	default:
		return fmt.Errorf("bulk words %d: want 1, 2 or 4", c.Words)
	}
	if c.MinBlocks < 0 || c.MinBlocks > 2 {
		return fmt.Errorf("bulk blocks per SM %d: want 1 or 2", c.MinBlocks)
	}
	switch {
	case c.Heads != 0 && c.Heads != 16 && c.Heads != 32:
		return fmt.Errorf("bulk heads of %d bits: want 16 or 32", c.Heads)
	case c.Heads == 32 && !c.Half:
		return fmt.Errorf("bulk heads of 32 bits need half words")
	}
	if c.Group < 0 {
		return fmt.Errorf("bulk group of %d graphs: want 0 (the whole batch) or more", c.Group)
	}
	if c.Streams < 0 || c.Streams > MaxStreams {
		return fmt.Errorf("bulk streams %d: want 1 to %d", c.Streams, MaxStreams)
	}
	switch c.Sources {
	case 0, 8, 16, 32:
	default:
		return fmt.Errorf("bulk batches of %d sources: want 8, 16 or 32", c.Sources)
	}
	return nil
}

// StreamConfig shapes Stream.
type StreamConfig struct {
	// Group is b, the graphs of a group: the batch is cut into groups of b
	// graphs (the last one shorter), and each group's rows are delivered
	// as soon as they are in host memory. 0 makes the whole batch one
	// group, as Rows.
	Group int
	// Streams is how many CUDA streams the groups take in turn, 1 to
	// MaxStreams (0: 2), so that a group's copies overlap the kernels of
	// the group before it.
	Streams int
}

// Stream is Rows delivered group by group, the low-latency bulk
// search of the thesis (§3.5, §4.5): gs is cut into groups of sc.Group
// graphs; each group's copy in, kernels and copy out are queued on one of
// sc.Streams streams in turn while the host fills the next group and
// converts the last one's summaries; and onGroup(lo, hi, rows) is called
// for each group [lo, hi) in order, on the caller's goroutine, as soon as
// its rows are in host memory (rows[k] is graph lo+k's, as Rows gives
// them; onGroup may keep them). A small group comes back after a short
// time; a large one uses the GPU better: docs/perf.md gives the trade.
// The search runs ahead of onGroup by a few groups: up to sc.Streams + 2
// groups' rows are held at once (those queued for onGroup, one waiting to
// be queued, and the one onGroup has). An error
// of onGroup stops the search and is returned; a cancelled ctx stops it
// between chunks.
func Stream(ctx context.Context, place gpu.Placement, gs []*graph.Graph, sc StreamConfig, onGroup func(lo, hi int, rows [][]reduce.Row) error) error {
	ordinal, err := one(place, "the bulk search", "the stream of rows")
	if err != nil {
		return err
	}
	cfg := bulkConfig{Group: sc.Group, Streams: sc.Streams}
	if err := cfg.check(); err != nil {
		return err
	}
	if err := checkBulk(gs); err != nil {
		return err
	}
	if cfg.Group == 0 || cfg.Group >= len(gs) {
		// One group: no search to run ahead of onGroup, so no goroutine
		// and channel in the way (a loop of single-graph calls).
		rows, _, err := bulkRun(ctx, ordinal, gs, cfg, nil)
		if err != nil {
			return err
		}
		return onGroup(0, len(gs), rows)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type done struct {
		lo, hi int
		rows   [][]reduce.Row
	}
	ready := make(chan done, max(1, cfg.Streams))
	errc := make(chan error, 1)
	go func() {
		defer close(ready)
		_, _, err := bulkRun(ctx, ordinal, gs, cfg, func(lo, hi int, rows [][]reduce.Row) error {
			select {
			case ready <- done{lo, hi, rows}:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		errc <- err
	}()
	var cbErr error
	for d := range ready {
		if cbErr == nil {
			if cbErr = onGroup(d.lo, d.hi, d.rows); cbErr != nil {
				cancel() // the search stops; drain what it still sends
			}
		}
	}
	if err := <-errc; cbErr == nil {
		return err
	}
	return cbErr
}

// bulkRows is Rows with a configuration, returning the timing too.
func bulkRows(ctx context.Context, ordinal int, gs []*graph.Graph, cfg bulkConfig) ([][]reduce.Row, bulkTiming, error) {
	if err := checkBulk(gs); err != nil {
		return nil, bulkTiming{}, err
	}
	if err := cfg.check(); err != nil {
		return nil, bulkTiming{}, err
	}
	return bulkRun(ctx, ordinal, gs, cfg, nil)
}

// bulkRun searches gs (checked) and returns every graph's rows; deliver,
// when set, is called on the owner goroutine with each group's rows as
// they are done.
func bulkRun(ctx context.Context, ordinal int, gs []*graph.Graph, cfg bulkConfig, deliver func(lo, hi int, rows [][]reduce.Row) error) ([][]reduce.Row, bulkTiming, error) {
	out := &bulkOut{rows: make([][]reduce.Row, len(gs))}
	for i := range out.rows {
		out.rows[i] = []reduce.Row{} // those with vertices are set by convert
	}
	return bulkRunInto(ctx, ordinal, gs, cfg, out, deliver)
}

// bulkRunInto is bulkRun into out (rows or summaries).
func bulkRunInto(ctx context.Context, ordinal int, gs []*graph.Graph, cfg bulkConfig, out *bulkOut, deliver func(lo, hi int, rows [][]reduce.Row) error) ([][]reduce.Row, bulkTiming, error) {
	var tm bulkTiming
	if cfg.MinBlocks == 0 {
		cfg.MinBlocks = bulkMinBlocks
	}
	if cfg.ChunkBytes <= 0 {
		cfg.ChunkBytes = bulkChunkBytes
	}
	if cfg.Streams == 0 {
		cfg.Streams = bulkStreams
	}
	if cfg.Events == 0 {
		cfg.Events = -1
		if len(gs) > 1 {
			cfg.Events = 1
		}
	}
	cfg.sums = out.sums != nil && !cfg.RowSums
	large := false
	for _, g := range gs {
		large = large || g.N() > AnyGPUMaxN
	}
	if large {
		if info, err := gpu.Devices(); err == nil && ordinal >= 0 && ordinal < len(info) {
			for i, g := range gs {
				if !FitsShared(g.N(), info[ordinal].MaxShared) {
					return nil, tm, fmt.Errorf("%w: graph %d has %d vertices; the bulk search on gpu:%d (%d KiB of shared memory a block) takes at most %d",
						ErrGraph, i, g.N(), ordinal, info[ordinal].MaxShared>>10, MaxOn(info[ordinal].MaxShared))
				}
			}
		}
	}
	groups, units := bulkUnits(gs, cfg.Group, cfg.ChunkBytes)
	if cfg.edits != nil {
		groups, units = editUnits(len(gs))
	}
	if len(units) == 0 {
		// No vertices anywhere: every group is done at once.
		for _, g := range groups {
			if deliver != nil {
				if err := deliver(g.lo, g.hi, out.rows[g.lo:g.hi]); err != nil {
					return nil, tm, err
				}
			}
		}
		for i, g := range gs {
			if out.sums != nil {
				out.sums[i] = Summary{Connected: g.N() <= 1}
			}
		}
		return out.rows, tm, nil
	}
	d, err := gpu.Do(ctx, ordinal, func(c *gpurt.Call) error {
		k, err := bulkModule(c, cfg.MinBlocks)
		if err != nil {
			return err
		}
		if !k.used {
			tm.Compiled, k.used = k.compiled, true
		}
		start := time.Now()
		err = runBulk(c, k, gs, groups, units, cfg, out, &tm, deliver)
		tm.Inside = time.Since(start)
		return err
	})
	if err != nil {
		return nil, tm, err
	}
	d.AddTiming(tm.Kernel, tm.Device)
	return out.rows, tm, nil
}

// bulkGroupSpan is one group of a run: graphs [lo, hi), its chunks
// [first, first+count) of the run's units.
type bulkGroupSpan struct{ lo, hi, first, count int }

// bulkUnits cuts gs into groups of group graphs (0: one group) and each
// group into chunks (bulkChunks); a group of graphs without vertices has
// no chunk.
func bulkUnits(gs []*graph.Graph, group, chunkBytes int) ([]bulkGroupSpan, [][2]int) {
	if group <= 0 {
		group = max(1, len(gs))
	}
	var groups []bulkGroupSpan
	var units [][2]int
	for lo := 0; lo < len(gs); lo += group {
		hi := min(lo+group, len(gs))
		g := bulkGroupSpan{lo: lo, hi: hi, first: len(units)}
		for _, b := range bulkChunks(gs[lo:hi], chunkBytes) {
			units = append(units, [2]int{lo + b[0], lo + b[1]})
		}
		g.count = len(units) - g.first
		groups = append(groups, g)
	}
	return groups, units
}

// bulkChunks cuts gs into k chunks of whole graphs of about equal input,
// k the fewest for chunks of about chunkBytes (one graph may be larger);
// none when the graphs have no vertices.
func bulkChunks(gs []*graph.Graph, chunkBytes int) [][2]int {
	total, vertices := 0, 0
	for _, g := range gs {
		total += csrWords(g, false) * 4
		vertices += g.N()
	}
	if vertices == 0 {
		return nil
	}
	k := max(1, (total+chunkBytes-1)/chunkBytes)
	var chunks [][2]int
	lo, sum := 0, 0
	for i, g := range gs {
		sum += csrWords(g, false) * 4
		// Chunk j ends at the first graph that reaches (j+1)/k of the input.
		if i == len(gs)-1 || sum*k >= (len(chunks)+1)*total {
			chunks = append(chunks, [2]int{lo, i + 1})
			lo = i + 1
		}
	}
	return chunks
}

// paddedWords is the int32 words of the arcs of a graph of more than
// threadMaxN vertices as uploaded (fillPadded): n+1 offsets padded to 16
// bytes, then each vertex's heads in 16 bits, padded to a multiple of 8
// (16 bytes) with the vertex itself. The mid-size kernels load 8 heads at
// once; a padding head ORs v's own frontier into v, whose bits v has
// already seen, so it adds nothing.
func paddedWords(g *graph.Graph) int {
	return (g.N()+1+3)&^3 + 4*chunksOf(csr.Of(g).Off, 0, g.N())
}

// chunksOf is the 16-byte chunks of 8 heads that vertices [lo, hi) take.
func chunksOf(off []int, lo, hi int) int {
	chunks := 0
	for v := lo; v < hi; v++ {
		chunks += int(uint(off[v+1]-off[v]+7) / 8)
	}
	return chunks
}

// fillPadded writes the arcs of a graph of n vertices (arrays) as
// paddedWords lays them out, offsets counting 16-byte chunks, and returns
// the largest padded degree. Every host thread takes a part of the
// vertices: its chunks are counted, then, once each part knows where it
// starts, its offsets and heads are written.
func fillPadded(dst []int32, arrays csr.CSR, n int) int {
	off := arrays.Off
	start := (n + 1 + 3) &^ 3
	clear(dst[n+1 : start])
	arcs := off[n] - off[0]
	// Parts of about 64 Ki heads: a worker's start-up (tens of µs on the
	// H200's 16-core host, where 4 parts of 16 Ki heads took longer than
	// one part alone at n = 4096) must stay small against its share.
	grain := max(256, n*(1<<16)/max(1, arcs))
	parts := (n + grain - 1) / grain
	first := make([]int, parts+1) // chunks before each part
	degs := make([]int, parts)
	aligned := make([]bool, parts) // every degree of the part a multiple of 8
	gpu.Parallel(parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			a, b := p*grain, min(n, (p+1)*grain)
			chunks, odd := 0, 0
			for v := a; v < b; v++ { // one pass: chunks, largest degree, alignment
				d := off[v+1] - off[v]
				chunks += (d + 7) / 8
				degs[p] = max(degs[p], d)
				odd |= d & 7
			}
			first[p+1], aligned[p] = chunks, odd == 0
		}
	})
	for p := range parts {
		first[p+1] += first[p]
	}
	dst[n] = int32(first[parts])
	// dst[start:] may be empty (a graph without arcs ending the region):
	// the heads' words are taken from its data pointer, not &dst[start].
	heads := dst[start : start+4*first[parts]]
	words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(heads))), len(heads))
	gpu.Parallel(parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			at := first[p]
			a, b := p*grain, min(n, (p+1)*grain)
			if aligned[p] {
				// The padded heads are the heads: one pass.
				for v := a; v < b; v++ {
					dst[v] = int32(at)
					at += (off[v+1] - off[v]) / 8
				}
				narrow(words[4*first[p]:4*at], arrays.Heads[off[a]:off[b]])
				continue
			}
			for v := a; v < b; v++ {
				dst[v] = int32(at)
				heads := arrays.Heads[off[v]:off[v+1]]
				c := (len(heads) + 7) / 8
				to := words[4*at : 4*(at+c)]
				at += c
				narrow(to, heads)
				if len(heads)%8 != 0 {
					// The padding: v itself, from the last head on
					// (narrow left an odd count's last high half zero).
					pad := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(to))), 2*len(to))
					for k := len(heads); k < len(pad); k++ {
						pad[k] = uint16(v)
					}
				}
			}
		}
	})
	deg := 0
	for _, d := range degs {
		deg = max(deg, d)
	}
	return (deg + 7) &^ 7
}

// csrWords is the int32 words of g's arcs as uploaded: n+1 offsets, then
// the heads in 16 bits (n ≤ MaxN < 2^16), two a word, or in 32 when wide.
func csrWords(g *graph.Graph, wide bool) int {
	if wide {
		return g.N() + 1 + g.Arcs()
	}
	return g.N() + 1 + (g.Arcs()+1)/2
}

// bulkChunk is one chunk's plan and its buffers.
type bulkChunk struct {
	lo, hi      int  // graphs
	words       int  // W
	half        bool // 32-bit words
	wide        bool // 32-bit heads (half only)
	sum         bool // the summaries' kernels: sumWords words a graph out
	edits       *editSet
	editsAt     uint64  // byte offset of the edits in the input (edits)
	direct      bool    // (sum) written by the kernels into host memory
	sources     int     // of a batch of half words (sum only; 0: 32)
	split       []int32 // tasks per graph
	tasks       int
	csrAt       []int // per graph: first int32 of its arcs in the csr region
	rowAt       []int // per graph: first row (vertex) in the outputs
	rows        int
	maxDeg      []int32
	inBytes     uint64
	outBytes    uint64
	host        unsafe.Pointer // page-locked: input, then output
	dev         uint64         // device: input, then output
	groups      []bulkGroup
	anySplit    bool
	graphsAt    uint64 // byte offsets in the input
	tasksAt     uint64
	csrRegionAt uint64
}

// bulkGroup is one launch: graphs of one thread-count class and one arc
// placement.
type bulkGroup struct {
	sh               bool
	mid              int // index in midVertices, or -1: a thread a vertex
	threads, shared  int
	firstTask, count int
}

// planChunk lays out chunk [lo, hi) of gs on a GPU of sms multiprocessors
// (its buffers come later).
func planChunk(sms int, gs []*graph.Graph, lo, hi int, cfg bulkConfig) *bulkChunk {
	target := 4 * sms // blocks that keep every SM busy to the end
	ch := &bulkChunk{lo: lo, hi: hi}
	ng := hi - lo
	ch.words, ch.half = cfg.Words, cfg.Half
	large := false
	for _, g := range gs[lo:hi] {
		large = large || g.N() > threadMaxN
	}
	switch {
	case large:
		// The mid-size kernels take 32-bit words and 16-bit heads only.
		ch.words, ch.half = 1, true
	case ch.half:
		ch.words = 1
	case ch.words == 0 && ng < target:
		ch.words, ch.half = 1, true // few graphs: small batches, spread over blocks
	case ch.words == 0:
		ch.words = bulkWords
	}
	if ch.half {
		arcs := 0
		for _, g := range gs[lo:hi] {
			arcs += g.Arcs()
		}
		ch.wide = !large && (cfg.Heads == 32 || cfg.Heads == 0 && arcs <= bulkWideArcs)
	}
	if set := cfg.edits; set != nil {
		// The base's arcs and a graph's frontiers share a block's shared
		// memory: at most maxWords words.
		switch {
		case set.maxWords == 0:
			ch.words, ch.half = 1, true
		case !ch.half:
			ch.words = min(ch.words, set.maxWords)
		}
		ch.wide, ch.edits = false, set
	}
	ch.sum = cfg.sums
	ch.direct = ch.sum && !cfg.CopyOut
	if ch.sum && ch.half {
		ch.sources = cfg.Sources
	}
	ch.split = make([]int32, ng)
	ch.csrAt = make([]int, ng)
	ch.rowAt = make([]int, ng)
	ch.maxDeg = make([]int32, ng)
	words := 0
	for i, g := range gs[lo:hi] {
		n := g.N()
		batches := (n + ch.batchSize() - 1) / ch.batchSize()
		k := cfg.Split
		if k <= 0 {
			k = (target + ng - 1) / ng
		}
		k = max(1, min(k, batches))
		if n == 0 {
			k = 0
		}
		ch.split[i] = int32(k)
		ch.tasks += k
		ch.anySplit = ch.anySplit || k > 1
		if ch.edits != nil {
			// Every graph is the base's arcs, uploaded once (fillEdits).
			words = csrWords(g, false)
		} else if n > threadMaxN {
			words = (words + 3) &^ 3 // its heads are read 16 bytes at a time
			ch.csrAt[i] = words
			words += paddedWords(g)
		} else {
			ch.csrAt[i] = words
			words += csrWords(g, ch.wide)
		}
		ch.rowAt[i] = ch.rows
		ch.rows += n
	}
	ch.graphsAt = 0
	ch.tasksAt = 16 * uint64(ng)
	ch.csrRegionAt = ch.tasksAt + 16*uint64(ch.tasks)
	ch.inBytes = (ch.csrRegionAt + 4*uint64(words) + 255) &^ 255
	if ch.edits != nil {
		ch.editsAt = (ch.csrRegionAt + 4*uint64(words) + 7) &^ 7
		ch.inBytes = (ch.editsAt + 8*uint64(ch.edits.per*ng) + 255) &^ 255
	}
	ch.outBytes = 12 * uint64(ch.rows)
	if ch.sum {
		ch.outBytes = 4 * sumWords * uint64(ng)
	}
	return ch
}

// narrowGeneric is narrow in Go; a pair a store.
func narrowGeneric(dst []uint32, heads []int32) {
	pairs := len(heads) / 2
	d, h := dst[:pairs], heads[:2*pairs]
	for len(d) >= 4 {
		w, x := d[:4:4], h[:8:8]
		w[0] = uint32(uint16(x[0])) | uint32(x[1])<<16
		w[1] = uint32(uint16(x[2])) | uint32(x[3])<<16
		w[2] = uint32(uint16(x[4])) | uint32(x[5])<<16
		w[3] = uint32(uint16(x[6])) | uint32(x[7])<<16
		d, h = d[4:], h[8:]
	}
	for j := range d {
		d[j] = uint32(uint16(h[2*j])) | uint32(h[2*j+1])<<16
	}
	if len(heads)%2 == 1 {
		dst[pairs] = uint32(uint16(heads[len(heads)-1]))
	}
}

// grain is the fewest graphs a worker of fill and convert takes: about
// 2048 vertices, so that a small group is spread over the threads too (on
// one thread, a group of 64 graphs of 256 vertices took 0.7 ms on the
// H100 host) while a worker's start-up stays small against its work.
func (ch *bulkChunk) grain() int {
	return max(1, 2048*(ch.hi-ch.lo)/max(1, ch.rows))
}

// fill writes the chunk's arcs into its page-locked input, then its graph
// table and tasks, grouped into launches.
func (ch *bulkChunk) fill(gs []*graph.Graph, maxShared int, cfg bulkConfig) {
	if ch.edits != nil {
		ch.fillEdits()
		return
	}
	words := int((ch.inBytes - ch.csrRegionAt) / 4)
	region := unsafe.Slice((*int32)(unsafe.Add(ch.host, ch.csrRegionAt)), words)
	gpu.Parallel(ch.hi-ch.lo, ch.grain(), func(a, b int) {
		for i := a; i < b; i++ {
			g := gs[ch.lo+i]
			arrays := csr.Of(g)
			n := g.N()
			dst := region[ch.csrAt[i]:]
			if n > threadMaxN {
				ch.maxDeg[i] = int32(fillPadded(dst, arrays, n))
				continue
			}
			deg := 0
			off, to := arrays.Off[:n+1], dst[:n+1]
			base, prev := off[0], off[0]
			for v, o := range off {
				to[v] = int32(o - base)
				deg = max(deg, o-prev)
				prev = o
			}
			arcs := arrays.Heads[base:arrays.Off[n]]
			switch {
			case ch.wide:
				copy(dst[n+1:], arcs)
			case len(arcs) > 0:
				narrow(unsafe.Slice((*uint32)(unsafe.Pointer(&dst[n+1])), (len(arcs)+1)/2), arcs)
			}
			ch.maxDeg[i] = int32(deg)
		}
	})
	switch {
	case ch.sum:
		// Every block adds into its graph's summary; when direct, the
		// last one writes them back over these zeros (after the copy in
		// has read them: the stream orders the two).
		clear(unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), sumWords*(ch.hi-ch.lo)))
	case ch.anySplit && ch.rows > 0:
		clear(unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), 3*ch.rows))
	}
	// Group the graphs by thread class (a power of two) and arc placement.
	type key struct {
		class int
		sh    bool
	}
	ng := ch.hi - ch.lo
	ch.groups = ch.groups[:0]
	keys := make([]key, ng)
	groupOf := map[key]int{}
	var order []key
	for i, g := range gs[ch.lo:ch.hi] {
		n := g.N()
		if n == 0 {
			continue
		}
		class := 32
		for class < n {
			class <<= 1
		}
		mid, limit := -1, min(maxShared, bulkSharedMax)
		if n > threadMaxN {
			mid, limit = midIndex(n), maxShared
		}
		frontier := 2 * n * ch.wordBytes()
		table := (n*int(ch.maxDeg[i])*2 + 15) &^ 15
		sh := !cfg.NoShared && frontier+table <= limit
		keys[i] = key{class, sh}
		if _, ok := groupOf[keys[i]]; !ok {
			groupOf[keys[i]] = len(order)
			order = append(order, keys[i])
			ch.groups = append(ch.groups, bulkGroup{sh: sh, mid: mid})
		}
		gr := &ch.groups[groupOf[keys[i]]]
		gr.threads = min(threadMaxN, max(gr.threads, (n+31)&^31))
		need := frontier
		switch {
		case sh:
			need += table
		case mid >= 0 && midVertices[mid] > 4:
			need += 4 * (n + 1) // the offsets (SHOFF in kernels/bulkbfs.cu)
		}
		if ch.sum {
			need = max(need, 16) // the block's reduction writes four words there
		}
		gr.shared = max(gr.shared, need)
		gr.count += int(ch.split[i])
	}
	at := 0
	for i := range ch.groups {
		ch.groups[i].firstTask = at
		at += ch.groups[i].count
	}
	graphs := unsafe.Slice((*[4]int32)(unsafe.Add(ch.host, ch.graphsAt)), ng)
	tasks := unsafe.Slice((*[4]int32)(unsafe.Add(ch.host, ch.tasksAt)), ch.tasks)
	next := make([]int, len(ch.groups))
	for i := range ch.groups {
		next[i] = ch.groups[i].firstTask
	}
	batchSize := ch.batchSize()
	for i, g := range gs[ch.lo:ch.hi] {
		n := g.N()
		graphs[i] = [4]int32{int32(n), ch.maxDeg[i], int32(ch.csrAt[i]), int32(ch.rowAt[i])}
		if n == 0 {
			continue
		}
		gi := groupOf[keys[i]]
		batches := (n + batchSize - 1) / batchSize
		k := int(ch.split[i])
		for j := 0; j < k; j++ {
			first, last := batches*j/k, batches*(j+1)/k
			tasks[next[gi]] = [4]int32{int32(i), int32(first), int32(last - first), int32(k)}
			next[gi]++
		}
	}
}

// enqueue queues the chunk's copy in, kernels and copy out on the stream,
// between the events of slot.
func (ch *bulkChunk) enqueue(c *gpurt.Call, k *bulkKernels, st *cuda.Stream, slot int, timed bool, tm *bulkTiming) error {
	record := func(i int) error {
		if !timed {
			return nil
		}
		return c.Event(4*slot + i).RecordOn(st)
	}
	if err := record(0); err != nil {
		return err
	}
	// Blocks that share a graph add into zeroed outputs: the zeros come
	// with the input, in the same copy (fill wrote them).
	in := ch.inBytes
	if ch.anySplit || ch.sum {
		in += ch.outBytes
	}
	start := time.Now()
	if err := st.CopyToDeviceAsync(ch.dev, ch.host, in); err != nil {
		return err
	}
	tm.CopyIn += time.Since(start)
	if err := record(1); err != nil {
		return err
	}
	outD := ch.dev + ch.inBytes
	graphs, csrD := ch.dev+ch.graphsAt, ch.dev+ch.csrRegionAt
	reach, sum, ecc := outD, outD+4*uint64(ch.rows), outD+8*uint64(ch.rows)
	start = time.Now()
	for _, gr := range ch.groups {
		sh := 0
		if gr.sh {
			sh = 1
		}
		tasks := ch.dev + ch.tasksAt + 16*uint64(gr.firstTask)
		grid, block := [3]uint32{uint32(gr.count), 1, 1}, [3]uint32{uint32(gr.threads), 1, 1}
		var err error
		if ch.sum {
			f := k.sum[ch.kernelIndex()][sh]
			switch {
			case gr.mid >= 0:
				f = k.midSum[gr.mid][sh]
			case ch.wide:
				f = k.sumWide[sh]
			}
			sources := int32(ch.batchSize())
			hostOut := uint64(0)
			if ch.direct {
				// Page-locked memory is mapped at its host address on the
				// device (unified addressing, every 64-bit platform).
				hostOut = uint64(uintptr(ch.host)) + ch.inBytes
			}
			if ch.edits != nil {
				editsD, per := ch.dev+ch.editsAt, int32(ch.edits.per)
				err = k.sumEdit[ch.kernelIndex()].LaunchOn(st, grid, block, uint32(gr.shared),
					unsafe.Pointer(&tasks), unsafe.Pointer(&graphs), unsafe.Pointer(&csrD), unsafe.Pointer(&outD),
					unsafe.Pointer(&hostOut), unsafe.Pointer(&sources), unsafe.Pointer(&editsD), unsafe.Pointer(&per))
			} else {
				err = f.LaunchOn(st, grid, block, uint32(gr.shared),
					unsafe.Pointer(&tasks), unsafe.Pointer(&graphs), unsafe.Pointer(&csrD), unsafe.Pointer(&outD),
					unsafe.Pointer(&hostOut), unsafe.Pointer(&sources))
			}
		} else {
			f := k.fn[ch.kernelIndex()][sh]
			switch {
			case gr.mid >= 0:
				f = k.mid[gr.mid][sh]
			case ch.wide:
				f = k.wide[sh]
			}
			err = f.LaunchOn(st, grid, block, uint32(gr.shared),
				unsafe.Pointer(&tasks), unsafe.Pointer(&graphs), unsafe.Pointer(&csrD),
				unsafe.Pointer(&reach), unsafe.Pointer(&sum), unsafe.Pointer(&ecc))
		}
		if err != nil {
			return err
		}
	}
	tm.Launch += time.Since(start)
	if err := record(2); err != nil {
		return err
	}
	if ch.outBytes > 0 && !ch.direct {
		start = time.Now()
		if err := st.CopyToHostAsync(unsafe.Add(ch.host, ch.inBytes), outD, ch.outBytes); err != nil {
			return err
		}
		tm.CopyOut += time.Since(start)
	}
	return record(3)
}

// collect adds the slot's event timings (after a synchronisation), when
// the chunk was timed, and turns the chunk's summaries into rows.
func (ch *bulkChunk) collect(c *gpurt.Call, slot int, gs []*graph.Graph, out *bulkOut, tm *bulkTiming, timed bool) error {
	if timed {
		ev := func(i int) *cuda.Event { return c.Event(4*slot + i) }
		var errs [4]error
		var a, b, d, t float64
		a, errs[0] = ev(1).Elapsed(ev(0))
		b, errs[1] = ev(2).Elapsed(ev(1))
		d, errs[2] = ev(3).Elapsed(ev(2))
		t, errs[3] = ev(3).Elapsed(ev(0))
		if err := errors.Join(errs[:]...); err != nil {
			return err
		}
		tm.ToDevice += a
		tm.Kernel += b
		tm.ToHost += d
		tm.Device += t
	}
	tm.Chunks++
	tm.Launches += len(ch.groups)
	tm.Blocks += ch.tasks
	tm.InBytes += ch.inBytes
	tm.OutBytes += ch.outBytes
	tm.Words, tm.Half = ch.words, ch.half
	start := time.Now()
	if out.sums != nil {
		ch.summarise(gs, out.sums)
	} else {
		ch.convert(gs, out.rows)
	}
	tm.Convert += time.Since(start)
	return nil
}

// convert turns the chunk's summaries, in its page-locked output, into
// rows: each worker allocates (and so zeroes) the rows of its graphs.
func (ch *bulkChunk) convert(gs []*graph.Graph, out [][]reduce.Row) {
	if ch.rows == 0 {
		// Only empty graphs: no output region, and host+inBytes would point
		// just past the buffer (into another object, for Go memory).
		for i := range ch.hi - ch.lo {
			out[ch.lo+i] = []reduce.Row{}
		}
		return
	}
	res := unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), 3*ch.rows)
	reach, sum, ecc := res[:ch.rows], res[ch.rows:2*ch.rows], res[2*ch.rows:]
	gpu.Parallel(ch.hi-ch.lo, ch.grain(), func(lo, hi int) {
		total := 0
		for _, g := range gs[ch.lo+lo : ch.lo+hi] {
			total += g.N()
		}
		buf := make([]reduce.Row, total)
		for i := lo; i < hi; i++ {
			n, at := gs[ch.lo+i].N(), ch.rowAt[i]
			rows := buf[:n:n]
			buf = buf[n:]
			re, su, ec := reach[at:at+n], sum[at:at+n], ecc[at:at+n]
			for v := range rows {
				rv := &rows[v]
				*rv = reduce.Row{Reach: int64(re[v]), MaxI: int64(ec[v]), Unreach: int(re[v]) < n-1}
				rv.Sum.Add(int64(su[v]))
			}
			out[ch.lo+i] = rows
		}
	})
}

// summarise reduces the chunk's summaries, in its page-locked output, to
// one Summary a graph.
func (ch *bulkChunk) summarise(gs []*graph.Graph, sums []Summary) {
	if ch.rows == 0 {
		for i := ch.lo; i < ch.hi; i++ {
			sums[i] = Summary{Connected: gs[i].N() <= 1}
		}
		return
	}
	if ch.sum {
		// The device's reduction: pairs, distance sum, diameter. Every
		// vertex reaches every other exactly when the pairs are n·(n-1).
		res := unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), sumWords*(ch.hi-ch.lo))
		for i := range ch.hi - ch.lo {
			n := int64(gs[ch.lo+i].N())
			o := res[sumWords*i : sumWords*(i+1)]
			p := int64(o[0])
			sum := int64(o[4]) | int64(o[5])<<32
			sums[ch.lo+i] = Summary{Vertices: int(n), Pairs: p, Sum: sum, Diameter: int64(o[1]), Connected: p == n*(n-1)}
		}
		return
	}
	res := unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), 3*ch.rows)
	reach, sum, ecc := res[:ch.rows], res[ch.rows:2*ch.rows], res[2*ch.rows:]
	for i := range ch.hi - ch.lo {
		n, at := gs[ch.lo+i].N(), ch.rowAt[i]
		s := Summary{Vertices: n, Connected: true}
		for v := at; v < at+n; v++ {
			s.Pairs += int64(reach[v])
			s.Sum += int64(sum[v])
			s.Diameter = max(s.Diameter, int64(ecc[v]))
			s.Connected = s.Connected && int(reach[v]) == n-1
		}
		sums[ch.lo+i] = s
	}
}

// runBulk runs the chunks as a pipeline over cfg.Streams slots, a stream,
// a page-locked buffer and a device buffer each: chunk i goes to slot i
// mod S, so that its copy in overlaps the kernels of chunk i-1 on another
// stream, while the host fills chunk i+1 and converts the summaries of the
// oldest chunk in flight. Each group is delivered (deliver, in order) once
// its last chunk is converted.
func runBulk(c *gpurt.Call, k *bulkKernels, gs []*graph.Graph, groups []bulkGroupSpan, bounds [][2]int, cfg bulkConfig,
	out *bulkOut, tm *bulkTiming, deliver func(lo, hi int, rows [][]reduce.Row) error) error {
	info := c.Dev().Info
	begin := time.Now()
	chunks := make([]*bulkChunk, len(bounds))
	size := uint64(0)
	for i, b := range bounds {
		chunks[i] = planChunk(info.SMs, gs, b[0], b[1], cfg)
		size = max(size, chunks[i].inBytes+chunks[i].outBytes)
	}
	tm.Plan += time.Since(begin)
	slots := min(cfg.Streams, len(chunks))
	tm.Streams = slots
	streams := make([]*cuda.Stream, slots)
	host := make([]unsafe.Pointer, slots)
	dev := make([]uint64, slots)
	for s := range slots {
		var err error
		streams[s] = c.Stream()
		if s > 0 {
			if streams[s], err = c.SpareStream(); err != nil {
				return err
			}
		}
		if host[s], err = c.Host(size); err != nil {
			return err
		}
		if dev[s], err = c.Mem(size); err != nil {
			return err
		}
	}
	tm.Prep += time.Since(begin)
	tm.Groups = make([]groupTime, len(groups))
	unitGroup := make([]int, len(chunks))
	for gi, g := range groups {
		for u := g.first; u < g.first+g.count; u++ {
			unitGroup[u] = gi
		}
	}
	// Groups are delivered in order: a group without chunks as soon as
	// those before it are.
	next := 0
	flush := func(upTo int) error { // deliver the groups whose chunks all precede unit upTo
		for next < len(groups) && groups[next].first+groups[next].count <= upTo {
			g := groups[next]
			if g.count == 0 {
				tm.Groups[next].Submit = time.Since(begin)
			}
			tm.Groups[next].Done = time.Since(begin)
			if deliver != nil {
				// The group's rows go to deliver alone: the run lets go of
				// them, so that a stream holds only the groups in flight
				// (a group of 16 384-vertex graphs holds 1 MiB of rows a
				// graph).
				rows := slices.Clone(out.rows[g.lo:g.hi])
				clear(out.rows[g.lo:g.hi])
				if err := deliver(g.lo, g.hi, rows); err != nil {
					return err
				}
			}
			next++
		}
		return nil
	}
	// finish waits for chunk i and turns its summaries into rows.
	finish := func(i int) error {
		s := i % slots
		start := time.Now()
		if err := streams[s].Synchronize(); err != nil {
			return err
		}
		tm.Wait += time.Since(start)
		if err := chunks[i].collect(c, s, gs, out, tm, cfg.Events > 0); err != nil {
			return err
		}
		chunks[i] = nil // its plan is no longer needed
		return flush(i + 1)
	}
	for i, ch := range chunks {
		if i >= slots {
			if err := finish(i - slots); err != nil {
				return err
			}
		}
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		g := unitGroup[i]
		if i == groups[g].first {
			tm.Groups[g].Submit = time.Since(begin)
		}
		start := time.Now()
		s := i % slots
		ch.host, ch.dev = host[s], dev[s]
		ch.fill(gs, info.MaxShared, cfg)
		for _, gr := range ch.groups {
			if gr.shared > info.MaxShared {
				return fmt.Errorf("bulk search: %d bytes of shared memory per block; this GPU allows %d", gr.shared, info.MaxShared)
			}
		}
		tm.Prep += time.Since(start)
		start = time.Now()
		if err := ch.enqueue(c, k, streams[s], s, cfg.Events > 0, tm); err != nil {
			return err
		}
		tm.Enqueue += time.Since(start)
	}
	for i := max(0, len(chunks)-slots); i < len(chunks); i++ {
		if err := finish(i); err != nil {
			return err
		}
	}
	return flush(len(chunks))
}
