package bulk

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"testing"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// bulkGraph is testgraphs.PerVertex: each vertex draws deg arcs, a share
// isolated draws none.
func bulkGraph(rng *rand.Rand, n, deg int, directed bool, isolated float64) *graph.Graph {
	return testgraphs.PerVertex(rng, n, deg, directed, isolated)
}

// bulkCases returns count random graphs of every shape the kernels meet:
// sizes at the word and warp edges and random ones up to MaxN,
// directed or not, sparse (disconnected) to dense (the arcs too many for
// shared memory), with isolated vertices.
func bulkCases(rng *rand.Rand, count int) []*graph.Graph {
	edges := []int{1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 255, 256, 257, 300, 511, 512, 513, 700, 1000, 1023, 1024}
	var gs []*graph.Graph
	for i := 0; i < count; i++ {
		n := 1 + rng.IntN(threadMaxN)
		if i < len(edges) {
			n = edges[i]
		}
		deg := 1 + rng.IntN(16)
		switch i % 11 {
		case 3: // dense: the ELL table exceeds shared memory, high-degree early exit
			deg = n / 2
		case 7:
			deg = 1 // mostly disconnected
		}
		isolated := []float64{0, 0, 0.05, 0.3}[i%4]
		gs = append(gs, bulkGraph(rng, n, deg, i%2 == 0, isolated))
	}
	return gs
}

// midCases are graphs past threadMaxN vertices, for the mid-size kernels:
// each vertices-a-thread class at its edges, directed and not, with
// isolated vertices, dense (the ELL table exceeds shared memory) and,
// with large, a cycle whose distance sum passes 2^32 and n = MaxN (the
// CPU emulation would take too long on those).
func midCases(t testing.TB, rng *rand.Rand, large bool) []*graph.Graph {
	t.Helper()
	gs := []*graph.Graph{bulkGraph(rng, 4097, 4, true, 0), bulkGraph(rng, 3000, 3, true, 0.3), bulkGraph(rng, 1025, 2, false, 0.05),
		isolated(1072)} // no arcs: its (empty) heads end the region
	specs := [][2]int{{1025, 4}, {2048, 16}, {2049, 6}}
	if large {
		specs = append(specs, [2]int{4096, 16}, [2]int{6000, 8}, [2]int{8192, 16}, [2]int{8193, 4}, [2]int{MaxN, 16})
		gs = append(gs, outRegular(4097, 4), bulkGraph(rng, 2000, 600, false, 0), bulkGraph(rng, 12000, 6, true, 0.05), cycle(4096))
	}
	for i, c := range specs {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", c[0]), fmt.Sprintf("d=%d", c[1]), fmt.Sprintf("seed=%d", 11+i))
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	return gs
}

// isolated is the graph of n vertices and no arcs.
func isolated(n int) *graph.Graph {
	b := graph.NewBuilder(false)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	return b.Build()
}

// cycle is the undirected cycle of n vertices.
func cycle(n int) *graph.Graph {
	b := graph.NewBuilder(false)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	for u := range n {
		if err := b.AddEdge(u, (u+1)%n); err != nil {
			panic(err)
		}
	}
	return b.Build()
}

// outRegular is a directed graph of n vertices where every vertex has k
// arcs, u → u+1+3i (mod n), i < k (3(k-1)+1 < n): every degree the
// largest (the ELL table has no padding), but not undirected.
func outRegular(n, k int) *graph.Graph {
	b := graph.NewBuilder(true)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	for u := range n {
		for i := range k {
			if err := b.AddEdge(u, (u+1+3*i)%n); err != nil {
				panic(err)
			}
		}
	}
	return b.Build()
}

// uniformCases are graphs whose vertices all have the largest degree,
// directed and undirected, of odd and even sizes.
func uniformCases(t testing.TB) []*graph.Graph {
	gs := []*graph.Graph{outRegular(1024, 16), outRegular(1023, 7), outRegular(33, 5), outRegular(1022, 1), outRegular(2, 1)}
	for _, c := range [][2]int{{1022, 6}, {255, 4}, {1000, 3}, {64, 63}, {511, 10}} {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", c[0]), fmt.Sprintf("d=%d", c[1]), "seed=7")
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	return gs
}

// wantRows is the CPU bit-parallel search's rows.
func wantRows(t testing.TB, g *graph.Graph) []reduce.Row {
	t.Helper()
	s, err := bfs.BitRows(context.Background(), g, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.Rows
}

// sameRows compares every graph's rows with the CPU's; it returns the
// number of graphs compared.
func sameRows(t *testing.T, name string, gs []*graph.Graph, want [][]reduce.Row, got [][]reduce.Row) int {
	t.Helper()
	if len(got) != len(gs) {
		t.Fatalf("%s: %d results for %d graphs", name, len(got), len(gs))
	}
	for i := range gs {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: graph %d (n=%d): %d rows, want %d", name, i, gs[i].N(), len(got[i]), len(want[i]))
		}
		for v := range want[i] {
			if got[i][v] != want[i][v].NoHarm() { // the GPU's sums have no Σ 1/d
				t.Fatalf("%s: graph %d (n=%d, directed=%v, arcs=%d) row %d: got %+v, want %+v",
					name, i, gs[i].N(), gs[i].Directed(), gs[i].Arcs(), v, got[i][v], want[i][v])
			}
		}
	}
	return len(gs)
}

// TestBulkRowsMatchesBitRows compares the GPU bulk search with the CPU's
// bit-parallel search on random graphs, all at once and one at a time, in
// every kernel shape (words per vertex, register budget, arcs in shared or
// global memory, small chunks, split batches).
func TestBulkRowsMatchesBitRows(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	gs := bulkCases(rng, 300)
	// Regular graphs, as the annealing of Graph Golf makes them.
	for seed := 1; seed <= 8; seed++ {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", []int{256, 1024}[seed%2]), fmt.Sprintf("d=%d", 4*(1+seed%4)), fmt.Sprintf("seed=%d", seed))
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	gs = append(gs, graph.NewBuilder(false).Build()) // no vertices
	gs = append(gs, uniformCases(t)...)
	mid := midCases(t, rng, true)
	want := make([][]reduce.Row, len(gs), len(gs)+len(mid))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	matched := 0
	// The mid-size graphs: alone, together, and with the small ones (a
	// chunk with a large graph takes half words throughout).
	for _, g := range mid {
		want = append(want, wantRows(t, g))
		got, err := Rows(ctx, gpu.OnGPU(0), []*graph.Graph{g})
		if err != nil {
			t.Fatal(err)
		}
		matched += sameRows(t, fmt.Sprintf("Rows(mid n=%d)", g.N()), []*graph.Graph{g}, want[len(want)-1:], got)
	}
	gs = append(gs, mid...)
	// Rows itself: the whole set, then one graph a call.
	got, err := Rows(ctx, gpu.OnGPU(0), gs)
	if err != nil {
		t.Fatal(err)
	}
	matched += sameRows(t, "Rows(all)", gs, want, got)
	for i := 0; i < len(gs); i += 7 {
		got, err := Rows(ctx, gpu.OnGPU(0), gs[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		matched += sameRows(t, fmt.Sprintf("Rows(graph %d)", i), gs[i:i+1], want[i:i+1], got)
	}
	// Every shape.
	for _, w := range []int{0, 1, 2, 4} {
		for _, mb := range []int{1, 2} {
			for _, c := range []bulkConfig{
				{Words: w, Half: w == 0, MinBlocks: mb},
				{Words: w, Half: w == 0, MinBlocks: mb, NoShared: true, Split: 3},
				{Words: w, Half: w == 0, MinBlocks: mb, ChunkBytes: 200 << 10, Split: 1},
			} {
				if w == 0 {
					c.Heads = 32 // the half-word kernels with 32-bit heads too
				}
				name := fmt.Sprintf("%+v", c)
				got, tm, err := bulkRows(ctx, 0, gs, c)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				matched += sameRows(t, name, gs, want, got)
				t.Logf("%s: %d chunks, %d launches, %d blocks, kernel %.3f ms", name, tm.Chunks, tm.Launches, tm.Blocks, tm.Kernel)
			}
		}
	}
	t.Logf("%d graph results (%d distinct graphs, n = 0..%d) matched bfs.BitRows exactly", matched, len(gs), MaxN)
}

// TestBulkRowsRefuses needs no GPU: weighted graphs and graphs above
// MaxN are refused before the device is touched.
func TestBulkRowsRefuses(t *testing.T) {
	b := graph.NewBuilder(true)
	if err := b.SetVertices(3); err != nil {
		t.Fatal(err)
	}
	if err := b.AddIntEdge(0, 1, 5); err != nil {
		t.Fatal(err)
	}
	weighted := b.Build()
	big := bulkGraph(rand.New(rand.NewPCG(1, 2)), MaxN+1, 2, false, 0)
	for _, c := range []struct {
		name string
		gs   []*graph.Graph
	}{{"weighted", []*graph.Graph{weighted}}, {"too large", []*graph.Graph{big}}, {"nil", []*graph.Graph{nil}}} {
		_, err := Rows(context.Background(), gpu.OnGPU(0), c.gs)
		if !errors.Is(err, ErrGraph) {
			t.Errorf("%s: got %v, want ErrGraph", c.name, err)
		}
	}
	for _, c := range []bulkConfig{{Words: 3}, {Heads: 8}, {Heads: 32, Words: 1}} {
		if _, _, err := bulkRows(context.Background(), 0, nil, c); err == nil {
			t.Errorf("%+v: want an error", c)
		}
	}
	if got, err := Rows(context.Background(), gpu.OnGPU(0), nil); err != nil || len(got) != 0 {
		t.Errorf("no graphs: got %v, %v", got, err)
	}
}

// regulars returns count random d-regular graphs of n vertices.
func regulars(tb testing.TB, count, n, d, seed int) []*graph.Graph {
	tb.Helper()
	gs := make([]*graph.Graph, count)
	gpu.Parallel(count, 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), fmt.Sprintf("d=%d", d), fmt.Sprintf("seed=%d", seed+i))
			if err != nil {
				panic(err)
			}
			gs[i] = g
		}
	})
	return gs
}

// frontierBytes counts the frontier words the search reads: for each
// batch, each level up to the batch's deepest source plus the empty last
// one, every arc of a vertex not yet covered reads 8·W bytes. It is
// counted from the rows as an upper bound: every level reads every arc
// (levels = diameter + 1 for each batch), which is the GUIDE's L·m·n/8.
func frontierBytes(gs []*graph.Graph, rows [][]reduce.Row) float64 {
	total := 0.0
	for i, g := range gs {
		diam := int64(0)
		for _, r := range rows[i] {
			diam = max(diam, r.MaxI)
		}
		total += float64(diam+1) * float64(g.Arcs()) * float64(g.N()) / 8
	}
	return total
}

// BenchmarkBulkRows times the bulk search on random regular graphs: one
// graph a call in a loop (annealing), and batches. It reports the time per
// graph of the whole call (wall) and of the kernels alone (CUDA events),
// and the frontier bytes the levels read (L·m·n/8) per kernel second.
// APSP_BULK_VARIANTS=1 adds the kernel shapes.
func BenchmarkBulkRows(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	type variant struct {
		name string
		cfg  bulkConfig
		sums bool // Summaries: no rows
	}
	variants := []variant{{"auto", bulkConfig{}, false}, {"W1", bulkConfig{Words: 1}, false}, {"events", bulkConfig{Events: 1}, false},
		{"summaries", bulkConfig{}, true}, {"summaries/rowsums", bulkConfig{RowSums: true}, true}}
	if os.Getenv("APSP_BULK_SUMS") == "1" {
		// The summaries' batches of 8 and 16 sources (128 and 64 blocks
		// for one graph of 1 024 vertices) and the copy back, with and
		// without events.
		for _, ev := range []int{0, 1} {
			sfx := map[int]string{0: "", 1: "/events"}[ev]
			variants = append(variants,
				variant{"summaries/S=8" + sfx, bulkConfig{Sources: 8, Events: ev}, true},
				variant{"summaries/S=16" + sfx, bulkConfig{Sources: 16, Events: ev}, true},
				variant{"summaries/copyout" + sfx, bulkConfig{CopyOut: true, Events: ev}, true})
		}
		variants = append(variants, variant{"summaries/events", bulkConfig{Events: 1}, true},
			variant{"summaries/rowsums/events", bulkConfig{RowSums: true, Events: 1}, true})
	}
	cases := []struct {
		name        string
		n, d, count int
		batch       int // graphs a call
	}{
		{"single/n=1024/d=16", 1024, 16, 64, 1},
		{"batch4096/n=1024/d=16", 1024, 16, 4096, 4096},
		{"batch16384/n=256/d=16", 256, 16, 16384, 16384},
		{"single/n=4096/d=16", 4096, 16, 16, 1},
		{"single/n=16384/d=16", 16384, 16, 4, 1},
	}
	if os.Getenv("APSP_BULK_VARIANTS") == "1" {
		variants = append(variants, variant{"gl", bulkConfig{NoShared: true}, false}, variant{"summaries/gl", bulkConfig{NoShared: true}, true},
			variant{"summaries/S=16", bulkConfig{Sources: 16}, true})
	}
	for _, c := range cases {
		gs := regulars(b, c.count, c.n, c.d, 1000)
		for _, v := range variants {
			if c.batch == 1 && v.cfg.Words > 1 || c.batch > 1 && (v.cfg.Half || v.cfg.Events != 0 || v.cfg.Sources != 0) {
				continue
			}
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				if _, _, err := bulkRows(ctx, 0, gs[:min(len(gs), 64)], v.cfg); err != nil { // warm up: compile, pools
					b.Fatal(err)
				}
				if v.sums { // and the summaries' kernels, checked against the rows
					rows, _, err := bulkRows(ctx, 0, gs[:1], bulkConfig{})
					if err != nil {
						b.Fatal(err)
					}
					sums := make([]Summary, 1)
					if _, _, err := bulkRunInto(ctx, 0, gs[:1], v.cfg, &bulkOut{sums: sums}, nil); err != nil {
						b.Fatal(err)
					}
					if w := summaryOf(gs[0].N(), rows[0]); sums[0] != w {
						b.Fatalf("summary %+v, want %+v", sums[0], w)
					}
				}
				var kernel, device []float64
				var wall, prep, wait, conv, enq, inside, plan, cin, launch, cout []time.Duration
				d, err := gpurt.Default().Device(0)
				if err != nil {
					b.Fatal(err)
				}
				hand := d.Handoffs()
				var rows [][]reduce.Row
				var tm bulkTiming
				var part []*graph.Graph
				i := 0
				calls := 1
				if c.batch == 1 {
					calls = 100 // single-graph calls a b.Loop iteration
				}
				for b.Loop() {
					for range calls {
						lo := (i * c.batch) % len(gs)
						part = gs[lo : lo+c.batch]
						start := time.Now()
						var err error
						if v.sums {
							sums := make([]Summary, len(part))
							_, tm, err = bulkRunInto(ctx, 0, part, v.cfg, &bulkOut{sums: sums}, nil)
						} else {
							rows, tm, err = bulkRows(ctx, 0, part, v.cfg)
						}
						if err != nil {
							b.Fatal(err)
						}
						wall = append(wall, time.Since(start))
						prep, wait, conv = append(prep, tm.Prep), append(wait, tm.Wait), append(conv, tm.Convert)
						enq, inside = append(enq, tm.Enqueue), append(inside, tm.Inside)
						plan, cin, launch, cout = append(plan, tm.Plan), append(cin, tm.CopyIn), append(launch, tm.Launch), append(cout, tm.CopyOut)
						kernel = append(kernel, tm.Kernel)
						device = append(device, tm.Device)
						i++
					}
				}
				per := float64(c.batch)
				sort.Float64s(kernel)
				sort.Float64s(device)
				for _, d := range [][]time.Duration{wall, prep, wait, conv, enq, inside, plan, cin, launch, cout} {
					slices.Sort(d)
				}
				after := d.Handoffs()
				medK, medD, medW := kernel[len(kernel)/2], device[len(device)/2], wall[len(wall)/2]
				b.ReportMetric(float64(medW.Nanoseconds())/1e3/per, "us/graph")
				b.ReportMetric(medK*1e3/per, "kernel-us/graph")
				b.ReportMetric(medD*1e3/per, "device-us/graph")
				bytes := 0.0
				if rows != nil {
					bytes = frontierBytes(part, rows)
				}
				b.ReportMetric(bytes/(medK/1e3)/1e12, "frontier-TB/s")
				b.ReportMetric(float64(tm.InBytes+tm.OutBytes)/(medD/1e3)/1e9, "bus-GB/s")
				b.Logf("%s/%s: median wall %v (inside the owner %v; hand-offs by mailbox %d, by channel %d), host: prep %v, enqueue %v, wait %v, convert %v",
					c.name, v.name, medW, inside[len(inside)/2], after.Posted-hand.Posted, after.Direct-hand.Direct,
					prep[len(prep)/2], enq[len(enq)/2], wait[len(wait)/2], conv[len(conv)/2])
				b.Logf("%s/%s: medians: plan %v (of prep), driver calls: copy in %v, launch %v, copy out %v",
					c.name, v.name, plan[len(plan)/2], cin[len(cin)/2], launch[len(launch)/2], cout[len(cout)/2])
				b.Logf("%s/%s: median wall %v (host: prep %v, wait %v, convert %v), kernel %.4f ms, device %.4f ms (in %.3f, out %.3f); W=%d half=%v, %d chunks, %d launches, %d blocks; %.1f MB in, %.1f MB out; frontier %.3g B",
					c.name, v.name, medW, prep[len(prep)/2], wait[len(wait)/2], conv[len(conv)/2], medK, medD, tm.ToDevice, tm.ToHost,
					tm.Words, tm.Half, tm.Chunks, tm.Launches, tm.Blocks, float64(tm.InBytes)/1e6, float64(tm.OutBytes)/1e6, bytes)
			})
		}
	}
}

// emulateBulk runs the kernels' algorithm on the CPU over a chunk's input
// exactly as it is laid out for the device (graph table, tasks grouped
// into launches, CSR region) and writes the output region as the kernels
// do, so that the host side — plan, layout, tasks, conversion — is checked
// where there is no GPU.
func emulateBulk(t *testing.T, ch *bulkChunk) {
	t.Helper()
	in := ch.host
	ng := ch.hi - ch.lo
	graphs := unsafe.Slice((*[4]int32)(unsafe.Add(in, ch.graphsAt)), ng)
	region := unsafe.Slice((*int32)(unsafe.Add(in, ch.csrRegionAt)), (ch.inBytes-ch.csrRegionAt)/4)
	need := 12 * uint64(ch.rows)
	if ch.sum {
		need = 4 * sumWords * uint64(ng)
	}
	if need > ch.outBytes {
		t.Fatalf("chunk of %d rows has %d output bytes, want %d", ch.rows, ch.outBytes, need)
	}
	if ch.rows == 0 {
		return // nothing to write (and in+inBytes would point past the buffer)
	}
	var reach, sum, ecc, sums, hostSums []uint32
	if ch.sum {
		// fill zeroed the graphs' summaries: the copy in takes them to the
		// device (sums), where the blocks add into them; then the last
		// block of each graph writes them into hostSums (direct), or
		// they are copied there at the end.
		hostSums = unsafe.Slice((*uint32)(unsafe.Add(in, ch.inBytes)), sumWords*ng)
		for i, x := range hostSums {
			if x != 0 {
				t.Fatalf("summary word %d is %#x before the kernels, want 0", i, x)
			}
		}
		sums = slices.Clone(hostSums)
		defer func() {
			if !ch.direct {
				copy(hostSums, sums)
			}
		}()
	} else {
		out := unsafe.Slice((*uint32)(unsafe.Add(in, ch.inBytes)), 3*ch.rows)
		for i := range out {
			out[i] = 0xdeadbeef // the kernels must write every output
		}
		if ch.anySplit {
			clear(out)
		}
		reach, sum, ecc = out[:ch.rows], out[ch.rows:2*ch.rows], out[2*ch.rows:]
	}
	W := ch.words
	B := 64 // bits per word
	if ch.half {
		B = 32
	}
	S := ch.batchSize() // sources per batch
	if !ch.half && S != B*W || ch.half && (S > 32 || 32%S != 0) || !ch.sum && ch.half && S != 32 {
		t.Fatalf("batches of %d sources in words of %d bits, W = %d, sum %v", S, B, W, ch.sum)
	}
	ones := ^uint64(0) >> (64 - B)
	seen := 0
	for _, gr := range ch.groups {
		tasks := unsafe.Slice((*[4]int32)(unsafe.Add(in, ch.tasksAt+16*uint64(gr.firstTask))), gr.count)
		for _, task := range tasks {
			seen++
			g := graphs[task[0]]
			n := int(g[0])
			need := 2 * n * ch.wordBytes()
			if gr.sh {
				need += n * int(g[1]) * 2
			}
			vpt := 1
			if gr.mid >= 0 {
				vpt = midVertices[gr.mid]
				if vpt > 4 && !gr.sh {
					need += 4 * (n + 1) // the offsets in shared memory
				}
				if !ch.half || ch.wide || n <= threadMaxN || (gr.mid > 0 && n <= midVertices[gr.mid-1]*threadMaxN) {
					t.Fatalf("graph of %d vertices in the mid-size kernels of %d vertices a thread (half %v, wide %v)", n, vpt, ch.half, ch.wide)
				}
			}
			if n > vpt*gr.threads || need > gr.shared || gr.threads > 1024 || gr.threads%32 != 0 {
				t.Fatalf("graph of %d vertices in a launch of %d threads and %d shared bytes", n, gr.threads, gr.shared)
			}
			off := region[g[2]:]
			head := func(i int32) int { return int(off[n+1+int(i)]) } // 32-bit heads
			arcs := func(v int) (int32, int32) { return off[v], off[v+1] }
			switch {
			case n > threadMaxN:
				// Offsets in 16-byte chunks of 8 heads, then the chunks.
				start := (n + 1 + 3) &^ 3
				rest := off[start:] // empty for a graph without arcs at the end
				padded := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(rest))), 2*len(rest))
				head = func(i int32) int { return int(padded[i]) }
				arcs = func(v int) (int32, int32) { return 8 * off[v], 8 * off[v+1] }
			case !ch.wide:
				narrowHeads := unsafe.Slice((*uint16)(unsafe.Pointer(&off[n])), 2*(len(off)-n))[2:] // 16-bit, after the offsets
				head = func(i int32) int { return int(narrowHeads[i]) }
			}
			if ch.edits != nil {
				// The graph's edits rewrite its block's table of the base's
				// arcs: entry slot·n + tail.
				if !gr.sh || ch.wide || n > threadMaxN || g[2] != 0 {
					t.Fatalf("edited copies in a launch with arcs in shared memory %v, wide heads %v, %d vertices, arcs at %d", gr.sh, ch.wide, n, g[2])
				}
				pairs := unsafe.Slice((*[2]int32)(unsafe.Add(in, ch.editsAt)), ng*ch.edits.per)
				patched := map[int32]int{}
				for _, e := range pairs[int(task[0])*ch.edits.per : int(task[0]+1)*ch.edits.per] {
					if e[0] < 0 {
						continue
					}
					tail, slot := e[0]%int32(n), e[0]/int32(n)
					if a, b := arcs(int(tail)); slot >= b-a || slot >= g[1] {
						t.Fatalf("edit %v: slot %d of vertex %d's %d arcs (table width %d)", e, slot, tail, b-a, g[1])
					}
					patched[off[tail]+slot] = int(e[1])
				}
				base := head
				head = func(i int32) int {
					if h, ok := patched[i]; ok {
						return h
					}
					return base(i)
				}
			}
			r, s, e := make([]uint32, n), make([]uint32, n), make([]uint32, n)
			cur, nxt := make([]uint64, n*W), make([]uint64, n*W)
			vis := make([]uint64, n*W)
			for b := int(task[1]); b < int(task[1]+task[2]); b++ {
				first := b * S
				for v := 0; v < n; v++ {
					for w := 0; w < W; w++ {
						s0 := first + B*w
						cnt := max(0, min(B, n-s0, first+S-s0)) // the word's sources
						var absent, self uint64
						if cnt < B {
							absent = ones << cnt & ones
						}
						if v >= s0 && v < s0+cnt {
							self = 1 << (v - s0)
						}
						vis[v*W+w] = absent | self
						cur[v*W+w] = self
					}
				}
				for level := uint32(1); ; level++ {
					any := false
					for v := 0; v < n; v++ {
						acc := make([]uint64, W)
						full := ones
						for w := 0; w < W; w++ {
							full &= vis[v*W+w]
						}
						if full != ones {
							a, b := arcs(v)
							for i := a; i < b; i++ {
								u := head(i)
								for w := 0; w < W; w++ {
									acc[w] |= cur[u*W+w]
								}
							}
							pc := 0
							for w := 0; w < W; w++ {
								acc[w] &^= vis[v*W+w]
								vis[v*W+w] |= acc[w]
								pc += bits.OnesCount64(acc[w])
							}
							if pc > 0 {
								r[v] += uint32(pc)
								s[v] += level * uint32(pc)
								e[v] = max(e[v], level)
								any = true
							}
						}
						copy(nxt[v*W:v*W+W], acc)
					}
					if !any {
						break
					}
					cur, nxt = nxt, cur
				}
			}
			if ch.sum {
				// pairs, diameter, blocks done, 0, the 64-bit distance sum
				o := sums[sumWords*task[0] : sumWords*(task[0]+1)]
				total := uint64(o[4]) | uint64(o[5])<<32
				for v := 0; v < n; v++ {
					o[0] += r[v]
					total += uint64(s[v])
					o[1] = max(o[1], e[v])
				}
				o[4], o[5] = uint32(total), uint32(total>>32)
				o[2]++ // the graph's blocks done
				if o[2] > uint32(task[3]) {
					t.Fatalf("graph %d: %d blocks done of %d", task[0], o[2], task[3])
				}
				if ch.direct && o[2] == uint32(task[3]) {
					copy(hostSums[sumWords*task[0]:], o)
				}
				continue
			}
			for v := 0; v < n; v++ {
				o := int(g[3]) + v
				if task[3] == 1 {
					reach[o], sum[o], ecc[o] = r[v], s[v], e[v]
				} else {
					reach[o] += r[v]
					sum[o] += s[v]
					ecc[o] = max(ecc[o], e[v])
				}
			}
		}
	}
	if seen != ch.tasks {
		t.Fatalf("%d tasks launched, %d planned", seen, ch.tasks)
	}
}

// TestBulkLayoutEmulated checks the host side of the bulk search without a
// GPU: chunks are planned and filled as for an H100 (132 SMs), run by
// emulateBulk and converted, and must match bfs.BitRows.
func TestBulkLayoutEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	gs := bulkCases(rng, 60)
	gs = append(gs, graph.NewBuilder(true).Build())
	gs = append(gs, regulars(t, 3, 1024, 16, 5)...)
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	matched := 0
	for _, c := range []bulkConfig{
		{}, {Words: 1}, {Half: true}, {Half: true, Split: 1, NoShared: true}, {Words: 2, Split: 3}, {Words: 4, NoShared: true},
		{Words: 4, ChunkBytes: 100 << 10}, {Words: 1, Split: 1, ChunkBytes: 1},
		{Half: true, Heads: 32}, {Half: true, Heads: 16}, {Half: true, Heads: 32, NoShared: true, Split: 2},
	} {
		for _, idx := range [][2]int{{0, len(gs)}, {len(gs) - 1, len(gs)}, {3, 4}} {
			part, want := gs[idx[0]:idx[1]], want[idx[0]:idx[1]]
			out := make([][]reduce.Row, len(part))
			for i, g := range part {
				out[i] = make([]reduce.Row, g.N())
			}
			cb := c.ChunkBytes
			if cb <= 0 {
				cb = bulkChunkBytes
			}
			for _, b := range bulkChunks(part, cb) {
				ch := planChunk(132, part, b[0], b[1], c)
				buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
				ch.host = unsafe.Pointer(&buf[0])
				ch.fill(part, 227<<10, c)
				emulateBulk(t, ch)
				ch.convert(part, out)
			}
			matched += sameRows(t, fmt.Sprintf("%+v", c), part, want, out)
		}
	}
	t.Logf("%d emulated graph results matched", matched)
}

// BenchmarkRuntimeRoundTrip is the floor under a single-graph call: an
// empty call on the GPU's owner goroutine (the hand-off there and back),
// and one with a stream synchronisation.
func BenchmarkRuntimeRoundTrip(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	for _, sync := range []bool{false, true} {
		b.Run(fmt.Sprintf("sync=%v", sync), func(b *testing.B) {
			f := func(c *gpurt.Call) error {
				if sync {
					return c.Stream().Synchronize()
				}
				return nil
			}
			if _, err := gpu.Do(ctx, 0, f); err != nil {
				b.Fatal(err)
			}
			var wall []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := gpu.Do(ctx, 0, f); err != nil {
					b.Fatal(err)
				}
				wall = append(wall, time.Since(start))
			}
			slices.Sort(wall)
			b.ReportMetric(float64(wall[len(wall)/2].Nanoseconds())/1e3, "median-us")
		})
	}
}

// withEmpty returns gs with graphs of no vertices inserted at the front,
// in the middle and at the end, and a run of them.
func withEmpty(gs []*graph.Graph) []*graph.Graph {
	empty := func() *graph.Graph { return graph.NewBuilder(false).Build() }
	out := []*graph.Graph{empty()}
	out = append(out, gs[:len(gs)/2]...)
	out = append(out, empty(), empty(), empty(), empty())
	out = append(out, gs[len(gs)/2:]...)
	return append(out, empty())
}

// TestBulkUnits checks the cut of a batch into groups of b graphs and of
// each group into chunks: groups in order, of b graphs but the last,
// chunks inside their group covering it, none for a group without
// vertices.
func TestBulkUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	gs := withEmpty(bulkCases(rng, 40))
	for _, c := range []struct{ group, chunkBytes int }{
		{0, bulkChunkBytes}, {1, bulkChunkBytes}, {3, bulkChunkBytes}, {4, 1}, {7, 20 << 10},
		{len(gs), bulkChunkBytes}, {len(gs) + 5, 1}, {0, 1},
	} {
		groups, units := bulkUnits(gs, c.group, c.chunkBytes)
		b := c.group
		if b == 0 {
			b = len(gs)
		}
		if want := (len(gs) + b - 1) / b; len(groups) != want {
			t.Fatalf("%+v: %d groups, want %d", c, len(groups), want)
		}
		at, unit := 0, 0
		for gi, g := range groups {
			if g.lo != at || g.hi-g.lo != min(b, len(gs)-at) {
				t.Fatalf("%+v: group %d is [%d, %d), want from %d, %d graphs", c, gi, g.lo, g.hi, at, min(b, len(gs)-at))
			}
			if g.first != unit {
				t.Fatalf("%+v: group %d starts at chunk %d, want %d", c, gi, g.first, unit)
			}
			vertices := 0
			for _, x := range gs[g.lo:g.hi] {
				vertices += x.N()
			}
			if (vertices == 0) != (g.count == 0) {
				t.Fatalf("%+v: group %d of %d vertices has %d chunks", c, gi, vertices, g.count)
			}
			next := g.lo
			for _, u := range units[g.first : g.first+g.count] {
				if u[0] != next || u[1] <= u[0] || u[1] > g.hi {
					t.Fatalf("%+v: group %d [%d, %d): chunk %v, want from %d", c, gi, g.lo, g.hi, u, next)
				}
				next = u[1]
			}
			if g.count > 0 && next != g.hi {
				t.Fatalf("%+v: group %d's chunks end at %d, want %d", c, gi, next, g.hi)
			}
			at, unit = g.hi, unit+g.count
		}
		if at != len(gs) || unit != len(units) {
			t.Fatalf("%+v: groups end at %d of %d graphs, chunks %d of %d", c, at, len(gs), unit, len(units))
		}
	}
}

// TestBulkGroupsEmulated runs every group's chunks through the CPU
// emulation of the kernels, planned as Stream plans them (few graphs
// a group: split batches, half words), and compares with bfs.BitRows.
func TestBulkGroupsEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	gs := withEmpty(bulkCases(rng, 30))
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	for _, b := range []int{1, 3, 64} {
		groups, units := bulkUnits(gs, b, bulkChunkBytes)
		out := make([][]reduce.Row, len(gs))
		for i := range out {
			out[i] = []reduce.Row{}
		}
		for _, g := range groups {
			for _, u := range units[g.first : g.first+g.count] {
				ch := planChunk(132, gs, u[0], u[1], bulkConfig{})
				buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
				ch.host = unsafe.Pointer(&buf[0])
				ch.fill(gs, 227<<10, bulkConfig{})
				emulateBulk(t, ch)
				ch.convert(gs, out)
			}
		}
		sameRows(t, fmt.Sprintf("groups of %d", b), gs, want, out)
	}
	// Summaries straight from the output, against the CPU's rows.
	sums := make([]Summary, len(gs))
	for _, u := range bulkChunks(gs, bulkChunkBytes) {
		ch := planChunk(132, gs, u[0], u[1], bulkConfig{})
		buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
		ch.host = unsafe.Pointer(&buf[0])
		ch.fill(gs, 227<<10, bulkConfig{})
		emulateBulk(t, ch)
		ch.summarise(gs, sums)
	}
	sameSummaries(t, "emulated", gs, want, sums)
}

// TestBulkMidEmulated runs graphs of more than threadMaxN vertices (the
// mid-size kernels: several vertices a thread) through the CPU emulation,
// rows and summaries, alone and beside small graphs, whose chunk then
// takes half words throughout.
func TestBulkMidEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	mid := midCases(t, rng, false)
	gs := append(mid, bulkCases(rng, 6)...)
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	for _, c := range []bulkConfig{{}, {NoShared: true, Split: 3}, {Words: 2}, {sums: true}, {sums: true, Sources: 8, NoShared: true}, {sums: true, CopyOut: true}} {
		// {3, 4}: the graph without arcs alone, its empty heads at the end
		// of the input (a crash once).
		for _, part := range [][2]int{{0, 1}, {3, 4}, {len(mid) - 1, len(mid)}, {0, len(gs)}} {
			sub, want := gs[part[0]:part[1]], want[part[0]:part[1]]
			rows := make([][]reduce.Row, len(sub))
			sums := make([]Summary, len(sub))
			for _, b := range bulkChunks(sub, bulkChunkBytes) {
				ch := planChunk(132, sub, b[0], b[1], c)
				if !ch.half || ch.wide {
					t.Fatalf("%+v: a chunk with graphs of %d vertices in words of %d, half %v, wide heads %v", c, sub[b[0]].N(), ch.words, ch.half, ch.wide)
				}
				buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
				ch.host = unsafe.Pointer(&buf[0])
				ch.fill(sub, 227<<10, c)
				emulateBulk(t, ch)
				if c.sums {
					ch.summarise(sub, sums)
				} else {
					ch.convert(sub, rows)
				}
			}
			name := fmt.Sprintf("%+v [%d, %d)", c, part[0], part[1])
			if c.sums {
				sameSummaries(t, name, sub, want, sums)
			} else {
				sameRows(t, name, sub, want, rows)
			}
		}
	}
}

// TestBulkSummariesEmulated runs the summaries' kernels (reduced on the
// device, 32 bytes a graph) through the CPU emulation in every shape:
// batches of 8, 16 and 32 sources, full words, split graphs, small chunks,
// heads of 16 and 32 bits, arcs in global memory.
func TestBulkSummariesEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	gs := withEmpty(bulkCases(rng, 40))
	gs = append(gs, regulars(t, 2, 1024, 16, 9)...)
	gs = append(gs, outRegular(33, 5), outRegular(255, 3))
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	for _, c := range []bulkConfig{
		{}, {Sources: 8}, {Sources: 16}, {Half: true, Sources: 32}, {Half: true, Sources: 8, Heads: 32, NoShared: true},
		{Half: true, Sources: 16, Heads: 16, Split: 3}, {Words: 1}, {Words: 2, Split: 2}, {Words: 4, NoShared: true},
		{Sources: 8, ChunkBytes: 1}, {Words: 1, Split: 1, ChunkBytes: 100 << 10}, {CopyOut: true}, {Words: 2, CopyOut: true},
	} {
		c.sums = true
		cb := c.ChunkBytes
		if cb <= 0 {
			cb = bulkChunkBytes
		}
		for _, idx := range [][2]int{{0, len(gs)}, {len(gs) - 1, len(gs)}, {len(gs) - 3, len(gs) - 2}, {5, 6}} {
			part, want := gs[idx[0]:idx[1]], want[idx[0]:idx[1]]
			sums := make([]Summary, len(part))
			for i, g := range part {
				sums[i] = Summary{Connected: g.N() <= 1} // as bulkRunInto, where no chunk has vertices
			}
			for _, b := range bulkChunks(part, cb) {
				ch := planChunk(132, part, b[0], b[1], c)
				if !ch.sum || ch.outBytes != 4*sumWords*uint64(b[1]-b[0]) {
					t.Fatalf("%+v: chunk sum %v, %d output bytes for %d graphs", c, ch.sum, ch.outBytes, b[1]-b[0])
				}
				buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
				for i := range buf {
					buf[i] = 0xdeadbeefdeadbeef // fill must zero the summaries
				}
				ch.host = unsafe.Pointer(&buf[0])
				ch.fill(part, 227<<10, c)
				emulateBulk(t, ch)
				ch.summarise(part, sums)
				// Every graph's blocks counted themselves: its tasks.
				res := unsafe.Slice((*uint32)(unsafe.Add(ch.host, ch.inBytes)), sumWords*(ch.hi-ch.lo))
				for i := range ch.hi - ch.lo {
					if res[sumWords*i+2] != uint32(ch.split[i]) {
						t.Fatalf("%+v: graph %d: %d blocks done, %d planned", c, ch.lo+i, res[sumWords*i+2], ch.split[i])
					}
				}
			}
			sameSummaries(t, fmt.Sprintf("%+v [%d, %d)", c, idx[0], idx[1]), part, want, sums)
		}
	}
	if err := (bulkConfig{Sources: 12}).check(); err == nil {
		t.Error("batches of 12 sources accepted")
	}
}

// TestBulkSummariesMatchesBitRows compares Summaries's device
// reduction, in every batch size and shape, with the CPU's rows, on the
// whole set of graphs and one graph a call.
func TestBulkSummariesMatchesBitRows(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(61, 62))
	gs := withEmpty(bulkCases(rng, 120))
	gs = append(gs, regulars(t, 6, 1024, 16, 41)...)
	gs = append(gs, uniformCases(t)...)
	gs = append(gs, midCases(t, rng, true)...)
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	for _, c := range []bulkConfig{
		{}, {Sources: 8}, {Sources: 16}, {Sources: 32}, {Half: true, Sources: 8, Heads: 16}, {Half: true, Sources: 16, NoShared: true},
		{Half: true, Sources: 8, Heads: 32, NoShared: true, Split: 3}, {Words: 1}, {Words: 2, MinBlocks: 1}, {Words: 4, NoShared: true},
		{Words: 2, ChunkBytes: 200 << 10, Streams: 3}, {RowSums: true}, {CopyOut: true}, {Sources: 8, CopyOut: true, Events: 1},
		{Words: 1, CopyOut: true, ChunkBytes: 100 << 10},
	} {
		name := fmt.Sprintf("%+v", c)
		if err := c.check(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sums := make([]Summary, len(gs))
		if _, _, err := bulkRunInto(ctx, 0, gs, c, &bulkOut{sums: sums}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameSummaries(t, name+" (all)", gs, want, sums)
		for i := len(gs) - 1; i >= 0; i -= 5 {
			one := make([]Summary, 1)
			if _, _, err := bulkRunInto(ctx, 0, gs[i:i+1], c, &bulkOut{sums: one}, nil); err != nil {
				t.Fatalf("%s: graph %d: %v", name, i, err)
			}
			sameSummaries(t, fmt.Sprintf("%s (graph %d)", name, i), gs[i:i+1], want[i:i+1], one)
		}
	}
}

// summaryOf is the Summary of a graph's rows.
func summaryOf(n int, rows []reduce.Row) Summary {
	s := Summary{Vertices: n, Connected: true}
	for _, r := range rows {
		s.Pairs += r.Reach
		s.Sum += int64(r.Sum.Float())
		s.Diameter = max(s.Diameter, r.MaxI)
		s.Connected = s.Connected && !r.Unreach
	}
	return s
}

// sameSummaries compares summaries with the CPU's rows'.
func sameSummaries(t *testing.T, name string, gs []*graph.Graph, want [][]reduce.Row, got []Summary) {
	t.Helper()
	if len(got) != len(gs) {
		t.Fatalf("%s: %d summaries for %d graphs", name, len(got), len(gs))
	}
	for i, g := range gs {
		if w := summaryOf(g.N(), want[i]); got[i] != w {
			t.Fatalf("%s: graph %d (n=%d): got %+v, want %+v", name, i, g.N(), got[i], w)
		}
	}
}

// TestBulkStreamRefuses needs no GPU: a bad configuration or graph is
// refused before the device is touched, and onGroup is never called.
func TestBulkStreamRefuses(t *testing.T) {
	gs := []*graph.Graph{bulkGraph(rand.New(rand.NewPCG(5, 6)), 10, 2, false, 0)}
	never := func(lo, hi int, rows [][]reduce.Row) error { t.Error("onGroup called"); return nil }
	for _, c := range []struct {
		name string
		gs   []*graph.Graph
		sc   StreamConfig
		is   error
	}{
		{"negative group", gs, StreamConfig{Group: -1}, nil},
		{"no streams", gs, StreamConfig{Streams: -1}, nil},
		{"too many streams", gs, StreamConfig{Streams: MaxStreams + 1}, nil},
		{"nil graph", []*graph.Graph{nil}, StreamConfig{}, ErrGraph},
	} {
		err := Stream(context.Background(), gpu.OnGPU(0), c.gs, c.sc, never)
		if err == nil || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
	// Graphs without vertices need no GPU: every group comes back at once.
	empty := []*graph.Graph{graph.NewBuilder(false).Build(), graph.NewBuilder(true).Build(), graph.NewBuilder(false).Build()}
	var got [][2]int
	err := Stream(context.Background(), gpu.OnGPU(0), empty, StreamConfig{Group: 2}, func(lo, hi int, rows [][]reduce.Row) error {
		if len(rows) != hi-lo {
			t.Errorf("[%d, %d): %d rows", lo, hi, len(rows))
		}
		got = append(got, [2]int{lo, hi})
		return nil
	})
	if err != nil || !slices.Equal(got, [][2]int{{0, 2}, {2, 3}}) {
		t.Errorf("empty graphs: groups %v, %v", got, err)
	}
}

// TestBulkStreamMatchesBitRows runs Stream on a GPU in groups of 1, 3,
// 64 and more than the batch, over 1 to MaxStreams streams: groups come in
// order, of b graphs but the last, each graph's rows equal bfs.BitRows'.
// Then an onGroup error and a cancelled context stop a batch midway, and
// the GPU answers correctly after them.
func TestBulkStreamMatchesBitRows(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(51, 52))
	gs := withEmpty(bulkCases(rng, 150))
	gs = append(gs, regulars(t, 40, 256, 16, 77)...)
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	matched := 0
	for _, b := range []int{1, 3, 64, len(gs) + 10, 0} {
		for streams := 1; streams <= MaxStreams; streams++ {
			if b == 1 && streams%2 == 0 {
				continue // b = 1 is slow: 1 and 3 streams
			}
			name := fmt.Sprintf("group %d, %d streams", b, streams)
			got := make([][]reduce.Row, len(gs))
			next := 0
			err := Stream(ctx, gpu.OnGPU(0), gs, StreamConfig{Group: b, Streams: streams}, func(lo, hi int, rows [][]reduce.Row) error {
				size := b
				if size == 0 {
					size = len(gs)
				}
				if lo != next || hi-lo != min(size, len(gs)-lo) || len(rows) != hi-lo {
					return fmt.Errorf("group [%d, %d) with %d rows, want from %d, %d graphs", lo, hi, len(rows), next, min(size, len(gs)-lo))
				}
				copy(got[lo:hi], rows)
				next = hi
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if next != len(gs) {
				t.Fatalf("%s: groups ended at %d of %d", name, next, len(gs))
			}
			matched += sameRows(t, name, gs, want, got)
		}
	}
	// An onGroup error stops the batch: no group after it.
	stop := errors.New("enough")
	calls := 0
	err := Stream(ctx, gpu.OnGPU(0), gs, StreamConfig{Group: 5, Streams: 3}, func(lo, hi int, rows [][]reduce.Row) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 2 {
		t.Fatalf("onGroup error: got %v after %d calls, want it after 2", err, calls)
	}
	// A context cancelled midway.
	cctx, cancel := context.WithCancel(ctx)
	calls = 0
	err = Stream(cctx, gpu.OnGPU(0), gs, StreamConfig{Group: 4, Streams: 2}, func(lo, hi int, rows [][]reduce.Row) error {
		if calls++; calls == 3 {
			cancel()
		}
		return nil
	})
	cancel()
	if !errors.Is(err, context.Canceled) || calls >= len(gs)/4 {
		t.Fatalf("cancelled: got %v after %d groups", err, calls)
	}
	got, err := Rows(ctx, gpu.OnGPU(0), gs)
	if err != nil {
		t.Fatal(err)
	}
	matched += sameRows(t, "Rows after the stopped batches", gs, want, got)
	// Summaries, of the whole batch and of one graph a call.
	sums, err := Summaries(ctx, gpu.OnGPU(0), gs)
	if err != nil {
		t.Fatal(err)
	}
	sameSummaries(t, "Summaries", gs, want, sums)
	for i := 0; i < len(gs); i += 5 {
		one, err := Summaries(ctx, gpu.OnGPU(0), gs[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		sameSummaries(t, fmt.Sprintf("Summaries(graph %d)", i), gs[i:i+1], want[i:i+1], one)
	}
	t.Logf("%d graph results matched bfs.BitRows (groups of 1, 3, 64, all, more than all; 1-4 streams)", matched)
}

// BenchmarkBulkStream is the thesis' Fig. 4.16 for the bulk search: a
// batch of random 16-regular graphs searched in groups of b graphs over S
// streams. Each pass times the whole batch (throughput) and each group
// from its submission (the host starts filling its input) to its rows in
// host memory (latency: median and 99th percentile), and the time to the
// first group. APSP_STREAM_N sets n (default 256), APSP_STREAM_COUNT the
// batch (16384), APSP_STREAM_GROUPS and APSP_STREAM_STREAMS the lists.
func BenchmarkBulkStream(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	n, count := gputest.EnvInt("APSP_STREAM_N", 256), gputest.EnvInt("APSP_STREAM_COUNT", 16384)
	groupsList := gputest.EnvInts("APSP_STREAM_GROUPS", []int{1, 16, 64, 256, 1024, 4096, 16384})
	streamsList := gputest.EnvInts("APSP_STREAM_STREAMS", []int{1, 2, 3})
	gs := regulars(b, count, n, 16, 5000)
	for _, streams := range streamsList {
		for _, g := range groupsList {
			b.Run(fmt.Sprintf("n=%d/count=%d/b=%d/streams=%d", n, count, g, streams), func(b *testing.B) {
				cfg := bulkConfig{Group: g, Streams: streams}
				if _, _, err := bulkRows(ctx, 0, gs[:min(len(gs), 2*max(g, 64))], cfg); err != nil { // warm up
					b.Fatal(err)
				}
				var walls []time.Duration
				var lat []time.Duration
				var first []time.Duration
				var kernel []float64
				for b.Loop() {
					start := time.Now()
					_, tm, err := bulkRows(ctx, 0, gs, cfg)
					if err != nil {
						b.Fatal(err)
					}
					walls = append(walls, time.Since(start))
					for _, gt := range tm.Groups {
						lat = append(lat, gt.Done-gt.Submit)
					}
					first = append(first, tm.Groups[0].Done)
					kernel = append(kernel, tm.Kernel)
				}
				slices.Sort(walls)
				slices.Sort(lat)
				slices.Sort(first)
				sort.Float64s(kernel)
				wall := walls[len(walls)/2]
				med, p99 := lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
				b.ReportMetric(float64(count)/wall.Seconds(), "graphs/s")
				b.ReportMetric(float64(wall.Nanoseconds())/1e3/float64(count), "us/graph")
				b.ReportMetric(float64(med.Nanoseconds())/1e3, "lat-med-us")
				b.ReportMetric(float64(p99.Nanoseconds())/1e3, "lat-p99-us")
				b.ReportMetric(float64(first[len(first)/2].Nanoseconds())/1e3, "first-us")
				b.Logf("STREAM n=%d count=%d b=%d streams=%d: wall %v (%.3f us/graph, %.0f graphs/s), group latency median %v p99 %v, first group %v, kernel %.3f ms (sum over chunks), %d passes",
					n, count, g, streams, wall, float64(wall.Nanoseconds())/1e3/float64(count), float64(count)/wall.Seconds(), med, p99, first[len(first)/2], kernel[len(kernel)/2], len(walls))
			})
		}
	}
}

// TestNarrow: heads packed two a word, low half first, any length.
func TestNarrow(t *testing.T) {
	for n := 0; n <= 70; n++ {
		heads := make([]int32, n)
		for i := range heads {
			heads[i] = int32((i*389 + 7) % MaxN)
		}
		dst := make([]uint32, (n+1)/2+1)
		dst[len(dst)-1] = 0xdeadbeef
		narrow(dst, heads)
		got := unsafe.Slice((*uint16)(unsafe.Pointer(&dst[0])), 2*len(dst))
		for i, h := range heads {
			if int32(got[i]) != h {
				t.Fatalf("%d heads: head %d is %d, want %d", n, i, got[i], h)
			}
		}
		if dst[len(dst)-1] != 0xdeadbeef {
			t.Fatalf("%d heads: wrote past the heads", n)
		}
	}
}

// BenchmarkBulkPrep times the host's share of a bulk call without a GPU:
// planning one chunk and filling its input, for one graph of each size.
func BenchmarkBulkPrep(b *testing.B) {
	for _, n := range []int{1024, 4096, 16384} {
		g := regulars(b, 1, n, 16, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ch := planChunk(132, g, 0, 1, bulkConfig{sums: true})
			buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
			for b.Loop() {
				ch := planChunk(132, g, 0, 1, bulkConfig{sums: true})
				ch.host = unsafe.Pointer(&buf[0])
				ch.fill(g, 227<<10, bulkConfig{sums: true})
			}
		})
	}
}

// TestFitsShared checks the orders the bulk search takes on GPUs of
// several shared-memory sizes against what fill reserves for them.
func TestFitsShared(t *testing.T) {
	for _, c := range []struct{ shared, max int }{
		{227 << 10, MaxN},  // H100, H200
		{163 << 10, 13909}, // A100: 12n + 4 ≤ 166 912
		{99 << 10, 8447},   // sm_86, sm_89
		{96 << 10, 8191},   // V100
		{48 << 10, 4096},   // the default without opting in
		{32 << 10, 4096},   // frontiers of 4 096 vertices: 32 KiB
		{32<<10 - 1, 4095}, // one byte short
		{16 << 10, 2048},
	} {
		if got := MaxOn(c.shared); got != c.max {
			t.Errorf("MaxOn(%d) = %d, want %d", c.shared, got, c.max)
		}
		// What fill asks of a block for the largest such graph, arcs in
		// global memory, is within the shared memory.
		g := isolated(c.max)
		ch := planChunk(132, []*graph.Graph{g}, 0, 1, bulkConfig{NoShared: true})
		buf := make([]uint64, (ch.inBytes+ch.outBytes+7)/8)
		ch.host = unsafe.Pointer(&buf[0])
		ch.fill([]*graph.Graph{g}, c.shared, bulkConfig{NoShared: true})
		for _, gr := range ch.groups {
			if gr.shared > c.shared {
				t.Errorf("%d bytes: a graph of %d vertices asks %d", c.shared, c.max, gr.shared)
			}
		}
		if c.max < MaxN && FitsShared(c.max+1, c.shared) {
			t.Errorf("%d bytes: %d vertices fit too", c.shared, c.max+1)
		}
	}
}

// TestFillPadded checks the padded layout of mid-size graphs against the
// arcs, over several parts (more than 64 Ki heads), with degrees that are
// multiples of 8 (the one-pass narrowing) and not.
func TestFillPadded(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	var gs []*graph.Graph
	for _, n := range []int{1025, 5000, 16000} {
		gs = append(gs, bulkGraph(rng, n, 1+rng.IntN(20), n%2 == 0, 0.05))
	}
	for _, c := range [][2]int{{8192, 16}, {12000, 8}} { // every degree a multiple of 8
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", c[0]), fmt.Sprintf("d=%d", c[1]), "seed=3")
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	for _, g := range gs {
		n, a := g.N(), csr.Of(g)
		words := paddedWords(g)
		dst := make([]int32, words+1)
		dst[words] = 0x7eadbeef
		deg := fillPadded(dst[:words], a, n)
		start := (n + 1 + 3) &^ 3
		heads := unsafe.Slice((*uint16)(unsafe.Pointer(&dst[start])), 2*(words-start))
		most := 0
		for v := range n {
			arcs := a.Heads[a.Off[v]:a.Off[v+1]]
			most = max(most, len(arcs))
			lo, hi := int(dst[v]), int(dst[v+1])
			if hi-lo != (len(arcs)+7)/8 {
				t.Fatalf("n=%d vertex %d: %d chunks for %d arcs", n, v, hi-lo, len(arcs))
			}
			for k, h := range heads[8*lo : 8*hi] {
				want := uint16(v) // the padding
				if k < len(arcs) {
					want = uint16(arcs[k])
				}
				if h != want {
					t.Fatalf("n=%d vertex %d head %d: %d, want %d", n, v, k, h, want)
				}
			}
		}
		if int(dst[n]) != (words-start)/4 || deg != (most+7)&^7 || dst[words] != 0x7eadbeef {
			t.Fatalf("n=%d: %d chunks of %d words, degree %d of %d, guard %#x", n, dst[n], words-start, deg, most, dst[words])
		}
	}
}
