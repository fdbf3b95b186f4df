package apsp_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// want are the summary measures computed from a reference distance matrix
// by README's definitions, written out directly.
type want struct {
	ecc               []apsp.Length
	diameter, radius  apsp.Length
	aspl              float64 // +Inf, NaN (no pair) or the mean
	pairs             int64
	center, periphery []int
}

// byDefinition applies README's definitions to the reference matrix d.
func byDefinition(d *apsp.Distances, reachable bool) want {
	n := d.N()
	var w want
	float := !d.Exact()
	var sum float64
	connected := true
	for u := 0; u < n; u++ {
		var e apsp.Length // 0 when u reaches nobody
		if float {
			e = apsp.FloatLength(0)
		} else {
			e = apsp.IntLength(0)
		}
		first := true
		for v := 0; v < n; v++ {
			if u == v {
				continue
			}
			x := d.At(u, v)
			if x.IsInf() {
				connected = false
				if !reachable {
					e, first = apsp.Infinite(float), false
				}
				continue
			}
			w.pairs++
			sum += x.Float()
			if e.IsInf() {
				continue
			}
			if first || x.Float() > e.Float() {
				e, first = x, false
			}
		}
		w.ecc = append(w.ecc, e)
	}
	w.radius = w.ecc[0]
	for _, e := range w.ecc {
		if less(e, w.radius) {
			w.radius = e
		}
	}
	switch {
	case !connected && !reachable:
		w.diameter, w.aspl = apsp.Infinite(float), math.Inf(1)
	default:
		w.diameter = w.ecc[0]
		first := true
		for u, e := range w.ecc {
			reachesSome := false
			for v := 0; v < n; v++ {
				reachesSome = reachesSome || (u != v && !d.At(u, v).IsInf())
			}
			if reachesSome && (first || less(w.diameter, e)) {
				w.diameter, first = e, false
			}
		}
		if first { // no pair has a path
			w.diameter = w.ecc[0]
		}
		w.aspl = math.NaN()
		if w.pairs > 0 {
			w.aspl = sum / float64(w.pairs)
		}
	}
	for u, e := range w.ecc {
		if !w.radius.IsInf() && close(e, w.radius) {
			w.center = append(w.center, u)
		}
		if close(e, w.diameter) {
			w.periphery = append(w.periphery, u)
		}
	}
	return w
}

func less(a, b apsp.Length) bool {
	if a.IsInf() {
		return false
	}
	return b.IsInf() || a.Float() < b.Float()
}

func close(a, b apsp.Length) bool {
	if a.IsInf() || b.IsInf() {
		return a.IsInf() == b.IsInf()
	}
	x, y := a.Float(), b.Float()
	return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}

// sparseGraph returns a random graph with about deg·n arcs: directed ones
// are mostly not strongly connected, some have a root that reaches every
// vertex (a finite radius), some have no arc at all.
func sparseGraph(rng *rand.Rand, n int, directed, weighted, float bool, scale float64) *graph.Graph {
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	add := func(u, v int) {
		var err error
		switch {
		case float:
			err = b.AddFloatEdge(u, v, rng.Float64()*5*scale)
		case weighted:
			err = b.AddIntEdge(u, v, 1+rng.Int64N(9))
		default:
			err = b.AddEdge(u, v)
		}
		if err != nil {
			panic(err)
		}
	}
	if rng.IntN(2) == 0 { // an out-tree from a random root
		root := rng.IntN(n)
		for v := 0; v < n; v++ {
			if v != root {
				add(rng.IntN(n), v)
			}
		}
		for v := 0; v < n; v++ {
			if v != root && rng.IntN(3) == 0 {
				add(root, v)
			}
		}
	}
	for range rng.IntN(2 * n) {
		add(rng.IntN(n), rng.IntN(n))
	}
	return b.Build()
}

// TestMeasuresByDefinition is the differential test of the summary
// measures: every CPU engine's ComputeStats and Eccentricities against
// README's definitions applied to the reference matrix, on random graphs
// that are mostly not (strongly) connected, with and without --reachable.
func TestMeasuresByDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(8, 8))
	graphs := 0
	for trial := 0; trial < 160; trial++ {
		n := 1 + rng.IntN(40)
		directed := trial%4 != 3
		weighted, float := trial%5 == 1, trial%5 == 2
		// Float weights at three scales: eccentricities far below 1 must
		// not all compare equal (center and periphery), nor far above.
		scale := []float64{1, 1e-12, 1e8}[trial%3]
		g := sparseGraph(rng, n, directed, weighted, float, scale)
		graphs++
		ref, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: "fw"})
		if err != nil {
			t.Fatal(err)
		}
		for _, reachable := range []bool{false, true} {
			w := byDefinition(ref, reachable)
			for _, run := range cpuRuns(g) {
				algo := run.Algorithm
				name := fmt.Sprintf("trial %d n=%d directed=%v weighted=%v float=%v (scale %g) reachable=%v %s lanes=%q",
					trial, n, directed, weighted, float, scale, reachable, algo, run.Lanes)
				opt := apsp.Options{Algorithm: algo, Reachable: reachable, Lanes: run.Lanes}
				s, err := apsp.ComputeStats(ctx, g, opt)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !close(s.Diameter, w.diameter) || !close(s.Radius, w.radius) || s.ReachablePairs != w.pairs {
					t.Fatalf("%s: diameter %v radius %v pairs %d; by definition %v %v %d",
						name, s.Diameter, s.Radius, s.ReachablePairs, w.diameter, w.radius, w.pairs)
				}
				got := float64(s.ASPL)
				if math.IsNaN(w.aspl) != math.IsNaN(got) || (!math.IsNaN(got) && !(got == w.aspl || math.Abs(got-w.aspl) <= 1e-9*math.Abs(w.aspl))) {
					t.Fatalf("%s: aspl %v, by definition %v", name, got, w.aspl)
				}
				if !slices.Equal(s.Center, w.center) || !slices.Equal(s.Periphery, w.periphery) {
					t.Fatalf("%s: center %v periphery %v; by definition %v %v", name, s.Center, s.Periphery, w.center, w.periphery)
				}
				ecc, err := apsp.Eccentricities(ctx, g, opt)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for u := range ecc {
					if !close(ecc[u], w.ecc[u]) {
						t.Fatalf("%s: ecc(%d) = %v, by definition %v", name, u, ecc[u], w.ecc[u])
					}
				}
			}
			// The bounds method answers the diameter and radius alone.
			if g.Kind() == graph.Unweighted {
				s, err := apsp.ComputeExtremes(ctx, g, apsp.Options{Reachable: reachable})
				if err != nil {
					t.Fatal(err)
				}
				if !close(s.Diameter, w.diameter) || !close(s.Radius, w.radius) {
					t.Errorf("trial %d extremes (%s) reachable=%v: diameter %v radius %v; by definition %v %v",
						trial, s.Algorithm, reachable, s.Diameter, s.Radius, w.diameter, w.radius)
				}
			}
		}
	}
	if graphs < 150 {
		t.Fatalf("only %d graphs", graphs)
	}
}

// cpuRuns are the CPU engines that take g, each in its own choice of
// lanes and, for an integer graph, in float64 lanes too where it offers
// them (dijkstra and johnson once summed such rows as integers and read
// them as floats: every measure 0).
func cpuRuns(g *graph.Graph) []apsp.Options {
	var runs []apsp.Options
	for _, algo := range cpuAlgorithms() {
		if !supported(algo, g) {
			continue
		}
		runs = append(runs, apsp.Options{Algorithm: algo})
		float := apsp.Options{Algorithm: algo, Lanes: "float64"}
		if g.Kind() != graph.FloatWeights && apsp.Supports(g, float) == nil {
			runs = append(runs, float)
		}
	}
	return runs
}

// TestDirectedRadiusKnown pins the example: the single arc 0→1
// has eccentricities 1 and inf, so radius 1 and center {0}, diameter inf.
func TestDirectedRadiusKnown(t *testing.T) {
	b := graph.NewBuilder(true)
	if err := b.AddEdge(0, 1); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	for _, algo := range cpuAlgorithms() {
		s, err := apsp.ComputeStats(context.Background(), g, apsp.Options{Algorithm: algo})
		if err != nil {
			t.Fatal(err)
		}
		if s.Radius.IsInf() || s.Radius.Int() != 1 || !slices.Equal(s.Center, []int{0}) || !s.Diameter.IsInf() || !slices.Equal(s.Periphery, []int{1}) {
			t.Fatalf("%s: radius %v center %v diameter %v periphery %v", algo, s.Radius, s.Center, s.Diameter, s.Periphery)
		}
	}
}

// TestOneVertex: diameter and radius 0, and an ASPL over no pair is
// undefined (NaN), with or without --reachable.
func TestOneVertex(t *testing.T) {
	b := graph.NewBuilder(false)
	if err := b.SetVertices(1); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	for _, algo := range cpuAlgorithms() {
		for _, reachable := range []bool{false, true} {
			s, err := apsp.ComputeStats(context.Background(), g, apsp.Options{Algorithm: algo, Reachable: reachable})
			if err != nil {
				t.Fatal(err)
			}
			if !s.Connected || s.Diameter.Int() != 0 || s.Radius.Int() != 0 || !math.IsNaN(float64(s.ASPL)) || s.ReachablePairs != 0 {
				t.Fatalf("%s reachable=%v: %+v", algo, reachable, s)
			}
		}
	}
}

// floatChain is the path 0–1–…–(n−1) with every edge of length w.
func floatChain(n int, w float64) *graph.Graph {
	b := graph.NewBuilder(false)
	for i := 0; i+1 < n; i++ {
		if err := b.AddFloatEdge(i, i+1, w); err != nil {
			panic(err)
		}
	}
	return b.Build()
}

// TestFloatRange: a float graph whose path lengths (or the ASPL's sum)
// could overflow float64 is refused by every engine and every entry point,
// never answered with +Inf read as "no path"; one just inside the limit is
// answered exactly as the reference does.
func TestFloatRange(t *testing.T) {
	ctx := context.Background()
	tooBig := []*graph.Graph{floatChain(3, 1e308), floatChain(10, 1e306), floatChain(1000, 1e300)}
	for i, g := range tooBig {
		for _, algo := range cpuAlgorithms() {
			if !supported(algo, floatChain(3, 1)) {
				continue // refuses float graphs whatever their weights
			}
			if _, err := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: algo}); !errors.Is(err, apsp.ErrWeightsTooLarge) {
				t.Fatalf("graph %d %s: stats err = %v, want ErrWeightsTooLarge", i, algo, err)
			}
			if _, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: algo}); !errors.Is(err, apsp.ErrWeightsTooLarge) {
				t.Fatalf("graph %d %s: all pairs err = %v", i, algo, err)
			}
		}
		if _, err := apsp.ShortestPath(ctx, g, 0, 2, apsp.Options{}); !errors.Is(err, apsp.ErrWeightsTooLarge) {
			t.Fatalf("graph %d: path err = %v", i, err)
		}
		if _, err := apsp.ComputeExtremes(ctx, g, apsp.Options{}); !errors.Is(err, apsp.ErrWeightsTooLarge) {
			t.Fatalf("graph %d: extremes err = %v", i, err)
		}
	}
	for _, a := range apsp.Algorithms() {
		if apsp.Supports(tooBig[0], apsp.Options{Algorithm: a.Name}) == nil {
			t.Fatalf("%s supports a graph whose lengths overflow float64", a.Name)
		}
	}
	// Near the limit: lengths up to 1e300-ish, checked against the reference
	// and against exact arithmetic (every partial sum of equal weights is
	// exact in binary when w is a power of two).
	for _, n := range []int{2, 3, 17, 64} {
		pairs := float64(n) * float64(n-1)
		w := math.Ldexp(1, math.Ilogb(math.MaxFloat64/2/pairs/float64(n-1))-1) // a power of two just inside
		g := floatChain(n, w)
		ref, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: "fw"})
		if err != nil {
			t.Fatalf("n=%d w=%g: %v", n, w, err)
		}
		if got := ref.At(0, n-1).Float(); got != w*float64(n-1) {
			t.Fatalf("n=%d: d(0,n-1) = %g, want %g", n, got, w*float64(n-1))
		}
		for _, algo := range cpuAlgorithms() {
			if !supported(algo, g) {
				continue
			}
			s, err := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: algo})
			if err != nil {
				t.Fatalf("n=%d %s: %v", n, algo, err)
			}
			if !s.Connected || s.Diameter.IsInf() || s.Diameter.Float() != w*float64(n-1) || s.ASPL.IsInf() {
				t.Fatalf("n=%d %s: %+v", n, algo, s)
			}
		}
	}
}

// TestWideIntegers: integer path lengths that need all of int64's positive
// range (beyond half of it, where the fast lanes put infinity) are answered
// exactly by the engines whose sums cannot overflow — fw, dijkstra, johnson
// and auto — and refused by the others with a clear error, never wrapped
// around.
func TestWideIntegers(t *testing.T) {
	ctx := context.Background()
	one := graph.NewBuilder(false)
	if err := one.AddIntEdge(0, 1, math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	g := one.Build()
	for _, algo := range []string{"fw", "dijkstra", "johnson", "auto"} {
		s, err := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: algo})
		if err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		if s.Diameter.Int() != math.MaxInt64 || float64(s.ASPL) != math.MaxInt64 || !s.Connected {
			t.Fatalf("%s: %+v", algo, s)
		}
	}
	if p, err := apsp.ShortestPath(ctx, g, 1, 0, apsp.Options{}); err != nil || p.Length.Int() != math.MaxInt64 {
		t.Fatalf("path: %v %v", p, err)
	}
	if _, err := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: "blocked"}); err == nil {
		t.Fatal("blocked took a wide graph")
	}
	rng := rand.New(rand.NewPCG(63, 64))
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(15)
		b := graph.NewBuilder(trial%2 == 0)
		for range 2 * n {
			u, v := rng.IntN(n), rng.IntN(n)
			if u != v {
				if err := b.AddIntEdge(u, v, 1<<58+rng.Int64N(1<<58)); err != nil {
					t.Fatal(err)
				}
			}
		}
		g := b.Build()
		ref, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: "fw"})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		// An independent check of the reference: Bellman–Ford in uint64
		// with overflowing sums discarded (they exceed every real distance).
		for u := 0; u < g.N(); u++ {
			bf := bellmanFordU64(g, u)
			for v := 0; v < g.N(); v++ {
				x := ref.At(u, v)
				if (bf[v] == math.MaxUint64) != x.IsInf() || (!x.IsInf() && uint64(x.Int()) != bf[v]) {
					t.Fatalf("trial %d: fw d(%d,%d) = %v, Bellman–Ford %d", trial, u, v, x, bf[v])
				}
			}
		}
		for _, algo := range []string{"dijkstra", "johnson", "auto"} {
			d, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: algo, Paths: true})
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, algo, err)
			}
			for u := 0; u < g.N(); u++ {
				for v := 0; v < g.N(); v++ {
					if d.At(u, v) != ref.At(u, v) {
						t.Fatalf("trial %d %s: d(%d,%d) = %v, fw %v", trial, algo, u, v, d.At(u, v), ref.At(u, v))
					}
					if d.At(u, v).IsInf() {
						continue
					}
					// The path runs along arcs and its length, summed in
					// uint64 (it fits: a simple path), is the distance.
					vs, err := d.Path(u, v)
					if err != nil || vs[0] != u || vs[len(vs)-1] != v {
						t.Fatalf("trial %d %s: path %d→%d = %v, %v", trial, algo, u, v, vs, err)
					}
					var sum uint64
					for i := 0; i+1 < len(vs); i++ {
						k := g.ArcIndex(vs[i], vs[i+1])
						if k < 0 {
							t.Fatalf("trial %d %s: path %v uses a missing arc %d→%d", trial, algo, vs, vs[i], vs[i+1])
						}
						sum += uint64(g.ArcInt(vs[i], k))
					}
					if sum != uint64(d.At(u, v).Int()) {
						t.Fatalf("trial %d %s: path %v has length %d, distance %v", trial, algo, vs, sum, d.At(u, v))
					}
				}
			}
			s, err := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: algo, Reachable: true})
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, algo, err)
			}
			if w := byDefinition(ref, true); !close(s.Diameter, w.diameter) || !close(s.Radius, w.radius) {
				t.Fatalf("trial %d %s: diameter %v radius %v, want %v %v", trial, algo, s.Diameter, s.Radius, w.diameter, w.radius)
			}
		}
	}
}

// bellmanFordU64 returns the distances from s in uint64 (MaxUint64 for no
// path), for non-negative weights whose simple paths fit.
func bellmanFordU64(g *graph.Graph, s int) []uint64 {
	d := make([]uint64, g.N())
	for i := range d {
		d[i] = math.MaxUint64
	}
	d[s] = 0
	for range g.N() {
		for u := 0; u < g.N(); u++ {
			if d[u] == math.MaxUint64 {
				continue
			}
			for i, v := range g.Neighbors(u) {
				if x, carry := bits.Add64(d[u], uint64(g.ArcInt(u, i)), 0); carry == 0 && x < d[v] {
					d[v] = x
				}
			}
		}
	}
	return d
}
