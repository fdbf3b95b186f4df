package bounds

import (
	"context"
	"math"
	"sync"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
)

// directed holds forward and backward eccentricity bounds of a digraph,
// lf <= ef(v) <= uf and lb <= eb(v) <= ub, where the forward eccentricity
// ef(v) is the largest d(v,w) over the vertices v reaches and the backward
// one eb(v) the largest d(w,v) over the vertices reaching v. The diameter
// (of reachable pairs) is both max ef and max eb; the radius is min ef.
//
// A search bounds every vertex it reaches, but the bounds that compare
// two eccentricities hold only between vertices of one strongly connected
// component, which reach (and are reached by) the same vertices. Upper
// bounds cross components along the condensation: a vertex's forward
// eccentricity is at most its distance to where it leaves its component
// plus one plus the forward eccentricity of where it arrives.
type directed struct {
	ctx       context.Context
	opt       Options
	adj, radj *csr.CSR // arcs and reversed arcs
	// comp[v] is v's strongly connected component. Tarjan's algorithm
	// numbers them so that arcs between components go from higher to
	// lower numbers; members[start[c]:start[c+1]] are component c.
	comp           []int32
	members, start []int32
	strong         bool // one component
	pivots         []int32
	lf, uf, lb, ub []int32
	// ftot[w] and btot[w] sum d(w,v) over the backward searches and d(v,w)
	// over the forward ones: ties between equal bounds go to the vertex
	// farthest from (or, for a centre, closest to) everything searched so
	// far, as in ExactSumSweep.
	ftot, btot []int32
	fw, bw     *scratch
	trav       int
	m          meter
	// radiusOnly: the graph is not strongly connected and
	// Options.Reachable is false, so the diameter is infinite and the
	// radius is the smallest eccentricity in component radComp, the only
	// source of the condensation, whose vertices alone reach every other.
	radiusOnly bool
	radComp    int32
}

func solveDirected(ctx context.Context, g *graph.Graph, opt Options) (Result, error) {
	n := g.N()
	s := &directed{ctx: ctx, opt: opt, fw: newScratch(n), bw: newScratch(n), m: newMeter(g, opt.Budget), radComp: -1}
	// Without Options.Reachable a graph that is not strongly connected
	// has an infinite diameter, and a finite radius only if one
	// component reaches all the others.
	infinite := Result{Diameter: Infinite, Radius: Infinite}
	dist, order := s.bw.dist, s.bw.queue // free until the first backward search
	g0 := csr.Of(g)
	reached, arcs := g0.BFS(0, -1, dist, order)
	s.trav = 1
	s.m.add(reached + arcs)
	if reached < n && !opt.Reachable {
		if !opt.WantRadius {
			infinite.Traversals = s.trav
			return infinite, nil
		}
		s.radiusOnly = true
	}
	// Number the vertices in the order of that search, then the rest.
	inv := s.fw.queue
	for i := range inv {
		inv[i] = -1
	}
	for i, v := range order[:reached] {
		inv[v] = int32(i)
	}
	k := reached
	for v := range n {
		if inv[v] < 0 {
			order[k], inv[v] = int32(v), int32(k)
			k++
		}
	}
	s.adj = relabel(g, order, inv)
	ef := dist[order[reached-1]]
	for i, v := range order {
		s.fw.dist[i] = dist[v] // the forward search from 0, renumbered
		s.fw.queue[i] = int32(i)
	}
	s.fw.reached = n
	for i := range n {
		s.bw.dist[i] = -1
	}
	s.radj = s.adj.Transpose()
	eb := int32(-1)
	if reached == n {
		eb = s.bw.run(s.radj, 0)
		s.trav++
		s.m.add(s.bw.work())
		s.strong = s.bw.reached == n
		if !s.strong && !opt.Reachable {
			if !opt.WantRadius {
				infinite.Traversals = s.trav
				return infinite, nil
			}
			s.radiusOnly = true
		}
	}
	s.components()
	if s.radiusOnly {
		if s.radComp = s.sourceComponent(); s.radComp < 0 {
			infinite.Traversals = s.trav
			return infinite, nil
		}
	}
	s.lf, s.uf = make([]int32, n), make([]int32, n)
	s.lb, s.ub = make([]int32, n), make([]int32, n)
	s.ftot, s.btot = make([]int32, n), make([]int32, n)
	for v := range int32(n) {
		// A vertex without out-arcs has forward eccentricity 0, one with
		// some at least 1; likewise backward.
		s.lf[v], s.uf[v] = 0, 0
		if s.adj.Degree(v) > 0 {
			s.lf[v], s.uf[v] = 1, math.MaxInt32
		}
		s.lb[v], s.ub[v] = 0, 0
		if s.radj.Degree(v) > 0 {
			s.lb[v], s.ub[v] = 1, math.MaxInt32
		}
	}
	s.lf[0], s.uf[0] = ef, ef
	if eb >= 0 {
		s.lb[0], s.ub[0] = eb, eb
		s.absorb(s.forward(), s.backward(), 0, ef)
		s.absorb(s.backward(), s.forward(), 0, eb)
	} else {
		s.absorb(s.forward(), s.backward(), 0, ef)
	}
	if !s.strong {
		// Only the condensation gives most vertices a finite upper bound.
		s.pivotPass()
	}
	d, r, err := s.bounding()
	if err != nil {
		return Result{Traversals: s.trav}, err
	}
	res := Result{Diameter: int64(d), Radius: int64(r), Connected: s.strong, Traversals: s.trav}
	if s.radiusOnly {
		res.Diameter = Infinite
	}
	return res, nil
}

// sourceComponent returns the only component no arc enters from another,
// or -1 when there are several. Every vertex is reached from a source
// component, so when there is only one its vertices reach every vertex,
// and when there are several no vertex does.
func (s *directed) sourceComponent() int32 {
	ncomp := len(s.start) - 1
	entered := make([]bool, ncomp)
	for u := range int32(s.adj.N()) {
		cu := s.comp[u]
		for _, v := range s.adj.Nbrs(u) {
			if cv := s.comp[v]; cv != cu {
				entered[cv] = true
			}
		}
	}
	src := int32(-1)
	for c, e := range entered {
		if !e {
			if src >= 0 {
				return -1
			}
			src = int32(c)
		}
	}
	return src
}

// components fills comp, members and start with Tarjan's algorithm,
// iterative so that long paths cannot overflow the stack.
func (s *directed) components() {
	a := s.adj
	n := a.N()
	s.comp = make([]int32, n)
	s.members = make([]int32, n)
	for v := range s.members {
		s.members[v] = int32(v)
	}
	if s.strong {
		s.start = []int32{0, int32(n)}
		return
	}
	comp := s.comp
	for v := range comp {
		comp[v] = -1 // unassigned: on the Tarjan stack once visited
	}
	index := make([]int32, n) // visiting order from 1; 0 is unvisited
	low := make([]int32, n)
	var stack []int32
	type frame struct {
		v   int32
		arc int // next arc of v to follow
	}
	var call []frame
	var counter, count int32
	for root := range int32(n) {
		if index[root] != 0 {
			continue
		}
		counter++
		index[root], low[root] = counter, counter
		stack = append(stack, root)
		call = append(call, frame{root, a.Off[root]})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.arc < a.Off[v+1] {
				w := a.Heads[f.arc]
				f.arc++
				switch {
				case index[w] == 0:
					counter++
					index[w], low[w] = counter, counter
					stack = append(stack, w)
					call = append(call, frame{w, a.Off[w]})
				case comp[w] < 0:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = count
					if w == v {
						break
					}
				}
				count++
			}
		}
	}
	s.start = make([]int32, count+1)
	for _, c := range comp {
		s.start[c+1]++
	}
	for c := range count {
		s.start[c+1] += s.start[c]
	}
	fill := append([]int32(nil), s.start[:count]...)
	for v, c := range comp {
		s.members[fill[c]] = int32(v)
		fill[c]++
	}
}

// side is one direction of the bounds: forward (the arcs, the searches in
// s.fw, lf <= ef <= uf and ftot) or backward (the reversed arcs, s.bw,
// lb <= eb <= ub and btot). Every bound of one direction has its mirror in
// the other, so the code below is written once for "this" side and the
// "other".
type side struct {
	adj         *csr.CSR
	sc          *scratch
	lo, hi, tot []int32
}

func (s *directed) forward() side  { return side{s.adj, s.fw, s.lf, s.uf, s.ftot} }
func (s *directed) backward() side { return side{s.radj, s.bw, s.lb, s.ub, s.btot} }

// absorb tightens the bounds with this side's search from v, of
// eccentricity e, in this.sc and clears it. Forward, for every w that v
// reaches, with df = d(v,w), eb(w) >= df; for w in v's component also
//
//	ef(w) >= ef-df (as ef <= df+ef(w)), eb(w) <= df+eb(v)
//
// and backward the mirror image.
func (s *directed) absorb(this, other side, v, e int32) {
	cv, hv := s.comp[v], other.hi[v]
	lo, olo, ohi, otot, comp := this.lo, other.lo, other.hi, other.tot, s.comp
	for w, d := range this.sc.dist {
		if d < 0 {
			continue
		}
		olo[w] = max(olo[w], d)
		otot[w] = sat(otot[w], d)
		if comp[w] == cv {
			lo[w] = max(lo[w], e-d)
			ohi[w] = min(ohi[w], sat(d, hv))
		}
	}
	this.lo[v], this.hi[v] = e, e
	this.sc.clear()
}

// searchFrom searches this side from v, absorbs the search and counts it.
func (s *directed) searchFrom(this, other side, v int32) {
	s.absorb(this, other, v, this.sc.run(this.adj, v))
	s.m.add(s.adj.N() + this.sc.work())
	s.trav++
}

// pivotPass searches each component from a central vertex p of it whose
// eccentricities are not both known, forward and backward inside the
// component, and carries the upper bounds across the condensation (see
// carry): downstream components first for ef, upstream first for eb. A
// component of one vertex needs no search. On a strongly
// connected graph this is one forward and one backward search, and either
// way it counts as two traversals, as together it follows every arc at
// most once in each direction.
func (s *directed) pivotPass() {
	ncomp := len(s.start) - 1
	if cap(s.pivots) < ncomp {
		s.pivots = make([]int32, ncomp)
	}
	piv := s.pivots[:ncomp]
	for c := range ncomp {
		piv[c] = -1
		mem := s.members[s.start[c]:s.start[c+1]]
		if len(mem) < 2 {
			continue
		}
		best, bt := int64(math.MaxInt64), int64(math.MaxInt64)
		for _, w := range mem {
			if s.lf[w] == s.uf[w] && s.lb[w] == s.ub[w] {
				continue
			}
			sc, t := int64(s.lf[w])+int64(s.lb[w]), int64(s.ftot[w])+int64(s.btot[w])
			if sc < best || (sc == best && t < bt) {
				piv[c], best, bt = w, sc, t
			}
		}
	}
	// The searches of different components touch disjoint vertices, so
	// one dist array holds them all; each uses its component's stretch
	// of the queue. A search stays in its component because only the
	// component's members are marked unseen (-2) when it starts: the
	// others are -1, or already searched.
	fwd, bwd := s.forward(), s.backward()
	searchAll := func(this side) (work int) {
		const unseen = -2
		dist := this.sc.dist
		for c, p := range piv {
			if p >= 0 {
				mem := s.members[s.start[c]:s.start[c+1]]
				for _, w := range mem {
					dist[w] = unseen
				}
				reached, arcs := this.adj.BFS(p, unseen, dist, this.sc.queue[s.start[c]:s.start[c+1]])
				work += reached + arcs
			}
		}
		return work
	}
	var fwork, bwork int
	if s.opt.Threads > 1 {
		var wg sync.WaitGroup
		wg.Go(func() { bwork = searchAll(bwd) })
		fwork = searchAll(fwd)
		wg.Wait()
	} else {
		fwork = searchAll(fwd)
		bwork = searchAll(bwd)
	}
	s.trav += 2
	// The bounds below scan the searched vertices and their arcs again,
	// and every vertex once.
	s.m.add(2*(fwork+bwork) + s.adj.N())
	// Forward bounds, sinks first: the components an arc leads to are
	// done before the component it leaves. Backward bounds, sources first.
	for c, p := range piv {
		s.carry(fwd, bwd, int32(c), p)
	}
	for c := len(piv) - 1; c >= 0; c-- {
		s.carry(bwd, fwd, int32(c), piv[c])
	}
	fd, bd := fwd.sc.dist, bwd.sc.dist
	for c, p := range piv {
		if p >= 0 {
			for _, w := range s.members[s.start[c]:s.start[c+1]] {
				fd[w], bd[w] = -1, -1
			}
		}
	}
}

// carry bounds this side's eccentricities in component c from the search
// of pivot p (none when p < 0) and from the components this side's arcs
// lead to, which are done already. Forward, for w in c and with the arcs
// a→x leaving c,
//
//	ef(w) <= d(w,p) + max(max_{y in c} d(p,y), max_{a→x} d(p,a)+1+ef(x))
//
// and a component of one vertex w has ef(w) <= 1 + max ef(x) over its
// out-neighbours x; backward the mirror image.
func (s *directed) carry(this, other side, c, p int32) {
	mem := s.members[s.start[c]:s.start[c+1]]
	hi := this.hi
	if len(mem) == 1 {
		w := mem[0]
		b := int32(0)
		for _, x := range this.adj.Nbrs(w) {
			b = max(b, sat(1, hi[x]))
		}
		hi[w] = min(hi[w], b)
		return
	}
	if p < 0 {
		return // every eccentricity in c is known
	}
	near, far := this.sc.dist, other.sc.dist // d(p,w) and d(w,p) this way
	ecc, b := int32(0), int32(0)
	for _, a := range mem {
		d := near[a]
		ecc = max(ecc, d)
		for _, x := range this.adj.Nbrs(a) {
			if s.comp[x] != c {
				b = max(b, sat(d+1, hi[x]))
			}
		}
	}
	b = max(b, ecc)
	lo, tot := this.lo, this.tot
	lo[p] = max(lo[p], ecc)
	lp := lo[p]
	for _, w := range mem {
		hi[w] = min(hi[w], sat(far[w], b))
		lo[w] = max(lo[w], far[w], lp-near[w])
		tot[w] = sat(tot[w], far[w])
	}
}

// The kinds of step, as in ExactSumSweep: a search from the vertex that
// could still have the largest forward (or backward) eccentricity, one
// from a possible centre, and a pivot pass (searches from a central vertex
// of each component), which tightens the upper bounds of the vertices near
// the pivots.
const (
	stepHighForward = iota
	stepHighBackward
	stepLowForward
	stepPivot
	steps
)

// state is the summary the loop steers by.
type state struct {
	dl, du, rl, ru int32
	needD, needR   bool
	missing        int // vertices whose bounds still matter
}

func (s *directed) state() state {
	var st state
	st.rl, st.ru = math.MaxInt32, math.MaxInt32
	maxUf, maxUb := int32(0), int32(0)
	for w := range s.lf {
		st.dl = max(st.dl, s.lf[w], s.lb[w])
		maxUf = max(maxUf, s.uf[w])
		maxUb = max(maxUb, s.ub[w])
		if s.centre(w) {
			st.rl = min(st.rl, s.lf[w])
			st.ru = min(st.ru, s.uf[w])
		}
	}
	st.du = min(maxUf, maxUb)
	st.needD = !s.radiusOnly && st.dl < st.du
	st.needR = s.opt.WantRadius && st.rl < st.ru
	for w := range s.lf {
		if st.needD && s.uf[w] > st.dl {
			st.missing++
		}
		if st.needD && s.ub[w] > st.dl {
			st.missing++
		}
		if st.needR && s.lf[w] < st.ru && s.centre(w) {
			st.missing++
		}
	}
	return st
}

// centre reports whether w's eccentricity counts for the radius: every
// vertex's with Options.Reachable, else only those of the component that
// reaches every vertex.
func (s *directed) centre(w int) bool { return !s.radiusOnly || s.comp[w] == s.radComp }

// bounding chooses each step by how much the same kind of step last
// reduced the number of vertices whose bounds still matter (the utility
// scheme of ExactSumSweep, Borassi et al. 2015, section 4.6), after a
// short SumSweep start of searches from the vertices farthest from those
// searched so far. The diameter is max ef = max eb, the radius min ef.
func (s *directed) bounding() (d, r int32, err error) {
	st := s.state()
	for i := range 2 {
		if !st.needD && !st.needR {
			break
		}
		if err := s.check(); err != nil {
			return 0, 0, err
		}
		if i%2 == 0 {
			s.searchFrom(s.backward(), s.forward(), s.argmaxTot(s.btot, s.lb, s.ub))
		} else {
			s.searchFrom(s.forward(), s.backward(), s.argmaxTot(s.ftot, s.lf, s.uf))
		}
		st = s.state()
	}
	var points [steps]float64
	for i := range points {
		points[i] = float64(s.adj.N())
	}
	for iter := 1; ; iter++ {
		if !st.needD && !st.needR {
			return st.dl, st.rl, nil
		}
		if err := s.check(); err != nil {
			return 0, 0, err
		}
		step := -1
		for k := range steps {
			ok := k == stepPivot || (k == stepLowForward && st.needR) || (k < stepLowForward && st.needD)
			if ok && (step < 0 || points[k] > points[step]) {
				step = k
			}
		}
		switch step {
		case stepHighForward:
			s.searchFrom(s.forward(), s.backward(), s.pickHigh(s.uf, s.ftot, st.dl))
		case stepHighBackward:
			s.searchFrom(s.backward(), s.forward(), s.pickHigh(s.ub, s.btot, st.dl))
		case stepLowForward:
			s.searchFrom(s.forward(), s.backward(), s.pickLow(st.ru))
		case stepPivot:
			s.pivotPass()
		}
		old := st.missing
		st = s.state()
		points[step] = float64(old - st.missing)
		for k := range points {
			if k != step {
				points[k] += 2 / float64(iter)
			}
		}
	}
}

// check returns why the search must stop (the context's error or
// ErrBudget), or nil.
func (s *directed) check() error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if s.m.spent() {
		return ErrBudget
	}
	return nil
}

// argmaxTot returns the vertex with the largest tot among those whose
// bounds lo, hi differ, or 0.
func (s *directed) argmaxTot(tot, lo, hi []int32) int32 {
	best, bt := int32(0), int32(-1)
	for w, t := range tot {
		if t > bt && lo[w] != hi[w] {
			best, bt = int32(w), t
		}
	}
	return best
}

// pickHigh returns the vertex with the largest upper bound in up above dl,
// preferring the largest tot.
func (s *directed) pickHigh(up, tot []int32, dl int32) int32 {
	best, bh, bt := int32(-1), dl, int32(-1)
	for w, h := range up {
		if h <= dl || h < bh {
			continue
		}
		if t := tot[w]; h > bh || t > bt {
			best, bh, bt = int32(w), h, t
		}
	}
	return best
}

// pickLow returns the vertex with the smallest forward lower bound below
// ru among the possible centres, preferring the smallest sum of distances
// to the searches' sources.
func (s *directed) pickLow(ru int32) int32 {
	best, bl, bt := int32(-1), ru, int32(math.MaxInt32)
	for w, l := range s.lf {
		if l >= ru || l > bl || !s.centre(w) {
			continue
		}
		if t := s.ftot[w]; l < bl || t < bt {
			best, bl, bt = int32(w), l, t
		}
	}
	return best
}
