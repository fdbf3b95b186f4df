package distributed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// runSummaries runs Summaries on every rank of a fake world of size ranks
// and checks that they all return the same rows.
func runSummaries(t *testing.T, g *graph.Graph, ranks, tile int) ([]reduce.Row, error) {
	t.Helper()
	world, err := comm.NewFake(ranks)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]reduce.Row, ranks)
	errs := make([]error, ranks)
	var wg sync.WaitGroup
	for r, c := range world {
		wg.Go(func() { rows[r], _, errs[r] = Summaries(context.Background(), c, g, tile) })
	}
	wg.Wait()
	for r := range errs {
		if (errs[r] == nil) != (errs[0] == nil) {
			t.Fatalf("rank %d: %v, rank 0: %v", r, errs[r], errs[0])
		}
	}
	if errs[0] != nil {
		return nil, errs[0]
	}
	for r := range rows {
		if !slices.Equal(rows[r], rows[0]) {
			t.Fatalf("rank %d's rows differ from rank 0's", r)
		}
	}
	return rows[0], nil
}

// TestSummariesAgreeWithFW: every source's row over 1 to 6 ranks equals
// the reference Floyd–Warshall's, on unweighted and weighted graphs,
// directed or not, connected or not, of sizes that are not multiples of
// the tile or the grid.
func TestSummariesAgreeWithFW(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial, n := range []int{1, 2, 7, 33, 100, 131} {
		for _, weighted := range []bool{false, true} {
			s := testgraphs.Spec{N: n, Directed: trial%2 == 0, P: []float64{0.03, 0.1, 0.3}[trial%3], Lo: 1, Hi: 50}
			if !s.Directed {
				s.P = 1 - (1-s.P)*(1-s.P) // either way round, as the arcs were drawn
			}
			if weighted {
				s.Kind = graph.IntWeights
			}
			g := testgraphs.Random(rng, s)
			want := referenceRows(t, g)
			for _, ranks := range []int{1, 2, 3, 4, 6} {
				for _, tile := range []int{4, 16} {
					name := fmt.Sprintf("n=%d weighted=%v directed=%v ranks=%d tile=%d", n, weighted, g.Directed(), ranks, tile)
					got, err := runSummaries(t, g, ranks, tile)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for u := range want {
						if got[u] != want[u].NoHarm() { // the distributed summaries sum no 1/d
							t.Fatalf("%s: row %d = %+v, want %+v", name, u, got[u], want[u])
						}
					}
				}
			}
		}
	}
}

// TestSummariesRefuse: float weights and negative arcs are refused on
// every rank with ErrNotDistributable.
func TestSummariesRefuse(t *testing.T) {
	for _, tt := range []struct {
		name string
		add  func(b *graph.Builder) error
	}{
		{"float", func(b *graph.Builder) error { return b.AddFloatEdge(0, 1, 0.5) }},
		{"negative", func(b *graph.Builder) error { return b.AddIntEdge(0, 1, -1) }},
	} {
		b := graph.NewBuilder(true)
		must(t, b.SetVertices(3))
		must(t, tt.add(b))
		if _, err := runSummaries(t, b.Build(), 2, 4); !errors.Is(err, ErrNotDistributable) {
			t.Errorf("%s: %v, want ErrNotDistributable", tt.name, err)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSummariesWide: int64 lanes with distances near 2⁶², whose row sums
// do not fit an int64 (a path of 8 vertices with arcs of 2⁵⁹−1), against
// the reference's 128-bit sums.
func TestSummariesWide(t *testing.T) {
	b := graph.NewBuilder(false)
	must(t, b.SetVertices(8))
	for i := range 7 {
		must(t, b.AddIntEdge(i, i+1, 1<<59-1))
	}
	g := b.Build()
	want := referenceRows(t, g)
	for _, ranks := range []int{1, 3} {
		got, err := runSummaries(t, g, ranks, 4)
		if err != nil {
			t.Fatal(err)
		}
		for u := range want {
			if got[u] != want[u].NoHarm() { // the distributed summaries sum no 1/d
				t.Fatalf("%d ranks: row %d = %+v, want %+v", ranks, u, got[u], want[u])
			}
		}
	}
}

// TestSummariesSameGraph: ranks that hold different graphs all fail,
// rather than combine them into a wrong answer.
func TestSummariesSameGraph(t *testing.T) {
	world, err := comm.NewFake(3)
	if err != nil {
		t.Fatal(err)
	}
	graphs := make([]*graph.Graph, 3)
	for r := range graphs {
		b := graph.NewBuilder(false)
		must(t, b.SetVertices(5))
		must(t, b.AddEdge(0, 1))
		must(t, b.AddEdge(1, 2+r/2)) // rank 2's graph differs
		graphs[r] = b.Build()
	}
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for r, c := range world {
		wg.Go(func() { _, _, errs[r] = Summaries(context.Background(), c, graphs[r], 4) })
	}
	wg.Wait()
	for r, err := range errs {
		if !errors.Is(err, ErrNotDistributable) {
			t.Fatalf("rank %d: %v, want ErrNotDistributable", r, err)
		}
	}
}

// referenceRows is every source's Row by the reference Floyd–Warshall in
// int64 lanes.
func referenceRows(t *testing.T, g *graph.Graph) []reduce.Row {
	t.Helper()
	ref, err := lanes.NewMatrix[int64](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.FloydWarshall(context.Background(), ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	return ref.Rows(1)
}

// TestSummariesOnTable runs every case of the testgraphs table over 1 to
// 4 ranks: the rows of the cases with non-negative integer lengths are
// the table's; float lengths and negative arcs (negative cycles too) are
// refused with ErrNotDistributable.
func TestSummariesOnTable(t *testing.T) {
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		lo, _ := c.Graph.IntWeightRange()
		refused := c.Kind == graph.FloatWeights || lo < 0 || c.Graph.HasNegativeWeights()
		want := c.Rows(true)
		for i := range want {
			want[i] = want[i].NoHarm() // the distributed summaries sum no 1/d
		}
		for _, ranks := range []int{1, 2, 3, 4} {
			for _, tile := range []int{4, 16} {
				name := fmt.Sprintf("%s/ranks=%d/tile=%d", c.Name, ranks, tile)
				got, err := runSummaries(t, c.Graph, ranks, tile)
				if refused {
					if !errors.Is(err, ErrNotDistributable) {
						t.Fatalf("%s: %v, want ErrNotDistributable", name, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: rows %+v, want %+v", name, got, want)
				}
			}
		}
	}
}
