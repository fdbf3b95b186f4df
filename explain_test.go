package apsp

import (
	"errors"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/plan"
)

func generated(t *testing.T, kind string, args ...string) *graph.Graph {
	t.Helper()
	g, err := gen.Make(kind, args...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestExplainTasks: Explain plans each entry point's own result, never
// refuses for memory, and says what the bounds method does.
func TestExplainTasks(t *testing.T) {
	if BoundsAlgorithm != plan.BoundsAlgorithm {
		t.Fatalf("BoundsAlgorithm %q, plan's %q", BoundsAlgorithm, plan.BoundsAlgorithm)
	}
	big := generated(t, "regular", "n=100000", "d=4", "seed=1") // its matrix (37 GiB) does not fit here
	small := generated(t, "petersen")
	weighted := generated(t, "grid", "a=4", "b=4", "weights=1..9")
	cpu := Options{Device: "cpu"} // under auto a machine with a GPU plans the unweighted cases there
	tests := []struct {
		g        *graph.Graph
		opt      Options
		task     Task
		engine   string
		fallback string
		err      error
	}{
		{big, cpu, TaskStats, "bitbfs", "", nil},
		{big, cpu, TaskAllPairs, "bitbfs", "", nil}, // planned, with its figure, not refused
		{big, cpu, TaskExtremes, "bounds", "bitbfs", nil},
		{small, cpu, TaskHistogram, "bitbfs", "", nil},
		{weighted, cpu, TaskExtremes, "dijkstra", "", nil},
		{weighted, Options{Algorithm: "bounds"}, TaskExtremes, "bounds", "", nil}, // refused when it runs
		{small, Options{Algorithm: "bounds"}, TaskStats, "", "", ErrInvalidOptions},
		{small, Options{Algorithm: "fw"}, TaskAllPairs, "fw", "", nil},
		{small, Options{Device: "tpu"}, TaskStats, "", "", ErrInvalidOptions},
	}
	for i, tt := range tests {
		c, err := Explain(tt.g, tt.opt, tt.task)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%d: err %v, want %v", i, err, tt.err)
			}
			continue
		}
		if err != nil || c.Engine != tt.engine || c.Fallback != tt.fallback {
			t.Errorf("%d: %+v, %v; want %s (fallback %q)", i, c, err, tt.engine, tt.fallback)
			continue
		}
		if tt.task == TaskAllPairs && tt.g == big && c.Memory < 30<<30 {
			t.Errorf("%d: the matrix of 10^5 vertices planned at %d bytes", i, c.Memory)
		}
		if tt.fallback != "" && c.BoundsBudget <= 0 {
			t.Errorf("%d: no bounds budget", i)
		}
	}
}
