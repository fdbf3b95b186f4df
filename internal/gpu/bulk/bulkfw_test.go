package bulk

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// fwGraph is a random graph of n vertices with about deg arcs a vertex
// (testgraphs' M model, n·deg/2 draws, no self-loop), weights 1..100 (or,
// with negative, shifted by potentials of up to 39: negative arcs but no
// negative cycle; directed only, an undirected negative edge being a
// cycle), directed or not.
func fwGraph(rng *rand.Rand, n, deg int, directed, negative bool) *graph.Graph {
	s := testgraphs.Spec{N: n, M: n * deg / 2, Directed: directed, Kind: graph.IntWeights, Lo: 1, Hi: 100}
	if negative {
		s.Potential = 39
	}
	return testgraphs.Random(rng, s)
}

// fwCase is a mixed batch: sizes 0..1100 (tile and warp multiples and
// the sizes either side), directed and undirected, dense and disconnected,
// unweighted, negative arcs without cycles.
func fwCases(rng *rand.Rand, count int, most int) []*graph.Graph {
	sizes := []int{0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 191, 192, 255, 256, 257, 300, 511, 513, 700, 1024, 1100}
	var gs []*graph.Graph
	for i := 0; i < count; i++ {
		n := sizes[i%len(sizes)]
		if i >= len(sizes) {
			n = rng.IntN(most + 1)
			if i%3 != 0 {
				n = rng.IntN(min(most, 140) + 1) // mostly small: the tiny and register groups
			}
		}
		n = min(n, most)
		deg := []int{1, 3, 8, 30}[i%4]
		directed := i%2 == 0
		negative := directed && i%5 == 1
		g := fwGraph(rng, n, deg, directed, negative)
		if i%7 == 3 {
			g = g.Unweighted()
		}
		gs = append(gs, g)
	}
	return gs
}

// fwWant is the CPU reference: the float64 matrix of blocked FW.
func fwWant(t testing.TB, g *graph.Graph) *lanes.Matrix[float64] {
	t.Helper()
	ref, err := lanes.NewMatrix[float64](g, cpu.TileSize(g.N(), 0))
	if err != nil {
		t.Fatal(err)
	}
	if g.N() == 0 {
		return ref // nothing to compute (and cpu.Blocked panics on N = 0 since 298acf0)
	}
	if err := cpu.Blocked(context.Background(), ref, cpu.BlockedOptions{}); err != nil {
		t.Fatal(err)
	}
	return ref
}

// rowsOf reduces a reference matrix as the device does.
func rowsOf(ref *lanes.Matrix[float64]) []reduce.Row {
	rows := make([]reduce.Row, ref.N)
	for u := range rows {
		for v := 0; v < ref.N; v++ {
			if d := ref.At(u, v); v != u && !math.IsInf(d, 1) {
				rows[u].AddInt(int64(d))
			}
		}
		rows[u].Unreach = rows[u].Reach < int64(ref.N-1)
	}
	return rows
}

// checkFWRows compares every graph's rows with want; graphs with want[i] ==
// nil are not compared.
func checkFWRows(t *testing.T, name string, gs []*graph.Graph, want, got [][]reduce.Row, errs []error) {
	t.Helper()
	if len(got) != len(gs) || len(errs) != len(gs) {
		t.Fatalf("%s: %d results, %d errors for %d graphs", name, len(got), len(errs), len(gs))
	}
	for i := range gs {
		if want[i] == nil {
			continue
		}
		if errs[i] != nil {
			t.Fatalf("%s: graph %d (n=%d): %v", name, i, gs[i].N(), errs[i])
		}
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: graph %d (n=%d): %d rows, want %d", name, i, gs[i].N(), len(got[i]), len(want[i]))
		}
		for u := range want[i] {
			if !gputest.SameRow(got[i][u], want[i][u]) {
				t.Fatalf("%s: graph %d (n=%d, directed=%v, arcs=%d) row %d: got %+v, want %+v",
					name, i, gs[i].N(), gs[i].Directed(), gs[i].Arcs(), u, got[i][u], want[i][u])
			}
		}
	}
}

// TestBulkFWMatchesCPU runs a few hundred graphs of mixed sizes through
// every form and shape (register tiles, both blocked tiles, the seeds' and
// the column-wise baselines, small chunks) and compares every row with the
// CPU's blocked FW, and the matrices of one form entry by entry; a nil
// graph, a float graph and a graph with a negative cycle get their own
// errors and leave the rest alone.
func TestBulkFWMatchesCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 42))
	gs := fwCases(rng, 300, 1100)
	refs := make([]*lanes.Matrix[float64], len(gs))
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		refs[i] = fwWant(t, g)
		want[i] = rowsOf(refs[i])
	}
	// The refused and the cyclic, among the others.
	fb := graph.NewBuilder(true)
	_ = fb.SetVertices(3)
	_ = fb.AddFloatEdge(0, 1, 1.5)
	cb := graph.NewBuilder(true)
	_ = cb.SetVertices(40)
	for v := 0; v < 39; v++ {
		_ = cb.AddIntEdge(v, v+1, 5)
	}
	_ = cb.AddIntEdge(39, 20, -200) // the cycle 20..39..20 weighs 19·5 − 200
	bad := map[int]*graph.Graph{5: nil, 50: fb.Build(), 120: cb.Build()}
	all := append([]*graph.Graph(nil), gs...)
	allWant := append([][]reduce.Row(nil), want...)
	for at, g := range bad {
		all = append(all[:at], append([]*graph.Graph{g}, all[at:]...)...)
		allWant = append(allWant[:at], append([][]reduce.Row{nil}, allWant[at:]...)...)
	}
	configs := []struct {
		name string
		cfg  bulkFWConfig
		most int // largest graph given to the form
	}{
		{"auto", bulkFWConfig{}, 1100},
		{"tile64", bulkFWConfig{LargeTile: 64}, 1100},
		{"tile128", bulkFWConfig{LargeTile: 128}, 1100},
		{"rc8", bulkFWConfig{RC16: 8, RC32: 8, ChunkBytes: 1 << 20}, 1100},
		{"unfused", bulkFWConfig{Unfused: true}, 1100},
		{"unfused-rc8", bulkFWConfig{Unfused: true, RC16: 8, RC32: 8}, 200},
		{"inplace", bulkFWConfig{Form: formInplace}, 1100},
		{"inplace128", bulkFWConfig{Form: formInplace, LargeTile: 128}, 1100},
		{"seeds", bulkFWConfig{Form: formSeeds}, 1100},
		{"single", bulkFWConfig{Form: formSingle}, 1100},
		{"single128", bulkFWConfig{Form: formSingle, LargeTile: 128, ChunkBytes: 64 << 20}, 1100},
		{"colwise", bulkFWConfig{Form: formColwise}, 70},
	}
	for _, c := range configs {
		var in []*graph.Graph
		var w [][]reduce.Row
		for i, g := range all {
			if g == nil || g.N() <= c.most {
				in, w = append(in, g), append(w, allWant[i])
			}
		}
		res, tm, err := bulkFW(ctx, 0, in, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkFWRows(t, c.name, in, w, res.rows, res.errs)
		var neg *NegativeCycleError
		for i, g := range in {
			switch {
			case g == nil || g.Kind() == graph.FloatWeights:
				if !errors.Is(res.errs[i], ErrFWGraph) || res.rows[i] != nil {
					t.Fatalf("%s: graph %d: error %v, rows %v; want ErrFWGraph", c.name, i, res.errs[i], res.rows[i] != nil)
				}
			case g.N() == 40 && g.HasNegativeWeights() && g.Arcs() == 40:
				if !errors.As(res.errs[i], &neg) || neg.Vertex < 20 {
					t.Fatalf("%s: graph %d: error %v; want a negative cycle through 20..39", c.name, i, res.errs[i])
				}
			}
		}
		t.Logf("%s: %d graphs, %d chunks, %d launches, kernel %.3f ms", c.name, len(in), tm.Chunks, tm.Launches, tm.Kernel)
	}
	ms, errs, err := FWMatrices(ctx, gpu.OnGPU(0), gs)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range gs {
		if errs[i] != nil {
			t.Fatalf("matrices: graph %d: %v", i, errs[i])
		}
		m := ms[i]
		for u := 0; u < g.N(); u++ {
			for v := 0; v < g.N(); v++ {
				got, want := m.At(u, v), refs[i].At(u, v)
				if (math.IsInf(want, 1) && got != gpu.InfInt32) || (!math.IsInf(want, 1) && float64(got) != want) {
					t.Fatalf("matrices: graph %d (n=%d) d(%d,%d) = %d, want %v", i, g.N(), u, v, got, want)
				}
			}
		}
	}
}

// TestBulkFWAdmit checks the per-graph refusals and the negative-cycle
// search on the host (no GPU needed).
func TestBulkFWAdmit(t *testing.T) {
	build := func(directed bool, n int, arcs [][3]int64) *graph.Graph {
		b := graph.NewBuilder(directed)
		_ = b.SetVertices(n)
		for _, a := range arcs {
			if err := b.AddIntEdge(int(a[0]), int(a[1]), a[2]); err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	fb := graph.NewBuilder(false)
	_ = fb.SetVertices(2)
	_ = fb.AddFloatEdge(0, 1, 0.5)
	cases := []struct {
		name    string
		g       *graph.Graph
		refused bool
		cycle   []int // vertices on the cycle, one of which must be named
	}{
		{"nil", nil, true, nil},
		{"float", fb.Build(), true, nil},
		{"too long for int32", build(true, 3, [][3]int64{{0, 1, 1 << 29}, {1, 2, 1 << 29}}), true, nil},
		{"fits int32", build(true, 3, [][3]int64{{0, 1, 1 << 28}, {1, 2, 1 << 28}}), false, nil},
		{"negative arcs, no cycle", build(true, 4, [][3]int64{{0, 1, -5}, {1, 2, 3}, {2, 0, 3}, {2, 3, -7}}), false, nil},
		{"negative cycle", build(true, 5, [][3]int64{{0, 1, 1}, {1, 2, -5}, {2, 3, 1}, {3, 1, 2}, {3, 4, 1}}), false, []int{1, 2, 3}},
		{"undirected negative edge", build(false, 3, [][3]int64{{0, 1, 4}, {1, 2, -1}}), false, []int{1, 2}},
		{"negative self-loop", build(true, 3, [][3]int64{{0, 1, 4}, {2, 2, -1}}), false, []int{2}},
		{"empty", build(true, 0, nil), false, nil},
	}
	for _, c := range cases {
		_, _, err := admitOne(c.g, true, true)
		var neg *NegativeCycleError
		switch {
		case c.refused:
			if !errors.Is(err, ErrFWGraph) {
				t.Errorf("%s: %v, want ErrFWGraph", c.name, err)
			}
		case c.cycle != nil:
			if !errors.As(err, &neg) || !contains(c.cycle, neg.Vertex) {
				t.Errorf("%s: %v, want a negative cycle through one of %v", c.name, err, c.cycle)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestFusedBytes checks the fused kernels' shared memory against the
// bound they are given (no GPU).
func TestFusedBytes(t *testing.T) {
	for _, c := range []struct{ s, rc, pack, want int }{{16, 4, 1, 16 << 10}, {16, 8, 1, 64 << 10}, {32, 4, 1, 16 << 10}, {32, 8, 1, 64 << 10}, {64, 8, 1, 64 << 10}, {128, 8, 1, 64 << 10},
		{16, 4, 2, 16 << 10}, {16, 8, 2, 64 << 10}, {32, 4, 2, 16 << 10}, {32, 8, 2, 64 << 10}, {64, 8, 2, 64 << 10}, {128, 8, 2, 64 << 10}} {
		if got := fusedBytes(c.s, c.rc, c.pack); int(got) != c.want || got > fusedShared {
			t.Errorf("fusedBytes(%d, %d, %d) = %d, want %d (at most %d)", c.s, c.rc, c.pack, got, c.want, fusedShared)
		}
	}
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// TestBulkFWNegativeCycleAgreesWithCPU compares the host search with the
// CPU engine's on random graphs with negative arcs, cycles or not.
func TestBulkFWNegativeCycleAgreesWithCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 200; i++ {
		n := 1 + rng.IntN(30)
		b := graph.NewBuilder(true)
		_ = b.SetVertices(n)
		for range n * 2 {
			_ = b.AddIntEdge(rng.IntN(n), rng.IntN(n), rng.Int64N(40)-8)
		}
		g := b.Build()
		_, got := negativeCycle(g)
		want := cpu.FindNegativeCycle(context.Background(), g) != nil
		if got != want {
			t.Fatalf("graph %d (n=%d): negative cycle %v, CPU says %v", i, n, got, want)
		}
	}
}

// TestBulkFWChunks checks the grouping by padded size and the chunks'
// bounds (no GPU needed).
func TestBulkFWChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := []int{0, 5, 16, 17, 32, 64, 65, 128, 129, 256, 300, 1024, 5, 17}
	var gs []*graph.Graph
	for _, n := range sizes {
		gs = append(gs, fwGraph(rng, n, 3, true, false))
	}
	errs := make([]error, len(gs))
	errs[1] = ErrFWGraph // refused graphs are left out
	cases := []struct {
		cfg     bulkFWConfig
		strides map[int]int // n -> stride
	}{
		{bulkFWConfig{LargeTile: 64, ChunkBytes: 1 << 30}, map[int]int{5: 16, 16: 16, 17: 32, 32: 32, 64: 64, 65: 128, 128: 128, 129: 192, 256: 256, 300: 320, 1024: 1024}},
		{bulkFWConfig{LargeTile: 128, ChunkBytes: 1 << 30}, map[int]int{129: 256, 300: 384, 1024: 1024}},
		{bulkFWConfig{Form: formSeeds, LargeTile: 64, ChunkBytes: 1 << 30}, map[int]int{5: 32, 17: 32, 65: 96, 129: 160, 300: 320}},
		{bulkFWConfig{ChunkBytes: 1 << 30}, map[int]int{16: 16, 100: 128, 129: 192, 193: 256, 300: 320, 384: 384, 450: 512, 1024: 1024, 1100: 1152}},
	}
	for _, c := range cases {
		for n, s := range c.strides {
			if got := c.cfg.stride(n); got != s {
				t.Errorf("%+v: stride(%d) = %d, want %d", c.cfg, n, got, s)
			}
		}
		chunks := planFWChunks(admittedAs(gs, errs), c.cfg)
		seen := map[int]bool{}
		for _, ch := range chunks {
			for _, i := range ch.graphs {
				if seen[i] {
					t.Fatalf("graph %d in two chunks", i)
				}
				seen[i] = true
				if c.cfg.stride(gs[i].N()) != ch.stride {
					t.Fatalf("graph %d (n=%d) in the chunk of stride %d", i, gs[i].N(), ch.stride)
				}
			}
		}
		for i, g := range gs {
			if want := errs[i] == nil && g.N() > 0; seen[i] != want {
				t.Fatalf("graph %d (n=%d): chunked %v, want %v", i, g.N(), seen[i], want)
			}
		}
	}
	// Chunks bounded by bytes (one graph at least) and, for the blocked
	// form, by the grid's second dimension; of about equal size.
	many := make([]*graph.Graph, 70000)
	small := fwGraph(rng, 20, 3, false, false)
	big := fwGraph(rng, 300, 1, false, false)
	for i := range many {
		many[i] = small
		if i%1000 == 0 {
			many[i] = big
		}
	}
	chunks := planFWChunks(admittedAs(many, make([]error, len(many))), bulkFWConfig{LargeTile: 64, ChunkBytes: 1 << 20})
	counts := map[int][]int{}
	for _, ch := range chunks {
		if ch.matrixBytes() > 1<<20 && len(ch.graphs) > 1 {
			t.Fatalf("chunk of %d graphs of stride %d: %d bytes", len(ch.graphs), ch.stride, ch.matrixBytes())
		}
		counts[ch.stride] = append(counts[ch.stride], len(ch.graphs))
	}
	if got := counts[32]; len(got) != (69930*4096+(1<<20)-1)/(1<<20) || slices.Max(got)-slices.Min(got) > 1 {
		t.Fatalf("stride 32 chunks: %v", got)
	}
	if got := counts[320]; len(got) != 35 {
		t.Fatalf("stride 320: %d chunks, want 35 of two graphs", len(got))
	}
	unbounded := planFWChunks(admittedAs(many, make([]error, len(many))), bulkFWConfig{LargeTile: 64, ChunkBytes: 1 << 40})
	for _, ch := range unbounded {
		if ch.stride > 128 && len(ch.graphs) > bulkFWMaxGroup {
			t.Fatalf("a blocked chunk of %d graphs", len(ch.graphs))
		}
	}
}

// TestBulkFWFill decodes a chunk's input as the kernels read it (table,
// offsets, heads, weights) and compares it with the graphs (no GPU).
func TestBulkFWFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gs := []*graph.Graph{fwGraph(rng, 10, 3, true, true), fwGraph(rng, 7, 2, false, false).Unweighted(), fwGraph(rng, 12, 4, false, false)}
	a := admit(gs, bulkFWConfig{Lanes: lanes.Int32})
	maxReal := a.maxReal
	for _, err := range a.errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ch := newFWChunk(16, 1, 0, []int{2, 0, 1}, a.shape)
	in := make([]int32, ch.inWords())
	ch.fill(gs, maxReal, in)
	row := 0
	for j, i := range ch.graphs {
		g := gs[i]
		e := in[8*j : 8*j+8]
		n, arcs := int(e[0]), int(e[1])
		if n != g.N() || arcs != g.Arcs() || int(e[3]) != row || e[4] != maxReal[i] {
			t.Fatalf("graph %d: table %v", i, e)
		}
		row += n
		at := 8*len(ch.graphs) + int(e[2])
		tails, heads, w := in[at:at+arcs], in[at+arcs:at+2*arcs], in[at+2*arcs:at+3*arcs]
		a := 0
		for u := 0; u < n; u++ {
			for k, v := range g.Neighbors(u) {
				if tails[a] != int32(u) || heads[a] != v || int64(w[a]) != g.ArcInt(u, k) {
					t.Fatalf("graph %d arc %d: %d->%d weight %d, want %d->%d weight %d", i, a, tails[a], heads[a], w[a], u, v, g.ArcInt(u, k))
				}
				a++
			}
		}
	}
}

// TestBulkFWBench is a test-binary mode (APSP_BULKFW_BENCH=1) for the GPU
// machine: for each case it checks every form against the others (and a
// few graphs against the CPU), then times each form's kernels with CUDA
// events on fresh random graphs (weights 1..100), after a warm-up, and
// prints the medians: kernel ms, relaxations per second (graphs·n³/time)
// and the fraction of the int32 ceiling (15.9·10¹²/s on an H100).
// fwBenchForm is one configuration a bulk FW benchmark times.
type fwBenchForm struct {
	name string
	cfg  bulkFWConfig
}

// fwBenchCase is one benchmark size and the forms timed on it.
type fwBenchCase struct {
	count, n int
	forms    []fwBenchForm
}

// selectCases keeps the cases APSP_BULKFW_CASES names ("1024x256,…")
// when it is set.
func selectCases(cases []fwBenchCase) []fwBenchCase {
	s := os.Getenv("APSP_BULKFW_CASES")
	if s == "" {
		return cases
	}
	keep := cases[:0]
	for _, c := range cases {
		if strings.Contains(","+s+",", fmt.Sprintf(",%dx%d,", c.count, c.n)) {
			keep = append(keep, c)
		}
	}
	return keep
}

// benchInputs builds sets sets of count graphs, graph i by gen, in
// parallel (the builder checks memory for each graph); *seed advances by
// one a set.
func benchInputs(sets, count int, seed *uint64, gen func(rng *rand.Rand, i int) *graph.Graph) [][]*graph.Graph {
	inputs := make([][]*graph.Graph, sets)
	for s := range inputs {
		*seed++
		set, sd := make([]*graph.Graph, count), *seed
		gpu.Parallel(count, 256, func(lo, hi int) {
			rng := rand.New(rand.NewPCG(sd, uint64(lo)))
			for i := lo; i < hi; i++ {
				set[i] = gen(rng, i)
			}
		})
		inputs[s] = set
	}
	return inputs
}

// checkForms runs every form of c on gs before any timing: the first
// form's rows are checked against the CPU on a quarter's stride of graphs,
// every later form's against the first's; each, when set, checks more of
// a form's result.
func checkForms(t *testing.T, ctx context.Context, c fwBenchCase, gs []*graph.Graph, each func(f fwBenchForm, res *bulkFWResult)) {
	t.Helper()
	var first [][]reduce.Row
	for fi, f := range c.forms {
		res, _, err := bulkFW(ctx, 0, gs, f.cfg)
		if err != nil {
			t.Fatalf("%d×%d %s: %v", c.count, c.n, f.name, err)
		}
		if each != nil {
			each(f, res)
		}
		if fi == 0 {
			first = res.rows
			want := make([][]reduce.Row, c.count)
			for i := 0; i < c.count; i += c.count / 4 {
				want[i] = rowsOf(fwWant(t, gs[i]))
			}
			checkFWRows(t, f.name, gs, want, res.rows, res.errs)
		} else {
			checkFWRows(t, f.name, gs, first, res.rows, res.errs)
		}
	}
}

func TestBulkFWBench(t *testing.T) {
	if os.Getenv("APSP_BULKFW_BENCH") != "1" {
		t.Skip("APSP_BULKFW_BENCH=1 runs the bulk FW benchmark")
	}
	requireGPU(t)
	ctx := context.Background()
	reps := 5
	type form = fwBenchForm
	big := uint64(16 << 30) // one chunk: every graph in one launch sequence
	auto := form{"ours", bulkFWConfig{ChunkBytes: big}}
	chunked := form{"ours, 256 MiB chunks (pipelined)", bulkFWConfig{ChunkBytes: 256 << 20}}
	defaults := form{"ours, FWRows's chunks", bulkFWConfig{}}
	// int16 wherever Tighten's search proves it, whatever the search costs
	// the host (the default searches only where it pays: tightenPays).
	proven := form{"ours, int16 proven wherever it holds", bulkFWConfig{ChunkBytes: big, Tighten: true}}
	ours := func(tile int) form {
		return form{fmt.Sprintf("ours(tile %d)", tile), bulkFWConfig{LargeTile: tile, ChunkBytes: big}}
	}
	inplace := func(tile int) form {
		return form{fmt.Sprintf("in-place panels(tile %d)", tile), bulkFWConfig{Form: formInplace, LargeTile: tile, ChunkBytes: big}}
	}
	seeds := form{"seeds multi-kernel", bulkFWConfig{Form: formSeeds, ChunkBytes: big}}
	single := func(tile int) form {
		return form{fmt.Sprintf("single-kernel bulk(tile %d)", tile), bulkFWConfig{Form: formSingle, LargeTile: tile, ChunkBytes: big}}
	}
	colwise := form{"C2CU column-wise", bulkFWConfig{Form: formColwise, ChunkBytes: big}}
	// The register kernels alone (the steps; building and reducing the
	// matrices in kernels of their own), and fused (one kernel builds,
	// computes and reduces: its time includes all three).
	reg := func(rc int) form {
		return form{fmt.Sprintf("ours, steps alone (reg %d×%d)", rc, rc), bulkFWConfig{RC16: rc, RC32: rc, Unfused: true, ChunkBytes: big}}
	}
	fused := form{"ours fused: build+FW+reduce", bulkFWConfig{ChunkBytes: big}}
	cases := []fwBenchCase{
		{131072, 16, []form{reg(4), reg(8), fused, colwise}},
		{1024, 32, []form{reg(4), reg(8), fused, colwise, seeds}},
		{1024, 64, []form{reg(8), fused, colwise, seeds}},
		{1024, 128, []form{reg(8), fused, seeds}},
		{1024, 256, []form{auto, proven, chunked, ours(64), inplace(64), single(64), single(128), seeds}},
		{1024, 1024, []form{auto, proven, defaults, chunked, ours(64), inplace(128), single(128), seeds}},
	}
	cases = selectCases(cases)
	for _, tile := range []int{64, 128} {
		_, err := gpu.Do(ctx, 0, func(c *gpurt.Call) error {
			k, err := fwModule(c, tile, 1)
			if err != nil {
				return err
			}
			regs := fmt.Sprintf("tile %d: registers pivot %d panel %d rest %d seeds %d/%d/%d colwise %d;", tile,
				k.pivot.Registers(), k.panel.Registers(), k.rest.Registers(), k.seedsA.Registers(), k.seedsB.Registers(), k.seedsC.Registers(), k.colwise.Registers())
			for sr, f := range k.reg {
				regs += fmt.Sprintf(" reg%d_%d %d", sr[0], sr[1], f.Registers())
			}
			t.Log(regs)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var table []string
	seed := uint64(100)
	for _, c := range cases {
		sets := min(reps+1, 3) // input sets rotated: each timed run gets other graphs than the last
		start := time.Now()
		inputs := benchInputs(sets, c.count, &seed, func(rng *rand.Rand, i int) *graph.Graph {
			return fwGraph(rng, c.n, 8, i%2 == 0, false)
		})
		t.Logf("%d×%d: inputs built in %v", c.count, c.n, time.Since(start))
		checkForms(t, ctx, c, inputs[0], nil)
		work := relaxations(inputs[0])
		for _, f := range c.forms {
			var ks, walls []float64
			var tm bulkFWTiming
			for r := 0; r <= reps; r++ { // run 0 warms up
				var err error
				start := time.Now()
				_, tm, err = bulkFW(ctx, 0, inputs[(r+1)%sets], f.cfg)
				if err != nil {
					t.Fatal(err)
				}
				if r > 0 {
					ks = append(ks, tm.Kernel)
					walls = append(walls, float64(time.Since(start).Microseconds())/1e3)
				}
			}
			sort.Float64s(ks)
			sort.Float64s(walls)
			med := ks[len(ks)/2]
			rate := work / (med / 1e3)
			line := fmt.Sprintf("| %d × %d | %s | %.4f | %.4f–%.4f | %.2f | %.1f %% | %.1f | upload+build %.3f, reduce+copy %.3f; host prep %.1f, convert %.1f; %d chunks, %d launches |",
				c.count, c.n, f.name, med, ks[0], ks[len(ks)-1], rate/1e12, 100*rate/15.9e12, walls[len(walls)/2],
				tm.ToDevice, tm.Reduce, float64(tm.Prep.Microseconds())/1e3, float64(tm.Convert.Microseconds())/1e3, tm.Chunks, tm.Launches)
			t.Log(line)
			table = append(table, line)
		}
	}
	fmt.Println("| graphs × n | form | kernel ms (median) | min–max | T relax/s | of 15.9 T | call ms (wall, median) | other (ms, last run) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, l := range table {
		fmt.Println(l)
	}
}

// admittedAs is admit's verdict with errs and every graph in int32 lanes.
func admittedAs(gs []*graph.Graph, errs []error) fwAdmitted {
	a := fwAdmitted{errs: errs, maxReal: make([]int32, len(gs)), pack: make([]int, len(gs)), shape: make([]fwShape, len(gs))}
	for i, g := range gs {
		a.pack[i] = 1
		if errs[i] == nil {
			a.shape[i] = fwShape{int32(g.N()), int32(g.Arcs())}
		}
	}
	return a
}

// edgeGraph builds a graph from {u, v, w} arcs.
func edgeGraph(t testing.TB, directed bool, n int, arcs [][3]int64) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		t.Fatal(err)
	}
	for _, a := range arcs {
		if err := b.AddIntEdge(int(a[0]), int(a[1]), a[2]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// pathGraph is an undirected path of len(ws)+1 vertices with weights ws.
func pathGraph(t testing.TB, ws ...int64) *graph.Graph {
	arcs := make([][3]int64, len(ws))
	for i, w := range ws {
		arcs[i] = [3]int64{int64(i), int64(i + 1), w}
	}
	return edgeGraph(t, false, len(ws)+1, arcs)
}

// spread is total split into parts positive weights.
func spread(total int64, parts int) []int64 {
	ws := make([]int64, parts)
	for i := range ws {
		ws[i] = total / int64(parts)
	}
	ws[0] += total % int64(parts)
	return ws
}

// lanesCases are graphs at the edges of the int16 rule, with the lanes
// a word must hold for each (2: int16×2, 1: int32).
func lanesCases(t testing.TB) []struct {
	name string
	g    *graph.Graph
	pack int
} {
	big := make([][3]int64, 0, 300)
	for v := 0; v < 299; v++ { // a directed cycle: strongly connected, so Tighten bounds it
		big = append(big, [3]int64{int64(v), int64(v + 1), 50})
	}
	big = append(big, [3]int64{299, 0, 50})
	return []struct {
		name string
		g    *graph.Graph
		pack int
	}{
		{"unweighted", fwGraph(rand.New(rand.NewPCG(1, 2)), 40, 3, false, false).Unweighted(), 2},
		{"weights 1..100, n = 100", fwGraph(rand.New(rand.NewPCG(1, 3)), 100, 4, true, false), 2},
		{"path to 16382", pathGraph(t, spread(16382, 90)...), 2},
		{"one arc of 16382", pathGraph(t, 16382), 2},
		{"path to 16383", pathGraph(t, spread(16383, 90)...), 1},
		{"one arc of 16383", pathGraph(t, 16383), 1},
		{"zero weights and unreachable pairs", edgeGraph(t, true, 6, [][3]int64{{0, 1, 0}, {1, 2, 0}, {3, 4, 7}}), 2},
		// MaxReal 200 002 (the heavy edge), but every distance is at most 2:
		// Tighten proves it, and the heavy weight is clamped to infinity.
		{"heavy edge off every shortest path", edgeGraph(t, false, 3, [][3]int64{{0, 1, 1}, {1, 2, 1}, {0, 2, 200000}}), 2},
		{"directed cycle of 300 × 50 (Tighten: 14 950)", edgeGraph(t, true, 300, big), 2},
		{"directed path to 20000 (no bound: not strongly connected)", edgeGraph(t, true, 3, [][3]int64{{0, 1, 10000}, {1, 2, 10000}}), 1},
		{"negative arc", edgeGraph(t, true, 3, [][3]int64{{0, 1, 5}, {1, 2, -1}}), 1},
	}
}

// TestBulkFWAdmitLanes checks the per-graph lane choice against the lane
// plan's rule, and that the benchmark's forced int32 packs nothing (no GPU).
func TestBulkFWAdmitLanes(t *testing.T) {
	for _, c := range lanesCases(t) {
		maxReal, pack, err := admitOne(c.g, true, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		plan, _ := lanes.PlanFor(c.g)
		holds := !plan.Negative && plan.Tighten(c.g).Holds(lanes.Int16) == nil
		if pack != c.pack || holds != (c.pack == 2) {
			t.Errorf("%s: pack %d, want %d (the plan holds int16: %v)", c.name, pack, c.pack, holds)
		}
		if pack == 2 && maxReal != maxReal16 {
			t.Errorf("%s: maxReal %d in int16 lanes, want %d", c.name, maxReal, maxReal16)
		}
		if _, pack, _ := admitOne(c.g, false, true); pack != 1 {
			t.Errorf("%s: pack %d with packing off", c.name, pack)
		}
	}
	// A graph only int16 holds (distances of 2, a weight beyond int32's
	// lanes) is taken packed and refused when int32 is forced.
	g := edgeGraph(t, false, 3, [][3]int64{{0, 1, 1}, {1, 2, 1}, {0, 2, 1 << 40}})
	if _, pack, err := admitOne(g, true, true); err != nil || pack != 2 {
		t.Errorf("int16 only: pack %d, %v", pack, err)
	}
	if _, _, err := admitOne(g, false, true); !errors.Is(err, ErrFWGraph) {
		t.Errorf("int16 only, int32 forced: %v, want ErrFWGraph", err)
	}
}

// TestBulkFWPackPolicy checks which graphs the configurations let pack:
// stride 16 only with PackSmall, formAuto only, never with int32 forced,
// past the plain bound only where the search pays or Tighten asks
// (no GPU).
func TestBulkFWPackPolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		name string
		cfg  bulkFWConfig
		want map[int]int // n -> pack
	}{
		// n = 300 needs Tighten's search (MaxReal 29 900 ≥ 16 383), which
		// costs the host more than int16 saves a graph so small.
		{"default", bulkFWConfig{}, map[int]int{1: 1, 16: 1, 17: 2, 64: 2, 128: 2, 129: 2, 300: 1}},
		{"tighten", bulkFWConfig{Tighten: true}, map[int]int{16: 1, 17: 2, 129: 2, 300: 2}},
		{"PackSmall", bulkFWConfig{PackSmall: true, Tighten: true}, map[int]int{1: 2, 16: 2, 17: 2, 300: 2}},
		{"int32 forced", bulkFWConfig{Lanes: lanes.Int32, PackSmall: true}, map[int]int{16: 1, 17: 1, 300: 1}},
		{"seeds", bulkFWConfig{Form: formSeeds}, map[int]int{17: 1, 300: 1}},
		{"single", bulkFWConfig{Form: formSingle}, map[int]int{300: 1}},
	}
	for _, c := range cases {
		for n, want := range c.want {
			g := fwGraph(rng, n, 3, false, false) // weights ≤ 100, n ≤ 300: int16 holds
			a := admit([]*graph.Graph{g}, c.cfg)
			packs, errs := a.pack, a.errs
			if errs[0] != nil || packs[0] != want {
				t.Errorf("%s: n = %d: pack %d (%v), want %d", c.name, n, packs[0], errs[0], want)
			}
		}
	}
}

// TestBulkFWSplitLanes checks that a batch mixing lane kinds is split by
// kind and padded size, each chunk within its bytes (no GPU).
func TestBulkFWSplitLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var gs []*graph.Graph
	var packs []int
	for i := range 400 {
		n := []int{5, 16, 17, 100, 128, 129, 256, 300}[i%8]
		gs = append(gs, fwGraph(rng, n, 3, i%2 == 0, false))
		packs = append(packs, 1+i%3%2) // 1, 2, 1, 1, 2, 1, ...
	}
	errs := make([]error, len(gs))
	errs[7] = ErrFWGraph
	for _, cfg := range []bulkFWConfig{{ChunkBytes: 1 << 30}, {ChunkBytes: 256 << 10}, {LargeTile: 64, ChunkBytes: 64 << 10}} {
		seen := map[int]bool{}
		a := admittedAs(gs, errs)
		copy(a.pack, packs)
		for _, ch := range planFWChunks(a, cfg) {
			if len(ch.graphs) > 1 && ch.matrixBytes() > cfg.ChunkBytes {
				t.Fatalf("%+v: chunk of %d graphs, %d bytes", cfg, len(ch.graphs), ch.matrixBytes())
			}
			if ch.matrixBytes() != uint64(len(ch.graphs)*ch.stride*ch.stride*4/ch.pack) {
				t.Fatalf("%+v: %d bytes for %d graphs of stride %d in pack %d", cfg, ch.matrixBytes(), len(ch.graphs), ch.stride, ch.pack)
			}
			for _, i := range ch.graphs {
				if seen[i] || packs[i] != ch.pack || cfg.stride(gs[i].N()) != ch.stride {
					t.Fatalf("%+v: graph %d (n=%d, pack %d) in the chunk of stride %d, pack %d (twice: %v)", cfg, i, gs[i].N(), packs[i], ch.stride, ch.pack, seen[i])
				}
				seen[i] = true
			}
		}
		for i := range gs {
			if seen[i] != (errs[i] == nil) {
				t.Fatalf("%+v: graph %d chunked %v", cfg, i, seen[i])
			}
		}
	}
}

// TestBulkFWFillPacked checks that a packed chunk's weights are clamped to
// int16's infinity and the table carries its bound (no GPU).
func TestBulkFWFillPacked(t *testing.T) {
	gs := []*graph.Graph{edgeGraph(t, false, 3, [][3]int64{{0, 1, 1}, {1, 2, 7}, {0, 2, 200000}})}
	a := admit(gs, bulkFWConfig{PackSmall: true, Tighten: true})
	maxReal, packs, errs := a.maxReal, a.pack, a.errs
	if errs[0] != nil || packs[0] != 2 {
		t.Fatalf("pack %d, %v", packs[0], errs[0])
	}
	ch := newFWChunk(16, 2, 0, []int{0}, a.shape)
	in := make([]int32, ch.inWords())
	ch.fill(gs, maxReal, in)
	if in[4] != maxReal16 {
		t.Fatalf("table bound %d, want %d", in[4], maxReal16)
	}
	arcs := gs[0].Arcs()
	for a, w := range in[8+2*arcs : 8+3*arcs] {
		if w < 0 || w > inf16 || (w != 1 && w != 7 && w != inf16) {
			t.Fatalf("arc %d weight %d", a, w)
		}
	}
	if !slices.Contains(in[8+2*arcs:8+3*arcs], inf16) {
		t.Fatal("the heavy weight is not clamped to int16's infinity")
	}
}

// weightedGraph is a random graph of n vertices, about deg arcs a vertex
// (as fwGraph), weights 1..maxW (1: unweighted), directed or not.
func weightedGraph(rng *rand.Rand, n, deg int, maxW int64, directed bool) *graph.Graph {
	g := testgraphs.Random(rng, testgraphs.Spec{N: n, M: n * deg / 2, Directed: directed, Kind: graph.IntWeights, Lo: 1, Hi: maxW})
	if maxW == 1 {
		g = g.Unweighted()
	}
	return g
}

// TestBulkFWInt16MatchesCPU runs a batch mixing graphs that int16 lanes
// hold (random graphs of mixed sizes, unweighted and weights up to 100,
// distances at the limit 16 382) with graphs that must stay int32 (16 383,
// negative arcs, long directed paths) through every form that packs, and
// compares every row, and the matrices, with the CPU's blocked FW; the
// same batch with int32 forced must agree.
func TestBulkFWInt16MatchesCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(61, 62))
	var gs []*graph.Graph
	var wantPack []int // with PackSmall
	sizes := []int{1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 191, 192, 255, 256, 257, 300, 511, 513, 700}
	for i := range 160 {
		n := sizes[i%len(sizes)]
		if i >= len(sizes) {
			n = 1 + rng.IntN(140)
			if i%4 == 0 {
				n = 1 + rng.IntN(600)
			}
		}
		maxW := []int64{1, 10, 100}[i%3]
		g := weightedGraph(rng, n, []int{1, 3, 8, 30}[i%4], maxW, i%2 == 0)
		plan, _ := lanes.PlanFor(g)
		p := 1
		if plan.Tighten(g).Holds(lanes.Int16) == nil {
			p = 2
		}
		gs, wantPack = append(gs, g), append(wantPack, p)
	}
	for _, c := range lanesCases(t) {
		gs, wantPack = append(gs, c.g), append(wantPack, c.pack)
	}
	// The limit in register groups and in blocked rounds: a path whose ends
	// are 16 382 apart, across 130 and 300 vertices (padded to 256 and 320).
	for _, n := range []int{20, 130, 300} {
		gs, wantPack = append(gs, pathGraph(t, spread(16382, n-1)...)), append(wantPack, 2)
		gs, wantPack = append(gs, pathGraph(t, spread(16383, n-1)...)), append(wantPack, 1)
	}
	refs := make([]*lanes.Matrix[float64], len(gs))
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		refs[i] = fwWant(t, g)
		want[i] = rowsOf(refs[i])
	}
	packed := 0
	for _, p := range wantPack {
		packed += p - 1
	}
	if packed < len(gs)/2 || packed == len(gs) {
		t.Fatalf("%d of %d graphs packed: want a mix", packed, len(gs))
	}
	for _, c := range []struct {
		name string
		cfg  bulkFWConfig
	}{
		{"auto (the proof where it pays)", bulkFWConfig{}},
		{"auto, proven", bulkFWConfig{Tighten: true}},
		{"auto, stride 16 packed", bulkFWConfig{PackSmall: true, Tighten: true}},
		{"tile64", bulkFWConfig{LargeTile: 64, PackSmall: true, Tighten: true}},
		{"tile128", bulkFWConfig{LargeTile: 128, Tighten: true}},
		{"rc8, small chunks", bulkFWConfig{RC16: 8, RC32: 8, ChunkBytes: 1 << 20, PackSmall: true, Tighten: true}},
		{"unfused", bulkFWConfig{Unfused: true, PackSmall: true, Tighten: true}},
		{"int32 forced", bulkFWConfig{Lanes: lanes.Int32}},
	} {
		res, tm, err := bulkFW(ctx, 0, gs, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, p := range res.pack {
			w := wantPack[i]
			if !c.cfg.packs(gs[i].N()) {
				w = 1
			}
			if plain, _ := lanes.PlanFor(gs[i]); w == 2 && !c.cfg.Tighten && plain.Holds(lanes.Int16) != nil &&
				!tightenPays(gs[i].N(), gs[i].Arcs(), admitThreads(len(gs))) {
				w = 1 // the proof would cost more than it saves
			}
			if p != w {
				t.Fatalf("%s: graph %d (n=%d): pack %d, want %d", c.name, i, gs[i].N(), p, w)
			}
		}
		checkFWRows(t, c.name, gs, want, res.rows, res.errs)
		t.Logf("%s: %d graphs (%d int16), %d chunks, %d launches, kernel %.3f ms", c.name, len(gs), packed, tm.Chunks, tm.Launches, tm.Kernel)
	}
	ms, errs, err := FWMatrices(ctx, gpu.OnGPU(0), gs)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range gs {
		if errs[i] != nil {
			t.Fatalf("matrices: graph %d: %v", i, errs[i])
		}
		for u := 0; u < g.N(); u++ {
			for v := 0; v < g.N(); v++ {
				got, want := ms[i].At(u, v), refs[i].At(u, v)
				if (math.IsInf(want, 1) && got != gpu.InfInt32) || (!math.IsInf(want, 1) && float64(got) != want) {
					t.Fatalf("matrices: graph %d (n=%d) d(%d,%d) = %d, want %v", i, g.N(), u, v, got, want)
				}
			}
		}
	}
}

// TestBulkFW16Bench is a test-binary mode (APSP_BULKFW16_BENCH=1) for the
// GPU machine: int16×2 lanes against int32 on the same graphs (stride 16
// packed with PackSmall, which FWRows does not set; weights
// 1..APSP_BULKFW16_MAXW, default 10, so that int16 holds them; about 8
// arcs a vertex, half directed). Each case first checks the int16 rows
// against the int32 rows for every graph and 4 graphs against the CPU,
// and that every graph ran packed; then times each form's kernels with
// CUDA events (median of 5 after a warm-up, 3 input sets rotated) and
// prints kernel ms, relaxations per second against the int32 (15.9·10¹²)
// and int16×2 (32.4·10¹²) ceilings, and int32/int16.
func TestBulkFW16Bench(t *testing.T) {
	if os.Getenv("APSP_BULKFW16_BENCH") != "1" {
		t.Skip("APSP_BULKFW16_BENCH=1 runs the int16 bulk FW benchmark")
	}
	requireGPU(t)
	ctx := context.Background()
	maxW := int64(10)
	if s := os.Getenv("APSP_BULKFW16_MAXW"); s != "" {
		if _, err := fmt.Sscan(s, &maxW); err != nil {
			t.Fatal(err)
		}
	}
	const reps = 5
	big := uint64(16 << 30) // one chunk: every graph in one launch sequence
	type form = fwBenchForm
	pair := func(name string, cfg bulkFWConfig) []form {
		c32 := cfg
		c32.Lanes = lanes.Int32
		return []form{{"int32 " + name, c32}, {"int16×2 " + name, cfg}}
	}
	cases := []fwBenchCase{
		{131072, 16, append(append(pair("steps alone (reg 4)", bulkFWConfig{RC16: 4, Unfused: true, ChunkBytes: big, PackSmall: true}),
			pair("steps alone (reg 8)", bulkFWConfig{RC16: 8, Unfused: true, ChunkBytes: big, PackSmall: true})...),
			pair("fused build+FW+reduce", bulkFWConfig{ChunkBytes: big, PackSmall: true})...)},
		{1024, 128, append(pair("steps alone", bulkFWConfig{Unfused: true, ChunkBytes: big}), pair("fused build+FW+reduce", bulkFWConfig{ChunkBytes: big})...)},
		{1024, 256, append(pair("auto (tile 128)", bulkFWConfig{ChunkBytes: big}), pair("tile 64", bulkFWConfig{LargeTile: 64, ChunkBytes: big})...)},
		{1024, 1024, pair("auto (tile 128)", bulkFWConfig{ChunkBytes: big})},
	}
	cases = selectCases(cases)
	for _, tile := range []int{64, 128} {
		_, err := gpu.Do(ctx, 0, func(c *gpurt.Call) error {
			k, err := fwModule(c, tile, 2)
			if err != nil {
				return err
			}
			regs := fmt.Sprintf("int16 tile %d: registers panel %d rest %d;", tile, k.panelMP.Registers(), k.rest.Registers())
			for sr, f := range k.reg {
				regs += fmt.Sprintf(" reg%d_%d %d fused %d", sr[0], sr[1], f.Registers(), k.fused[sr].Registers())
			}
			t.Log(regs)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var table []string
	seed := uint64(300)
	for _, c := range cases {
		inputs := benchInputs(3, c.count, &seed, func(rng *rand.Rand, i int) *graph.Graph {
			return weightedGraph(rng, c.n, 8, maxW, i%2 == 0)
		})
		// The first (int32) form's rows are checked against the CPU, the
		// others against it; the int16 forms must have run packed.
		checkForms(t, ctx, c, inputs[0], func(f form, res *bulkFWResult) {
			wantPack := 2
			if f.cfg.Lanes == lanes.Int32 {
				wantPack = 1
			}
			for i, p := range res.pack {
				if p != wantPack {
					t.Fatalf("%d×%d %s: graph %d ran in pack %d, want %d", c.count, c.n, f.name, i, p, wantPack)
				}
			}
		})
		t.Logf("%d×%d: every form agrees (int16 and int32, 4 graphs with the CPU)", c.count, c.n)
		work := relaxations(inputs[0])
		var last32 float64
		for _, f := range c.forms {
			var ks []float64
			for r := 0; r <= reps; r++ { // run 0 warms up
				_, tm, err := bulkFW(ctx, 0, inputs[(r+1)%3], f.cfg)
				if err != nil {
					t.Fatal(err)
				}
				if r > 0 {
					ks = append(ks, tm.Kernel)
				}
			}
			sort.Float64s(ks)
			med := ks[len(ks)/2]
			rate := work / (med / 1e3)
			gain := "—"
			if f.cfg.Lanes == lanes.Int32 {
				last32 = med
			} else if last32 > 0 {
				gain = fmt.Sprintf("%.2f×", last32/med)
			}
			line := fmt.Sprintf("| %d × %d | %s | %.4f | %.4f–%.4f | %.2f | %.1f %% | %.1f %% | %s |",
				c.count, c.n, f.name, med, ks[0], ks[len(ks)-1], rate/1e12, 100*rate/15.9e12, 100*rate/32.4e12, gain)
			t.Log(line)
			table = append(table, line)
		}
	}
	fmt.Println("| graphs × n | lanes, form | kernel ms (median) | min–max | T relax/s | of 15.9 T (int32) | of 32.4 T (int16×2) | int32 / int16 |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, l := range table {
		fmt.Println(l)
	}
}

// BenchmarkFWHostPrep times, without a GPU, what the host does for a
// bulk FW call before the kernels start and after they end: admitting
// every graph (lane bounds, int16 proofs), planning the chunks, filling
// the page-locked input and turning the output into rows, for 131 072 graphs of 16 vertices and 1 024 of 1 024 (issue 31:
// a call's wall within 2x its device time).
func BenchmarkFWHostPrep(b *testing.B) {
	for _, c := range []struct{ count, n int }{{131072, 16}, {1024, 256}, {1024, 1024}} {
		rng := rand.New(rand.NewPCG(1, 2))
		gs := make([]*graph.Graph, c.count)
		for i := range gs {
			gs[i] = fwGraph(rng, c.n, 8, i%2 == 0, false)
		}
		cfg, err := bulkFWConfig{ChunkBytes: 16 << 30}.withDefaults()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dx%d/admit", c.count, c.n), func(b *testing.B) {
			for b.Loop() {
				admit(gs, cfg)
			}
		})
		a := admit(gs, cfg)
		chunks := planFWChunks(a, cfg)
		b.Run(fmt.Sprintf("%dx%d/plan", c.count, c.n), func(b *testing.B) {
			for b.Loop() {
				chunks = planFWChunks(a, cfg)
			}
		})
		b.Run(fmt.Sprintf("%dx%d/fill", c.count, c.n), func(b *testing.B) {
			var buf []int32
			for b.Loop() {
				for _, ch := range chunks {
					if len(buf) < ch.inWords() {
						buf = make([]int32, ch.inWords())
					}
					ch.fill(gs, a.maxReal, buf[:ch.inWords()])
				}
			}
		})
		// The rows from a chunk's output (reach, max, sum a row), as
		// collect turns them into each graph's rows.
		b.Run(fmt.Sprintf("%dx%d/collect", c.count, c.n), func(b *testing.B) {
			var out []uint64
			for b.Loop() {
				res := &bulkFWResult{rows: make([][]reduce.Row, len(gs)), fwAdmitted: a}
				for _, ch := range chunks {
					if len(out) < 2*ch.rows {
						out = make([]uint64, 2*ch.rows)
					}
					ch.collect(gs, unsafe.Pointer(&out[0]), res)
				}
			}
		})
	}
}

// TestTightenPays checks where the int16 proof is searched for: graphs
// large beside their arcs and the host's cores (no GPU).
func TestTightenPays(t *testing.T) {
	for _, c := range []struct {
		n, arcs, threads int
		want             bool
	}{
		{16, 128, 16, false},
		{256, 2048, 16, false},
		{300, 900, 2, false},
		{1024, 4096, 16, true},
		{1024, 8192, 16, false}, // 33.8 µs saved against 41 µs of search
		{2048, 16384, 16, true},
		{2048, 16384, 1, false},    // 270 µs saved against 1.3 ms on one core
		{4096, 16384, 0, true},     // no threads counted: one
		{4096, 1 << 20, 16, false}, // dense: 84 ms of search
	} {
		if got := tightenPays(c.n, c.arcs, c.threads); got != c.want {
			t.Errorf("tightenPays(%d, %d, %d) = %v, want %v", c.n, c.arcs, c.threads, got, c.want)
		}
	}
}
