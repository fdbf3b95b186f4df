package run

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestBatchNotice passes each distinct notice on once.
func TestBatchNotice(t *testing.T) {
	var got []string
	b := &batch{callerNotice: func(s string) { got = append(got, s) }}
	for _, s := range []string{"a", "b", "a", "a", "b", "c"} {
		b.notice(s)
	}
	if fmt.Sprint(got) != "[a b c]" {
		t.Fatalf("notices %v", got)
	}
}

// cpuBatch is a batch engine made for the tests: it computes each graph
// with the reference Floyd–Warshall, refuses the graphs refuse says, and
// fails its stream once failAt graphs are delivered (never when failAt
// is 0). It shows a batch engine added without touching the facade: the
// executor offers it graphs by its capabilities alone.
type cpuBatch struct {
	refuse func(g *graph.Graph) bool
	failAt int
	seen   int // graphs streamed
}

func (*cpuBatch) Name() string                             { return "test-batch" }
func (*cpuBatch) Fits(g *graph.Graph) bool                 { return g.Kind() != graph.FloatWeights && g.N() <= 64 }
func (*cpuBatch) TakesLanes(k lanes.Kind) bool             { return false }
func (*cpuBatch) Wins(gs []*graph.Graph, threads int) bool { return true }
func (c *cpuBatch) Stream(ctx context.Context, ordinal int, gs []*graph.Graph, group int,
	deliver func(lo, hi int, out []engine.BatchResult, device string) error) error {
	ref, _ := engine.ByName("fw")
	for lo := 0; lo < len(gs); lo += group {
		hi := min(lo+group, len(gs))
		if c.failAt > 0 && c.seen+hi-lo > c.failAt {
			return errors.New("the test batch engine failed")
		}
		out := make([]engine.BatchResult, hi-lo)
		for k, g := range gs[lo:hi] {
			if c.refuse != nil && c.refuse(g) {
				out[k].Err = errors.New("refused")
				continue
			}
			lp, err := lanes.PlanFor(g)
			if err != nil {
				return err
			}
			r, err := ref.Run(ctx, &engine.Problem{Graph: g, Plan: lp, Lanes: lanes.Int64, Threads: 1})
			if err != nil {
				out[k].Err = err // a negative cycle: the one-graph way reports it
				continue
			}
			out[k] = engine.BatchResult{Rows: result.RowsOf(result.NewDistances(r), 1), Lanes: lanes.Int64}
		}
		c.seen += hi - lo
		if err := deliver(lo, hi, out, "test"); err != nil {
			return err
		}
	}
	return nil
}

// TestBatchEngineAdded: a batch engine that is not one of engine.Batches
// takes the graphs it fits, in groups; the graphs it refuses, those it does
// not fit and those of the groups after it fails go the one-graph way; the
// results equal Stats' in input order, handed over in order.
func TestBatchEngineAdded(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var gs []*graph.Graph
	for i := range 40 {
		spec := testgraphs.Spec{N: 5 + rng.IntN(70), P: 0.15, Directed: i%3 == 0, Lo: 1, Hi: 9}
		switch i % 4 {
		case 1:
			spec.Kind = graph.IntWeights
		case 2:
			spec.Kind = graph.FloatWeights
		}
		gs = append(gs, testgraphs.Random(rng, spec))
	}
	o, err := plan.Parse(plan.Raw{Device: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]*result.Stats, len(gs))
	for i, g := range gs {
		if want[i], err = Stats(context.Background(), g, o); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		engine *cpuBatch
	}{
		{"all delivered", &cpuBatch{}},
		{"some refused", &cpuBatch{refuse: func(g *graph.Graph) bool { return g.N()%2 == 0 }}},
		{"fails midway", &cpuBatch{failAt: 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			handed := 0
			stats, errs := Batch(context.Background(), gs, o, BatchOptions{Group: 3, Engines: []engine.BatchEngine{tc.engine},
				Ready: func(lo, hi int, _ []*result.Stats, _ []error) {
					if lo != handed {
						t.Errorf("handed over [%d, %d) after %d", lo, hi, handed)
					}
					handed = hi
				}})
			if handed != len(gs) {
				t.Errorf("handed over %d of %d", handed, len(gs))
			}
			took := 0
			for i, g := range gs {
				if errs[i] != nil {
					t.Fatalf("graph %d: %v", i, errs[i])
				}
				s, w := stats[i], want[i]
				if s.Diameter != w.Diameter || s.Radius != w.Radius || s.ASPL != w.ASPL || s.Connected != w.Connected ||
					s.ReachablePairs != w.ReachablePairs || fmt.Sprint(s.Center, s.Periphery) != fmt.Sprint(w.Center, w.Periphery) {
					t.Fatalf("graph %d: %+v, Stats gives %+v", i, s, w)
				}
				byBatch := s.Algorithm == "test-batch"
				if byBatch {
					took++
				}
				fits := tc.engine.Fits(g) && (tc.engine.refuse == nil || !tc.engine.refuse(g))
				if byBatch && !fits {
					t.Errorf("graph %d (n=%d, %v): computed by the batch engine, which does not take it", i, g.N(), g.Kind())
				}
				if !byBatch && fits && tc.engine.failAt == 0 {
					t.Errorf("graph %d: the batch engine fits it, yet %s computed it", i, s.Algorithm)
				}
			}
			if took == 0 || (tc.engine.failAt > 0 && took > tc.engine.failAt) {
				t.Errorf("the batch engine computed %d graphs", took)
			}
		})
	}
}
