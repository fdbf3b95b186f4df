package cpu

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestBlockedKernelsAgree runs the reference and the blocked engine with
// the fast and the scalar kernels on every lane kind the graph's plan allows
// (small weights let int8 and int16 in) against the reference in int64.
func TestBlockedKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ctx := context.Background()
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(150)
		hi := []int64{2, 9, 100}[trial%3]
		if hi == 2 {
			n = 1 + rng.IntN(40) // short enough for int8 lanes
		}
		lo := int64(0)
		if trial%4 == 3 {
			lo = -1 // negative arcs: Normalize's rule on every kind
		}
		g := testgraphs.Random(rng, testgraphs.Spec{N: n, P: 0.05, Directed: true, Kind: graph.IntWeights, Lo: lo, Hi: hi})
		if FindNegativeCycle(ctx, g) != nil {
			continue
		}
		plan, err := lanes.PlanFor(g)
		if err != nil {
			t.Fatal(err)
		}
		want, err := lanes.NewMatrix[int64](g, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := FloydWarshall(ctx, want, nil, nil); err != nil {
			t.Fatal(err)
		}
		lanes.Normalize(want, plan.MaxReal)
		name := fmt.Sprintf("n=%d/w=%d..%d", n, lo, hi)
		for _, k := range lanes.Kinds() {
			if got, err := plan.Narrowest(k); k.IsFloat() || (err == nil && got == k) {
				checkKind(t, ctx, g, plan, k, want, name)
			}
		}
	}
}

func checkKind(t *testing.T, ctx context.Context, g *graph.Graph, plan lanes.Plan, k lanes.Kind, want *lanes.Matrix[int64], name string) {
	t.Helper()
	switch k {
	case lanes.Int8:
		checkBlocked[int8](t, ctx, g, plan, want, name)
	case lanes.Int16:
		checkBlocked[int16](t, ctx, g, plan, want, name)
	case lanes.Int32:
		checkBlocked[int32](t, ctx, g, plan, want, name)
	case lanes.Int64:
		checkBlocked[int64](t, ctx, g, plan, want, name)
	case lanes.Float32:
		checkBlocked[float32](t, ctx, g, plan, want, name)
	case lanes.Float64:
		checkBlocked[float64](t, ctx, g, plan, want, name)
	default:
		t.Fatalf("no test for lane kind %v", k)
	}
}

func checkBlocked[T lanes.Lane](t *testing.T, ctx context.Context, g *graph.Graph, plan lanes.Plan, want *lanes.Matrix[int64], name string) {
	t.Helper()
	same := func(m *lanes.Matrix[T], what string) {
		t.Helper()
		lanes.Normalize(m, plan.MaxReal)
		for i := 0; i < g.N(); i++ {
			for j := 0; j < g.N(); j++ {
				w, ok := want.Int(i, j)
				if ok == m.IsInf(i, j) || (ok && float64(w) != m.Float(i, j)) {
					t.Fatalf("%s/%s %T: d(%d,%d) = %v, want %v", name, what, m.Inf, i, j, m.At(i, j), want.At(i, j))
				}
			}
		}
	}
	ref, err := lanes.NewMatrix[T](g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := FloydWarshall(ctx, ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	same(ref, "fw")
	for _, tile := range []int{16, 32, 64, 128} {
		for _, k := range []KernelChoice{FastKernels, ScalarKernels} {
			m, err := lanes.NewMatrix[T](g, TileSize(g.N(), tile))
			if err != nil {
				t.Fatal(err)
			}
			if err := Blocked(ctx, m, BlockedOptions{Tile: tile, Threads: 2, Kernels: k}); err != nil {
				t.Fatal(err)
			}
			same(m, fmt.Sprintf("tile=%d/kernels=%d", tile, k))
		}
	}
}

// TestInt32BoundaryExact runs a path whose length is just below the int32
// lanes' limit, where an unproven lane would overflow.
func TestInt32BoundaryExact(t *testing.T) {
	w := int64(lanes.Inf32-1) / 2
	b := graph.NewBuilder(true)
	for _, e := range [][2]int{{0, 1}, {1, 2}} {
		if err := b.AddIntEdge(e[0], e[1], w); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	m, _ := lanes.NewMatrix[int32](g, TileSize(3, 16))
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
	g := testgraphs.Random(rng, testgraphs.Spec{N: 300, P: 0.05, Directed: true, Kind: graph.IntWeights, Lo: 1, Hi: 10})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, _ := lanes.NewMatrix[int32](g, TileSize(300, 64))
	if err := Blocked(ctx, m, BlockedOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked: want context.Canceled, got %v", err)
	}
	if err := FloydWarshall(ctx, m, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("fw: want context.Canceled, got %v", err)
	}
}

// TestBlockedEmpty: a graph of no vertex is a no-op in every lane kind
// (the pivot panels' scratch, sized by the tiles in use, was negative).
func TestBlockedEmpty(t *testing.T) {
	g := graph.NewBuilder(false).Build()
	for _, run := range []func() error{
		func() error { return blockedEmpty[int8](g) },
		func() error { return blockedEmpty[int16](g) },
		func() error { return blockedEmpty[int32](g) },
		func() error { return blockedEmpty[int64](g) },
		func() error { return blockedEmpty[float64](g) },
	} {
		if err := run(); err != nil {
			t.Fatal(err)
		}
	}
}

func blockedEmpty[T lanes.Lane](g *graph.Graph) error {
	m, err := lanes.NewMatrix[T](g, 0)
	if err != nil {
		return err
	}
	return Blocked(context.Background(), m, BlockedOptions{})
}
