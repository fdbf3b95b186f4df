package dijkstra

import (
	"math"
	"math/bits"
)

// radixHeap is a monotone priority queue of (key, vertex) pairs: every key
// pushed must be at least the last key popped, which Dijkstra guarantees for
// non-negative lengths. Keys are uint64: an int64 distance as is, or the bits
// of a non-negative float64, whose order as integers is their numeric order.
//
// Item i lives in bucket bits.Len64(key_i ^ last), so bucket 0 holds the
// keys equal to the minimum; refilling it moves each item to a lower bucket,
// at most 64 times over its life. Push is O(1) and pop amortised O(log C)
// with C the largest arc length, with no decrease-key: the caller pushes a
// vertex again when its distance drops and skips stale entries on pop.
type radixHeap struct {
	last    uint64
	size    int
	nonzero uint64 // bit b set when bucket b is not empty
	buckets [64][]radixItem
}

type radixItem struct {
	key uint64
	v   int32
}

// reset empties the heap, keeping its buffers.
func (h *radixHeap) reset() {
	for h.nonzero != 0 {
		b := bits.TrailingZeros64(h.nonzero)
		h.buckets[b] = h.buckets[b][:0]
		h.nonzero &^= 1 << b
	}
	h.last, h.size = 0, 0
}

func (h *radixHeap) len() int { return h.size }

// push adds v with key k ≥ the last key popped. Keys below 2^63 keep the
// bucket index below 64.
func (h *radixHeap) push(k uint64, v int32) {
	b := bits.Len64(k^h.last) & 63
	h.buckets[b] = append(h.buckets[b], radixItem{k, v})
	h.nonzero |= 1 << b
	h.size++
}

// pop removes and returns an item of smallest key; the heap must not be
// empty.
func (h *radixHeap) pop() (uint64, int32) {
	if len(h.buckets[0]) == 0 {
		b := bits.TrailingZeros64(h.nonzero)
		items := h.buckets[b]
		m := items[0].key
		for _, it := range items[1:] {
			m = min(m, it.key)
		}
		h.last = m
		for _, it := range items {
			c := bits.Len64(it.key ^ m)
			h.buckets[c] = append(h.buckets[c], it)
			h.nonzero |= 1 << c
		}
		h.buckets[b] = items[:0]
		h.nonzero &^= 1 << b
	}
	b0 := h.buckets[0]
	it := b0[len(b0)-1]
	h.buckets[0] = b0[:len(b0)-1]
	if len(b0) == 1 {
		h.nonzero &^= 1
	}
	h.size--
	return it.key, it.v
}

// intRadix is the search for exact lengths whose spread is too wide for a
// bucket ring (as after Johnson's reweighting, which leaves zero lengths).
type intRadix[D int32 | int64] struct {
	l    *layout[D]
	dist []D
	heap radixHeap
	res  result
}

func newIntRadix[D int32 | int64](l *layout[D], h []int64) *intRadix[D] {
	s := &intRadix[D]{l: l, dist: newDist[D](l.n)}
	s.res = intResult(l.n, s.dist, h)
	return s
}

func (s *intRadix[D]) result() *result { return &s.res }

func (s *intRadix[D]) search(src int32) {
	dist, h, off, arcs := s.dist, &s.heap, s.l.off, s.l.arcs
	forget(dist, s.res.order)
	order := s.res.order[:0]
	h.reset()
	dist[src] = 0
	h.push(0, src)
	for h.len() > 0 {
		k, u := h.pop()
		d := D(k)
		if d != dist[u] {
			continue // stale: u was queued again with a smaller key
		}
		order = append(order, u)
		for _, a := range arcs[off[u]:off[u+1]] {
			if nd := d + a.w; nd < dist[a.v] {
				dist[a.v] = nd
				h.push(uint64(nd), a.v)
			}
		}
	}
	s.res.order = order
}

// floatRadix is the search for float lengths that include 0 or spread too
// widely for buckets. A non-negative float64's bits order like its value,
// and d + w ≥ d when w ≥ 0, so the keys stay monotone.
type floatRadix struct {
	l    *layout[float64]
	dist []float64
	heap radixHeap
	res  result
}

func newFloatRadix(l *layout[float64], h []float64) *floatRadix {
	s := &floatRadix{l: l, dist: newDist[float64](l.n)}
	s.res = result{order: make([]int32, 0, l.n), dF: s.dist, hF: h}
	return s
}

func (s *floatRadix) result() *result { return &s.res }

func (s *floatRadix) search(src int32) {
	dist, h, off, arcs := s.dist, &s.heap, s.l.off, s.l.arcs
	forget(dist, s.res.order)
	order := s.res.order[:0]
	h.reset()
	dist[src] = 0
	h.push(0, src)
	for h.len() > 0 {
		k, u := h.pop()
		d := math.Float64frombits(k)
		if d != dist[u] {
			continue
		}
		order = append(order, u)
		for _, a := range arcs[off[u]:off[u+1]] {
			// Lengths are never -0 (the layouts store +0), so that no key
			// is the bits of -0.
			if nd := d + a.w; nd < dist[a.v] {
				dist[a.v] = nd
				h.push(math.Float64bits(nd), a.v)
			}
		}
	}
	s.res.order = order
}
