package bfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/internal/csr"
)

// levelSearch's counts equal the levels of a BFS with distances, from
// every source in turn with one scratch (a bit left set would show in the
// next search), and leave seen zero: on graphs of many small components
// (seen cleared vertex by vertex), of one large one (cleared whole), with
// isolated vertices last (a degree-0 vertex at the end of the arrays),
// directed and not.
func TestLevelSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	var cases []testGraph
	for _, directed := range []bool{false, true} {
		// Paths of 3 among 3000 vertices, the last 7 isolated.
		var edges [][2]int
		for u := 0; u+2 < 2993; u += 3 {
			edges = append(edges, [2]int{u, u + 1}, [2]int{u + 1, u + 2})
		}
		cases = append(cases, build(t, fmt.Sprintf("paths directed=%v", directed), 3000, directed, edges))
		for _, n := range []int{1, 2, 65, 300, 1500} {
			for _, p := range []float64{0, 1.5 / float64(n), 4 / float64(n), 0.3} {
				cases = append(cases, randomGraph(t, rng, n, directed, p))
			}
		}
	}
	for _, tg := range cases {
		t.Run(tg.name, func(t *testing.T) {
			a := csr.Of(tg.g)
			n := tg.g.N()
			sc := newLevelScratch(n)
			dist, queue := make([]int32, n), make([]int32, n)
			var counts []int64
			narrow, ok := narrowArcs(&a, 2)
			if !ok {
				t.Fatal("arcs of a small graph do not fit the narrow form")
			}
			searches := map[string]func(s int32, counts []int64) []int64{
				"wide":   func(s int32, counts []int64) []int64 { return levelSearch(wideArcs(&a), s, sc, counts, nil) },
				"narrow": func(s int32, counts []int64) []int64 { return levelSearch(narrow, s, sc, counts, nil) },
			}
			for s := range int32(n) {
				for i := range dist {
					dist[i] = -1
				}
				reached, _ := a.BFS(s, -1, dist, queue)
				want := make([]int64, dist[queue[reached-1]]+1)
				for _, v := range queue[:reached] {
					want[dist[v]]++
				}
				for form, search := range searches {
					counts = search(s, counts[:0])
					if !slices.Equal(counts, want) {
						t.Fatalf("%s arcs, source %d: levels %v, want %v", form, s, counts, want)
					}
					for w, x := range sc.seen {
						if x != 0 {
							t.Fatalf("%s arcs, source %d: seen word %d left %#x", form, s, w, x)
						}
					}
				}
			}
		})
	}
}

// narrowArcs keeps the arcs it can hold and refuses those it cannot.
func TestNarrowArcs(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges [][2]int
		ok    bool
	}{
		{"nearby", 40000, [][2]int{{0, 1}, {5, 32767}, {39999, 39998}}, true},
		{"2^15 apart", 40000, [][2]int{{0, 32768}}, false},
		{"isolated last", 10, [][2]int{{0, 1}}, true},
	}
	for _, tt := range tests {
		tg := build(t, tt.name, tt.n, true, tt.edges)
		a := csr.Of(tg.g)
		b, ok := narrowArcs(&a, 2)
		if ok != tt.ok {
			t.Fatalf("%s: ok %v, want %v", tt.name, ok, tt.ok)
		}
		if !ok {
			continue
		}
		for u := range int32(tt.n) {
			var got []int32
			for _, h := range b.heads[b.off[u]:b.off[u+1]] {
				got = append(got, int32(h)+u)
			}
			if !slices.Equal(got, a.Nbrs(u)) && len(got)+len(a.Nbrs(u)) > 0 {
				t.Fatalf("%s: vertex %d's arcs %v, want %v", tt.name, u, got, a.Nbrs(u))
			}
		}
	}
}

// levelRow folds counts as a distance-by-distance sum would.
func TestLevelRow(t *testing.T) {
	tests := []struct {
		counts          []int64
		reach, ecc, sum int64
		harm            float64
		hist            []int64
	}{
		{[]int64{1}, 0, 0, 0, 0, []int64{0}},
		{[]int64{1, 3}, 3, 1, 3, 3, []int64{0, 3}},
		{[]int64{1, 2, 4, 1}, 7, 3, 2 + 8 + 3, 2 + 2 + 1.0/3, []int64{0, 2, 4, 1}},
	}
	for _, tt := range tests {
		reach, ecc, sum, harm, hist := levelRow(tt.counts, []int64{0})
		if reach != tt.reach || ecc != tt.ecc || sum != tt.sum || harm != tt.harm || !slices.Equal(hist, tt.hist) {
			t.Errorf("levelRow(%v) = %d %d %d %g %v, want %d %d %d %g %v", tt.counts, reach, ecc, sum, harm, hist, tt.reach, tt.ecc, tt.sum, tt.harm, tt.hist)
		}
	}
}

// SumsFrom adds up what searches with distances find, from sources with
// repeats, on one thread and two, renumbered (localAt 0 through
// sumsFrom's path) or not.
func TestSumsFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 2))
	ctx := context.Background()
	for trial := range 40 {
		tg := randomGraph(t, rng, 1+rng.IntN(120), trial%2 == 0, []float64{0.01, 0.03, 0.1}[trial%3])
		n := tg.g.N()
		sources := make([]int32, rng.IntN(3*n))
		for i := range sources {
			sources[i] = int32(rng.IntN(n))
		}
		want := Sums{Reach: make([]int32, n), Sum: make([]int64, n), SumSq: make([]uint64, n)}
		a := csr.Of(tg.g)
		dist, queue := make([]int32, n), make([]int32, n)
		for _, s := range sources {
			for i := range dist {
				dist[i] = -1
			}
			a.BFS(s, -1, dist, queue)
			for v, d := range dist {
				if d > 0 {
					want.Reach[v]++
					want.Sum[v] += int64(d)
					want.SumSq[v] += uint64(d) * uint64(d)
				}
			}
		}
		for _, threads := range []int{1, 2} {
			for _, at := range []int{localAt, 0} {
				got, err := sumsFrom(ctx, tg.g, sources, threads, nil, at)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Reach, want.Reach) || !slices.Equal(got.Sum, want.Sum) || !slices.Equal(got.SumSq, want.SumSq) {
					t.Fatalf("%s, %d sources, %d threads, renumbered from %d vertices: sums differ", tg.name, len(sources), threads, at)
				}
			}
		}
	}
}
