package run

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
	"github.com/apsp/apsp/internal/testgraphs"
)

// A closeness estimate whose sources' rows are searched a few at a time
// equals the one from all of them at once, exactly: the sums go in sample
// order whatever the share. The bfs engine's own sums (whole integers,
// not shifted by a first distance) give the same values and the bounds to
// within rounding.
func TestEstimateClosenessShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 41))
	ctx := context.Background()
	for trial := range 12 {
		spec := testgraphs.Spec{N: 20 + rng.IntN(60), P: 0.06, Directed: trial%2 == 0, Lo: 1, Hi: 9,
			Kind: []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[trial%3], Parts: 1 + trial%3}
		g := testgraphs.Random(rng, spec)
		for _, c := range []struct{ mode, algo string }{{"", ""}, {"out", ""}, {"all", ""}, {"", "bfs"}, {"out", "bfs"}, {"all", "dijkstra"}} {
			mode := c.mode
			if c.algo == "bfs" && g.Kind() != graph.Unweighted {
				continue
			}
			// Named bfs sums the distances itself (Caps.Sums) when the
			// rows do not fit at once; the others go a share at a time.
			o, err := plan.Parse(plan.Raw{Device: "cpu", Mode: mode, Algorithm: c.algo})
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
				if !sameIntervals(got, whole, g.Kind() == graph.Unweighted) { // unweighted: bfs may sum itself
					t.Fatalf("trial %d mode %q algo %q, %d rows at a time: %v, all at once %v", trial, mode, c.algo, rows, got, whole)
				}
			}
		}
	}
}

// An effective-diameter option is refused whichever path would run.
func TestEstimateClosenessRefusesEffective(t *testing.T) {
	g := testgraphs.Random(rand.New(rand.NewPCG(28, 42)), testgraphs.Spec{N: 50, P: 0.1, Directed: true})
	o, err := plan.Parse(plan.Raw{Device: "cpu", Effective: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	for _, rowBytes := range []int{1 << 30, 8 * g.N()} {
		if _, err := estimateCloseness(context.Background(), g, 20, 1, o, true, rowBytes); err == nil {
			t.Errorf("rows of %d bytes: no error for an effective ratio", rowBytes)
		}
	}
}

// sameIntervals compares estimates: exactly (NaN, unknown, equal to
// itself), or with the bounds within 1e-12 relative when near.
func sameIntervals(a, b []result.Interval, near bool) bool {
	if !near {
		return fmt.Sprint(a) == fmt.Sprint(b)
	}
	if len(a) != len(b) {
		return false
	}
	close := func(x, y result.Mean) bool {
		return x == y || x != x && y != y || math.Abs(float64(x-y)) <= 1e-12*math.Abs(float64(y))
	}
	for i := range a {
		if !(a[i].Value == b[i].Value || a[i].Value != a[i].Value && b[i].Value != b[i].Value) || !close(a[i].Low, b[i].Low) || !close(a[i].High, b[i].High) || a[i].Estimate != b[i].Estimate {
			return false
		}
	}
	return true
}
