package lanes

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
)

func path(t testing.TB, n int, w int64) *graph.Graph {
	b := graph.NewBuilder(true)
	for i := 0; i+1 < n; i++ {
		if err := b.AddIntEdge(i, i+1, w); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func floatPath(t testing.TB, n int, w float64) *graph.Graph {
	b := graph.NewBuilder(true)
	for i := 0; i+1 < n; i++ {
		if err := b.AddFloatEdge(i, i+1, w); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

var allInts = []Kind{Int8, Int16, Int32, Int64}

// TestPlanFor is internal/cpu's TestPlanLanes, extended to the narrow
// kinds (the narrowest integer kind each plan allows), negative spans, the
// float limit and float32's rules.
func TestPlanFor(t *testing.T) {
	tests := []struct {
		name   string
		g      *graph.Graph
		lanes  Kind // PlanFor's choice among int32, int64, float64
		narrow Kind // Narrowest(int8, int16, int32, int64) or (float32, float64)
		wide   bool
		err    error // from PlanFor
	}{
		{"small", path(t, 10, 5), Int32, Int8, false, nil},
		{"int8 edge", path(t, 3, 31), Int32, Int8, false, nil}, // span 62 < 63
		{"past int8", path(t, 3, 32), Int32, Int16, false, nil},
		{"int16 edge", path(t, 3, 8191), Int32, Int16, false, nil}, // 16382 < 16383
		{"past int16", path(t, 3, 8192), Int32, Int32, false, nil},
		{"just fits int32", path(t, 3, int64(Inf32-1)/2), Int32, Int32, false, nil},
		{"needs int64", path(t, 3, int64(Inf32)), Int64, Int64, false, nil},
		// Negative weights stay on signed lanes of 32 bits or more (the
		// packed kinds' rule needs non-negative weights: fitsPacked).
		{"negative within int8's span", path(t, 3, -31), Int32, Int32, false, nil},
		{"negative within int16's span", path(t, 3, -32), Int32, Int32, false, nil},
		{"negative span", path(t, 3, -(1 << 29)), Int64, Int64, false, nil},
		{"wide", path(t, 4, 1<<61), Int64, Int64, true, nil},
		{"wide to MaxInt64", path(t, 2, math.MaxInt64), Int64, Int64, true, nil},
		{"too large", path(t, 5, 1<<61), 0, 0, false, ErrWeightsTooLarge},
		{"negative and beyond half of int64", path(t, 4, -(1 << 61)), 0, 0, false, ErrWeightsTooLarge},
		{"float", floatPath(t, 10, 0.5), Float64, Float32, false, nil},
		{"float beyond float32", floatPath(t, 3, 1e38), Float64, Float64, false, nil},
		{"float near the limit", floatPath(t, 3, 1e300), Float64, Float64, false, nil},
		{"float limit", floatPath(t, 3, 1e307), 0, 0, false, ErrWeightsTooLarge},
		{"float overflow", floatPath(t, 3, math.MaxFloat64), 0, 0, false, ErrWeightsTooLarge},
		{"subnormal for float32", floatPath(t, 3, 1e-40), Float64, Float64, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanFor(tt.g)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("want %v, got %v", tt.err, err)
				}
				return
			}
			if err != nil || p.Lanes != tt.lanes || p.Wide != tt.wide {
				t.Fatalf("lanes %v wide %v err %v, want %v wide %v", p.Lanes, p.Wide, err, tt.lanes, tt.wide)
			}
			offer := allInts
			if p.Lanes.IsFloat() {
				offer = []Kind{Float32, Float64}
			}
			if got, err := p.Narrowest(offer...); err != nil || got != tt.narrow {
				t.Fatalf("Narrowest%v = %v, %v; want %v", offer, got, err, tt.narrow)
			}
		})
	}
}

// TestNarrowest checks the offers' order, missing kinds and the errors.
func TestNarrowest(t *testing.T) {
	small, _ := PlanFor(path(t, 10, 5))
	mid, _ := PlanFor(path(t, 3, 1000))
	wide, _ := PlanFor(path(t, 4, 1<<61))
	fl, _ := PlanFor(floatPath(t, 10, 0.5))
	big, _ := PlanFor(floatPath(t, 3, 1e38))
	sub, _ := PlanFor(floatPath(t, 3, 1e-40))
	tests := []struct {
		name  string
		p     Plan
		offer []Kind
		want  Kind
		err   error
	}{
		{"order does not matter", small, []Kind{Int64, Int32, Int16}, Int16, nil},
		{"floats ignored for integers", small, []Kind{Float32, Int32, Float64}, Int32, nil},
		{"int16 too narrow", mid, []Kind{Int8}, 0, ErrWeightsTooLarge},
		{"int16 engine", mid, []Kind{Int16, Int32}, Int16, nil},
		{"wide needs int64", wide, []Kind{Int16, Int32}, 0, ErrWeightsTooLarge},
		{"wide", wide, allInts, Int64, nil},
		{"no integer kind", small, []Kind{Float32, Float64}, 0, ErrNoKind},
		{"no float kind", fl, allInts, 0, ErrNoKind},
		{"nothing offered", small, nil, 0, ErrNoKind},
		{"invalid offered", small, []Kind{0, 42}, 0, ErrNoKind},
		{"float32", fl, []Kind{Float64, Float32}, Float32, nil},
		{"float32 overflow", big, []Kind{Float32}, 0, ErrWeightsTooLarge},
		{"float32 subnormal", sub, []Kind{Float32}, 0, nil}, // an error, but not too large
	}
	for _, tt := range tests {
		got, err := tt.p.Narrowest(tt.offer...)
		switch {
		case tt.name == "float32 subnormal":
			if err == nil || errors.Is(err, ErrWeightsTooLarge) {
				t.Errorf("%s: %v, %v", tt.name, got, err)
			}
		case tt.err != nil:
			if !errors.Is(err, tt.err) || got != 0 {
				t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

// TestHolds checks integer plans in float kinds: exact below 2^(mantissa−1).
func TestHolds(t *testing.T) {
	tests := []struct {
		g    *graph.Graph
		kind Kind
		ok   bool
	}{
		{path(t, 3, 1<<21), Float32, true},  // span 2^22
		{path(t, 3, 1<<22), Float32, false}, // span 2^23
		{path(t, 3, -(1 << 21)), Float32, true},
		{path(t, 3, 1<<50), Float64, true},
		{path(t, 3, 1<<51), Float64, false},
		{path(t, 4, 1<<61), Float64, false}, // wide
		{path(t, 3, 1<<51), Int64, true},
		{path(t, 3, 31), Int8, true},
		{floatPath(t, 3, 1), Int64, false},
	}
	for _, tt := range tests {
		p, err := PlanFor(tt.g)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Holds(tt.kind); (err == nil) != tt.ok {
			t.Errorf("span %d..%d in %v: %v, want ok=%v", p.MinReal, p.MaxReal, tt.kind, err, tt.ok)
		}
	}
	if err := (Plan{}).Holds(0); !errors.Is(err, ErrNoKind) {
		t.Errorf("invalid kind: %v", err)
	}
}

// randomGraph draws graphs around every boundary the planner has: the
// narrow kinds' spans, int32's and int64's halves, MaxInt64, negative
// arcs, undirected halving, float32's range and normal range, FloatLimit.
func randomGraph(rng *rand.Rand) *graph.Graph {
	n := rng.IntN(12)
	if rng.IntN(4) == 0 {
		n = rng.IntN(60)
	}
	b := graph.NewBuilder(rng.IntN(3) != 0)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	if n == 0 {
		return b.Build()
	}
	kind := rng.IntN(3)
	intScales := []int64{1, 2, 8, 31, 32, 100, 8191, 8192, 1 << 20, 1 << 29, 1 << 30, 1 << 31, 1 << 40, 1 << 59, 1 << 60, 1 << 61, 1 << 62, math.MaxInt64 / 3, math.MaxInt64}
	floatScales := []float64{1e-45, 1e-40, 1e-3, 1, 1e30, 1e37, 1e38, 1e300, 1e306, 1e307, 1e308}
	scale := intScales[rng.IntN(len(intScales))]
	fscale := floatScales[rng.IntN(len(floatScales))]
	neg := rng.IntN(4) == 0
	arcs := rng.IntN(3 * n)
	for range arcs {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v && rng.IntN(4) != 0 {
			continue
		}
		var err error
		switch kind {
		case 0:
			err = b.AddEdge(u, v)
		case 1:
			w := rng.Int64N(scale) + 1
			if neg && rng.IntN(3) == 0 {
				w = -w
			}
			err = b.AddIntEdge(u, v, w)
		default:
			w := fscale * (0.5 + rng.Float64())
			if neg && rng.IntN(3) == 0 {
				w = -w
			}
			err = b.AddFloatEdge(u, v, w)
		}
		if err != nil {
			panic(err)
		}
	}
	return b.Build()
}

// TestPlanForMatchesPlanLanes proves on many random graphs that PlanFor
// and Narrowest over today's offer (int32, int64, float64, in any order)
// choose exactly what cpu.PlanLanes chose, with the same bounds and the
// same refusals.
func TestPlanForMatchesPlanLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2))
	seen := map[string]int{}
	offers := [][]Kind{{Int32, Int64, Float64}, {Float64, Int64, Int32}, {Int64, Float64, Int32}}
	for trial := 0; trial < 8000; trial++ {
		g := randomGraph(rng)
		old, oldErr := oldPlanLanes(g)
		p, err := PlanFor(g)
		if (err == nil) != (oldErr == nil) || (err != nil && err.Error() != oldErr.Error()) {
			t.Fatalf("trial %d: err %v, PlanLanes %v", trial, err, oldErr)
		}
		if err != nil {
			seen["refused "+g.Kind().String()]++
			continue
		}
		if p.Lanes != old.Lanes || p.MaxReal != old.MaxReal || p.MinReal != old.MinReal || p.Negative != old.Negative || p.Wide != old.Wide ||
			math.Float64bits(p.MaxAbsFloat) != math.Float64bits(old.MaxAbsFloat) {
			t.Fatalf("trial %d: PlanFor %+v, PlanLanes %+v", trial, p, old)
		}
		for _, offer := range offers {
			if k, err := p.Narrowest(offer...); err != nil || k != old.Lanes {
				t.Fatalf("trial %d: Narrowest%v = %v, %v; PlanLanes %v", trial, offer, k, err, old.Lanes)
			}
		}
		key := old.Lanes.String()
		if old.Wide {
			key += " wide"
		}
		if old.Negative {
			key += " negative"
		}
		seen[key]++
	}
	t.Logf("cases: %v", seen)
	for _, want := range []string{"int32", "int32 negative", "int64", "int64 negative", "int64 wide", "float64", "float64 negative", "refused integer", "refused float"} {
		if seen[want] == 0 {
			t.Errorf("no random graph planned as %q: %v", want, seen)
		}
	}
}

// TestBoundsHold checks on small random integer graphs that every real
// distance lies in [MinReal, MaxReal], and hence that the kind Narrowest
// picks holds it with room for infinity: span < SpanBound.
func TestBoundsHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	narrow := map[Kind]int{}
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(12)
		b := graph.NewBuilder(rng.IntN(2) == 0)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		hi := []int64{1, 5, 40, 3000}[rng.IntN(4)]
		for range rng.IntN(3 * n) {
			u, v := rng.IntN(n), rng.IntN(n)
			if u != v {
				w := rng.Int64N(2*hi+1) - hi/4 // some negative arcs
				if err := b.AddIntEdge(u, v, w); err != nil {
					t.Fatal(err)
				}
			}
		}
		g := b.Build()
		p, err := PlanFor(g)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := fwInt64(g)
		if !ok {
			continue // a negative cycle: no distances to bound
		}
		k, err := p.Narrowest(allInts...)
		if err != nil {
			t.Fatal(err)
		}
		narrow[k]++
		for i := range d {
			for j, x := range d[i] {
				if x != math.MaxInt64 && (x > p.MaxReal || x < p.MinReal) {
					t.Fatalf("trial %d: d(%d,%d) = %d outside %d..%d", trial, i, j, x, p.MinReal, p.MaxReal)
				}
			}
		}
	}
	if narrow[Int8] == 0 || narrow[Int16] == 0 || narrow[Int32] == 0 {
		t.Errorf("kinds chosen: %v", narrow)
	}
}

// fwInt64 is a plain Floyd–Warshall over small weights (MaxInt64: no
// path); ok is false on a negative cycle.
func fwInt64(g *graph.Graph) ([][]int64, bool) {
	n := g.N()
	d := make([][]int64, n)
	for i := range d {
		d[i] = make([]int64, n)
		for j := range d[i] {
			d[i][j] = math.MaxInt64
		}
		d[i][i] = 0
		for a, v := range g.Neighbors(i) {
			d[i][v] = min(d[i][v], g.ArcInt(i, a))
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				if d[i][k] != math.MaxInt64 && d[k][j] != math.MaxInt64 {
					d[i][j] = min(d[i][j], d[i][k]+d[k][j])
				}
			}
		}
	}
	for i := range n {
		if d[i][i] < 0 {
			return nil, false
		}
	}
	return d, true
}

func ExamplePlan_Narrowest() {
	b := graph.NewBuilder(false)
	for i := 0; i < 9; i++ {
		_ = b.AddIntEdge(i, i+1, 100)
	}
	p, _ := PlanFor(b.Build())
	k, _ := p.Narrowest(Int16, Int32)
	fmt.Println(p.Lanes, k, p.MaxReal)
	// Output: int32 int16 900
}

// gpuFitsFloat32 is the root package's fitsFloat32 (gpu_engine.go) at
// issue 9: the rule Narrowest applies to float32.
func gpuFitsFloat32(g *graph.Graph, plan Plan) error {
	grow := 1 + float64(g.N())/(1<<22)
	if 2*plan.MaxAbsFloat*grow > math.MaxFloat32 {
		return fmt.Errorf("%w: float path lengths may reach %.3g", ErrWeightsTooLarge, plan.MaxAbsFloat)
	}
	for u := 0; u < g.N(); u++ {
		for _, w := range g.FloatWeights(u) {
			if w != 0 && math.Abs(w) < 0x1p-126 {
				return fmt.Errorf("weight %g is below float32's normal range", w)
			}
		}
	}
	return nil
}

// TestFloat32MatchesGPURule checks that Narrowest takes float32 exactly
// when the GPU engine's float32 check passes.
func TestFloat32MatchesGPURule(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var yes, no int
	for trial := 0; trial < 4000; trial++ {
		g := randomGraph(rng)
		if g.Kind() != graph.FloatWeights {
			continue
		}
		p, err := PlanFor(g)
		if err != nil {
			continue
		}
		want := gpuFitsFloat32(g, p)
		_, err = p.Narrowest(Float32)
		if (err == nil) != (want == nil) || (err != nil && errors.Is(err, ErrWeightsTooLarge) != errors.Is(want, ErrWeightsTooLarge)) {
			t.Fatalf("trial %d: Narrowest(float32): %v; GPU rule: %v", trial, err, want)
		}
		if err == nil {
			yes++
		} else {
			no++
		}
	}
	if yes == 0 || no == 0 {
		t.Errorf("float32 taken %d times, refused %d", yes, no)
	}
}
