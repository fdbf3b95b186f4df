package graph

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/csr"
)

// edgeSet is a graph's edges with their lengths (as float64 and int64),
// keyed by (u, v) with u < v when undirected: the model Change is checked
// against, built again with the Builder.
type edgeSet struct {
	n        int
	directed bool
	kind     WeightKind
	w        map[[2]int]float64
}

func (s *edgeSet) key(u, v int) [2]int {
	if !s.directed && v < u {
		u, v = v, u
	}
	return [2]int{u, v}
}

func (s *edgeSet) build() *Graph {
	b := NewBuilder(s.directed)
	if err := b.SetVertices(s.n); err != nil {
		panic(err)
	}
	keys := make([][2]int, 0, len(s.w))
	for k := range s.w {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return a[0]*s.n + a[1] - b[0]*s.n - b[1] })
	for _, k := range keys {
		var err error
		switch s.kind {
		case Unweighted:
			err = b.AddEdge(k[0], k[1])
		case IntWeights:
			err = b.AddIntEdge(k[0], k[1], int64(s.w[k]))
		case FloatWeights:
			err = b.AddFloatEdge(k[0], k[1], s.w[k])
		}
		if err != nil {
			panic(err)
		}
	}
	return b.Build()
}

func sameGraph(a, b *Graph) bool {
	return a.n == b.n && a.directed == b.directed && a.kind == b.kind && a.negLoop == b.negLoop &&
		slices.Equal(a.offsets, b.offsets) && slices.Equal(a.heads, b.heads) &&
		slices.Equal(a.intW, b.intW) && slices.Equal(a.floatW, b.floatW)
}

// randomEdgeSet is a random simple graph of n vertices and up to 3n
// edges of the kind's lengths (1..9).
func randomEdgeSet(rng *rand.Rand, n int, directed bool, kind WeightKind) *edgeSet {
	s := &edgeSet{n: n, directed: directed, kind: kind, w: map[[2]int]float64{}}
	for range rng.IntN(3 * s.n) {
		u, v := rng.IntN(s.n), rng.IntN(s.n)
		if u != v {
			s.w[s.key(u, v)] = float64(1 + rng.IntN(9))
			if s.kind == Unweighted {
				s.w[s.key(u, v)] = 1
			}
		}
	}
	return s
}

// TestChange: random sequences of changes (swaps of two edges, removals,
// additions, new lengths, kinds promoted) give the graph the Builder makes
// of the edges that result, and leave the graph changed as it was.
func TestChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 60 {
		s := randomEdgeSet(rng, 2+rng.IntN(25), trial%2 == 0, []WeightKind{Unweighted, IntWeights, FloatWeights}[trial%3])
		g := s.build()
		for step := range 40 {
			before := s.build()
			if len(s.w) == 0 {
				before.kind = g.kind
			}
			var c Changes
			// Remove up to three edges, then add up to three, some of
			// them just removed (a new length), some new.
			var removed [][2]int
			for k := range s.w {
				if len(c.Remove) == 3 || rng.IntN(3) == 0 {
					break
				}
				u, v := k[0], k[1]
				if rng.IntN(2) == 0 {
					u, v = v, u // either way round
				}
				if s.directed {
					u, v = k[0], k[1]
				}
				c.Remove = append(c.Remove, [2]int{u, v})
				removed = append(removed, k)
			}
			for _, k := range removed {
				delete(s.w, k)
			}
			promote := step == 20 && s.kind != FloatWeights
			for range rng.IntN(4) {
				var k [2]int
				if len(removed) > 0 && rng.IntN(3) == 0 {
					k, removed = removed[0], removed[1:]
				} else {
					u, v := rng.IntN(s.n), rng.IntN(s.n)
					if _, there := s.w[s.key(u, v)]; u == v || there || slices.Contains(removed, s.key(u, v)) {
						continue
					}
					k = s.key(u, v)
				}
				w := float64(1 + rng.IntN(9))
				c.Add = append(c.Add, [2]int{k[1], k[0]})
				if s.directed {
					c.Add[len(c.Add)-1] = k
				}
				switch {
				case promote && s.kind == Unweighted || !promote && s.kind == IntWeights:
					c.AddInt = append(c.AddInt, int64(w))
				case promote || s.kind == FloatWeights:
					w += 0.5
					c.AddFloat = append(c.AddFloat, w)
				default:
					w = 1
				}
				s.w[s.key(k[0], k[1])] = w
			}
			if promote && len(c.Add) > 0 {
				if s.kind == Unweighted {
					s.kind = IntWeights
				} else {
					s.kind = FloatWeights
				}
			}
			h, err := g.Change(c)
			if err != nil {
				t.Fatalf("trial %d step %d: %+v: %v", trial, step, c, err)
			}
			if !sameGraph(g, before) {
				t.Fatalf("trial %d step %d: the graph changed was changed", trial, step)
			}
			want := s.build()
			if len(s.w) == 0 {
				want.kind = h.kind // the Builder's graph of no edge is unweighted
			}
			if !sameGraph(h, want) {
				t.Fatalf("trial %d step %d: %+v:\n%+v\nwant %+v", trial, step, c, h, want)
			}
			if cap(h.heads)-len(h.heads) < csr.HeadsSlack {
				t.Fatalf("trial %d step %d: heads without their slack", trial, step)
			}
			g = h
		}
	}
}

// TestChangeRefuses: refused changes name the edge and leave the graph.
func TestChangeRefuses(t *testing.T) {
	b := NewBuilder(false)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}} {
		if err := b.AddIntEdge(e[0], e[1], 4); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	keep := *g
	for _, tc := range []struct {
		name string
		c    Changes
		is   error
		want string
	}{
		{"missing", Changes{Remove: [][2]int{{0, 1}, {0, 2}}}, ErrNoEdge, "remove[1]: 0 2"},
		{"twice", Changes{Remove: [][2]int{{0, 1}, {1, 0}}}, ErrNoEdge, "remove[1]"},
		{"there", Changes{Add: [][2]int{{3, 0}, {2, 1}}}, ErrEdgeExists, "add[1]: 2 1"},
		{"added twice", Changes{Add: [][2]int{{3, 0}, {0, 3}}}, ErrEdgeExists, "add[1]"},
		{"removed after adding", Changes{Remove: [][2]int{{0, 3}}, Add: [][2]int{{0, 3}}}, ErrNoEdge, "remove[0]"},
		{"out of range", Changes{Add: [][2]int{{0, 4}}}, nil, "out of range"},
		{"negative", Changes{Remove: [][2]int{{-1, 0}}}, nil, "out of range"},
		{"self-loop", Changes{Add: [][2]int{{2, 2}}}, nil, "self-loop"},
		{"self-loop removed", Changes{Remove: [][2]int{{2, 2}}}, ErrNoEdge, "self-loop"},
		{"lengths", Changes{Add: [][2]int{{0, 3}}, AddInt: []int64{1, 2}}, nil, "2 lengths for 1"},
		{"both", Changes{Add: [][2]int{{0, 3}}, AddInt: []int64{1}, AddFloat: []float64{1}}, nil, "both"},
		{"infinite", Changes{Add: [][2]int{{0, 3}}, AddFloat: []float64{1.0 / zero()}}, nil, "finite"},
	} {
		h, err := g.Change(tc.c)
		if err == nil || h != nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%s: %v, %v; want %q", tc.name, h, err, tc.want)
		}
	}
	if !sameGraph(g, &keep) {
		t.Fatal("a refused change changed the graph")
	}
	// A removal and addition of the same edge is a new length; the
	// degrees stay, so the offsets are shared.
	h, err := g.Change(Changes{Remove: [][2]int{{2, 1}}, Add: [][2]int{{1, 2}}, AddInt: []int64{9}})
	if err != nil || h.ArcInt(1, h.ArcIndex(1, 2)) != 9 || h.ArcInt(2, h.ArcIndex(2, 1)) != 9 || &h.offsets[0] != &g.offsets[0] {
		t.Fatalf("%v %v", h, err)
	}
	// Names and a negative self-loop stay with the graph.
	nb := NewBuilder(true)
	u, _ := nb.Vertex("a")
	v, _ := nb.Vertex("b")
	_ = nb.AddIntEdge(u, v, 2)
	_ = nb.AddIntEdge(v, v, -1)
	ng := nb.Build()
	nh, err := ng.Change(Changes{Add: [][2]int{{v, u}}})
	if err != nil || !slices.Equal(nh.Names(), []string{"a", "b"}) || nh.ArcInt(v, 0) != 1 {
		t.Fatalf("%v %v", nh, err)
	}
	if x, ok := nh.NegativeSelfLoop(); !ok || x != v {
		t.Fatalf("negative self-loop lost: %d %v", x, ok)
	}
}

func zero() float64 { return 0 }

// BenchmarkChange: a swap of two edges (two removed, two added) in the
// search loop's graph shape (n = 1 024, 16-regular-like), against
// building the changed graph with the Builder.
func BenchmarkChange(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1024
	bl := NewBuilder(false)
	for u := range n {
		for range 8 {
			if err := bl.AddEdge(u, rng.IntN(n)); err != nil {
				b.Fatal(err)
			}
		}
	}
	g := bl.Build()
	// A swap a–b, c–d to a–c, b–d, and its undoing.
	a, c := 0, 512
	bb, d := int(g.Neighbors(a)[0]), int(g.Neighbors(c)[0])
	for g.ArcIndex(a, c) >= 0 || g.ArcIndex(bb, d) >= 0 || a == bb || c == d || bb == c || a == d {
		c++
		d = int(g.Neighbors(c)[0])
	}
	swap := Changes{Remove: [][2]int{{a, bb}, {c, d}}, Add: [][2]int{{a, c}, {bb, d}}}
	undo := Changes{Remove: swap.Add, Add: swap.Remove}
	b.Run("Change", func(b *testing.B) {
		cur := g
		for i := 0; b.Loop(); i++ {
			ch := swap
			if i%2 == 1 {
				ch = undo
			}
			var err error
			if cur, err = cur.Change(ch); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Builder", func(b *testing.B) {
		for b.Loop() {
			bl := NewBuilder(false)
			_ = bl.SetVertices(n)
			bl.Grow(len(g.heads) / 2)
			for u := range n {
				for _, v := range g.Neighbors(u) {
					if int(v) > u {
						_ = bl.AddEdge(u, int(v))
					}
				}
			}
			bl.Build()
		}
	})
}

// TestChangeInto: a sequence of swaps made by ChangeInto, each handing
// back the graph two steps old, gives Change's graphs, with the slack
// zero, and leaves the graph it changes as it was.
func TestChangeInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	reused := 0
	for trial := range 20 {
		n := 6 + rng.IntN(40)
		b := NewBuilder(trial%2 == 1)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		for range 3 * n {
			if u, v := rng.IntN(n), rng.IntN(n); u != v {
				if err := b.AddEdge(u, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		g := b.Build()
		var old *Graph // two steps back: handed to ChangeInto
		prev := g
		for step := range 60 {
			var c Changes
			for range 1 + rng.IntN(3) {
				if u, v := rng.IntN(n), rng.IntN(n); u != v && g.ArcIndex(u, v) >= 0 && !slices.Contains(c.Remove, [2]int{u, v}) && !slices.Contains(c.Remove, [2]int{v, u}) {
					c.Remove = append(c.Remove, [2]int{u, v})
				}
			}
			for range rng.IntN(3) {
				if u, v := rng.IntN(n), rng.IntN(n); u != v && g.ArcIndex(u, v) < 0 && !slices.Contains(c.Add, [2]int{u, v}) && !slices.Contains(c.Add, [2]int{v, u}) {
					c.Add = append(c.Add, [2]int{u, v})
				}
			}
			before := cloneGraph(g)
			var oldHeads []int32
			if old != nil {
				oldHeads = old.heads
			}
			want, err := g.Change(c)
			if err != nil {
				t.Fatalf("trial %d step %d: %v", trial, step, err)
			}
			got, err := g.ChangeInto(old, c)
			if err != nil {
				t.Fatalf("trial %d step %d: %v", trial, step, err)
			}
			if got == old && cap(oldHeads) >= len(got.heads)+csr.HeadsSlack && &got.heads[:1][0] != &oldHeads[:1][0] {
				t.Fatalf("trial %d step %d: ChangeInto did not take dst's arcs", trial, step)
			}
			if !sameGraph(got, want) || !sameGraph(g, before) {
				t.Fatalf("trial %d step %d: ChangeInto differs from Change or changed g", trial, step)
			}
			if tail := got.heads[len(got.heads) : len(got.heads)+csr.HeadsSlack]; slices.ContainsFunc(tail, func(x int32) bool { return x != 0 }) {
				t.Fatalf("trial %d step %d: slack not zero", trial, step)
			}
			if old != nil && got == old {
				reused++
			}
			old, prev, g = prev, g, got
		}
	}
	if reused == 0 {
		t.Fatal("ChangeInto never reused an array")
	}
}

// cloneGraph is a deep copy of g.
func cloneGraph(g *Graph) *Graph {
	h := *g
	h.offsets, h.heads = slices.Clone(g.offsets), slices.Clone(g.heads)
	h.intW, h.floatW = slices.Clone(g.intW), slices.Clone(g.floatW)
	return &h
}

// TestArcEdits: the arc edits of a change that keeps every arc count (an
// edge swap, an edge removed and put back) turn the graph's arcs into
// those of Change's graph, vertex by vertex; other changes are not ok,
// and every change is refused exactly when Change refuses it.
func TestArcEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	swaps, others := 0, 0
	for trial := range 80 {
		s := randomEdgeSet(rng, 4+rng.IntN(30), trial%2 == 0, Unweighted)
		g := s.build()
		var edges [][2]int
		for u := range g.N() {
			for _, v := range g.Neighbors(u) {
				if s.directed || u < int(v) {
					edges = append(edges, [2]int{u, int(v)})
				}
			}
		}
		for range 60 {
			var c Changes
			switch r := rng.IntN(6); {
			case r < 3 && len(edges) >= 2:
				// A swap: ab, cd become ac, bd (or refused where ac or bd exist).
				e, f := edges[rng.IntN(len(edges))], edges[rng.IntN(len(edges))]
				c.Remove = [][2]int{e, f}
				c.Add = [][2]int{{e[0], f[0]}, {e[1], f[1]}}
			case r == 3 && len(edges) >= 1:
				e := edges[rng.IntN(len(edges))]
				c.Remove, c.Add = [][2]int{e}, [][2]int{{e[1], e[0]}}
				if s.directed {
					c.Add[0] = e
				}
			default:
				for range 1 + rng.IntN(3) {
					c.Add = append(c.Add, [2]int{rng.IntN(g.N()), rng.IntN(g.N())})
				}
				if rng.IntN(2) == 0 && len(edges) > 0 {
					c.Remove = append(c.Remove, edges[rng.IntN(len(edges))])
				}
			}
			h, err := g.Change(c)
			edits, ok, err2 := g.ArcEdits(c, nil)
			if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
				t.Fatalf("trial %d: %+v: Change's error %v, ArcEdits's %v", trial, c, err, err2)
			}
			if err != nil {
				if ok || len(edits) != 0 {
					t.Fatalf("trial %d: %+v: refused, yet ok %v with %d edits", trial, c, ok, len(edits))
				}
				continue
			}
			same := true
			for u := range g.N() {
				same = same && g.Degree(u) == h.Degree(u)
			}
			if ok != same {
				t.Fatalf("trial %d: %+v: ok %v, but the arc counts kept: %v", trial, c, ok, same)
			}
			if !ok {
				others++
				continue
			}
			swaps++
			rows := make([][]int32, g.N())
			for u := range rows {
				rows[u] = slices.Clone(g.Neighbors(u))
			}
			for _, e := range edits {
				rows[e.Tail][e.Slot] = e.Head
			}
			for u, row := range rows {
				slices.Sort(row)
				if !slices.Equal(row, h.Neighbors(u)) {
					t.Fatalf("trial %d: %+v: edits %v give vertex %d arcs %v, Change %v", trial, c, edits, u, row, h.Neighbors(u))
				}
			}
		}
	}
	if swaps < 500 || others < 100 {
		t.Fatalf("only %d kept-count changes and %d others were checked", swaps, others)
	}
	// More than 16 arc edits (the sort of long changes), and more than 8
	// arcs of one tail rewritten: vertex 0 of a directed graph trades ten
	// heads for ten others.
	b := NewBuilder(true)
	for v := 1; v <= 10; v++ {
		if err := b.AddEdge(0, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.SetVertices(21); err != nil {
		t.Fatal(err)
	}
	star := b.Build()
	var trade Changes
	for k := range 10 {
		trade.Remove = append(trade.Remove, [2]int{0, 10 - k})
		trade.Add = append(trade.Add, [2]int{0, 11 + k})
	}
	traded, err := star.Change(trade)
	if err != nil {
		t.Fatal(err)
	}
	edits, ok, err := star.ArcEdits(trade, nil)
	if err != nil || !ok || len(edits) != 10 {
		t.Fatalf("ten heads traded: %d edits, ok %v, %v", len(edits), ok, err)
	}
	row := slices.Clone(star.Neighbors(0))
	for _, e := range edits {
		row[e.Slot] = e.Head
	}
	slices.Sort(row)
	if !slices.Equal(row, traded.Neighbors(0)) {
		t.Fatalf("ten heads traded: %v, want %v", row, traded.Neighbors(0))
	}
	// Lengths added to an unweighted graph need Change.
	g := (&edgeSet{n: 4, w: map[[2]int]float64{{0, 1}: 1, {2, 3}: 1}}).build()
	swap := Changes{Remove: [][2]int{{0, 1}, {2, 3}}, Add: [][2]int{{0, 2}, {1, 3}}}
	if _, ok, err := g.ArcEdits(swap, nil); !ok || err != nil {
		t.Fatalf("a swap: ok %v, %v", ok, err)
	}
	swap.AddInt = []int64{3, 1}
	if _, ok, err := g.ArcEdits(swap, nil); ok || err != nil {
		t.Fatalf("lengths added: ok %v, %v; want not ok", ok, err)
	}
}
