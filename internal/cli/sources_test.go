package cli

import "testing"

// TestFromTargets: --explain shows the search apsp.DistancesBetween runs,
// from the targets exactly when they are fewer than the rows asked for.
func TestFromTargets(t *testing.T) {
	for _, c := range []struct {
		n                int
		sources, targets []int
		want             bool
	}{
		{5, nil, nil, false},
		{5, []int{1}, nil, false},
		{5, nil, []int{1, 2}, true},
		{5, nil, []int{0, 1, 2, 3, 4}, false},
		{5, []int{1, 2}, []int{3}, true},
		{5, []int{1}, []int{3, 4}, false},
		{5, []int{1, 2}, []int{3, 4}, false},
	} {
		if got := fromTargets(c.n, c.sources, c.targets); got != c.want {
			t.Errorf("n=%d sources %v targets %v: %v, want %v", c.n, c.sources, c.targets, got, c.want)
		}
	}
}
