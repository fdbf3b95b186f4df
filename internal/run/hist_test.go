package run

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/testgraphs"
)

// The hop plot from chosen sources without their rows (histFrom, where
// the bit-parallel engine's whole search takes the graph) equals the one
// counted from the rows, in every mode, with repeated sources and on
// graphs in parts; an Options.Sources is refused as on the rows' way.
func TestHistFromMatchesRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 77))
	ctx := context.Background()
	taken := 0
	for trial := range 16 {
		spec := testgraphs.Spec{N: 2 + rng.IntN(300), P: 0.02, Directed: trial%2 == 0, Kind: graph.Unweighted, Parts: 1 + trial%3}
		g := testgraphs.Random(rng, spec)
		n := g.N()
		srcs := []int{0, n - 1, n - 1}
		for range rng.IntN(n) {
			srcs = append(srcs, rng.IntN(n))
		}
		for _, mode := range []string{"", "in", "all"} {
			o, err := plan.Parse(plan.Raw{Device: "cpu", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := histFrom(ctx, g, srcs, o)
			if !ok {
				continue
			}
			taken++
			d, err := DistancesBetween(ctx, g, srcs, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			count, none, err := countPairs(d.Rows(), d.Cols(), d.At, func(i, j int) bool { return d.Sources[i] == j })
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Count, count) || got.Unreachable != none {
				t.Fatalf("trial %d (n=%d directed %v) mode %q: %v and %d unreachable, the rows %v and %d", trial, n, spec.Directed, mode, got.Count, got.Unreachable, count, none)
			}
			with := *o
			with.Sources = []int32{0}
			if _, ok := histFrom(ctx, g, srcs, &with); ok {
				t.Fatalf("trial %d: Options.Sources taken beside the sources", trial)
			}
		}
	}
	t.Logf("%d of 48 taken without rows", taken)
}
