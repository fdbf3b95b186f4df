package graph

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/apsp/apsp/internal/csr"
)

// MaxVertices is the largest vertex count a Graph can hold (ids are int32).
const MaxVertices = math.MaxInt32

// ErrTooLarge is wrapped by errors about sizes that cannot be represented or
// do not fit in memory.
var ErrTooLarge = errors.New("graph too large")

// arc is 16 bytes: w holds an int64 weight, or a float64's bits once the
// builder has seen a float weight.
type arc struct {
	u, v int32
	w    int64
}

func (a arc) float() float64 { return math.Float64frombits(uint64(a.w)) }

// Builder collects edges and builds a Graph. The zero value is not usable;
// call NewBuilder.
//
// It refuses, with an error wrapping ErrTooLarge, a vertex count or an arc
// that would make the graph, built, not fit in memory (see MemoryNeeded and
// sysmem.Bounds): it checks when the vertex count passes what was last found
// to fit and before the arc buffer grows.
//
// The arc buffer is a list of chunks: it grows by adding a chunk, never by
// copying, so that a graph read from a stream of unknown size costs no
// more time and memory than one whose size was hinted (Grow).
type Builder struct {
	directed bool
	n        int
	full     [][]arc // the chunks filled before arcs, in order
	fullLen  int     // arcs in full
	fullCap  int     // capacity of full, slack included
	arcs     []arc   // the chunk being filled
	kind     WeightKind
	negLoop  int
	fitN     int // vertices found to fit with the buffer's capacity; 0: check
	index    nameIndex
}

// NewBuilder returns a builder for a directed or undirected graph.
func NewBuilder(directed bool) *Builder {
	return &Builder{directed: directed, negLoop: -1}
}

// SetVertices makes the graph have at least n vertices.
func (b *Builder) SetVertices(n int) error {
	if n < 0 {
		return fmt.Errorf("negative vertex count %d", n)
	}
	if n > MaxVertices {
		return fmt.Errorf("%d vertices: %w (at most %d)", n, ErrTooLarge, MaxVertices)
	}
	if n > b.fitN {
		if err := b.reserve(n, 0); err != nil {
			return err
		}
	}
	b.n = max(b.n, n)
	return nil
}

// bufLen and bufCap are the arcs in the buffer and its capacity, over all
// its chunks.
func (b *Builder) bufLen() int { return b.fullLen + len(b.arcs) }
func (b *Builder) bufCap() int { return b.fullCap + cap(b.arcs) }

// addChunk makes room for size more arcs in a new chunk, once n vertices
// and the buffer with it are found to fit (see reserve). The chunk being
// filled is kept as it is: its arcs are not copied, and any room left in it
// stays unused.
func (b *Builder) addChunk(n, size int) error {
	if err := b.reserve(n, size); err != nil {
		return err
	}
	if cap(b.arcs) > 0 {
		b.full = append(b.full, b.arcs)
		b.fullLen += len(b.arcs)
		b.fullCap += cap(b.arcs)
	}
	b.arcs = make([]arc, 0, size)
	return nil
}

// Grow reserves room for m more edges, unless that much would not fit in
// memory now (the edges are then refused one by one as they come, if they
// do not fit either).
func (b *Builder) Grow(m int) {
	if !b.directed {
		m *= 2
	}
	if m <= 0 || len(b.arcs)+m <= cap(b.arcs) {
		return
	}
	// A chunk of what the present one lacks: a hint given before the
	// first arc (the readers' case) makes the buffer a single chunk.
	_ = b.addChunk(b.n, m-(cap(b.arcs)-len(b.arcs)))
}

// reserve checks that a graph of n vertices built from the buffer and a
// new chunk of extra arcs (0: none) fits in memory: MemoryNeeded(n, c),
// c the buffer's capacity with the chunk, must be within the budget, which
// credits the chunks held as far as each bound has charged them (all of
// them when mapping counts, the arcs written otherwise): they are kept, not
// copied, when the buffer grows. On success fitN becomes the vertex count
// the rest of the budget allows.
func (b *Builder) reserve(n, extra int) error {
	mapped, written := uint64(b.bufCap())*BufferArcBytes, uint64(b.bufLen())*BufferArcBytes
	k := largeAllocs
	if extra > 0 {
		k++ // the new chunk
	}
	c := b.bufCap() + extra
	budget, held, h, ok := budget(mapped, written, k)
	if !ok {
		b.fitN = MaxVertices
		return nil
	}
	weighted := b.kind != Unweighted
	need := MemoryNeeded(n, c, weighted)
	if need > budget {
		return memoryError(n, c, weighted, need, budget, held, h)
	}
	b.fitN = int(min(uint64(n)+(budget-need)/VertexBytes, MaxVertices))
	return nil
}

// weigh notes that the weights kind becomes k: the arcs then cost more, so
// the next edge checks the memory again.
func (b *Builder) weigh(k WeightKind) {
	if b.kind == Unweighted && k != Unweighted {
		b.fitN = 0
	}
	b.kind = k
}

func (b *Builder) check(u, v int) error {
	if u < 0 || v < 0 {
		return fmt.Errorf("negative vertex id in edge %d %d", u, v)
	}
	if u >= MaxVertices || v >= MaxVertices {
		return fmt.Errorf("vertex id %d: %w (ids must be below %d)", max(u, v), ErrTooLarge, MaxVertices)
	}
	n := max(b.n, u+1, v+1)
	if n > b.fitN {
		if err := b.reserve(n, 0); err != nil {
			return err
		}
	}
	if len(b.arcs)+2 > cap(b.arcs) {
		// Grow by a quarter, at least 256 arcs, as append would, but
		// check first.
		if err := b.addChunk(n, b.bufCap()/4+256); err != nil {
			return err
		}
	}
	b.n = n
	return nil
}

func (b *Builder) add(u, v int, w int64, negative bool) {
	if u == v {
		if negative && b.negLoop < 0 {
			b.negLoop = u
		}
		return
	}
	b.arcs = append(b.arcs, arc{int32(u), int32(v), w})
	if !b.directed {
		b.arcs = append(b.arcs, arc{int32(v), int32(u), w})
	}
}

// toFloat switches the stored weights to float64 bits at the first float
// weight.
func (b *Builder) toFloat() {
	if b.kind == FloatWeights {
		return
	}
	for _, c := range b.chunks() {
		for i := range c {
			x := float64(1)
			if b.kind == IntWeights {
				x = float64(c[i].w)
			}
			c[i].w = int64(math.Float64bits(x))
		}
	}
	b.weigh(FloatWeights)
}

// chunks returns the chunks of the arc buffer, in order.
func (b *Builder) chunks() [][]arc {
	return append(b.full[:len(b.full):len(b.full)], b.arcs)
}

func floatBits(x float64) int64 { return int64(math.Float64bits(x)) }

// AddEdge adds an edge of length 1.
func (b *Builder) AddEdge(u, v int) error {
	if err := b.check(u, v); err != nil {
		return err
	}
	if b.kind == FloatWeights {
		b.add(u, v, floatBits(1), false)
	} else {
		b.add(u, v, 1, false)
	}
	return nil
}

// AddIntEdge adds an edge with an integer weight.
func (b *Builder) AddIntEdge(u, v int, w int64) error {
	if err := b.check(u, v); err != nil {
		return err
	}
	switch b.kind {
	case Unweighted:
		b.weigh(IntWeights)
	case FloatWeights:
		b.add(u, v, floatBits(float64(w)), w < 0)
		return nil
	}
	b.add(u, v, w, w < 0)
	return nil
}

// AddFloatEdge adds an edge with a float weight, which must be finite.
func (b *Builder) AddFloatEdge(u, v int, w float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) {
		return fmt.Errorf("weight %v is not a finite number", w)
	}
	if err := b.check(u, v); err != nil {
		return err
	}
	b.toFloat()
	b.add(u, v, floatBits(w), w < 0)
	return nil
}

// Build groups the arcs by tail with a counting sort straight into the
// graph's arrays, sorts each vertex's arcs, deduplicates them (parallel arcs
// keep the smallest weight) and returns the graph. The builder is empty
// afterwards.
//
// At the peak it holds the buffer, the offsets, and a head and a weight for
// every buffered arc (MemoryNeeded counts them). When deduplication drops
// more than an eighth of the arcs (an undirected edge listed both ways), it
// copies the survivors into arrays of their size if they fit, so that the
// graph does not keep the slack.
func (b *Builder) Build() *Graph {
	kind, n := b.kind, b.n
	chunks, m := b.chunks(), b.bufLen()
	b.full, b.fullLen, b.fullCap, b.arcs, b.fitN = nil, 0, 0, nil, 0
	g := &Graph{n: n, directed: b.directed, kind: kind, negLoop: b.negLoop, names: b.builtNames(n)}
	off := make([]int, n+1)
	for _, c := range chunks {
		for _, a := range c {
			off[a.u+1]++
		}
	}
	for u := range n {
		off[u+1] += off[u]
	}
	// Scatter with off[u] as u's cursor, which ends where u+1's arcs begin;
	// then shift the offsets back by one vertex.
	heads := make([]int32, m, m+csr.HeadsSlack)
	var iw []int64
	var fw []float64
	switch kind {
	case Unweighted:
		for _, c := range chunks {
			for _, a := range c {
				heads[off[a.u]] = a.v
				off[a.u]++
			}
		}
	case IntWeights:
		iw = make([]int64, m)
		for _, c := range chunks {
			for _, a := range c {
				i := off[a.u]
				heads[i], iw[i] = a.v, a.w
				off[a.u] = i + 1
			}
		}
	case FloatWeights:
		fw = make([]float64, m)
		for _, c := range chunks {
			for _, a := range c {
				i := off[a.u]
				heads[i], fw[i] = a.v, a.float()
				off[a.u] = i + 1
			}
		}
	}
	chunks = nil
	copy(off[1:], off[:n])
	off[0] = 0
	g.compact(off, heads, iw, fw)
	return g
}

// compact sorts and deduplicates each vertex's arcs, grouped by tail in
// heads (and iw or fw) at the offsets off, compacting as it goes, and
// makes them g's arrays.
func (g *Graph) compact(off []int, heads []int32, iw []int64, fw []float64) {
	n := g.n
	out := 0
	var ti []pair[int64]
	var tf []pair[float64]
	for u := range n {
		lo, hi := off[u], off[u+1]
		off[u] = out
		switch g.kind {
		case Unweighted:
			out = uniqueHeads(heads, lo, hi, out)
		case IntWeights:
			out, ti = uniquePairs(heads, iw, lo, hi, out, ti)
		case FloatWeights:
			out, tf = uniquePairs(heads, fw, lo, hi, out, tf)
		}
	}
	off[n] = out
	// The copies must fit beside the component passes still to come.
	shrink := out < len(heads)-len(heads)/8 && fits(uint64(out)*(HeadBytes+WeightBytes)+uint64(n)*(VertexBytes-8))
	g.offsets, g.heads = off, trimHeads(heads, out, shrink)
	switch g.kind {
	case IntWeights:
		g.intW = trim(iw, out, shrink)
	case FloatWeights:
		g.floatW = trim(fw, out, shrink)
	}
}

// fits reports whether bytes more can be allocated now in two allocations,
// with the component passes' still to come (or the headroom is unknown);
// small sizes are not worth the look.
func fits(bytes uint64) bool {
	if bytes < 1<<20 {
		return true
	}
	b, _, _, ok := budget(0, 0, 4)
	return !ok || bytes <= b
}

// trimHeads is trim for the heads, which keep csr.HeadsSlack entries of
// capacity past their end (for the kernels that load ahead; see
// csr.HeadsSlack): the unused part of s when it is not shrunk.
func trimHeads(s []int32, n int, shrink bool) []int32 {
	if shrink {
		c := make([]int32, n, n+csr.HeadsSlack)
		copy(c, s)
		return c
	}
	return s[:n]
}

// trim returns s[:n], copied into an array of that size when shrink.
func trim[T any](s []T, n int, shrink bool) []T {
	if shrink {
		c := make([]T, n)
		copy(c, s)
		return c
	}
	return s[:n:n]
}

// uniqueHeads sorts heads[lo:hi], moves its distinct values to heads[out:]
// (out <= lo) and returns the new end.
func uniqueHeads(heads []int32, lo, hi, out int) int {
	seg := heads[lo:hi]
	if len(seg) <= 32 {
		insertionSort(seg) // most vertices: cheaper than slices.Sort's pivots
	} else {
		slices.Sort(seg)
	}
	start := out
	for _, v := range seg {
		if out > start && heads[out-1] == v {
			continue
		}
		heads[out] = v
		out++
	}
	return out
}

// insertionSort sorts a short s.
func insertionSort(s []int32) {
	for i := 1; i < len(s); i++ {
		x, j := s[i], i
		for ; j > 0 && s[j-1] > x; j-- {
			s[j] = s[j-1]
		}
		s[j] = x
	}
}

// pair is an arc of one tail while its vertex's arcs are sorted.
type pair[W int64 | float64] struct {
	v int32
	w W
}

// maxScratch bounds the pairs uniquePairs copies out to sort; a vertex of
// larger degree is sorted in place, more slowly, so that the scratch cannot
// grow with the graph.
const maxScratch = 1 << 12

// uniquePairs sorts the arcs heads[lo:hi] with weights ws[lo:hi] by head
// and then weight, moves the first (lightest) arc of each head to out
// (out <= lo) and returns the new end, and the scratch for the next call.
func uniquePairs[W int64 | float64](heads []int32, ws []W, lo, hi, out int, tmp []pair[W]) (int, []pair[W]) {
	if hi-lo <= maxScratch {
		tmp = tmp[:0]
		for i := lo; i < hi; i++ {
			tmp = append(tmp, pair[W]{heads[i], ws[i]})
		}
		slices.SortFunc(tmp, func(x, y pair[W]) int {
			if c := cmp.Compare(x.v, y.v); c != 0 {
				return c
			}
			return cmp.Compare(x.w, y.w)
		})
		for i, p := range tmp {
			if i > 0 && p.v == tmp[i-1].v {
				continue
			}
			heads[out], ws[out] = p.v, p.w
			out++
		}
		return out, tmp
	}
	sort.Sort(pairs[W]{heads[lo:hi], ws[lo:hi]})
	start := out
	for i := lo; i < hi; i++ {
		if out > start && heads[out-1] == heads[i] {
			continue
		}
		heads[out], ws[out] = heads[i], ws[i]
		out++
	}
	return out, tmp
}

// pairs sorts parallel heads and weights in place by head, then weight.
type pairs[W int64 | float64] struct {
	h []int32
	w []W
}

func (p pairs[W]) Len() int { return len(p.h) }
func (p pairs[W]) Less(i, j int) bool {
	return p.h[i] < p.h[j] || (p.h[i] == p.h[j] && cmp.Less(p.w[i], p.w[j]))
}
func (p pairs[W]) Swap(i, j int) {
	p.h[i], p.h[j] = p.h[j], p.h[i]
	p.w[i], p.w[j] = p.w[j], p.w[i]
}

// Unweighted returns a copy of g in which every arc has length 1.
func (g *Graph) Unweighted() *Graph {
	h := *g
	h.kind = Unweighted
	h.intW, h.floatW = nil, nil
	h.negLoop = -1
	return &h
}

// Transpose returns the graph with every arc reversed (g itself when
// undirected), its weights moved with the arcs. The arcs are already
// distinct, so a counting sort (package csr's, which the engines' own
// transposes use too) reverses them in order without the builder.
func (g *Graph) Transpose() *Graph {
	if !g.directed {
		return g
	}
	h := *g
	switch g.kind {
	case IntWeights:
		h.offsets, h.heads, h.intW = csr.Transpose(g.offsets, g.heads, g.intW)
	case FloatWeights:
		h.offsets, h.heads, h.floatW = csr.Transpose(g.offsets, g.heads, g.floatW)
	default:
		h.offsets, h.heads, _ = csr.Transpose[struct{}](g.offsets, g.heads, nil)
	}
	return &h
}

// The engines search a graph's own arrays (read only) through csr.Of
// rather than copying them; the arrays stay out of the public API.
func init() {
	csr.SetGraphArrays(func(x any) csr.CSR {
		g := x.(*Graph)
		return csr.CSR{Off: g.offsets, Heads: g.heads}
	})
}
