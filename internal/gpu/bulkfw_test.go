package gpu

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

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// fwGraph is a random graph of n vertices with about deg arcs a vertex,
// weights 1..100 (or, with negative, potential-shifted weights: negative
// arcs but no negative cycle), directed or not.
func fwGraph(rng *rand.Rand, n, deg int, directed, negative bool) *graph.Graph {
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	h := make([]int64, n)
	for i := range h {
		h[i] = rng.Int64N(40)
	}
	if n > 1 {
		for range n * deg / 2 {
			u, v := rng.IntN(n), rng.IntN(n)
			if u == v {
				continue
			}
			w := 1 + rng.Int64N(100)
			if negative {
				// Directed only: an undirected negative edge is a cycle.
				w += h[u] - h[v]
			}
			if err := b.AddIntEdge(u, v, w); err != nil {
				panic(err)
			}
		}
	}
	return b.Build()
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

func sameRow(a, b reduce.Row) bool {
	return a.Reach == b.Reach && a.Unreach == b.Unreach && (a.Reach == 0 || a.MaxI == b.MaxI) && a.Sum.Float() == b.Sum.Float()
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
			if !sameRow(got[i][u], want[i][u]) {
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
				if !errors.Is(res.errs[i], ErrBulkFWGraph) || res.rows[i] != nil {
					t.Fatalf("%s: graph %d: error %v, rows %v; want ErrBulkFWGraph", c.name, i, res.errs[i], res.rows[i] != nil)
				}
			case g.N() == 40 && g.HasNegativeWeights() && g.Arcs() == 40:
				if !errors.As(res.errs[i], &neg) || neg.Vertex < 20 {
					t.Fatalf("%s: graph %d: error %v; want a negative cycle through 20..39", c.name, i, res.errs[i])
				}
			}
		}
		t.Logf("%s: %d graphs, %d chunks, %d launches, kernel %.3f ms", c.name, len(in), tm.Chunks, tm.Launches, tm.Kernel)
	}
	ms, errs, err := BulkFWMatrices(ctx, 0, gs)
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
				if (math.IsInf(want, 1) && got != InfInt32) || (!math.IsInf(want, 1) && float64(got) != want) {
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
		_, err := admitOne(c.g)
		var neg *NegativeCycleError
		switch {
		case c.refused:
			if !errors.Is(err, ErrBulkFWGraph) {
				t.Errorf("%s: %v, want ErrBulkFWGraph", c.name, err)
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
	for _, c := range []struct{ s, rc, want int }{{16, 4, 16 << 10}, {16, 8, 64 << 10}, {32, 4, 16 << 10}, {32, 8, 64 << 10}, {64, 8, 64 << 10}, {128, 8, 64 << 10}} {
		if got := fusedBytes(c.s, c.rc); int(got) != c.want || got > fusedShared {
			t.Errorf("fusedBytes(%d, %d) = %d, want %d (at most %d)", c.s, c.rc, got, c.want, fusedShared)
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
	errs[1] = ErrBulkFWGraph // refused graphs are left out
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
		chunks := planFWChunks(gs, errs, c.cfg)
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
	chunks := planFWChunks(many, make([]error, len(many)), bulkFWConfig{LargeTile: 64, ChunkBytes: 1 << 20})
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
	unbounded := planFWChunks(many, make([]error, len(many)), bulkFWConfig{LargeTile: 64, ChunkBytes: 1 << 40})
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
	maxReal, errs := admit(gs)
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ch := &fwChunk{stride: 16, graphs: []int{2, 0, 1}}
	for _, i := range ch.graphs {
		ch.rows += gs[i].N()
		ch.words += 3 * gs[i].Arcs()
	}
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
func TestBulkFWBench(t *testing.T) {
	if os.Getenv("APSP_BULKFW_BENCH") != "1" {
		t.Skip("APSP_BULKFW_BENCH=1 runs the bulk FW benchmark")
	}
	requireGPU(t)
	ctx := context.Background()
	reps := 5
	type form struct {
		name string
		cfg  bulkFWConfig
	}
	big := uint64(16 << 30) // one chunk: every graph in one launch sequence
	auto := form{"ours", bulkFWConfig{ChunkBytes: big}}
	chunked := form{"ours, 256 MiB chunks (pipelined)", bulkFWConfig{ChunkBytes: 256 << 20}}
	defaults := form{"ours, BulkFWRows's chunks", bulkFWConfig{}}
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
	cases := []struct {
		count, n int
		forms    []form
	}{
		{131072, 16, []form{reg(4), reg(8), fused, colwise}},
		{1024, 32, []form{reg(4), reg(8), fused, colwise, seeds}},
		{1024, 64, []form{reg(8), fused, colwise, seeds}},
		{1024, 128, []form{reg(8), fused, seeds}},
		{1024, 256, []form{auto, chunked, ours(64), inplace(64), single(64), single(128), seeds}},
		{1024, 1024, []form{auto, defaults, chunked, ours(64), inplace(128), single(128), seeds}},
	}
	if s := os.Getenv("APSP_BULKFW_CASES"); s != "" {
		keep := cases[:0]
		for _, c := range cases {
			if strings.Contains(","+s+",", fmt.Sprintf(",%dx%d,", c.count, c.n)) {
				keep = append(keep, c)
			}
		}
		cases = keep
	}
	for _, tile := range []int{64, 128} {
		_, err := do(ctx, 0, func(c *gpurt.Call) error {
			k, err := fwModule(c, tile)
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
		inputs := make([][]*graph.Graph, sets)
		start := time.Now()
		for s := range inputs {
			seed++
			inputs[s] = make([]*graph.Graph, c.count)
			// In parallel: the builder checks memory for each graph.
			parallel(c.count, 256, func(lo, hi int) {
				rng := rand.New(rand.NewPCG(seed, uint64(lo)))
				for i := lo; i < hi; i++ {
					inputs[s][i] = fwGraph(rng, c.n, 8, i%2 == 0, false)
				}
			})
		}
		t.Logf("%d×%d: inputs built in %v", c.count, c.n, time.Since(start))
		// Correctness: every form's rows against the first form's, and a few
		// graphs against the CPU.
		var first [][]reduce.Row
		for fi, f := range c.forms {
			res, _, err := bulkFW(ctx, 0, inputs[0], f.cfg)
			if err != nil {
				t.Fatalf("%d×%d %s: %v", c.count, c.n, f.name, err)
			}
			if fi == 0 {
				first = res.rows
				want := make([][]reduce.Row, c.count)
				for i := 0; i < c.count; i += c.count / 4 {
					want[i] = rowsOf(fwWant(t, inputs[0][i]))
				}
				checkFWRows(t, f.name, inputs[0], want, res.rows, res.errs)
			} else {
				checkFWRows(t, f.name, inputs[0], first, res.rows, res.errs)
			}
		}
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
