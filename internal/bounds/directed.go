package bounds

import (
	"context"
	"math"
	"sync"
	"sync/atomic"

	"github.com/apsp/apsp/graph"
)

// directed holds forward and backward eccentricity bounds of a strongly
// connected digraph, lf <= ef(v) <= uf and lb <= eb(v) <= ub, where the
// forward eccentricity ef(v) is max_w d(v,w) and the backward one eb(v) is
// max_w d(w,v).
type directed struct {
	ctx            context.Context
	adj, radj      *csr // arcs and reversed arcs
	opt            Options
	lf, uf, lb, ub []int32
	// ftot[w] and btot[w] sum d(w,v) over the backward searches and d(v,w)
	// over the forward ones: ties between equal bounds go to the vertex
	// farthest from (or, for a centre, closest to) everything searched so
	// far, as in ExactSumSweep.
	ftot, btot []int32
	fw, bw     *scratch
	trav       int
}

func solveDirected(ctx context.Context, g *graph.Graph, opt Options) (Result, error) {
	n := g.N()
	s := &directed{ctx: ctx, opt: opt, fw: newScratch(n), bw: newScratch(n)}
	dist, order := s.bw.dist, s.bw.queue // free until the first backward search
	reached := bfsGraph(g, 0, dist, order)
	s.trav = 1
	if reached < n && !opt.Reachable {
		return Result{Traversals: s.trav}, nil
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
	if reached < n {
		s.fw, s.bw = nil, nil
		return bruteForce(ctx, s.adj, opt, s.trav)
	}
	ef := dist[order[n-1]]
	for i, v := range order {
		s.fw.dist[i] = dist[v] // the forward search from 0, renumbered
		s.fw.queue[i] = int32(i)
	}
	s.fw.reached = n
	for i := range n {
		s.bw.dist[i] = -1
	}
	s.radj = s.adj.transpose()
	eb := s.bw.run(s.radj, 0)
	s.trav++
	if s.bw.reached < n {
		if !opt.Reachable {
			return Result{Traversals: s.trav}, nil
		}
		s.fw, s.bw, s.radj = nil, nil, nil
		return bruteForce(ctx, s.adj, opt, s.trav)
	}
	s.lf, s.uf = make([]int32, n), make([]int32, n)
	s.lb, s.ub = make([]int32, n), make([]int32, n)
	s.ftot, s.btot = make([]int32, n), make([]int32, n)
	for i := range n {
		s.uf[i], s.ub[i] = math.MaxInt32, math.MaxInt32
	}
	s.absorbPair(0, ef, eb)
	d, r, err := s.bounding()
	if err != nil {
		return Result{}, err
	}
	return Result{Diameter: int64(d), Radius: int64(r), Connected: true, Traversals: s.trav}, nil
}

// absorbForward tightens the bounds with the forward search from v, of
// eccentricity ef, in s.fw and clears it. With df = d(v,w):
//
//	eb(w) >= df, ef(w) >= ef-df (as ef <= df+ef(w)), eb(w) <= df+eb(v)
func (s *directed) absorbForward(v, ef int32) {
	ubv := s.ub[v]
	lf, lb, ub, tot := s.lf, s.lb, s.ub, s.btot
	for w, df := range s.fw.dist {
		lb[w] = max(lb[w], df)
		lf[w] = max(lf[w], ef-df)
		ub[w] = min(ub[w], sat(df, ubv))
		tot[w] = sat(tot[w], df)
	}
	s.lf[v], s.uf[v] = ef, ef
	s.fw.clear()
}

// absorbBackward is absorbForward for the backward search in s.bw.
func (s *directed) absorbBackward(v, eb int32) {
	ufv := s.uf[v]
	lf, uf, lb, tot := s.lf, s.uf, s.lb, s.ftot
	for w, db := range s.bw.dist {
		lf[w] = max(lf[w], db)
		lb[w] = max(lb[w], eb-db)
		uf[w] = min(uf[w], sat(db, ufv))
		tot[w] = sat(tot[w], db)
	}
	s.lb[v], s.ub[v] = eb, eb
	s.bw.clear()
}

// absorbPair absorbs a forward and a backward search from the same vertex
// v. Knowing both eccentricities exactly first makes every upper bound
// use them.
func (s *directed) absorbPair(v, ef, eb int32) {
	s.lf[v], s.uf[v] = ef, ef
	s.lb[v], s.ub[v] = eb, eb
	s.absorbForward(v, ef)
	s.absorbBackward(v, eb)
}

// The kinds of step, as in ExactSumSweep: a search from the vertex that
// could still have the largest forward (or backward) eccentricity, one
// from a possible centre, and a pair of searches from a central vertex
// whose eccentricities are not both known yet, which tightens the upper
// bounds of the vertices near it.
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
		st.rl = min(st.rl, s.lf[w])
		st.ru = min(st.ru, s.uf[w])
	}
	st.du = min(maxUf, maxUb)
	st.needD = st.dl < st.du
	st.needR = s.opt.WantRadius && st.rl < st.ru
	for w := range s.lf {
		if st.needD && s.uf[w] > st.dl {
			st.missing++
		}
		if st.needD && s.ub[w] > st.dl {
			st.missing++
		}
		if st.needR && s.lf[w] < st.ru {
			st.missing++
		}
	}
	return st
}

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
		if i%2 == 0 {
			v := s.argmaxTot(s.btot, s.lb, s.ub)
			s.absorbBackward(v, s.bw.run(s.radj, v))
		} else {
			v := s.argmaxTot(s.ftot, s.lf, s.uf)
			s.absorbForward(v, s.fw.run(s.adj, v))
		}
		s.trav++
		st = s.state()
	}
	var points [steps]float64
	for i := range points {
		points[i] = float64(s.adj.n())
	}
	for iter := 1; ; iter++ {
		if !st.needD && !st.needR {
			return st.dl, st.rl, nil
		}
		if err := s.ctx.Err(); err != nil {
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
			v := s.pickHigh(s.uf, s.ftot, st.dl)
			s.absorbForward(v, s.fw.run(s.adj, v))
			s.trav++
		case stepHighBackward:
			v := s.pickHigh(s.ub, s.btot, st.dl)
			s.absorbBackward(v, s.bw.run(s.radj, v))
			s.trav++
		case stepLowForward:
			v := s.pickLow(st.ru)
			s.absorbForward(v, s.fw.run(s.adj, v))
			s.trav++
		case stepPivot:
			s.pivot()
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

// pivot searches forward and backward, concurrently when allowed, from the
// vertex with the smallest lf+lb among those whose eccentricities are not
// both known, preferring the smallest sum of distances.
func (s *directed) pivot() {
	v, best, bt := int32(-1), int64(math.MaxInt64), int64(math.MaxInt64)
	for w := range s.lf {
		if s.lf[w] == s.uf[w] && s.lb[w] == s.ub[w] {
			continue
		}
		sc, t := int64(s.lf[w])+int64(s.lb[w]), int64(s.ftot[w])+int64(s.btot[w])
		if sc < best || (sc == best && t < bt) {
			v, best, bt = int32(w), sc, t
		}
	}
	if v < 0 {
		return // every eccentricity is known
	}
	var ef, eb int32
	if s.opt.Threads > 1 {
		var wg sync.WaitGroup
		wg.Go(func() { eb = s.bw.run(s.radj, v) })
		ef = s.fw.run(s.adj, v)
		wg.Wait()
	} else {
		ef = s.fw.run(s.adj, v)
		eb = s.bw.run(s.radj, v)
	}
	s.trav += 2
	s.absorbPair(v, ef, eb)
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
// ru, preferring the smallest sum of distances to the searches' sources.
func (s *directed) pickLow(ru int32) int32 {
	best, bl, bt := int32(-1), ru, int32(math.MaxInt32)
	for w, l := range s.lf {
		if l >= ru || l > bl {
			continue
		}
		if t := s.ftot[w]; l < bl || t < bt {
			best, bl, bt = int32(w), l, t
		}
	}
	return best
}

// bruteForce searches from every vertex: the diameter is the largest
// finite distance and the radius the smallest eccentricity over reachable
// vertices. trav counts the searches already run.
func bruteForce(ctx context.Context, a *csr, opt Options, trav int) (Result, error) {
	n := a.n()
	threads := max(1, min(opt.Threads, n))
	var next atomic.Int64
	var mu sync.Mutex
	res := Result{Radius: math.MaxInt64, Traversals: trav + n}
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			sc := newScratch(n)
			hi, lo := int32(0), int32(math.MaxInt32)
			for {
				v := int(next.Add(1) - 1)
				if v >= n || ctx.Err() != nil {
					break
				}
				e := sc.run(a, int32(v))
				sc.clear()
				hi, lo = max(hi, e), min(lo, e)
			}
			mu.Lock()
			res.Diameter = max(res.Diameter, int64(hi))
			res.Radius = min(res.Radius, int64(lo))
			mu.Unlock()
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return res, nil
}
