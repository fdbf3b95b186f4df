package apsp_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// TestExtremesMatchStats checks the bounds method (no all pairs) against the
// full statistics on random sparse graphs, connected or not, directed or
// not, with and without --reachable.
func TestExtremesMatchStats(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 120; trial++ {
		n := 1 + rng.IntN(120)
		directed := trial%2 == 1
		b := graph.NewBuilder(directed)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		m := rng.IntN(3 * n)
		if trial%3 == 0 { // a spanning cycle makes most of them connected
			for i := 0; i < n && n > 1; i++ {
				_ = b.AddEdge(i, (i+1)%n)
			}
		}
		for range m {
			_ = b.AddEdge(rng.IntN(n), rng.IntN(n))
		}
		g := b.Build()
		for _, reachable := range []bool{false, true} {
			name := fmt.Sprintf("trial %d n=%d directed=%v reachable=%v", trial, n, directed, reachable)
			want, err := apsp.ComputeStats(ctx, g, apsp.Options{Reachable: reachable, Algorithm: "blocked"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := apsp.ComputeExtremes(ctx, g, apsp.Options{Reachable: reachable})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got.Algorithm != apsp.BoundsAlgorithm {
				t.Fatalf("%s: auto used %s, want bounds", name, got.Algorithm)
			}
			if got.Connected != want.Connected || got.Diameter != want.Diameter || got.Radius != want.Radius {
				t.Fatalf("%s: bounds connected %v diameter %v radius %v; stats say %v %v %v",
					name, got.Connected, got.Diameter, got.Radius, want.Connected, want.Diameter, want.Radius)
			}
		}
	}
}
