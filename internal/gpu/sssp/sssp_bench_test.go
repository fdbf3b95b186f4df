package sssp

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/fw"
	"github.com/apsp/apsp/internal/gpu/minplus"
	"github.com/apsp/apsp/internal/reduce"
)

// TestSSSPCrossover times gpu-sssp (its layouts), gpu-minplus and the
// Floyd–Warshall (Rows) on weighted gnp graphs of n ∈ {2048, 8192, 32768}
// and mean degree 4 and 32, weights 1..100, checking that all agree; it
// runs only with APSP_SSSP_BENCH=1 (on the GPU machine) and prints a table:
// the median of 3 runs after a warm-up (one run of the Floyd–Warshall at
// n = 32768), device time (CUDA events) and wall
// time of the call.
func TestSSSPCrossover(t *testing.T) {
	if os.Getenv("APSP_SSSP_BENCH") != "1" {
		t.Skip("APSP_SSSP_BENCH=1 runs the crossover timings")
	}
	requireGPU(t)
	ctx := context.Background()
	type variant struct {
		name string
		run  func(g *graph.Graph) ([]reduce.Row, float64, error)
	}
	sssp := func(cfg ssspConfig) func(g *graph.Graph) ([]reduce.Row, float64, error) {
		return func(g *graph.Graph) ([]reduce.Row, float64, error) {
			r, err := ssspRows(ctx, 0, g, false, cfg)
			if err != nil {
				return nil, 0, err
			}
			return r.Rows, r.Timing.Total, nil
		}
	}
	variants := []variant{
		{"gpu-sssp", sssp(ssspConfig{})},
		{"sssp-global", sssp(ssspConfig{Global: true})},
		{"sssp-b128", sssp(ssspConfig{Block: 128})},
		{"sssp-b512", sssp(ssspConfig{Block: 512})},
		{"gpu-fw", func(g *graph.Graph) ([]reduce.Row, float64, error) {
			r, err := fw.Rows(ctx, gpu.OnGPU(0), fw.Job{Graph: g, Kernel: gpu.AutoKernel(g.N()), MaxReal: gpu.InfInt32 - 1})
			if err != nil {
				return nil, 0, err
			}
			return r.Rows, r.Timing.Total, nil
		}},
		{"gpu-minplus", func(g *graph.Graph) ([]reduce.Row, float64, error) {
			r, err := minplus.Rows(ctx, gpu.OnGPU(0), g, false)
			if err != nil {
				return nil, 0, err
			}
			return r.Rows, r.Timing.Total, nil
		}},
	}
	type size struct {
		n int
		r float64 // percent of all edges
	}
	var sizes []size
	for _, n := range []int{2048, 8192, 32768} {
		for _, deg := range []int{4, 32} {
			sizes = append(sizes, size{n, 100 * float64(deg) / float64(n-1)})
		}
	}
	if os.Getenv("APSP_SSSP_GOAL") == "1" {
		// issue 11's goal graph: 40 026 edges.
		sizes = []size{{8192, 0.1193}}
		variants = append(variants, variant{"sssp-b256", sssp(ssspConfig{Block: 256})})
	}
	fmt.Printf("| n | mean degree | arcs | engine | device ms (median) | wall ms | agrees |\n|---|---|---|---|---|---|---|\n")
	for _, sz := range sizes {
		n := sz.n
		{
			g, err := gen.Make("gnp", fmt.Sprintf("n=%d", n), fmt.Sprintf("r=%g", sz.r), "weights=1..100", "seed=1")
			if err != nil {
				t.Fatal(err)
			}
			var ref []reduce.Row
			for _, v := range variants {
				if v.name == "gpu-minplus" && n > 8192 {
					continue // 15 products of 3.5·10^13: minutes
				}
				if v.name != "gpu-sssp" && v.name != "gpu-fw" && v.name != "gpu-minplus" && n < 8192 {
					continue
				}
				runs := 3
				if v.name == "gpu-fw" && n > 8192 {
					runs = 1 // 2.6 s a run; its kernels are warm from n = 8192
				} else if _, _, err := v.run(g); err != nil { // warm-up: compile, pools
					t.Fatalf("%s n=%d: %v", v.name, n, err)
				}
				var dev, wall []float64
				var rows []reduce.Row
				for range runs {
					start := time.Now()
					rr, d, err := v.run(g)
					if err != nil {
						t.Fatal(err)
					}
					wall = append(wall, float64(time.Since(start).Microseconds())/1000)
					dev = append(dev, d)
					rows = rr
				}
				slices.Sort(dev)
				slices.Sort(wall)
				agree := "ref"
				if ref == nil {
					ref = rows
				} else if slices.EqualFunc(rows, ref, func(a, b reduce.Row) bool {
					return a.Reach == b.Reach && a.Unreach == b.Unreach && a.MaxI == b.MaxI && a.Sum == b.Sum
				}) {
					agree = "yes"
				} else {
					agree = "NO"
					t.Errorf("%s n=%d r=%g: rows differ from gpu-sssp's", v.name, n, sz.r)
				}
				fmt.Printf("| %d | %.1f | %d | %s | %.2f | %.2f | %s |\n", n, float64(g.Arcs())/float64(n), g.Arcs(), v.name, dev[len(dev)/2], wall[len(wall)/2], agree)
			}
		}
	}
}
