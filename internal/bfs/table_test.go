package bfs

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestTable runs every summary engine and layout under test (engines,
// configs), the Briefs, the histograms, the matrix and From on every
// unweighted case of the testgraphs table, against the table's answers.
func TestTable(t *testing.T) {
	ctx := context.Background()
	ran := 0
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		if c.Graph.Kind() != graph.Unweighted {
			continue
		}
		ran++
		rows, hist := c.Rows(true), c.Hist()
		wantM := make([]int32, 0, c.N*c.N)
		for _, row := range c.Dist {
			for _, d := range row {
				if math.IsInf(d, 1) {
					wantM = append(wantM, -1)
				} else {
					wantM = append(wantM, int32(d))
				}
			}
		}
		for threads := 1; threads <= 3; threads++ {
			name := fmt.Sprintf("%s/%d threads", c.Name, threads)
			for _, e := range engines() {
				got, err := e.run(ctx, c.Graph, threads, nil)
				if err != nil {
					t.Fatalf("%s %s: %v", name, e.name, err)
				}
				checkSummary(t, name+" "+e.name, got, &Summary{Rows: rows, Hist: hist})
			}
			checkBriefs(t, name, c.Graph, threads, reduce.BriefOf(rows), hist)
			m, err := Matrix(ctx, c.Graph, threads, nil)
			if err != nil {
				t.Fatalf("%s Matrix: %v", name, err)
			}
			if !slices.Equal(m, wantM) {
				t.Fatalf("%s: Matrix %v, want %v", name, m, wantM)
			}
			for _, cfg := range configs() {
				cfg.outer = threads
				m := make([]int32, c.N*c.N)
				if _, err := runBatches(ctx, c.Graph, cfg, nil, m); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(m, wantM) {
					t.Fatalf("%s: matrix with %s differs from the table's", name, cfg)
				}
			}
		}
		// From: each source's distances, eccentricity and reach.
		dist := make([]int32, c.N)
		for s := range c.N {
			ecc, reached := From(c.Graph, s, dist, nil)
			if !slices.Equal(dist, wantM[s*c.N:(s+1)*c.N]) || int64(reached) != rows[s].Reach+1 || (rows[s].Reach > 0 && int64(ecc) != rows[s].MaxI) {
				t.Fatalf("%s: From(%d) = %v (ecc %d, reached %d), want %v", c.Name, s, dist, ecc, reached, c.Dist[s])
			}
		}
	}
	if ran == 0 {
		t.Fatal("no unweighted case in the table")
	}
}
