package distributed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/testgraphs"
)

// layouts are the shapes every test goes through: tiles that do not divide
// n, tile counts that P or Q do not divide, and grids with more rows or
// columns than tiles (ranks that hold nothing).
func layouts(t *testing.T) []Layout {
	t.Helper()
	var out []Layout
	for _, c := range []struct{ n, tile, p, q int }{
		{1, 4, 1, 1}, {7, 4, 1, 1}, {9, 4, 1, 2}, {9, 4, 2, 1}, {13, 4, 2, 2},
		{17, 3, 2, 3}, {23, 5, 3, 2}, {5, 4, 3, 3}, {3, 4, 2, 2}, {30, 4, 4, 2},
		{64, 8, 2, 2}, {41, 6, 1, 4},
	} {
		for _, cyclic := range []bool{true, false} {
			l, err := NewLayout(c.n, c.tile, Grid{c.p, c.q}, cyclic)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, l)
		}
	}
	return out
}

func name(l Layout) string {
	kind := "block"
	if l.Cyclic {
		kind = "cyclic"
	}
	return fmt.Sprintf("n%d_w%d_%dx%d_%s", l.N, l.Tile, l.Grid.P, l.Grid.Q, kind)
}

// TestOwnership: every tile is held by exactly one rank, at the local
// position the layout names, and the local shapes add up.
func TestOwnership(t *testing.T) {
	for _, l := range layouts(t) {
		t.Run(name(l), func(t *testing.T) {
			nt := l.Tiles()
			seen := make([]int, nt*nt)
			var cells int64
			for r := range l.Grid.Size() {
				pr, pc := l.Grid.Coords(r)
				if l.Grid.Rank(pr, pc) != r {
					t.Fatalf("Coords/Rank disagree at %d", r)
				}
				rows, cols := l.LocalRows(pr), l.LocalCols(pc)
				if nr, nc := l.Shape(r); nr != len(rows) || nc != len(cols) {
					t.Fatalf("rank %d: Shape %d×%d, lists %d×%d", r, nr, nc, len(rows), len(cols))
				}
				cells += l.LocalBytes(r, 1)
				for a, i := range rows {
					if l.RowOwner(i) != pr || l.LocalRow(i) != a {
						t.Fatalf("tile row %d: owner %d at %d, listed on grid row %d at %d", i, l.RowOwner(i), l.LocalRow(i), pr, a)
					}
					for b, j := range cols {
						if l.ColOwner(j) != pc || l.LocalCol(j) != b {
							t.Fatalf("tile col %d: owner %d at %d, listed on grid col %d at %d", j, l.ColOwner(j), l.LocalCol(j), pc, b)
						}
						if l.Owner(i, j) != r {
							t.Fatalf("tile (%d,%d): Owner %d, held by %d", i, j, l.Owner(i, j), r)
						}
						seen[i*nt+j]++
					}
				}
			}
			for x, c := range seen {
				if c != 1 {
					t.Fatalf("tile (%d,%d) held %d times", x/nt, x%nt, c)
				}
			}
			if want := int64(l.Padded()) * int64(l.Padded()); cells != want {
				t.Fatalf("local storage adds up to %d lanes, want %d", cells, want)
			}
			// Balance: local tile counts differ by at most one per dimension.
			for _, parts := range [][2]int{{l.Grid.P, 0}, {l.Grid.Q, 1}} {
				lo, hi := nt, 0
				for p := range parts[0] {
					n := len(l.held(p, parts[0]))
					lo, hi = min(lo, n), max(hi, n)
				}
				if hi-lo > 1 {
					t.Fatalf("parts of %d..%d tiles: unbalanced", lo, hi)
				}
			}
		})
	}
}

// TestStepsAgree: within every row and column group, each member lists
// the group's broadcasts in the same order with the same root and length,
// and the pivot owner closes the pivot once.
func TestStepsAgree(t *testing.T) {
	for _, l := range layouts(t) {
		t.Run(name(l), func(t *testing.T) {
			for k := range l.Tiles() {
				seqs := map[[2]int][]Step{} // (group kind, index) -> first member's sequence
				closers := 0
				for r := range l.Grid.Size() {
					pr, pc := l.Grid.Coords(r)
					mine := map[[2]int][]Step{}
					for _, s := range l.Steps(r, k, 4) {
						switch s.Group {
						case RowGroup:
							mine[[2]int{1, pr}] = append(mine[[2]int{1, pr}], s)
						case ColGroup:
							mine[[2]int{2, pc}] = append(mine[[2]int{2, pc}], s)
						}
						if s.Op == ClosePivot {
							closers++
							if l.Owner(k, k) != r {
								t.Fatalf("round %d: rank %d closes a pivot it does not hold", k, r)
							}
						}
					}
					for g, s := range mine {
						if prev, ok := seqs[g]; ok && fmt.Sprint(prev) != fmt.Sprint(s) {
							t.Fatalf("round %d group %v: rank %d lists %v, another member %v", k, g, r, s, prev)
						}
						seqs[g] = s
					}
				}
				if closers != 1 {
					t.Fatalf("round %d: %d ranks close the pivot", k, closers)
				}
			}
		})
	}
}

func TestTraffic(t *testing.T) {
	tests := []struct {
		n, tile, p, q int
		want          Traffic // in tiles of one byte lanes, w = 1
	}{
		{4, 1, 1, 1, Traffic{0, 0, 4}},
		// 1×2: each round the rank off the pivot column takes the pivot
		// and the column panel (4 tiles); the row panel stays home.
		{4, 1, 1, 2, Traffic{4 * 5, 2 * 5, 4}},
		// 2×2, 4 tiles (2×2 a rank): per round the pivot reaches 2 ranks
		// (one in its row group, one in its column group), and each of
		// the 2 row and 2 column panel broadcasts sends 2 tiles to 1 rank.
		{4, 1, 2, 2, Traffic{4 * (2 + 2*2 + 2*2), 0, 4}},
	}
	// Whatever the layout, a round sends the pivot tile to p+q-2 ranks
	// and each tile of the row (column) panel to p-1 (q-1) ranks: in all
	// (p+q-2)·T·(T+1) tiles over T rounds (docs/scaling.md's traffic).
	for _, l := range layouts(t) {
		nt, b := int64(l.Tiles()), int64(3)
		want := int64(l.Grid.P+l.Grid.Q-2) * nt * (nt + 1) * int64(l.Tile*l.Tile) * b
		if got := l.Traffic(int(b)); got.Total != want || got.Rounds != int(nt) {
			t.Errorf("%s: %+v, want a total of %d", name(l), got, want)
		}
	}
	for _, tt := range tests {
		l, _ := NewLayout(tt.n, tt.tile, Grid{tt.p, tt.q}, true)
		got := l.Traffic(1)
		if got.Total != tt.want.Total || got.Rounds != tt.want.Rounds || (tt.want.MaxRank != 0 && got.MaxRank != tt.want.MaxRank) {
			t.Errorf("%s: %+v, want %+v", name(l), got, tt.want)
		}
	}
}

// runGrid scatters m over the layout, runs RunHost on every rank as a
// goroutine over the fake communicator, sums the real distances (at most
// maxReal: with negative arcs, infinity plus a negative length is left
// below infinity) with AllReduceSum and gathers the result.
func runGrid[T lanes.Lane](t *testing.T, l Layout, m *lanes.Matrix[T], maxReal int64) (*lanes.Matrix[T], int64) {
	t.Helper()
	ctx := context.Background()
	world, err := comm.NewFake(l.Grid.Size())
	if err != nil {
		t.Fatal(err)
	}
	locals := make([]*Local[T], len(world))
	for r := range world {
		if locals[r], err = Scatter(l, m, r); err != nil {
			t.Fatal(err)
		}
	}
	sums := make([]int64, len(world))
	errs := make([]error, len(world))
	var wg sync.WaitGroup
	for r, c := range world {
		wg.Go(func() {
			errs[r] = func() error {
				cs, err := NewComms(ctx, c, l.Grid)
				if err != nil {
					return err
				}
				if err := RunHost(ctx, cs, l, r, locals[r]); err != nil {
					return err
				}
				// Each rank sums its own real, finite entries.
				part := []int64{0}
				out := &lanes.Matrix[T]{N: l.N, Size: l.N, Stride: l.N, Inf: m.Inf, Data: make([]T, l.N*l.N)}
				for i := range out.Data {
					out.Data[i] = m.Inf
				}
				Gather(l, locals[r], r, out)
				for _, v := range out.Data {
					if v != m.Inf && int64(v) <= maxReal {
						part[0] += int64(v)
					}
				}
				if err := c.AllReduceSum(ctx, comm.HostBuffer(part)); err != nil {
					return err
				}
				sums[r] = part[0]
				return c.Barrier(ctx)
			}()
		})
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	for r := range sums {
		if sums[r] != sums[0] {
			t.Fatalf("AllReduceSum: rank %d has %d, rank 0 %d", r, sums[r], sums[0])
		}
	}
	got := &lanes.Matrix[T]{N: m.N, Size: m.N, Stride: m.N, Inf: m.Inf, Data: make([]T, m.N*m.N)}
	for r := range locals {
		Gather(l, locals[r], r, got)
	}
	return got, sums[0]
}

// TestRunHostAgreesWithFW is the schedule's differential test: blocked FW
// over p·q goroutines, each holding only its own tiles, against the
// reference Floyd–Warshall, on random graphs (sparse and dense, with and
// without negative arcs) for every layout, in int32 and int64 lanes.
func TestRunHostAgreesWithFW(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	ctx := context.Background()
	for _, l := range layouts(t) {
		t.Run(name(l), func(t *testing.T) {
			for trial := range 4 {
				p := []float64{0.05, 0.2, 0.5, 0.02}[trial]
				lo := int64(0)
				if trial == 2 {
					lo = -2 // negative arcs, no negative cycle (checked below)
				}
				g := testgraphs.Random(rng, testgraphs.Spec{N: l.N, P: p, Directed: true, Kind: graph.IntWeights, Lo: lo, Hi: 20})
				if cpu.FindNegativeCycle(ctx, g) != nil {
					continue
				}
				plan, err := lanes.PlanFor(g)
				if err != nil {
					t.Fatal(err)
				}
				check(t, ctx, l, g, plan, trial%2 == 0)
			}
		})
	}
}

func check(t *testing.T, ctx context.Context, l Layout, g *graph.Graph, plan lanes.Plan, wide bool) {
	t.Helper()
	want, err := lanes.NewMatrix[int64](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.FloydWarshall(ctx, want, nil, nil); err != nil {
		t.Fatal(err)
	}
	var wantSum int64
	for i := range want.N {
		for _, v := range want.Row(i) {
			if v != want.Inf {
				wantSum += v
			}
		}
	}
	compare := func(at func(i, j int) (int64, bool), sum int64, kind string) {
		for i := range want.N {
			for j := range want.N {
				v, ok := at(i, j)
				if w := want.At(i, j); ok != (w != want.Inf) || (ok && v != w) {
					t.Fatalf("%s: d(%d,%d) = %d (finite %v), want %d", kind, i, j, v, ok, w)
				}
			}
		}
		if sum != wantSum {
			t.Fatalf("%s: AllReduceSum of finite distances %d, want %d", kind, sum, wantSum)
		}
	}
	if wide {
		m, _ := lanes.NewMatrix[int64](g, 0)
		got, sum := runGrid(t, l, m, plan.MaxReal)
		lanes.Normalize(got, plan.MaxReal)
		compare(func(i, j int) (int64, bool) { return got.At(i, j), got.At(i, j) != got.Inf }, sum, "int64")
		return
	}
	m, _ := lanes.NewMatrix[int32](g, 0)
	got, _ := runGrid(t, l, m, plan.MaxReal)
	lanes.Normalize(got, plan.MaxReal)
	var sum int64
	for _, v := range got.Data {
		if v != got.Inf {
			sum += int64(v)
		}
	}
	compare(func(i, j int) (int64, bool) { return int64(got.At(i, j)), got.At(i, j) != got.Inf }, sum, "int32")
}

// TestRunHostOneRankFails: a rank that stops (its context cancelled
// before the first round) makes every other rank return an error instead
// of waiting for it.
func TestRunHostOneRankFails(t *testing.T) {
	l, _ := NewLayout(20, 4, Grid{2, 2}, true)
	g := testgraphs.Random(rand.New(rand.NewPCG(1, 1)), testgraphs.Spec{N: l.N, P: 0.2, Directed: true, Kind: graph.IntWeights, Lo: 1, Hi: 9})
	m, _ := lanes.NewMatrix[int32](g, 0)
	world, _ := comm.NewFake(4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for r, c := range world {
		wg.Go(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cs, err := NewComms(ctx, c, l.Grid)
			if err != nil {
				errs[r] = err
				return
			}
			if r == 3 {
				cancel()
			}
			loc, _ := Scatter(l, m, r)
			errs[r] = RunHost(ctx, cs, l, r, loc)
		})
	}
	wg.Wait()
	for r, err := range errs {
		if err == nil {
			t.Errorf("rank %d finished although rank 3 stopped", r)
		}
	}
}

func TestGridFor(t *testing.T) {
	for _, tt := range []struct{ size, p, q int }{{1, 1, 1}, {2, 1, 2}, {4, 2, 2}, {6, 2, 3}, {8, 2, 4}, {9, 3, 3}, {7, 1, 7}} {
		if g := GridFor(tt.size); g.P != tt.p || g.Q != tt.q {
			t.Errorf("GridFor(%d) = %d×%d, want %d×%d", tt.size, g.P, g.Q, tt.p, tt.q)
		}
	}
	for _, bad := range [][4]int{{0, 4, 1, 1}, {4, 0, 1, 1}, {4, 4, 0, 1}} {
		if _, err := NewLayout(bad[0], bad[1], Grid{bad[2], bad[3]}, true); err == nil {
			t.Errorf("NewLayout%v: no error", bad)
		}
	}
}

// TestGuards: GridFor of no rank gives a 1×1 grid instead of dividing by
// zero (or looping on -1), and a wide int64 plan is refused by Scatter
// (the host tiles treat only x == Inf as infinity; InfWide is the smallest
// value and would win every min).
func TestGuards(t *testing.T) {
	for _, size := range []int{0, -1} {
		if g := GridFor(size); g.P != 1 || g.Q != 1 {
			t.Errorf("GridFor(%d) = %+v", size, g)
		}
	}
	b := graph.NewBuilder(true)
	if err := b.AddIntEdge(0, 1, 5); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	m, err := lanes.NewMatrixInf[int64](g, 0, lanes.InfWide)
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLayout(g.N(), 1, GridFor(1), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Scatter(l, m, 0); err == nil {
		t.Fatal("a wide plan was scattered")
	}
}
