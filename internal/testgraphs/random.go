package testgraphs

import (
	"fmt"
	"math/rand/v2"

	"github.com/apsp/apsp/graph"
)

// Edge is one edge as handed to the builder: the arc U→V when directed.
// W is its length for integer weights, F for float weights; an unweighted
// edge uses neither.
type Edge struct {
	U, V int
	W    int64
	F    float64
}

// Spec describes a random graph (Random). The arcs come from one of two
// models:
//
//   - M == 0: each pair of distinct vertices — ordered when Directed, u < v
//     otherwise — is an edge with probability P (Gilbert's G(n, p)); with P
//     == 0 too the graph has no edge and nothing is drawn;
//   - M > 0: M edges are drawn with both ends uniform, so that repeats
//     occur (the builder keeps the lightest of parallel edges); a
//     self-loop is kept when Loops (the builder drops it, noting a
//     negative one as a negative cycle) and skipped, with no length drawn,
//     otherwise.
//
// With Parts > 1 only vertices of the same residue modulo Parts are joined:
// at least Parts components, so that many pairs are unreachable.
//
// Lengths (Kind IntWeights or FloatWeights) are uniform integers in
// [Lo, Hi] or uniform floats in [Lo, Hi); the first edge drawn has length
// Lo exactly, so that a test of what the extremes of the weights choose (a
// queue, a lane kind) can predict the smallest. With Zeros > 0 each length
// is then replaced by 0 with that probability. Potential > 0, for directed
// graphs only, adds h(u) − h(v) to every arc u→v, with h(v) drawn for each
// vertex in [−Potential, 0] (multiples of 1/8 for float weights, so that
// the differences are exact): negative arcs, but every cycle keeps its
// length, so there is no negative cycle when Lo ≥ 0. (In an undirected
// graph a negative edge is a negative cycle by itself.)
//
// The draws from the generator come in a fixed order — the potentials
// (two per vertex) first, then for each candidate pair in turn (row by
// row; in the M model the two ends) the coin, the length and the zero — so
// that a seed gives the same graph.
type Spec struct {
	N        int
	Directed bool
	Kind     graph.WeightKind
	P        float64
	M        int
	Loops    bool
	Parts    int
	Lo, Hi   int64
	Zeros    float64
	// Potential > 0 shifts lengths by vertex potentials (directed only).
	Potential int64
}

func (s Spec) String() string {
	dir := "undirected"
	if s.Directed {
		dir = "directed"
	}
	arcs := fmt.Sprintf("p=%.3g", s.P)
	if s.M > 0 {
		arcs = fmt.Sprintf("m=%d", s.M)
		if s.Loops {
			arcs += "+loops"
		}
	}
	out := fmt.Sprintf("n=%d/%s/%v/%s", s.N, dir, s.Kind, arcs)
	if s.Parts > 1 {
		out += fmt.Sprintf("/parts=%d", s.Parts)
	}
	if s.Kind != graph.Unweighted {
		out += fmt.Sprintf("/w=%d..%d", s.Lo, s.Hi)
	}
	if s.Zeros > 0 {
		out += fmt.Sprintf("/zeros=%.2g", s.Zeros)
	}
	if s.Potential > 0 {
		out += fmt.Sprintf("/h=%d", s.Potential)
	}
	return out
}

// Random draws a graph as s describes (see Spec) from rng.
func Random(rng *rand.Rand, s Spec) *graph.Graph {
	return Build(s.N, s.Directed, s.Kind, RandomEdges(rng, s))
}

// RandomEdges draws the edges of a graph as s describes, for tests that
// keep their own adjacency (so that their reference does not go through
// the code under test) or add edges of their own before building.
func RandomEdges(rng *rand.Rand, s Spec) []Edge {
	if s.Potential > 0 && !s.Directed {
		panic("testgraphs: a potential on an undirected graph makes negative edges, each a negative cycle")
	}
	if s.Hi < s.Lo && s.Kind != graph.Unweighted {
		panic(fmt.Sprintf("testgraphs: lengths %d..%d", s.Lo, s.Hi))
	}
	n := s.N
	parts := max(s.Parts, 1)
	h := make([]int64, n)
	hf := make([]float64, n)
	if s.Potential > 0 {
		for i := range n {
			h[i] = -rng.Int64N(s.Potential + 1)
			hf[i] = -float64(rng.Int64N(8*s.Potential+1)) / 8
		}
	}
	var edges []Edge
	add := func(u, v int) {
		e := Edge{U: u, V: v}
		first := len(edges) == 0
		switch s.Kind {
		case graph.IntWeights:
			w := s.Lo + rng.Int64N(s.Hi-s.Lo+1)
			if first {
				w = s.Lo
			}
			if s.Zeros > 0 && rng.Float64() < s.Zeros {
				w = 0
			}
			e.W = w + h[u] - h[v]
		case graph.FloatWeights:
			w := float64(s.Lo) + rng.Float64()*float64(s.Hi-s.Lo)
			if first {
				w = float64(s.Lo)
			}
			if s.Zeros > 0 && rng.Float64() < s.Zeros {
				w = 0
			}
			e.F = w + hf[u] - hf[v]
		}
		edges = append(edges, e)
	}
	if s.M > 0 {
		if n == 0 {
			return nil
		}
		for range s.M {
			u, v := rng.IntN(n), rng.IntN(n)
			if (u == v && !s.Loops) || u%parts != v%parts {
				continue
			}
			add(u, v)
		}
		return edges
	}
	if s.P <= 0 {
		return nil // no coin drawn: M == 0 with P == 0 is the empty graph
	}
	for u := range n {
		first := 0
		if !s.Directed {
			first = u + 1
		}
		for v := first; v < n; v++ {
			if u == v || u%parts != v%parts || rng.Float64() >= s.P {
				continue
			}
			add(u, v)
		}
	}
	return edges
}

// Build returns the graph of n vertices (at least; an edge may name more)
// with the edges given, in order.
func Build(n int, directed bool, kind graph.WeightKind, edges []Edge) *graph.Graph {
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	b.Grow(len(edges))
	for _, e := range edges {
		var err error
		switch kind {
		case graph.IntWeights:
			err = b.AddIntEdge(e.U, e.V, e.W)
		case graph.FloatWeights:
			err = b.AddFloatEdge(e.U, e.V, e.F)
		default:
			err = b.AddEdge(e.U, e.V)
		}
		if err != nil {
			panic(err)
		}
	}
	return b.Build()
}

// PerVertex is a random unweighted graph of n vertices where each vertex
// draws deg arcs (edges when undirected) to uniform vertices, self-loops
// skipped, and a share isolated of the vertices draws none: directed
// graphs, several components and vertices that reach nothing all occur.
// The draws: for each vertex in turn its isolation coin, then its heads.
func PerVertex(rng *rand.Rand, n, deg int, directed bool, isolated float64) *graph.Graph {
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	for u := range n {
		if rng.Float64() < isolated {
			continue
		}
		for range deg {
			v := rng.IntN(n)
			if v == u {
				continue
			}
			if err := b.AddEdge(u, v); err != nil {
				panic(err)
			}
		}
	}
	return b.Build()
}
