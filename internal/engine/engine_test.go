package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// TestCapsAgreeWithMethods: a capability is a promise the planner relies
// on; every engine that claims one implements it.
func TestCapsAgreeWithMethods(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		c := e.Caps()
		if seen[e.Name()] {
			t.Errorf("two engines called %s", e.Name())
		}
		seen[e.Name()] = true
		if _, ok := e.(RowReducer); ok != c.Rows {
			t.Errorf("%s: Caps.Rows %v but RowReducer %v", e.Name(), c.Rows, ok)
		}
		if _, ok := e.(Histogrammer); ok != c.Hist {
			t.Errorf("%s: Caps.Hist %v but Histogrammer %v", e.Name(), c.Hist, ok)
		}
		if len(c.Lanes) == 0 || c.Weights == 0 {
			t.Errorf("%s: no lanes or weights in its caps", e.Name())
		}
		if got, ok := ByName(e.Name()); !ok || got.Name() != e.Name() {
			t.Errorf("ByName(%s) = %v, %v", e.Name(), got, ok)
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Error("ByName found an engine called nope")
	}
}

func build(t *testing.T, directed bool, add func(b *graph.Builder) error) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(directed)
	if err := add(b); err != nil {
		t.Fatal(err)
	}
	return b.Build()
}

// TestCheck: what Caps alone rules out, with the reason.
func TestCheck(t *testing.T) {
	weighted := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 5) })
	negative := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, -5) })
	wide := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 1<<62) })
	unweighted := build(t, false, func(b *graph.Builder) error { return b.AddEdge(0, 1) })
	tests := []struct {
		engine string
		g      *graph.Graph
		want   error // nil: takes it; errNonNil: refuses for another reason
	}{
		{"bitbfs", weighted, ErrNeedsUnweighted},
		{"bitbfs", unweighted, nil},
		{"dijkstra", negative, errNonNil},
		{"johnson", negative, nil},
		{"blocked", wide, lanes.ErrWide},
		{"fw", wide, nil},
		{"dijkstra", wide, nil},
		{"gpu-multi", wide, errNonNil},
	}
	for _, tt := range tests {
		e, _ := ByName(tt.engine)
		plan, err := lanes.PlanFor(tt.g)
		if err != nil {
			t.Fatal(err)
		}
		err = Check(e, tt.g, plan)
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("%s: %v", tt.engine, err)
		case tt.want == errNonNil && err == nil, tt.want != nil && tt.want != errNonNil && !errors.Is(err, tt.want):
			t.Errorf("%s: err = %v, want %v", tt.engine, err, tt.want)
		}
	}
}

var errNonNil = errors.New("any error")

// TestGPUFWLanesFollowTheGraph: the GPU engines take their lanes' class
// from the graph, so float32 named for an integer graph is refused before
// it runs (gpu-multi and gpu-single computed int32 that was read as
// float32: every measure came out 0).
func TestGPUFWLanesFollowTheGraph(t *testing.T) {
	b := graph.NewBuilder(false)
	if err := b.AddIntEdge(0, 1, 2); err != nil {
		t.Fatal(err)
	}
	if err := b.AddIntEdge(1, 2, 3); err != nil {
		t.Fatal(err)
	}
	g := b.Build()
	lp, err := lanes.PlanFor(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Engine{GPUEngine(gpuMulti), GPUEngine(gpuSingle), SSSPEngine(), MinPlusEngine()} {
		err := e.Supports(&Problem{Graph: g, Plan: lp, Lanes: lanes.Float32})
		if err == nil || !strings.Contains(err.Error(), "not float32") {
			t.Errorf("%s: float32 lanes on an integer graph: %v", e.Name(), err)
		}
	}
}
