package apsp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/internal/reduce"
)

// TestExtremesExact compares the integer path of statsFromRows (extremesBrief) with the
// general one on random exact rows: connected or not, with --reachable or
// not, sources that reach nobody, negative and huge eccentricities, and
// one-row graphs.
func TestExtremesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 1 + rng.IntN(12)
		rows := make([]reduce.Row, n)
		for u := range rows {
			r := &rows[u]
			r.Reach = int64(rng.IntN(n))
			r.Unreach = r.Reach < int64(n-1)
			if r.Reach > 0 {
				switch rng.IntN(4) {
				case 0:
					r.MaxI = -int64(rng.IntN(3))
				case 1:
					r.MaxI = 1<<63 - 1 - int64(rng.IntN(2))
				default:
					r.MaxI = int64(1 + rng.IntN(3))
				}
			}
		}
		for _, reachable := range []bool{false, true} {
			for _, finite := range []bool{false, true} {
				name := fmt.Sprintf("trial %d reachable=%v finite=%v rows=%+v", trial, reachable, finite, rows)
				var want, got Stats
				extremes(&want, rows, true, reachable, finite)
				extremesBrief(&got, reduce.BriefOf(rows), reachable, finite)
				if got.Radius != want.Radius || got.Diameter != want.Diameter {
					t.Fatalf("%s: radius %v diameter %v, want %v %v", name, got.Radius, got.Diameter, want.Radius, want.Diameter)
				}
				if !slices.Equal(got.Center, want.Center) || !slices.Equal(got.Periphery, want.Periphery) {
					t.Fatalf("%s: center %v periphery %v, want %v %v", name, got.Center, got.Periphery, want.Center, want.Periphery)
				}
			}
		}
	}
}
