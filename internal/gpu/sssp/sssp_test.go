package sssp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/minplus"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestPlanSSSP checks the layout without a GPU (H100 figures: 132 SMs,
// 227 KiB of shared memory a block): distances in shared memory while they
// fit, blocks by occupancy, rows a launch for the matrix, refusals that name
// the figure.
func TestPlanSSSP(t *testing.T) {
	const (
		sms, shared = 132, 232448
		big         = 80 << 30
	)
	cases := []struct {
		name         string
		n, arcs      int
		cfg          ssspConfig
		free         uint64
		dense        bool
		shared       bool
		block, grid  int
		err, notFits bool
	}{
		{name: "one vertex", n: 1, free: big, shared: true, block: 128, grid: 1},
		{name: "8192: four blocks of 512 an SM", n: 8192, arcs: 80000, free: big, shared: true, block: 512, grid: 132 * 4},
		{name: "32768: one block an SM", n: 32768, arcs: 1 << 20, free: big, shared: true, block: 512, grid: 132},
		{name: "32768 global", n: 32768, arcs: 1 << 20, cfg: ssspConfig{Global: true}, free: big, block: 512, grid: 528},
		{name: "65536: global rows", n: 65536, arcs: 1 << 20, free: big, block: 512, grid: 528},
		{name: "block asked", n: 8192, cfg: ssspConfig{Block: 128}, free: big, shared: true, block: 128, grid: 132 * 6},
		{name: "matrix", n: 8192, arcs: 80000, free: big, dense: true, shared: true, block: 512, grid: 132 * 4},
		{name: "2048: 16 blocks of 128", n: 2048, arcs: 8192, free: big, shared: true, block: 128, grid: 2048},
		{name: "bad block", n: 100, cfg: ssspConfig{Block: 96}, free: big, err: true},
		{name: "marks past shared memory", n: 4 << 20, free: big, err: true, notFits: true},
		{name: "memory", n: 65536, arcs: 1 << 20, free: 300 << 20, err: true, notFits: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := planSSSP(c.n, c.arcs, sms, shared, c.free, c.cfg, c.dense)
			if c.err {
				if err == nil {
					t.Fatalf("planned %+v, want an error", p)
				}
				if c.notFits && !errors.Is(err, gpu.ErrDoesNotFit) {
					t.Fatalf("%v does not match ErrDoesNotFit", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.shared != c.shared || p.block != c.block || p.grid != c.grid {
				t.Fatalf("shared %v block %d grid %d, want %v %d %d", p.shared, p.block, p.grid, c.shared, c.block, c.grid)
			}
			if p.dynShared > shared || (p.shared && p.dynShared < 4*c.n) {
				t.Fatalf("%d bytes of shared memory for %d vertices", p.dynShared, c.n)
			}
			if !p.shared && p.scratch != 4*uint64(c.n)*uint64(p.grid) {
				t.Fatalf("scratch %d bytes, want a row of %d a block", p.scratch, c.n)
			}
			if c.dense && (p.rows < 1 || p.rows > c.n || p.distBytes != 4*uint64(p.rows)*uint64(c.n)) {
				t.Fatalf("matrix rows %d (%d bytes) for %d vertices", p.rows, p.distBytes, c.n)
			}
			if p.chunk < min(p.grid, c.n) || p.deviceNeed > c.free {
				t.Fatalf("chunk %d, need %d of %d", p.chunk, p.deviceNeed, c.free)
			}
		})
	}
}

// sparseGraph is a random graph for the per-source engines: testgraphs'
// G(n, p) inside parts components (so that many pairs are unreachable
// when parts > 1), lengths 1..100 (a fifth of them 0 when zeros), integer
// or float, or unweighted.
func sparseGraph(rng *rand.Rand, n, parts int, p float64, directed bool, kind graph.WeightKind, zeros bool) *graph.Graph {
	s := testgraphs.Spec{N: n, P: p, Parts: parts, Directed: directed, Kind: kind, Lo: 1, Hi: 100}
	if zeros {
		s.Zeros = 0.2
	}
	return testgraphs.Random(rng, s)
}

// refRows is the reference: Floyd–Warshall in float64 on the CPU, and each
// source's summary from it.
func refRows(t *testing.T, g *graph.Graph) (*lanes.Matrix[float64], []reduce.Row) {
	t.Helper()
	ref, err := lanes.NewMatrix[float64](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.FloydWarshall(context.Background(), ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	n := g.N()
	rows := make([]reduce.Row, n)
	for u := range n {
		for v := range n {
			x := ref.At(u, v)
			if v == u || math.IsInf(x, 1) {
				if v != u {
					rows[u].Unreach = true
				}
				continue
			}
			if g.Kind() == graph.FloatWeights {
				rows[u].AddFloat(x)
			} else {
				rows[u].AddInt(int64(x))
			}
		}
	}
	return ref, rows
}

// close32 says whether a float32 result matches a float64 reference.
func close32(got, want float64) bool {
	if math.IsInf(want, 1) || math.IsInf(got, 1) {
		return math.IsInf(want, 1) && math.IsInf(got, 1)
	}
	return math.Abs(got-want) <= 1e-5*math.Max(1, math.Abs(want))
}

func ssspSameRow(got, want reduce.Row, float bool) bool {
	if got.Reach != want.Reach || got.Unreach != want.Unreach {
		return false
	}
	if float {
		return close32(got.MaxF, want.MaxF) && math.Abs(got.SumF-want.SumF) <= 1e-5*math.Max(1, want.SumF) &&
			math.Abs(got.Harm-want.Harm) <= 1e-5*math.Max(1, want.Harm)
	}
	return got.MaxI == want.MaxI && got.Sum == want.Sum && reduce.Same(got, want)
}

// checkMatrix compares an n×n result (int32 with InfInt32, or float32) with
// the reference.
func checkMatrix(t *testing.T, name string, ref *lanes.Matrix[float64], ints []int32, floats []float32) {
	t.Helper()
	n := ref.N
	for u := range n {
		for v := range n {
			want := ref.At(u, v)
			if floats != nil {
				if got := float64(floats[u*n+v]); !close32(got, want) {
					t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, got, want)
				}
				continue
			}
			got := float64(ints[u*n+v])
			if ints[u*n+v] == gpu.InfInt32 {
				got = math.Inf(1)
			}
			if got != want {
				t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, got, want)
			}
		}
	}
}

// TestSSSPAndMinPlusAgreeWithCPU runs gpu-sssp (both distance layouts and
// several block sizes, summaries and matrix) and gpu-minplus (summaries and
// matrix) on random graphs: directed and not, disconnected, unweighted,
// integer and float lengths, zero lengths; every entry and summary against
// the reference Floyd–Warshall.
func TestSSSPAndMinPlusAgreeWithCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	sizes := []int{1, 2, 3, 17, 31, 32, 33, 64, 65, 100, 129, 200, 257, 300}
	kinds := []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}
	configs := []ssspConfig{{}, {Global: true}, {Block: 32}, {Block: 1024, Global: true}}
	graphs, runs := 0, 0
	for trial := range 3 {
		for _, n := range sizes {
			for ki, kind := range kinds {
				directed := (trial+ki)%2 == 0
				parts := []int{1, 1, 3}[(n+trial)%3]
				p := []float64{0.02, 0.08, 0.3}[(trial+n)%3]
				g := sparseGraph(rng, n, parts, p, directed, kind, trial != 1)
				ref, want := refRows(t, g)
				float := kind == graph.FloatWeights
				graphs++
				for _, cfg := range configs {
					name := fmt.Sprintf("trial %d n=%d %s directed=%v parts=%d %+v", trial, n, kind, directed, parts, cfg)
					m, err := ssspMatrix(ctx, 0, g, float, cfg)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					checkMatrix(t, name+" matrix", ref, m.Int, m.Float)
					r, err := ssspRows(ctx, 0, g, float, cfg)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for u := range n {
						if !ssspSameRow(r.Rows[u], want[u], float) {
							t.Fatalf("%s: row %d = %+v, want %+v", name, u, r.Rows[u], want[u])
						}
					}
					runs += 2
				}
				name := fmt.Sprintf("minplus trial %d n=%d %s directed=%v parts=%d", trial, n, kind, directed, parts)
				mp, err := minplus.Matrix(ctx, gpu.OnGPU(0), g, float)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkMatrix(t, name, ref, mp.Int, mp.Float)
				if mp.Timing.Products > minplus.Products(n) {
					t.Fatalf("%s: %d products, at most %d", name, mp.Timing.Products, minplus.Products(n))
				}
				mr, err := minplus.Rows(ctx, gpu.OnGPU(0), g, float)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for u := range n {
					if !ssspSameRow(mr.Rows[u], want[u].NoHarm(), float) { // gpu-minplus sums no 1/d
						t.Fatalf("%s: row %d = %+v, want %+v", name, u, mr.Rows[u], want[u])
					}
				}
				runs += 2
			}
		}
	}
	t.Logf("%d graphs, %d GPU runs matched the CPU reference", graphs, runs)
}

// TestSSSPLarge: a graph of 1500 vertices against the reference, and one of
// 70 000 (past shared memory's hold: global rows) whose summaries agree
// across two block sizes.
func TestSSSPLarge(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1500, 70000} {
		b := graph.NewBuilder(false)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		for range 3 * n {
			u, v := rng.IntN(n), rng.IntN(n)
			if u == v {
				continue
			}
			if err := b.AddIntEdge(u, v, rng.Int64N(100)); err != nil {
				t.Fatal(err)
			}
		}
		g := b.Build()
		a, err := ssspRows(ctx, 0, g, false, ssspConfig{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := ssspRows(ctx, 0, g, false, ssspConfig{Global: true, Block: 256})
		if err != nil {
			t.Fatal(err)
		}
		for u := range n {
			if !reduce.Same(a.Rows[u], c.Rows[u]) { // Σ 1/d over other blocks' warps: another order
				t.Fatalf("n=%d: row %d: %+v against %+v (global)", n, u, a.Rows[u], c.Rows[u])
			}
		}
		if n <= 2000 {
			_, want := refRows(t, g)
			for u := range n {
				if !ssspSameRow(a.Rows[u], want[u], false) {
					t.Fatalf("n=%d: row %d = %+v, want %+v", n, u, a.Rows[u], want[u])
				}
			}
		}
		t.Logf("n=%d: shared %v grid %d block %d, %.2f ms; global %.2f ms", n, a.Timing.Shared, a.Timing.Grid, a.Timing.Block, a.Timing.Search, c.Timing.Search)
	}
}
