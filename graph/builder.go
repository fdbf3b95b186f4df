package graph

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// MaxVertices is the largest vertex count a Graph can hold (ids are int32).
const MaxVertices = math.MaxInt32

// ErrTooLarge is wrapped by errors about sizes that cannot be represented.
var ErrTooLarge = errors.New("graph too large")

type arc struct {
	u, v int32
	w    int64
	f    float64
}

// Builder collects edges and builds a Graph. The zero value is not usable;
// call NewBuilder.
type Builder struct {
	directed bool
	n        int
	arcs     []arc
	kind     WeightKind
	negLoop  int
}

// NewBuilder returns a builder for a directed or undirected graph.
func NewBuilder(directed bool) *Builder {
	return &Builder{directed: directed, negLoop: -1}
}

// SetVertices makes the graph have at least n vertices.
func (b *Builder) SetVertices(n int) error {
	if n < 0 {
		return fmt.Errorf("negative vertex count %d", n)
	}
	if n > MaxVertices {
		return fmt.Errorf("%d vertices: %w (at most %d)", n, ErrTooLarge, MaxVertices)
	}
	b.n = max(b.n, n)
	return nil
}

// Grow reserves room for m more edges.
func (b *Builder) Grow(m int) {
	if !b.directed {
		m *= 2
	}
	b.arcs = slices.Grow(b.arcs, m)
}

func (b *Builder) check(u, v int) error {
	if u < 0 || v < 0 {
		return fmt.Errorf("negative vertex id in edge %d %d", u, v)
	}
	if u >= MaxVertices || v >= MaxVertices {
		return fmt.Errorf("vertex id %d: %w (ids must be below %d)", max(u, v), ErrTooLarge, MaxVertices)
	}
	b.n = max(b.n, u+1, v+1)
	return nil
}

func (b *Builder) add(u, v int, w int64, f float64, negative bool) {
	if u == v {
		if negative && b.negLoop < 0 {
			b.negLoop = u
		}
		return
	}
	b.arcs = append(b.arcs, arc{int32(u), int32(v), w, f})
	if !b.directed {
		b.arcs = append(b.arcs, arc{int32(v), int32(u), w, f})
	}
}

// AddEdge adds an edge of length 1.
func (b *Builder) AddEdge(u, v int) error {
	if err := b.check(u, v); err != nil {
		return err
	}
	b.add(u, v, 1, 1, false)
	return nil
}

// AddIntEdge adds an edge with an integer weight.
func (b *Builder) AddIntEdge(u, v int, w int64) error {
	if err := b.check(u, v); err != nil {
		return err
	}
	if b.kind == Unweighted {
		b.kind = IntWeights
	}
	b.add(u, v, w, float64(w), w < 0)
	return nil
}

// AddFloatEdge adds an edge with a float weight, which must be finite.
func (b *Builder) AddFloatEdge(u, v int, w float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) {
		return fmt.Errorf("weight %v is not a finite number", w)
	}
	if err := b.check(u, v); err != nil {
		return err
	}
	b.kind = FloatWeights
	b.add(u, v, 0, w, w < 0)
	return nil
}

// Build sorts and deduplicates the arcs (parallel arcs keep the smallest
// weight) and returns the graph. The builder is empty afterwards.
func (b *Builder) Build() *Graph {
	kind := b.kind
	arcs := b.arcs
	b.arcs = nil
	slices.SortFunc(arcs, func(x, y arc) int {
		if c := cmp.Compare(x.u, y.u); c != 0 {
			return c
		}
		if c := cmp.Compare(x.v, y.v); c != 0 {
			return c
		}
		if kind == FloatWeights {
			return cmp.Compare(x.f, y.f)
		}
		return cmp.Compare(x.w, y.w)
	})
	// Keep the first (smallest) of each run of equal (u, v).
	out := arcs[:0]
	for i, a := range arcs {
		if i > 0 && a.u == arcs[i-1].u && a.v == arcs[i-1].v {
			continue
		}
		out = append(out, a)
	}
	g := &Graph{n: b.n, directed: b.directed, kind: kind, negLoop: b.negLoop}
	g.offsets = make([]int, b.n+1)
	g.heads = make([]int32, len(out))
	switch kind {
	case IntWeights:
		g.intW = make([]int64, len(out))
	case FloatWeights:
		g.floatW = make([]float64, len(out))
	}
	for i, a := range out {
		g.offsets[a.u+1]++
		g.heads[i] = a.v
		switch kind {
		case IntWeights:
			g.intW[i] = a.w
		case FloatWeights:
			g.floatW[i] = a.f
		}
	}
	for u := 0; u < b.n; u++ {
		g.offsets[u+1] += g.offsets[u]
	}
	return g
}

// Unweighted returns a copy of g in which every arc has length 1.
func (g *Graph) Unweighted() *Graph {
	h := *g
	h.kind = Unweighted
	h.intW, h.floatW = nil, nil
	h.negLoop = -1
	return &h
}

// Transpose returns the graph with every arc reversed (g itself when
// undirected).
func (g *Graph) Transpose() *Graph {
	if !g.directed {
		return g
	}
	b := NewBuilder(true)
	b.n = g.n
	b.kind = g.kind
	b.negLoop = g.negLoop
	b.arcs = make([]arc, 0, len(g.heads))
	for u := 0; u < g.n; u++ {
		for i, v := range g.Neighbors(u) {
			a := arc{u: v, v: int32(u), w: 1, f: 1}
			switch g.kind {
			case IntWeights:
				a.w, a.f = g.intW[g.offsets[u]+i], float64(g.intW[g.offsets[u]+i])
			case FloatWeights:
				a.f = g.floatW[g.offsets[u]+i]
			}
			b.arcs = append(b.arcs, a)
		}
	}
	return b.Build()
}
