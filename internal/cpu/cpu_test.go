package cpu

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
)

func randomIntGraph(rng *rand.Rand, n int, p float64, lo, hi int64) *graph.Graph {
	b := graph.NewBuilder(true)
	if err := b.SetVertices(n); err != nil {
		panic(err)
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			if u != v && rng.Float64() < p {
				if err := b.AddIntEdge(u, v, lo+rng.Int64N(hi-lo+1)); err != nil {
					panic(err)
				}
			}
		}
	}
	return b.Build()
}

// TestBlockedKernelsAgree runs the blocked engine with the fast and the
// scalar kernels against the reference on every lane type.
func TestBlockedKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ctx := context.Background()
	for trial := 0; trial < 30; trial++ {
		n := 1 + rng.IntN(150)
		g := randomIntGraph(rng, n, 0.05, 0, 100)
		for _, tile := range []int{16, 32, 64} {
			for _, k := range []KernelChoice{FastKernels, ScalarKernels} {
				name := fmt.Sprintf("n=%d/tile=%d/kernels=%d", n, tile, k)
				checkBlocked[int32](t, ctx, g, tile, k, name)
				checkBlocked[int64](t, ctx, g, tile, k, name)
				checkBlocked[float64](t, ctx, g, tile, k, name)
			}
		}
	}
}

func checkBlocked[T Lane](t *testing.T, ctx context.Context, g *graph.Graph, tile int, k KernelChoice, name string) {
	t.Helper()
	ref, err := NewMatrix[T](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := FloydWarshall(ctx, ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	m, err := NewMatrix[T](g, TileSize(g.N(), tile))
	if err != nil {
		t.Fatal(err)
	}
	if err := Blocked(ctx, m, BlockedOptions{Tile: tile, Threads: 2, Kernels: k}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < g.N(); i++ {
		for j := 0; j < g.N(); j++ {
			if ref.At(i, j) != m.At(i, j) {
				t.Fatalf("%s %T: d(%d,%d) = %v, want %v", name, ref.Inf, i, j, m.At(i, j), ref.At(i, j))
			}
		}
	}
}

func TestPlanLanes(t *testing.T) {
	path := func(n int, w int64) *graph.Graph {
		b := graph.NewBuilder(true)
		for i := 0; i+1 < n; i++ {
			if err := b.AddIntEdge(i, i+1, w); err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	tests := []struct {
		name  string
		g     *graph.Graph
		lanes LaneKind
		err   bool
	}{
		{"small", path(10, 5), Int32, false},
		{"just fits int32", path(3, int64(Inf32-1)/2), Int32, false},
		{"needs int64", path(3, int64(Inf32)), Int64, false},
		{"negative span", path(3, -(1 << 29)), Int64, false},
		{"wide", path(4, 1<<61), Int64, false},
		{"too large", path(5, 1<<61), Int64, true},
		{"negative and beyond half of int64", path(4, -(1 << 61)), Int64, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanLanes(tt.g)
			if tt.err {
				if !errors.Is(err, ErrWeightsTooLarge) {
					t.Fatalf("want ErrWeightsTooLarge, got %v", err)
				}
				return
			}
			if err != nil || p.Lanes != tt.lanes {
				t.Fatalf("lanes %v err %v, want %v", p.Lanes, err, tt.lanes)
			}
			if p.Wide != (tt.name == "wide") {
				t.Fatalf("wide = %v", p.Wide)
			}
		})
	}
}

// TestInt32BoundaryExact runs a path whose length is just below the int32
// lanes' limit, where an unproven lane would overflow.
func TestInt32BoundaryExact(t *testing.T) {
	w := int64(Inf32-1) / 2
	b := graph.NewBuilder(true)
	for _, e := range [][2]int{{0, 1}, {1, 2}} {
		if err := b.AddIntEdge(e[0], e[1], w); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	m, _ := NewMatrix[int32](g, TileSize(3, 16))
	if err := Blocked(context.Background(), m, BlockedOptions{Tile: 16}); err != nil {
		t.Fatal(err)
	}
	if got := int64(m.At(0, 2)); got != 2*w {
		t.Fatalf("d(0,2) = %d, want %d", got, 2*w)
	}
	if m.At(2, 0) != m.Inf {
		t.Fatalf("d(2,0) = %d, want Inf", m.At(2, 0))
	}
}

func TestCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g := randomIntGraph(rng, 300, 0.05, 1, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, _ := NewMatrix[int32](g, TileSize(300, 64))
	if err := Blocked(ctx, m, BlockedOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked: want context.Canceled, got %v", err)
	}
	if err := FloydWarshall(ctx, m, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("fw: want context.Canceled, got %v", err)
	}
}
