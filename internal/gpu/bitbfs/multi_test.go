package bitbfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/reduce"
)

// bitPartial is what one GPU's totals would be after searching the batches
// of spans (size sources a batch): per vertex v, over the sources s of its
// batches that reach v, the sum and count of d(s, v) and its largest, and
// the histogram — from the CPU's distance matrix (-1 for no path).
func bitPartial(dist []int32, n, size int, spans []gpu.Span) bitSums {
	t := bitSums{sums: make([]uint64, n), harm: make([]float64, n), reach: make([]uint32, n), ecc: make([]uint32, n), hist: make([]int64, n)}
	for _, sp := range spans {
		for s := sp.Lo * size; s < min(sp.Hi*size, n); s++ {
			for v := range n {
				if d := dist[s*n+v]; d > 0 {
					t.sums[v] += uint64(d)
					t.harm[v] += 1 / float64(d)
					t.reach[v]++
					t.ecc[v] = max(t.ecc[v], uint32(d))
					t.hist[d]++
				}
			}
		}
	}
	return t
}

// sameRows reports whether a and b are the same rows (reduce.Same: Σ 1/d
// within a relative 1e-12).
func sameRows(a, b []reduce.Row) bool {
	return slices.EqualFunc(a, b, reduce.Same)
}

// TestBitTotalsMergeEqualsWhole merges the partial totals of every split
// of random graphs' batches (1 to 6 GPUs, more GPUs than batches, batches
// of a few sources) and compares the rows and histogram with those of one
// run over every batch: they must be identical (Σ 1/d within reduce.Same's
// tolerance).
func TestBitTotalsMergeEqualsWhole(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	for i, g := range bitCases(rng, 40) {
		if g.N() > 700 {
			continue
		}
		n := g.N()
		dist, err := bfs.Matrix(ctx, g, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		size := []int{1, 7, 64, 128}[i%4]
		batches := (n + size - 1) / size
		whole := bitPartial(dist, n, size, []gpu.Span{{Lo: 0, Hi: batches}})
		wantRows, wantHist := bitSummaries(whole), trimHist(whole.hist)
		if i%5 == 0 {
			// The whole agrees with the CPU's bitbfs (rows of an undirected
			// graph are its columns).
			if s, err := bfs.BitRows(ctx, g, 0, nil); err != nil || !slices.Equal(s.Hist, wantHist) {
				t.Fatalf("graph %d: whole histogram %v, bitbfs %v (%v)", i, wantHist, s.Hist, err)
			}
		}
		for k := 1; k <= 6; k++ {
			for _, unit := range []int{1, 2, 5} {
				tot := &bitTotals{}
				for _, ss := range gpu.SplitWork(batches, unit, k) {
					if len(ss) > 0 { // as OnEach: a GPU without batches does not run
						tot.add(bitPartial(dist, n, size, ss))
					}
				}
				name := fmt.Sprintf("graph %d (n=%d, %d batches of %d) on %d GPUs in chunks of %d", i, n, batches, size, k, unit)
				if got := bitSummaries(tot.bitSums); !sameRows(got, wantRows) {
					t.Fatalf("%s: merged rows differ", name)
				}
				if got := trimHist(tot.hist); !slices.Equal(got, wantHist) {
					t.Fatalf("%s: histogram %v, want %v", name, got, wantHist)
				}
			}
		}
	}
	// Totals that add nothing (a GPU whose batches reach nothing) change
	// nothing.
	tot := &bitTotals{}
	tot.add(bitSums{sums: []uint64{3, 0}, harm: []float64{1.0 / 3, 0}, reach: []uint32{1, 0}, ecc: []uint32{3, 0}, hist: []int64{0, 0, 0, 1}})
	tot.add(bitSums{sums: make([]uint64, 2), harm: make([]float64, 2), reach: make([]uint32, 2), ecc: make([]uint32, 2), hist: make([]int64, 2)})
	if !slices.Equal(tot.sums, []uint64{3, 0}) || !slices.Equal(tot.harm, []float64{1.0 / 3, 0}) || !slices.Equal(trimHist(tot.hist), []int64{0, 0, 0, 1}) {
		t.Fatalf("zeros changed the totals: %+v", tot)
	}
}

// multiLists is the lists of GPUs the GPU tests split over: GPU 0 twice and
// three times (the test hook that exercises the split and merge on one
// GPU: the same GPU runs each share in turn), and every GPU, both ways
// round, where there are several.
func multiLists(t *testing.T) [][]int {
	t.Helper()
	lists := [][]int{{0, 0}, {0, 0, 0}}
	all, err := gpu.Visible()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) > 1 {
		back := slices.Clone(all)
		slices.Reverse(back)
		lists = append(lists, all, back)
	}
	return lists
}

// TestBitRowsOnSeveralGPUs runs gpu-bitbfs split over several GPUs (or GPU
// 0 listed twice and three times) on random graphs, directed and not,
// disconnected, with more GPUs than batches and batches of 128 sources
// (many per GPU): rows and histogram identical to one GPU's and to the
// CPU's bitbfs, and the matrix to the CPU's on the small ones.
func TestBitRowsOnSeveralGPUs(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 42))
	gs := bitCases(rng, 60)
	for seed, spec := range [][]string{{"n=20000", "d=6"}, {"n=70000", "d=8"}} {
		g, err := gen.Make("regular", spec[0], spec[1], fmt.Sprintf("seed=%d", seed+1))
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	gs = append(gs, bitGraph(rng, 30000, 2, true, 0.3), bitGraph(rng, 9000, 3, false, 0.1))
	lists := multiLists(t)
	configs := []bitConfig{{}, {Words: 2, Slots: 3}, {Words: 2, Slots: 1}}
	compared := 0
	for i, g := range gs {
		want := cpuSummary(t, g)
		for j, cfg := range configs {
			if j > 0 && i%len(configs) != j && g.N() < 10000 {
				continue
			}
			one, err := bitRows(ctx, 0, g, cfg)
			if err != nil {
				t.Fatal(err)
			}
			sameSummary(t, fmt.Sprintf("graph %d on gpu:0 %+v", i, cfg), g, want, one)
			for _, ords := range lists {
				got, err := bitRowsOn(ctx, ords, g, cfg)
				if err != nil {
					t.Fatalf("graph %d on %v: %v", i, ords, err)
				}
				name := fmt.Sprintf("graph %d on %v %+v", i, ords, cfg)
				sameSummary(t, name, g, want, got)
				if !sameRows(got.Rows, one.Rows) || !slices.Equal(got.Hist, one.Hist) || got.Device == "" {
					t.Fatalf("%s: differs from one GPU's (device %q)", name, got.Device)
				}
				if j == 0 {
					sameBrief(t, name, ords, g, cfg, want)
					sameTotals(t, name, ords, g, cfg, want)
				}
				compared++
			}
		}
		if i%7 == 0 && g.N() <= 2100 {
			ref, err := bfs.Matrix(ctx, g, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, ords := range lists {
				dist, dev, err := bitMatrixOn(ctx, ords, g, configs[i%len(configs)])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(dist, ref) || dev == "" {
					t.Fatalf("graph %d (n=%d) on %v: the matrix differs from the CPU's (device %q)", i, g.N(), ords, dev)
				}
				compared++
			}
		}
	}
	t.Logf("%d split runs (lists %v) matched one GPU and the CPU", compared, lists)
}

// TestSeveralGPUsReportEach: with several GPUs each one's timing comes
// back, and the device names them all.
func TestSeveralGPUsReportEach(t *testing.T) {
	requireGPU(t)
	g, err := gen.Make("regular", "n=5000", "d=4", "seed=3")
	if err != nil {
		t.Fatal(err)
	}
	r, err := bitRowsOn(context.Background(), []int{0, 0}, g, bitConfig{Words: 2, Slots: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.PerGPU) != 2 || r.PerGPU[0].Groups == 0 || r.PerGPU[1].Groups == 0 || !strings.Contains(r.Device, "gpu:0,0") {
		t.Fatalf("per GPU %+v, device %q", r.PerGPU, r.Device)
	}
	t.Logf("device %q; groups %d and %d", r.Device, r.PerGPU[0].Groups, r.PerGPU[1].Groups)
}

// TestBitPerfSeveral times gpu-bitbfs on GPU 0 alone and split over every
// GPU (gpu:all) on random regular graphs, APSP_MGPU_PERF="n:d,...": after
// a warm-up of each, three timed calls of each in turn (the library call
// as apsp stats makes it: padding, upload, search, merge, rows); the split
// result must equal GPU 0's, and the CPU's bitbfs up to 65 536 vertices.
func TestBitPerfSeveral(t *testing.T) {
	spec := os.Getenv("APSP_MGPU_PERF")
	if spec == "" {
		t.Skip("APSP_MGPU_PERF not set")
	}
	requireGPU(t)
	all, err := gpu.Visible()
	if err != nil {
		t.Fatal(err)
	}
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
		lists := [][]int{{all[0]}, all}
		times := make([][]float64, len(lists))
		results := make([]*Result, len(lists))
		for rep := range 4 {
			for li, ords := range lists {
				start := time.Now()
				r, err := bitRowsOn(ctx, ords, g, bitConfig{})
				if err != nil {
					t.Fatal(err)
				}
				if rep > 0 {
					times[li] = append(times[li], time.Since(start).Seconds()*1e3)
				}
				results[li] = r
			}
		}
		one := results[0]
		for li, r := range results {
			if !slices.Equal(r.Rows, one.Rows) || !slices.Equal(r.Hist, one.Hist) {
				t.Fatalf("n=%d d=%d on %v: differs from gpu:%d", n, d, lists[li], all[0])
			}
		}
		if n <= 1<<16 {
			sameSummary(t, fmt.Sprintf("n=%d d=%d", n, d), g, cpuSummary(t, g), results[len(results)-1])
		}
		diam, sum, pairs := len(one.Hist)-1, int64(0), int64(0)
		for k, c := range one.Hist {
			sum += int64(k) * c
			pairs += c
		}
		for li, ords := range lists {
			ts := times[li]
			slices.Sort(ts)
			r := results[li]
			per := []Timing{r.Timing}
			if r.PerGPU != nil {
				per = r.PerGPU
			}
			var parts []string
			for i, tm := range per {
				parts = append(parts, fmt.Sprintf("gpu:%d search %.1f ms total %.1f ms groups %d prep %.1f ms finish %.1f ms",
					ords[i], tm.Search, tm.Total, tm.Groups, tm.Prep.Seconds()*1e3, tm.Finish.Seconds()*1e3))
			}
			t.Logf("RESULT n=%d d=%d on %v (%s): wall %.1f / %.1f / %.1f ms (median %.1f); diameter %d ASPL %.9f pairs %d; %s",
				n, d, ords, r.Device, ts[0], ts[1], ts[2], ts[1], diam, float64(sum)/float64(pairs), pairs, strings.Join(parts, "; "))
		}
	}
}

// checkSplit is gputest.CheckSplit of gpu.Span.
func checkSplit(t *testing.T, name string, spans [][]gpu.Span, total, unit, k int) {
	t.Helper()
	gputest.CheckSplit(t, name, spans, func(s gpu.Span) (int, int) { return s.Lo, s.Hi }, total, unit, k)
}

// TestBitSplit: the batches of gpu-bitbfs runs are all covered, in groups
// of the default slots, on 1 to 5 GPUs; a matrix one batch a span (the
// bitbfs part of the base's TestSplitWork).
func TestBitSplit(t *testing.T) {
	for _, n := range []int{1, 100, 2048, 2049, 65536, 262144, 1000000} {
		for k := 1; k <= 5; k++ {
			for _, dist := range []bool{false, true} {
				for _, cfg := range []bitConfig{{}, {Words: 2, Slots: 3}} {
					p, err := planBit(n, 0, cfg, ^uint64(0)>>2, dist)
					if err != nil {
						t.Fatal(err)
					}
					spans, err := bitSplit(n, cfg, k, dist)
					if err != nil {
						t.Fatal(err)
					}
					checkSplit(t, fmt.Sprintf("bitbfs n=%d k=%d dist=%v %+v", n, k, dist, cfg), spans, p.batches, p.slots, k)
				}
			}
		}
	}
	if _, err := bitSplit(100, bitConfig{Words: 3}, 2, false); err == nil {
		t.Fatal("bitSplit took 3 words")
	}
}

// TestSummariesOverwriteReused: rows from the pool hold a former call's
// values; bitSummaries must set every field of every row (no GPU).
func TestSummariesOverwriteReused(t *testing.T) {
	n := 300
	s := bitSums{sums: make([]uint64, n), harm: make([]float64, n), reach: make([]uint32, n), ecc: make([]uint32, n)}
	for v := range n {
		s.sums[v], s.harm[v], s.reach[v], s.ecc[v] = uint64(3*v), float64(v)/7, uint32(v%(n-1)), uint32(v%5)
	}
	want := slices.Clone(bitSummaries(s))
	junk := reduce.NewRows(n)
	for v := range junk {
		junk[v] = reduce.Row{Reach: -1, MaxI: -2, MaxF: 3, SumF: 4, Harm: 5, Unreach: true}
		junk[v].Sum.Add(-9)
	}
	reduce.ReleaseRows(junk)
	if got := bitSummaries(s); !slices.Equal(got, want) {
		t.Fatal("rows built over reused ones differ from fresh ones")
	}
}
