package bfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// sourceLists are the source lists a search from chosen sources is
// checked on, for a graph of n vertices: none, one, the first and last,
// every vertex (in order and reversed), repeats unsorted, 65 (one past
// a word) and random lists of up to 2n with repeats.
func sourceLists(rng *rand.Rand, n int) []struct {
	name string
	srcs []int32
} {
	type list = struct {
		name string
		srcs []int32
	}
	out := []list{{"none", []int32{}}}
	if n == 0 {
		return out
	}
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	rev := slices.Clone(all)
	slices.Reverse(rev)
	out = append(out, list{"one", []int32{int32(rng.IntN(n))}}, list{"last", []int32{int32(n - 1)}},
		list{"ends", []int32{int32(n - 1), 0}}, list{"all", all}, list{"all reversed", rev},
		list{"repeats", []int32{int32(n / 2), 0, int32(n / 2), int32(n - 1), 0, int32(n / 2)}})
	var s65 []int32
	for range 65 {
		s65 = append(s65, int32(rng.IntN(n)))
	}
	out = append(out, list{"65", s65})
	for r := range 2 {
		var s []int32
		for range rng.IntN(2*n) + 1 {
			s = append(s, int32(rng.IntN(n)))
		}
		out = append(out, list{fmt.Sprintf("random %d", r), s})
	}
	return out
}

// refFrom is the reference's answer from srcs: the Summary as RowsFrom
// gives it and the distances, from plain BFS over the test's own lists.
func (tg testGraph) refFrom(srcs []int32) (*Summary, []int32) {
	s := &Summary{Rows: make([]reduce.Row, len(srcs)), Hist: []int64{0}}
	dist := make([]int32, 0, len(srcs)*tg.n)
	for i, u := range srcs {
		d := tg.refDist(int(u))
		dist = append(dist, d...)
		r := &s.Rows[i]
		for v, x := range d {
			switch {
			case v == int(u):
			case x < 0:
				r.Unreach = true
			default:
				r.AddInt(int64(x))
				s.Hist = grow(s.Hist, int(x))
				s.Hist[x]++
			}
		}
	}
	return s, dist
}

// fromConfigs are the layouts a search from chosen sources is checked
// in besides fromConfig's: every W and kernel, split levels.
func fromConfigs() []config {
	var out []config
	for _, w := range []int{1, 2, 3, 4, 8} {
		for _, noAsm := range []bool{false, true} {
			if noAsm && (w == 3 || w == 2) {
				continue // the same generic Go pull either way
			}
			out = append(out, config{words: w, outer: 2, inner: 1, noAsm: noAsm, histOnly: true})
		}
	}
	return append(out, config{words: 4, outer: 1, inner: 2, histOnly: true}, config{words: 8, outer: 1, inner: 3, histOnly: true},
		config{words: 2, outer: 2, inner: 2, noAsm: true, histOnly: true}, config{words: 1, outer: 3, inner: 2, histOnly: true})
}

// checkFrom compares BitRowsFrom and BitDistancesFrom (on threads
// threads, and in every layout of fromConfigs) with want and wantDist.
func checkFrom(t *testing.T, name string, g *graph.Graph, srcs []int32, threads int, want *Summary, wantDist []int32) {
	t.Helper()
	ctx := context.Background()
	layouts := []struct {
		name   string
		layout func(int) config
	}{{"default", func(k int) config { return fromConfig(threads, g.N(), k) }}}
	for _, cfg := range fromConfigs() {
		layouts = append(layouts, struct {
			name   string
			layout func(int) config
		}{cfg.String(), func(int) config { return cfg }})
	}
	for _, l := range layouts {
		got, err := rowsFromIn(ctx, g, srcs, l.layout, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", name, l.name, err)
		}
		checkSummary(t, name+" rows "+l.name, got, want)
		d, err := distancesFromIn(ctx, g, srcs, l.layout, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", name, l.name, err)
		}
		if !slices.Equal(d, wantDist) {
			t.Fatalf("%s %s: distances %v, want %v", name, l.name, d, wantDist)
		}
	}
}

// TestBitFromRandomGraphs: the bit-parallel search from chosen sources
// against plain BFS over the test's own lists, on the random graphs
// (directed and not, disconnected, empty, dense, long paths), every
// source list of sourceLists, in every layout.
func TestBitFromRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 64))
	ctx := context.Background()
	for i, tg := range randomGraphs(t) {
		if testing.Short() && i%7 != 0 {
			continue
		}
		threads := 1 + i%3
		for _, l := range sourceLists(rng, tg.n) {
			name := fmt.Sprintf("%s sources %s", tg.name, l.name)
			want, wantDist := tg.refFrom(l.srcs)
			// RowsFrom, the plain engine, agrees with the reference too.
			plain, err := RowsFrom(ctx, tg.g, l.srcs, threads, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSummary(t, name+" RowsFrom", plain, want)
			checkFrom(t, name, tg.g, l.srcs, threads, want, wantDist)
		}
	}
}

// TestBitFromTable: the table's unweighted cases from every vertex and
// from lists with repeats, against the table's distances.
func TestBitFromTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 65))
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		if c.Graph.Kind() != graph.Unweighted {
			continue
		}
		wantM, err := DistancesFrom(context.Background(), c.Graph, allOf(c.N), 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows, hist := c.Rows(true), c.Hist()
		checkFrom(t, c.Name+" every vertex", c.Graph, allOf(c.N), 2, &Summary{Rows: rows, Hist: hist}, wantM)
		for _, l := range sourceLists(rng, c.N) {
			want := &Summary{Rows: make([]reduce.Row, len(l.srcs)), Hist: []int64{0}}
			var wantDist []int32
			for i, s := range l.srcs {
				want.Rows[i] = rows[s]
				wantDist = append(wantDist, wantM[int(s)*c.N:(int(s)+1)*c.N]...)
				for _, d := range wantM[int(s)*c.N : (int(s)+1)*c.N] {
					if d > 0 {
						want.Hist = grow(want.Hist, int(d))
						want.Hist[d]++
					}
				}
			}
			checkFrom(t, c.Name+" sources "+l.name, c.Graph, l.srcs, 1+i%3, want, wantDist)
		}
	}
}

func allOf(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// TestBitFromLarge: graphs large enough that the assembly pull runs in
// several slices and the default layout splits levels in parts, from
// 600 sources with repeats (two batches of up to 512), against RowsFrom
// and DistancesFrom.
func TestBitFromLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large graphs")
	}
	rng := rand.New(rand.NewPCG(28, 66))
	ctx := context.Background()
	for _, directed := range []bool{false, true} {
		tg := randomGraph(t, rng, 20000, directed, 3.0/20000)
		for _, k := range []int{1, 65, 600} {
			srcs := make([]int32, k)
			for i := range srcs {
				srcs[i] = int32(rng.IntN(tg.n))
			}
			want, err := RowsFrom(ctx, tg.g, srcs, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantDist, err := DistancesFrom(ctx, tg.g, srcs, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 2, 3} {
				name := fmt.Sprintf("%s %d sources %d threads", tg.name, k, threads)
				got, err := BitRowsFrom(ctx, tg.g, srcs, threads, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkSummary(t, name, got, want)
				d, err := BitDistancesFrom(ctx, tg.g, srcs, threads, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(d, wantDist) {
					t.Fatalf("%s: distances differ from DistancesFrom", name)
				}
			}
		}
	}
}

// TestBitFromErrors: a source out of range is refused; a cancelled
// context stops the search; progress reaches 1.
func TestBitFromErrors(t *testing.T) {
	tg := randomGraph(t, rand.New(rand.NewPCG(1, 1)), 100, false, 0.05)
	ctx := context.Background()
	for _, bad := range [][]int32{{100}, {-1}, {3, 100}} {
		if _, err := BitRowsFrom(ctx, tg.g, bad, 1, nil); err == nil {
			t.Errorf("rows from %v: no error", bad)
		}
		if _, err := BitDistancesFrom(ctx, tg.g, bad, 1, nil); err == nil {
			t.Errorf("distances from %v: no error", bad)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := BitRowsFrom(cancelled, tg.g, []int32{1, 2}, 1, nil); err == nil {
		t.Error("cancelled: no error")
	}
	var last float64
	if _, err := BitRowsFrom(ctx, tg.g, allOf(100), 2, func(f float64) { last = max(last, f) }); err != nil || last != 1 {
		t.Errorf("progress reached %v (%v)", last, err)
	}
}

// TestFromConfig: the fewest batches, W as small as they allow, no
// thread idle while a batch can be split.
func TestFromConfig(t *testing.T) {
	most := words()
	for _, tc := range []struct{ threads, n, k, batches int }{
		{2, 65536, 1, 1}, {2, 65536, 64, 1}, {2, 65536, 65, 1}, {2, 65536, 256, 1},
		{2, 65536, 64*most + 1, 2}, {4, 65536, 3 * 64 * most, 3}, {2, 100, 256, 1}, {1, 1 << 20, 100000, (100000 + 64*most - 1) / (64 * most)},
	} {
		cfg := fromConfig(tc.threads, tc.n, tc.k)
		size := 64 * cfg.words
		if got := (tc.k + size - 1) / size; got != tc.batches || (cfg.words > 1 && 32*cfg.words >= (tc.k+got-1)/got) || cfg.words > most {
			t.Errorf("%+v: %d batches of w = %d", tc, got, cfg.words)
		}
		if cfg.outer*cfg.inner > max(tc.threads, 1) || !cfg.histOnly {
			t.Errorf("%+v: %+v", tc, cfg)
		}
	}
}

// BenchmarkRowsFrom times a summary from k random sources of issue 28's
// graph (gen regular n=65536 d=8 seed=1): the plain search, the
// bit-parallel one in its default layout, and the layouts of two threads
// (a batch split in two parts against two batches of half the words);
// and BitRows, every source, the yardstick (issue 28: k sources should
// cost about k/n of it).
func BenchmarkRowsFrom(b *testing.B) {
	spec, err := gen.ParseSpec("regular", []string{"n=65536", "d=8", "seed=1"})
	if err != nil {
		b.Fatal(err)
	}
	g, err := gen.Generate(spec)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("all/BitRows", func(b *testing.B) {
		for b.Loop() {
			if _, err := BitRows(context.Background(), g, 0, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	rng := rand.New(rand.NewPCG(28, 1))
	for _, k := range []int{1, 16, 64, 256, 1024} {
		srcs := make([]int32, k)
		for i, v := range rng.Perm(g.N())[:k] {
			srcs[i] = int32(v)
		}
		runs := []struct {
			name string
			run  func() (*Summary, error)
		}{
			{"bfs", func() (*Summary, error) { return RowsFrom(context.Background(), g, srcs, 0, nil) }},
			{"bitbfs", func() (*Summary, error) { return BitRowsFrom(context.Background(), g, srcs, 0, nil) }},
		}
		if k >= 128 {
			w := fromConfig(2, g.N(), k).words
			runs = append(runs, struct {
				name string
				run  func() (*Summary, error)
			}{"bitbfs-2x-half-w", func() (*Summary, error) {
				return rowsFromIn(context.Background(), g, srcs, func(int) config { return config{words: max(1, w/2), outer: 2, inner: 1, histOnly: true} }, nil)
			}})
		}
		for _, r := range runs {
			b.Run(fmt.Sprintf("k=%d/%s", k, r.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := r.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestCountColumns: the column counters (the assembly where the CPU has
// it, and Go) give each lane's count of set bits, over lists long enough
// to carry past plane 7 and to need several assembly calls, dense and
// sparse words, and repeated calls adding to the counts.
func TestCountColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 67))
	for _, w := range []int{1, 2, 3, 4, 8} {
		for _, n := range []int{0, 15, 16, 17, 300, 5000, 40000} {
			for _, density := range []uint64{0, 1, 2, 8} { // 0: every bit; d: one bit in 2^d set
				next := make([]uint64, n*w)
				for i := range next {
					x := ^uint64(0)
					for range density {
						x &= rng.Uint64()
					}
					next[i] = x
				}
				list := make([]int32, n)
				for i := range list {
					list[i] = int32(rng.IntN(max(n, 1)))
				}
				want := make([]int64, 64*w)
				for range 2 { // twice into the same counters
					for _, v := range list {
						for j := range w {
							for b := range 64 {
								want[j*64+b] += int64(next[int(v)*w+j] >> b & 1)
							}
						}
					}
				}
				for _, noAsm := range []bool{false, true} {
					planes := make([]uint64, fromPlanes*w)
					countColumns(planes, next, list[:n/2], w, noAsm)
					countColumns(planes, next, list[n/2:], w, noAsm)
					countColumns(planes, next, list, w, !noAsm)
					got := make([]int64, 64*w)
					for i, x := range planes {
						q, j := i/w, i%w
						for b := range 64 {
							got[j*64+b] += int64(x>>b&1) << q
						}
					}
					if !slices.Equal(got, want) {
						t.Fatalf("w=%d n=%d density 2^-%d noAsm %v: counts differ", w, n, density, noAsm)
					}
				}
			}
		}
	}
}
