package sssp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/reduce"
)

// TestSSSPTotalsMergeEqualsWhole: each GPU's summaries are zero but for
// its own sources; merged in any order they equal the whole exactly, float
// sums (the distances' and Σ 1/d) bit for bit.
func TestSSSPTotalsMergeEqualsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 5, 31, 1000} {
		for _, float := range []bool{false, true} {
			reach, maxv, harm := make([]int32, n), make([]uint32, n), make([]float64, n)
			var sumI []uint64
			var sumF []float64
			if float {
				sumF = make([]float64, n)
			} else {
				sumI = make([]uint64, n)
			}
			for u := range n {
				if rng.IntN(5) == 0 {
					continue // reaches nothing: zeros
				}
				reach[u] = int32(rng.IntN(n))
				harm[u] = rng.Float64() * float64(n)
				if float {
					maxv[u] = math.Float32bits(rng.Float32() * 1e6)
					sumF[u] = rng.Float64() * 1e12
				} else {
					maxv[u] = uint32(rng.IntN(1 << 30))
					sumI[u] = rng.Uint64() >> 8
				}
			}
			want := ssspRowsOf(ssspSums{reach: reach, maxv: maxv, sumI: sumI, sumF: sumF, harm: harm})
			for k := 1; k <= 5; k++ {
				spans := ssspSplit(n, k)
				order := rng.Perm(k)
				tot := &ssspTotals{}
				for _, w := range order {
					if len(spans[w]) == 0 {
						continue
					}
					r, m, h := make([]int32, n), make([]uint32, n), make([]float64, n)
					var si []uint64
					var sf []float64
					if float {
						sf = make([]float64, n)
					} else {
						si = make([]uint64, n)
					}
					for _, sp := range spans[w] {
						copy(r[sp.Lo:sp.Hi], reach[sp.Lo:sp.Hi])
						copy(m[sp.Lo:sp.Hi], maxv[sp.Lo:sp.Hi])
						copy(h[sp.Lo:sp.Hi], harm[sp.Lo:sp.Hi])
						if float {
							copy(sf[sp.Lo:sp.Hi], sumF[sp.Lo:sp.Hi])
						} else {
							copy(si[sp.Lo:sp.Hi], sumI[sp.Lo:sp.Hi])
						}
					}
					tot.add(ssspSums{reach: r, maxv: m, sumI: si, sumF: sf, harm: h})
				}
				got := ssspRowsOf(tot.ssspSums)
				for u := range n {
					if got[u] != want[u] || math.Float64bits(got[u].SumF) != math.Float64bits(want[u].SumF) {
						t.Fatalf("n=%d float=%v on %d GPUs: row %d = %+v, want %+v", n, float, k, u, got[u], want[u])
					}
				}
			}
		}
	}
}

// TestSSSPRowsOnSeveralGPUs runs gpu-sssp split over several GPUs (or GPU
// 0 listed twice and three times) on random weighted graphs (integer and
// float lengths with zeros, unweighted), directed and not, disconnected:
// summaries identical to one GPU's (float sums bit for bit) and agreeing
// with the CPU's Floyd–Warshall; the matrix identical to one GPU's.
func TestSSSPRowsOnSeveralGPUs(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(43, 44))
	lists := multiLists(t)
	kinds := []graph.WeightKind{graph.IntWeights, graph.FloatWeights, graph.Unweighted}
	runs := 0
	for trial, n := range []int{1, 2, 3, 5, 33, 100, 257, 300, 600, 700} {
		for ki, kind := range kinds {
			directed := (trial+ki)%2 == 0
			parts := []int{1, 3, 1}[(trial+ki)%3]
			g := sparseGraph(rng, n, parts, 4/float64(n)+0.01, directed, kind, trial%2 == 0)
			float := kind == graph.FloatWeights
			ref, want := refRows(t, g)
			one, err := ssspRows(ctx, 0, g, float, ssspConfig{})
			if err != nil {
				t.Fatal(err)
			}
			oneM, err := ssspMatrix(ctx, 0, g, float, ssspConfig{})
			if err != nil {
				t.Fatal(err)
			}
			for _, ords := range lists {
				name := fmt.Sprintf("n=%d %s directed=%v parts=%d on %v", n, kind, directed, parts, ords)
				got, err := ssspRowsOn(ctx, ords, g, float, ssspConfig{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for u := range n {
					if !ssspSameRow(got.Rows[u], want[u], float) {
						t.Fatalf("%s: row %d = %+v, want %+v", name, u, got.Rows[u], want[u])
					}
					if got.Rows[u] != one.Rows[u] || math.Float64bits(got.Rows[u].SumF) != math.Float64bits(one.Rows[u].SumF) {
						t.Fatalf("%s: row %d = %+v, one GPU's %+v", name, u, got.Rows[u], one.Rows[u])
					}
				}
				m, err := ssspMatrixOn(ctx, ords, g, float, ssspConfig{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkMatrix(t, name+" matrix", ref, m.Int, m.Float)
				if !slices.Equal(m.Int, oneM.Int) || !slices.Equal(float32Bits(m.Float), float32Bits(oneM.Float)) {
					t.Fatalf("%s: the matrix differs from one GPU's", name)
				}
				runs += 2
			}
		}
	}
	// A larger one: 3000 vertices, integer lengths, three parts.
	g := sparseGraph(rng, 3000, 3, 0.004, false, graph.IntWeights, false)
	one, err := ssspRows(ctx, 0, g, false, ssspConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ords := range lists {
		got, err := ssspRowsOn(ctx, ords, g, false, ssspConfig{})
		if err != nil || !slices.Equal(got.Rows, one.Rows) {
			t.Fatalf("n=3000 on %v: rows differ from one GPU's (%v)", ords, err)
		}
		runs++
	}
	t.Logf("%d split runs (lists %v) matched one GPU and the CPU reference", runs, lists)
}

func float32Bits(xs []float32) []uint32 {
	out := make([]uint32, len(xs))
	for i, x := range xs {
		out[i] = math.Float32bits(x)
	}
	return out
}

// checkSplit is gputest.CheckSplit of gpu.Span.
func checkSplit(t *testing.T, name string, spans [][]gpu.Span, total, unit, k int) {
	t.Helper()
	gputest.CheckSplit(t, name, spans, func(s gpu.Span) (int, int) { return s.Lo, s.Hi }, total, unit, k)
}

// TestSSSPSplit: the sources of gpu-sssp runs (ssspSplit) are all covered,
// once each, on 1 to 5 GPUs (the sssp part of the base's TestSplitWork).
func TestSSSPSplit(t *testing.T) {
	for _, n := range []int{1, 100, 2048, 2049, 65536, 262144, 1000000} {
		for k := 1; k <= 5; k++ {
			checkSplit(t, fmt.Sprintf("sssp n=%d k=%d", n, k), ssspSplit(n, k), n, n, k)
		}
	}
}

// multiLists is the lists of GPUs the GPU tests split over: GPU 0 twice and
// three times (the test hook that exercises the split and merge on one
// GPU: the same GPU runs each share in turn), and every GPU, both ways
// round, where there are several.
func multiLists(t *testing.T) [][]int {
	t.Helper()
	lists := [][]int{{0, 0}, {0, 0, 0}}
	all, err := gpu.Visible()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) > 1 {
		back := slices.Clone(all)
		slices.Reverse(back)
		lists = append(lists, all, back)
	}
	return lists
}

// TestSSSPRowsOverwriteReused: rows from the pool hold a former call's
// values; ssspRowsOf must set every field of every row, integer and
// float (no GPU).
func TestSSSPRowsOverwriteReused(t *testing.T) {
	n := 300
	for _, float := range []bool{false, true} {
		s := ssspSums{reach: make([]int32, n), maxv: make([]uint32, n), harm: make([]float64, n)}
		if float {
			s.sumF = make([]float64, n)
		} else {
			s.sumI = make([]uint64, n)
		}
		for u := range n {
			s.reach[u], s.maxv[u], s.harm[u] = int32(u%(n-1)), uint32(u%9), float64(u)/3
			if float {
				s.maxv[u] = math.Float32bits(float32(u) / 4)
				s.sumF[u] = float64(u) * 1.5
			} else {
				s.sumI[u] = uint64(7 * u)
			}
		}
		want := slices.Clone(ssspRowsOf(s))
		junk := reduce.NewRows(n)
		for u := range junk {
			junk[u] = reduce.Row{Reach: -1, MaxI: -2, MaxF: 3, SumF: 4, Harm: 5, Unreach: true}
			junk[u].Sum.Add(-9)
		}
		reduce.ReleaseRows(junk)
		if got := ssspRowsOf(s); !slices.Equal(got, want) {
			t.Fatalf("float %v: rows built over reused ones differ from fresh ones", float)
		}
	}
}
