package bfs

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/reduce"
)

const (
	// maxWords bounds W (the padding mask lives in a fixed array).
	maxWords = 16
	// pushFactor weighs a pushed arc against a pulled one. A push does a
	// random read-modify-write of two cache lines per arc, a pull streams
	// through the vertices and only reads at random (prefetched), which
	// measures about twenty times cheaper per arc; so a level is pushed
	// only while its frontier has a small fraction of the arcs a pull scans.
	pushFactor = 32
	// exitChunk is how many arcs a pull ORs between checks whether the
	// vertex is already covered by every source of the batch, except on
	// levels where most vertices are nearly covered (batcher.chunk).
	exitChunk = 16
	// prefetchPad is how far past the last arc the kernels may read heads.
	prefetchPad = 64
)

// BitRows computes the same Summary as Rows with a bit-parallel
// multi-source BFS (see doc.go): batches of 64·W sources, one bit per
// source and vertex, one pass of word-wide ORs per level for the whole
// batch. It uses up to threads goroutines (0 means every CPU), each batch
// worker with its own O(n·W) scratch. progress, if not nil, receives the
// fraction of batches done.
func BitRows(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) (*Summary, error) {
	return runBatches(ctx, g, defaultConfig(threads, g.N()), progress, nil)
}

// config says how a batched run is laid out; BitRows and Matrix use
// defaultConfig, tests and benchmarks vary it.
type config struct {
	words int  // W, uint64 words per vertex: 64·W sources per batch
	outer int  // workers running separate batches, each with its scratch
	inner int  // workers sharing each pull level of a batch (a par.Team each)
	noAsm bool // use the Go kernels even where assembly is available
	// lockstep runs the whole search inside one Run of a team of
	// outer·inner workers (see lockstep.go): outer groups of inner
	// workers, a group's workers pulling the parts of each level of its
	// batches between two barriers. chunks > 0 splits a level into
	// inner·chunks parts handed out in turn; 0 gives worker i part i.
	lockstep bool
	chunks   int
	// firstFromArcs runs level 1 from the arcs (batcher.pullFirst).
	firstFromArcs bool
	// histOnly counts the pairs at each level and keeps no per-vertex
	// totals (BitHist): no totals to add up as each level is booked, or
	// to merge across the workers at the end.
	histOnly bool
	trace    *stepTrace // the timeline benchmark's record of a lockstep run
	// share and shares restrict the search to the sources of the
	// shareChunk-source chunks c with c mod shares == share (shares > 1):
	// one rank's part of a distributed search (BitTotals).
	share, shares int
}

// parts is how many parts a pull level is split into.
func (c config) parts() int {
	if c.lockstep && c.chunks > 0 {
		return c.inner * c.chunks
	}
	return c.inner
}

// shareChunk is the sources a chunk of a distributed search: a multiple
// of every batch size (64·W, W = 4 or 8), so that the chunks, and thus the
// ranks' shares, are the same whatever each host's W.
const shareChunk = 512

// defaultConfig gives threads separate batches while their scratch fits a
// memory budget together, and lets spare threads share the levels of a
// batch: those of a small graph, which has fewer batches than threads, and
// of a huge one, whose scratch is too large to repeat. Separate batches
// measured faster wherever they fit, also when a batch's frontier is
// larger than a core's cache, with few cores and with many
// (BenchmarkBitRowsLoopLayout; docs/perf.md, "One graph at a time, against
// ODP"). A level is split into parts of at least minPart vertices: the
// parts run on a par.Team (at the cost of its barrier), and each part
// reads frontier lines that the other parts' cores wrote at the last
// level, so small parts lose more to moving lines than they gain: at
// n = 1024, degree 16, two batches of four parts of 256 vertices beat
// eight parts of 128 (BenchmarkBitRowsLoopLayout).
func defaultConfig(threads, n int) config {
	const (
		scratchBudget = 256 << 20 // bytes of visited, cur and next the workers may hold together
		minPart       = 256       // vertices per part of a split level
		// A lockstep group has at most n/minShare workers, so that each
		// pulls about minShare vertices a level or more.
		// Its parts read lines the group's other cores wrote, as above,
		// but it meets the others at a spinning barrier rather than a
		// fork and join, and steals parts left over. At n = 1024 it makes
		// groups of five workers (205 vertices each), which beat groups of
		// four, six and eight on many cores (docs/perf.md, "How the
		// 16-core layout was chosen (sixth pass)").
		minShare = 200
	)
	w := words()
	// Workers beyond the Go processors would spin against each other (a
	// team's helpers wait by spinning): at n = 1024, 8 threads on one
	// processor were several times slower than one.
	t := min(par.Threads(threads), runtime.GOMAXPROCS(0))
	batches := max(1, (n+64*w-1)/(64*w))
	scratch := max(1, 3*8*w*n)
	most := max(1, min(t, batches, scratchBudget/scratch)) // separate batches
	if most == batches && batches < t {
		// A small graph's batches, with at least two threads each, run
		// in lockstep (lockstep.go): a group of workers a batch, all
		// groups at once (t/batches workers each, so that no group waits
		// for another's second batch), one Run a call and a barrier a level,
		// the arrays cleared in parallel, each worker stealing the parts
		// left when its own are done.
		// Level 1 comes from the arcs (pullFirst): a pull would read
		// frontier lines the group's other cores wrote.
		inner := max(1, min(t/batches, n/minShare))
		if inner > 1 {
			return config{words: w, outer: batches, inner: inner, lockstep: true, chunks: lockstepChunks, firstFromArcs: true}
		}
		// Fewer than two threads a batch (or too few vertices to split):
		// a thread a batch, nothing shared, rather than a group that
		// searches a second batch while the others wait.
		return config{words: w, outer: batches, inner: 1}
	}
	// A huge graph's shared levels keep the batch worker's team, whose
	// clearing goes by the frontier lists.
	inner := max(1, min((t+most-1)/most, n/minPart))
	outer := max(1, min(most, t/inner))
	return config{words: w, outer: outer, inner: inner}
}

// lockstepChunks is the parts a worker of a lockstep group owns on each
// level.
const lockstepChunks = 2

// Workers is how many separate batches BitRows and Matrix run at once
// with threads threads on n vertices, each holding its own scratch
// (visited, cur and next: 3·8·W bytes a vertex); the memory planner
// counts that many.
func Workers(threads, n int) int { return defaultConfig(threads, n).outer }

// BitBrief is BitRows reduced to what the summary measures need (see
// reduce.Brief): each source's eccentricity and reach, and the totals
// from the levels' pair counts. It skips the Rows, which are seven times
// its size: on small graphs in a search loop, writing and reading them was
// a fifth of a call.
func BitBrief(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) (*reduce.Brief, error) {
	return searchBrief(ctx, g, defaultConfig(threads, g.N()), progress)
}

// searchBrief is BitBrief in layout cfg.
func searchBrief(ctx context.Context, g *graph.Graph, cfg config, progress func(float64)) (*reduce.Brief, error) {
	cfg.trace.mark(0, 'S')
	m := &briefMerger{b: reduce.BriefToFill(g.N())} // mergeRange sets every entry
	if err := searchBatches(ctx, g, cfg, progress, nil, m); err != nil {
		m.b.Release()
		return nil, err
	}
	return m.b, nil
}

// BitHist is BitRows reduced to its histogram: the ordered pairs at each
// distance (index 0 unused), from which the diameter, the ASPL and
// whether every pair is connected follow, without any per-vertex total.
// On a small graph in a search loop, adding up and merging those totals
// was a noticeable share of a call (docs/perf.md, "One graph at a time,
// against ODP").
func BitHist(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) ([]int64, error) {
	return searchHist(ctx, g, defaultConfig(threads, g.N()), progress)
}

// searchHist is BitHist in layout cfg.
func searchHist(ctx context.Context, g *graph.Graph, cfg config, progress func(float64)) ([]int64, error) {
	cfg.histOnly = true
	m := &histMerger{}
	if err := searchBatches(ctx, g, cfg, progress, nil, m); err != nil {
		return nil, err
	}
	return m.hist, nil
}

// Totals are the per-vertex totals of a bit-parallel search of part of
// the sources, before they become a Brief: ranks that each searched a
// share add their Reach and Hist and take the maximum of their Ecc
// (dist.CombineBrief), as BitBrief merges its workers'.
type Totals struct {
	Reach, Ecc []int32
	Hist       []int64 // the ordered pairs at each distance
}

// BitTotals searches share's part of the sources of g, of shares parts
// (0 ≤ share < shares): the chunks of 512 sources whose index is share
// modulo shares. The parts of every share together are BitBrief's search.
func BitTotals(ctx context.Context, g *graph.Graph, threads, share, shares int) (*Totals, error) {
	if shares < 1 || share < 0 || share >= shares {
		return nil, fmt.Errorf("bfs: share %d of %d", share, shares)
	}
	n := g.N()
	t := &Totals{Reach: make([]int32, n), Ecc: make([]int32, n)}
	cfg := defaultConfig(threads, n)
	if shareChunk%(64*cfg.words) != 0 {
		// A batch would straddle two ranks' chunks.
		return nil, fmt.Errorf("bfs: batches of %d sources do not divide the shares' chunks of %d", 64*cfg.words, shareChunk)
	}
	cfg.share, cfg.shares = share, shares
	if err := searchBatches(ctx, g, cfg, nil, nil, &totalsMerger{t: t}); err != nil {
		return nil, err
	}
	return t, nil
}

// runBatches runs the batched search. With dist nil it returns the Summary;
// otherwise it writes the distance matrix into dist (length n·n) and
// returns a nil Summary.
func runBatches(ctx context.Context, g *graph.Graph, cfg config, progress func(float64), dist []int32) (*Summary, error) {
	if dist != nil {
		return nil, searchBatches(ctx, g, cfg, progress, dist, nil)
	}
	m := &rowsMerger{rows: make([]reduce.Row, g.N())}
	if err := searchBatches(ctx, g, cfg, progress, nil, m); err != nil {
		return nil, err
	}
	return &Summary{Rows: m.rows, Hist: m.hist}, nil
}

// A merger makes a run's result of its workers' per-vertex totals
// (summary mode): mergeRange a range of vertices at a time, on disjoint
// ranges concurrently, then mergeEnd once.
type merger interface {
	mergeRange(workers []*batcher, lo, hi int)
	mergeEnd(workers []*batcher)
}

// searchBatches runs the batched search and, in summary mode (dist nil),
// has m merge the workers' totals (not when the search fails). The
// workers' buffers and teams come from scratches and go back there at the
// end, so a loop of runs starts no goroutine and allocates little.
func searchBatches(ctx context.Context, g *graph.Graph, cfg config, progress func(float64), dist []int32, m merger) error {
	n := g.N()
	size := 64 * cfg.words
	batches := (n + size - 1) / size
	first := func(i int) int { return i * size }
	if cfg.shares > 1 {
		var mine []int // the first source of each batch of our share
		for f := 0; f < n; f += size {
			if (f/shareChunk)%cfg.shares == cfg.share {
				mine = append(mine, f)
			}
		}
		batches, first = len(mine), func(i int) int { return mine[i] }
		if batches == 0 {
			if m != nil {
				m.mergeRange(nil, 0, n)
				m.mergeEnd(nil)
			}
			return ctx.Err()
		}
	}
	if dist != nil {
		cfg.lockstep = false // lockstep runs only summaries (its batches write no matrix)
	}
	cfg.trace.mark(0, 's')
	defer cfg.trace.mark(0, 'z')
	// The searches run on the reversed graph (see doc.go), so a pull reads
	// g's out-arcs and a push follows the transpose's.
	arcs, giveBack := scratches.paddedArcs(g)
	defer giveBack()
	shared := &batchShared{g: g, t: transpose(g), csr: arcs, cfg: cfg, dist: dist}
	shared.minDeg = minDegree(shared.t)
	cfg.trace.mark(0, 'm')
	var (
		team    *par.Team
		workers []*batcher
		err     error
	)
	if cfg.lockstep {
		groups := max(1, min(cfg.outer, batches))
		team = scratches.team(groups * cfg.inner)
		cfg.trace.mark(0, 't')
		workers, err = runLockstep(ctx, team, shared, groups, batches, first, progress, m)
	} else {
		team = scratches.team(min(cfg.outer, batches))
		workers, err = forEach(ctx, team, cfg.outer, batches, progress, func() *batcher { return newBatcher(shared) },
			func(b *batcher, i int) bool { f := first(i); return b.batch(ctx, f, min(size, n-f)) })
	}
	defer scratches.putTeam(team)
	defer func() {
		// Each worker gives its buffers back on its own goroutine, so that
		// they go to its processor's slot of the pool and come back to it
		// on the next call, still in its core's cache, rather than to
		// whichever worker asks first (which had them cross cores on every
		// call). Worker k holds workers[k] whenever every worker started.
		// A lockstep run's buffers are spread over its groups' cores
		// whichever worker holds them, so it saves the Run.
		if team != nil && len(workers) > 1 && !cfg.lockstep {
			team.Run(func(k int) {
				if k < len(workers) {
					workers[k].release()
				}
			})
			return
		}
		for _, b := range workers {
			b.release()
		}
	}()
	if err != nil {
		return err
	}
	if m != nil {
		if !cfg.lockstep && !cfg.histOnly { // lockstep merged the ranges in its run
			onTeam(team, n, func(lo, hi int) { m.mergeRange(workers, lo, hi) })
		}
		m.mergeEnd(workers)
	}
	cfg.trace.mark(0, 'd')
	return nil
}

// rowsMerger adds up the workers' per-vertex totals into Rows.
type rowsMerger struct {
	rows []reduce.Row
	hist []int64
}

func (m *rowsMerger) mergeRange(workers []*batcher, lo, hi int) {
	n := len(m.rows)
	for v := lo; v < hi; v++ {
		var reach, sum int64
		var harm float64
		var ecc int32
		for _, b := range workers {
			a := &b.acc[v]
			reach += int64(a.reach)
			sum += a.sum
			harm += a.harm
			ecc = max(ecc, a.ecc)
		}
		r := reduce.Row{Reach: reach, MaxI: int64(ecc), Harm: harm, Unreach: reach < int64(n-1)}
		r.Sum.Add(sum)
		m.rows[v] = r
	}
}

func (m *rowsMerger) mergeEnd(workers []*batcher) { m.hist = workersHist(workers) }

// briefMerger is rowsMerger for a Brief, whose entries it sets, and the
// range of the eccentricities it finds on the way (Brief.EccKnown).
type briefMerger struct {
	b        *reduce.Brief
	mu       sync.Mutex
	min, max int64
	ranges   int // ranges merged into min and max
}

func (m *briefMerger) mergeRange(workers []*batcher, lo, hi int) {
	if lo >= hi {
		return
	}
	b := m.b
	lowest, highest := int32(math.MaxInt32), int32(0)
	for v := lo; v < hi; v++ {
		reach, ecc := reachEcc(workers, v)
		b.Reach[v], b.Ecc[v] = reach, int64(ecc)
		lowest, highest = min(lowest, ecc), max(highest, ecc)
	}
	m.mu.Lock()
	if m.ranges == 0 {
		m.min, m.max = int64(lowest), int64(highest)
	} else {
		m.min, m.max = min(m.min, int64(lowest)), max(m.max, int64(highest))
	}
	m.ranges++
	m.mu.Unlock()
}

func (m *briefMerger) mergeEnd(workers []*batcher) {
	m.b.Hist = workersHist(workers)
	m.b.Pairs, m.b.Sum = reduce.HistTotals(m.b.Hist)
	if m.ranges > 0 {
		m.b.EccKnown, m.b.EccMin, m.b.EccMax = true, m.min, m.max
	}
}

// histMerger keeps the workers' histogram alone (config.histOnly).
type histMerger struct{ hist []int64 }

func (*histMerger) mergeRange([]*batcher, int, int) {}

func (m *histMerger) mergeEnd(workers []*batcher) { m.hist = workersHist(workers) }

// totalsMerger is rowsMerger for Totals (zeroed).
type totalsMerger struct{ t *Totals }

func (m *totalsMerger) mergeRange(workers []*batcher, lo, hi int) {
	t := m.t
	for v := lo; v < hi; v++ {
		t.Reach[v], t.Ecc[v] = reachEcc(workers, v)
	}
}

// reachEcc is vertex v's reach and eccentricity over the workers' totals.
func reachEcc(workers []*batcher, v int) (reach, ecc int32) {
	for _, w := range workers {
		a := &w.acc[v]
		reach += a.reach
		ecc = max(ecc, a.ecc)
	}
	return reach, ecc
}

func (m *totalsMerger) mergeEnd(workers []*batcher) { m.t.Hist = workersHist(workers) }

// onTeam runs f over [0, n) in one range per worker of team, or in one
// piece without a team.
func onTeam(team *par.Team, n int, f func(lo, hi int)) {
	if team == nil {
		f(0, n)
		return
	}
	k := team.Size()
	team.Run(func(p int) { f(p*n/k, (p+1)*n/k) })
}

// workersHist is the workers' histograms added up.
func workersHist(workers []*batcher) []int64 {
	hists := make([][]int64, len(workers))
	for i, b := range workers {
		hists[i] = b.hist
	}
	return mergeHists(hists)
}

// batchShared is what every worker of a run reads.
type batchShared struct {
	g    *graph.Graph
	t    *csr.CSR // g's arcs reversed
	csr  *csr.CSR // g's arcs, heads padded for the kernels
	cfg  config
	dist []int32 // matrix mode when not nil
	// minDeg is the smallest degree in t: a bound on a frontier's arcs.
	minDeg int
}

// minDegree returns the smallest degree of a.
func minDegree(a *csr.CSR) int {
	n := a.N()
	if n == 0 {
		return 0
	}
	m := a.Off[1] - a.Off[0]
	for v := 1; v < n; v++ {
		m = min(m, a.Off[v+1]-a.Off[v])
	}
	return m
}

// transpose returns g's arcs reversed: g's own when it is undirected.
func transpose(g *graph.Graph) *csr.CSR {
	a := csr.Of(g)
	if !g.Directed() {
		return &a
	}
	return a.Transpose()
}

// padded returns g's arcs with the heads copied into heads (of length
// g.Arcs()+prefetchPad, its tail zero), which the kernels may read past the
// last arc; the offsets are g's own.
func padded(g *graph.Graph, heads []int32) *csr.CSR {
	a := csr.Of(g)
	copy(heads, a.Heads)
	return &csr.CSR{Off: a.Off, Heads: heads}
}

// vertexAcc is one worker's running total for a vertex's row: the
// distances from v to the sources of the worker's batches.
type vertexAcc struct {
	sum   int64
	harm  float64 // Σ count/level: the row's Σ 1/d (reduce.Row.Harm)
	reach int32
	ecc   int32
}

// partResult is what one part of a split pull level found.
type partResult struct {
	count, full int   // vertices that gained bits; of those, now covered
	pairs       int64 // (vertex, source) pairs found
}

// batcher is one worker's state for the batched search. Vertex v's words
// are [v*w, v*w+w); bit i of word j stands for source first+64j+i.
type batcher struct {
	*batchShared
	*scratch
	n, w    int
	curArcs int   // transpose arcs out of curList
	open    int   // vertices not yet covered
	left    int64 // (vertex, source) pairs of the batch not yet found, an upper bound
	chunk   int   // arcs a pull ORs between checks whether the vertex is covered
	avgDeg  float64
	split   []int        // part boundaries of a split pull level
	parts   []partResult // one per part
	inner   *par.Team    // runs the parts of a split level; nil when there is one part
	// curDirty and nextDirty say that the frontier arrays may hold words
	// left by earlier levels outside curList and nextList (see clearNext).
	curDirty, nextDirty bool
	long                atomic.Bool // matrix mode: the batch wrote a distance ≥ 256 directly (parts race to set it)
	hist                []int64     // summary mode: this worker's Hist
	first               int
	count               int
	// from is a search from chosen sources' state (bitfrom.go); nil for
	// a search of every source.
	from *fromWorker
}

func newBatcher(s *batchShared) *batcher {
	n, w := s.g.N(), s.cfg.words
	b := &batcher{batchShared: s, scratch: scratches.get(n, w, s.dist != nil, s.cfg.histOnly, s.cfg.lockstep), n: n, w: w}
	if n > 0 {
		b.avgDeg = float64(s.g.Arcs()) / float64(n)
	}
	if s.dist == nil {
		b.hist = append(b.scratch.hist[:0], 0) // grows a level at a time: kept with the buffers
	}
	// Split the vertices into parts of about equal arcs plus vertices,
	// which is what a pull costs.
	parts := max(1, min(s.cfg.parts(), n))
	b.split = fit(b.scratch.split, parts+1)
	b.parts = fit(b.scratch.parts, parts)
	b.split[0] = 0
	clear(b.parts)
	total := s.csr.Off[n] + n
	for p := 1; p <= parts; p++ {
		b.split[p] = sort.Search(n, func(v int) bool { return s.csr.Off[v]+v >= p*total/parts })
	}
	b.split[parts] = n
	if parts > 1 && !s.cfg.lockstep {
		b.inner = scratches.team(parts)
	}
	return b
}

// release returns b's buffers and team to scratches.
func (b *batcher) release() {
	b.scratch.hist, b.scratch.split, b.scratch.parts = b.hist, b.split, b.parts
	scratches.put(b.scratch)
	b.scratch = nil
	if b.inner != nil {
		scratches.putTeam(b.inner)
		b.inner = nil
	}
}

// batch runs the searches of sources first..first+count-1 to the end. It
// reports false if ctx was cancelled first.
func (b *batcher) batch(ctx context.Context, first, count int) bool {
	b.start(first, count)
	for k := int32(1); b.more(); k++ {
		if ctx.Err() != nil {
			return false
		}
		var r partResult
		if b.pushNext() {
			r = b.push(k)
		} else {
			r = b.pull(k)
		}
		b.endLevel(k, r)
	}
	b.finish()
	return true
}

// start sets b up for the searches of sources first..first+count-1: the
// sources are level 0. cur and next must be zero.
func (b *batcher) start(first, count int) {
	b.fillVisited(0, b.n, count)
	covered, arcs := b.setSources(first, count, 0, b.n)
	b.startCounts(first, count, covered, arcs)
}

// fillVisited sets visited for the vertices [lo, hi) as a batch of count
// sources starts: no source has reached them, and the bits past count
// (a short last batch) are set, as if reached, so that covered vertices
// read as all ones.
func (b *batcher) fillVisited(lo, hi, count int) {
	w := b.w
	var pad [maxWords]uint64
	short := false
	for j := range w {
		if valid := min(max(count-64*j, 0), 64); valid < 64 {
			pad[j] = ^(uint64(1)<<valid - 1)
			short = true
		}
	}
	if !short {
		clear(b.visited[lo*w : hi*w])
		return
	}
	for v := lo; v < hi; v++ {
		copy(b.visited[v*w:v*w+w], pad[:w])
	}
}

// setSources puts the batch's sources among the vertices [lo, hi) in
// the frontier, in visited (filled for the batch) and at their places in
// curList's storage. It returns how many of them that covers (a batch of
// one source, or short) and their transpose arcs.
func (b *batcher) setSources(first, count, lo, hi int) (covered, arcs int) {
	lo, hi = max(lo, first), min(hi, first+count)
	if lo >= hi {
		return 0, 0
	}
	n, w := b.n, b.w
	list := b.curList[:cap(b.curList)]
	cur, visited := b.cur[:n*w], b.visited[:n*w]
	// Source s = first+i has bit i, and the sources' arcs are one
	// difference of offsets: a lockstep group waits for its workers'
	// sources (reading each source's degree instead about doubled that
	// wait).
	for s := lo; s < hi; s++ {
		i := s - first
		j, bit := s*w+i>>6, uint64(1)<<(i&63)
		cur[j] |= bit
		visited[j] |= bit
		list[i] = int32(s)
	}
	if count == 1 && allOnes(visited[lo*w:lo*w+w]) { // else another source's bit is missing
		covered = 1
	}
	if b.dist != nil {
		for s := lo; s < hi; s++ {
			b.dist[s*n+s] = 0
		}
	}
	return covered, b.t.Off[hi] - b.t.Off[lo]
}

// startCounts is start once visited is filled and the sources are set,
// covered of them covered, arcs transpose arcs out of them: the sources
// are the frontier, and the batch's counts start.
func (b *batcher) startCounts(first, count, covered, arcs int) {
	b.first, b.count = first, count
	b.clean = false // until the batch has left its frontiers zero again
	b.open = b.n - covered
	b.left = int64(b.n-1) * int64(count)
	b.curList = b.curList[:count]
	b.nextList = b.nextList[:0] // next is zero: nothing to clear before level 1
	b.curDirty, b.nextDirty = false, false
	b.curArcs = arcs
}

// more reports whether another level can add bits: while the frontier is
// non-empty and some vertex is not yet covered.
func (b *batcher) more() bool { return len(b.curList) > 0 && b.open > 0 }

// pushNext sets the next level's chunk and reports whether it is a push
// (else a pull).
func (b *batcher) pushNext() bool {
	// Where most open vertices miss only a few sources, a vertex is
	// usually covered by its first neighbours: check after every two
	// arcs. Elsewhere a check costs more than it saves (16 measured
	// best; on the last level of n = 1024, degree 16, a vertex misses
	// 10 of 512 sources and all 16 arcs were read).
	b.chunk = exitChunk
	if b.left < int64(b.open)*int64(b.count)/8 {
		b.chunk = 2
	}
	return float64(b.curArcs)*pushFactor < float64(b.open)*b.avgDeg
}

// endLevel books level k's result r and makes its output the frontier.
func (b *batcher) endLevel(k int32, r partResult) {
	b.open -= r.full
	b.left -= r.pairs
	if b.dist == nil && r.pairs > 0 {
		b.hist = grow(b.hist, int(k))
		b.hist[k] += r.pairs
	}
	// The old frontier becomes the next level's output, uncleared
	// (see clearNext).
	b.cur, b.next = b.next, b.cur
	b.curList, b.nextList = b.nextList, b.curList
	b.curDirty, b.nextDirty = b.nextDirty, b.curDirty
	b.curArcs = b.frontierArcs()
}

// finish leaves both frontiers zero for the next batch and, in matrix
// mode, writes the batch's columns of the matrix.
func (b *batcher) finish() {
	b.clearNext()
	b.cur, b.next = b.next, b.cur
	b.curList, b.nextList = b.nextList, b.curList
	b.nextDirty = b.curDirty
	b.clearNext()
	if b.dist != nil {
		b.flush()
		b.unreached()
	}
	b.clean = true
}

// clearWords zeroes the words of a frontier array that are non-zero only
// at the vertices of list: entry by entry while list is short, in one sweep
// once it is a good part of the array (a sweep runs at memory speed, the
// entries one call each).
func clearWords(a []uint64, list []int32, w, n int) {
	switch {
	case sweepClear(list, n):
		clear(a)
	case w == 8:
		for _, u := range list {
			*(*[8]uint64)(a[int(u)*8:]) = [8]uint64{}
		}
	default:
		for _, u := range list {
			clear(a[int(u)*w : int(u)*w+w])
		}
	}
}

// sweepClear reports whether clearing a frontier array listed by list
// should sweep all of it rather than go by the list.
func sweepClear(list []int32, n int) bool { return len(list)*8 > n }

// clearNext zeroes next, which holds an earlier level's frontier. A pull
// does not need it: it overwrites the words of every vertex that gains
// bits, and the words left at the others are bits those vertices had
// already reached, which add nothing to a neighbour at the next level
// (a vertex ORs in its neighbours' words and drops the bits it has seen;
// a bit that reached u before level k−1 reaches v by level k−1). So only
// a push, which ORs into next and counts what it added, and a new batch,
// whose sources are new bits, clear it: by nextList while nothing else is
// there, in one sweep once pulls have left words elsewhere. Clearing it
// at every level was a tenth of a small graph's search, and on split
// levels it pulled every line back from the cores that wrote it.
func (b *batcher) clearNext() {
	if b.nextDirty {
		clear(b.next)
	} else {
		clearWords(b.next, b.nextList, b.w, b.n)
	}
	b.nextList = b.nextList[:0]
	b.nextDirty = false
}

// push is a top-down level: each frontier vertex ORs its words into the
// vertices it reaches in the reversed graph.
func (b *batcher) push(k int32) partResult {
	b.clearNext()
	w := b.w
	vis, cur, next := b.visited, b.cur, b.next
	list := b.nextList[:0]
	for _, u := range b.curList {
		f := cur[int(u)*w : int(u)*w+w]
		for _, v := range b.t.Nbrs(u) {
			vs := vis[int(v)*w : int(v)*w+w]
			ns := next[int(v)*w : int(v)*w+w]
			var was, add uint64
			for j := range f {
				x := f[j] &^ vs[j]
				was |= ns[j]
				ns[j] |= x
				add |= x
			}
			if was == 0 && add != 0 {
				list = append(list, v)
			}
		}
	}
	b.nextList = list
	var r partResult
	r.count = len(list)
	for i, v := range list {
		vs := vis[int(v)*w : int(v)*w+w]
		ns := next[int(v)*w : int(v)*w+w]
		c := 0
		for j := range vs {
			vs[j] |= ns[j]
			c += bits.OnesCount64(ns[j])
		}
		b.cnts[i] = int32(c)
		if allOnes(vs) {
			r.full++
		}
	}
	r.pairs = b.book(k, 0, list, b.cnts[:len(list)])
	return r
}

// pull is a bottom-up level: every vertex not yet covered ORs in its
// out-neighbours' frontier words. With several parts, each part runs on its
// own worker of the batch's inner team into its own stretch of nextList and cnts, which are then
// closed up.
func (b *batcher) pull(k int32) partResult {
	list := b.pullBegin()
	if b.inner == nil {
		for p := range b.parts {
			b.pullPart(k, p, list)
		}
	} else {
		b.inner.Run(func(p int) { b.pullPart(k, p, list) })
	}
	return b.pullEnd()
}

// pullBegin readies a pull level and returns the list its parts write
// into, each at its own stretch.
func (b *batcher) pullBegin() []int32 {
	// next keeps what it held (see clearNext), beside what this level
	// writes at the new nextList.
	b.nextDirty = b.nextDirty || len(b.nextList) > 0
	return b.nextList[:cap(b.nextList)]
}

// pullEnd closes up the parts' stretches of the list into nextList and
// returns the level's totals.
func (b *batcher) pullEnd() partResult {
	list := b.nextList[:cap(b.nextList)]
	var total partResult
	for p, r := range b.parts {
		lo := b.split[p]
		copy(list[total.count:], list[lo:lo+r.count])
		total.count += r.count
		total.full += r.full
		total.pairs += r.pairs
	}
	b.nextList = list[:total.count]
	return total
}

// pullPart runs part p of a pull level, writing into its stretch of list.
func (b *batcher) pullPart(k int32, p int, list []int32) {
	lo, hi := b.split[p], b.split[p+1]
	r := &b.parts[p]
	if k == 1 && b.cfg.firstFromArcs {
		r.count, r.full = b.pullFirst(lo, hi, list[lo:hi], b.cnts[lo:hi])
	} else {
		r.count, r.full = b.pullRange(lo, hi, list[lo:hi], b.cnts[lo:hi])
	}
	r.pairs = b.book(k, p, list[lo:lo+r.count], b.cnts[lo:lo+r.count])
}

// pullRange is the pull of the vertices [lo, hi): it updates visited and
// next, writes the vertices that gained bits to list and their popcounts to
// cnts, and returns how many it wrote and how many of them are now covered.
func (b *batcher) pullRange(lo, hi int, list, cnts []int32) (count, full int) {
	if !b.cfg.noAsm {
		if count, full, ok := pullAsm(b, lo, hi, list, cnts); ok {
			return count, full
		}
	}
	if b.w == 4 {
		return b.pullGo4(lo, hi, list, cnts)
	}
	return b.pullGo(lo, hi, list, cnts)
}

// pullFirst is pullRange at level 1 (config.firstFromArcs), whose
// frontier is the batch's sources, bit s−first at each source s: a
// vertex's new bits are its out-neighbours among them, read from its arcs
// alone, with no frontier line. That costs more instructions a vertex
// than the pull, whose lines are in the core's cache when one core
// searches the batch, and pays where the group's other cores wrote them
// (lockstep): at n = 1024, degree 16 (BitBriefLockstep), it was faster
// with workers sharing each batch and slower with a thread a batch
// (docs/perf.md, "How the 16-core layout was chosen (sixth pass)").
// Without the assembly (w = 8, AVX-512) it is the pull.
func (b *batcher) pullFirst(lo, hi int, list, cnts []int32) (count, full int) {
	if !b.cfg.noAsm {
		if count, full, ok := firstAsm(b, lo, hi, list, cnts); ok {
			return count, full
		}
	}
	return b.pullRange(lo, hi, list, cnts)
}

// frontierArcs returns the transpose arcs out of curList, which is what
// pushing it next would cost, or a lower bound when that bound already
// makes the next level a pull: on dense levels, summing the degrees of
// every vertex found was a tenth of a small graph's search.
func (b *batcher) frontierArcs() int {
	lower := len(b.curList) * b.minDeg
	if float64(lower)*pushFactor >= float64(b.open)*b.avgDeg {
		return lower
	}
	arcs := 0
	for _, v := range b.curList {
		arcs += b.t.Degree(v)
	}
	return arcs
}

// book records what the vertices of list found at level k (cnts are their
// popcounts) and returns the pairs found (in matrix mode too, where they
// only steer the chunk size). Parts of a split level call it
// concurrently on disjoint lists, part p on its own.
func (b *batcher) book(k int32, p int, list, cnts []int32) (pairs int64) {
	if b.from != nil {
		return b.bookFrom(k, p, list, cnts)
	}
	w := b.w
	if b.dist != nil {
		for i, v := range list {
			b.writeDist(int(v), k, b.next[int(v)*w:int(v)*w+w])
			pairs += int64(cnts[i])
		}
		return pairs
	}
	cnts = cnts[:len(list)]
	if b.cfg.histOnly {
		for _, c := range cnts {
			pairs += int64(c)
		}
		return pairs
	}
	acc := b.acc
	inv := 1 / float64(k)
	for i, v := range list {
		c := cnts[i]
		a := &acc[v]
		a.reach += c
		a.sum += int64(k) * int64(c)
		a.harm += float64(c) * inv
		a.ecc = max(a.ecc, k)
		pairs += int64(c)
	}
	return pairs
}

// writeDist stores distance k from v to the sources whose bits are set in
// ns. Distances below 256 go to the batch's byte buffer: a quarter of the
// size of the batch's columns of the matrix and contiguous per vertex, so
// the levels' scattered writes mostly hit cache, where straight into the
// matrix they profiled as the bulk of the run; flush copies it to the matrix
// row by row at the end. Longer distances are rare and go straight to the matrix.
func (b *batcher) writeDist(v int, k int32, ns []uint64) {
	if k < 256 {
		row := b.buf[v*64*b.w : (v+1)*64*b.w]
		for j, x := range ns {
			for ; x != 0; x &= x - 1 {
				row[j*64+bits.TrailingZeros64(x)] = uint8(k)
			}
		}
		return
	}
	b.long.Store(true)
	row := b.dist[v*b.n+b.first : v*b.n+b.first+b.count]
	for j, x := range ns {
		for ; x != 0; x &= x - 1 {
			row[j*64+bits.TrailingZeros64(x)] = k
		}
	}
}

// flush moves the byte buffer's distances into the matrix and zeroes it;
// zero marks pairs it does not hold (the diagonal, long distances, pairs not
// reached).
func (b *batcher) flush() {
	size := 64 * b.w
	long := b.long.Load()
	for v := range b.n {
		bs := b.buf[v*size : v*size+b.count]
		row := b.dist[v*b.n+b.first : v*b.n+b.first+b.count]
		row = row[:len(bs)]
		if long {
			for i, x := range bs {
				if x != 0 {
					row[i] = int32(x)
				}
			}
			continue
		}
		// Without long distances a zero is the diagonal or an unreached
		// pair (unreached overwrites those), so copy without a branch.
		for i, x := range bs {
			row[i] = int32(x)
		}
	}
	clear(b.buf)
	b.long.Store(false)
}

// unreached writes -1 for every pair of the batch that no level reached.
func (b *batcher) unreached() {
	w := b.w
	for v := range b.n {
		vs := b.visited[v*w : v*w+w]
		if allOnes(vs) {
			continue
		}
		row := b.dist[v*b.n+b.first : v*b.n+b.first+b.count]
		for j, x := range vs {
			for x = ^x; x != 0; x &= x - 1 {
				row[j*64+bits.TrailingZeros64(x)] = -1
			}
		}
	}
}

// pullGo is the portable pull for any w.
func (b *batcher) pullGo(lo, hi int, list, cnts []int32) (count, full int) {
	w := b.w
	vis, cur, next := b.visited, b.cur, b.next
	off, heads := b.csr.Off, b.csr.Heads
	var acc [maxWords]uint64
	for v := lo; v < hi; v++ {
		vs := vis[v*w : v*w+w]
		if allOnes(vs) {
			continue
		}
		a := acc[:w]
		clear(a)
		nb := heads[off[v]:off[v+1]]
		for len(nb) > 0 {
			chunk := nb[:min(len(nb), b.chunk)]
			nb = nb[len(chunk):]
			for _, u := range chunk {
				f := cur[int(u)*w : int(u)*w+w]
				for j := range a {
					a[j] |= f[j]
				}
			}
			if len(nb) > 0 && covered(a, vs) {
				break
			}
		}
		var add uint64
		for j := range a {
			a[j] &^= vs[j]
			add |= a[j]
		}
		if add == 0 {
			continue
		}
		ns := next[v*w : v*w+w]
		c := 0
		for j := range a {
			ns[j] = a[j]
			vs[j] |= a[j]
			c += bits.OnesCount64(a[j])
		}
		if allOnes(vs) {
			full++
		}
		list[count] = int32(v)
		cnts[count] = int32(c)
		count++
	}
	return count, full
}

// pullGo4 is the portable pull for w = 4 with the words in variables. It
// reloads v's visited words after the arc loop rather than keeping them
// live, which keeps the compiler from spilling the accumulators.
func (b *batcher) pullGo4(lo, hi int, list, cnts []int32) (count, full int) {
	const ones = ^uint64(0)
	vis, cur, next := b.visited, b.cur, b.next
	off, heads := b.csr.Off, b.csr.Heads
	for v := lo; v < hi; v++ {
		vs := vis[v*4 : v*4+4 : v*4+4]
		if vs[0]&vs[1]&vs[2]&vs[3] == ones {
			continue
		}
		var a0, a1, a2, a3 uint64
		nb := heads[off[v]:off[v+1]]
		for len(nb) > 0 {
			chunk := nb[:min(len(nb), b.chunk)]
			nb = nb[len(chunk):]
			for _, u := range chunk {
				f := cur[int(u)*4 : int(u)*4+4 : int(u)*4+4]
				a0 |= f[0]
				a1 |= f[1]
				a2 |= f[2]
				a3 |= f[3]
			}
			if len(nb) > 0 && (a0|vs[0])&(a1|vs[1])&(a2|vs[2])&(a3|vs[3]) == ones {
				break
			}
		}
		a0 &^= vs[0]
		a1 &^= vs[1]
		a2 &^= vs[2]
		a3 &^= vs[3]
		if a0|a1|a2|a3 == 0 {
			continue
		}
		ns := next[v*4 : v*4+4 : v*4+4]
		ns[0], ns[1], ns[2], ns[3] = a0, a1, a2, a3
		vs[0] |= a0
		vs[1] |= a1
		vs[2] |= a2
		vs[3] |= a3
		if vs[0]&vs[1]&vs[2]&vs[3] == ones {
			full++
		}
		list[count] = int32(v)
		cnts[count] = int32(bits.OnesCount64(a0) + bits.OnesCount64(a1) + bits.OnesCount64(a2) + bits.OnesCount64(a3))
		count++
	}
	return count, full
}

func allOnes(ws []uint64) bool {
	x := ^uint64(0)
	for _, y := range ws {
		x &= y
	}
	return x == ^uint64(0)
}

// covered reports whether a | vs is all ones: every source has reached the
// vertex or reaches it at this level, so no further arc can add anything.
func covered(a, vs []uint64) bool {
	x := ^uint64(0)
	for j := range a {
		x &= a[j] | vs[j]
	}
	return x == ^uint64(0)
}
