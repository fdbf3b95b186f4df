package csr_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/testgraphs"
)

// reversed builds g's transpose the long way, through the builder. The
// builder keeps no self-loops, only the first negative one's vertex, which
// the transpose keeps too.
func reversed(t *testing.T, g *graph.Graph) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(true)
	if err := b.SetVertices(g.N()); err != nil {
		t.Fatal(err)
	}
	if v, ok := g.NegativeSelfLoop(); ok {
		var err error
		if g.Kind() == graph.FloatWeights {
			err = b.AddFloatEdge(v, v, -1)
		} else {
			err = b.AddIntEdge(v, v, -1)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for u := range g.N() {
		for i, v := range g.Neighbors(u) {
			var err error
			switch g.Kind() {
			case graph.Unweighted:
				err = b.AddEdge(int(v), u)
			case graph.IntWeights:
				err = b.AddIntEdge(int(v), u, g.ArcInt(u, i))
			case graph.FloatWeights:
				err = b.AddFloatEdge(int(v), u, g.ArcFloat(u, i))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.Build()
}

func sameGraph(t *testing.T, got, want *graph.Graph) {
	t.Helper()
	// A builder given no arcs has no weights to tell the kind by.
	kindDiffers := got.Arcs() > 0 && got.Kind() != want.Kind()
	if got.N() != want.N() || got.Arcs() != want.Arcs() || kindDiffers || got.Directed() != want.Directed() {
		t.Fatalf("got n=%d m=%d %v directed=%v, want n=%d m=%d %v directed=%v",
			got.N(), got.Arcs(), got.Kind(), got.Directed(), want.N(), want.Arcs(), want.Kind(), want.Directed())
	}
	for u := range got.N() {
		if !slices.Equal(got.Neighbors(u), want.Neighbors(u)) {
			t.Fatalf("vertex %d: heads %v, want %v", u, got.Neighbors(u), want.Neighbors(u))
		}
		if !slices.Equal(got.IntWeights(u), want.IntWeights(u)) || !slices.Equal(got.FloatWeights(u), want.FloatWeights(u)) {
			t.Fatalf("vertex %d: weights differ", u)
		}
	}
	gv, gok := got.NegativeSelfLoop()
	wv, wok := want.NegativeSelfLoop()
	if gv != wv || gok != wok {
		t.Fatalf("negative self-loop %d %v, want %d %v", gv, gok, wv, wok)
	}
}

// TestGraphTranspose checks graph.Transpose, which is csr.Transpose with
// the weights moved along, against the builder, and that transposing twice
// gives the graph back.
func TestGraphTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// About m arcs, self-loops and repeats included before the builder
	// drops them, negative ones too.
	lengths := map[graph.WeightKind][2]int64{graph.IntWeights: {-50, 149}, graph.FloatWeights: {-1, 9}}
	for _, k := range []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights} {
		for _, size := range [][2]int{{0, 0}, {1, 3}, {7, 20}, {50, 400}, {300, 900}} {
			g := testgraphs.Random(rng, testgraphs.Spec{N: size[0], M: size[1], Loops: true, Directed: true, Kind: k, Lo: lengths[k][0], Hi: lengths[k][1]})
			tr := g.Transpose()
			sameGraph(t, tr, reversed(t, g))
			sameGraph(t, tr.Transpose(), g)
		}
	}
	u := testgraphs.Random(rng, testgraphs.Spec{N: 40, M: 100, Loops: true, Kind: graph.IntWeights, Lo: -50, Hi: 149})
	if u.Transpose() != u {
		t.Fatal("an undirected graph's transpose is not the graph itself")
	}
}

// TestOf checks that Of gives the graph's own arcs.
func TestOf(t *testing.T) {
	g := testgraphs.Random(rand.New(rand.NewPCG(3, 4)), testgraphs.Spec{N: 100, M: 500, Loops: true, Directed: true})
	a := csr.Of(g)
	if a.N() != g.N() || len(a.Heads) != g.Arcs() {
		t.Fatalf("n=%d arcs=%d, want %d %d", a.N(), len(a.Heads), g.N(), g.Arcs())
	}
	for u := range int32(g.N()) {
		if !slices.Equal(a.Nbrs(u), g.Neighbors(int(u))) || a.Degree(u) != g.Degree(int(u)) {
			t.Fatalf("vertex %d differs", u)
		}
	}
}

// TestTransposeCSR checks the CSR transpose against arc counts: every arc
// u→v appears once as v→u, heads increasing within each vertex.
func TestTransposeCSR(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := testgraphs.Random(rng, testgraphs.Spec{N: 200, M: 1500, Loops: true, Directed: true})
	a := csr.Of(g)
	tr := a.Transpose()
	if tr.N() != a.N() || len(tr.Heads) != len(a.Heads) {
		t.Fatalf("n=%d arcs=%d, want %d %d", tr.N(), len(tr.Heads), a.N(), len(a.Heads))
	}
	for v := range int32(tr.N()) {
		if !slices.IsSorted(tr.Nbrs(v)) {
			t.Fatalf("vertex %d: heads not sorted: %v", v, tr.Nbrs(v))
		}
		for _, u := range tr.Nbrs(v) {
			if _, ok := slices.BinarySearch(a.Nbrs(u), v); !ok {
				t.Fatalf("arc %d→%d of the transpose is not %d→%d reversed", v, u, u, v)
			}
		}
	}
}

// refDist is the distance from src to every vertex by Bellman–Ford rounds
// over the arcs whose ends both satisfy in, -1 where unreachable.
func refDist(a *csr.CSR, src int32, in func(int32) bool) []int32 {
	d := make([]int32, a.N())
	for i := range d {
		d[i] = -1
	}
	d[src] = 0
	for changed := true; changed; {
		changed = false
		for u := range int32(a.N()) {
			if d[u] < 0 || !in(u) {
				continue
			}
			for _, v := range a.Nbrs(u) {
				if in(v) && (d[v] < 0 || d[v] > d[u]+1) {
					d[v], changed = d[u]+1, true
				}
			}
		}
	}
	return d
}

// TestBFS compares the search with reference distances, plainly and
// confined to the vertices marked unseen, and checks the queue and the
// count of arcs scanned.
func TestBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 40 {
		n := 1 + rng.IntN(120)
		g := testgraphs.Random(rng, testgraphs.Spec{N: n, M: rng.IntN(3*n + 1), Loops: true, Directed: trial%2 == 0})
		a := csr.Of(g)
		src := int32(rng.IntN(n))
		// Vertices of colour 0 are marked -2; others stay -1.
		colour := make([]int32, n)
		for v := range colour {
			colour[v] = int32(rng.IntN(2))
		}
		colour[src] = 0
		for _, confined := range []bool{false, true} {
			unseen, in := int32(-1), func(int32) bool { return true }
			dist := make([]int32, n)
			for v := range dist {
				dist[v] = -1
				if confined && colour[v] == 0 {
					dist[v] = -2
				}
			}
			if confined {
				unseen, in = -2, func(v int32) bool { return colour[v] == 0 }
			}
			queue := make([]int32, n)
			reached, arcs := a.BFS(src, unseen, dist, queue)
			want := refDist(&a, src, in)
			wantArcs, wantReached := 0, 0
			for v := range int32(n) {
				got := dist[v]
				if got < 0 {
					got = -1
				}
				if got != want[v] {
					t.Fatalf("trial %d confined=%v: dist[%d] = %d, want %d", trial, confined, v, dist[v], want[v])
				}
				if want[v] >= 0 {
					wantReached++
					wantArcs += a.Degree(v)
				}
			}
			if reached != wantReached || arcs != wantArcs {
				t.Fatalf("trial %d confined=%v: reached %d arcs %d, want %d %d", trial, confined, reached, arcs, wantReached, wantArcs)
			}
			if queue[0] != src {
				t.Fatalf("queue starts at %d, not the source %d", queue[0], src)
			}
			for i := 1; i < reached; i++ {
				if dist[queue[i]] < dist[queue[i-1]] {
					t.Fatalf("queue not in order of distance at %d", i)
				}
			}
		}
	}
}
