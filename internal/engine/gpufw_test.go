package engine

import (
	"context"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/lanes"
)

// TestGPUFWLanes: the FW GPU engines compute in int16×2 where the lane plan
// holds int16, int32 where it does not (long paths, negative lengths),
// float32 for float graphs; the job packs lanes only for a plan that holds
// them. No GPU needed.
func TestGPUFWLanes(t *testing.T) {
	path := func(n int, w int64, float bool) *graph.Graph {
		b := graph.NewBuilder(true)
		_ = b.SetVertices(n)
		for u := 0; u+1 < n; u++ {
			if float {
				_ = b.AddFloatEdge(u, u+1, float64(w)+0.5)
			} else {
				_ = b.AddIntEdge(u, u+1, w)
			}
		}
		return b.Build()
	}
	cases := []struct {
		name string
		g    *graph.Graph
		want lanes.Kind
	}{
		{"short path", path(10, 3, false), lanes.Int16},
		{"at int16's limit", path(3, int64(lanes.Inf16-1)/2, false), lanes.Int16},
		{"beyond int16", path(3, int64(lanes.Inf16), false), lanes.Int32},
		{"negative", func() *graph.Graph {
			b := graph.NewBuilder(true)
			_ = b.SetVertices(3)
			_ = b.AddIntEdge(0, 1, 4)
			_ = b.AddIntEdge(1, 2, -1)
			return b.Build()
		}(), lanes.Int32},
		{"float", path(10, 3, true), lanes.Float32},
	}
	for _, k := range []gpu.Kernel{gpu.Multi, gpu.Single} {
		e := GPUEngine(k)
		for _, c := range cases {
			plan, err := lanes.PlanFor(c.g)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(e, c.g, plan); err != nil {
				t.Fatalf("%s %s: %v", e.Name(), c.name, err)
			}
			got, err := plan.Narrowest(e.Caps().Lanes...)
			if err != nil || got != c.want {
				t.Errorf("%s %s: lanes %v (%v), want %v", e.Name(), c.name, got, err, c.want)
			}
			j, err := gpuEngine{k}.job(context.Background(), &Problem{Graph: c.g, Plan: plan, Lanes: got})
			if err != nil {
				t.Fatal(err)
			}
			packed := c.want == lanes.Int16
			if (j.Lanes == lanes.Int16) != packed {
				t.Errorf("%s %s: job lanes %v", e.Name(), c.name, j.Lanes)
			}
		}
		// A kind the plan does not hold is never packed, whatever asks.
		g := path(3, int64(lanes.Inf16), false)
		plan, _ := lanes.PlanFor(g)
		if j, _ := (gpuEngine{k}).job(context.Background(), &Problem{Graph: g, Plan: plan, Lanes: lanes.Int16}); j.Lanes != 0 {
			t.Errorf("%s: a plan beyond int16 packed as %v", e.Name(), j.Lanes)
		}
	}
}
