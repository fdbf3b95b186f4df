package cpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// benchGraph is a random directed graph with weights 1..100 and about 8
// arcs per vertex (the matrix is dense after a few rounds either way).
func benchGraph(n int) *graph.Graph {
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	b := graph.NewBuilder(true)
	for u := 0; u < n; u++ {
		for range 8 {
			if err := b.AddIntEdge(u, rng.IntN(n), 1+rng.Int64N(100)); err != nil {
				panic(err)
			}
		}
	}
	return b.Build()
}

// benchGraph8 is benchGraph with weights 1..3, whose distances fit int8
// lanes (arithmetic is the same whatever the values; the weights only have
// to be legal).
func benchGraph8(n int) *graph.Graph {
	rng := rand.New(rand.NewPCG(uint64(n), 98))
	b := graph.NewBuilder(true)
	for u := 0; u < n; u++ {
		for range 8 {
			if err := b.AddIntEdge(u, rng.IntN(n), 1+rng.Int64N(3)); err != nil {
				panic(err)
			}
		}
	}
	return b.Build()
}

// BenchmarkBlocked reports relaxations per second (n³/s) of the blocked
// engine: go test ./internal/cpu -run X -bench Blocked -benchtime 3x
func BenchmarkBlocked(b *testing.B) {
	for _, n := range []int{1024, 2048, 4096} {
		g := benchGraph(n)
		g8 := benchGraph8(n)
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("int8/n=%d/threads=%d", n, threads), func(b *testing.B) { benchBlocked[int8](b, g8, threads, FastKernels) })
			b.Run(fmt.Sprintf("int16/n=%d/threads=%d", n, threads), func(b *testing.B) { benchBlocked[int16](b, g, threads, FastKernels) })
			b.Run(fmt.Sprintf("int32/n=%d/threads=%d", n, threads), func(b *testing.B) { benchBlocked[int32](b, g, threads, FastKernels) })
			b.Run(fmt.Sprintf("int64/n=%d/threads=%d", n, threads), func(b *testing.B) { benchBlocked[int64](b, g, threads, FastKernels) })
			b.Run(fmt.Sprintf("float64/n=%d/threads=%d", n, threads), func(b *testing.B) { benchBlocked[float64](b, g, threads, FastKernels) })
		}
		b.Run(fmt.Sprintf("int32-scalar/n=%d/threads=2", n), func(b *testing.B) { benchBlocked[int32](b, g, 2, ScalarKernels) })
	}
}

// BenchmarkBlockedTiles compares tile widths: go test ./internal/cpu -run X -bench BlockedTiles
func BenchmarkBlockedTiles(b *testing.B) {
	g := benchGraph(2048)
	g8 := benchGraph8(2048)
	for _, tile := range []int{32, 64, 128, 256} {
		b.Run(fmt.Sprintf("int32/n=2048/tile=%d", tile), func(b *testing.B) { benchBlockedTile[int32](b, g, 0, tile, FastKernels) })
		b.Run(fmt.Sprintf("int16/n=2048/tile=%d", tile), func(b *testing.B) { benchBlockedTile[int16](b, g, 0, tile, FastKernels) })
		b.Run(fmt.Sprintf("int8/n=2048/tile=%d", tile), func(b *testing.B) { benchBlockedTile[int8](b, g8, 0, tile, FastKernels) })
	}
}

func benchBlocked[T lanes.Lane](b *testing.B, g *graph.Graph, threads int, k KernelChoice) {
	benchBlockedTile[T](b, g, threads, DefaultTile, k)
}

func benchBlockedTile[T lanes.Lane](b *testing.B, g *graph.Graph, threads, tile int, k KernelChoice) {
	n := g.N()
	m0, err := lanes.NewMatrix[T](g, TileSize(n, tile))
	if err != nil {
		b.Fatal(err)
	}
	m := *m0
	m.Data = make([]T, len(m0.Data))
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		copy(m.Data, m0.Data)
		b.StartTimer()
		if err := Blocked(context.Background(), &m, BlockedOptions{Threads: threads, Tile: tile, Kernels: k}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds(), "relax/s")
}

// BenchmarkFloydWarshall is the reference loop, for scale.
func BenchmarkFloydWarshall(b *testing.B) {
	n := 512
	g := benchGraph(n)
	m0, _ := lanes.NewMatrix[int32](g, 0)
	m := *m0
	m.Data = make([]int32, len(m0.Data))
	for b.Loop() {
		b.StopTimer()
		copy(m.Data, m0.Data)
		b.StartTimer()
		if err := FloydWarshall(context.Background(), &m, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds(), "relax/s")
}
