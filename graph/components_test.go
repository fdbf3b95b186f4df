package graph

import (
	"math/rand/v2"
	"testing"
)

func TestComponents(t *testing.T) {
	tests := []struct {
		name         string
		directed     bool
		n            int
		edges        [][2]int
		weak, strong int
	}{
		{"empty", false, 0, nil, 0, 0},
		{"isolated", false, 3, nil, 3, 3},
		{"two undirected", false, 6, [][2]int{{0, 1}, {1, 2}, {3, 4}, {4, 5}}, 2, 2},
		{"directed path", true, 3, [][2]int{{0, 1}, {1, 2}}, 1, 3},
		{"directed cycle", true, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}}, 1, 1},
		{"two cycles joined", true, 6, [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}, {5, 3}}, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder(tt.directed)
			if err := b.SetVertices(tt.n); err != nil {
				t.Fatal(err)
			}
			for _, e := range tt.edges {
				if err := b.AddEdge(e[0], e[1]); err != nil {
					t.Fatal(err)
				}
			}
			g := b.Build()
			if w, s := g.WeakComponents(), g.StrongComponents(); w != tt.weak || s != tt.strong {
				t.Fatalf("weak %d strong %d, want %d %d", w, s, tt.weak, tt.strong)
			}
		})
	}
}

// TestStrongComponentsDeep checks that a long directed cycle (deep DFS) does
// not exhaust the stack.
func TestStrongComponentsDeep(t *testing.T) {
	const n = 1_000_000
	b := NewBuilder(true)
	for i := 0; i < n; i++ {
		if err := b.AddEdge(i, (i+1)%n); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Build().StrongComponents(); s != 1 {
		t.Fatalf("%d strong components, want 1", s)
	}
}

// WeakComponents agrees with a breadth-first labelling of the graph with
// its directions dropped, on random graphs from empty to dense, directed
// (one-way arcs, and pairs of opposite arcs) and not.
func TestWeakComponentsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 11))
	for trial := range 300 {
		n := 1 + rng.IntN(200)
		directed := trial%2 == 0
		b := NewBuilder(directed)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		adj := make([][]int, n)
		m := rng.IntN(2 * n)
		for range m {
			u, v := rng.IntN(n), rng.IntN(n)
			if err := b.AddEdge(u, v); err != nil {
				t.Fatal(err)
			}
			adj[u], adj[v] = append(adj[u], v), append(adj[v], u)
		}
		want := 0
		seen := make([]bool, n)
		for r := range n {
			if seen[r] {
				continue
			}
			want++
			seen[r] = true
			for queue := []int{r}; len(queue) > 0; queue = queue[1:] {
				for _, v := range adj[queue[0]] {
					if !seen[v] {
						seen[v] = true
						queue = append(queue, v)
					}
				}
			}
		}
		if got := b.Build().WeakComponents(); got != want {
			t.Fatalf("trial %d (n=%d, %d edges, directed %v): %d weak components, want %d", trial, n, m, directed, got, want)
		}
	}
}
