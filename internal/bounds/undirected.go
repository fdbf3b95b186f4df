package bounds

import (
	"context"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
)

// agg summarises the eccentricity bounds of one component.
type agg struct {
	maxLo, maxHi, minLo, minHi int32
}

// component is a connected component: after renumbering, the vertices
// first..last, in the order of the search from first, so last is a
// farthest vertex from first.
type component struct {
	first, last int32
}

func (c component) size() int { return int(c.last-c.first) + 1 }

// undirected holds the per-vertex eccentricity bounds lo <= e(v) <= hi of
// an undirected graph. It searches from one source at a time: each choice
// depends on the bounds the previous search left, and where this was
// tuned, with few cores, two concurrent searches took as long as two in a
// row, so choosing two sources per round only added searches.
type undirected struct {
	ctx    context.Context
	adj    *csr.CSR
	opt    Options
	st     strategy
	lo, hi []int32
	sc     *scratch
	order  []int32 // iFUB: a component's vertices by distance from its centre
	trav   int
	m      meter
	cur    agg // bounds of the component being solved
}

func solveUndirected(ctx context.Context, g *graph.Graph, opt Options, st strategy) (Result, error) {
	s := &undirected{ctx: ctx, opt: opt, st: st, m: newMeter(g, opt.Budget)}
	comps, ok := s.components(g)
	if !ok {
		// Every eccentricity is infinite.
		return Result{Diameter: Infinite, Radius: Infinite, Traversals: s.trav}, nil
	}
	res := Result{Connected: len(comps) == 1, Radius: math.MaxInt64}
	for _, c := range comps {
		if err := ctx.Err(); err != nil {
			return Result{Traversals: s.trav}, err
		}
		var d, r int32
		switch c.size() {
		case 1:
		case 2:
			d, r = 1, 1
		default:
			var err error
			if d, r, err = s.solve(c); err != nil {
				return Result{Traversals: s.trav}, err
			}
		}
		res.Diameter = max(res.Diameter, int64(d))
		res.Radius = min(res.Radius, int64(r))
	}
	res.Traversals = s.trav
	return res, nil
}

// components finds the connected components with one search each, numbers
// the vertices in the order of those searches into s.adj, and records the
// searches as the first eccentricity bounds. Without Options.Reachable it
// stops after the first search when that one misses a vertex, and reports
// false.
func (s *undirected) components(g *graph.Graph) ([]component, bool) {
	n := g.N()
	dist := make([]int32, n)
	for i := range dist {
		dist[i] = -1
	}
	order := make([]int32, n)
	var comps []component
	off := 0
	a := csr.Of(g)
	for v := range n {
		if dist[v] >= 0 {
			continue
		}
		size, arcs := a.BFS(int32(v), -1, dist, order[off:])
		s.trav++
		s.m.add(size + arcs)
		if size < n && !s.opt.Reachable {
			return nil, false
		}
		comps = append(comps, component{int32(off), int32(off + size - 1)})
		off += size
	}
	inv := make([]int32, n)
	for i, v := range order {
		inv[v] = int32(i)
	}
	s.adj = relabel(g, order, inv)
	s.lo, s.hi = make([]int32, n), make([]int32, n)
	for _, c := range comps {
		e := dist[order[c.last]]
		for i := c.first; i <= c.last; i++ {
			d := dist[order[i]]
			s.lo[i] = max(d, e-d)
			s.hi[i] = sat(e, d)
		}
	}
	// dist and order become the search scratch.
	for i := range dist {
		dist[i] = -1
	}
	s.sc = &scratch{dist: dist, queue: order}
	return comps, true
}

// solve returns the diameter and radius (0 unless wanted) of a component
// of at least three vertices.
func (s *undirected) solve(c component) (d, r int32, err error) {
	s.cur = s.aggregate(c)
	if s.st == boundingDiameters {
		return s.bounding(c, -1)
	}
	if d, err = s.ifub(c); err != nil || !s.opt.WantRadius {
		return d, 0, err
	}
	_, r, err = s.bounding(c, d)
	return d, r, err
}

func (s *undirected) aggregate(c component) agg {
	a := agg{minLo: math.MaxInt32, minHi: math.MaxInt32}
	for _, l := range s.lo[c.first : c.last+1] {
		a.maxLo = max(a.maxLo, l)
		a.minLo = min(a.minLo, l)
	}
	for _, h := range s.hi[c.first : c.last+1] {
		a.maxHi = max(a.maxHi, h)
		a.minHi = min(a.minHi, h)
	}
	return a
}

// absorb tightens the bounds of the component's vertices with a search of
// eccentricity e whose distances are in dist, and refreshes s.cur.
func (s *undirected) absorb(c component, dist []int32, e int32) {
	a := agg{minLo: math.MaxInt32, minHi: math.MaxInt32}
	lo, hi := s.lo[c.first:c.last+1], s.hi[c.first:c.last+1]
	dist = dist[c.first : c.last+1]
	for w, d := range dist {
		l := max(lo[w], d, e-d)
		h := min(hi[w], sat(e, d))
		lo[w], hi[w] = l, h
		a.maxLo = max(a.maxLo, l)
		a.maxHi = max(a.maxHi, h)
		a.minLo = min(a.minLo, l)
		a.minHi = min(a.minHi, h)
	}
	s.cur = a
}

// check returns why the search must stop (the context's error or
// ErrBudget), or nil.
func (s *undirected) check() error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if s.m.spent() {
		return ErrBudget
	}
	return nil
}

// search runs one search from v, absorbs it and returns the scratch
// uncleared, for the caller to read and clear.
func (s *undirected) search(c component, v int32) *scratch {
	e := s.sc.run(s.adj, v)
	s.trav++
	s.m.add(s.sc.work())
	s.absorb(c, s.sc.dist, e)
	return s.sc
}

// ifub returns the diameter of a component (Crescenzi et al., iFUB with a
// 4-sweep start), skipping sources whose upper bound shows they cannot
// raise the best eccentricity found.
func (s *undirected) ifub(c component) (int32, error) {
	// 4-sweep: two double sweeps, each from the middle of the previous
	// longest path found, end at a central vertex u.
	a := c.last
	var u int32
	for range 2 {
		sc := s.search(c, a)
		b := sc.far()
		e := sc.dist[b]
		u = middle(s.adj, sc.dist, b, e-e/2)
		sc.clear()
		if s.diameterKnown() {
			return s.cur.maxLo, nil
		}
		if err := s.check(); err != nil {
			return 0, err
		}
		sc = s.search(c, u)
		a = sc.far()
		sc.clear()
	}
	// Search from u and keep its vertices by level.
	if err := s.check(); err != nil {
		return 0, err
	}
	sc := s.search(c, u)
	ecc := sc.dist[sc.far()]
	if cap(s.order) < c.size() {
		s.order = make([]int32, c.size())
	}
	order := s.order[:c.size()]
	copy(order, sc.queue[:sc.reached])
	level := make([]int, ecc+2) // level[i]: first index of distance i
	for i := len(order) - 1; i >= 0; i-- {
		level[sc.dist[order[i]]] = i
	}
	level[ecc+1] = len(order)
	sc.clear()
	for i := ecc; i >= 1; i-- {
		// Pairs within levels <= i are at most 2i apart, and every vertex
		// beyond level i was searched from or has an upper bound <= the
		// best lower bound maxLo, which is therefore the diameter once it
		// reaches 2i.
		if int64(s.cur.maxLo) >= 2*int64(i) || s.diameterKnown() {
			return s.cur.maxLo, nil
		}
		for _, v := range order[level[i]:level[i+1]] {
			if s.hi[v] > s.cur.maxLo {
				if err := s.check(); err != nil {
					return 0, err
				}
				s.search(c, v).clear()
			}
		}
	}
	return s.cur.maxLo, nil
}

// diameterKnown reports whether the bounds alone fix the diameter.
func (s *undirected) diameterKnown() bool {
	a := s.cur
	return int64(a.maxLo) >= min(int64(a.maxHi), 2*int64(a.minHi))
}

// bounding is the bounding diameters algorithm of Takes and Kosters. It
// returns the component's diameter and radius; knownD >= 0 is a diameter
// already found, so only the radius is sought.
func (s *undirected) bounding(c component, knownD int32) (d, r int32, err error) {
	for turn := 0; ; turn++ {
		a := s.cur
		dl, du := int64(a.maxLo), min(int64(a.maxHi), 2*int64(a.minHi))
		if knownD >= 0 {
			dl, du = int64(knownD), int64(knownD)
		}
		// D <= 2R, so R >= ceil(D/2).
		rl, ru := max(int64(a.minLo), (dl+1)/2), int64(a.minHi)
		needD := dl < du
		needR := s.opt.WantRadius && rl < ru
		if !needD && !needR {
			return int32(dl), int32(rl), nil
		}
		if err := s.check(); err != nil {
			return 0, 0, err
		}
		// Takes and Kosters alternate the two choices even when only one
		// of the values is sought: peripheral vertices give tight lower
		// bounds, central ones tight upper bounds.
		var v int32
		if turn%2 == 0 {
			if v = s.pickHigh(c, int32(dl)); v < 0 {
				v = s.pickLow(c, int32(ru))
			}
		} else if v = s.pickLow(c, int32(ru)); v < 0 {
			v = s.pickHigh(c, int32(dl))
		}
		s.search(c, v).clear()
	}
}

// pickHigh returns the vertex with the largest upper bound above dl (one
// that might still be an end of a longest path), preferring high degree,
// or -1.
func (s *undirected) pickHigh(c component, dl int32) int32 {
	best, bh, bd := int32(-1), dl, -1
	for w := c.first; w <= c.last; w++ {
		h := s.hi[w]
		if h <= dl || h < bh {
			continue
		}
		if d := s.adj.Degree(w); h > bh || d > bd {
			best, bh, bd = w, h, d
		}
	}
	return best
}

// pickLow returns the vertex with the smallest lower bound below ru (one
// that might still be a centre), preferring high degree, or -1.
func (s *undirected) pickLow(c component, ru int32) int32 {
	best, bl, bd := int32(-1), ru, -1
	for w := c.first; w <= c.last; w++ {
		l := s.lo[w]
		if l >= ru || l > bl {
			continue
		}
		if d := s.adj.Degree(w); l < bl || d > bd {
			best, bl, bd = w, l, d
		}
	}
	return best
}
