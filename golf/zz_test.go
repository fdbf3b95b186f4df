package golf

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestZZSA(t *testing.T) {
	t0 := time.Now()
	r, err := Search(context.Background(), Options{N: 256, D: 8, Evals: 200000, Seed: 1, Batch: 1})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(r.Evals, r.Accepted, time.Since(t0), r.EvalsPerSec)
}
