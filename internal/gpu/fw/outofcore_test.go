package fw

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/lanes"
)

// TestPlanOutOfCore checks that the plans fit their budget, take whole
// tiles, and that a round's strips cover every row but the pivot rows
// once.
func TestPlanOutOfCore(t *testing.T) {
	for _, tt := range []struct {
		stride, tile, lb int
		budget           uint64
	}{
		{32768, 128, 4, 1 << 30}, {147456, 128, 4, 75 << 30}, {768, 128, 4, 3 << 20}, {768, 64, 2, 1 << 20},
		{4096, 128, 4, 40 << 20}, {1 << 16, 128, 1, 100 << 20},
	} {
		p, err := planOutOfCore(tt.stride, tt.tile, tt.lb, tt.budget)
		if err != nil {
			t.Errorf("%+v: %v", tt, err)
			continue
		}
		need := gpurt.Class(uint64(p.s)*p.row) + oocBuffers*gpurt.Class(uint64(p.h)*p.row)
		if p.s%tt.tile != 0 || p.h%tt.tile != 0 || p.s < tt.tile || p.h < tt.tile || p.s > tt.stride || need > tt.budget {
			t.Errorf("%+v: plan %+v needs %d bytes", tt, p, need)
		}
		for z0 := 0; z0 < tt.stride; z0 += p.s {
			z1 := min(z0+p.s, tt.stride)
			seen := make([]int, tt.stride)
			for r := z0; r < z1; r++ {
				seen[r]++
			}
			for _, s := range p.strips(z0, z1) {
				if s.r1-s.r0 > p.h || s.r1 <= s.r0 {
					t.Fatalf("%+v: strip %+v of plan %+v", tt, s, p)
				}
				for r := s.r0; r < s.r1; r++ {
					seen[r]++
				}
			}
			for r, k := range seen {
				if k != 1 {
					t.Fatalf("%+v: round at %d covers row %d %d times", tt, z0, r, k)
				}
			}
		}
	}
	if _, err := planOutOfCore(4096, 128, 4, 1<<20); err == nil {
		t.Error("a 1 MiB budget for 4096 vertices: want an error")
	}
}

// TestOutOfCoreAgreesWithCPU runs Floyd–Warshall out of core, forced by a
// device-memory limit that holds a few tiles' rows, so that every run has
// several rounds and strips: the matrix must equal the CPU reference and
// the row summaries the in-core run's.
func TestOutOfCoreAgreesWithCPU(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	configs := []gpu.Config{
		{Kernel: gpu.Multi, Tile: 128, TDim: 16}, {Kernel: gpu.Multi, Tile: 64, TDim: 16}, {Kernel: gpu.Single, Tile: 64, TDim: 8},
		gpu.ConfigFor(gpu.Multi, 4096, lanes.Int16),
	}
	runs := 0
	for trial, n := range []int{1, 100, 257, 300, 700, 1000} {
		for _, c := range configs {
			for _, float := range []bool{false, true} {
				packed := c.Lanes == lanes.Int16
				if float && packed {
					continue
				}
				c.Float = float
				directed := trial%2 == 0
				negative := directed && !float && !packed && trial%3 == 0
				g := randomGraph(rng, n, []float64{0.01, 0.05, 0.3}[trial%3], directed, negative, float)
				if packed {
					g = packedGraph(rng, n, lanes.Int16, 0.05, 30, directed, false)
				}
				stride := (n + c.Tile - 1) / c.Tile * c.Tile
				row := uint64(stride * c.LaneBytes())
				budget := gpurt.Class(2*uint64(c.Tile)*row) + oocBuffers*gpurt.Class(uint64(c.Tile)*row)
				name := fmt.Sprintf("n=%d/directed=%v/negative=%v/float=%v/%v/%v/W%d", n, directed, negative, float, c.Lanes, c.Kernel, c.Tile)
				plan, err := lanes.PlanFor(g)
				if err != nil {
					t.Fatal(err)
				}
				p := Problem{N: n, Stride: stride, Config: c, MaxReal: int32(min(plan.MaxReal, int64(c.Inf()-1)))}
				init := InitLanes(g, stride, c)
				if packed {
					p.MaxReal = c.Inf() - 1
				}
				in, err := s.Run(ctx, p, init, false)
				if err != nil {
					t.Fatalf("%s in core: %v", name, err)
				}
				t.Setenv(MemoryLimitEnv, fmt.Sprint(oocMargin+budget))
				wantOut := gpurt.Class(uint64(stride)*row) > budget
				if packed {
					ref, _ := reference(t, g)
					comparePacked(t, ctx, s, g, ref, c, name+" (out of core)")
				} else {
					compare(t, ctx, s, g, c, name+" (out of core)")
				}
				out, err := s.Run(ctx, p, init, false)
				t.Setenv(MemoryLimitEnv, "")
				if err != nil {
					t.Fatalf("%s out of core: %v", name, err)
				}
				if out.OutOfCore != wantOut {
					t.Fatalf("%s: out of core %v, want %v", name, out.OutOfCore, wantOut)
				}
				if !slices.Equal(out.Reach, in.Reach) || out.NegVertex != in.NegVertex {
					t.Fatalf("%s: reach or negative cycle differ from the in-core run's", name)
				}
				if !float && (!slices.Equal(out.Max, in.Max) || !slices.Equal(out.Sum, in.Sum)) {
					t.Fatalf("%s: row summaries differ from the in-core run's", name)
				}
				// float32 sums of a path's arcs depend on the order of the
				// rounds, which out of core differs from in core.
				for u := range n {
					if float && !(near(float64(math.Float32frombits(out.Max[u])), float64(math.Float32frombits(in.Max[u])), true) && near(out.Sum[u], in.Sum[u], true)) {
						t.Fatalf("%s: row %d: max %v sum %v, in core %v %v", name, u, math.Float32frombits(out.Max[u]), out.Sum[u], math.Float32frombits(in.Max[u]), in.Sum[u])
					}
				}
				if wantOut {
					runs++
				}
			}
		}
	}
	if runs == 0 {
		t.Fatal("no run went out of core")
	}
	// A pivot block of ten tiles over two rounds (the planner's choice for a
	// budget of three quarters of the matrix), in int32 and int8 lanes.
	for _, c := range []gpu.Config{{Kernel: gpu.Multi, Tile: 128, TDim: 16}, gpu.ConfigFor(gpu.Multi, 4096, lanes.Int8)} {
		n := 1500
		g := randomGraph(rng, n, 0.01, true, false, false)
		if c.Lanes == lanes.Int8 {
			g = packedGraph(rng, n, lanes.Int8, 0.02, 2, true, false)
		}
		stride := (n + c.Tile - 1) / c.Tile * c.Tile
		row := uint64(stride * c.LaneBytes())
		budget := gpurt.Class(uint64(stride)*row) * 3 / 4
		if pl, err := planOutOfCore(stride, c.Tile, c.LaneBytes(), budget); err != nil || pl.s >= stride || pl.s < 4*c.Tile {
			t.Fatalf("%v: plan %+v, %v: want several rounds of a pivot block of several tiles", c.Lanes, pl, err)
		}
		t.Setenv(MemoryLimitEnv, fmt.Sprint(oocMargin+budget))
		name := fmt.Sprintf("n=%d/%v/wide strips", n, c.Lanes)
		if c.Lanes == lanes.Int8 {
			ref, _ := reference(t, g)
			comparePacked(t, ctx, s, g, ref, c, name)
		} else {
			compare(t, ctx, s, g, c, name)
		}
		p := Problem{N: n, Stride: stride, Config: c, MaxReal: c.Inf() - 1}
		if res, err := s.Run(ctx, p, InitLanes(g, stride, c), false); err != nil || !res.OutOfCore {
			t.Fatalf("%s: out of core %v, %v", name, res != nil && res.OutOfCore, err)
		}
		t.Setenv(MemoryLimitEnv, "")
		runs++
	}
	t.Logf("%d out-of-core runs matched", runs)
}

// TestInitLanesParallel checks the row-parallel fill of a matrix large
// enough to be split against a cell-by-cell reference, in every lane kind.
func TestInitLanesParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, stride := 3000, 3072 // 9.4M cells: several workers
	g := packedGraph(rng, n, lanes.Int16, 0.002, 30, true, false)
	for _, c := range []gpu.Config{{Tile: 128}, {Tile: 128, Float: true}, gpu.ConfigFor(gpu.Multi, 4096, lanes.Int16), gpu.ConfigFor(gpu.Multi, 4096, lanes.Int8)} {
		h := make([]uint32, stride*stride/c.Pack())
		InitLanes(g, stride, c)(h)
		inf := c.Inf()
		for u := range stride {
			want := make(map[int]int64)
			if u < n {
				for i, v := range g.Neighbors(u) {
					want[int(v)] = min(g.ArcInt(u, i), int64(inf))
				}
			}
			for v := range stride {
				got := int64(int32(LaneAt(h, c, u*stride+v)))
				if c.Float {
					got = int64(math.Float32frombits(LaneAt(h, c, u*stride+v)))
					if math.IsInf(float64(math.Float32frombits(LaneAt(h, c, u*stride+v))), 1) {
						got = int64(inf)
					}
				}
				w, ok := want[v]
				switch {
				case u == v:
					w = 0
				case !ok:
					w = int64(inf)
				}
				if got != w {
					t.Fatalf("%+v: cell (%d,%d) = %d, want %d", c, u, v, got, w)
				}
			}
		}
	}
}
