package bitbfs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestPlanBit checks the layout: words, batches, slots bounded by the
// batches, the thread target and memory; one slot for the matrix; a refusal
// naming the figure when one slot does not fit.
func TestPlanBit(t *testing.T) {
	const big = 80 << 30
	cases := []struct {
		name                string
		n, heads            int
		cfg                 bitConfig
		free                uint64
		dist                bool
		words, slots, group int
		err                 bool
	}{
		{name: "one vertex", n: 1, free: big, words: 32, slots: 1, group: 1},
		{name: "small: one batch", n: 100, heads: 400, free: big, words: 32, slots: 1, group: 1},
		{name: "65536: 32 batches in 32 slots", n: 65536, heads: 1 << 20, free: big, words: 32, slots: 32, group: 1},
		{name: "262144: 8 slots", n: 1 << 18, heads: 1 << 23, free: big, words: 32, slots: 8, group: 16},
		{name: "10^6: 2 slots", n: 1_000_000, heads: 32_000_000, free: big, words: 16, slots: 2, group: 489},
		{name: "words asked", n: 1000, heads: 4000, cfg: bitConfig{Words: 2, Slots: 3}, free: big, words: 2, slots: 3, group: 3},
		{name: "slots past batches", n: 1000, cfg: bitConfig{Words: 8, Slots: 50}, free: big, words: 8, slots: 2, group: 1},
		{name: "matrix: one slot", n: 65536, heads: 1 << 20, free: big, dist: true, words: 16, slots: 1, group: 64},
		{name: "memory bounds slots", n: 65536, heads: 1 << 20, cfg: bitConfig{Words: 8}, free: 256<<20 + 48<<20, words: 8, slots: 3, group: 43},
		{name: "does not fit", n: 1_000_000, heads: 32_000_000, free: 300 << 20, err: true},
		{name: "bad words", n: 10, cfg: bitConfig{Words: 3}, free: big, err: true},
		{name: "two lanes need 4 words", n: 10, cfg: bitConfig{Words: 2, Lanes: 2}, free: big, err: true},
		{name: "three lanes", n: 10, cfg: bitConfig{Words: 8, Lanes: 3}, free: big, err: true},
		{name: "four lanes need 8 words", n: 10, cfg: bitConfig{Words: 4, Lanes: 4}, free: big, err: true},
		{name: "16 words, 4 lanes", n: 5000, cfg: bitConfig{Words: 16, Lanes: 4}, free: big, words: 16, slots: 5, group: 1},
		{name: "bad exit", n: 10, cfg: bitConfig{Exit: 16}, free: big, err: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := planBit(c.n, c.heads, c.cfg, c.free, c.dist)
			if c.err {
				if err == nil {
					t.Fatalf("planned %+v, want an error", p)
				}
				if c.name == "does not fit" && !errors.Is(err, gpu.ErrDoesNotFit) {
					t.Fatalf("error %v does not match ErrDoesNotFit", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.words != c.words || p.slots != c.slots || p.groups != c.group {
				t.Fatalf("words %d slots %d groups %d, want %d %d %d", p.words, p.slots, p.groups, c.words, c.slots, c.group)
			}
			if want := bitLanesFor(p.words); c.cfg.Lanes == 0 && p.lanes != want {
				t.Fatalf("%d lanes with %d words, want %d", p.lanes, p.words, want)
			}
			if p.batches*p.size < c.n || (p.batches-1)*p.size >= c.n {
				t.Fatalf("%d batches of %d for %d vertices", p.batches, p.size, c.n)
			}
			if p.groups*p.slots < p.batches {
				t.Fatalf("%d groups of %d slots miss some of %d batches", p.groups, p.slots, p.batches)
			}
			if need := p.fixed + p.slotBytes*uint64(p.slots); need > c.free {
				t.Fatalf("plan needs %d bytes, %d free", need, c.free)
			}
			if c.cfg.Exit == 0 && p.exit != bitExit {
				t.Fatalf("exit %d, want the default %d", p.exit, bitExit)
			}
			if p.headsAt%16 != 0 || p.headsAt < 8*uint64(c.n+1) {
				t.Fatalf("heads at %d for %d offsets", p.headsAt, c.n+1)
			}
		})
	}
}

// TestFillPadded checks the padded CSR on random graphs: offsets at
// multiples of 4, every arc kept in order, the padding -1.
func TestFillPadded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 40 {
		n := 1 + rng.IntN(300)
		if i%4 == 3 {
			n = paddedChunk*(1+rng.IntN(3)) + rng.IntN(3) - 1 // chunk edges
		}
		g := bitGraph(rng, n, rng.IntN(9), i%2 == 0, []float64{0, 0.2}[i%2])
		switch i % 5 {
		case 4: // no padding at all: every chunk is one copy
			var err error
			if g, err = gen.Make("regular", fmt.Sprintf("n=%d", 2*n), "d=8", fmt.Sprintf("seed=%d", i)); err != nil {
				t.Fatal(err)
			}
			n = g.N()
		case 2: // chunks with and without padding in turn: copies shifted by the padding before them
			n = 5*paddedChunk + rng.IntN(paddedChunk)
			b := graph.NewBuilder(true)
			for v := range n {
				deg := 4
				if (v/paddedChunk)%2 == 1 && rng.IntN(3) == 0 {
					deg = 1 + rng.IntN(7)
				}
				for k := 1; k <= deg; k++ { // distinct heads, no loop
					if err := b.AddEdge(v, (v+k*97)%n); err != nil {
						t.Fatal(err)
					}
				}
			}
			g = b.Build()
		}
		lay := layoutPadded(g)
		heads := lay.heads()
		off := make([]int64, n+1)
		h := make([]int32, heads)
		for i := range h {
			h[i] = 7 // a value the fill must overwrite
		}
		// In pieces, as runBit fills them.
		pieces := 1 + rng.IntN(lay.chunks())
		for p := range pieces {
			lay.fill(g, off, h, p*lay.chunks()/pieces, (p+1)*lay.chunks()/pieces)
		}
		a := csr.Of(g)
		if off[n] != int64(heads) {
			t.Fatalf("graph %d: last offset %d, want %d", i, off[n], heads)
		}
		for v := range n {
			nb := a.Heads[a.Off[v]:a.Off[v+1]]
			got := h[off[v]:off[v+1]]
			if off[v]%4 != 0 || len(got)%4 != 0 || len(got)-len(nb) > 3 || len(got) < len(nb) {
				t.Fatalf("graph %d vertex %d: %d padded heads at %d for %d arcs", i, v, len(got), off[v], len(nb))
			}
			if !slices.Equal(got[:len(nb)], nb) {
				t.Fatalf("graph %d vertex %d: heads %v, want %v", i, v, got[:len(nb)], nb)
			}
			for _, u := range got[len(nb):] {
				if u != -1 {
					t.Fatalf("graph %d vertex %d: padding %d", i, v, u)
				}
			}
		}
	}
}

func TestTrimHist(t *testing.T) {
	cases := []struct{ in, want []int64 }{
		{[]int64{0}, []int64{0}},
		{[]int64{7, 0, 0}, []int64{0}}, // Hist[0] is 0 whatever the device held
		{[]int64{0, 3, 5, 0, 0}, []int64{0, 3, 5}},
		{[]int64{0, 0, 2}, []int64{0, 0, 2}},
	}
	for _, c := range cases {
		if got := trimHist(c.in); !slices.Equal(got, c.want) {
			t.Errorf("trimHist(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// bitGraph is a random unweighted graph: each vertex not isolated draws
// deg arcs to random vertices (directed, disconnected, isolated vertices
// all occur).
func bitGraph(rng *rand.Rand, n, deg int, directed bool, isolated float64) *graph.Graph {
	return bulkGraph(rng, n, deg, directed, isolated)
}

// bitCases are random graphs of sizes around the word, warp and batch
// edges and random ones to a few thousand, directed or not, sparse to
// dense, with isolated vertices, and paths (many levels).
func bitCases(rng *rand.Rand, count int) []*graph.Graph {
	edges := []int{1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 1500, 2047, 2049}
	var gs []*graph.Graph
	for i := range count {
		n := 1 + rng.IntN(3000)
		if i < len(edges) {
			n = edges[i]
		}
		deg := 1 + rng.IntN(12)
		switch i % 13 {
		case 3:
			deg = min(n/2, 200) // high degree: the early exit
		case 7:
			deg = 1 // mostly disconnected
		}
		isolated := []float64{0, 0, 0.05, 0.3}[i%4]
		gs = append(gs, bitGraph(rng, n, deg, i%2 == 0, isolated))
	}
	for _, n := range []int{2, 70, 600} {
		b := graph.NewBuilder(n%3 == 0)
		if err := b.SetVertices(n); err != nil {
			panic(err)
		}
		for v := 0; v+1 < n; v++ {
			if err := b.AddEdge(v, v+1); err != nil {
				panic(err)
			}
		}
		gs = append(gs, b.Build())
	}
	return gs
}

func cpuSummary(t testing.TB, g *graph.Graph) *bfs.Summary {
	t.Helper()
	s, err := bfs.BitRows(context.Background(), g, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sameSummary(t *testing.T, name string, g *graph.Graph, want *bfs.Summary, got *Result) {
	t.Helper()
	if len(got.Rows) != len(want.Rows) {
		t.Fatalf("%s (n=%d): %d rows, want %d", name, g.N(), len(got.Rows), len(want.Rows))
	}
	for v := range want.Rows {
		if !reduce.Same(got.Rows[v], want.Rows[v]) { // Σ 1/d added in another order
			t.Fatalf("%s (n=%d, directed=%v, arcs=%d) row %d: got %+v, want %+v", name, g.N(), g.Directed(), g.Arcs(), v, got.Rows[v], want.Rows[v])
		}
	}
	if !slices.Equal(got.Hist, want.Hist) {
		t.Fatalf("%s (n=%d): histogram %v, want %v", name, g.N(), got.Hist, want.Hist)
	}
}

// sameBrief checks that gpu-bitbfs's Brief of g on ords in cfg is the
// Brief of the CPU's rows.
func sameBrief(t *testing.T, name string, ords []int, g *graph.Graph, cfg bitConfig, want *bfs.Summary) {
	t.Helper()
	got, dev, err := bitBriefOn(context.Background(), ords, g, cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	w := reduce.BriefOf(want.Rows)
	if !slices.Equal(got.Ecc, w.Ecc) || !slices.Equal(got.Reach, w.Reach) || got.Sum != w.Sum || got.Pairs != w.Pairs || (dev == "") != (g.N() == 0) {
		t.Fatalf("%s (n=%d, directed=%v): Brief sum %v pairs %d (device %q), want sum %v pairs %d; eccentricities equal %v, reach equal %v",
			name, g.N(), g.Directed(), got.Sum, got.Pairs, dev, w.Sum, w.Pairs, slices.Equal(got.Ecc, w.Ecc), slices.Equal(got.Reach, w.Reach))
	}
}

// sameTotals checks that gpu-bitbfs's Totals of g on ords in cfg are the
// totals of the CPU's rows (Σ 1/d within reduce.Same's 1e-12).
func sameTotals(t *testing.T, name string, ords []int, g *graph.Graph, cfg bitConfig, want *bfs.Summary) {
	t.Helper()
	got, dev, err := bitTotalsOn(context.Background(), ords, g, cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	w := reduce.TotalsOf(want.Rows, true)
	harm := slices.EqualFunc(got.Harm, w.Harm, func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) })
	if !slices.Equal(got.Reach, w.Reach) || !slices.Equal(got.Sum, w.Sum) || !harm || (dev == "") != (g.N() == 0) {
		t.Fatalf("%s (n=%d, directed=%v): Totals differ from the CPU's rows (device %q): reach %v, sums %v, Σ 1/d %v",
			name, g.N(), g.Directed(), dev, slices.Equal(got.Reach, w.Reach), slices.Equal(got.Sum, w.Sum), harm)
	}
}

// TestBitRowsMatchesCPU compares gpu-bitbfs with the CPU's bitbfs on
// hundreds of random graphs, in every word width and with one and several
// slots, and its matrix with the CPU's on some.
func TestBitRowsMatchesCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	gs := bitCases(rng, 300)
	for seed := 1; seed <= 6; seed++ {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", []int{1000, 4096}[seed%2]), fmt.Sprintf("d=%d", 4*(1+seed%4)), fmt.Sprintf("seed=%d", seed))
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	configs := []bitConfig{{}, {Words: 2, Slots: 1, Exit: 8}, {Words: 4, Slots: 3, Lanes: 1}, {Words: 8, Slots: 2, Lanes: 1, PastL1: true},
		{Words: 2, Slots: 64, Stream: true}, {Words: 4, Lanes: 2, Stream: true}, {Words: 8, Lanes: 4, Slots: 5, Exit: 8},
		{Words: 16, Lanes: 4}, {Words: 16, Lanes: 2, Slots: 3}, {Words: 16, Lanes: 1, Exit: 8}, {Words: 32, Lanes: 4}}
	compared := 0
	for i, g := range gs {
		want := cpuSummary(t, g)
		for j, cfg := range configs {
			if j > 0 && i%len(configs) != j && i >= 24 {
				continue // every graph in the default, each also in one other shape
			}
			got, err := bitRows(ctx, 0, g, cfg)
			if err != nil {
				t.Fatal(err)
			}
			sameSummary(t, fmt.Sprintf("graph %d, %+v", i, cfg), g, want, got)
			if i%3 == j%3 {
				sameBrief(t, fmt.Sprintf("graph %d, %+v", i, cfg), []int{0}, g, cfg, want)
			}
			if i%3 == (j+1)%3 {
				sameTotals(t, fmt.Sprintf("graph %d, %+v", i, cfg), []int{0}, g, cfg, want)
			}
			compared++
		}
		if i%10 == 0 && g.N() <= 2100 {
			dist, _, err := bitMatrix(ctx, 0, g, configs[i%len(configs)])
			if err != nil {
				t.Fatal(err)
			}
			ref, err := bfs.Matrix(ctx, g, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dist, ref) {
				for x := range ref {
					if dist[x] != ref[x] {
						t.Fatalf("graph %d (n=%d): Matrix[%d][%d] = %d, want %d", i, g.N(), x/g.N(), x%g.N(), dist[x], ref[x])
					}
				}
			}
			compared++
		}
	}
	// No vertices, and a weighted graph refused.
	got, err := Rows(ctx, gpu.OnGPU(0), graph.NewBuilder(false).Build())
	if err != nil || len(got.Rows) != 0 || !slices.Equal(got.Hist, []int64{0}) {
		t.Fatalf("empty graph: %+v, %v", got, err)
	}
	if b, _, err := Brief(ctx, gpu.OnGPUs([]int{0}), graph.NewBuilder(false).Build()); err != nil || len(b.Ecc) != 0 || b.Pairs != 0 {
		t.Fatalf("empty graph: Brief %+v, %v", b, err)
	}
	wb := graph.NewBuilder(false)
	if err := wb.AddIntEdge(0, 1, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := Rows(ctx, gpu.OnGPU(0), wb.Build()); !errors.Is(err, ErrGraph) {
		t.Fatalf("weighted graph: %v, want ErrGraph", err)
	}
	if _, _, err := Brief(ctx, gpu.OnGPUs([]int{0}), wb.Build()); !errors.Is(err, ErrGraph) {
		t.Fatalf("weighted graph: Brief %v, want ErrGraph", err)
	}
	t.Logf("%d searches matched the CPU", compared)
}

// TestBitPerf times gpu-bitbfs on random regular graphs (the issue's
// goals) in every word width, and checks each against the others and the
// smallest against the CPU. It runs with APSP_BITBFS_PERF set to a list
// of n:d pairs (e.g. "65536:16,262144:32,1000000:32").
func TestBitPerf(t *testing.T) {
	spec := os.Getenv("APSP_BITBFS_PERF")
	if spec == "" {
		t.Skip("APSP_BITBFS_PERF not set")
	}
	requireGPU(t)
	ctx := context.Background()
	for _, pair := range strings.Split(spec, ",") {
		nd := strings.Split(pair, ":")
		n, _ := strconv.Atoi(nd[0])
		d, _ := strconv.Atoi(nd[1])
		start := time.Now()
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), fmt.Sprintf("d=%d", d), "seed=1")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d d=%d: generated in %v", n, d, time.Since(start))
		var want *Result
		if n <= 1<<16 {
			start := time.Now()
			s := cpuSummary(t, g)
			want = &Result{Rows: s.Rows, Hist: s.Hist}
			t.Logf("n=%d d=%d: CPU bitbfs %v", n, d, time.Since(start))
		}
		for _, cfg := range bitPerfConfigs(n) {
			// Warm up (compile, pools), then three timed runs and one with stats.
			var times []float64
			var last *Result
			reps := 4
			if n >= 500_000 {
				reps = 2 // a warm-up and one timed run: the device time is scarce
			}
			for rep := range reps {
				start := time.Now()
				r, err := bitRows(ctx, 0, g, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if rep > 0 {
					times = append(times, time.Since(start).Seconds()*1e3)
				}
				last = r
			}
			slices.Sort(times)
			stc := cfg
			stc.Stats = true
			st, err := bitRows(ctx, 0, g, stc)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = last
			} else {
				sameSummary(t, fmt.Sprintf("n=%d d=%d %+v", n, d, cfg), g, &bfs.Summary{Rows: want.Rows, Hist: want.Hist}, last)
			}
			tm := last.Timing
			diam, sum, pairs := len(last.Hist)-1, int64(0), int64(0)
			for k, c := range last.Hist {
				sum += int64(k) * c
				pairs += c
			}
			// Bytes: each gathered row (8W), each arc slot (4), each visited
			// row of a block that ran (8W read).
			words := float64(tm.Words)
			bytes := float64(st.Timing.Rows)*8*words + float64(st.Timing.Arcs)*4 + float64(st.Timing.Blocks)*bitBlock/float64(tm.Lanes)*8*words
			t.Logf("RESULT n=%d d=%d W=%d lanes=%d exit=%d pastL1=%v stream=%v slots=%d groups=%d regs=%d: wall median %.2f ms (min %.2f) search %.2f ms upload %.2f download %.2f; host prep %.2f setup %.2f finish %.2f ms; launches %d syncs %d; diameter %d ASPL %.9f pairs %d; rows %d arcs %d blocks %d => %.3f TB moved, %.2f TB/s over the search",
				n, d, tm.Words, tm.Lanes, tm.Exit, cfg.PastL1, cfg.Stream, tm.Slots, tm.Groups, tm.Registers, times[len(times)/2], times[0], tm.Search, tm.Upload, tm.Download, tm.Prep.Seconds()*1e3, tm.Setup.Seconds()*1e3, tm.Finish.Seconds()*1e3,
				tm.Launches, tm.Syncs, diam, float64(sum)/float64(pairs), pairs, st.Timing.Rows, st.Timing.Arcs, st.Timing.Blocks,
				bytes/1e12, bytes/1e12/(st.Timing.Search/1e3))
		}
	}
}

// bitPerfConfigs are the shapes TestBitPerf times: the default, the
// first version (8 words, one lane, rows past L1, a check every 8 arcs), 8
// words with 2 lanes, 16 words with 2 and 4 lanes, 32 with 4, a check every
// 8 arcs, more slots.
func bitPerfConfigs(n int) []bitConfig {
	return []bitConfig{
		{},
		{Words: 16, Lanes: 2},
		{Words: 8, Lanes: 1, PastL1: true, Exit: 8},
		{Words: 8, Lanes: 2},
		{Words: 16, Lanes: 4},
		{Words: 32, Lanes: 4},
		{Words: 16, Lanes: 2, Exit: 8},
		{Words: 16, Lanes: 2, Slots: max(1, 2*bitThreads/n)},
	}
}

// bulkGraph is a copy of the bulk tests' (package gpu/bulk): families share no test code.

// bulkGraph is testgraphs.PerVertex: each vertex draws deg arcs, a share
// isolated draws none.
func bulkGraph(rng *rand.Rand, n, deg int, directed bool, isolated float64) *graph.Graph {
	return testgraphs.PerVertex(rng, n, deg, directed, isolated)
}

// BenchmarkRowsAgainstBrief times one call of Rows and of Brief on the
// same graphs (issue 28: centralities come from Rows, the statistics from
// Brief), with the host's share of a Rows call: its wall on the owner
// goroutine and what follows the last synchronisation (the rows built).
func BenchmarkRowsAgainstBrief(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	for _, n := range []int{4096, 65536} {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), "d=16", "seed=1")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/brief", n), func(b *testing.B) {
			for b.Loop() {
				br, _, err := Brief(ctx, gpu.OnGPU(0), g)
				if err != nil {
					b.Fatal(err)
				}
				br.Release()
			}
		})
		b.Run(fmt.Sprintf("n=%d/rows", n), func(b *testing.B) {
			var wall, finish, total time.Duration
			for b.Loop() {
				r, err := Rows(ctx, gpu.OnGPU(0), g)
				if err != nil {
					b.Fatal(err)
				}
				wall += r.Timing.Wall
				finish += r.Timing.Finish
				total += time.Duration(r.Timing.Total * 1e6)
				reduce.ReleaseRows(r.Rows)
			}
			b.ReportMetric(float64(wall.Microseconds())/float64(b.N), "wall-µs/op")
			b.ReportMetric(float64(finish.Microseconds())/float64(b.N), "finish-µs/op")
			b.ReportMetric(float64(total.Microseconds())/float64(b.N), "device-µs/op")
		})
	}
}
