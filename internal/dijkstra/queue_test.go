package dijkstra

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestQueueChoice builds graphs that steer each kind of queue (bucket ring of
// width 1 or wider, with or without zero lengths, radix heap for int32,
// int64 and float lengths) and checks both the choice and the distances
// against Floyd–Warshall. The dense ones also overflow the relaxation stage
// in mid-bucket.
func TestQueueChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	cases := []struct {
		s    testgraphs.Spec
		want string
	}{
		{testgraphs.Spec{N: 300, P: 0.3, Kind: graph.IntWeights, Lo: 1, Hi: 100}, "*dijkstra.intBuckets[int32]"},
		{testgraphs.Spec{N: 300, P: 0.3, Kind: graph.IntWeights, Lo: 1, Hi: 1}, "*dijkstra.intBuckets[int32]"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.IntWeights, Lo: 5, Hi: 500, Directed: true}, "*dijkstra.intBuckets[int32]"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.IntWeights, Lo: 0, Hi: 3}, "*dijkstra.intBuckets[int32]"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.IntWeights, Lo: 1, Hi: 1e6}, "*dijkstra.intRadix[int32]"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.IntWeights, Lo: 1 << 40, Hi: 1<<40 + 100}, "*dijkstra.intBuckets[int64]"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.IntWeights, Lo: 1, Hi: 1 << 40}, "*dijkstra.intRadix[int64]"},
		{testgraphs.Spec{N: 300, P: 0.3, Kind: graph.FloatWeights, Lo: 1, Hi: 100}, "*dijkstra.floatBuckets"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.FloatWeights, Lo: 0, Hi: 100, Directed: true}, "*dijkstra.floatRadix"},
		{testgraphs.Spec{N: 120, P: 0.1, Kind: graph.Unweighted}, "*dijkstra.bfs"},
	}
	for _, c := range cases {
		g := testgraphs.Random(rng, c.s)
		j, err := plainJob(g)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%T", j.newSearcher()); got != c.want {
			t.Errorf("%v: searcher %s, want %s", c.s, got, c.want)
		}
		checkGraph(t, c.s.String(), g, engines, 2)
	}
	// Float lengths spread too widely for a ring, and one zero length.
	b := graph.NewBuilder(true)
	must(b.AddFloatEdge(0, 1, 1e-9))
	must(b.AddFloatEdge(1, 2, 1e3))
	must(b.AddFloatEdge(2, 3, 0))
	must(b.AddFloatEdge(0, 3, 2e3))
	g := b.Build()
	checkGraph(t, "float-spread", g, engines, 1)

	// Johnson's reweighted integer lengths include zeros: width-1 buckets
	// whose current bucket refills.
	g = testgraphs.Random(rng, testgraphs.Spec{N: 200, P: 0.05, Directed: true, Kind: graph.IntWeights, Lo: 0, Hi: 20, Potential: 100})
	j, err := johnsonJob(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%T", j.newSearcher()); got != "*dijkstra.intBuckets[int32]" {
		t.Errorf("johnson: searcher %s", got)
	}
	checkGraph(t, "johnson-buckets", g, engines[1:], 2)
}

// TestLargeDegree cross-checks the bucket ring against the radix heap on a
// graph whose hub has more arcs than the default stage holds.
func TestLargeDegree(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n = 3 * stageLen
	b := graph.NewBuilder(false)
	for v := 1; v < n; v++ {
		must(b.AddIntEdge(0, v, 1+rng.Int64N(50)))
		if v > 1 && rng.IntN(4) == 0 {
			must(b.AddIntEdge(v, 1+rng.IntN(v-1), 1+rng.Int64N(50)))
		}
	}
	g := b.Build()
	l := packLayout(g, func(u, i int, _ int32) int32 { return int32(g.IntWeights(u)[i]) })
	fast, ref := newIntSearcher(l, nil), newIntRadix(l, nil)
	if _, ok := fast.(*intBuckets[int32]); !ok {
		t.Fatalf("searcher %T", fast)
	}
	for src := int32(0); src < n; src += 97 {
		fast.search(src)
		ref.search(src)
		a, r := fast.result(), ref.result()
		if len(a.order) != len(r.order) {
			t.Fatalf("source %d: %d reached, want %d", src, len(a.order), len(r.order))
		}
		for _, v := range r.order {
			if a.d32[v] != r.d32[v] {
				t.Fatalf("d(%d,%d) = %d, want %d", src, v, a.d32[v], r.d32[v])
			}
		}
	}
}
