package golf

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// A symmetric search (Options.Symmetry = g > 1, ODP's "_s" samples) keeps
// the graph invariant under the rotation σ(v) = v + n/g (mod n): vertex
// i·m + j is copy i of base vertex j, m = n/g. Every move is a 2-opt swap
// made in all g copies at once, and a graph is measured from the m
// vertices 0..m-1 alone: σ is an automorphism, so copy i of a vertex has
// the same distances as the vertex, and the distance sum of all pairs is
// g times the sum from those m sources.

// rot is σ^k(v).
func (s *state) rot(v int32, k int) int32 {
	return int32((int(v) + k*(s.n/s.sym)) % s.n)
}

// halfOrbit says whether σ^k maps the edge u-v onto itself for some
// 0 < k < g: then its orbit has g/2 edges, not g (v = u + n/2 with g even).
func (s *state) halfOrbit(u, v int32) bool {
	m := s.n / s.sym
	d := (int(v) - int(u) + s.n) % s.n
	return 2*d == s.n && (s.n/2)%m == 0
}

// sameOrbit says whether σ^k maps the edge a-c onto b-d for some k.
func (s *state) sameOrbit(a, c, b, d int32) bool {
	m := s.n / s.sym
	diff := func(x, y int32) int { return ((int(y)-int(x))%s.n + s.n) % s.n }
	return diff(a, b)%m == 0 && diff(a, b) == diff(c, d) ||
		diff(a, d)%m == 0 && diff(a, d) == diff(c, b)
}

// symmetricOK says whether the move a-b, c-d → a-c, b-d (edges e1, e2)
// can be made in every copy: the two edges lie in different orbits and
// neither new orbit is half (whose copies would add an edge twice) or the
// other's. Adjacency and shared ends are checked by propose, for the
// copies too, since the graph is symmetric.
func (s *state) symmetricOK(e1, e2 int, a, b, c, d int32) bool {
	return e1/s.sym != e2/s.sym && !s.halfOrbit(a, c) && !s.halfOrbit(b, d) && !s.sameOrbit(a, c, b, d)
}

// rotated is mv in copy k.
func (s *state) rotated(mv move, k int) move {
	mv.a, mv.b, mv.c, mv.d = s.rot(mv.a, k), s.rot(mv.b, k), s.rot(mv.c, k), s.rot(mv.d, k)
	return mv
}

// swapsOf is the edges move mv removes and adds, in every copy: removed
// a-b, c-d and added a-c, b-d per copy, appended to dst.
func (s *state) swapsOf(dst [][4][2]int, mv move) [][4][2]int {
	for k := range s.sym {
		r := s.rotated(mv, k)
		a, b, c, d := int(r.a), int(r.b), int(r.c), int(r.d)
		dst = append(dst, [4][2]int{{a, b}, {c, d}, {a, c}, {b, d}})
	}
	return dst
}

// changesOf is move mv as graph.Changes, its edges in sw.
func changesOf(sw [][4][2]int) graph.Changes {
	rm := make([][2]int, 0, 2*len(sw))
	add := make([][2]int, 0, 2*len(sw))
	for _, e := range sw {
		rm = append(rm, e[0], e[1])
		add = append(add, e[2], e[3])
	}
	return graph.Changes{Remove: rm, Add: add}
}

// orbitOrder lists g's edges orbit by orbit, edges[o·sym+k] = σ^k of
// edges[o·sym], as the symmetric state keeps them; it refuses a graph that
// σ does not map onto itself, or an edge whose orbit is half.
func orbitOrder(g *Graph, sym int) ([][2]int32, error) {
	st := &state{n: g.N, sym: sym}
	key := func(u, v int32) [2]int32 { return [2]int32{min(u, v), max(u, v)} }
	left := make(map[[2]int32]bool, len(g.Edges))
	for _, e := range g.Edges {
		left[key(e[0], e[1])] = true
	}
	out := make([][2]int32, 0, len(g.Edges))
	for _, e := range g.Edges {
		if !left[key(e[0], e[1])] {
			continue
		}
		if st.halfOrbit(e[0], e[1]) {
			return nil, fmt.Errorf("%w: edge %d-%d is mapped onto itself by a rotation of order %d (v+n/2 with g even)", ErrParams, e[0], e[1], sym)
		}
		for k := range sym {
			u, v := st.rot(e[0], k), st.rot(e[1], k)
			if !left[key(u, v)] {
				return nil, fmt.Errorf("%w: the graph is not invariant under v → v+%d (mod %d): edge %d-%d but not %d-%d", ErrParams, g.N/sym, g.N, e[0], e[1], u, v)
			}
			delete(left, key(u, v))
			out = append(out, [2]int32{u, v})
		}
	}
	return out, nil
}

// checkSymmetry refuses what a symmetric search of order sym cannot do.
func checkSymmetry(opt *Options) error {
	g := opt.Symmetry
	switch {
	case g <= 1:
		return nil
	case opt.Grid.IsGrid():
		return fmt.Errorf("%w: symmetry on a grid", ErrParams)
	case opt.N%g != 0:
		return fmt.Errorf("%w: symmetry %d does not divide n=%d", ErrParams, g, opt.N)
	case opt.N*opt.D%2 == 1:
		return fmt.Errorf("%w: n·d = %d·%d is odd: no %d-regular graph", ErrParams, opt.N, opt.D, opt.D)
	case opt.From == nil && opt.D%2 == 1 && g%2 == 0:
		// The random start's odd degree needs the chords v, v+n/2, whose
		// orbits under a rotation of even order are half.
		return fmt.Errorf("%w: symmetry %d is even and d=%d odd (a --from graph may be)", ErrParams, g, opt.D)
	case opt.D >= opt.N:
		return fmt.Errorf("%w: d=%d needs more than n=%d vertices", ErrParams, opt.D, opt.N)
	case strings.HasPrefix(opt.Eval.Device, "gpu"):
		// Measured from chosen sources, which the search asks of the CPU.
		return fmt.Errorf("%w: a symmetric search measures on the CPU (device %q)", ErrParams, opt.Eval.Device)
	}
	return nil
}

// randomSymmetric is the start of a symmetric search: the circulant graph
// joining each v to v±1..v±d/2 (and v+n/2 when d is odd), which every
// rotation maps onto itself, shuffled by 20 symmetric moves an orbit and
// more until it is connected.
func randomSymmetric(opt Options) (*Graph, error) {
	n, d := opt.N, opt.D
	c := &Graph{N: n}
	for v := range n {
		for t := 1; t <= d/2; t++ {
			c.Edges = append(c.Edges, [2]int32{int32(v), int32((v + t) % n)})
		}
		if d%2 == 1 && v < n/2 {
			c.Edges = append(c.Edges, [2]int32{int32(v), int32(v + n/2)})
		}
	}
	edges, err := orbitOrder(c, opt.Symmetry)
	if err != nil {
		return nil, err
	}
	c.Edges = edges
	st, err := newState(c)
	if err != nil {
		return nil, err
	}
	st.sym = opt.Symmetry
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5e_7777))
	orbits := len(edges) / opt.Symmetry
	for round := 0; round < 100; round++ {
		for range 20 * orbits {
			mv, ok := st.propose(rng)
			if !ok {
				return nil, fmt.Errorf("%w: no symmetric edge swap of n=%d d=%d under symmetry %d", ErrParams, n, d, opt.Symmetry)
			}
			st.apply(mv)
		}
		g := &Graph{N: n, Edges: st.edges}
		if connected(g) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w: no connected symmetric graph n=%d d=%d under symmetry %d", ErrParams, n, d, opt.Symmetry)
}

// measureFromBase measures g from the base vertices 0..n/sym-1 alone,
// with the library's hop plot from those sources under opt.
func measureFromBase(ctx context.Context, g *graph.Graph, sources []int, sym int, opt apsp.Options) (measure, error) {
	h, err := apsp.DistanceHistogramBetween(ctx, g, sources, nil, opt)
	if err != nil {
		return measure{}, err
	}
	if h.Unreachable > 0 {
		return measure{diameter: -1, aspl: math.Inf(1)}, nil
	}
	var sum int64
	diam := 0
	for dist, c := range h.Count {
		sum += int64(dist) * c
		if c > 0 {
			diam = dist
		}
	}
	// Ordered pairs from the base: sum; from every vertex: sym·sum;
	// unordered: half that.
	n := g.N()
	total := sum * int64(sym) / 2
	return measure{connected: true, diameter: diam, sum: total, aspl: float64(total) / (float64(n) * float64(n-1) / 2)}, nil
}
