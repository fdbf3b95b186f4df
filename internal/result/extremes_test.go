package result

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/internal/reduce"
)

// TestExtremesExact compares the integer path of FromRows (extremesBrief) with the
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
				extremesBrief(&got, reduce.BriefOf(rows), reachable, finite, true)
				if got.Radius != want.Radius || got.Diameter != want.Diameter {
					t.Fatalf("%s: radius %v diameter %v, want %v %v", name, got.Radius, got.Diameter, want.Radius, want.Diameter)
				}
				if !slices.Equal(got.Center, want.Center) || !slices.Equal(got.Periphery, want.Periphery) {
					t.Fatalf("%s: center %v periphery %v, want %v %v", name, got.Center, got.Periphery, want.Center, want.Periphery)
				}
				var bare Stats // a Summary's path: no lists
				extremesBrief(&bare, reduce.BriefOf(rows), reachable, finite, false)
				if bare.Radius != want.Radius || bare.Diameter != want.Diameter || bare.Center != nil || bare.Periphery != nil {
					t.Fatalf("%s: without lists radius %v diameter %v (lists %v %v)", name, bare.Radius, bare.Diameter, bare.Center, bare.Periphery)
				}
			}
		}
	}
}

// TestExtremesConnected checks the connected graphs' integer path against
// a plain scan, with and without the lists: random eccentricities in
// narrow and wide ranges, all equal, and the extremes at the ends and in
// the middle.
func TestExtremesConnected(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial, n := range []int{2, 3, 100, 1024, 65536, 200001} {
		for kind := range 4 {
			ecc := make([]int64, n)
			for u := range ecc {
				switch kind {
				case 0:
					ecc[u] = 4 + rng.Int64N(3)
				case 1:
					ecc[u] = rng.Int64N(1 << 40)
				case 2:
					ecc[u] = 7
				case 3:
					ecc[u] = 10 + rng.Int64N(2)
				}
			}
			if kind == 3 {
				ecc[0], ecc[n-1], ecc[n/2] = 9, 12, 9 // the radius at the first vertex and a middle one, the diameter at the last
			}
			radius, diameter := slices.Min(ecc), slices.Max(ecc)
			var center, periphery []int
			for u, e := range ecc {
				if e == radius {
					center = append(center, u)
				}
				if e == diameter {
					periphery = append(periphery, u)
				}
			}
			var s, bare Stats
			extremesConnected(&s, ecc, true)
			if s.Radius != IntLength(radius) || s.Diameter != IntLength(diameter) || !slices.Equal(s.Center, center) || !slices.Equal(s.Periphery, periphery) {
				t.Fatalf("trial %d kind %d (n=%d): radius %v diameter %v, %d centers, %d peripheral; want %d, %d, %d, %d",
					trial, kind, n, s.Radius, s.Diameter, len(s.Center), len(s.Periphery), radius, diameter, len(center), len(periphery))
			}
			extremesConnected(&bare, ecc, false)
			if bare.Radius != s.Radius || bare.Diameter != s.Diameter || bare.Center != nil || bare.Periphery != nil {
				t.Fatalf("trial %d kind %d (n=%d): without lists radius %v diameter %v (lists %v, %v)", trial, kind, n, bare.Radius, bare.Diameter, bare.Center != nil, bare.Periphery != nil)
			}
		}
	}
}
