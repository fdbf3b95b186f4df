package apsp_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// TestGPUEnginesMatchCPU runs the GPU engines through the public API (stats
// reduced on the device, full matrices, paths) against the CPU; it skips on
// machines without a GPU, such as CI.
func TestGPUEnginesMatchCPU(t *testing.T) {
	if _, err := apsp.Devices(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	specs := [][]string{
		{"regular", "n=1000", "d=3"}, {"gnp", "n=777", "r=1", "weights=1..20"}, {"grid", "a=33", "b=40", "weights=1..9"},
		{"cycle", "n=1500", "directed"}, {"gnp", "n=300", "r=5", "weights=-3..20", "directed"},
	}
	for _, spec := range specs {
		s, err := gen.ParseSpec(spec[0], append(spec[1:], "seed="+string(rune('0'+rng.IntN(9)))))
		if err != nil {
			t.Fatal(err)
		}
		g, err := gen.Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, algo := range []string{"gpu-multi", "gpu-single"} {
			want, werr := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: "blocked", Reachable: true})
			got, gerr := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: algo, Reachable: true})
			var nc *apsp.NegativeCycleError
			if errors.As(werr, &nc) {
				if !errors.As(gerr, &nc) {
					t.Fatalf("%v %s: want a negative cycle, got %v", spec, algo, gerr)
				}
				continue
			}
			if werr != nil || gerr != nil {
				t.Fatalf("%v %s: %v / %v", spec, algo, werr, gerr)
			}
			if got.Diameter != want.Diameter || got.Radius != want.Radius || got.ReachablePairs != want.ReachablePairs ||
				float64(got.ASPL) != float64(want.ASPL) || got.Connected != want.Connected {
				t.Fatalf("%v %s: got %+v\nwant %+v", spec, algo, got, want)
			}
			dw, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: "blocked"})
			if err != nil {
				t.Fatal(err)
			}
			dg, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: algo, Paths: true})
			if err != nil {
				t.Fatal(err)
			}
			for u := 0; u < g.N(); u += 7 {
				for v := 0; v < g.N(); v++ {
					if dw.At(u, v) != dg.At(u, v) {
						t.Fatalf("%v %s: d(%d,%d) = %v, want %v", spec, algo, u, v, dg.At(u, v), dw.At(u, v))
					}
				}
				if !dw.At(u, 0).IsInf() {
					if _, err := dg.Path(u, 0); err != nil {
						t.Fatalf("%v %s: path: %v", spec, algo, err)
					}
				}
			}
		}
	}
	// A negative cycle is named.
	b := graph.NewBuilder(true)
	for i := 0; i < 1200; i++ {
		_ = b.AddIntEdge(i, (i+1)%1200, 2)
	}
	_ = b.AddIntEdge(5, 4, -3)
	var nc *apsp.NegativeCycleError
	if _, err := apsp.ComputeStats(ctx, b.Build(), apsp.Options{Algorithm: "gpu-multi"}); !errors.As(err, &nc) {
		t.Fatalf("want a negative cycle, got %v", err)
	}
}
