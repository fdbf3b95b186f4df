package golf

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp"
)

// invariant says whether σ (v → v + n/sym) maps every edge of g onto an
// edge of g.
func invariant(g *Graph, sym int) error {
	has := map[[2]int32]bool{}
	for _, e := range g.Edges {
		has[[2]int32{min(e[0], e[1]), max(e[0], e[1])}] = true
	}
	st := &state{n: g.N, sym: sym}
	for _, e := range g.Edges {
		u, v := st.rot(e[0], 1), st.rot(e[1], 1)
		if !has[[2]int32{min(u, v), max(u, v)}] {
			return fmt.Errorf("edge %v without its rotation %d-%d", e, u, v)
		}
	}
	return nil
}

// TestSymmetricMoves: symmetric moves from a random symmetric start keep
// the graph simple, every degree and the symmetry, and the state's edge
// list in orbits; measuring from the base vertices gives the whole
// graph's diameter and distance sum.
func TestSymmetricMoves(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ n, d, sym int }{{64, 4, 4}, {48, 3, 3}, {60, 6, 5}, {96, 5, 3}, {40, 4, 20}, {64, 8, 2}} {
		opt := Options{N: c.n, D: c.d, Symmetry: c.sym, Seed: 9}
		start, err := randomSymmetric(opt)
		if err != nil {
			t.Fatal(err)
		}
		st, err := newState(start)
		if err != nil {
			t.Fatal(err)
		}
		st.sym = c.sym
		rng := rand.New(rand.NewPCG(1, 2))
		base := make([]int, c.n/c.sym)
		for v := range base {
			base[v] = v
		}
		for step := range 400 {
			mv, ok := st.propose(rng)
			if !ok {
				t.Fatalf("%+v: no move", c)
			}
			st.apply(mv)
			if step%40 != 0 {
				continue
			}
			gg := &Graph{N: c.n, Edges: st.edges}
			if err := invariant(gg, c.sym); err != nil {
				t.Fatalf("%+v step %d: %v", c, step, err)
			}
			if _, err := orbitOrder(gg, c.sym); err != nil {
				t.Fatalf("%+v step %d: %v", c, step, err)
			}
			lib, err := gg.Graph()
			if err != nil {
				t.Fatalf("%+v step %d: %v", c, step, err)
			}
			for v := range c.n {
				if lib.Degree(v) != c.d {
					t.Fatalf("%+v step %d: vertex %d of degree %d", c, step, v, lib.Degree(v))
				}
			}
			got, err := measureFromBase(ctx, lib, base, c.sym, apsp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := apsp.ComputeStats(ctx, lib, apsp.Options{Algorithm: "fw"})
			if err != nil {
				t.Fatal(err)
			}
			want := measure{diameter: -1}
			if sum.Connected {
				want = measure{connected: true, diameter: int(sum.Diameter.Int()), sum: int64(float64(sum.ASPL)*float64(c.n)*float64(c.n-1)/2 + 0.5)}
			}
			if got.connected != want.connected || got.connected && (got.diameter != want.diameter || got.sum != want.sum) {
				t.Fatalf("%+v step %d: from the base %+v, whole %+v", c, step, got, want)
			}
		}
	}
}

// TestSymmetricSearch: a symmetric search returns a symmetric graph of
// the degree asked, no worse than its start, whose figures the final
// check (every source, a second engine) confirmed; the same seed gives
// the same graph; a symmetric start graph from a file is taken.
func TestSymmetricSearch(t *testing.T) {
	ctx := context.Background()
	for _, opt := range []Options{
		{N: 64, D: 4, Symmetry: 4, Evals: 2000, Seed: 3},
		{N: 54, D: 3, Symmetry: 3, Evals: 1500, Seed: 4, Batch: 4, Eval: apsp.Options{Threads: 2}},
		{N: 80, D: 6, Symmetry: 8, Evals: 1500, Seed: 5, Method: HillClimbing},
	} {
		res, err := Search(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := invariant(res.Graph, opt.Symmetry); err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		if res.Symmetry != opt.Symmetry || res.Report.Degree != opt.D || res.Report.MaxDegree != opt.D {
			t.Fatalf("%+v: symmetry %d, degrees %d..%d", opt, res.Symmetry, res.Report.Degree, res.Report.MaxDegree)
		}
		if better(measure{connected: true, diameter: res.Start.Diameter, aspl: res.Start.ASPL},
			measure{connected: true, diameter: res.Report.Diameter, aspl: res.Report.ASPL}) {
			t.Fatalf("%+v: best %+v worse than the start %+v", opt, res.Report, res.Start)
		}
		again, err := Search(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(again.Graph.Edges) != fmt.Sprint(res.Graph.Edges) {
			t.Fatalf("%+v: the same seed gave another graph", opt)
		}
		from := opt
		from.From, from.Evals = res.Graph, 200
		next, err := Search(ctx, from)
		if err != nil {
			t.Fatal(err)
		}
		if next.Start.ASPL != res.Report.ASPL {
			t.Fatalf("%+v: from the best (%v) the search started at %v", opt, res.Report.ASPL, next.Start.ASPL)
		}
	}
}

// TestSymmetricFromOddDegree: an invariant graph of odd degree under a
// rotation of even order (no edge mapped onto itself) is a valid start,
// though the random start could not make one.
func TestSymmetricFromOddDegree(t *testing.T) {
	g := &Graph{N: 8}
	for v := range int32(8) {
		g.Edges = append(g.Edges, [2]int32{v, (v + 1) % 8})
	}
	g.Edges = append(g.Edges, [2]int32{0, 5}, [2]int32{1, 4}, [2]int32{2, 7}, [2]int32{3, 6})
	res, err := Search(context.Background(), Options{From: g, Symmetry: 2, Evals: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := invariant(res.Graph, 2); err != nil {
		t.Fatal(err)
	}
}

// TestSymmetryRefused: what a symmetric search cannot do is refused.
func TestSymmetryRefused(t *testing.T) {
	asym, err := fromLibraryGen(12, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{
		{N: 50, D: 4, Symmetry: 3},
		{N: 48, D: 3, Symmetry: 2},
		{Grid: Grid{W: 4, H: 4, R: 2}, D: 3, Symmetry: 2},
		{N: 64, D: 4, Symmetry: 4, Eval: apsp.Options{Device: "gpu"}},
		{N: 12, D: 3, Symmetry: 3, From: asym},
		{N: 12, D: 3, Symmetry: -1},
		{N: 15, D: 3, Symmetry: 3},
	} {
		if _, err := Search(context.Background(), opt); !errors.Is(err, ErrParams) {
			t.Errorf("%+v: err = %v", opt, err)
		}
	}
}

// fromLibraryGen is a random d-regular graph of n vertices with no
// rotational symmetry to speak of.
func fromLibraryGen(n, d int) (*Graph, error) {
	g, err := randomGraph(Options{N: n, D: d, Seed: 1})
	if err != nil {
		return nil, err
	}
	if _, err := orbitOrder(g, 3); err == nil {
		return nil, fmt.Errorf("the random graph is symmetric")
	}
	return g, nil
}
