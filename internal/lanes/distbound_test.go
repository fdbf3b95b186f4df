package lanes

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestDistBound checks the proven bounds of Tighten on graphs whose
// distances are known, and the cases where no bound is given.
func TestDistBound(t *testing.T) {
	build := func(directed bool, arcs [][3]int64) *graph.Graph {
		b := graph.NewBuilder(directed)
		for _, a := range arcs {
			if err := b.AddIntEdge(int(a[0]), int(a[1]), a[2]); err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	// A star 0–1, 0–2, 0–3 with weights 5, 7, 1: the hub's two largest
	// distances 7 + 5 = 12 are the diameter.
	star := [][3]int64{{0, 1, 5}, {0, 2, 7}, {0, 3, 1}}
	tests := []struct {
		name  string
		g     *graph.Graph
		limit int64
		want  int64
		ok    bool
	}{
		{"weighted star", build(false, star), 1000, 12, true},
		{"star and an isolated edge of 20", build(false, append(star, [3]int64{4, 5, 20})), 1000, 20, true},
		{"bound reaching the limit", build(false, star), 12, 0, false},
		{"zero weights", build(false, [][3]int64{{0, 1, 0}, {1, 2, 0}, {0, 3, 0}}), 1000, 0, true},
		{"unweighted path 0-1-2-3 from hub 1", build(false, [][3]int64{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}}).Unweighted(), 1000, 3, true},
		{"directed cycle of 4 (3 + 3)", build(true, [][3]int64{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}}), 1000, 6, true},
		{"directed path: not strongly connected", build(true, [][3]int64{{0, 1, 1}, {1, 2, 1}}), 1000, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := DistBound(tt.g, tt.limit)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("DistBound = %d, %v; want %d, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestTighten: MaxDist is set only where it helps and is allowed.
func TestTighten(t *testing.T) {
	long := path(t, 100, 1) // directed path: no bound, MaxReal 99 stands
	p, _ := PlanFor(long)
	if p = p.Tighten(long); p.MaxDist != 0 || p.Holds(Int8) == nil {
		t.Errorf("directed path: MaxDist %d, int8 %v", p.MaxDist, p.Holds(Int8))
	}
	b := graph.NewBuilder(false)
	for v := 1; v < 100; v++ { // a star of 100 vertices: MaxReal 99, diameter 2
		if err := b.AddEdge(0, v); err != nil {
			t.Fatal(err)
		}
	}
	star := b.Build()
	p, _ = PlanFor(star)
	if p.Holds(Int8) == nil {
		t.Fatalf("star: int8 held before Tighten (MaxReal %d)", p.MaxReal)
	}
	if p = p.Tighten(star); p.MaxDist != 2 || p.Holds(Int8) != nil {
		t.Errorf("star: MaxDist %d, int8 %v", p.MaxDist, p.Holds(Int8))
	}
}

// TestDistHeap: random pushes and pops, interleaved, come out in the
// order of a sort.
func TestDistHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h distHeap
	var ref []int64
	for range 20000 {
		if len(ref) > 0 && rng.IntN(3) == 0 {
			slices.Sort(ref)
			if got := h.pop(); got.d != ref[0] {
				t.Fatalf("popped %d, want %d", got.d, ref[0])
			}
			ref = ref[1:]
			continue
		}
		d := rng.Int64N(50)
		h.push(item{d, int32(d)})
		ref = append(ref, d)
	}
	for len(ref) > 0 {
		slices.Sort(ref)
		if got := h.pop(); got.d != ref[0] || len(h) != len(ref)-1 {
			t.Fatalf("popped %d, want %d", got.d, ref[0])
		}
		ref = ref[1:]
	}
}

// BenchmarkTighten: the bound of a random weighted graph of 1 024
// vertices and degree about 8, lengths 1..100 (what the bulk FW path
// proves for each graph before it packs int16 lanes).
func BenchmarkTighten(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := testgraphs.Random(rng, testgraphs.Spec{N: 1024, M: 4096, Kind: graph.IntWeights, Lo: 1, Hi: 100})
	p, err := PlanFor(g)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p.Tighten(g)
	}
}
