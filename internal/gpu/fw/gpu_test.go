package fw

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/testgraphs"
)

// requireGPU skips without a GPU (CI has none), or fails when
// APSP_REQUIRE_GPU=1 says there must be one.
func requireGPU(t testing.TB) {
	t.Helper()
	if _, err := gpu.Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
}

// open returns a session or skips.
func open(t *testing.T) *Session {
	t.Helper()
	requireGPU(t)
	s, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// randomGraph is the GPU tests' random graph: testgraphs' G(n, p) with
// lengths 1..50 (floats in [1, 51)), shifted by potentials of up to 29
// when negative (directed only: an undirected negative edge is a negative
// cycle).
func randomGraph(rng *rand.Rand, n int, p float64, directed, negative, float bool) *graph.Graph {
	s := testgraphs.Spec{N: n, P: p, Directed: directed, Kind: graph.IntWeights, Lo: 1, Hi: 50}
	if float {
		s.Kind, s.Hi = graph.FloatWeights, 51
	}
	if negative {
		s.Potential = 29
	}
	return testgraphs.Random(rng, s)
}

// TestKernelsAgreeWithCPU runs both kernels in several shapes on random
// graphs of awkward sizes and compares every entry with the reference.
func TestKernelsAgreeWithCPU(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 12))
	configs := []gpu.Config{
		{Kernel: gpu.Multi, Tile: 64, TDim: 16}, {Kernel: gpu.Single, Tile: 64, TDim: 16},
		{Kernel: gpu.Multi, Tile: 128, TDim: 16}, {Kernel: gpu.Single, Tile: 128, TDim: 16},
		{Kernel: gpu.Multi, Tile: 64, TDim: 8}, {Kernel: gpu.Single, Tile: 128, TDim: 32},
		{Kernel: gpu.Multi, Tile: 32, TDim: 8}, {Kernel: gpu.Single, Tile: 32, TDim: 8},
		{Kernel: gpu.Multi, Tile: 128, TDim: 16, MinBlocks: 2}, {Kernel: gpu.Single, Tile: 128, TDim: 16, MinBlocks: 2},
	}
	sizes := []int{1, 2, 3, 31, 63, 64, 65, 100, 127, 129, 200, 257, 300, 511, 700}
	checked := 0
	for trial, n := range sizes {
		for _, float := range []bool{false, true} {
			directed := trial%2 == 0
			negative := directed && trial%3 == 0
			p := []float64{0.01, 0.05, 0.3}[trial%3]
			g := randomGraph(rng, n, p, directed, negative, float)
			for _, c := range configs {
				c.Float = float
				name := fmt.Sprintf("n=%d/directed=%v/negative=%v/float=%v/%v/W%d/T%d", n, directed, negative, float, c.Kernel, c.Tile, c.TDim)
				compare(t, ctx, s, g, c, name)
				checked++
			}
		}
	}
	t.Logf("%d GPU runs matched the CPU reference", checked)
}

func compare(t *testing.T, ctx context.Context, s *Session, g *graph.Graph, c gpu.Config, name string) {
	t.Helper()
	n := g.N()
	stride := (n + c.Tile - 1) / c.Tile * c.Tile
	plan, err := lanes.PlanFor(g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(ctx, Problem{N: n, Stride: stride, Config: c, MaxReal: int32(min(plan.MaxReal, math.MaxInt32))},
		InitFromGraph(g, stride, c.Float), true)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ref, err := lanes.NewMatrix[float64](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.FloydWarshall(ctx, ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			want := ref.At(u, v)
			b := res.Matrix[u*stride+v]
			var got float64
			if c.Float {
				got = float64(math.Float32frombits(b))
				if !(math.IsInf(want, 1) && math.IsInf(got, 1)) && math.Abs(got-want) > 1e-5*math.Max(1, math.Abs(want)) {
					t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, got, want)
				}
				continue
			}
			x := int32(b)
			if int64(x) > plan.MaxReal {
				got = math.Inf(1)
			} else {
				got = float64(x)
			}
			if got != want {
				t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, got, want)
			}
		}
	}
	// The device reduction agrees with the matrix.
	red, err := s.Run(ctx, Problem{N: n, Stride: stride, Config: c, MaxReal: int32(min(plan.MaxReal, math.MaxInt32))},
		InitFromGraph(g, stride, c.Float), false)
	if err != nil {
		t.Fatalf("%s reduce: %v", name, err)
	}
	for u := 0; u < n; u++ {
		reach := 0
		for v := 0; v < n; v++ {
			if v != u && !math.IsInf(ref.At(u, v), 1) {
				reach++
			}
		}
		if int(red.Reach[u]) != reach {
			t.Fatalf("%s: reduce reach[%d] = %d, want %d", name, u, red.Reach[u], reach)
		}
	}
	if red.NegVertex >= 0 {
		t.Fatalf("%s: negative diagonal at %d without a negative cycle", name, red.NegVertex)
	}
}
