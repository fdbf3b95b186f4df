package minplus

import "testing"

// TestMinPlusProducts: ⌈log₂(n−1)⌉ squarings reach paths of n−1 arcs, one
// more confirms.
func TestMinPlusProducts(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 1}, {2, 1}, {3, 2}, {5, 3}, {6, 4}, {1024, 11}, {1025, 11}, {1026, 12}, {8192, 14}} {
		if got := Products(c.n); got != c.want {
			t.Errorf("Products(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
