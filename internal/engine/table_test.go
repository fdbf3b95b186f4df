package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	gpubulk "github.com/apsp/apsp/internal/gpu/bulk"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// tablePlan is the lane plan of a case as the planner makes it, tightened
// so that the packed lanes take what a proven bound allows.
func tablePlan(t testing.TB, c *testgraphs.Case) lanes.Plan {
	t.Helper()
	lp, err := lanes.PlanFor(c.Graph)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return lp.Tighten(c.Graph)
}

// takes says whether an engine should take a case judging by the weights
// and negative arcs alone (the table has no wide plan): what Check must
// agree with for the CPU engines, whose lanes hold every case.
func takes(e Engine, c *testgraphs.Case, lp lanes.Plan) bool {
	caps := e.Caps()
	return caps.Weights&WeightsOf(c.Graph) != 0 && (!lp.Negative || caps.Negative)
}

// TestEnginesOnTable runs every engine of All() on every case of the
// table it takes (Check and Supports), in every lane kind it offers that
// the case's plan holds: the matrix with and without paths (the
// successors walked back to the distances), the rows, the Brief and the
// histogram where the engine gives them, against the table's known
// answers; a negative cycle must be refused naming a vertex on it. The
// CPU engines take every case but by the weights and negative arcs; each
// case runs on some engine. The GPU engines run where there is a GPU
// (APSP_REQUIRE_GPU=1 fails without one).
func TestEnginesOnTable(t *testing.T) {
	ctx := context.Background()
	_, gpuErr := Devices()
	ran := map[string]int{}
	for _, e := range All() {
		t.Run(e.Name(), func(t *testing.T) {
			caps := e.Caps()
			if caps.Device == GPU && gpuErr != nil {
				gputest.Skip(t, "no GPU: %v", gpuErr)
			}
			cases, total := 0, 0
			for i := range testgraphs.Cases {
				c := &testgraphs.Cases[i]
				lp := tablePlan(t, c)
				err := Check(e, c.Graph, lp)
				if caps.Device == CPU && (err == nil) != takes(e, c, lp) {
					t.Errorf("%s: Check = %v, but the engine's weights and negative arcs say %v", c.Name, err, takes(e, c, lp))
				}
				if err != nil {
					continue
				}
				runs := 0
				for _, k := range caps.Lanes {
					if lp.Holds(k) != nil {
						continue
					}
					tiles := []int{0}
					if _, ok := e.(blocked); ok {
						tiles = []int{0, 16, 32}
					}
					for _, tile := range tiles {
						for _, threads := range []int{1, 3} {
							p := &Problem{Graph: c.Graph, Plan: lp, Lanes: k, Threads: threads, Tile: tile}
							name := fmt.Sprintf("%s/%s/%s lanes/%d threads", e.Name(), c.Name, k, threads)
							if tile != 0 {
								name += fmt.Sprintf("/tile %d", tile)
							}
							if err := e.Supports(p); err != nil {
								// The one refusal allowed: lanes of the
								// other class than the graph's, which
								// the GPU Floyd–Warshall kernels take
								// from the graph (never a wrong number).
								if k.IsFloat() != (c.Graph.Kind() == graph.FloatWeights) && strings.HasSuffix(err.Error(), "not "+k.String()) {
									continue
								}
								t.Fatalf("%s: %v", name, err)
							}
							checkOnTable(t, ctx, name, e, p, c)
							runs++
						}
					}
				}
				if runs == 0 {
					t.Errorf("%s: Check takes it but no lane of %v holds its plan", c.Name, caps.Lanes)
				}
				ran[c.Name] += runs
				cases++
				total += runs
			}
			t.Logf("%d runs on %d of %d cases", total, cases, len(testgraphs.Cases))
		})
	}
	for i := range testgraphs.Cases {
		if c := &testgraphs.Cases[i]; ran[c.Name] == 0 {
			t.Errorf("%s: no engine ran it", c.Name)
		}
	}
}

// checkOnTable runs e on p (a case's graph) every way the engine offers
// and compares with the case's answers.
func checkOnTable(t *testing.T, ctx context.Context, name string, e Engine, p *Problem, c *testgraphs.Case) {
	t.Helper()
	for _, paths := range []bool{false, true} {
		q := *p
		q.Paths = paths
		r, err := e.Run(ctx, &q)
		if c.NegativeCycle != nil {
			checkNegativeCycle(t, name+"/Run", err, c)
			continue
		}
		if err != nil {
			t.Fatalf("%s: Run: %v", name, err)
		}
		if r.Matrix.Kind() != p.Lanes {
			t.Errorf("%s: Run computed in %s lanes", name, r.Matrix.Kind())
		}
		if err := matrixIs(r.Matrix, c); err != nil {
			t.Fatalf("%s: Run: %v", name, err)
		}
		if paths {
			if err := successorsWalk(r.Next, r.NextStride, c); err != nil {
				t.Fatalf("%s: Run with paths: %v", name, err)
			}
		}
	}
	checkSourcesOnTable(t, ctx, name, e, p, c)
	exact := !p.Lanes.IsFloat()
	if rr, ok := e.(RowReducer); ok {
		rows, dev, err := rr.Rows(ctx, p)
		if c.NegativeCycle != nil {
			checkNegativeCycle(t, name+"/Rows", err, c)
		} else if err != nil {
			t.Fatalf("%s: Rows: %v", name, err)
		} else {
			if dev == "" {
				t.Errorf("%s: Rows names no device", name)
			}
			if err := rowsAre(rows, c, exact); err != nil {
				t.Fatalf("%s: Rows: %v", name, err)
			}
			if e.Caps().Harmonic {
				if err := harmAre(rows, c, exact); err != nil {
					t.Fatalf("%s: Rows: %v", name, err)
				}
			}
		}
	}
	if br, ok := e.(BriefReducer); ok && c.NegativeCycle == nil {
		b, _, err := br.Brief(ctx, p)
		if err != nil {
			t.Fatalf("%s: Brief: %v", name, err)
		}
		if err := briefIs(b, c); err != nil {
			t.Fatalf("%s: Brief: %v", name, err)
		}
	}
	if h, ok := e.(Histogrammer); ok && c.NegativeCycle == nil {
		got, err := h.Hist(ctx, p)
		if err != nil {
			t.Fatalf("%s: Hist: %v", name, err)
		}
		if want := c.Hist(); !slices.Equal(trimZeros(got), trimZeros(want)) {
			t.Fatalf("%s: Hist = %v, want %v", name, got, want)
		}
	}
}

// tableSources are the source lists an engine with Caps.Sources is run
// from on a case of n vertices: one, the last and the first, every vertex
// backwards, repeats unsorted, and 65 drawn with repeats (one more than a
// word of the batched search).
func tableSources(n int) [][]int32 {
	if n == 0 {
		return [][]int32{{}}
	}
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(n - 1 - i)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 28))
	var drawn []int32
	for range 65 {
		drawn = append(drawn, int32(rng.IntN(n)))
	}
	return [][]int32{{}, {int32(n / 2)}, {int32(n - 1), 0}, all, {int32(n / 3), 0, int32(n / 3), int32(n - 1), 0}, drawn}
}

// checkSourcesOnTable runs an engine with Caps.Sources from every list
// of tableSources: its rows (with Σ 1/d) and its distances must be the
// case's rows and distances of those sources, in their order.
func checkSourcesOnTable(t *testing.T, ctx context.Context, name string, e Engine, p *Problem, c *testgraphs.Case) {
	t.Helper()
	ss, ok := e.(SourceSearcher)
	if !e.Caps().Sources || c.NegativeCycle != nil {
		return
	}
	if !ok {
		t.Fatalf("%s: Caps.Sources without RowsFrom", name)
	}
	exact := !p.Lanes.IsFloat()
	all := c.Rows(exact)
	const unreachable = -7
	for _, sources := range tableSources(c.N) {
		name := fmt.Sprintf("%s/from %v", name, sources)
		rows, err := ss.RowsFrom(ctx, p, sources)
		if err != nil {
			t.Fatalf("%s: RowsFrom: %v", name, err)
		}
		want := make([]reduce.Row, len(sources))
		for i, s := range sources {
			want[i] = all[s]
		}
		if err := rowsMatch(rows, want, exact); err != nil {
			t.Fatalf("%s: RowsFrom: %v", name, err)
		}
		if err := harmMatch(rows, want, exact); err != nil {
			t.Fatalf("%s: RowsFrom: %v", name, err)
		}
		ints, floats, err := ss.DistancesFrom(ctx, p, sources, unreachable)
		if err != nil {
			t.Fatalf("%s: DistancesFrom: %v", name, err)
		}
		for i, s := range sources {
			for v, d := range c.Dist[s] {
				var got float64
				switch {
				case ints != nil && ints[i*c.N+v] == unreachable:
					got = math.Inf(1)
				case ints != nil:
					got = float64(ints[i*c.N+v])
				default:
					got = floats[i*c.N+v]
				}
				if got != d {
					t.Fatalf("%s: DistancesFrom: d(%d, %d) = %v, want %v", name, s, v, got, d)
				}
			}
		}
	}
}

func trimZeros(h []int64) []int64 {
	for len(h) > 0 && h[len(h)-1] == 0 {
		h = h[:len(h)-1]
	}
	return h
}

// checkNegativeCycle: err must be a negative cycle through a vertex on
// the case's.
func checkNegativeCycle(t *testing.T, name string, err error, c *testgraphs.Case) {
	t.Helper()
	var nc *cpu.NegativeCycleError
	if !errors.As(err, &nc) {
		t.Fatalf("%s: err = %v, want a negative cycle through one of %v", name, err, c.NegativeCycle)
	}
	if !c.OnNegativeCycle(nc.Vertex) {
		t.Fatalf("%s: %v, but the cycle is %v", name, err, c.NegativeCycle)
	}
}

// matrixIs compares a matrix with the case's distances, exactly: the
// table's float lengths are binary fractions whose sums float32 holds too.
func matrixIs(m lanes.Any, c *testgraphs.Case) error {
	if m.Vertices() != c.N {
		return fmt.Errorf("%d vertices, want %d", m.Vertices(), c.N)
	}
	for u := range c.N {
		for v := range c.N {
			want := c.Dist[u][v]
			if math.IsInf(want, 1) != m.IsInf(u, v) {
				return fmt.Errorf("d(%d,%d) = %v, want %v", u, v, m.Float(u, v), want)
			}
			if math.IsInf(want, 1) {
				continue
			}
			if !m.Kind().IsFloat() {
				if d, _ := m.Int(u, v); d != int64(want) {
					return fmt.Errorf("d(%d,%d) = %d, want %v", u, v, d, want)
				}
			} else if d := m.Float(u, v); d != want {
				return fmt.Errorf("d(%d,%d) = %v, want %v", u, v, d, want)
			}
		}
	}
	return nil
}

// successorsWalk follows the successors from every vertex to every other
// along the graph's arcs: the lengths add up to the distance, and pairs
// without a path have no successor.
func successorsWalk(next []int32, stride int, c *testgraphs.Case) error {
	g := c.Graph
	if next == nil {
		return errors.New("no successor matrix")
	}
	for u := range c.N {
		for v := range c.N {
			s := next[u*stride+v]
			want := c.Dist[u][v]
			switch {
			case u == v:
				if s != int32(u) {
					return fmt.Errorf("next(%d,%d) = %d", u, v, s)
				}
				continue
			case math.IsInf(want, 1):
				if s != -1 {
					return fmt.Errorf("next(%d,%d) = %d without a path", u, v, s)
				}
				continue
			}
			var sum float64
			x := u
			for steps := 0; x != v; steps++ {
				y := int(next[x*stride+v])
				i := -1
				if y >= 0 {
					i = g.ArcIndex(x, y)
				}
				if i < 0 || steps >= c.N {
					return fmt.Errorf("the path %d→%d breaks at %d (next %d)", u, v, x, y)
				}
				sum += g.ArcFloat(x, i)
				x = y
			}
			if sum != want {
				return fmt.Errorf("the path %d→%d has length %v, want %v", u, v, sum, want)
			}
		}
	}
	return nil
}

// rowsAre compares summaries with the case's: reach and unreachability,
// and the exact or float fields as the lanes are.
func rowsAre(got []reduce.Row, c *testgraphs.Case, exact bool) error {
	return rowsMatch(got, c.Rows(exact), exact)
}

// rowsMatch compares rows with want's, in the fields exact (or not)
// distances fill.
func rowsMatch(got, want []reduce.Row, exact bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	for u := range want {
		g, w := got[u], want[u]
		ok := g.Reach == w.Reach && g.Unreach == w.Unreach
		if exact {
			ok = ok && g.Sum == w.Sum && (w.Reach == 0 || g.MaxI == w.MaxI)
		} else {
			ok = ok && g.SumF == w.SumF && (w.Reach == 0 || g.MaxF == w.MaxF)
		}
		if !ok {
			return fmt.Errorf("row %d = %+v, want %+v", u, g, w)
		}
	}
	return nil
}

// harmAre compares the rows' Σ 1/d with the case's, for an engine with
// Caps.Harmonic (negative lengths aside: 1/d of a negative d is added by
// no measure, which refuses those graphs).
func harmAre(got []reduce.Row, c *testgraphs.Case, exact bool) error {
	return harmMatch(got, c.Rows(exact), exact)
}

// harmMatch is harmAre against want's rows.
func harmMatch(got, want []reduce.Row, exact bool) error {
	for u := range want {
		g, w := got[u], want[u]
		if g.Harm < 0 || w.Harm < 0 {
			continue
		}
		if math.Abs(g.Harm-w.Harm) > 1e-9*math.Max(1, w.Harm) && (exact || math.Abs(g.Harm-w.Harm) > 1e-5*math.Max(1, w.Harm)) {
			return fmt.Errorf("row %d: Harm = %v, want %v", u, g.Harm, w.Harm)
		}
	}
	return nil
}

// briefIs compares a Brief with the case's exact rows.
func briefIs(b *reduce.Brief, c *testgraphs.Case) error {
	want := reduce.BriefOf(c.Rows(true))
	if !slices.Equal(b.Ecc, want.Ecc) || !slices.Equal(b.Reach, want.Reach) || b.Sum != want.Sum || b.Pairs != want.Pairs {
		return fmt.Errorf("ecc %v, reach %v, %d pairs; want %v, %v, %d", b.Ecc, b.Reach, b.Pairs, want.Ecc, want.Reach, want.Pairs)
	}
	if h := c.Hist(); b.Hist != nil && h != nil && !slices.Equal(b.Hist, h) {
		return fmt.Errorf("hist %v, want %v", b.Hist, h)
	}
	return nil
}

// TestPathFromOnTable answers every pair of every case by PathFrom: the
// path's arcs add up to the distance it reports, which is the case's; no
// path where there is none; the negative cycles refused.
func TestPathFromOnTable(t *testing.T) {
	ctx := context.Background()
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		g := c.Graph
		for u := range c.N {
			for v := range c.N {
				name := fmt.Sprintf("%s: PathFrom(%d, %d)", c.Name, u, v)
				p, err := PathFrom(ctx, g, u, v)
				if c.NegativeCycle != nil {
					checkNegativeCycle(t, name, err, c)
					continue
				}
				want := c.Dist[u][v]
				if math.IsInf(want, 1) {
					if !errors.Is(err, ErrNoPath) {
						t.Fatalf("%s: %v, want ErrNoPath", name, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := float64(p.Int)
				if p.IsFloat {
					got = p.Float
				}
				if p.IsFloat != (g.Kind() == graph.FloatWeights) || got != want {
					t.Fatalf("%s: length %v (float %v), want %v", name, got, p.IsFloat, want)
				}
				vs := p.Vertices
				if len(vs) == 0 || vs[0] != u || vs[len(vs)-1] != v {
					t.Fatalf("%s: path %v", name, vs)
				}
				var sum float64
				for k := 0; k+1 < len(vs); k++ {
					a := g.ArcIndex(vs[k], vs[k+1])
					if a < 0 {
						t.Fatalf("%s: path %v has no arc %d→%d", name, vs, vs[k], vs[k+1])
					}
					sum += g.ArcFloat(vs[k], a)
				}
				if sum != want {
					t.Fatalf("%s: path %v of length %v, want %v", name, vs, sum, want)
				}
			}
		}
	}
}

// TestBulkPathsOnTable runs the batch paths on the table, every case a
// path takes in one batch: the bulk search (bulkRows, bulkSummaries and
// bulkStream in groups of two) on the unweighted cases, the bulk
// Floyd–Warshall (bulkFWRows, and gpubulk.FWMatrices) on the integer and
// unweighted ones, which refuses only what int32 lanes cannot hold and
// names a vertex on each negative cycle. It needs a GPU
// (APSP_REQUIRE_GPU=1 fails without one).
func TestBulkPathsOnTable(t *testing.T) {
	if _, err := Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
	ctx := context.Background()
	var bulk, fw []*testgraphs.Case
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		if BulkFits(c.Graph) {
			bulk = append(bulk, c)
		}
		if c.Kind != graph.FloatWeights && c.N <= BulkFWMaxN {
			fw = append(fw, c)
		}
	}
	graphs := func(cs []*testgraphs.Case) []*graph.Graph {
		gs := make([]*graph.Graph, len(cs))
		for i, c := range cs {
			gs[i] = c.Graph
		}
		return gs
	}
	gs := graphs(bulk)
	rows, dev, err := bulkRows(ctx, 0, gs)
	if err != nil {
		t.Fatal(err)
	}
	if dev == "" {
		t.Error("bulkRows names no device")
	}
	for i, c := range bulk {
		if err := rowsAre(rows[i], c, true); err != nil {
			t.Errorf("bulkRows, %s: %v", c.Name, err)
		}
	}
	sums, _, err := bulkSummaries(ctx, 0, gs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range bulk {
		want := gpubulk.Summary{Vertices: c.N, Pairs: c.Pairs, Sum: int64(c.Total), Diameter: int64(c.Reachable.Diameter), Connected: c.Connected}
		if sums[i] != want {
			t.Errorf("bulkSummaries, %s: %+v, want %+v", c.Name, sums[i], want)
		}
	}
	next := 0
	err = bulkStream(ctx, 0, gs, 2, func(lo, hi int, rows [][]reduce.Row, device string) error {
		if lo != next || hi <= lo || hi-lo > 2 || len(rows) != hi-lo {
			return fmt.Errorf("group [%d, %d) of %d rows after %d", lo, hi, len(rows), next)
		}
		for i, c := range bulk[lo:hi] {
			if err := rowsAre(rows[i], c, true); err != nil {
				return fmt.Errorf("%s: %v", c.Name, err)
			}
		}
		next = hi
		return nil
	})
	if err != nil || next != len(gs) {
		t.Errorf("bulkStream: %v (%d of %d graphs)", err, next, len(gs))
	}

	gs = graphs(fw)
	rows, kinds, errs, _, err := bulkFWRows(ctx, 0, gs)
	if err != nil {
		t.Fatal(err)
	}
	ms, merrs, err := gpubulk.FWMatrices(ctx, gpu.OnGPU(0), gs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range fw {
		name := "bulkFWRows, " + c.Name
		lp := tablePlan(t, c)
		for _, e := range []error{errs[i], merrs[i]} {
			switch {
			case c.NegativeCycle != nil:
				var nc *gpubulk.NegativeCycleError
				if !errors.As(e, &nc) || !c.OnNegativeCycle(nc.Vertex) {
					t.Errorf("%s: %v, want a negative cycle through one of %v", name, e, c.NegativeCycle)
				}
			case lp.Holds(lanes.Int32) != nil:
				if !errors.Is(e, gpubulk.ErrFWGraph) {
					t.Errorf("%s: %v, want ErrBulkFWGraph (int32 lanes do not hold it)", name, e)
				}
			case e != nil:
				t.Errorf("%s: %v", name, e)
			}
		}
		if errs[i] != nil {
			continue
		}
		if kinds[i] != lanes.Int16 && kinds[i] != lanes.Int32 {
			t.Errorf("%s: in %v lanes", name, kinds[i])
		}
		if err := rowsAre(rows[i], c, true); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if merrs[i] == nil {
			if err := matrixIs(ms[i], c); err != nil {
				t.Errorf("BulkFWMatrices, %s: %v", c.Name, err)
			}
		}
	}
}
