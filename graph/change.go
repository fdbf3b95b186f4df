package graph

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apsp/apsp/internal/csr"
)

// ErrNoEdge and ErrEdgeExists are wrapped by Change's refusals of an edge
// to remove that is not there and of one to add that is.
var (
	ErrNoEdge     = errors.New("no such edge")
	ErrEdgeExists = errors.New("edge already in the graph")
)

// Changes are edits of a graph's edges (arcs, when it is directed), for
// Change.
type Changes struct {
	// Remove lists edges to take out: each must be in the graph.
	Remove [][2]int
	// Add lists edges to put in after the removals: none may be in the
	// graph then, nor be a self-loop.
	Add [][2]int
	// AddInt or AddFloat (at most one) are the lengths of the edges of
	// Add, in order; with neither, each has length 1.
	AddInt   []int64
	AddFloat []float64
}

// Change returns g with the changes made, as if made one edge at a time,
// removals first: an edge removed twice is not there the second time,
// and one removed and added again is put back with its new length. g is
// left as it was (graphs do not change); the new graph shares the arrays
// that the changes leave as they were, and copies the others, which takes
// O(n + m) time but for a sort of the changes: no sorting of the graph, no
// check of it beyond the changed edges, no parsing. This is the graph a
// program editing one graph step by step measures after each step (a
// search loop's swap of two edges).
//
// Lengths of another kind than g's change the kind of the result as the
// Builder does: integer lengths into an unweighted graph make every other
// edge length 1, float lengths make the integers floats; a graph with
// lengths takes an edge without one as length 1. Changes are refused
// as a whole, with g untouched, when an edge is out of range or a
// self-loop (to add), when an edge to remove is not there (ErrNoEdge) or
// one to add is (ErrEdgeExists), or when a length is not finite.
func (g *Graph) Change(c Changes) (*Graph, error) {
	return g.change(c, nil)
}

// ChangeInto is Change, but an unweighted result may be dst itself,
// taking over its arc array instead of allocating one when the array is
// large enough: a search loop that discards most of the candidates it
// makes by Change hands each discarded one back, and allocates nothing
// per candidate. dst must be a graph that Change or ChangeInto returned,
// other than g and other than any graph in use, that nothing uses any
// more: afterwards it is the result or invalid. A nil dst makes
// ChangeInto Change.
func (g *Graph) ChangeInto(dst *Graph, c Changes) (*Graph, error) {
	return g.change(c, dst)
}

// change is Change, taking dst's heads as ChangeInto says.
func (g *Graph) change(c Changes, dst *Graph) (*Graph, error) {
	var small [8]edit // a search's swap: no allocation
	edits, kind, moved, err := g.checkChanges(c, small[:0])
	if err != nil {
		return nil, err
	}
	return g.splice(edits, kind, moved, dst), nil
}

// An ArcEdit rewrites one arc of a graph where it lies: the arc at
// position Slot of Tail's out-arcs (Neighbors(Tail)[Slot]) gets the head
// Head.
type ArcEdit struct {
	Tail, Slot, Head int32
}

// ArcEdits returns, appended to dst, the arcs of g to rewrite so that
// g's arcs become those of g.Change(c): the same out-arcs of each vertex,
// but for their order (ArcEdits keeps each rewritten arc's position,
// where Change keeps a vertex's arcs sorted). It applies to changes that
// leave every vertex's arc count as it was and add no lengths to an
// unweighted graph, as an edge swap does: a program measuring many such
// changes of one graph sends the graph once and a few arcs a change (the
// GPU bulk search). ok is false for other changes, which need Change. c
// is checked as Change checks it, with its errors.
func (g *Graph) ArcEdits(c Changes, dst []ArcEdit) (edits []ArcEdit, ok bool, err error) {
	var small [8]edit
	es, kind, moved, err := g.checkChanges(c, small[:0])
	if err != nil || moved || kind != Unweighted || g.kind != Unweighted {
		return dst, false, err
	}
	// Each tail's arcs gone and arcs come are as many (moved is false):
	// the k-th come takes the slot of the k-th gone. Within an arc's run
	// of edits, what is there at the end decides.
	for lo := 0; lo < len(es); {
		u := es[lo].u
		hi := lo
		for hi < len(es) && es[hi].u == u {
			hi++
		}
		var gone, come []int32 // slots; heads
		var gs, cs [8]int32
		gone, come = gs[:0], cs[:0]
		for a := lo; a < hi; {
			b := a + 1
			for b < hi && es[b].v == es[a].v {
				b++
			}
			at := es[a].at
			switch there := es[b-1].add; {
			case at >= 0 && !there:
				gone = append(gone, at)
			case at < 0 && there:
				come = append(come, es[a].v)
			}
			a = b
		}
		for k, slot := range gone {
			dst = append(dst, ArcEdit{Tail: u, Slot: slot, Head: come[k]})
		}
		lo = hi
	}
	return dst, true, nil
}

// checkChanges checks c against g and returns its arcs' edits (in buf's
// array when it has the room, else a new one), sorted by tail and head, a removal before an addition of the
// same arc; the kind of the changed graph; and whether some vertex's arc
// count changes.
func (g *Graph) checkChanges(c Changes, buf []edit) (edits []edit, kind WeightKind, moved bool, err error) {
	kind = g.kind
	switch {
	case c.AddInt != nil && c.AddFloat != nil:
		return nil, kind, false, errors.New("changes with both integer and float lengths")
	case c.AddInt != nil:
		if len(c.AddInt) != len(c.Add) {
			return nil, kind, false, fmt.Errorf("%d lengths for %d edges to add", len(c.AddInt), len(c.Add))
		}
		kind = max(kind, IntWeights)
	case c.AddFloat != nil:
		if len(c.AddFloat) != len(c.Add) {
			return nil, kind, false, fmt.Errorf("%d lengths for %d edges to add", len(c.AddFloat), len(c.Add))
		}
		for i, w := range c.AddFloat {
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, kind, false, fmt.Errorf("add[%d]: length %v is not finite", i, w)
			}
		}
		kind = FloatWeights
	}
	per := 1
	if !g.directed {
		per = 2
	}
	edits = buf
	if k := per * (len(c.Remove) + len(c.Add)); k > cap(buf) {
		edits = make([]edit, 0, k)
	}
	for k, list := range [][][2]int{c.Remove, c.Add} {
		what := [2]string{"remove", "add"}[k]
		for i, e := range list {
			u, v := e[0], e[1]
			if u < 0 || v < 0 || u >= g.n || v >= g.n {
				return nil, kind, false, fmt.Errorf("%s[%d]: %d %d: vertex out of range 0..%d", what, i, u, v, g.n-1)
			}
			if u == v {
				if k == 0 {
					return nil, kind, false, fmt.Errorf("%s[%d]: %d %d: %w (a graph keeps no self-loop)", what, i, u, v, ErrNoEdge)
				}
				return nil, kind, false, fmt.Errorf("%s[%d]: %d %d: a self-loop (a graph keeps none: it changes no distance)", what, i, u, v)
			}
			ed := edit{u: int32(u), v: int32(v), add: k == 1, i: i, w: 1, key: editKey(u, v, k == 1), at: -1}
			if k == 1 {
				switch {
				case c.AddInt != nil:
					ed.w = float64(c.AddInt[i])
					ed.iw = c.AddInt[i]
				case c.AddFloat != nil:
					ed.w = c.AddFloat[i]
				}
				if c.AddFloat == nil && c.AddInt == nil {
					ed.iw = 1
				}
			}
			edits = append(edits, ed)
			if !g.directed {
				ed.u, ed.v, ed.key = ed.v, ed.u, editKey(v, u, k == 1)
				edits = append(edits, ed)
			}
		}
	}
	// Sorted by key, stably: the edits of one arc and kind are in the
	// order of their lists already. A search's swap has 8: insertion.
	if len(edits) <= 16 {
		for i := 1; i < len(edits); i++ {
			for j := i; j > 0 && edits[j-1].key > edits[j].key; j-- {
				edits[j-1], edits[j] = edits[j], edits[j-1]
			}
		}
	} else {
		slices.SortStableFunc(edits, func(a, b edit) int { return cmp.Compare(a.key, b.key) })
	}
	// Check each arc's edits in order: what is there, then taken out and
	// put in; and whether some vertex's arc count changes.
	net, tail := 0, int32(-1) // the arcs tail gains
	for lo := 0; lo < len(edits); {
		hi := lo + 1
		for hi < len(edits) && edits[hi].u == edits[lo].u && edits[hi].v == edits[lo].v {
			hi++
		}
		if edits[lo].u != tail {
			moved = moved || net != 0
			net, tail = 0, edits[lo].u
		}
		at := g.ArcIndex(int(edits[lo].u), int(edits[lo].v))
		edits[lo].at = int32(at)
		there := at >= 0
		before := there
		for _, ed := range edits[lo:hi] {
			switch {
			case !ed.add && !there:
				e := c.Remove[ed.i]
				return nil, kind, false, fmt.Errorf("remove[%d]: %d %d: %w", ed.i, e[0], e[1], ErrNoEdge)
			case ed.add && there:
				e := c.Add[ed.i]
				return nil, kind, false, fmt.Errorf("add[%d]: %d %d: %w", ed.i, e[0], e[1], ErrEdgeExists)
			}
			there = ed.add
		}
		switch {
		case there && !before:
			net++
		case before && !there:
			net--
		}
		lo = hi
	}
	moved = moved || net != 0
	return edits, kind, moved, nil
}

// editKey is the order of an edit of arc u→v: by tail, head, then a
// removal before an addition.
func editKey(u, v int, add bool) uint64 {
	k := uint64(u)<<33 | uint64(v)<<1
	if add {
		k |= 1
	}
	return k
}

// edit is one arc of Changes: u→v taken out or put in (i its position in
// Remove or Add), with its length as an integer and a float.
type edit struct {
	u, v int32
	add  bool
	i    int
	iw   int64
	w    float64
	// key orders the edits: by tail, head, then a removal first.
	key uint64
	// at is the arc's position among u's arcs in the graph changed, or
	// -1 (set by checkChanges on the first edit of each arc; -1 on the
	// others).
	at int32
}

// splice builds the changed graph from g and the checked, sorted edits;
// moved says whether the arc count of some vertex changes. An unweighted
// result takes dst's heads when they are not g's and have the room.
func (g *Graph) splice(edits []edit, kind WeightKind, moved bool, dst *Graph) *Graph {
	var heads []int32 // dst's, when the result takes them
	if dst != nil && dst != g && kind == Unweighted && cap(g.heads) > 0 && cap(dst.heads) > 0 && &dst.heads[:1][0] != &g.heads[:1][0] {
		heads = dst.heads
	} else {
		dst = new(Graph)
	}
	h := dst
	*h = *g
	h.kind = kind
	// The arc count of each tail: new offsets only when one changes.
	if moved {
		delta := make(map[int32]int, len(edits))
		for _, ed := range edits {
			if ed.add {
				delta[ed.u]++
			} else {
				delta[ed.u]--
			}
		}
		h.offsets = make([]int, g.n+1)
		shift := 0
		for u := range g.n {
			h.offsets[u] = g.offsets[u] + shift
			shift += delta[int32(u)]
		}
		h.offsets[g.n] = g.offsets[g.n] + shift
	}
	m := h.offsets[g.n]
	if cap(heads) >= m+csr.HeadsSlack {
		h.heads = heads[:m]
		clear(h.heads[m : m+csr.HeadsSlack]) // the slack the kernels may read is zero, as when made
	} else {
		h.heads = make([]int32, m, m+csr.HeadsSlack)
	}
	h.intW, h.floatW = nil, nil
	switch kind {
	case IntWeights:
		h.intW = make([]int64, m)
		spliceArcs(g, h, edits, g.intWeightsAs(), h.intW, func(ed edit) int64 { return ed.iw })
	case FloatWeights:
		h.floatW = make([]float64, m)
		spliceArcs(g, h, edits, g.floatWeightsAs(), h.floatW, func(ed edit) float64 { return ed.w })
	default:
		spliceArcs[int64](g, h, edits, nil, nil, nil)
	}
	return h
}

// intWeightsAs is g's lengths as integers (1 when unweighted).
func (g *Graph) intWeightsAs() []int64 {
	if g.kind == IntWeights {
		return g.intW
	}
	w := make([]int64, len(g.heads))
	for i := range w {
		w[i] = 1
	}
	return w
}

// floatWeightsAs is g's lengths as floats.
func (g *Graph) floatWeightsAs() []float64 {
	switch g.kind {
	case FloatWeights:
		return g.floatW
	case IntWeights:
		w := make([]float64, len(g.intW))
		for i, x := range g.intW {
			w[i] = float64(x)
		}
		return w
	}
	w := make([]float64, len(g.heads))
	for i := range w {
		w[i] = 1
	}
	return w
}

// spliceArcs fills h's heads (and lengths newW, from g's oldW, unless
// nil) from g's: the vertices without edits by block copies, the others
// by merging their arcs with the edits.
func spliceArcs[W int64 | float64](g, h *Graph, edits []edit, oldW, newW []W, weight func(edit) W) {
	from := 0 // the first vertex not yet copied
	for lo := 0; lo < len(edits); {
		u := int(edits[lo].u)
		hi := lo + 1
		for hi < len(edits) && int(edits[hi].u) == u {
			hi++
		}
		// Vertices from..u-1 are unchanged: one copy.
		a, b := g.offsets[from], g.offsets[u]
		copy(h.heads[h.offsets[from]:], g.heads[a:b])
		if newW != nil {
			copy(newW[h.offsets[from]:], oldW[a:b])
		}
		// Vertex u: its arcs merged with the edits, both sorted by head.
		out := h.offsets[u]
		i, end := g.offsets[u], g.offsets[u+1]
		for _, ed := range edits[lo:hi] {
			for i < end && g.heads[i] < ed.v {
				h.heads[out] = g.heads[i]
				if newW != nil {
					newW[out] = oldW[i]
				}
				out, i = out+1, i+1
			}
			if !ed.add {
				i++ // the arc taken out (checked to be there)
				continue
			}
			h.heads[out] = ed.v
			if newW != nil {
				newW[out] = weight(ed)
			}
			out++
		}
		copy(h.heads[out:], g.heads[i:end])
		if newW != nil {
			copy(newW[out:], oldW[i:end])
		}
		from, lo = u+1, hi
	}
	a := g.offsets[from]
	copy(h.heads[h.offsets[from]:], g.heads[a:])
	if newW != nil {
		copy(newW[h.offsets[from]:], oldW[a:])
	}
}
