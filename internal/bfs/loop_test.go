package bfs

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/par"
)

// loop16 returns the random 16-regular graph of the search-loop
// benchmarks (the comparison with ODP).
func loop16(tb testing.TB, n, seed int) *graph.Graph {
	tb.Helper()
	g, err := gen.Make("regular", fmt.Sprintf("n=%d", n), "d=16", fmt.Sprintf("seed=%d", seed))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkBitRowsLoop is BitRows called again and again on one random
// 16-regular graph with every thread: the engine's share of a search
// loop's ComputeStats.
func BenchmarkBitRowsLoop(b *testing.B) {
	for _, n := range []int{1024, 4096, 16384} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := loop16(b, n, 1)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := BitRows(context.Background(), g, 0, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reuseGraphs are graphs of several sizes and kinds that share the
// package's pooled buffers and teams when run one after another.
func reuseGraphs(t *testing.T) []*graph.Graph {
	t.Helper()
	var gs []*graph.Graph
	for _, c := range []struct{ kind, a, b, c string }{
		{"regular", "n=1024", "d=16", "seed=1"},
		{"regular", "n=700", "d=5", "seed=2"},
		{"regular", "n=2048", "d=3", "seed=3"},
		{"grid", "a=40", "b=30", "seed=4"},
		{"regular", "n=1024", "d=16", "seed=5"},
		{"gnp", "n=300", "r=2", "seed=6"},
	} {
		g, err := gen.Make(c.kind, c.a, c.b, c.c)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	// A directed graph and a disconnected one, so that the transpose and
	// unreached pairs go through reused buffers too.
	dg, err := gen.Make("gnp", "n=500", "r=1", "seed=7", "directed")
	if err != nil {
		t.Fatal(err)
	}
	return append(gs, dg)
}

// TestBitRowsReuse runs BitRows and Matrix over graphs of different sizes
// in turn, several rounds, with the thread counts and layouts that share
// pooled buffers and teams, and checks every result against the plain
// per-source BFS: buffers left by one graph must not leak into the next.
func TestBitRowsReuse(t *testing.T) {
	gs := reuseGraphs(t)
	want := make([]*Summary, len(gs))
	wantM := make([][]int32, len(gs))
	for i, g := range gs {
		s, err := Rows(context.Background(), g, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		want[i], wantM[i] = s, referenceMatrix(g)
	}
	cfgs := []config{defaultConfig(0, 1024), {words: words(), outer: 2, inner: 1}, {words: words(), outer: 1, inner: 3}, {words: 2, outer: 2, inner: 2},
		{words: words(), outer: 2, inner: 3, lockstep: true}, {words: 1, outer: 3, inner: 2, lockstep: true, chunks: 2}}
	for round := range 3 {
		for i, g := range gs {
			cfg := cfgs[(i+round)%len(cfgs)]
			got, err := runBatches(context.Background(), g, cfg, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSummary(t, fmt.Sprintf("round %d graph %d %+v", round, i, cfg), got, want[i])
			m, err := Matrix(context.Background(), g, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m, wantM[i]) {
				t.Fatalf("round %d graph %d: Matrix differs from the per-source BFS", round, i)
			}
		}
	}
}

// referenceMatrix is g's distance matrix from one plain BFS per source.
func referenceMatrix(g *graph.Graph) []int32 {
	n := g.N()
	m := make([]int32, n*n)
	for s := range n {
		From(g, s, m[s*n:(s+1)*n], nil)
	}
	return m
}

// TestBitRowsReuseAfterCancel cancels runs midway, which leaves pooled
// frontiers dirty, and checks that the next runs are still exact.
func TestBitRowsReuseAfterCancel(t *testing.T) {
	gs := reuseGraphs(t)
	for i, g := range gs {
		want, err := Rows(context.Background(), g, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			ctx, cancel := context.WithCancel(context.Background())
			cfg := config{words: 1, outer: 2, inner: 2, lockstep: i%2 == 1, chunks: i % 3} // many batches, so the cancel lands midway
			if _, err := runBatches(ctx, g, cfg, func(float64) { cancel() }, nil); err == nil && g.N() > 128 {
				t.Fatalf("graph %d: cancelled run returned no error", i)
			}
			cancel()
			// The same layout, so that the dirty buffers are the ones reused.
			got, err := runBatches(context.Background(), g, cfg, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSummary(t, fmt.Sprintf("graph %d after a cancelled run", i), got, want)
			m := make([]int32, g.N()*g.N())
			if _, err := runBatches(context.Background(), g, cfg, nil, m); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m, referenceMatrix(g)) {
				t.Fatalf("graph %d after a cancelled run: the matrix differs from the per-source BFS", i)
			}
		}
	}
}

// TestBitRowsConcurrentCallers runs BitRows from several goroutines at
// once on different graphs: each run must get buffers and teams of its
// own.
func TestBitRowsConcurrentCallers(t *testing.T) {
	gs := reuseGraphs(t)
	want := make([]*Summary, len(gs))
	for i, g := range gs {
		s, err := Rows(context.Background(), g, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = s
	}
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Go(func() {
			for r := range 3 {
				i := (c + r) % len(gs)
				got, err := BitRows(context.Background(), gs[i], 2, nil)
				if err != nil {
					t.Error(err)
					return
				}
				checkSummary(t, fmt.Sprintf("caller %d graph %d", c, i), got, want[i])
			}
		})
	}
	wg.Wait()
}

// BenchmarkBitRowsLoopLayout sweeps how the threads share a graph
// (separate batches × parts of each level, and the words a vertex)
// against defaultConfig, for tuning on machines with many cores: every
// layout for n = 1024 and 4096, a few for the larger graphs.
func BenchmarkBitRowsLoopLayout(b *testing.B) {
	t := par.Threads(0)
	for _, n := range []int{1024, 4096, 16384, 65536} {
		g := loop16(b, n, 1)
		layouts := []config{defaultConfig(0, n)}
		for _, w := range []int{1, 4, 8} {
			for _, outer := range []int{1, 2, 4, 8, 16} {
				if outer > t || (n+64*w-1)/(64*w) < outer || (n > 4096 && (w == 1 || outer != 1 && outer != t)) {
					continue
				}
				layouts = append(layouts, config{words: w, outer: outer, inner: max(1, t/outer)})
				if n <= 4096 && t/outer > 2 {
					layouts = append(layouts, config{words: w, outer: outer, inner: t / outer / 2})
				}
			}
		}
		for i, cfg := range layouts {
			name := fmt.Sprintf("n=%d/w=%d/outer=%d/inner=%d", n, cfg.words, cfg.outer, cfg.inner)
			if i == 0 {
				name += "/default"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := runBatches(context.Background(), g, cfg, nil, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkBitBriefLayout is the search loop's own path (BitBrief: the
// search and the merge into a Brief, given back each call) in a few
// layouts for n = 1024 and 4096: defaultConfig, one batch of 64 sources a
// thread (W = 1), and the AVX-512 batches shared by fewer threads.
func BenchmarkBitBriefLayout(b *testing.B) {
	t := par.Threads(0)
	for _, n := range []int{1024, 4096} {
		g := loop16(b, n, 1)
		layouts := []config{defaultConfig(0, n)}
		for _, w := range []int{1, 4, 8} {
			outer := min(t, n/(64*w))
			layouts = append(layouts, config{words: w, outer: outer, inner: max(1, t/outer)})
			if t/outer > 1 {
				layouts = append(layouts, config{words: w, outer: outer, inner: max(1, t/outer/2)})
			}
		}
		for i, cfg := range layouts {
			name := fmt.Sprintf("n=%d/w=%d/outer=%d/inner=%d", n, cfg.words, cfg.outer, cfg.inner)
			if i == 0 {
				name += "/default"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					br, err := searchBrief(context.Background(), g, cfg, nil)
					if err != nil {
						b.Fatal(err)
					}
					br.Release()
				}
			})
		}
	}
}

// BenchmarkBitBriefLockstep sweeps the lockstep layout (one Run a call,
// a barrier a level; see lockstep.go) for the search loop's small graphs:
// words a vertex, groups × workers a group, and parts a worker (0: part i
// to worker i; 4: four parts a worker handed out in turn), against
// defaultConfig.
func BenchmarkBitBriefLockstep(b *testing.B) {
	t := par.Threads(0)
	for _, n := range []int{1024, 4096} {
		g := loop16(b, n, 1)
		split := defaultConfig(0, n)
		split.lockstep, split.chunks = false, 0
		layouts := []config{defaultConfig(0, n), split}
		for _, w := range []int{1, 2, 4, 8} {
			batches := (n + 64*w - 1) / (64 * w)
			for groups := 1; groups <= min(t, batches); groups *= 2 {
				for inner := 1; groups*inner <= t; inner *= 2 {
					if 2*groups*inner < t {
						continue
					}
					for _, chunks := range []int{0, 2, 4, 8} {
						if chunks > 0 && inner == 1 {
							continue
						}
						layouts = append(layouts, config{words: w, outer: groups, inner: inner, lockstep: true, chunks: chunks})
					}
				}
			}
		}
		// The default lockstep layout with other numbers of parts a
		// worker: finer parts let the others take more of a slow core's
		// share.
		if def := layouts[0]; def.lockstep {
			for _, c := range []int{1, 3, 4, 6, 8} {
				v := def
				v.chunks = c
				v.firstFromArcs = false // added back below
				if c != def.chunks && !slices.Contains(layouts, v) {
					layouts = append(layouts, v)
				}
			}
		}
		// Level 1 from the arcs, in the default layout and in lockstep
		// groups of every size.
		for i, cfg := range slices.Clone(layouts) {
			if cfg.words == 8 && (cfg.lockstep || i == 0) {
				cfg.firstFromArcs = true
				layouts = append(layouts, cfg)
			}
		}
		for i, cfg := range layouts {
			name := fmt.Sprintf("n=%d/w=%d/outer=%d/inner=%d", n, cfg.words, cfg.outer, cfg.inner)
			if cfg.lockstep {
				name += fmt.Sprintf("/lockstep/chunks=%d", cfg.chunks)
			}
			if cfg.firstFromArcs {
				name += "/first-from-arcs"
			}
			if i == 0 {
				name += "/default"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					br, err := searchBrief(context.Background(), g, cfg, nil)
					if err != nil {
						b.Fatal(err)
					}
					br.Release()
				}
			})
		}
	}
}

// BenchmarkLockstepTimeline runs the default layout and a few lockstep
// layouts on the 1024-vertex loop graph and, after the timed calls, traces
// five more: for each worker, when it started, arrived at and left each
// barrier, and ended (µs after the fork). It is for finding where a call's
// time goes on a many-core host: the fork, the work of each level, the
// barriers, the join. (On a host with few threads, two layouts may come
// out the same.)
func BenchmarkLockstepTimeline(b *testing.B) {
	t := par.Threads(0)
	g := loop16(b, 1024, 1)
	def := defaultConfig(0, 1024)
	layouts := []config{def}
	if def.lockstep && def.chunks > 0 {
		finer := def
		finer.chunks *= 2
		layouts = append(layouts, finer)
	}
	for _, cfg := range append(layouts, []config{
		{words: 8, outer: 2, inner: max(1, t/4), lockstep: true},
		{words: 8, outer: 2, inner: max(1, t/4), lockstep: true, chunks: 4},
		{words: 4, outer: 4, inner: max(1, t/8), lockstep: true},
		{words: 8, outer: 2, inner: max(1, t/2), lockstep: true, chunks: 4},
	}...) {
		name := fmt.Sprintf("w=%d/outer=%d/inner=%d", cfg.words, cfg.outer, cfg.inner)
		if cfg.lockstep {
			name += fmt.Sprintf("/lockstep/chunks=%d", cfg.chunks)
		}
		b.Run(name, func(b *testing.B) {
			run := func(cfg config) {
				br, err := searchBrief(context.Background(), g, cfg, nil)
				if err != nil {
					b.Fatal(err)
				}
				br.Release()
			}
			for b.Loop() {
				run(cfg)
			}
			// Back in the loop's steady state (the benchmark's own
			// bookkeeping stops the world) before the traced calls,
			// which go to stdout: the benchmark log is cut short.
			for range 100 {
				run(cfg)
			}
			traces := make([]*stepTrace, 5)
			for c := range traces {
				traces[c] = &stepTrace{base: time.Now(), at: make([][]stepEvent, cfg.outer*cfg.inner)}
				traced := cfg
				traced.trace = traces[c]
				run(traced)
			}
			for c, tr := range traces {
				fmt.Printf("%s call %d:\n%s", name, c, tr)
			}
		})
	}
}

// String lays the trace out a line per worker, in µs after the fork.
func (t *stepTrace) String() string {
	var out []byte
	fork := int64(0)
	for _, e := range t.at[0] {
		if e.what == 'r' {
			fork = e.ns
		}
	}
	for k, evs := range t.at {
		out = fmt.Appendf(out, "w%02d", k)
		for _, e := range evs {
			out = fmt.Appendf(out, " %c%.1f", e.what, float64(e.ns-fork)/1e3)
		}
		out = append(out, '\n')
	}
	return string(out)
}
