package fw

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/lanes"
)

// TestCoarseAgreesWithCPU runs the coarse rounds (pivot blocks of two or
// three tiles, the last one short, and a block as wide as the matrix,
// which falls back to the tile rounds) in int32, float32, int16 and int8
// lanes on random graphs, directed or not, with negative arcs: every
// distance equal to the CPU's Floyd–Warshall, and the integer row
// summaries equal to the tile rounds'.
func TestCoarseAgreesWithCPU(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(51, 52))
	base := []gpu.Config{{Kernel: gpu.Multi, Tile: 64, TDim: 16}, {Kernel: gpu.Multi, Tile: 128, TDim: 16}, gpu.ConfigFor(gpu.Multi, 4096, lanes.Int16), gpu.ConfigFor(gpu.Multi, 32768, lanes.Int16), gpu.ConfigFor(gpu.Multi, 4096, lanes.Int8)}
	runs := 0
	for trial, n := range []int{100, 300, 700, 1000, 1500} {
		for ci, c := range base {
			for _, blocks := range []int{2 + (trial+ci)%2} {
				c.Coarse = blocks * c.Tile
				for _, float := range []bool{false, true} {
					packed := c.Pack() > 1
					if float && packed {
						continue
					}
					c.Float = float
					directed := (trial+ci)%2 == 0
					negative := directed && !float && !packed && trial%2 == 1
					name := fmt.Sprintf("n=%d/directed=%v/negative=%v/float=%v/%v/W%d/coarse=%d", n, directed, negative, float, c.Lanes, c.Tile, c.Coarse)
					g := randomGraph(rng, n, []float64{0.01, 0.05, 0.3}[trial%3], directed, negative, float)
					if packed {
						g = packedGraph(rng, n, c.Lanes, 0.05, 30, directed, false)
						ref, _ := reference(t, g)
						comparePacked(t, ctx, s, g, ref, c, name)
					} else {
						compare(t, ctx, s, g, c, name)
					}
					runs++
					if float {
						continue
					}
					// The integer summaries equal the tile rounds'.
					stride := (n + c.Tile - 1) / c.Tile * c.Tile
					plan, err := lanes.PlanFor(g)
					if err != nil {
						t.Fatal(err)
					}
					p := Problem{N: n, Stride: stride, Config: c, MaxReal: int32(min(plan.MaxReal, int64(c.Inf()-1)))}
					if packed {
						p.MaxReal = c.Inf() - 1
					}
					init := InitLanes(g, stride, c)
					coarse, err := s.Run(ctx, p, init, false)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					p.Config.Coarse = 0
					tile, err := s.Run(ctx, p, init, false)
					if err != nil {
						t.Fatalf("%s (tile rounds): %v", name, err)
					}
					if !slices.Equal(coarse.Reach, tile.Reach) || !slices.Equal(coarse.Max, tile.Max) || !slices.Equal(coarse.Sum, tile.Sum) || coarse.NegVertex != tile.NegVertex {
						t.Fatalf("%s: row summaries differ from the tile rounds'", name)
					}
				}
			}
		}
	}
	t.Logf("%d coarse runs equal to the CPU", runs)
}
