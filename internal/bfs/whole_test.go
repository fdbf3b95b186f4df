package bfs

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/testgraphs"
)

// wholeKernels are the whole search's level kernels under test: Go's and
// the one WholeHist uses here (the assembly where the CPU has it).
var wholeKernels = []struct {
	name  string
	level wholeLevelFunc
}{{"go", wholeLevelGo}, {"level", wholeLevel}}

// checkWhole compares the whole search's histogram of g, with every
// kernel, in one batch and in batches of several sizes, and through
// WholeHist, with want.
func checkWhole(t *testing.T, name string, g *graph.Graph, want []int64) {
	t.Helper()
	n := g.N()
	for _, k := range wholeKernels {
		for _, size := range []int{n, 64, 100, 256, 512} {
			if size > n {
				continue
			}
			got, ok := wholeHist(csr.Of(g), k.level, size, n, nil)
			if !ok || !slices.Equal(got, want) {
				t.Fatalf("%s: whole search (%s, batches of %d) hist %v (ok %v), want %v", name, k.name, size, got, ok, want)
			}
		}
	}
	// A batch takes at most the largest distance plus one levels.
	got, ok := WholeHist(g)
	if ok != (wholeFast && n > 0) && (n <= WholeMaxN || len(want) <= WholeMaxLevels) {
		t.Fatalf("%s: WholeHist ok = %v on n = %d", name, ok, n)
	}
	if ok && !slices.Equal(got, want) {
		t.Fatalf("%s: WholeHist %v, want %v", name, got, want)
	}
}

// TestWholeTable runs the whole search on every unweighted case of the
// testgraphs table against the table's histogram.
func TestWholeTable(t *testing.T) {
	for i := range testgraphs.Cases {
		c := &testgraphs.Cases[i]
		if c.Graph.Kind() != graph.Unweighted || c.N == 0 {
			continue
		}
		checkWhole(t, c.Name, c.Graph, c.Hist())
	}
}

// TestWholeRandom checks the whole search against plain BFS on the
// random graphs of every size to 70 and around the words and blocks
// (directed and not, empty to dense, with self-loops), and against
// BitHist on regular graphs up to WholeMaxN.
func TestWholeRandom(t *testing.T) {
	for _, tg := range randomGraphs(t) {
		want := []int64{0}
		for s := range tg.n {
			for v, d := range tg.refDist(s) {
				if v == s || d < 0 {
					continue
				}
				want = grow(want, int(d))
				want[d]++
			}
		}
		checkWhole(t, tg.name, tg.g, want)
	}
	for _, c := range []struct{ n, d int }{{256, 8}, {300, 3}, {511, 4}, {513, 16}, {1000, 8}, {1024, 8}, {1024, 16}, {1500, 6}, {2048, 8}} {
		for _, kind := range []string{"regular", "gnp"} {
			args := []string{fmt.Sprintf("n=%d", c.n), fmt.Sprintf("d=%d", c.d), "seed=3"}
			if kind == "gnp" {
				args = []string{fmt.Sprintf("n=%d", c.n), "r=1.5", "seed=3", "directed"}
			}
			g, err := gen.Make(kind, args...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := BitHist(context.Background(), g, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkWhole(t, fmt.Sprintf("%s %v", kind, args), g, want)
		}
	}
}

// TestWholeHistTo checks the search to chosen targets (the first few,
// scattered ones, repeats, more than a batch) against plain BFS on the
// random graphs, with every kernel and batch size, and through
// WholeHistTo.
func TestWholeHistTo(t *testing.T) {
	for _, tg := range randomGraphs(t) {
		n := tg.n
		if n == 0 {
			continue
		}
		lists := [][]int32{{0}, {int32(n - 1), 0, int32(n / 2)}, {int32(n / 3), int32(n / 3)}}
		var firsts, all3 []int32
		for v := range int32(max(1, n/4)) {
			firsts = append(firsts, v)
		}
		for r := range 3 {
			for v := range int32(n) {
				all3 = append(all3, (v*7+int32(r))%int32(n))
			}
		}
		lists = append(lists, firsts, all3)
		for _, src := range lists {
			want := []int64{0}
			for v := range n {
				dv := tg.refDist(v)
				for _, s := range src {
					if d := dv[s]; v != int(s) && d >= 0 {
						want = grow(want, int(d))
						want[d]++
					}
				}
			}
			for _, k := range wholeKernels {
				for _, size := range []int{len(src), 64, 100, 512} {
					got, ok := wholeHist(csr.Of(tg.g), k.level, size, n, src)
					if !ok || !slices.Equal(got, want) {
						t.Fatalf("%s to %d targets (%s, batches of %d): %v (ok %v), want %v", tg.name, len(src), k.name, size, got, ok, want)
					}
				}
			}
			if got, ok := WholeHistTo(tg.g, src, 1); ok && !slices.Equal(got, want) || !ok && wholeFast {
				t.Fatalf("%s to %d targets: WholeHistTo %v (ok %v), want %v", tg.name, len(src), got, ok, want)
			}
		}
	}
}

// TestWholeGivesUp: a path longer than WholeMaxN takes too many levels
// a batch, and WholeHist leaves it to BitHist.
func TestWholeGivesUp(t *testing.T) {
	n := WholeMaxN + 500
	b := graph.NewBuilder(false)
	if err := b.SetVertices(n); err != nil {
		t.Fatal(err)
	}
	for v := 1; v < n; v++ {
		if err := b.AddEdge(v-1, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := WholeHist(b.Build()); ok {
		t.Fatal("WholeHist searched a path of", n, "vertices")
	}
}

// BenchmarkWholeHist is one histogram of a random regular graph by the
// whole search and by BitHist on one thread, the call a Graph Golf
// search makes for each candidate.
func BenchmarkWholeHist(b *testing.B) {
	for _, c := range []struct{ n, d int }{{256, 8}, {256, 16}, {1024, 8}, {1024, 16}, {4096, 8}, {4096, 16}} {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", c.n), fmt.Sprintf("d=%d", c.d), "seed=1")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/d=%d/whole", c.n, c.d), func(b *testing.B) {
			for b.Loop() {
				if _, ok := WholeHist(g); !ok {
					b.Skip("no whole kernel here")
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/d=%d/bithist", c.n, c.d), func(b *testing.B) {
			for b.Loop() {
				if _, err := BitHist(context.Background(), g, 1, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestWholeHistOn: the sizes and threads WholeHistOn takes.
func TestWholeHistOn(t *testing.T) {
	if !wholeFast {
		t.Skip("no whole kernel here")
	}
	for _, c := range []struct {
		n, threads int
		ok         bool
	}{{WholeMaxN, 4, true}, {WholeMaxN + 64, 1, true}, {WholeMaxN + 64, 2, false}, {WholeOneThreadMaxN + 64, 1, false}} {
		g, err := gen.Make("regular", fmt.Sprintf("n=%d", c.n), "d=6", "seed=2")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := WholeHistOn(g, c.threads); ok != c.ok {
			t.Fatalf("n = %d on %d threads: ok %v", c.n, c.threads, ok)
		}
	}
}
