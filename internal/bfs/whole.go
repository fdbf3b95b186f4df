package bfs

import (
	"math/bits"
	"sync"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
)

// WholeMaxN is the largest order WholeHist searches in one batch of
// every source: three bit matrices of n·⌈n/64⌉ words (3n²/8 bytes, 384
// KiB at n = 1024) that stay in a core's L2 cache. Larger graphs go in
// batches of wholeBatch sources, whose matrices stay in cache instead.
const WholeMaxN = 1024

// wholeBatch is the sources of a batch of a graph larger than WholeMaxN:
// one ZMM block a row, 3·64 bytes a vertex (768 KiB at n = 4096).
const wholeBatch = 512

// WholeMaxLevels is the most levels a batch of a graph larger than
// WholeMaxN may take before WholeHist gives up on it (ok false): every
// level ORs every arc of a vertex not yet whole, which a graph of long
// paths makes far dearer than the batched search's pushes of small
// frontiers. Up to WholeMaxN the levels are bounded by n anyway.
const WholeMaxLevels = 64

// wholeChunk is the arcs a block ORs between checks whether the vertex
// has been reached by every source of the block, once half the batch's
// pairs are found (before, the checks cost more than they save).
const wholeChunk = 4

// wholeAll is the chunk of a level that ORs every arc (no checks).
const wholeAll = 1 << 30

// wholeLevelFunc is one level of the whole search (wholeLevelGo is the
// reference): rows of w words in blocks of block words, chunk arcs
// between checks whether a block is whole. It returns the bits found.
type wholeLevelFunc func(vis, cur, next []uint64, off []int, heads []int32, w, block, chunk int) (pairs int64)

// WholeHist is BitHist on one thread, by a leaner kernel: a bit-parallel
// search of every source at once when n ≤ WholeMaxN, of batches of
// wholeBatch sources otherwise, without the batched search's machinery
// (no vertex lists, per-vertex totals, pushes, prefetches or teams).
// Vertex v's row is W words (the batch's sources over 64, rounded up to
// a block: 4 words, a YMM register, up to 256 sources; 8 words, a ZMM
// register, above), bit s set when source s has reached v; a level ORs
// the frontier rows of v's out-neighbours into v block by block,
// skipping the blocks v already has whole and, late in the search,
// stopping a block's arcs once it is whole, and counts the new bits. A
// batch ends when every pair of it is found or a level finds nothing.
// The histogram is BitHist's (Hist[0] = 0, trimmed to the largest
// distance). ok is false, and nothing is returned, when the graph is
// empty, when a batch of a graph larger than WholeMaxN takes more than
// WholeMaxLevels levels, or when the CPU lacks the kernel's instructions
// (AVX-512 F and VPOPCNTDQ, BMI2 on amd64): BitHist is then the better
// choice.
func WholeHist(g *graph.Graph) (hist []int64, ok bool) {
	n := g.N()
	if n == 0 || !wholeFast {
		return nil, false
	}
	return wholeOf(g, nil)
}

// WholeHistTo is WholeHistOn over the pairs to the chosen targets alone
// (a target listed twice counts twice): the histogram of the ordered
// pairs (v, t), v not t, at each distance d(v, t), Hist[0] = 0 and
// trimmed to the largest. (A vertex's bits are the targets it reaches:
// for the pairs from chosen sources, search the reversed graph.) Its
// cost is about the targets' share of every vertex's. ok is false where
// WholeHistOn's would be, or when there are no targets.
func WholeHistTo(g *graph.Graph, targets []int32, threads int) (hist []int64, ok bool) {
	n := g.N()
	if len(targets) == 0 || n == 0 || !wholeFast || n > WholeMaxN && (threads != 1 || n > WholeOneThreadMaxN) {
		return nil, false
	}
	return wholeOf(g, targets)
}

// wholeOf is the whole search of g to targets (nil: every vertex): one
// batch of every source up to WholeMaxN vertices, batches of wholeBatch
// of at most WholeMaxLevels levels above.
func wholeOf(g *graph.Graph, targets []int32) (hist []int64, ok bool) {
	n := g.N()
	maxLevels, size := n, n
	if n > WholeMaxN {
		maxLevels, size = WholeMaxLevels, wholeBatch
	}
	return wholeHist(csr.Of(g), wholeLevel, size, maxLevels, targets)
}

// WholeOneThreadMaxN is the largest order for which WholeHistOn takes a
// graph larger than WholeMaxN, on one thread: on the 2-vCPU VM one
// thread's whole search took 1.3 ms at (4096, 8) against BitHist's 2.0,
// and was level with it at (16384, 8) (BenchmarkWholeHist).
const WholeOneThreadMaxN = 8192

// WholeHistOn is WholeHist where it beats BitHist on threads threads:
// up to WholeMaxN vertices on any number (the batched search of so
// small a graph gains nothing from more threads), up to
// WholeOneThreadMaxN on one thread; ok is false elsewhere.
func WholeHistOn(g *graph.Graph, threads int) (hist []int64, ok bool) {
	if n := g.N(); n > WholeMaxN && (threads != 1 || n > WholeOneThreadMaxN) {
		return nil, false
	}
	return WholeHist(g)
}

// wholeScratch is one search's buffers, kept between calls.
type wholeScratch struct {
	vis, cur, next []uint64
}

var wholePool sync.Pool

// wholeLayout is the row words and block words for a batch of k
// sources.
func wholeLayout(k int) (w, block int) {
	w = (k + 63) / 64
	if w <= 4 {
		return 4, 4
	}
	return (w + 7) / 8 * 8, 8
}

// wholeHist runs the search over a's arcs with the level kernel level,
// to sources (nil: every vertex; a bit of vertex v says v reaches the
// source) in batches of size sources; it gives
// up (ok false) when a batch takes more than maxLevels levels.
func wholeHist(a csr.CSR, level wholeLevelFunc, size, maxLevels int, sources []int32) (hist []int64, ok bool) {
	n := a.N()
	count := len(sources)
	if sources == nil {
		count = n
	}
	s, _ := wholePool.Get().(*wholeScratch)
	if s == nil {
		s = &wholeScratch{}
	}
	defer wholePool.Put(s)
	hist = make([]int64, 1, 16) // Hist[0] = 0, room for the levels of a small-world graph
	var batch []int32
	for first := 0; first < count; first += size {
		k := min(size, count-first)
		if sources == nil {
			batch = batch[:0]
			for v := range k {
				batch = append(batch, int32(first+v))
			}
		} else {
			batch = sources[first : first+k]
		}
		w, block := wholeLayout(k)
		s.vis, s.cur, s.next = fit(s.vis, n*w), fit(s.cur, n*w), fit(s.next, n*w)
		if !wholeBatchHist(a, level, s, batch, w, block, maxLevels, &hist) {
			return nil, false
		}
	}
	return hist, true
}

// wholeBatchHist searches the sources of batch (bit i for batch[i])
// with rows of w words in blocks of block, adding the pairs each level
// finds to hist.
func wholeBatchHist(a csr.CSR, level wholeLevelFunc, s *wholeScratch, batch []int32, w, block, maxLevels int, hist *[]int64) bool {
	n, k := a.N(), len(batch)
	vis, cur, next := s.vis, s.cur, s.next
	// Level 0: each source has its own bit, and every bit past the
	// batch's last source is set in vis so that a block can be whole.
	// cur starts as the identity. A frontier row may hold the bits of
	// any earlier level (v's bit s where d(v, s) < l - 1) without
	// changing what level l finds, since a vertex u next to v has those
	// bits already: so the rows of blocks skipped once whole are never
	// cleared, and next needs no clearing either, since level 1 (which
	// checks nothing, left being all) writes every block of it.
	clear(cur)
	for i, src := range batch {
		cur[int(src)*w+i/64] |= 1 << (i % 64)
	}
	copy(vis, cur)
	padFrom := k / 64 // the first word with bits past the last source
	var pad uint64
	if k%64 != 0 {
		pad = ^uint64(0) << (k % 64)
	}
	if padFrom < w {
		for v := range n {
			row := vis[v*w : v*w+w]
			i := padFrom
			if pad != 0 {
				row[i] |= pad
				i++
			}
			for ; i < w; i++ {
				row[i] = ^uint64(0)
			}
		}
	}
	// The batch ends when every pair (v, source) with v not the source
	// has been found, or when a level finds none.
	all := int64(n-1) * int64(k)
	left := all
	for l := 1; left > 0; l++ {
		if l > maxLevels {
			return false
		}
		// While fewer than half the pairs are found, ORing every arc
		// costs less than checking between chunks.
		chunk := wholeChunk
		if left > all/2 {
			chunk = wholeAll
		}
		pairs := level(vis, cur, next, a.Off, a.Heads, w, block, chunk)
		if pairs == 0 {
			break
		}
		*hist = grow(*hist, l)
		(*hist)[l] += pairs
		left -= pairs
		cur, next = next, cur
	}
	return true
}

// wholeLevelGo is one level of the whole search in Go, the kernels'
// reference: for each vertex v and block b that v does not have whole,
// OR the block of v's out-neighbours' frontier rows (cur), in chunks of
// chunk arcs with a check between chunks, keep the bits v did not have,
// write them to next and add them to vis. It returns the bits found.
func wholeLevelGo(vis, cur, next []uint64, off []int, heads []int32, w, block, chunk int) (pairs int64) {
	n := len(off) - 1
	acc := make([]uint64, block)
	for v := range n {
		arcs := heads[off[v]:off[v+1]]
		for b := 0; b < w; b += block {
			row := vis[v*w+b : v*w+b+block]
			if chunk < wholeAll && allOnes(row) {
				continue // a level of every arc writes every block, as the kernels do
			}
			clear(acc)
			for i, u := range arcs {
				src := cur[int(u)*w+b : int(u)*w+b+block]
				for j := range acc {
					acc[j] |= src[j]
				}
				if (i+1)%chunk == 0 && i+1 < len(arcs) {
					all := true
					for j := range acc {
						all = all && acc[j]|row[j] == ^uint64(0)
					}
					if all {
						break
					}
				}
			}
			out := next[v*w+b : v*w+b+block]
			for j := range acc {
				nw := acc[j] &^ row[j]
				out[j] = nw
				row[j] |= nw
				pairs += int64(bits.OnesCount64(nw))
			}
		}
	}
	return pairs
}
