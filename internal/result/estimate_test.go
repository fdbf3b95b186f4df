package result

import (
	"math"
	"math/rand/v2"
	"testing"
)

// twoPass is the delta-method closeness interval computed from the pairs
// with deviations from the means (the textbook two-pass form), the
// reference for ClosenessSums' one-pass sums.
func twoPass(xs, ys []float64, others int, wf bool) (c, half float64) {
	k := float64(len(xs))
	var xbar, ybar float64
	for i := range xs {
		xbar += xs[i]
		ybar += ys[i]
	}
	xbar, ybar = xbar/k, ybar/k
	c = xbar / ybar
	gx, gy := 1/ybar, -xbar/(ybar*ybar)
	if wf {
		c *= xbar
		gx, gy = 2*xbar/ybar, -xbar*xbar/(ybar*ybar)
	}
	var sxx, syy, sxy float64
	for i := range xs {
		dx, dy := xs[i]-xbar, ys[i]-ybar
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	sxx, syy, sxy = sxx/(k-1), syy/(k-1), sxy/(k-1)
	v := (gx*gx*sxx + 2*gx*gy*sxy + gy*gy*syy) / k * math.Max(0, 1-k/float64(others))
	return c, 1.96 * math.Sqrt(math.Max(0, v))
}

// The sums give the two-pass interval on random samples: distances of
// road-like size (thousands, spread), of small worlds (a few values), and
// large beside their spread (1e8 ± 0.5, where unshifted sums of squares
// lose the variance), some sources not reaching v.
func TestClosenessSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 40))
	for trial := range 500 {
		k := 2 + rng.IntN(200)
		others := k + rng.IntN(1000)
		scale, spread := []float64{3, 2000, 1e6, 1e8}[trial%4], []float64{2, 1500, 1e5, 0.5}[trial%4]
		xs, ys := make([]float64, k), make([]float64, k)
		for i := range k {
			if rng.Float64() < []float64{0.9, 0.9, 0.9, 1}[trial%4] || i == 0 {
				xs[i], ys[i] = 1, scale+math.Floor(rng.Float64()*spread*4)/4
			}
		}
		for _, wf := range []bool{false, true} {
			got := ClosenessEstimate(xs, ys, others, wf)
			c, half := twoPass(xs, ys, others, wf)
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(b), 1e-300) }
			if !near(float64(got.Value), c) || !near(float64(got.High-got.Value), half) && math.Abs(float64(got.High-got.Value)-half) > 1e-12*c {
				t.Fatalf("trial %d (k %d, wf %v): %+v, want %v ± %v", trial, k, wf, got, c, half)
			}
		}
	}
}

// No sampled vertex reaching v: 0, bounded below only, unless every
// other vertex was sampled (exactly 0).
func TestClosenessUnreached(t *testing.T) {
	for _, tt := range []struct {
		k, others int
		high      float64 // NaN: unknown
	}{{5, 100, math.NaN()}, {1, 100, math.NaN()}, {100, 100, 0}} {
		got := ClosenessSums{K: tt.k}.Estimate(tt.others, true)
		if got.Value != 0 || got.Low != 0 || !(float64(got.High) == tt.high || math.IsNaN(tt.high) && math.IsNaN(float64(got.High))) || !got.Estimate {
			t.Errorf("k %d of %d: %+v, want 0 in [0, %v]", tt.k, tt.others, got, tt.high)
		}
	}
}
