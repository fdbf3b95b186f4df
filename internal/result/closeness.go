package result

import "github.com/apsp/apsp/internal/reduce"

// Closeness is every vertex's closeness centrality from the rows of the
// distances *to* it (the rows of the reversed graph, for a directed one),
// with NetworkX's definition (closeness_centrality): for a vertex that r−1
// others reach with distances summing to T > 0, (r−1)/T, scaled by
// (r−1)/(n−1) when wfImproved (Wasserman and Faust's correction for graphs
// that are not connected); 0 when T is 0 (a vertex no other reaches) or n
// is 1. exact says the rows hold integer sums (Sum), else float ones
// (SumF). n is the graph's vertex count (the rows may be of chosen
// vertices only).
func Closeness(rows []reduce.Row, n int, exact bool, wfImproved bool) []float64 {
	out := make([]float64, len(rows))
	for u, r := range rows {
		total := r.SumF
		if exact {
			total = r.Sum.Float()
		}
		if total <= 0 || n <= 1 {
			continue
		}
		c := float64(r.Reach) / total
		if wfImproved {
			c *= float64(r.Reach) / float64(n-1)
		}
		out[u] = c
	}
	return out
}

// Harmonic is every vertex's harmonic centrality from the rows of the
// distances *to* it (as Closeness), with NetworkX's definition
// (harmonic_centrality, not normalised): Σ 1/d over the vertices at a
// finite distance d > 0 (Row.Harm). A vertex no other reaches has 0.
func Harmonic(rows []reduce.Row) []float64 {
	out := make([]float64, len(rows))
	for u, r := range rows {
		out[u] = r.Harm
	}
	return out
}
