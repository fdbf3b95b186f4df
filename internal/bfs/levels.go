package bfs

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/sysmem"
)

// levelScratch is what levelSearch needs besides the arcs: a bit a vertex
// for the vertices seen (n/8 bytes: on a geometric graph of ten million
// vertices 1.25 MB, which stays in the caches where an int32 distance a
// vertex, 40 MB, does not) and two frontiers. The frontiers are n+1 long
// but a search touches only as much of them as its widest level needs.
type levelScratch struct {
	seen      []uint64
	cur, next []int32
}

// fetchAhead is how many frontier vertices ahead levelSearch asks for a
// vertex's arcs (and twice that for its offsets). On the 2-vCPU VM (AMD
// EPYC), `gen geometric n=10000000 d=6` in breadth-first order, a search
// took 470 ms without fetching ahead and 340–350 ms at 8, 16 or 32.
const fetchAhead = 16

func newLevelScratch(n int) *levelScratch {
	return &levelScratch{seen: make([]uint64, (n+63)/64), cur: make([]int32, n+1), next: make([]int32, n+1)}
}

// levelArcs are the arcs a levelSearch reads: those leaving u are
// heads[off[u]:off[u+1]], each the head's number, or with rel 1 the
// head's number less u's. The narrow form (uint32 offsets, int16
// differences: 4 bytes a vertex and 2 an arc where a graph's own arrays
// take 8 and 4) is for a graph renumbered in breadth-first order, whose
// arcs join nearby numbers: a search of a large graph waits on memory
// for each vertex's arcs, and half the bytes are fewer lines to wait for.
type levelArcs[O uint32 | int, H int16 | int32] struct {
	off   []O
	heads []H
	rel   int32
}

// wideArcs is a's arrays as they are.
func wideArcs(a *csr.CSR) *levelArcs[int, int32] {
	return &levelArcs[int, int32]{off: a.Off, heads: a.Heads}
}

// narrowArcs returns a's arcs in the narrow form, or false where they do
// not fit it (2³² arcs or more, or an arc between numbers 2¹⁵ or more
// apart) or the copy does not fit in memory.
func narrowArcs(a *csr.CSR, threads int) (*levelArcs[uint32, int16], bool) {
	n := a.N()
	if len(a.Heads) >= math.MaxUint32 {
		return nil, false
	}
	if _, _, fits := sysmem.Fits(uint64(n+1)*4+uint64(len(a.Heads))*2, 4); !fits {
		return nil, false
	}
	b := &levelArcs[uint32, int16]{off: make([]uint32, n+1), heads: make([]int16, len(a.Heads)), rel: 1}
	var far atomic.Bool // an arc between numbers 2¹⁵ or more apart
	par.Rows(n, threads, func(i int) {
		if far.Load() {
			return // refused already: the rest is not needed
		}
		u := int32(i)
		b.off[u+1] = uint32(a.Off[u+1])
		for j, v := range a.Nbrs(u) {
			d := v - u
			if d < math.MinInt16 || d > math.MaxInt16 {
				far.Store(true)
			}
			b.heads[a.Off[u]+j] = int16(d)
		}
	})
	if far.Load() {
		return nil, false
	}
	return b, true
}

// levelSearch runs a BFS from s over a that keeps no distances: it
// appends to counts the number of vertices at each distance 1, 2, … from
// s (counts[0] is s's level, 1) and returns it. A summary row needs no
// more (reach, eccentricity, sum, Σ 1/d and the histogram are sums over
// the levels), and without a distance array a search neither misses the
// caches on it nor walks the reached vertices a second time to reset it.
// sc.seen must be zero on entry and is zero on return. visit, if not
// nil, receives each level's vertices (distance d ≥ 1) as it ends.
func levelSearch[O uint32 | int, H int16 | int32](a *levelArcs[O, H], s int32, sc *levelScratch, counts []int64, visit func(d int64, vs []int32)) []int64 {
	off, heads, rel, seen := a.off, a.heads, a.rel, sc.seen
	last := len(heads) - 1
	cur, next := sc.cur, sc.next
	seen[s>>6] |= 1 << (uint32(s) & 63)
	cur[0] = s
	width := 1
	counts = append(counts, 1)
	reached := 1
	for width > 0 {
		found := 0
		// Fetch ahead: a frontier's vertices lie all over the arrays,
		// so each of them would otherwise wait for its offsets and then
		// for its arcs to come from memory. Offsets go twice as far
		// ahead as arcs, whose addresses they give.
		for i := range min(2*fetchAhead, width) {
			prefetch(unsafe.Pointer(&off[cur[i]]))
		}
		for i := range min(fetchAhead, width) {
			if b := int(off[cur[i]]); b < len(heads) {
				prefetch(unsafe.Pointer(&heads[b]))
			}
		}
		for i, u := range cur[:width] {
			if j := i + 2*fetchAhead; j < width && last >= 0 {
				// One call for both: a call costs about what a fetch
				// does. (A vertex of degree 0 at the end has its arcs
				// at len(heads): the last arc is fetched instead.)
				prefetch2(unsafe.Pointer(&off[cur[j]]), unsafe.Pointer(&heads[min(int(off[cur[j-fetchAhead]]), last)]))
			} else if j := i + fetchAhead; j < width {
				if b := int(off[cur[j]]); b < len(heads) {
					prefetch(unsafe.Pointer(&heads[b]))
				}
			}
			base := rel * u
			for _, h := range heads[off[u]:off[u+1]] {
				// Branch-free: whether v is new is as likely as not at a
				// level's edge, so a branch on it would mispredict often.
				// v is written past the frontier's end either way and kept
				// by counting it.
				v := int32(h) + base
				w := &seen[uint32(v)>>6]
				old := *w
				*w = old | 1<<(uint32(v)&63)
				next[found] = v
				found += int(^old>>(uint32(v)&63)) & 1
			}
		}
		if found > 0 {
			counts = append(counts, int64(found))
			if visit != nil {
				visit(int64(len(counts)-1), next[:found])
			}
		}
		reached += found
		cur, next, width = next, cur, found
	}
	clearSeen(a, seen, reached, s, cur)
	return counts
}

// clearSeen zeroes seen after a search that reached reached vertices
// from s: the whole bitmap when the search covered much of the graph
// (a memclr of n/8 bytes), otherwise word by word from the vertices it
// reached, found again from s (cheaper for a search of a small
// component of a large graph), with stack (n+1 long) as scratch.
func clearSeen[O uint32 | int, H int16 | int32](a *levelArcs[O, H], seen []uint64, reached int, s int32, stack []int32) {
	if reached >= len(seen)/4 {
		clear(seen)
		return
	}
	// Search again, clearing instead of setting: a vertex whose bit is
	// set was reached and its neighbours too. Each vertex is pushed
	// once, as its bit is cleared.
	stack[0] = s
	top := 1
	seen[s>>6] &^= 1 << (uint32(s) & 63)
	for top > 0 {
		top--
		u := stack[top]
		for _, h := range a.heads[a.off[u]:a.off[u+1]] {
			v := int32(h) + a.rel*u
			if w := &seen[uint32(v)>>6]; *w&(1<<(uint32(v)&63)) != 0 {
				*w &^= 1 << (uint32(v) & 63)
				stack[top] = v
				top++
			}
		}
	}
}

// levelRow folds a search's level counts (counts[0] the source) into what
// rowsFrom records: the vertices reached other than the source, the
// eccentricity over them, the sum of their distances and Σ 1/d, and adds
// each level's count to hist (grown as needed).
func levelRow(counts []int64, hist []int64) (reach, ecc int64, sum int64, harm float64, _ []int64) {
	ecc = int64(len(counts) - 1)
	hist = grow(hist, int(ecc))
	for d := 1; d < len(counts); d++ {
		c := counts[d]
		reach += c
		sum += int64(d) * c
		harm += float64(c) / float64(d)
		hist[d] += c
	}
	return reach, ecc, sum, harm, hist
}
