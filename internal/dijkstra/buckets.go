package dijkstra

import "math/bits"

// A bucket queue (Dial's algorithm, generalised to buckets wider than 1) is
// the main queue: with bucket width ≤ the shortest arc, every vertex in the
// lowest non-empty bucket already has its final distance, so a whole bucket
// is settled at once, in any order, and each push is an append. The buckets
// form a ring that covers the longest arc; a bitmap of the non-empty ones
// skips gaps in a few word tests.
//
// Measured on the 8192-vertex benchmark graph, the cost is in branch
// mispredictions and dependent loads rather than in the queue or in cache
// misses: on a 512-vertex graph that fits in L1 a search costs only about
// a fifth less per arc, and uint16 distances were no faster. So stale
// entries are filtered and relaxations staged without data-dependent
// branches, and the arcs of the next vertex are touched early so that their
// cache line is on its way; each of these saved 5–10%.

// entry is a queued vertex with the tentative distance it was queued with;
// the entry is stale once the vertex's distance has dropped below it.
type entry[D int32 | int64 | float64] struct {
	v int32
	d D
}

// ring holds the buckets of a bucket queue and the bitmap of non-empty
// ones.
type ring[D int32 | int64 | float64] struct {
	buckets  [][]entry[D]
	nonempty []uint64
	mask     uint64
	count    int // queued entries, stale ones included
	stage    []entry[D]
}

// stageLen bounds the relaxations staged before they are pushed, so that
// the scratch does not grow with the graph; a vertex of larger degree gets
// a larger stage.
const stageLen = 4096

func newRing[D int32 | int64 | float64](span uint64, maxDegree int) ring[D] {
	size := max(64, 1<<bits.Len64(span+1)) // > span+1: a power of two
	return ring[D]{
		buckets:  make([][]entry[D], size),
		nonempty: make([]uint64, size/64),
		mask:     uint64(size - 1),
		stage:    make([]entry[D], max(stageLen, maxDegree)),
	}
}

func (r *ring[D]) push(slot uint64, e entry[D]) {
	r.buckets[slot] = append(r.buckets[slot], e)
	r.nonempty[slot>>6] |= 1 << (slot & 63)
	r.count++
}

// next returns the first non-empty slot at or after slot, cyclically; the
// ring must not be empty.
func (r *ring[D]) next(slot uint64) uint64 {
	w := slot >> 6
	word := r.nonempty[w] & (^uint64(0) << (slot & 63))
	last := uint64(len(r.nonempty) - 1)
	for word == 0 {
		w = (w + 1) & last
		word = r.nonempty[w]
	}
	return w<<6 | uint64(bits.TrailingZeros64(word))
}

// take empties a bucket and returns its entries, valid until the next push
// into it.
func (r *ring[D]) take(slot uint64) []entry[D] {
	bk := r.buckets[slot]
	r.buckets[slot] = bk[:0]
	r.nonempty[slot>>6] &^= 1 << (slot & 63)
	r.count -= len(bk)
	return bk
}

// settle appends to order the vertices of bk whose distance is still the
// one they were queued with, without a branch per entry (about half the
// entries are stale, at random).
func settle[D int32 | int64 | float64](order []int32, bk []entry[D], dist []D) []int32 {
	start := len(order)
	if cap(order) < start+len(bk) {
		order = append(order[:cap(order)], make([]int32, start+len(bk)-cap(order))...)
	}
	order = order[:start+len(bk)]
	k := start
	for _, e := range bk {
		order[k] = e.v
		if dist[e.v] == e.d {
			k++
		}
	}
	return order[:k]
}

// relaxAll relaxes the arcs of the settled vertices, staging improved
// distances in r.stage (written always, kept when improved, so that the
// unpredictable test is a conditional move) and handing them to flush
// whenever the stage could overflow, and at the end. It returns the sink of
// the early touches of the next vertex's arcs.
func relaxAll[D int32 | int64 | float64](settled []int32, off []int, arcs []arc[D], dist []D, stage []entry[D], flush func([]entry[D])) uint32 {
	var sink uint32
	j := 0
	for i, u := range settled {
		if i+1 < len(settled) {
			if o := off[settled[i+1]]; o < len(arcs) {
				sink += uint32(arcs[o].v)
			}
		}
		du := dist[u]
		as := arcs[off[u]:off[u+1]]
		if j+len(as) > len(stage) {
			flush(stage[:j])
			j = 0
		}
		for _, a := range as {
			old := dist[a.v]
			nd := du + a.w
			dist[a.v] = min(old, nd)
			stage[j] = entry[D]{a.v, nd}
			if nd < old {
				j++
			}
		}
	}
	flush(stage[:j])
	return sink
}

// intBuckets is the bucket-queue search for exact lengths: bucket of d is
// d >> shift.
type intBuckets[D int32 | int64] struct {
	l     *layout[D]
	dist  []D
	shift uint
	ring  ring[D]
	res   result
	sink  uint32
	flush func([]entry[D])
}

func newIntBuckets[D int32 | int64](l *layout[D], h []int64, shift uint, span uint64) *intBuckets[D] {
	s := &intBuckets[D]{l: l, dist: newDist[D](l.n), shift: shift, ring: newRing[D](span, maxDegree(l.off))}
	s.res = intResult(l.n, s.dist, h)
	s.flush = func(staged []entry[D]) {
		for _, e := range staged {
			s.ring.push((uint64(e.d)>>s.shift)&s.ring.mask, e)
		}
	}
	return s
}

func (s *intBuckets[D]) result() *result { return &s.res }

func (s *intBuckets[D]) search(src int32) {
	dist, r := s.dist, &s.ring
	forget(dist, s.res.order)
	order := s.res.order[:0]
	dist[src] = 0
	r.push(0, entry[D]{src, 0})
	cur := uint64(0) // slot of the lowest bucket that may be non-empty
	for r.count > 0 {
		cur = r.next(cur)
		for len(r.buckets[cur]) > 0 { // again only after length-0 arcs
			start := len(order)
			order = settle(order, r.take(cur), dist)
			s.sink += relaxAll(order[start:], s.l.off, s.l.arcs, dist, r.stage, s.flush)
		}
	}
	s.res.order = order
}

// floatBuckets is the bucket-queue search for float lengths, all positive:
// bucket of d is ⌊d/width⌋ with width = minW/2, so that rounding never
// moves a distance into the bucket of the vertex it was reached from.
type floatBuckets struct {
	l     *layout[float64]
	dist  []float64
	inv   float64 // 1/width
	ring  ring[float64]
	res   result
	sink  uint32
	flush func([]entry[float64])
}

func newFloatBuckets(l *layout[float64], h []float64, width float64, span uint64) *floatBuckets {
	s := &floatBuckets{l: l, dist: newDist[float64](l.n), inv: 1 / width, ring: newRing[float64](span+1, maxDegree(l.off))}
	s.res = result{order: make([]int32, 0, l.n), dF: s.dist, hF: h}
	s.flush = func(staged []entry[float64]) {
		for _, e := range staged {
			s.ring.push(uint64(e.d*s.inv)&s.ring.mask, e)
		}
	}
	return s
}

func (s *floatBuckets) result() *result { return &s.res }

func (s *floatBuckets) search(src int32) {
	dist, r := s.dist, &s.ring
	forget(dist, s.res.order)
	order := s.res.order[:0]
	dist[src] = 0
	r.push(0, entry[float64]{src, 0})
	cur := uint64(0)
	for r.count > 0 {
		cur = r.next(cur)
		for len(r.buckets[cur]) > 0 {
			start := len(order)
			order = settle(order, r.take(cur), dist)
			s.sink += relaxAll(order[start:], s.l.off, s.l.arcs, dist, r.stage, s.flush)
		}
	}
	s.res.order = order
}

func maxDegree(off []int) int {
	d := 0
	for u := 0; u+1 < len(off); u++ {
		d = max(d, off[u+1]-off[u])
	}
	return d
}

// intResult makes the result of an exact search over dist.
func intResult[D int32 | int64](n int, dist []D, h []int64) result {
	res := result{order: make([]int32, 0, n), h64: h}
	switch d := any(dist).(type) {
	case []int32:
		res.d32 = d
	case []int64:
		res.d64 = d
	}
	return res
}
