package bfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestDefaultConfigLockstep: on many threads a small graph's batches run
// in lockstep, a group a batch with the threads shared evenly; a graph
// with as many batches as threads, or a host with few threads, keeps the
// separate batches.
func TestDefaultConfigLockstep(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(16))
	w := words()
	for _, c := range []struct {
		threads, n   int
		lockstep     bool
		outer, inner int
	}{
		{16, 64 * w * 2, true, 2, min(8, 64*w*2/200)},
		{16, 64 * w * 3, true, 3, min(5, 64*w*3/200)},
		{16, 64 * w * 8, true, 8, 2},
		{16, 64 * w * 9, false, 9, 1}, // fewer than two threads a batch: a thread a batch
		{16, 64 * w * 16, false, 16, 1},
		{2, 64 * w * 2, false, 2, 1},
		{16, 200, false, 1, 1}, // one batch, too few vertices to split
	} {
		got := defaultConfig(c.threads, c.n)
		if got.lockstep != c.lockstep || got.outer != c.outer || got.inner != c.inner || got.firstFromArcs != (c.lockstep && c.inner > 1) {
			t.Errorf("defaultConfig(%d, %d) = %+v, want lockstep %v, %d×%d", c.threads, c.n, got, c.lockstep, c.outer, c.inner)
		}
	}
}

// TestLockstepPanic: a panic inside a lockstep run (here from progress,
// which the barrier's action calls) reaches the caller instead of leaving
// the other workers waiting, and the runs after it are exact.
func TestLockstepPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	tg := randomGraph(t, rng, 700, false, 4/700.0)
	want, err := Rows(context.Background(), tg.g, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []config{
		{words: 1, outer: 3, inner: 2, lockstep: true, chunks: 2},
		{words: 2, outer: 2, inner: 3, lockstep: true},
	} {
		func() {
			defer func() {
				if r := recover(); r != "boom" {
					t.Fatalf("%s: recovered %v, want boom", cfg, r)
				}
			}()
			_, _ = runBatches(context.Background(), tg.g, cfg, func(float64) { panic("boom") }, nil)
			t.Fatalf("%s: no panic", cfg)
		}()
		got, err := runBatches(context.Background(), tg.g, cfg, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkSummary(t, cfg.String()+" after a panic", got, want)
	}
}

// TestLockstepShares: a rank's share of a lockstep search (BitTotals'
// Totals) equals the same share searched batch by batch, also with more
// groups than the share has batches.
func TestLockstepShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	ctx := context.Background()
	for _, n := range []int{513, 1500, 2600} {
		tg := randomGraph(t, rng, n, n%2 == 0, 3/float64(n))
		for _, shares := range []int{1, 2, 3} {
			for share := range shares {
				var tots [2]*Totals
				for i, cfg := range []config{{words: 8, outer: 1, inner: 1}, {words: 8, outer: 3, inner: 2, lockstep: true, chunks: 2}} {
					cfg.share, cfg.shares = share, shares
					tots[i] = &Totals{Reach: make([]int32, n), Ecc: make([]int32, n)}
					if err := searchBatches(ctx, tg.g, cfg, nil, nil, &totalsMerger{t: tots[i]}); err != nil {
						t.Fatal(err)
					}
				}
				name := fmt.Sprintf("%s share %d of %d", tg.name, share, shares)
				if !slices.Equal(tots[0].Reach, tots[1].Reach) || !slices.Equal(tots[0].Ecc, tots[1].Ecc) || !slices.Equal(tots[0].Hist, tots[1].Hist) {
					t.Fatalf("%s: the lockstep totals differ", name)
				}
			}
		}
	}
}

// TestFirstFromArcsFar: level 1 from the arcs on graphs whose heads lie
// thousands of vertices outside a batch, where a head's word index
// exceeds what a bit offset modulo 32 would keep (first8AVX512 clamps it
// to an empty mask), against the pull, in both layouts and matrix mode.
func TestFirstFromArcsFar(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	for _, directed := range []bool{true, false} {
		tg := randomGraph(t, rng, 3100, directed, 3/3100.0)
		ctx := context.Background()
		want, err := searchBrief(ctx, tg.g, config{words: 8, outer: 2, inner: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantM := make([]int32, tg.n*tg.n)
		if _, err := runBatches(ctx, tg.g, config{words: 8, outer: 2, inner: 1}, nil, wantM); err != nil {
			t.Fatal(err)
		}
		for _, cfg := range []config{
			{words: 8, outer: 2, inner: 1, firstFromArcs: true},
			{words: 8, outer: 2, inner: 2, lockstep: true, chunks: 2, firstFromArcs: true},
		} {
			got, err := searchBrief(ctx, tg.g, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkBrief(t, tg.name+" "+cfg.String(), got, want)
			m := make([]int32, tg.n*tg.n)
			if _, err := runBatches(ctx, tg.g, cfg, nil, m); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m, wantM) {
				t.Fatalf("%s %s: matrix differs from the pull's", tg.name, cfg)
			}
		}
	}
}
