package graph

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRenumber: a random permutation of random graphs (every kind,
// directed or not) keeps every arc and length under the new numbers,
// and the inverse permutation gives the graph back exactly.
func TestRenumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 90 {
		g := randomEdgeSet(rng, 1+rng.IntN(30), trial%2 == 0, []WeightKind{Unweighted, IntWeights, FloatWeights}[trial%3]).build()
		perm := rng.Perm(g.N())
		newID, back := make([]int32, g.N()), make([]int32, g.N())
		for v, p := range perm {
			newID[v], back[p] = int32(p), int32(v)
		}
		h, err := g.Renumber(newID)
		if err != nil {
			t.Fatal(err)
		}
		for u := range g.N() {
			for i, v := range g.Neighbors(u) {
				j := h.ArcIndex(int(newID[u]), int(newID[v]))
				if j < 0 || h.ArcFloat(int(newID[u]), j) != g.ArcFloat(u, i) {
					t.Fatalf("trial %d: arc %d-%d lost or changed", trial, u, v)
				}
			}
		}
		if h.Arcs() != g.Arcs() {
			t.Fatalf("trial %d: %d arcs, want %d", trial, h.Arcs(), g.Arcs())
		}
		if k, err := h.Renumber(back); err != nil || !sameGraph(k, g) {
			t.Fatalf("trial %d: renumbered back %v, differs from the graph", trial, err)
		}
	}
}

func TestRenumberNames(t *testing.T) {
	g, err := (&edgeSet{n: 3, w: map[[2]int]float64{{0, 1}: 1, {1, 2}: 1}}).build().WithNames([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := g.Renumber([]int32{2, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Names(), ","); got != "b,c,a" {
		t.Fatalf("names %s, want b,c,a", got)
	}
}

func TestRenumberRefuses(t *testing.T) {
	g := (&edgeSet{n: 3, w: map[[2]int]float64{{0, 1}: 1}}).build()
	for _, ids := range [][]int32{{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}} {
		if _, err := g.Renumber(ids); err == nil || !strings.Contains(err.Error(), "renumbering") {
			t.Errorf("%v: %v", ids, err)
		}
	}
}
