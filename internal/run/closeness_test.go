package run

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/testgraphs"
)

// A closeness estimate whose sources' rows are searched a few at a time
// equals the one from all of them at once, exactly: the sums go in sample
// order whatever the share.
func TestEstimateClosenessShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 41))
	ctx := context.Background()
	for trial := range 12 {
		spec := testgraphs.Spec{N: 20 + rng.IntN(60), P: 0.06, Directed: trial%2 == 0, Lo: 1, Hi: 9,
			Kind: []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3], Parts: 1 + trial%3}
		g := testgraphs.Random(rng, spec)
		for _, mode := range []string{"", "out", "all"} {
			o, err := plan.Parse(plan.Raw{Device: "cpu", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			k := 1 + rng.IntN(g.N())
			whole, err := estimateCloseness(ctx, g, k, uint64(trial), o, true, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			for _, rows := range []int{1, 2, 7} {
				got, err := estimateCloseness(ctx, g, k, uint64(trial), o, true, rows*8*g.N())
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got) != fmt.Sprint(whole) { // NaN (unknown) prints as itself

					t.Fatalf("trial %d mode %q, %d rows at a time: %v, all at once %v", trial, mode, rows, got, whole)
				}
			}
		}
	}
}
