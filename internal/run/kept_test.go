package run

import (
	"testing"

	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/plan"
)

// TestKeptPlanKeys: a kept plan is handed out only for the threads and the
// count of opened GPUs it was made under, and a plan that is not small is
// not kept.
func TestKeptPlanKeys(t *testing.T) {
	g, err := gen.Make("regular", "n=64", "d=4", "seed=1")
	if err != nil {
		t.Fatal(err)
	}
	o, err := plan.Parse(plan.Raw{Device: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := resolve(g, o, plan.Rows)
	if err != nil {
		t.Fatal(err)
	}
	var k Kept
	k.store(pl, 2, 0, DefaultSmall)
	if k.Plan(2, 0) != pl {
		t.Fatal("the plan stored is not handed out")
	}
	if k.Plan(3, 0) != nil || k.Plan(2, 1) != nil {
		t.Fatal("a plan handed out for other threads or after a GPU opened")
	}
	var big Kept
	big.store(pl, 2, 0, Small{Seconds: -1})
	if big.Plan(2, 0) != nil {
		t.Fatal("a plan that is not small was kept")
	}
}
