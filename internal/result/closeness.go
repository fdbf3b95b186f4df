package result

import "github.com/apsp/apsp/internal/reduce"

// ClosenessOf is every vertex's closeness centrality from the totals of
// the distances *to* it (of the reversed graph's sources, for a directed
// one), with NetworkX's definition (closeness_centrality): for a vertex
// that r−1 others reach with distances summing to T > 0, (r−1)/T, scaled
// by (r−1)/(n−1) when wfImproved (Wasserman and Faust's correction for
// graphs that are not connected); 0 when T is 0 (a vertex no other
// reaches) or n is 1. n is the graph's vertex count (the totals may be of
// chosen vertices only). It is computed into t.Sum, which it returns: t's
// sums are gone after.
func ClosenessOf(t *reduce.Totals, n int, wfImproved bool) []float64 {
	out, reach := t.Sum, t.Reach[:len(t.Sum)]
	for u, total := range out {
		if total <= 0 || n <= 1 {
			out[u] = 0
			continue
		}
		r := float64(reach[u])
		c := r / total
		if wfImproved {
			c *= r / float64(n-1)
		}
		out[u] = c
	}
	return out
}

// HarmonicOf is every vertex's harmonic centrality from the totals of the
// distances *to* it (as ClosenessOf), with NetworkX's definition
// (harmonic_centrality, not normalised): Σ 1/d over the vertices at a
// finite distance d > 0. A vertex no other reaches has 0. It is t.Harm
// itself, not a copy.
func HarmonicOf(t *reduce.Totals) []float64 { return t.Harm }
