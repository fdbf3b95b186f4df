package apsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph/gen"
)

// BenchmarkChosenSources is issue 28's comparison through the library:
// Eccentricities of k random sources of `apsp gen regular n=65536 d=8
// seed=1` under "auto" (planning included), beside those of every vertex;
// issue 28 asks for about k/n of the latter. The CPU only: a machine with
// a GPU would take every vertex there.
func BenchmarkChosenSources(b *testing.B) {
	spec, err := gen.ParseSpec("regular", []string{"n=65536", "d=8", "seed=1"})
	if err != nil {
		b.Fatal(err)
	}
	g, err := gen.Generate(spec)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(28, 2))
	for _, k := range []int{0, 16, 256, 1024} {
		name := fmt.Sprintf("k=%d", k)
		opt := Options{Device: "cpu"}
		if k == 0 {
			name = "every vertex"
		} else {
			opt.Sources = rng.Perm(g.N())[:k]
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Eccentricities(context.Background(), g, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
