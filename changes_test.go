package apsp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
)

// randomChanges are count random changes of g: edge swaps (most kept by
// ArcEdits), additions and removals (which change arc counts), changes
// that Change refuses, and lengths added to an unweighted graph.
func randomChanges(rng *rand.Rand, g *graph.Graph, count int) []graph.Changes {
	var edges [][2]int
	for u := range g.N() {
		for _, v := range g.Neighbors(u) {
			if g.Directed() || u < int(v) {
				edges = append(edges, [2]int{u, int(v)})
			}
		}
	}
	pick := func() [2]int {
		if len(edges) == 0 {
			return [2]int{0, min(1, g.N()-1)}
		}
		return edges[rng.IntN(len(edges))]
	}
	cs := make([]graph.Changes, count)
	for i := range cs {
		switch r := rng.IntN(10); {
		case r < 6:
			e, f := pick(), pick()
			cs[i] = graph.Changes{Remove: [][2]int{e, f}, Add: [][2]int{{e[0], f[0]}, {e[1], f[1]}}}
		case r == 6:
			cs[i] = graph.Changes{Remove: [][2]int{pick()}}
		case r == 7:
			cs[i] = graph.Changes{Add: [][2]int{{rng.IntN(g.N()), rng.IntN(g.N())}}}
		case r == 8:
			e, f := pick(), pick()
			cs[i] = graph.Changes{Remove: [][2]int{e, f}, Add: [][2]int{{e[0], f[0]}, {e[1], f[1]}}, AddInt: []int64{2, 1}}
		default: // nothing changed
		}
	}
	return cs
}

// TestSummaryChanges: SummaryChanges gives, change by change, Change's
// error or the Summary that SummaryBatch gives of Change's graph, on the
// CPU and (where there is one) the GPU, whose bulk search must measure
// the swaps of an unweighted graph of up to 1 024 vertices as edits.
func TestSummaryChanges(t *testing.T) {
	ctx := context.Background()
	devices := []string{"cpu"}
	if _, err := Devices(); err == nil {
		devices = append(devices, "gpu")
	}
	rng := rand.New(rand.NewPCG(81, 82))
	for trial := range 24 {
		n := 1 + rng.IntN(120)
		if trial%6 == 5 {
			n = 1024
		}
		p := 3 / float64(n)
		if trial == 11 {
			// Dense: a GPU's bulk search cannot hold the arcs' table of
			// 1 024 vertices of degree ~60 in shared memory, so the swaps
			// are built and measured as graphs.
			p = 0.06
		}
		mode := unweighted
		if trial%8 == 7 {
			mode = intWeights
		}
		g := randomGraph(rng, n, p, trial%2 == 1, mode)
		changes := randomChanges(rng, g, 1+rng.IntN(60))
		built := make([]*graph.Graph, len(changes))
		wantErr := make([]error, len(changes))
		for i, c := range changes {
			built[i], wantErr[i] = g.Change(c)
		}
		for _, device := range devices {
			opt := Options{Device: device}
			var gs []*graph.Graph
			var at []int
			for i, h := range built {
				if h != nil {
					gs, at = append(gs, h), append(at, i)
				}
			}
			want, werrs := SummaryBatch(ctx, gs, opt)
			ev, err := NewEvaluator(opt)
			if err != nil {
				t.Fatal(err)
			}
			for call, f := range []func() ([]Summary, []error){
				func() ([]Summary, []error) { return SummaryChanges(ctx, g, changes, opt) },
				func() ([]Summary, []error) { return ev.SummaryChanges(ctx, g, changes) },
			} {
				sums, errs := f()
				name := fmt.Sprintf("trial %d (%d vertices, %v, directed %v) on %s, call %d", trial, n, mode, g.Directed(), device, call)
				if len(sums) != len(changes) || len(errs) != len(changes) {
					t.Fatalf("%s: %d summaries and %d errors for %d changes", name, len(sums), len(errs), len(changes))
				}
				for i := range changes {
					if wantErr[i] != nil {
						if errs[i] == nil || errs[i].Error() != wantErr[i].Error() {
							t.Fatalf("%s: change %d %+v: error %v, want %v", name, i, changes[i], errs[i], wantErr[i])
						}
					}
				}
				edited := 0
				for k, i := range at {
					got, w := sums[i], want[k]
					if errs[i] != nil || werrs[k] != nil {
						t.Fatalf("%s: change %d: %v (batch: %v)", name, i, errs[i], werrs[k])
					}
					if got.Vertices != w.Vertices || got.Connected != w.Connected || got.Diameter != w.Diameter ||
						got.ReachablePairs != w.ReachablePairs || float64(got.ASPL) != float64(w.ASPL) && !(math.IsNaN(float64(got.ASPL)) && math.IsNaN(float64(w.ASPL))) {
						t.Fatalf("%s: change %d %+v: %+v, want %+v", name, i, changes[i], got, w)
					}
					if _, ok, _ := g.ArcEdits(changes[i], nil); ok && got.Algorithm == engine.BulkName {
						edited++
					}
				}
				if device == "gpu" && trial == 11 {
					if ev.ChangesAsEdits(g) {
						t.Fatalf("%s: the dense graph's swaps taken as edits", name)
					}
				} else if device == "gpu" && mode == unweighted && n > 1 {
					if !ev.ChangesAsEdits(g) {
						t.Fatalf("%s: the swaps not taken as edits", name)
					}
					swaps := 0
					for _, i := range at {
						if _, ok, _ := g.ArcEdits(changes[i], nil); ok {
							swaps++
						}
					}
					if edited != swaps {
						t.Fatalf("%s: %d of %d swaps measured by the bulk search", name, edited, swaps)
					}
				}
			}
		}
	}
}
