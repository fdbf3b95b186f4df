package apsp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// spiderGraph is an undirected hub (vertex 0) with arms of unit edges of
// the given lengths: its diameter is the sum of the two longest arms.
func spiderGraph(t *testing.T, arms ...int) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(false)
	next := 1
	for _, k := range arms {
		prev := 0
		for range k {
			if err := b.AddEdge(prev, next); err != nil {
				t.Fatal(err)
			}
			prev, next = next, next+1
		}
	}
	return b.Build()
}

// TestOptionsLanes: Options.Lanes through the public API. Every lane the
// graph's proven bounds allow gives the reference's distances on the
// Floyd–Warshall engines; auto picks the narrowest; a lane the distances
// may not fit is an error, never a wider run; an unknown lane, or one the
// named engine lacks, is an invalid option; the lanes used are reported.
func TestOptionsLanes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(12, 12))
	graphs := []struct {
		name   string
		g      *graph.Graph
		narrow string // what auto picks on the CPU Floyd–Warshall engines
	}{
		{"diameter 62", spiderGraph(t, 31, 31, 1), "int8"},
		{"diameter 63", spiderGraph(t, 32, 31, 1), "int16"},
		{"diameter 64", spiderGraph(t, 32, 32, 1), "int16"},
		{"random sparse, weights 0..9", randomGraph(rng, 120, 0.03, false, intWeights), ""},
		{"random sparse directed, weights 0..9", randomGraph(rng, 90, 0.04, true, intWeights), ""},
		{"random sparse unweighted, disconnected", randomGraph(rng, 150, 0.008, false, unweighted), ""},
	}
	for _, tt := range graphs {
		t.Run(tt.name, func(t *testing.T) {
			ref, err := AllPairs(ctx, tt.g, Options{Algorithm: "fw", Lanes: "int64"})
			if err != nil {
				t.Fatal(err)
			}
			if tt.narrow != "" {
				d, err := AllPairs(ctx, tt.g, Options{Algorithm: "blocked"})
				if err != nil || d.Lanes() != tt.narrow {
					t.Fatalf("auto lanes: %v, %v; want %s", d.Lanes(), err, tt.narrow)
				}
				s, err := ComputeStats(ctx, tt.g, Options{Algorithm: "blocked"})
				if err != nil || s.Lanes != tt.narrow {
					t.Fatalf("stats lanes: %+v, %v; want %s", s, err, tt.narrow)
				}
			}
			for _, k := range []string{"int8", "int16", "int32", "int64", "float64"} {
				for _, algo := range []string{"blocked", "fw"} {
					d, err := AllPairs(ctx, tt.g, Options{Algorithm: algo, Lanes: k})
					if err != nil {
						if !errors.Is(err, ErrWeightsTooLarge) {
							t.Fatalf("%s in %s: %v, want a result or ErrWeightsTooLarge", algo, k, err)
						}
						continue
					}
					if d.Lanes() != k {
						t.Fatalf("%s asked %s, ran %s", algo, k, d.Lanes())
					}
					if err := equalDistances(d, ref); err != nil {
						t.Fatalf("%s in %s: %v", algo, k, err)
					}
					// The hop plot in these lanes counts the same pairs
					// (float64 lanes once gave an empty one).
					h, err := DistanceHistogram(ctx, tt.g, Options{Algorithm: algo, Lanes: k})
					if err != nil {
						t.Fatalf("%s histogram in %s: %v", algo, k, err)
					}
					if want := histOf(ref); !slices.Equal(h.Count, want.Count) || h.Unreachable != want.Unreachable {
						t.Fatalf("%s histogram in %s: %v, %d unreachable; want %v, %d", algo, k, h.Count, h.Unreachable, want.Count, want.Unreachable)
					}
				}
			}
		})
	}
	// Paths in int8 lanes: the oracle keeps successors as it goes, blocked
	// derives them from the matrix; end to end of the two long arms (1..31
	// and 32..62 from the hub 0) is the diameter, 62.
	for _, algo := range []string{"fw", "blocked"} {
		p, err := ShortestPath(ctx, spiderGraph(t, 31, 31, 1), 31, 62, Options{Algorithm: algo, Lanes: "int8"})
		if err != nil || p.Length.Int() != 62 || len(p.Vertices) != 63 {
			t.Errorf("%s path in int8: %v (%d vertices), %v; want length 62", algo, p.Length, len(p.Vertices), err)
		}
	}
	g := spiderGraph(t, 32, 31, 1)
	if _, err := AllPairs(ctx, g, Options{Lanes: "int8"}); !errors.Is(err, ErrWeightsTooLarge) {
		t.Errorf("int8 for a diameter of 63: %v, want ErrWeightsTooLarge", err)
	}
	if _, err := ComputeStats(ctx, g, Options{Lanes: "int4"}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("int4: %v, want ErrInvalidOptions", err)
	}
	if _, err := ComputeStats(ctx, g, Options{Algorithm: "dijkstra", Lanes: "int16"}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("dijkstra in int16: %v, want ErrInvalidOptions", err)
	}
	neg := randomGraph(rng, 30, 0.3, true, intNegative)
	if _, err := AllPairs(ctx, neg, Options{Lanes: "int16"}); !errors.Is(err, lanes.ErrNoKind) {
		t.Errorf("negative weights in int16: %v, want the no-kind error", err)
	}
	// Forced int16 on an unweighted graph rules bitbfs out: a matrix engine
	// computes, in int16, and says so.
	s, err := ComputeStats(ctx, spiderGraph(t, 40, 40, 3), Options{Lanes: "int16", Device: "cpu"})
	if err != nil || s.Lanes != "int16" || s.Diameter.Int() != 80 {
		t.Errorf("stats in int16: %+v, %v", s, err)
	}
}

// histOf is the hop plot of exact distances, by definition.
func histOf(d *Distances) Histogram {
	var h Histogram
	for u := 0; u < d.N(); u++ {
		for v := 0; v < d.N(); v++ {
			x, ok := d.Int(u, v)
			switch {
			case u == v:
			case !ok:
				h.Unreachable++
			default:
				for int64(len(h.Count)) <= x {
					h.Count = append(h.Count, 0)
				}
				h.Count[x]++
			}
		}
	}
	if len(h.Count) == 0 {
		h.Count = []int64{0}
	}
	return h
}

func equalDistances(d, ref *Distances) error {
	for u := 0; u < ref.N(); u++ {
		for v := 0; v < ref.N(); v++ {
			a, b := d.At(u, v), ref.At(u, v)
			if a.IsInf() != b.IsInf() || (!a.IsInf() && a.Float() != b.Float()) { // float64 lanes hold these integers exactly
				return fmt.Errorf("d(%d,%d) = %v, want %v", u, v, a, b)
			}
		}
	}
	return nil
}

// TestPackedHeavyArcs: an arc heavier than a packed lane's infinity (on no
// shortest path, or on one) is stored as infinity, never wrapped, and a
// graph of small distances with a few heavy arcs still runs in the packed
// lanes auto picks (a review found heavy arcs wrapped on the GPU and
// refused on the CPU). Every engine offering the lane agrees with the
// int64 reference.
func TestPackedHeavyArcs(t *testing.T) {
	ctx := context.Background()
	tri := func(w int64) *graph.Graph {
		b := graph.NewBuilder(false)
		for _, e := range [][3]int64{{0, 1, w}, {0, 2, 1}, {2, 1, 1}} {
			if err := b.AddIntEdge(int(e[0]), int(e[1]), e[2]); err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	rng := rand.New(rand.NewPCG(5, 6))
	heavy := graph.NewBuilder(false)
	for v := 1; v < 300; v++ { // a spanning tree of light edges keeps distances small
		if err := heavy.AddIntEdge(rng.IntN(v), v, 1+rng.Int64N(2)); err != nil {
			t.Fatal(err)
		}
	}
	for range 200 {
		if err := heavy.AddIntEdge(rng.IntN(300), rng.IntN(300), 100+rng.Int64N(1<<20)); err != nil {
			t.Fatal(err)
		}
	}
	// A complete graph of heavy arcs around a light path: dense enough that
	// the GPU engines fill the matrix on the host rather than from arcs.
	dense := graph.NewBuilder(false)
	for u := range 40 {
		for v := u + 1; v < 40; v++ {
			w := int64(100000 + u*v)
			if v == u+1 {
				w = 1
			}
			if err := dense.AddIntEdge(u, v, w); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts := []Options{{}, {Algorithm: "blocked", Lanes: "int8"}, {Algorithm: "blocked", Lanes: "int16"}, {Algorithm: "fw", Lanes: "int16"}}
	if hasGPU() {
		opts = append(opts, Options{Device: "gpu", Algorithm: "gpu-multi", Lanes: "int16"}, Options{Device: "gpu", Algorithm: "gpu-single", Lanes: "int16"})
	}
	for _, g := range []*graph.Graph{tri(63), tri(64), tri(40000), tri(65537), tri(1<<32 + 1), heavy.Build(), dense.Build()} {
		ref, err := AllPairs(ctx, g, Options{Algorithm: "fw", Lanes: "int64"})
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range opts {
			d, err := AllPairs(ctx, g, opt)
			if errors.Is(err, ErrWeightsTooLarge) && opt.Lanes == "int8" {
				continue // the distances may not fit int8: refused, never wrong
			}
			if err != nil {
				t.Fatalf("%d vertices, %+v: %v", g.N(), opt, err)
			}
			for u := range g.N() {
				for v := range g.N() {
					a, aok := d.Int(u, v)
					b, bok := ref.Int(u, v)
					if a != b || aok != bok {
						t.Fatalf("%d vertices, %+v in %s: d(%d,%d) = %d %v, want %d %v", g.N(), opt, d.Lanes(), u, v, a, aok, b, bok)
					}
				}
			}
		}
	}
	if d, err := AllPairs(ctx, heavy.Build(), Options{Algorithm: "blocked"}); err != nil || d.Lanes() == "int32" || d.Lanes() == "int64" {
		t.Fatalf("heavy arcs: auto lanes %v, %v (want a packed kind)", d, err)
	}
}
