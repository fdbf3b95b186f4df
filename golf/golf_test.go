package golf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apsp/apsp"
)

// ODP's ODP_Set_lbounds_general and ODP_Set_lbounds_grid (libodp.a of
// github.com/mnakao/ODP at e5d982c, printed with %.17g).
func TestGeneralBound(t *testing.T) {
	cases := []struct {
		n, d, diam int
		aspl       float64
	}{
		{16, 4, 2, 1.7333333333333334},
		{256, 8, 3, 2.7176470588235295},
		{1024, 8, 4, 3.4838709677419355},
		{256, 16, 2, 1.9372549019607843},
		{1024, 16, 3, 2.7341153470185726},
		{4096, 8, 5, 4.0896214896214893},
		{10, 3, 2, 1.6666666666666667},
		{32, 5, 3, 2.032258064516129},
		{100, 10, 2, 1.898989898989899},
		{100000, 32, 4, 3.6716767167671676},
		{1000, 2, 500, 250.25025025025025},
		// ODP answers 0 and 0 when one hop reaches every vertex (its
		// diameter starts at -1); a complete graph has diameter 1.
		{5, 4, 1, 1},
		{2, 1, 1, 1},
	}
	for _, c := range cases {
		b, err := GeneralBound(c.n, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if b.Diameter != c.diam || math.Abs(b.ASPL-c.aspl) > 1e-12 {
			t.Errorf("GeneralBound(%d, %d) = %+v, want %d %v", c.n, c.d, b, c.diam, c.aspl)
		}
	}
	for _, bad := range [][2]int{{1, 3}, {10, 0}, {10, 1}} {
		if _, err := GeneralBound(bad[0], bad[1]); !errors.Is(err, ErrParams) {
			t.Errorf("GeneralBound%v: err = %v", bad, err)
		}
	}
}

func TestGridBound(t *testing.T) {
	cases := []struct {
		w, h, d, r, diam int
		aspl             float64
	}{
		{4, 4, 3, 2, 3, 2.2000000000000002},
		{10, 10, 4, 4, 5, 3.2747474747474747},
		{10, 10, 6, 3, 6, 2.8387878787878789},
		{10, 10, 8, 4, 5, 2.3511111111111109},
		{5, 5, 4, 2, 4, 2.2133333333333334},
		{6, 6, 3, 2, 5, 3.0730158730158732},
		{4, 6, 3, 2, 4, 2.5724637681159419},
		{30, 30, 6, 3, 20, 7.0587813620071689},
		{2, 2, 3, 1, 2, 1.3333333333333333},
		{7, 3, 4, 2, 4, 2.138095238095238},
	}
	for _, c := range cases {
		b, err := GridBound(c.w, c.h, c.d, c.r)
		if err != nil {
			t.Fatal(err)
		}
		if b.Diameter != c.diam || math.Abs(b.ASPL-c.aspl) > 1e-12 {
			t.Errorf("GridBound(%d, %d, %d, %d) = %+v, want %d %v", c.w, c.h, c.d, c.r, b, c.diam, c.aspl)
		}
	}
}

func TestReadEdges(t *testing.T) {
	cases := []struct {
		name, text string
		opt        ReadOptions
		wantN      int
		wantGrid   Grid
		wantEdges  [][2]int32
		wantErr    string
	}{
		{"general", "0 1\n1 2 {}\n# comment\n\n2 0\n", ReadOptions{}, 3, Grid{}, [][2]int32{{0, 1}, {1, 2}, {0, 2}}, ""},
		{"grid", "0,0 1,2\n1,2 2,1\n", ReadOptions{R: 3}, 9, Grid{W: 3, H: 3, R: 3}, [][2]int32{{0, 5}, {5, 7}}, ""},
		{"grid sized", "0,0 0,1\n", ReadOptions{W: 4, H: 5}, 20, Grid{W: 4, H: 5}, [][2]int32{{0, 1}}, ""},
		{"too long", "0,0 0,1\n0,0 2,1\n", ReadOptions{R: 2}, 0, Grid{}, nil, "g.edges:2: edge 0,0 2,1 has length 3 > r=2"},
		{"self-loop", "0 1\n1 1\n", ReadOptions{}, 0, Grid{}, nil, "g.edges:2: self-loop"},
		{"twice", "0 1\n1 0\n", ReadOptions{}, 0, Grid{}, nil, "g.edges:2: edge 1 0 listed again (first at line 1)"},
		{"mixed", "0 1\n0,1 1,1\n", ReadOptions{}, 0, Grid{}, nil, "g.edges:2:"},
		{"outside", "0,0 3,0\n", ReadOptions{W: 3, H: 3}, 0, Grid{}, nil, "g.edges:1: vertex 3,0 outside"},
		{"fields", "0 1 2\n", ReadOptions{}, 0, Grid{}, nil, "g.edges:1: want two"},
		{"empty", "# nothing\n", ReadOptions{}, 0, Grid{}, nil, "no edges"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := ReadEdges(strings.NewReader(c.text), "g.edges", c.opt)
			if c.wantErr != "" {
				if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.N != c.wantN || g.Grid != c.wantGrid || !slices.Equal(g.Edges, c.wantEdges) {
				t.Fatalf("got %+v", g)
			}
		})
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	for _, grid := range []Grid{{}, {W: 6, H: 5, R: 3}} {
		opt := Options{N: 30, D: 4, Grid: grid, Seed: 3}
		var g *Graph
		var err error
		if grid.IsGrid() {
			g, err = randomGrid(grid, 4, 3)
		} else {
			g, err = randomGraph(opt)
		}
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteEdges(&buf, g); err != nil {
			t.Fatal(err)
		}
		if grid.IsGrid() && !strings.Contains(buf.String(), ",") {
			t.Fatalf("grid file without x,y names:\n%s", buf.String())
		}
		back, err := ReadEdges(&buf, "rt", ReadOptions{W: grid.W, H: grid.H, R: grid.R})
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(g.Edges)
		slices.SortFunc(want, func(a, b [2]int32) int { return int(a[0]-b[0])*1000 + int(a[1]-b[1]) })
		if back.N != g.N || back.Grid != g.Grid || !slices.Equal(back.Edges, want) {
			t.Fatalf("round trip: %+v, want %+v", back, g)
		}
	}
}

// TestSwapsKeepInvariants applies many random moves and checks degrees,
// simplicity, sorted rows, the edge list and the grid's limit after each.
func TestSwapsKeepInvariants(t *testing.T) {
	for _, grid := range []Grid{{}, {W: 8, H: 8, R: 2}} {
		var g *Graph
		var err error
		if grid.IsGrid() {
			g, err = randomGrid(grid, 5, 1)
		} else {
			g, err = randomGraph(Options{N: 64, D: 5})
		}
		if err != nil {
			t.Fatal(err)
		}
		st, err := newState(g)
		if err != nil {
			t.Fatal(err)
		}
		deg := g.Degrees()
		rng := rand.New(rand.NewPCG(1, 2))
		for step := range 3000 {
			mv, ok := st.propose(rng)
			if !ok {
				t.Fatal("no move")
			}
			st.apply(mv)
			if step%50 != 0 {
				continue
			}
			if _, err := st.graphOf(slices.Clone(st.heads)); err != nil { // sorted, simple, symmetric
				t.Fatalf("step %d: %v", step, err)
			}
			cur := st.golfGraph(st.heads)
			if !slices.Equal(cur.Degrees(), deg) {
				t.Fatalf("step %d: degrees changed", step)
			}
			es := slices.Clone(st.edges)
			slices.SortFunc(es, func(a, b [2]int32) int { return int(a[0]-b[0])*1000 + int(a[1]-b[1]) })
			if !slices.Equal(es, cur.Edges) {
				t.Fatalf("step %d: edge list and rows differ", step)
			}
			for _, e := range es {
				if e[0] == e[1] || grid.R > 0 && grid.Length(int(e[0]), int(e[1])) > grid.R {
					t.Fatalf("step %d: edge %v", step, e)
				}
			}
		}
	}
}

func TestSearch(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		opt  Options
	}{
		{"sa", Options{N: 64, D: 4, Evals: 400, Seed: 5}},
		{"hc batch", Options{N: 64, D: 4, Evals: 400, Seed: 5, Method: HillClimbing, Batch: 4}},
		{"sa pick best", Options{N: 64, D: 4, Evals: 400, Seed: 6, Batch: 8, Pick: PickBest}},
		{"sa steps sized", Options{N: 64, D: 4, Evals: 3000, Seed: 8, Batch: 512, Eval: apsp.Options{Threads: 1}}},
		{"sa steps fixed", Options{N: 64, D: 4, Evals: 3000, Seed: 8, Batch: 512, FixedBatch: true, Eval: apsp.Options{Threads: 1}}},
		{"hc pick best", Options{N: 48, D: 3, Evals: 300, Seed: 7, Method: HillClimbing, Batch: 5, Pick: PickBest}},
		{"grid", Options{Grid: Grid{W: 6, H: 6, R: 2}, D: 4, Evals: 300, Seed: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Search(ctx, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			gg, err := res.Graph.Graph()
			if err != nil {
				t.Fatal(err)
			}
			s, err := apsp.ComputeStats(ctx, gg, apsp.Options{Algorithm: "fw"})
			if err != nil {
				t.Fatal(err)
			}
			if int(s.Diameter.Int()) != res.Report.Diameter || math.Abs(float64(s.ASPL)-res.Report.ASPL) > 1e-12 {
				t.Fatalf("report %d %v, ComputeStats %v %v", res.Report.Diameter, res.Report.ASPL, s.Diameter, s.ASPL)
			}
			if better(measure{connected: true, diameter: res.Start.Diameter, aspl: res.Start.ASPL},
				measure{connected: true, diameter: res.Report.Diameter, aspl: res.Report.ASPL}) {
				t.Fatalf("best %+v worse than the start %+v", res.Report, res.Start)
			}
			if res.Evals < c.opt.Evals {
				t.Fatalf("%d evaluations, want %d", res.Evals, c.opt.Evals)
			}
			again, err := Search(ctx, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again.Graph.Edges, res.Graph.Edges) || again.Evals != res.Evals {
				t.Fatal("the same seed gave another graph")
			}
			if c.opt.Grid.R > 0 {
				for _, e := range res.Graph.Edges {
					if l := c.opt.Grid.Length(int(e[0]), int(e[1])); l > c.opt.Grid.R {
						t.Fatalf("edge %v of length %d", e, l)
					}
				}
			}
		})
	}
}

// TestStepSize: a first-accepted step's size follows the acceptance
// rate, from a few candidates while most are accepted up to Batch when
// none is; a fixed batch, picking the best and a batch of 2 keep Batch.
func TestStepSize(t *testing.T) {
	cases := []struct {
		name     string
		opt      Options
		tried    int
		accepted bool
		lo, hi   int
	}{
		{"every first accepted", Options{Batch: 4096, Pick: PickFirst}, 1, true, 16, 32},
		{"one in a thousand", Options{Batch: 4096, Pick: PickFirst}, 1000, true, 600, 660},
		{"none accepted", Options{Batch: 4096, Pick: PickFirst}, 4096, false, 4096, 4096},
		{"small batch", Options{Batch: 100, Pick: PickFirst}, 1000, true, 100, 100},
		{"fixed", Options{Batch: 4096, Pick: PickFirst, FixedBatch: true}, 1, true, 4096, 4096},
		{"pick best", Options{Batch: 4096, Pick: PickBest}, 1, true, 4096, 4096},
		{"batch of two", Options{Batch: 2, Pick: PickFirst}, 1, true, 2, 2},
	}
	for _, c := range cases {
		s := &search{opt: c.opt}
		for range 400 {
			s.stepped(c.tried, c.accepted)
		}
		if k := s.stepSize(); k < c.lo || k > c.hi {
			t.Errorf("%s: step of %d, want %d..%d", c.name, k, c.lo, c.hi)
		}
	}
}

// TestMaxTempBatch: the starting temperature comes from about 100
// probes whatever the batch; a step of 100 candidates that takes its
// first must not end the probing (it once made a GPU's search start at
// temperature 1, that is, climb hills).
func TestMaxTempBatch(t *testing.T) {
	temps := map[int]float64{}
	for _, batch := range []int{1, 3, 100, 4096} {
		res, err := Search(context.Background(), Options{N: 256, D: 8, Evals: 1, Seed: 1, Batch: batch, Eval: apsp.Options{Threads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		temps[batch] = res.MaxTemp
	}
	for batch, temp := range temps {
		if r := temp / temps[1]; r < 0.5 || r > 2 {
			t.Errorf("batch %d: starting temperature %.4g, batch 1 %.4g", batch, temp, temps[1])
		}
	}
}

// TestSizedStepsTakeMore: steps sized by the acceptance rate waste
// fewer candidates after the one taken, so in the same evaluations the
// search takes more moves than with every step at Batch.
func TestSizedStepsTakeMore(t *testing.T) {
	var taken [2]int64
	for i, fixed := range []bool{false, true} {
		res, err := Search(context.Background(), Options{N: 64, D: 4, Evals: 3000, Seed: 8, Batch: 512, FixedBatch: fixed, Eval: apsp.Options{Threads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		taken[i] = res.Accepted
	}
	if taken[0] <= 2*taken[1] {
		t.Fatalf("sized steps took %d moves, fixed %d", taken[0], taken[1])
	}
}

func TestSearchCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	res, err := Search(ctx, Options{N: 128, D: 4, Time: time.Minute, Seed: 1})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if res == nil || res.Report == nil || res.Report.Diameter <= 0 {
		t.Fatalf("no best graph with the error: %+v", res)
	}
	if el := time.Since(begin); el > 5*time.Second {
		t.Fatalf("stopped after %v", el)
	}
}

func TestSearchErrors(t *testing.T) {
	for _, opt := range []Options{
		{N: 10, D: 0},
		{N: 9, D: 3},
		{N: 10, D: 3, Method: "tabu"},
		{N: 10, D: 3, Pick: "worst"},
		{Grid: Grid{W: 3, H: 3, R: 0}, D: 3},
	} {
		if _, err := Search(context.Background(), opt); !errors.Is(err, ErrParams) {
			t.Errorf("%+v: err = %v", opt, err)
		}
	}
}

// TestSearchTeam: a step of several candidates measured by the search's
// helpers (Eval.Threads 0) runs the same search as through SummaryBatch
// (Eval.Threads set): the same moves, acceptances and best graph.
func TestSearchTeam(t *testing.T) {
	for _, c := range []struct{ n, d, batch int }{{64, 4, 2}, {100, 3, 3}, {300, 6, 5}} {
		opt := Options{N: c.n, D: c.d, Evals: 3000, Seed: 5, Batch: c.batch}
		a, err := Search(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		// The SummaryBatch path, its candidates built on one thread and
		// on several (eachOn), and the GPU's path, the candidates sent
		// as changes of the current graph (SummaryChanges) and built
		// only when kept.
		for _, threads := range []int{1, 3} {
			for _, changes := range []bool{false, true} {
				opt.Eval.Threads, opt.asChanges = threads, changes
				b, err := Search(context.Background(), opt)
				if err != nil {
					t.Fatal(err)
				}
				if a.Evals != b.Evals || a.Accepted != b.Accepted || a.Report.Sum != b.Report.Sum || a.Report.Diameter != b.Report.Diameter {
					t.Fatalf("(%d, %d) batch %d: helpers %d evals, %d accepted, (%d, %d); on %d threads, as changes %v: %d, %d, (%d, %d)", c.n, c.d, c.batch,
						a.Evals, a.Accepted, a.Report.Diameter, a.Report.Sum, threads, changes, b.Evals, b.Accepted, b.Report.Diameter, b.Report.Sum)
				}
			}
		}
		// Picking the best of a step, built and as changes.
		opt.Pick, opt.Eval.Threads = PickBest, 2
		var got [2]*Result
		for k, changes := range []bool{false, true} {
			opt.asChanges = changes
			if got[k], err = Search(context.Background(), opt); err != nil {
				t.Fatal(err)
			}
		}
		if got[0].Accepted != got[1].Accepted || got[0].Report.Sum != got[1].Report.Sum {
			t.Fatalf("(%d, %d) best of %d: built %d accepted, sum %d; as changes %d, %d", c.n, c.d, c.batch,
				got[0].Accepted, got[0].Report.Sum, got[1].Accepted, got[1].Report.Sum)
		}
	}
}

// TestTeamSteps: every item of every step is run once and its error
// kept, for steps of 1 to 7 items.
func TestTeamSteps(t *testing.T) {
	runs := make([]atomic.Int64, 7)
	var step atomic.Int64
	tm := newTeam(func(i int) error {
		runs[i].Add(1)
		if i == 3 {
			return fmt.Errorf("step %d item 3", step.Load())
		}
		return nil
	}, 2)
	defer tm.close()
	errs := make([]error, 7)
	for s := range 500 {
		step.Store(int64(s))
		n := 1 + s%7
		tm.measure(n, errs)
		for i := range 7 {
			want := int64(0)
			if i < n {
				want = 1
			}
			if got := runs[i].Swap(0); got != want {
				t.Fatalf("step %d: item %d ran %d times, want %d", s, i, got, want)
			}
		}
		if n > 3 && (errs[3] == nil || errs[3].Error() != fmt.Sprintf("step %d item 3", s)) {
			t.Fatalf("step %d: error %v", s, errs[3])
		}
	}
}

// TestEachOn: every index once, on any number of threads.
func TestEachOn(t *testing.T) {
	for _, threads := range []int{1, 2, 8} {
		for _, n := range []int{0, 1, 5, 1000} {
			seen := make([]atomic.Int32, n)
			eachOn(threads, n, func(i int) { seen[i].Add(1) })
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("threads %d, n %d: index %d taken %d times", threads, n, i, c)
				}
			}
		}
	}
}
