package gpu

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/comm"
)

// TestPlacement: each constructor's GPUs, One, Ranks and name; OnGPUs
// keeps its own copy of the list; Refuse wraps ErrPlacement and names the
// placement.
func TestPlacement(t *testing.T) {
	world, err := comm.NewFake(3)
	if err != nil {
		t.Fatal(err)
	}
	list := []int{2, 0}
	for _, c := range []struct {
		p       Placement
		gpus    []int
		one     int
		oneOK   bool
		ranksOK bool
		name    string
	}{
		{Placement{}, []int{0}, 0, true, false, "gpu:0"},
		{OnGPU(3), []int{3}, 3, true, false, "gpu:3"},
		{OnGPUs([]int{1}), []int{1}, 1, true, false, "gpu:1"},
		{OnGPUs(list), []int{2, 0}, 0, false, false, "gpu:2,0"},
		{OnGPUs([]int{0, 0}), []int{0, 0}, 0, false, false, "gpu:0,0"},
		{OnGPUs(nil), []int{}, 0, false, false, "gpu:"},
		{OverRanks(world[1], 2), []int{2}, 0, false, true, "rank 1 of 3 (gpu:2)"},
	} {
		gpus, err := c.p.GPUs()
		if err != nil || !slices.Equal(gpus, c.gpus) {
			t.Errorf("%v: GPUs() = %v, %v; want %v", c.p, gpus, err, c.gpus)
		}
		if o, ok := c.p.One(); ok != c.oneOK || (ok && o != c.one) {
			t.Errorf("%v: One() = %d, %v; want %d, %v", c.p, o, ok, c.one, c.oneOK)
		}
		if w, o, ok := c.p.Ranks(); ok != c.ranksOK || (ok && (w != world[1] || o != 2)) {
			t.Errorf("%v: Ranks() = %v, %d, %v", c.p, w, o, ok)
		}
		if got := c.p.String(); got != c.name {
			t.Errorf("String() = %q, want %q", got, c.name)
		}
	}
	p := OnGPUs(list)
	list[0] = 7
	if gpus, _ := p.GPUs(); gpus[0] != 2 {
		t.Errorf("OnGPUs shares the caller's list: %v", gpus)
	}
	gpus, _ := p.GPUs()
	gpus[1] = 9
	if again, _ := p.GPUs(); again[1] != 0 {
		t.Errorf("GPUs() shares the placement's list: %v", again)
	}
	if _, ok := OnAll().One(); ok {
		t.Error("OnAll().One() is ok")
	}
	if got := OnAll().String(); got != "gpu:all" {
		t.Errorf("OnAll().String() = %q", got)
	}
	if _, err := Devices(); err != nil {
		if _, err := OnAll().GPUs(); !errors.Is(err, ErrNoGPU) {
			t.Errorf("OnAll().GPUs() without a GPU: %v, want ErrNoGPU", err)
		}
	}
	err = Refuse("gpu-minplus", "the matrix", OnGPUs([]int{0, 1}))
	if !errors.Is(err, ErrPlacement) || !strings.Contains(err.Error(), "gpu-minplus") || !strings.Contains(err.Error(), "gpu:0,1") {
		t.Errorf("Refuse: %v", err)
	}
}
