package graph

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apsp/apsp/internal/sysmem"
)

// The memory a graph costs, counted from the allocations of Builder.Build,
// Graph, WeakComponents and StrongComponents, is what reading it and
// running `apsp info` on it need at the peak. Commands that do more (the
// all-pairs engines, the diameter bounds) check their own working memory
// before they allocate it, once the graph is read.
const (
	// VertexBytes is the budget of one vertex:
	//
	//	 8  Graph.offsets: one int per vertex (Build uses it as its own
	//	    cursor, with no second array)
	//	 4  WeakComponents: a union-find parent (int32), counted as still
	//	    held while StrongComponents runs
	//	20  StrongComponents: Tarjan's index and low (int32 each), its
	//	    stack of vertices (int32) and its depth-first call stack (a
	//	    vertex and an arc position, int32 each), all allocated at
	//	    their largest, n, up front
	VertexBytes = 8 + 4 + 20

	// BufferArcBytes is the Builder's buffer: tail and head (int32 each)
	// and the weight bits (int64) of every arc added, duplicates and both
	// directions of an undirected edge included.
	BufferArcBytes = 16

	// HeadBytes and WeightBytes are the Graph's own per arc: the head
	// (int32) and, unless the graph is unweighted, the weight (int64 or
	// float64). Build allocates them for every buffered arc while the
	// buffer is still held, so the peak of reading is BufferArcBytes plus
	// these per buffered arc: 28 bytes (20 unweighted).
	HeadBytes   = 4
	WeightBytes = 8
)

// BufferArcBytes must be the size of arc.
var (
	_ [BufferArcBytes - unsafe.Sizeof(arc{})]struct{}
	_ [unsafe.Sizeof(arc{}) - BufferArcBytes]struct{}
)

// arcBytes is the peak cost of one buffered arc: the buffer entry and the
// CSR slot Build fills from it.
func arcBytes(weighted bool) uint64 {
	if weighted {
		return BufferArcBytes + HeadBytes + WeightBytes
	}
	return BufferArcBytes + HeadBytes
}

// MemoryNeeded returns the peak bytes of building a graph of n vertices
// from arcs buffered arcs (an undirected edge is two) and finding its
// components: n·VertexBytes plus 28 bytes an arc, 20 when unweighted.
func MemoryNeeded(n, arcs int, weighted bool) uint64 {
	return uint64(max(n, 0))*VertexBytes + uint64(max(arcs, 0))*arcBytes(weighted)
}

// usable is the part of a headroom that a graph may take: 15/16 of it,
// leaving the rest for the Go runtime's own structures and the garbage of
// the reader.
func usable(avail uint64) uint64 { return avail - avail/16 }

// largeAllocs is how many large allocations building a graph and finding
// its components make besides the Builder's buffer: the offsets, heads and
// weights, the union-find parents and Tarjan's arrays (one slab). Under a
// bound that reserves the Go heap's arenas (ulimit -v) they may cost more
// than their size: see sysmem.Headroom.Slack.
const largeAllocs = 5

// budget returns the bytes a graph may take in all: the least over the
// bounds of sysmem.Bounds of held, what the graph holds already and the
// bound has charged (mapped bytes for an address-space bound, written ones
// for the others), plus the most that k large allocations may take of
// usable(headroom) with their arena slack (sysmem.Headroom.Most); and the
// bound that sets it. ok is false when no bound is known.
func budget(mapped, written uint64, k int) (b, held uint64, h sysmem.Headroom, ok bool) {
	for _, x := range sysmem.Bounds() {
		hx := written
		if x.Mapped {
			hx = mapped
		}
		if v := graphBytes(x, k) + hx; !ok || v < b {
			b, held, h, ok = v, hx, x, true
		}
	}
	return b, held, h, ok
}

// graphBytes returns the most that k large allocations may take of
// usable(h.Bytes) with their arena slack.
func graphBytes(h sysmem.Headroom, k int) uint64 {
	h.Bytes = usable(h.Bytes)
	return h.Most(k)
}

// vertexLimit returns the most vertices a graph read now may have: at most
// MaxVertices, and when the headroom for allocation is known (see
// sysmem.Bounds), as many as fit in the budget at VertexBytes each.
// Build allocates the offsets before anything else, so a header or an id
// that claims a huge n would otherwise exhaust memory with a tiny file; the
// Builder checks the arcs (and n again) as they come.
func vertexLimit() int {
	maxN := MaxVertices
	if b, _, _, ok := budget(0, 0, largeAllocs+1); ok {
		maxN = int(min(b/VertexBytes, uint64(maxN)))
	}
	return maxN
}

// tooMany refuses what, a vertex count or id beyond maxN (see
// vertexLimit) that needs n vertices (0 when not known; for a 0-based id V,
// V+1): below MaxVertices the limit is memory, and the error gives the bytes
// needed and available.
func tooMany(what string, n uint64, maxN int) error {
	var b uint64
	var h sysmem.Headroom
	if maxN < MaxVertices {
		b, _, h, _ = budget(0, 0, largeAllocs+1)
	}
	return vertexError(what, n, maxN, b, h)
}

// vertexError is the error of tooMany, with b bytes of the headroom h
// available to the graph.
func vertexError(what string, n uint64, maxN int, b uint64, h sysmem.Headroom) error {
	switch {
	case maxN >= MaxVertices:
		return fmt.Errorf("%s: %w (at most %d vertices)", what, ErrTooLarge, MaxVertices)
	case n == 0:
		return fmt.Errorf("%s: %w: only %s: at most %d vertices fit (%d bytes a vertex)",
			what, ErrTooLarge, availability(b, h), maxN, VertexBytes)
	}
	return fmt.Errorf("%s: %w: %s %s (%d bytes a vertex) but only %s: at most %d vertices fit",
		what, ErrTooLarge, verticesNeed(n), fmtBytes(mulSat(n, VertexBytes)), VertexBytes, availability(b, h), maxN)
}

// verticesNeed returns "1 vertex needs" or "N vertices need".
func verticesNeed(n uint64) string {
	if n == 1 {
		return "1 vertex needs"
	}
	return fmt.Sprintf("%d vertices need", n)
}

// mulSat returns a·b, saturated at the largest uint64.
func mulSat(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// availability says that b bytes of the headroom h are available to a
// graph: 15/16 of it, less the slack of the Go heap's arenas where the
// bound charges them.
func availability(b uint64, h sysmem.Headroom) string {
	if slack := usable(h.Bytes) - min(b, usable(h.Bytes)); slack > 0 && h.Arena > 0 {
		return fmt.Sprintf("%s is available (15/16 of %s, the headroom under %s, less %s for the Go heap's %s arenas)",
			fmtBytes(b), fmtBytes(h.Bytes), h.Source, fmtBytes(slack), fmtBytes(h.Arena))
	}
	return fmt.Sprintf("%s is available (15/16 of %s, the headroom under %s)", fmtBytes(b), fmtBytes(h.Bytes), h.Source)
}

// memoryError refuses n vertices with a buffer of c arcs that need more
// than budget, of which held is the buffer already held and the rest comes
// from the headroom h.
func memoryError(n, c int, weighted bool, need, budget, held uint64, h sysmem.Headroom) error {
	avail := availability(budget-held, h)
	if held > 0 {
		avail = fmt.Sprintf("%s fits: %s held by the buffer and %s", fmtBytes(budget), fmtBytes(held), avail)
	}
	return fmt.Errorf("%d vertices and a buffer of %d arcs: %w: they need %s (%d bytes a vertex, %d an arc) but only %s",
		n, c, ErrTooLarge, fmtBytes(need), VertexBytes, arcBytes(weighted), avail)
}

// fmtBytes prints b in binary units: "512 B", "1.5 GiB".
func fmtBytes(b uint64) string { return sysmem.FormatBytes(b) }

// HeldVertexBytes is what a graph, once read, keeps of each vertex: its
// offset (an int). The rest of VertexBytes is the reading's and the
// component passes', given back before a command's work begins.
const HeldVertexBytes = 8

// Work is the memory a computation needs besides the graph it runs on, as
// a function of the vertex count: what a reader checks a declared size
// against (ReadOptions.Then) before it allocates anything proportional to
// it. A caller that does not know its engine in advance gives the least
// any engine it may run needs, so that no graph that would fit is refused.
type Work struct {
	Name        string // what needs it, for messages: "stats", "dist"
	VertexBytes uint64 // bytes a vertex (summaries, per-vertex arrays)
	PairBytes   uint64 // bytes an ordered pair of vertices (a distance matrix)
}

// IsZero reports whether w needs nothing: reading alone is checked.
func (w Work) IsZero() bool { return w.VertexBytes == 0 && w.PairBytes == 0 }

// Bytes returns what a graph of n vertices holds once read (its offsets,
// HeldVertexBytes a vertex) and w needs besides, saturated at the largest
// uint64. The arcs are left out: a size line's arc count is only a claim
// until the arcs are read, and the Builder checks them as they come.
func (w Work) Bytes(n uint64) uint64 {
	b := mulSat(n, HeldVertexBytes+w.VertexBytes)
	return addSat(b, mulSat(mulSat(n, n), w.PairBytes))
}

// addSat returns a+b, saturated at the largest uint64.
func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// workAllocs is how many large allocations the check of a Work counts on
// (sysmem.Headroom.Most): the graph's offsets and the work's own. Few, so
// that the check stays below what the engines' admission allows and
// refuses only what that admission would.
const workAllocs = 2

// maxFor returns the most vertices whose Bytes fit in avail bytes, at most
// MaxVertices.
func (w Work) maxFor(avail uint64) int {
	a, b := float64(w.PairBytes), float64(HeldVertexBytes+w.VertexBytes)
	var x float64
	if a == 0 {
		x = float64(avail) / b
	} else {
		x = (math.Sqrt(b*b+4*a*float64(avail)) - b) / (2 * a)
	}
	n := uint64(min(x, MaxVertices))
	// Float rounding: settle on the exact boundary.
	for n > 0 && w.Bytes(n) > avail {
		n--
	}
	for n < MaxVertices && w.Bytes(n+1) <= avail {
		n++
	}
	return int(n)
}

// limit is how many vertices a read may declare or name: read, what
// reading the graph fits (vertexLimit), and work, what fits with the work
// that follows (Work.maxFor of the headroom h leaves, avail), MaxVertices
// when there is none or no bound is known.
type limit struct {
	read  int
	work  int
	w     Work
	avail uint64
	h     sysmem.Headroom
}

// newLimit returns the limit of a read now that is followed by w.
func newLimit(w Work) limit {
	l := limit{read: vertexLimit(), work: MaxVertices, w: w}
	if w.IsZero() {
		return l
	}
	h, avail, ok := sysmem.LowestFor(workAllocs)
	if !ok {
		return l
	}
	l.work, l.avail, l.h = w.maxFor(avail), avail, h
	return l
}

// max returns the most vertices a read may declare or name.
func (l limit) max() int { return min(l.read, l.work) }

// refuse refuses what, a vertex count or id beyond l.max() that needs n
// vertices (0 when not known): for reading when n is beyond what reading
// fits (or not known), else for the work.
func (l limit) refuse(what string, n uint64) error {
	if n == 0 || n > uint64(l.read) {
		return tooMany(what, n, l.read)
	}
	detail := fmt.Sprintf("%d bytes a vertex for the graph", HeldVertexBytes)
	if l.w.VertexBytes > 0 {
		detail += fmt.Sprintf(", %d for %s", l.w.VertexBytes, l.w.Name)
	}
	if l.w.PairBytes > 0 {
		detail += fmt.Sprintf(", %d a pair of vertices for %s", l.w.PairBytes, l.w.Name)
	}
	return fmt.Errorf("%s: %w: %s needs %s for %s (%s, the least any engine takes) but only %s is available (%s): at most %d vertices fit",
		what, ErrTooLarge, l.w.Name, fmtBytes(l.w.Bytes(n)), verticesOf(n), detail, fmtBytes(l.avail), l.h.Source, l.work)
}

// verticesOf returns "1 vertex" or "N vertices".
func verticesOf(n uint64) string {
	if n == 1 {
		return "1 vertex"
	}
	return fmt.Sprintf("%d vertices", n)
}
