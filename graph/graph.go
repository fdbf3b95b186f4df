package graph

import (
	"fmt"
	"math"
)

// WeightKind says what lengths a graph's arcs carry.
type WeightKind int

const (
	// Unweighted graphs give every arc length 1.
	Unweighted WeightKind = iota
	// IntWeights are exact signed 64-bit integers.
	IntWeights
	// FloatWeights are finite float64 values.
	FloatWeights
)

func (k WeightKind) String() string {
	switch k {
	case Unweighted:
		return "unweighted"
	case IntWeights:
		return "integer"
	case FloatWeights:
		return "float"
	}
	return fmt.Sprintf("WeightKind(%d)", int(k))
}

// Graph is an immutable graph in CSR form. Vertices are 0..N()-1.
type Graph struct {
	n        int
	directed bool
	kind     WeightKind
	offsets  []int   // len n+1: arcs of u are heads[offsets[u]:offsets[u+1]]
	heads    []int32 // arc heads, sorted within each vertex
	intW     []int64 // per arc, when kind == IntWeights
	floatW   []float64
	negLoop  int      // a vertex with a negative self-loop, or -1
	names    []string // the vertices' names by id, or nil (see Names)
}

// N returns the number of vertices.
func (g *Graph) N() int { return g.n }

// Directed reports whether arcs are one-way.
func (g *Graph) Directed() bool { return g.directed }

// Kind returns the weight kind.
func (g *Graph) Kind() WeightKind { return g.kind }

// Weighted reports whether arcs carry weights (integer or float).
func (g *Graph) Weighted() bool { return g.kind != Unweighted }

// Arcs returns the number of stored arcs; an undirected edge counts twice.
func (g *Graph) Arcs() int { return len(g.heads) }

// Edges returns the number of edges: arcs for a directed graph, arcs/2 for an
// undirected one.
func (g *Graph) Edges() int {
	if g.directed {
		return len(g.heads)
	}
	return len(g.heads) / 2
}

// Neighbors returns the heads of the arcs leaving u, in increasing order. The
// slice must not be modified.
func (g *Graph) Neighbors(u int) []int32 {
	hi := g.offsets[u+1]
	return g.heads[g.offsets[u]:hi:hi] // no capacity into the next vertex's arcs or the slack
}

// Degree returns the number of arcs leaving u.
func (g *Graph) Degree(u int) int { return g.offsets[u+1] - g.offsets[u] }

// IntWeights returns the weights of the arcs leaving u (parallel to
// Neighbors), or nil when the graph has no integer weights.
func (g *Graph) IntWeights(u int) []int64 {
	if g.kind != IntWeights {
		return nil
	}
	return g.intW[g.offsets[u]:g.offsets[u+1]]
}

// FloatWeights returns the weights of the arcs leaving u (parallel to
// Neighbors), or nil when the graph has no float weights.
func (g *Graph) FloatWeights(u int) []float64 {
	if g.kind != FloatWeights {
		return nil
	}
	return g.floatW[g.offsets[u]:g.offsets[u+1]]
}

// ArcInt returns the length of the i-th arc leaving u as an integer (1 for an
// unweighted graph). It must not be called on a float-weighted graph.
func (g *Graph) ArcInt(u, i int) int64 {
	if g.kind == IntWeights {
		return g.intW[g.offsets[u]+i]
	}
	return 1
}

// ArcFloat returns the length of the i-th arc leaving u as a float64.
func (g *Graph) ArcFloat(u, i int) float64 {
	switch g.kind {
	case IntWeights:
		return float64(g.intW[g.offsets[u]+i])
	case FloatWeights:
		return g.floatW[g.offsets[u]+i]
	}
	return 1
}

// NegativeSelfLoop returns a vertex with a negative self-loop, which is a
// negative cycle by itself.
func (g *Graph) NegativeSelfLoop() (int, bool) { return g.negLoop, g.negLoop >= 0 }

// HasNegativeWeights reports whether some arc (or a dropped self-loop) is
// negative.
func (g *Graph) HasNegativeWeights() bool {
	if g.negLoop >= 0 {
		return true
	}
	for _, w := range g.intW {
		if w < 0 {
			return true
		}
	}
	for _, w := range g.floatW {
		if w < 0 {
			return true
		}
	}
	return false
}

// IntWeightRange returns the smallest and largest arc length of a graph
// without float weights (1, 1 when unweighted; 0, 0 with no arcs).
func (g *Graph) IntWeightRange() (lo, hi int64) {
	if len(g.heads) == 0 {
		return 0, 0
	}
	if g.kind == Unweighted {
		return 1, 1
	}
	lo, hi = math.MaxInt64, math.MinInt64
	for _, w := range g.intW {
		lo = min(lo, w)
		hi = max(hi, w)
	}
	return lo, hi
}

// FloatWeightRange returns the smallest and largest arc length as float64.
func (g *Graph) FloatWeightRange() (lo, hi float64) {
	if g.kind != FloatWeights {
		l, h := g.IntWeightRange()
		return float64(l), float64(h)
	}
	if len(g.heads) == 0 {
		return 0, 0
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, w := range g.floatW {
		lo = math.Min(lo, w)
		hi = math.Max(hi, w)
	}
	return lo, hi
}

// DegreeRange returns the smallest and largest out-degree.
func (g *Graph) DegreeRange() (lo, hi int) {
	if g.n == 0 {
		return 0, 0
	}
	lo = math.MaxInt
	for u := 0; u < g.n; u++ {
		d := g.Degree(u)
		lo = min(lo, d)
		hi = max(hi, d)
	}
	return lo, hi
}

// ArcIndex returns the position of the arc u→v among u's arcs, or -1.
func (g *Graph) ArcIndex(u, v int) int {
	hs := g.Neighbors(u)
	lo, hi := 0, len(hs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(hs[m]) < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(hs) && int(hs[lo]) == v {
		return lo
	}
	return -1
}
