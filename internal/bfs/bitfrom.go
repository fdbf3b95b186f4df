package bfs

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/reduce"
)

// The bit-parallel search from chosen sources (BitRowsFrom,
// BitDistancesFrom) runs batches of up to 64·W arbitrary sources, a bit
// each, through the same levels as BitRows, but forwards: a pull reads
// a vertex's in-arcs (g's transpose, padded for the kernels) and a push
// follows g's arcs, so vertex v gains the bit of source s at level k
// exactly when d(s, v) = k. What a source's row needs is then a count
// per bit, not per vertex: each level adds the words a vertex gained
// into bit-sliced counters (fromPlanes planes of a word for each of
// the W words, and each part of a split level its own), which the
// batch's worker reads out as the level ends into each source's reach,
// sum, Σ 1/d and eccentricity. The distances (BitDistancesFrom) are
// written as the bits appear, in the sources' rows.
//
// Repeated sources are searched once. The sources are split evenly into
// the fewest batches of 64·W, W as large as words(), and W then as small
// as the largest batch allows: a batch's frontier and visited words are
// W words a vertex, and fewer of them stay in cache longer.

// fromPlanes is the planes of a column counter: the vertices a level
// finds for one source number below 2^32.
const fromPlanes = 32

// BitRowsFrom is RowsFrom by the bit-parallel search (valid ids, repeats
// allowed): Rows[i] summarises sources[i], Harm included; Hist counts
// their pairs, a repeated source's as often as it is listed.
func BitRowsFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64)) (*Summary, error) {
	return rowsFromIn(ctx, g, sources, func(k int) config { return fromConfig(threads, g.N(), k) }, progress)
}

// rowsFromIn is BitRowsFrom in the layout that layout gives for k
// distinct sources.
func rowsFromIn(ctx context.Context, g *graph.Graph, sources []int32, layout func(k int) config, progress func(float64)) (*Summary, error) {
	if err := checkSources(g, sources); err != nil {
		return nil, err
	}
	run := newFromRun(g.N(), sources)
	run.rows = make([]reduce.Row, len(run.srcs))
	hist, err := searchFrom(ctx, g, layout(len(run.srcs)), run, progress)
	if err != nil {
		return nil, err
	}
	rows := make([]reduce.Row, len(sources))
	for i, u := range run.of {
		rows[i] = run.rows[u]
	}
	return &Summary{Rows: rows, Hist: hist}, nil
}

// BitDistancesFrom is DistancesFrom by the bit-parallel search: the
// distances from sources[i] at [i·n + v], -1 where there is no path.
func BitDistancesFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64)) ([]int32, error) {
	return distancesFromIn(ctx, g, sources, func(k int) config { return fromConfig(threads, g.N(), k) }, progress)
}

// distancesFromIn is BitDistancesFrom in the layout that layout gives
// for k distinct sources.
func distancesFromIn(ctx context.Context, g *graph.Graph, sources []int32, layout func(k int) config, progress func(float64)) ([]int32, error) {
	if err := checkSources(g, sources); err != nil {
		return nil, err
	}
	n, k := g.N(), len(sources)
	if n > 0 && k > math.MaxInt/4/n {
		return nil, fmt.Errorf("distances from %d sources of %d vertices: %w", k, n, graph.ErrTooLarge)
	}
	out := make([]int32, k*n)
	for i := range out {
		out[i] = -1
	}
	run := newFromRun(n, sources)
	run.dist = out
	run.rowOf = make([]int, len(run.srcs))
	for i := len(run.of) - 1; i >= 0; i-- { // each distinct source fills the row of its first listing
		run.rowOf[run.of[i]] = i
	}
	for u, s := range run.srcs {
		out[run.rowOf[u]*n+int(s)] = 0
	}
	if _, err := searchFrom(ctx, g, layout(len(run.srcs)), run, progress); err != nil {
		return nil, err
	}
	for i, u := range run.of {
		if r := run.rowOf[u]; r != i {
			copy(out[i*n:(i+1)*n], out[r*n:(r+1)*n])
		}
	}
	return out, nil
}

// fromRun is what the workers of a search from chosen sources share.
type fromRun struct {
	n    int
	srcs []int32 // the distinct sources, in the order of the batches' bits
	mult []int64 // how often each is listed
	of   []int   // for each listed source, its index in srcs
	// The result: rows (one a distinct source), or dist (a row a listed
	// source, n each) with rowOf, the row each distinct source fills.
	rows  []reduce.Row
	dist  []int32
	rowOf []int
}

// newFromRun finds the distinct sources of a list, in increasing order.
func newFromRun(n int, sources []int32) *fromRun {
	r := &fromRun{n: n, of: make([]int, len(sources))}
	order := make([]int32, len(sources))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return int(sources[a]) - int(sources[b]) })
	for _, i := range order {
		s := sources[i]
		if len(r.srcs) == 0 || r.srcs[len(r.srcs)-1] != s {
			r.srcs = append(r.srcs, s)
			r.mult = append(r.mult, 0)
		}
		r.mult[len(r.mult)-1]++
		r.of[i] = len(r.srcs) - 1
	}
	return r
}

// fromWorker is one batch worker's state for a search from chosen
// sources: its batch's place among them, the column counters and the
// per-source totals of its batch.
type fromWorker struct {
	run         *fromRun
	base, count int      // the batch is run.srcs[base : base+count]
	cols        []uint64 // per part of a level, fromPlanes planes × w words (countColumns)
	cnt         []int64  // per bit: the vertices the level found
	reach, sum  []int64  // per bit
	harm        []float64
	ecc         []int32
	rowAt       []int // matrix mode: per bit, where its row of run.dist starts
	hist        []int64
}

func newFromWorker(run *fromRun, b *batcher) *fromWorker {
	bits := 64 * b.w
	f := &fromWorker{run: run, cols: make([]uint64, len(b.parts)*b.w*fromPlanes), hist: []int64{0}}
	if run.dist != nil {
		f.rowAt = make([]int, bits)
		return f
	}
	f.cnt = make([]int64, bits)
	f.reach, f.sum = make([]int64, bits), make([]int64, bits)
	f.harm, f.ecc = make([]float64, bits), make([]int32, bits)
	return f
}

// fromConfig is the layout of a search from k distinct sources of n
// vertices on threads threads: the fewest batches of up to 64·words()
// sources, W as small as they allow, as many separate batches at once
// as threads and memory allow, spare threads sharing the levels of a
// batch (when it has enough vertices) as defaultConfig's do.
func fromConfig(threads, n, k int) config {
	const (
		scratchBudget = 256 << 20 // as defaultConfig's
		minPart       = 256
	)
	most := words()
	t := min(par.Threads(threads), runtime.GOMAXPROCS(0))
	batches := max(1, (k+64*most-1)/(64*most))
	per := (k + batches - 1) / batches
	w := 1
	for 64*w < per {
		w *= 2
	}
	scratch := max(1, 3*8*w*n)
	outer := max(1, min(t, batches, scratchBudget/scratch))
	inner := max(1, min((t+outer-1)/outer, n/minPart))
	outer = max(1, min(outer, t/inner))
	// histOnly: no per-vertex totals (the per-source ones are the
	// fromWorker's).
	return config{words: w, outer: outer, inner: inner, histOnly: true}
}

// FromWorkBytes is the working memory a search from k distinct sources
// of g takes on threads threads besides the graph and the result: each
// worker's visited, cur and next (3·8·W bytes a vertex), lists and
// popcounts (12 bytes a vertex), and for a directed graph the padded
// transpose (8n + 4m).
func FromWorkBytes(g *graph.Graph, threads, k int) uint64 {
	n, m := uint64(g.N()), uint64(g.Arcs())
	cfg := fromConfig(threads, g.N(), k)
	need := uint64(cfg.outer) * (uint64(3*8*cfg.words+12)*n + uint64(cfg.inner*cfg.words*fromPlanes*8))
	if g.Directed() {
		need += 8*n + 4*m
	}
	return need
}

// fromArcs returns the arcs a forward search pulls along (each vertex's
// in-arcs, padded for the kernels) and pushes along (g's own), and a
// function that gives back a pooled padded copy.
func fromArcs(g *graph.Graph) (pull, push *csr.CSR, giveBack func()) {
	a := csr.Of(g)
	if !g.Directed() {
		pull, giveBack = scratches.paddedArcs(g)
		return pull, &a, giveBack
	}
	t := a.Transpose() // its heads keep csr.HeadsSlack (= prefetchPad) of zeros
	return &csr.CSR{Off: t.Off, Heads: t.Heads[:len(t.Heads)+prefetchPad]}, &a, func() {}
}

// searchFrom runs the batches of run.srcs in layout cfg and returns the
// histogram of the listed sources' pairs (summary mode).
func searchFrom(ctx context.Context, g *graph.Graph, cfg config, run *fromRun, progress func(float64)) ([]int64, error) {
	k := len(run.srcs)
	if k == 0 {
		return []int64{0}, ctx.Err()
	}
	size := 64 * cfg.words
	batches := (k + size - 1) / size
	pull, push, giveBack := fromArcs(g)
	defer giveBack()
	shared := &batchShared{g: g, t: push, csr: pull, cfg: cfg}
	shared.minDeg = minDegree(push)
	team := scratches.team(min(cfg.outer, batches))
	defer scratches.putTeam(team)
	workers, err := forEach(ctx, team, cfg.outer, batches, progress,
		func() *batcher {
			b := newBatcher(shared)
			b.from = newFromWorker(run, b)
			return b
		},
		func(b *batcher, i int) bool {
			lo, hi := i*k/batches, (i+1)*k/batches
			return b.batchFrom(ctx, lo, hi-lo)
		})
	hists := make([][]int64, len(workers))
	for i, b := range workers {
		hists[i] = b.from.hist
		b.from = nil
		b.release()
	}
	if err != nil {
		return nil, err
	}
	return mergeHists(hists), nil
}

// batchFrom runs the searches of run.srcs[base : base+count] to the end.
// It reports false if ctx was cancelled first.
func (b *batcher) batchFrom(ctx context.Context, base, count int) bool {
	f := b.from
	f.base, f.count = base, count
	srcs := f.run.srcs[base : base+count]
	b.fillVisited(0, b.n, count)
	covered, arcs := b.setList(srcs)
	b.startCounts(0, count, covered, arcs)
	if f.rowAt != nil {
		for i := range count {
			f.rowAt[i] = f.run.rowOf[base+i] * b.n
		}
	}
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
		b.levelFrom(k)
		b.endLevel(k, r)
	}
	b.finish()
	b.rowsFrom()
	return true
}

// setList is setSources for the distinct vertices srcs, source srcs[i]
// with bit i.
func (b *batcher) setList(srcs []int32) (covered, arcs int) {
	w := b.w
	list := b.curList[:cap(b.curList)]
	for i, s := range srcs {
		j, bit := int(s)*w+i>>6, uint64(1)<<(i&63)
		b.cur[j] |= bit
		b.visited[j] |= bit
		list[i] = s
		arcs += b.t.Degree(s)
	}
	if len(srcs) == 1 && allOnes(b.visited[int(srcs[0])*w:int(srcs[0])*w+w]) {
		covered = 1
	}
	return covered, arcs
}

// bookFrom is book for a search from chosen sources: it writes the
// distances (matrix mode) or adds the new words of the vertices of list
// into part p's column counters.
func (b *batcher) bookFrom(k int32, p int, list, cnts []int32) (pairs int64) {
	f, w, next := b.from, b.w, b.next
	for _, c := range cnts[:len(list)] {
		pairs += int64(c)
	}
	if f.rowAt != nil {
		dist := f.run.dist
		for _, v := range list {
			for j, x := range next[int(v)*w : int(v)*w+w] {
				for ; x != 0; x &= x - 1 {
					dist[f.rowAt[j*64+bits.TrailingZeros64(x)]+int(v)] = k
				}
			}
		}
		return pairs
	}
	countColumns(f.cols[p*w*fromPlanes:(p+1)*w*fromPlanes], next, list, w, b.cfg.noAsm)
	return pairs
}

// countColumns adds the words next[v·w+j] of the vertices v of list into
// the bit-sliced counters planes, plane q of word j at planes[q·w+j], of
// weight 2^q: bit i of word j's planes is the count of source 64j+i.
// Sixteen vertices at a time go through a tree of carry-save adders
// (Harley and Seal's popcount, a lane a source) into planes 0–3, whose
// carry of weight 16 goes through planes 4–7 without a branch and
// ripples on only past them; a word added alone ripples from plane 0.
// Rippling every word measured over three times the pull's own time on
// issue 28's graph, mostly in mispredicted loop exits; the tree in Go
// was still a third of a 1024-source search, the assembly (w = 4 and 8,
// countAsm) is much less. noAsm keeps to Go.
func countColumns(planes, next []uint64, list []int32, w int, noAsm bool) {
	i := 0
	if !noAsm {
		i = countAsm(planes, next, list, w)
	}
	for ; i+16 <= len(list); i += 16 {
		var o [16]int
		for t, v := range (*[16]int32)(list[i:]) {
			o[t] = int(v) * w
		}
		for j := range w {
			ones, twos, fours, eights := planes[j], planes[w+j], planes[2*w+j], planes[3*w+j]
			var twosA, twosB, foursA, foursB, eightsA, eightsB, sixteens uint64
			twosA, ones = csa(ones, next[o[0]+j], next[o[1]+j])
			twosB, ones = csa(ones, next[o[2]+j], next[o[3]+j])
			foursA, twos = csa(twos, twosA, twosB)
			twosA, ones = csa(ones, next[o[4]+j], next[o[5]+j])
			twosB, ones = csa(ones, next[o[6]+j], next[o[7]+j])
			foursB, twos = csa(twos, twosA, twosB)
			eightsA, fours = csa(fours, foursA, foursB)
			twosA, ones = csa(ones, next[o[8]+j], next[o[9]+j])
			twosB, ones = csa(ones, next[o[10]+j], next[o[11]+j])
			foursA, twos = csa(twos, twosA, twosB)
			twosA, ones = csa(ones, next[o[12]+j], next[o[13]+j])
			twosB, ones = csa(ones, next[o[14]+j], next[o[15]+j])
			foursB, twos = csa(twos, twosA, twosB)
			eightsB, fours = csa(fours, foursA, foursB)
			sixteens, eights = csa(eights, eightsA, eightsB)
			planes[j], planes[w+j], planes[2*w+j], planes[3*w+j] = ones, twos, fours, eights
			x := sixteens
			for q := 4; q < 8; q++ {
				p := &planes[q*w+j]
				*p, x = *p^x, *p&x
			}
			if x != 0 {
				ripple(planes, w, j, 8, x)
			}
		}
	}
	for _, v := range list[i:] {
		for j, x := range next[int(v)*w : int(v)*w+w] {
			ripple(planes, w, j, 0, x)
		}
	}
}

// csa is a carry-save adder, lane by lane: a + b + c = 2·hi + lo.
func csa(a, b, c uint64) (hi, lo uint64) {
	u := a ^ b
	return a&b | u&c, u ^ c
}

// ripple adds x at plane q of word j's counter (planes as
// countColumns'), a lane a bit.
func ripple(planes []uint64, w, j, q int, x uint64) {
	for ; x != 0 && q < fromPlanes; q++ {
		p := &planes[q*w+j]
		*p, x = *p^x, *p&x
	}
}

// levelFrom reads the column counters out as level k ends (summary mode):
// each source's vertices found at distance k.
func (b *batcher) levelFrom(k int32) {
	f := b.from
	if f.rowAt != nil {
		return
	}
	w, cnt := b.w, f.cnt
	for p := range b.parts {
		planes := f.cols[p*w*fromPlanes : (p+1)*w*fromPlanes]
		for i, x := range planes {
			if x == 0 {
				continue
			}
			planes[i] = 0
			q, j := i/w, i%w
			for ; x != 0; x &= x - 1 {
				cnt[j*64+bits.TrailingZeros64(x)] += 1 << q
			}
		}
	}
	var pairs int64
	for i, c := range cnt[:f.count] {
		if c == 0 {
			continue
		}
		cnt[i] = 0
		f.reach[i] += c
		f.sum[i] += int64(k) * c
		f.harm[i] += float64(c) / float64(k) // level by level, as Rows adds it
		f.ecc[i] = k
		pairs += c * f.run.mult[f.base+i]
	}
	if pairs > 0 {
		f.hist = grow(f.hist, int(k))
		f.hist[k] += pairs
	}
}

// rowsFrom writes the batch's rows (summary mode) and clears its totals.
func (b *batcher) rowsFrom() {
	f := b.from
	if f.rowAt != nil {
		return
	}
	for i := range f.count {
		r := reduce.Row{Reach: f.reach[i], MaxI: int64(f.ecc[i]), Harm: f.harm[i], Unreach: f.reach[i] < int64(b.n-1)}
		r.Sum.Add(f.sum[i])
		f.run.rows[f.base+i] = r
		f.reach[i], f.sum[i], f.harm[i], f.ecc[i] = 0, 0, 0, 0
	}
}
