package result

import "math"

// The effective diameter from a histogram of exact distances (hist[d]:
// the ordered pairs u ≠ v at distance d ≥ 0, as Histogram.Count), in two
// definitions, each over the pairs that have a path.

// EffectiveDiameter is the smallest distance d such that at least ratio of
// the ordered pairs u ≠ v with a path are within d: Σ_{k ≤ d} hist[k] ≥
// ratio · Σ_k hist[k]. NaN when no pair has a path.
func EffectiveDiameter(hist []int64, ratio float64) float64 {
	var pairs int64
	for _, c := range hist {
		pairs += c
	}
	if pairs == 0 {
		return math.NaN()
	}
	goal := ratio * float64(pairs)
	var within int64
	for d, c := range hist {
		within += c
		if float64(within) >= goal {
			return float64(d)
		}
	}
	return float64(len(hist) - 1)
}

// EffectiveDiameterInterpolated is SNAP's effective diameter (TSnap::
// GetBfsEffDiam over every source, TSnapDetail::CalcEffDiamPdf): the
// distances of the pairs (u, v) with a path, u = v included (the n pairs
// at distance 0 that a breadth-first search from every source reports),
// as a cumulative count c(d_0) < c(d_1) < … over the distances d_i that
// occur; with E = ratio · c(d_last) and i the first index with c(d_i) > E,
// it is d_last when there is none, 1 when i = 0, else
// d_{i−1} + (E − c(d_{i−1})) / (c(d_i) − c(d_{i−1})). n is the vertex count.
func EffectiveDiameterInterpolated(hist []int64, n int, ratio float64) float64 {
	type point struct{ d, c float64 }
	cdf := make([]point, 0, len(hist))
	total := float64(n)
	if len(hist) > 0 {
		total += float64(hist[0])
	}
	cdf = append(cdf, point{0, total})
	for d := 1; d < len(hist); d++ {
		if hist[d] > 0 {
			total += float64(hist[d])
			cdf = append(cdf, point{float64(d), total})
		}
	}
	eff := ratio * cdf[len(cdf)-1].c
	i := 0
	for i < len(cdf) && !(cdf[i].c > eff) {
		i++
	}
	switch {
	case i >= len(cdf):
		return cdf[len(cdf)-1].d
	case i == 0:
		return 1
	}
	delta := cdf[i].c - cdf[i-1].c
	if delta == 0 {
		return cdf[i].d
	}
	return cdf[i-1].d + (eff-cdf[i-1].c)/delta
}
