package lanes

// The pre-issue-9 planner, kept to prove PlanFor and Narrowest choose as it
// did. Only this test file may hold it.

import (
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
)

type oldPlan struct {
	Lanes            Kind
	MaxReal, MinReal int64
	Negative, Wide   bool
	MaxAbsFloat      float64
}

// oldPlanLanes is internal/cpu's PlanLanes before issue 9, verbatim but
// for names (Plan → oldPlan, Lanes → Kind): the reference Narrowest and
// PlanFor must reproduce.
//
// oldPlanLanes chooses the narrowest exact lanes for g: int32 when every path
// length provably fits, else int64, else an error; float64 for float weights.
func oldPlanLanes(g *graph.Graph) (oldPlan, error) {
	if g.Kind() == graph.FloatWeights {
		return oldPlanFloat(g)
	}
	n := uint64(max(g.N()-1, 0))
	var sumPos, sumNeg uint64 // saturating
	var maxPos, maxNeg uint64
	lo, hi := g.IntWeightRange()
	if hi > 0 {
		maxPos = uint64(hi)
	}
	if lo < 0 {
		maxNeg = uint64(-(lo + 1)) + 1 // safe for MinInt64
	}
	if g.Kind() == graph.Unweighted {
		sumPos = uint64(g.Arcs())
	} else {
		for u := 0; u < g.N(); u++ {
			for _, w := range g.IntWeights(u) {
				if w > 0 {
					sumPos = satAdd(sumPos, uint64(w))
				} else if w < 0 {
					sumNeg = satAdd(sumNeg, uint64(-(w+1))+1)
				}
			}
		}
	}
	if !g.Directed() {
		// Each undirected edge is stored twice but a simple path uses it
		// once; a saturated sum stays saturated (halving it would bound
		// nothing).
		if sumPos != math.MaxUint64 {
			sumPos /= 2
		}
		if sumNeg != math.MaxUint64 {
			sumNeg /= 2
		}
	}
	maxReal := min(satMul(n, maxPos), sumPos)
	minReal := min(satMul(n, maxNeg), sumNeg)
	span := satAdd(maxReal, minReal)
	p := oldPlan{Negative: minReal > 0 || hasNegLoop(g)}
	switch {
	case span < uint64(Inf32):
		p.Lanes = Int32
	case span < uint64(Inf64):
		p.Lanes = Int64
	case minReal == 0 && maxReal <= math.MaxInt64:
		p.Lanes, p.Wide = Int64, true
	default:
		return oldPlan{}, fmt.Errorf("%w: integer path lengths may span %s..%s, beyond exact 64-bit distances", ErrWeightsTooLarge, fmtNeg(minReal), fmtSat(maxReal))
	}
	p.MaxReal, p.MinReal = int64(maxReal), -int64(minReal)
	return p, nil
}

// oldPlanFloat bounds every simple path's |length| by the smaller of (n−1)
// times the largest |weight| and the sum of all |weights| (each undirected
// edge once), and refuses the graph when that bound exceeds FloatLimit: an
// overflowed sum would be +Inf, indistinguishable from "no path".
func oldPlanFloat(g *graph.Graph) (oldPlan, error) {
	var sum, most float64
	for u := 0; u < g.N(); u++ {
		for _, w := range g.FloatWeights(u) {
			a := math.Abs(w)
			sum += a
			most = math.Max(most, a)
		}
	}
	if !g.Directed() {
		sum /= 2
	}
	// The float sum above may round down by at most m·2⁻⁵³ relative; the
	// factor 1+2⁻²⁰ covers any arc count below 2³³.
	bound := math.Min(float64(max(g.N()-1, 0))*most, sum) * (1 + 1.0/(1<<20))
	lo, _ := g.FloatWeightRange()
	p := oldPlan{Lanes: Float64, Negative: lo < 0 || hasNegLoop(g), MaxAbsFloat: bound}
	if limit := FloatLimit(g.N()); !(bound <= limit) {
		reach := fmt.Sprintf("%.3g", bound)
		if math.IsInf(bound, 1) {
			reach = "beyond 1.8e308"
		}
		return oldPlan{}, fmt.Errorf("%w: float path lengths may reach %s, but with %d vertices every length must stay below %.3g so that no sum overflows float64 (scale the weights down)",
			ErrWeightsTooLarge, reach, g.N(), limit)
	}
	return p, nil
}
