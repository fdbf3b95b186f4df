package bfs

import (
	"math/bits"
	"sync"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
)

// WholeMaxN is the largest order WholeHist searches: every source in one
// batch, three bit matrices of n·⌈n/64⌉ words (3n²/8 bytes, 384 KiB at
// n = 1024) that stay in a core's L2 cache. Larger graphs go through the
// batched search (BitHist), whose batches of 512 sources keep their
// matrices in cache instead.
const WholeMaxN = 1024

// wholeChunk is the arcs a block ORs between checks whether the vertex
// has been reached by every source of the block, once a level has many
// whole blocks.
const wholeChunk = 4

// wholeLevelFunc is one level of the whole search (wholeLevelGo is the
// reference): rows of w words in blocks of block words, chunk arcs
// between checks whether a block is whole. It returns the bits found.
type wholeLevelFunc func(vis, cur, next []uint64, off []int, heads []int32, w, block, chunk int) (pairs int64)

// WholeHist is BitHist for a small graph (n ≤ WholeMaxN) on one thread:
// one bit-parallel search of every source at once, in a kernel without
// the batched search's machinery (no vertex lists, per-vertex totals,
// pushes, prefetches or teams). Vertex v's row is W words, ⌈n/64⌉
// rounded up to a block (4 words, a YMM register, up to n = 256; 8
// words, a ZMM register, above), bit s set when source s has reached v;
// a level ORs the frontier rows of v's out-neighbours into v block by
// block, skipping the blocks v already has whole and, late in the
// search, stopping a block's arcs once it is whole, and counts the new
// bits. The search ends when every block of every vertex is whole or a
// level finds nothing. The histogram is BitHist's (Hist[0] = 0, trimmed
// to the largest distance). ok is false, and nothing is computed, when
// the graph is empty or larger than WholeMaxN, or when the CPU lacks the
// kernel's instructions (AVX-512 F and VPOPCNTDQ on amd64): BitHist is
// then the better choice.
func WholeHist(g *graph.Graph) (hist []int64, ok bool) {
	n := g.N()
	if n == 0 || n > WholeMaxN || !wholeFast {
		return nil, false
	}
	return wholeHist(csr.Of(g), wholeLevel), true
}

// wholeScratch is one search's buffers, kept between calls.
type wholeScratch struct {
	vis, cur, next []uint64
}

var wholePool sync.Pool

// wholeLayout is the row words and block words for n vertices.
func wholeLayout(n int) (w, block int) {
	w = (n + 63) / 64
	if w <= 4 {
		return 4, 4
	}
	return (w + 7) / 8 * 8, 8
}

// wholeHist runs the search over a's arcs with the level kernel level.
func wholeHist(a csr.CSR, level wholeLevelFunc) []int64 {
	n := a.N()
	w, block := wholeLayout(n)
	s, _ := wholePool.Get().(*wholeScratch)
	if s == nil {
		s = &wholeScratch{}
	}
	defer wholePool.Put(s)
	s.vis, s.cur, s.next = fit(s.vis, n*w), fit(s.cur, n*w), fit(s.next, n*w)
	vis, cur, next := s.vis, s.cur, s.next
	// Level 0: each vertex has its own bit, and every bit past source
	// n-1 is set in vis so that a block can be whole. cur and next start
	// as the identity: a frontier row may hold the bits of any earlier
	// level (v's bit s where d(v, s) < k - 1) without changing what
	// level k finds, since a vertex u next to v has those bits already;
	// so the rows of skipped blocks are never cleared, and neither
	// matrix needs more.
	clear(cur)
	for v := range n {
		cur[v*w+v/64] = 1 << (v % 64)
	}
	copy(next, cur)
	copy(vis, cur)
	padFrom := n / 64 // the first word with bits past source n-1
	var pad uint64
	if n%64 != 0 {
		pad = ^uint64(0) << (n % 64)
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
	// The search ends when every ordered pair has been found, or when a
	// level finds none.
	left := int64(n) * int64(n-1)
	hist := []int64{0}
	for left > 0 {
		// While fewer than half the pairs are found, ORing every arc
		// costs less than checking between chunks.
		chunk := wholeChunk
		if left > int64(n)*int64(n-1)/2 {
			chunk = 1 << 30
		}
		pairs := level(vis, cur, next, a.Off, a.Heads, w, block, chunk)
		if pairs == 0 {
			break
		}
		hist = append(hist, pairs)
		left -= pairs
		cur, next = next, cur
	}
	return hist
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
			if allOnes(row) {
				continue
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
