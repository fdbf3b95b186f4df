package golf

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/apsp/apsp/graph"
)

// state is the search's graph: sorted neighbour lists in CSR form (the
// offsets never change, since swaps keep every degree) and the edge list
// that moves draw from.
type state struct {
	n     int
	grid  Grid // R > 0: every edge within R
	off   []int
	heads []int32
	edges [][2]int32
	// sym is the order of the rotation every move keeps the graph
	// invariant under (symmetry.go), 1 for none; edges then lie orbit by
	// orbit.
	sym int
}

// move is a 2-opt swap: edges a-b (index e1) and c-d (e2) become a-c and
// b-d.
type move struct {
	e1, e2     int
	a, b, c, d int32
}

func newState(g *Graph) (*state, error) {
	s := &state{n: g.N, grid: g.Grid, edges: slices.Clone(g.Edges), sym: 1}
	deg := g.Degrees()
	s.off = make([]int, g.N+1)
	for u, d := range deg {
		s.off[u+1] = s.off[u] + d
	}
	s.heads = make([]int32, s.off[g.N])
	cur := slices.Clone(s.off[:g.N])
	for _, e := range g.Edges {
		u, v := e[0], e[1]
		if u == v {
			return nil, fmt.Errorf("%w: self-loop at %d", ErrParams, u)
		}
		s.heads[cur[u]] = v
		cur[u]++
		s.heads[cur[v]] = u
		cur[v]++
	}
	for u := range g.N {
		row := s.heads[s.off[u]:s.off[u+1]]
		slices.Sort(row)
		for i := 1; i < len(row); i++ {
			if row[i] == row[i-1] {
				return nil, fmt.Errorf("%w: edge %d-%d twice", ErrParams, u, row[i])
			}
		}
	}
	return s, nil
}

// row returns u's neighbours in heads (the state's or a copy's).
func (s *state) row(heads []int32, u int32) []int32 {
	return heads[s.off[u]:s.off[u+1]]
}

func (s *state) adjacent(u, v int32) bool {
	_, ok := slices.BinarySearch(s.row(s.heads, u), v)
	return ok
}

// maxTries bounds the draws for one valid move.
const maxTries = 10000

// propose draws a valid move uniformly among ordered pairs of distinct
// edges and the two ways to reconnect them: the graph stays simple and,
// on a grid with a limit, every new edge is within it.
func (s *state) propose(rng *rand.Rand) (move, bool) {
	m := len(s.edges)
	if m < 2 {
		return move{}, false
	}
	for range maxTries {
		e1 := rng.IntN(m)
		e2 := rng.IntN(m - 1)
		if e2 >= e1 {
			e2++
		}
		a, b := s.edges[e1][0], s.edges[e1][1]
		if rng.IntN(2) == 1 {
			a, b = b, a
		}
		c, d := s.edges[e2][0], s.edges[e2][1]
		if a == c || a == d || b == c || b == d {
			continue
		}
		if s.grid.R > 0 && (s.grid.Length(int(a), int(c)) > s.grid.R || s.grid.Length(int(b), int(d)) > s.grid.R) {
			continue
		}
		if s.adjacent(a, c) || s.adjacent(b, d) {
			continue
		}
		if s.sym > 1 && !s.symmetricOK(e1, e2, a, b, c, d) {
			continue
		}
		return move{e1: e1, e2: e2, a: a, b: b, c: c, d: d}, true
	}
	return move{}, false
}

// applyHeads makes the move in heads (the state's or a copy's), keeping
// every row sorted.
func (s *state) applyHeads(heads []int32, mv move) {
	replace(s.row(heads, mv.a), mv.b, mv.c)
	replace(s.row(heads, mv.b), mv.a, mv.d)
	replace(s.row(heads, mv.c), mv.d, mv.a)
	replace(s.row(heads, mv.d), mv.c, mv.b)
}

// apply makes the move in the state (in every copy of a symmetric one,
// whose two new orbits take the old ones' places).
func (s *state) apply(mv move) {
	if s.sym > 1 {
		o1, o2 := mv.e1/s.sym*s.sym, mv.e2/s.sym*s.sym
		for k := range s.sym {
			r := s.rotated(mv, k)
			s.applyHeads(s.heads, r)
			s.edges[o1+k] = [2]int32{r.a, r.c}
			s.edges[o2+k] = [2]int32{r.b, r.d}
		}
		return
	}
	s.applyHeads(s.heads, mv)
	s.edges[mv.e1] = [2]int32{min(mv.a, mv.c), max(mv.a, mv.c)}
	s.edges[mv.e2] = [2]int32{min(mv.b, mv.d), max(mv.b, mv.d)}
}

// replace puts x in place of old in the sorted row, keeping it sorted.
func replace(row []int32, old, x int32) {
	i, _ := slices.BinarySearch(row, old)
	if x > old {
		for i+1 < len(row) && row[i+1] < x {
			row[i] = row[i+1]
			i++
		}
	} else {
		for i > 0 && row[i-1] > x {
			row[i] = row[i-1]
			i--
		}
	}
	row[i] = x
}

// graphOf returns the library's graph over heads, which it keeps.
func (s *state) graphOf(heads []int32) (*graph.Graph, error) {
	g, err := graph.FromSortedAdjacency(s.n, s.off, heads)
	if err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	return g, nil
}

// golfGraph returns heads as a Graph of edges.
func (s *state) golfGraph(heads []int32) *Graph {
	g := &Graph{N: s.n, Grid: s.grid, Edges: make([][2]int32, 0, len(s.edges))}
	for u := range int32(s.n) {
		for _, v := range s.row(heads, u) {
			if u < v {
				g.Edges = append(g.Edges, [2]int32{u, v})
			}
		}
	}
	return g
}
