package graph

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// builderGraph is FromEdges's reference: the same edges through a Builder.
func builderGraph(t testing.TB, n int, directed bool, us, vs []int32) *Graph {
	t.Helper()
	b := NewBuilder(directed)
	if n >= 0 {
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
	}
	for i := range us {
		if err := b.AddEdge(int(us[i]), int(vs[i])); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// TestFromEdges: random edge arrays (parallel edges, self-loops, isolated
// vertices, n given or taken from the ids) build the Builder's graph.
func TestFromEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 400 {
		n := 1 + rng.IntN(60)
		m := rng.IntN(4 * n)
		us, vs := make([]int32, m), make([]int32, m)
		for i := range us {
			us[i], vs[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
		}
		directed := trial%2 == 0
		given := n
		if trial%3 == 0 {
			given = -1
		}
		got, err := FromEdges(given, directed, us, vs)
		if err != nil {
			t.Fatal(err)
		}
		if want := builderGraph(t, given, directed, us, vs); !sameGraph(got, want) || got.N() != want.N() {
			t.Fatalf("trial %d (n=%d given %d, directed %v, %d edges): %v, want %v", trial, n, given, directed, m, got.offsets, want.offsets)
		}
	}
}

func TestFromEdgesRefuses(t *testing.T) {
	for _, tc := range []struct {
		n      int
		us, vs []int32
		want   string
	}{
		{3, []int32{0, 1}, []int32{1, 3}, "edge 1: vertex out of range 0..2: 1 3"},
		{3, []int32{-1}, []int32{1}, "edge 0: vertex out of range"},
		{-1, []int32{0, -2}, []int32{1, 0}, "edge 1: negative vertex id"},
		{3, []int32{0}, []int32{}, "1 tails for 0 heads"},
	} {
		if _, err := FromEdges(tc.n, false, tc.us, tc.vs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: %v, want %s", tc.us, tc.vs, err, tc.want)
		}
	}
	// Refused before anything is allocated, naming what it needs.
	if _, err := FromEdges(2_000_000_000, false, nil, nil); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "GiB") {
		t.Errorf("2e9 vertices: %v, want ErrTooLarge naming the GiB", err)
	}
}

// FuzzFromEdges: whatever the arrays, FromEdges builds the Builder's
// graph or refuses an id out of range.
func FuzzFromEdges(f *testing.F) {
	f.Add(5, true, []byte{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0})
	f.Fuzz(func(t *testing.T, n int, directed bool, raw []byte) {
		n = n%100 - 1 // -1 (from the ids) .. 98
		m := len(raw) / 8
		us, vs := make([]int32, m), make([]int32, m)
		ok := true
		for i := range m {
			us[i] = int32(binary.LittleEndian.Uint32(raw[8*i:])) % 128
			vs[i] = int32(binary.LittleEndian.Uint32(raw[8*i+4:])) % 128
			ok = ok && us[i] >= 0 && vs[i] >= 0 && (n < 0 || (int(us[i]) < n && int(vs[i]) < n))
		}
		got, err := FromEdges(n, directed, us, vs)
		if !ok {
			if err == nil {
				t.Fatalf("n=%d %v %v: no error", n, us, vs)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := builderGraph(t, n, directed, us, vs); !sameGraph(got, want) || got.N() != want.N() {
			t.Fatalf("n=%d directed=%v %v %v: differs from the Builder's", n, directed, us, vs)
		}
	})
}

// BenchmarkFromEdges: a random 16-regular-like graph of 1 024 vertices
// (8 192 edges), the service's request size.
func BenchmarkFromEdges(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, m = 1024, 8192
	us, vs := make([]int32, m), make([]int32, m)
	for i := range us {
		us[i], vs[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	for b.Loop() {
		if _, err := FromEdges(n, false, us, vs); err != nil {
			b.Fatal(err)
		}
	}
}
