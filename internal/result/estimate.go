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
