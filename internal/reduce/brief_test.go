package reduce

import "testing"

// TestNewBriefReuse: a released Brief comes back zeroed and of the length
// asked for, smaller or larger than before.
func TestNewBriefReuse(t *testing.T) {
	for round, n := range []int{5, 3, 0, 10, 1000, 7} {
		b := NewBrief(n)
		if len(b.Ecc) != n || len(b.Reach) != n || b.Pairs != 0 || b.Sum != (Wide{}) {
			t.Fatalf("round %d: NewBrief(%d) has %d, %d entries, pairs %d, sum %v", round, n, len(b.Ecc), len(b.Reach), b.Pairs, b.Sum)
		}
		for i := range n {
			if b.Ecc[i] != 0 || b.Reach[i] != 0 {
				t.Fatalf("round %d: NewBrief(%d) entry %d is %d, %d", round, n, i, b.Ecc[i], b.Reach[i])
			}
			b.Ecc[i], b.Reach[i] = int64(i+1), int32(i+2)
		}
		b.Pairs = 9
		b.Sum.Add(99)
		b.Release()
	}
}
