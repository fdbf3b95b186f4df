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

// arc is 16 bytes: w holds an int64 weight, or a float64's bits once the
// builder has seen a float weight.
type arc struct {
	u, v int32
	w    int64
}

func (a arc) float() float64 { return math.Float64frombits(uint64(a.w)) }

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

func (b *Builder) add(u, v int, w int64, negative bool) {
	if u == v {
		if negative && b.negLoop < 0 {
			b.negLoop = u
		}
		return
	}
	b.arcs = append(b.arcs, arc{int32(u), int32(v), w})
	if !b.directed {
		b.arcs = append(b.arcs, arc{int32(v), int32(u), w})
	}
}

// toFloat switches the stored weights to float64 bits at the first float
// weight.
func (b *Builder) toFloat() {
	if b.kind == FloatWeights {
		return
	}
	for i := range b.arcs {
		x := float64(1)
		if b.kind == IntWeights {
			x = float64(b.arcs[i].w)
		}
		b.arcs[i].w = int64(math.Float64bits(x))
	}
	b.kind = FloatWeights
}

func floatBits(x float64) int64 { return int64(math.Float64bits(x)) }

// AddEdge adds an edge of length 1.
func (b *Builder) AddEdge(u, v int) error {
	if err := b.check(u, v); err != nil {
		return err
	}
	if b.kind == FloatWeights {
		b.add(u, v, floatBits(1), false)
	} else {
		b.add(u, v, 1, false)
	}
	return nil
}

// AddIntEdge adds an edge with an integer weight.
func (b *Builder) AddIntEdge(u, v int, w int64) error {
	if err := b.check(u, v); err != nil {
		return err
	}
	switch b.kind {
	case Unweighted:
		b.kind = IntWeights
	case FloatWeights:
		b.add(u, v, floatBits(float64(w)), w < 0)
		return nil
	}
	b.add(u, v, w, w < 0)
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
	b.toFloat()
	b.add(u, v, floatBits(w), w < 0)
	return nil
}

// Build groups the arcs by tail with a counting sort, sorts each vertex's
// arcs, deduplicates them (parallel arcs keep the smallest weight) and
// returns the graph. The builder is empty afterwards.
func (b *Builder) Build() *Graph {
	kind := b.kind
	arcs := b.arcs
	b.arcs = nil
	g := &Graph{n: b.n, directed: b.directed, kind: kind, negLoop: b.negLoop}
	g.offsets = make([]int, b.n+1)
	for _, a := range arcs {
		g.offsets[a.u+1]++
	}
	for u := 0; u < b.n; u++ {
		g.offsets[u+1] += g.offsets[u]
	}
	byTail := make([]arc, len(arcs))
	fill := make([]int, b.n)
	copy(fill, g.offsets[:b.n])
	for _, a := range arcs {
		byTail[fill[a.u]] = a
		fill[a.u]++
	}
	arcs, fill = nil, nil
	cmpArc := func(x, y arc) int {
		if c := cmp.Compare(x.v, y.v); c != 0 {
			return c
		}
		if kind == FloatWeights {
			return cmp.Compare(x.float(), y.float())
		}
		return cmp.Compare(x.w, y.w)
	}
	// Sort and deduplicate each vertex's arcs in place, compacting as we go.
	out := 0
	for u := 0; u < b.n; u++ {
		seg := byTail[g.offsets[u]:g.offsets[u+1]]
		slices.SortFunc(seg, cmpArc)
		g.offsets[u] = out
		for i, a := range seg {
			if i > 0 && a.v == seg[i-1].v {
				continue
			}
			byTail[out] = a
			out++
		}
	}
	g.offsets[b.n] = out
	g.heads = make([]int32, out)
	switch kind {
	case IntWeights:
		g.intW = make([]int64, out)
	case FloatWeights:
		g.floatW = make([]float64, out)
	}
	for i, a := range byTail[:out] {
		g.heads[i] = a.v
		switch kind {
		case IntWeights:
			g.intW[i] = a.w
		case FloatWeights:
			g.floatW[i] = a.float()
		}
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
			a := arc{u: v, v: int32(u), w: 1}
			switch g.kind {
			case IntWeights:
				a.w = g.intW[g.offsets[u]+i]
			case FloatWeights:
				a.w = floatBits(g.floatW[g.offsets[u]+i])
			}
			b.arcs = append(b.arcs, a)
		}
	}
	return b.Build()
}
