package golf

import (
	"context"
	"testing"
)

// BenchmarkSearchStep is the cost of one evaluation of a search at
// (256, 8) (ns/op is per evaluation).
func BenchmarkSearchStep(b *testing.B) {
	for _, batch := range []int{1, 2} {
		b.Run(map[int]string{1: "batch1", 2: "batch2"}[batch], func(b *testing.B) {
			opt := Options{N: 256, D: 8, Evals: int64(b.N), Seed: 1, Method: HillClimbing, Batch: batch}
			if _, err := Search(context.Background(), opt); err != nil {
				b.Fatal(err)
			}
		})
	}
}
