package result

import (
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/reduce"
)

// Estimate is what a sample of sources says of a graph's measures: never
// an exact answer unless it says so. Connected is exact (a components
// search), and when the measures are infinite because of it (not
// Reachable) they are given exactly.
type Estimate struct {
	Vertices  int  `json:"vertices"`
	Arcs      int  `json:"arcs"`
	Edges     int  `json:"edges"`
	Directed  bool `json:"directed"`
	Weighted  bool `json:"weighted"`
	Connected bool `json:"connected"`
	Reachable bool `json:"reachable_only"`
	// Sample is the sources searched (distinct, drawn uniformly with
	// Seed), Seed the seed of the draw.
	Sample int    `json:"sample"`
	Seed   uint64 `json:"seed"`
	// ASPL is the estimated mean distance over the ordered pairs with a
	// path (a ratio estimator: the sampled sources' distances over their
	// reachable pairs), with a 95 % confidence interval; exact (infinite)
	// when the graph is not connected and not Reachable.
	ASPL Interval `json:"aspl"`
	// DiameterLowerBound is the largest eccentricity of a sampled source:
	// the diameter is at least this (infinite, and then exact, when the
	// graph is not connected and not Reachable).
	DiameterLowerBound Length  `json:"diameter_lower_bound"`
	Algorithm          string  `json:"algorithm"`
	Threads            int     `json:"threads"`
	Seconds            float64 `json:"seconds"`
}

// Interval is an estimate with its 95 % confidence interval; Estimate
// false marks an exact value (Low = High = Value). Unknown bounds (one
// source) are NaN, null in JSON.
type Interval struct {
	Value    Mean `json:"value"`
	Low      Mean `json:"ci95_low"`
	High     Mean `json:"ci95_high"`
	Estimate bool `json:"estimate"`
}

// EstimateOf is the Estimate from the rows of k sources sampled out of g's
// n vertices: exact says the rows hold integer sums, connected is g's
// (strong) connectivity.
func EstimateOf(rows []reduce.Row, g *graph.Graph, exact, connected, reachable bool) *Estimate {
	e := &Estimate{Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: g.Weighted(),
		Connected: connected, Reachable: reachable, Sample: len(rows)}
	if !connected && !reachable {
		inf := Mean(math.Inf(1))
		e.ASPL = Interval{Value: inf, Low: inf, High: inf}
		e.DiameterLowerBound = Infinite(!exact)
		return e
	}
	e.DiameterLowerBound = RowEcc(reduce.Row{}, exact, true)
	var sum, reach float64
	sums := make([]float64, len(rows))
	for i, r := range rows {
		sums[i] = r.SumF
		if exact {
			sums[i] = r.Sum.Float()
		}
		sum += sums[i]
		reach += float64(r.Reach)
		if r.Reach > 0 {
			if ecc := RowEcc(r, exact, true); e.DiameterLowerBound.Less(ecc) {
				e.DiameterLowerBound = ecc
			}
		}
	}
	nan := Mean(math.NaN())
	e.ASPL = Interval{Value: nan, Low: nan, High: nan, Estimate: true}
	if reach == 0 {
		return e
	}
	ratio := sum / reach
	e.ASPL.Value = Mean(ratio)
	k, n := float64(len(rows)), float64(g.N())
	if len(rows) < 2 {
		return e
	}
	// The ratio estimator's variance under sampling without replacement:
	// (1 − k/n) s² / (k r̄²), s² the residuals' sample variance.
	var ss float64
	for i, r := range rows {
		d := sums[i] - ratio*float64(r.Reach)
		ss += d * d
	}
	s2 := ss / (k - 1)
	rbar := reach / k
	half := 1.96 * math.Sqrt(math.Max(0, 1-k/n)*s2/(k*rbar*rbar))
	e.ASPL.Low, e.ASPL.High = Mean(ratio-half), Mean(ratio+half)
	return e
}

// ClosenessEstimate is the closeness of vertex v (NetworkX's definition,
// as Closeness) estimated from the distances d(u, v) of sampled vertices
// u ≠ v (k of them) out of the n−1 others: with x_u = 1 when u reaches v
// and y_u = d(u, v) then (else 0), and their means x̄, ȳ, the estimate is
// x̄/ȳ, times x̄ when wfImproved (the share reaching v), 0 when ȳ is 0; its
// 95 % interval is ±1.96 standard errors by the delta method with the
// finite-population correction 1 − k/(n−1) (unknown, NaN, for k < 2 out
// of more; zero-width when every other vertex is sampled; from 0 to
// unknown when no sampled vertex reaches v, as an unsampled one may,
// at a distance the sample cannot bound). xs and ys are
// the k pairs, others is n − 1.
func ClosenessEstimate(xs, ys []float64, others int, wfImproved bool) Interval {
	var s ClosenessSums
	for i := range xs {
		s.Add(xs[i] != 0, ys[i])
	}
	return s.Estimate(others, wfImproved)
}

// ClosenessSums are what ClosenessEstimate needs of one vertex v's sample,
// summed as the sources are searched (so that an estimate over many
// sources holds a few numbers a vertex, not a distance a source): K
// sampled u ≠ v, Reach of them reaching v, and Sum and SumSq of their
// distances to v less Shift (Add takes the first distance as Shift, so
// that distances large beside their spread lose no precision; sums of
// exact integers given whole leave Shift 0).
type ClosenessSums struct {
	K, Reach          int
	Sum, SumSq, Shift float64
}

// Add counts one sampled u ≠ v: reached says whether u reaches v, at
// distance d.
func (s *ClosenessSums) Add(reached bool, d float64) {
	s.K++
	if reached {
		if s.Reach == 0 {
			s.Shift = d
		}
		s.Reach++
		d -= s.Shift
		s.Sum += d
		s.SumSq += d * d
	}
}

// Estimate is ClosenessEstimate from the sums, others being n − 1.
func (s ClosenessSums) Estimate(others int, wfImproved bool) Interval {
	nan := Mean(math.NaN())
	out := Interval{Value: 0, Low: nan, High: nan, Estimate: true}
	if s.K == 0 {
		out.Value = nan
		return out
	}
	k, r, c := float64(s.K), float64(s.Reach), s.Shift
	xbar, ybar := r/k, (s.Sum+r*c)/k
	whole := s.K >= others // every other vertex sampled: no sampling error
	if ybar <= 0 {
		// No sampled vertex reaches v (or all at distance 0). Exact 0
		// when every other vertex was sampled; otherwise an unsampled one
		// may reach v, and the sample bounds its closeness only below.
		out.Low = 0
		if whole {
			out.High = 0
		}
		return out
	}
	c0 := xbar / ybar
	gx, gy := 1/ybar, -xbar/(ybar*ybar) // ∂c/∂x̄, ∂c/∂ȳ
	if wfImproved {
		c0 *= xbar
		gx, gy = 2*xbar/ybar, -xbar*xbar/(ybar*ybar)
	}
	out.Value = Mean(c0)
	if whole {
		out.Low, out.High = out.Value, out.Value
		return out
	}
	if s.K < 2 {
		return out
	}
	// The sample (co)variances of x (1 where u reaches v) and y (d(u, v)
	// there, else 0) from the shifted sums: with e = ȳ − Shift, the
	// reached u contribute Σ(d − ȳ)² = SumSq − 2e·Sum + r·e², the others
	// ȳ² each; Σ(x − x̄)(y − ȳ) = (1 − x̄)(Sum − r·e) + (k − r)·x̄·ȳ.
	e := ybar - c
	sxx := r * (1 - xbar) / (k - 1)
	syy := (s.SumSq - 2*e*s.Sum + r*e*e + (k-r)*ybar*ybar) / (k - 1)
	sxy := ((1-xbar)*(s.Sum-r*e) + (k-r)*xbar*ybar) / (k - 1)
	v := (gx*gx*sxx + 2*gx*gy*sxy + gy*gy*syy) / k * math.Max(0, 1-k/float64(others))
	half := 1.96 * math.Sqrt(math.Max(0, v))
	out.Low, out.High = Mean(c0-half), Mean(c0+half)
	return out
}
