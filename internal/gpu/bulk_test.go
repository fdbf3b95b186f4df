package gpu

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
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/reduce"
)

// bulkGraph is a random unweighted graph of n vertices where each vertex
// draws deg arcs (edges when undirected) to random vertices, and isolated
// vertices have none: directed graphs, several components, vertices that
// reach nothing all occur.
func bulkGraph(rng *rand.Rand, n, deg int, directed bool, isolated float64) *graph.Graph {
	b := graph.NewBuilder(directed)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	for u := 0; u < n; u++ {
		if rng.Float64() < isolated {
			continue
		}
		for range deg {
			v := rng.IntN(n)
			if v == u {
				continue
			}
			if err := b.AddEdge(u, v); err != nil {
				panic(err)
			}
		}
	}
	return b.Build()
}

// bulkCases returns count random graphs of every shape the kernels meet:
// sizes at the word and warp edges and random ones up to BulkMaxN,
// directed or not, sparse (disconnected) to dense (the arcs too many for
// shared memory), with isolated vertices.
func bulkCases(rng *rand.Rand, count int) []*graph.Graph {
	edges := []int{1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 255, 256, 257, 300, 511, 512, 513, 700, 1000, 1023, 1024}
	var gs []*graph.Graph
	for i := 0; i < count; i++ {
		n := 1 + rng.IntN(BulkMaxN)
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
			if got[i][v] != want[i][v] {
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
	want := make([][]reduce.Row, len(gs))
	for i, g := range gs {
		want[i] = wantRows(t, g)
	}
	matched := 0
	// BulkRows itself: the whole set, then one graph a call.
	got, err := BulkRows(ctx, 0, gs)
	if err != nil {
		t.Fatal(err)
	}
	matched += sameRows(t, "BulkRows(all)", gs, want, got)
	for i := 0; i < len(gs); i += 7 {
		got, err := BulkRows(ctx, 0, gs[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		matched += sameRows(t, fmt.Sprintf("BulkRows(graph %d)", i), gs[i:i+1], want[i:i+1], got)
	}
	// Every shape.
	for _, w := range []int{0, 1, 2, 4} {
		for _, mb := range []int{1, 2} {
			for _, c := range []bulkConfig{
				{Words: w, Half: w == 0, MinBlocks: mb},
				{Words: w, Half: w == 0, MinBlocks: mb, NoShared: true, Split: 3},
				{Words: w, Half: w == 0, MinBlocks: mb, ChunkBytes: 200 << 10, Split: 1},
			} {
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
	t.Logf("%d graph results (%d distinct graphs, n = 0..%d) matched bfs.BitRows exactly", matched, len(gs), BulkMaxN)
}

// TestBulkRowsRefuses needs no GPU: weighted graphs and graphs above
// BulkMaxN are refused before the device is touched.
func TestBulkRowsRefuses(t *testing.T) {
	b := graph.NewBuilder(true)
	if err := b.SetVertices(3); err != nil {
		t.Fatal(err)
	}
	if err := b.AddIntEdge(0, 1, 5); err != nil {
		t.Fatal(err)
	}
	weighted := b.Build()
	big := bulkGraph(rand.New(rand.NewPCG(1, 2)), BulkMaxN+1, 2, false, 0)
	for _, c := range []struct {
		name string
		gs   []*graph.Graph
	}{{"weighted", []*graph.Graph{weighted}}, {"too large", []*graph.Graph{big}}, {"nil", []*graph.Graph{nil}}} {
		_, err := BulkRows(context.Background(), 0, c.gs)
		if !errors.Is(err, ErrBulkGraph) {
			t.Errorf("%s: got %v, want ErrBulkGraph", c.name, err)
		}
	}
	if _, _, err := bulkRows(context.Background(), 0, nil, bulkConfig{Words: 3}); err == nil {
		t.Error("3 words: want an error")
	}
	if got, err := BulkRows(context.Background(), 0, nil); err != nil || len(got) != 0 {
		t.Errorf("no graphs: got %v, %v", got, err)
	}
}

// regulars returns count random d-regular graphs of n vertices.
func regulars(tb testing.TB, count, n, d, seed int) []*graph.Graph {
	tb.Helper()
	gs := make([]*graph.Graph, count)
	parallel(count, 16, func(lo, hi int) {
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
	}
	variants := []variant{{"auto", bulkConfig{}}, {"W1", bulkConfig{Words: 1}}}
	if os.Getenv("APSP_BULK_VARIANTS") == "1" {
		variants = append(variants, variant{"H1/minb1", bulkConfig{Half: true, MinBlocks: 1}})
		for _, w := range []int{1, 2, 4} {
			for _, mb := range []int{1, 2} {
				variants = append(variants, variant{fmt.Sprintf("W%d/minb%d", w, mb), bulkConfig{Words: w, MinBlocks: mb}})
			}
		}
	}
	cases := []struct {
		name        string
		n, d, count int
		batch       int // graphs a call
	}{
		{"single/n=1024/d=16", 1024, 16, 64, 1},
		{"batch4096/n=1024/d=16", 1024, 16, 4096, 4096},
		{"batch16384/n=256/d=16", 256, 16, 16384, 16384},
	}
	for _, c := range cases {
		gs := regulars(b, c.count, c.n, c.d, 1000)
		for _, v := range variants {
			if c.batch == 1 && v.cfg.Words > 1 || c.batch > 1 && v.cfg.Half {
				continue
			}
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				if _, _, err := bulkRows(ctx, 0, gs[:min(len(gs), 64)], v.cfg); err != nil { // warm up: compile, pools
					b.Fatal(err)
				}
				var kernel, device []float64
				var wall, prep, wait, conv []time.Duration
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
						rows, tm, err = bulkRows(ctx, 0, part, v.cfg)
						if err != nil {
							b.Fatal(err)
						}
						wall = append(wall, time.Since(start))
						prep, wait, conv = append(prep, tm.Prep), append(wait, tm.Wait), append(conv, tm.Convert)
						kernel = append(kernel, tm.Kernel)
						device = append(device, tm.Device)
						i++
					}
				}
				per := float64(c.batch)
				sort.Float64s(kernel)
				sort.Float64s(device)
				for _, d := range [][]time.Duration{wall, prep, wait, conv} {
					slices.Sort(d)
				}
				medK, medD, medW := kernel[len(kernel)/2], device[len(device)/2], wall[len(wall)/2]
				b.ReportMetric(float64(medW.Nanoseconds())/1e3/per, "us/graph")
				b.ReportMetric(medK*1e3/per, "kernel-us/graph")
				b.ReportMetric(medD*1e3/per, "device-us/graph")
				bytes := frontierBytes(part, rows)
				b.ReportMetric(bytes/(medK/1e3)/1e12, "frontier-TB/s")
				b.ReportMetric(float64(tm.InBytes+tm.OutBytes)/(medD/1e3)/1e9, "bus-GB/s")
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
	if need := 12 * uint64(ch.rows); need > ch.outBytes {
		t.Fatalf("chunk of %d rows has %d output bytes, want %d", ch.rows, ch.outBytes, need)
	}
	if ch.rows == 0 {
		return // nothing to write (and in+inBytes would point past the buffer)
	}
	out := unsafe.Slice((*uint32)(unsafe.Add(in, ch.inBytes)), 3*ch.rows)
	for i := range out {
		out[i] = 0xdeadbeef // the kernels must write every output
	}
	if ch.anySplit {
		clear(out)
	}
	reach, sum, ecc := out[:ch.rows], out[ch.rows:2*ch.rows], out[2*ch.rows:]
	W := ch.words
	B := ch.batchSize() / W // bits per word
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
			if n > gr.threads || need > gr.shared || gr.threads > 1024 || gr.threads%32 != 0 {
				t.Fatalf("graph of %d vertices in a launch of %d threads and %d shared bytes", n, gr.threads, gr.shared)
			}
			off := region[g[2]:]
			heads := off[n+1:]
			r, s, e := make([]uint32, n), make([]uint32, n), make([]uint32, n)
			cur, nxt := make([]uint64, n*W), make([]uint64, n*W)
			vis := make([]uint64, n*W)
			for b := int(task[1]); b < int(task[1]+task[2]); b++ {
				first := b * B * W
				for v := 0; v < n; v++ {
					for w := 0; w < W; w++ {
						s0 := first + B*w
						var absent, self uint64
						switch {
						case s0 >= n:
							absent = ones
						case n-s0 < B:
							absent = ones << (n - s0) & ones
						}
						if v >= s0 && v < s0+B {
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
							for i := off[v]; i < off[v+1]; i++ {
								u := int(heads[i])
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
			if _, err := do(ctx, 0, f); err != nil {
				b.Fatal(err)
			}
			var wall []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := do(ctx, 0, f); err != nil {
					b.Fatal(err)
				}
				wall = append(wall, time.Since(start))
			}
			slices.Sort(wall)
			b.ReportMetric(float64(wall[len(wall)/2].Nanoseconds())/1e3, "median-us")
		})
	}
}
