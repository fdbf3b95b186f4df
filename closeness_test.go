package apsp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
)

// closenessByDefinition is NetworkX's closeness_centrality computed from
// the reference Floyd–Warshall's matrix: for v, the distances from every u
// that reaches it.
func closenessByDefinition(t *testing.T, g *graph.Graph, wf bool) []float64 {
	t.Helper()
	d, err := AllPairs(context.Background(), g, Options{Algorithm: "fw"})
	if err != nil {
		t.Fatal(err)
	}
	n := g.N()
	out := make([]float64, n)
	for v := range n {
		var total float64
		reach := 0
		for u := range n {
			if l := d.At(u, v); u != v && !l.IsInf() {
				total += l.Float()
				reach++
			}
		}
		if total > 0 && n > 1 {
			out[v] = float64(reach) / total
			if wf {
				out[v] *= float64(reach) / float64(n-1)
			}
		}
	}
	return out
}

// TestClosenessCentrality: every engine that answers stats answers
// closeness as the definition does on random graphs: directed (distances
// to the vertex) or not, weighted or not, connected or not, with and
// without Wasserman–Faust's scaling.
func TestClosenessCentrality(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	ctx := context.Background()
	for trial := range 40 {
		directed := trial%2 == 0
		mode := []weightMode{unweighted, intWeights, floatWeights}[trial%3]
		g := randomGraph(rng, 1+rng.IntN(60), []float64{0.02, 0.08, 0.3}[trial%3], directed, mode)
		for _, wf := range []bool{true, false} {
			want := closenessByDefinition(t, g, wf)
			for _, algo := range []string{"auto", "blocked", "dijkstra", "bfs", "bitbfs"} {
				got, err := ClosenessCentrality(ctx, g, Options{Algorithm: algo}, wf)
				if errors.Is(err, ErrInvalidOptions) || (err != nil && (algo == "bfs" || algo == "bitbfs") && mode != unweighted) {
					continue // an engine that does not take the graph
				}
				if err != nil {
					t.Fatalf("trial %d %s: %v", trial, algo, err)
				}
				for v := range want {
					if math.Abs(got[v]-want[v]) > 1e-12*math.Max(1, want[v]) {
						t.Fatalf("trial %d (n=%d, directed %v, %v) %s wf %v: closeness(%d) = %v, want %v", trial, g.N(), directed, g.Kind(), algo, wf, v, got[v], want[v])
					}
				}
			}
		}
	}
	// Negative lengths are refused; one vertex has closeness 0.
	neg := randomGraph(rng, 10, 0.5, true, intNegative)
	if _, err := ClosenessCentrality(ctx, neg, Options{}, true); err == nil {
		t.Error("negative lengths: no error")
	}
	one, err := ClosenessCentrality(ctx, randomGraph(rng, 1, 0, false, unweighted), Options{}, true)
	if err != nil || len(one) != 1 || one[0] != 0 {
		t.Errorf("one vertex: %v, %v", one, err)
	}
}
