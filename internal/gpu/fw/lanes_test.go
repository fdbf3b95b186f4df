package fw

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
)

var packedKinds = []lanes.Kind{lanes.Int16, lanes.Int8}

// TestPackedLayout checks InitLanes and LaneAt against the graph: column j
// is lane j%L of word j/L, lane 0 in the low bits, infinity the kind's.
func TestPackedLayout(t *testing.T) {
	b := graph.NewBuilder(true)
	_ = b.SetVertices(6)
	arcs := [][3]int64{{0, 1, 5}, {0, 5, 0}, {1, 2, 62}, {2, 0, 1}, {3, 4, 7}, {3, 4, 3}, {4, 4, 9}}
	for _, a := range arcs {
		if err := b.AddIntEdge(int(a[0]), int(a[1]), a[2]); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	const stride = 8
	for _, kind := range packedKinds {
		c := gpu.Config{Lanes: kind}
		words := make([]uint32, stride*stride/c.Pack())
		InitLanes(g, stride, c)(words)
		want := make([]int64, stride*stride)
		for i := range want {
			want[i] = int64(c.Inf())
			if i/stride == i%stride {
				want[i] = 0
			}
		}
		for _, a := range arcs {
			if i := a[0]*stride + a[1]; a[0] != a[1] && a[2] < want[i] {
				want[i] = a[2]
			}
		}
		for i, w := range want {
			if got := int64(int32(LaneAt(words, c, i))); got != w {
				t.Errorf("%v: cell (%d,%d) = %d, want %d", kind, i/stride, i%stride, got, w)
			}
		}
		// Lane 0 sits in the low bits: cell (0,1) = 5 is the second lane of word 0.
		bits := 32 / c.Pack()
		if got := (words[0] >> bits) & (1<<bits - 1); got != 5 {
			t.Errorf("%v: word 0 lane 1 = %d, want 5", kind, got)
		}
	}
}

// TestPackedHeavyWeights: a weight at or above a packed lane's infinity is
// stored as infinity, never wrapped into the lane (40 000 in int16 read as
// −25 536, 65 537 as 1 before the clamp), in the host's fill.
func TestPackedHeavyWeights(t *testing.T) {
	for _, w := range []int64{62, 63, 64, 16383, 40000, 65537, 1<<32 + 1} {
		b := graph.NewBuilder(false)
		if err := b.AddIntEdge(0, 1, w); err != nil {
			t.Fatal(err)
		}
		g := b.Build()
		const stride = 8
		for _, kind := range packedKinds {
			c := gpu.Config{Lanes: kind}
			words := make([]uint32, stride*stride/c.Pack())
			InitLanes(g, stride, c)(words)
			want := min(w, int64(c.Inf()))
			if got := int64(int32(LaneAt(words, c, 1))); got != want {
				t.Errorf("%v: weight %d stored as %d, want %d", kind, w, got, want)
			}
		}
	}
}

// packedGraph is a random graph for kind's lanes: lengths 0..maxW (zeros
// included) or unweighted, and, when far, a vertex reached only from
// vertex 0 (which nothing reaches) by an arc of kind's infinity − 1, so that
// one distance sits exactly at the lane's limit.
func packedGraph(rng *rand.Rand, n int, kind lanes.Kind, p float64, maxW int64, directed, far bool) *graph.Graph {
	b := graph.NewBuilder(directed || far)
	_ = b.SetVertices(n)
	last := n
	if far && n >= 3 {
		last = n - 1
		_ = b.AddIntEdge(0, n-1, kind.InfInt()-1)
	}
	for u := 0; u < last; u++ {
		for v := 0; v < last; v++ {
			if u == v || (far && v == 0) || (!directed && !far && v < u) || rng.Float64() >= p {
				continue
			}
			if maxW == 0 {
				_ = b.AddEdge(u, v)
			} else {
				_ = b.AddIntEdge(u, v, rng.Int64N(maxW+1))
			}
		}
	}
	return b.Build()
}

// capped is the reference distance as packed lanes must hold it: lengths
// at or beyond the lane's infinity saturate to it (unreachable).
func capped(want float64, kind lanes.Kind) float64 {
	if want >= float64(kind.InfInt()) {
		return math.Inf(1)
	}
	return want
}

// TestPackedLanesAgreeWithCPU runs both kernels in int16×2 and int8×4 on
// graphs of awkward sizes, through the host-filled session path and the
// device-built job path (matrix and row summaries), against the CPU.
func TestPackedLanesAgreeWithCPU(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 42))
	sizes := []int{1, 3, 31, 33, 64, 65, 100, 129, 200, 257, 300, 513, 700, 1100}
	checked := 0
	for trial, n := range sizes {
		for _, kind := range packedKinds {
			directed := trial%2 == 0
			p := []float64{0.02, 0.1, 0.4}[trial%3]
			maxW := []int64{0, 3, 40}[(trial+int(kind))%3]
			if kind == lanes.Int8 && maxW > 3 {
				maxW = 2
			}
			g := packedGraph(rng, n, kind, p, maxW, directed, trial%2 == 1)
			name := fmt.Sprintf("n=%d/%v/p=%v/maxW=%d/directed=%v", n, kind, p, maxW, directed)
			ref, _ := reference(t, g)
			for _, k := range []gpu.Kernel{gpu.Multi, gpu.Single} {
				configs := []gpu.Config{gpu.ConfigFor(k, n, kind)}
				if n <= 300 { // the large-graph shapes on small graphs too
					configs = append(configs, gpu.ConfigFor(k, 4096, kind))
					if kind == lanes.Int16 { // its shape of the largest graphs
						configs = append(configs, gpu.ConfigFor(k, 32768, kind))
					}
				}
				for _, c := range configs {
					comparePacked(t, ctx, s, g, ref, c, fmt.Sprintf("%s/%v/W%d/T%dx%d", name, k, c.Tile, c.TDim, c.Rows()))
					checked++
				}
				checkPackedJob(t, ctx, g, ref, k, kind, name+"/job/"+k.String())
			}
		}
	}
	t.Logf("%d packed GPU runs matched the CPU reference", checked)
}

// TestPackedLanesSaturate: lengths beyond the lane's range (which the lane
// plan refuses) come back as infinity, never as a wrong finite number.
func TestPackedLanesSaturate(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	for _, kind := range packedKinds {
		for _, n := range []int{40, 300} {
			b := graph.NewBuilder(true)
			_ = b.SetVertices(n)
			w := kind.InfInt()/8 + 1 // the 8th arc of the path crosses infinity
			for u := 0; u+1 < n; u++ {
				_ = b.AddIntEdge(u, u+1, w)
			}
			g := b.Build()
			ref, _ := reference(t, g)
			for _, k := range []gpu.Kernel{gpu.Multi, gpu.Single} {
				comparePacked(t, ctx, s, g, ref, gpu.ConfigFor(k, n, kind), fmt.Sprintf("saturate/%v/n=%d/%v", kind, n, k))
			}
		}
	}
}

func comparePacked(t *testing.T, ctx context.Context, s *Session, g *graph.Graph, ref *lanes.Matrix[float64], c gpu.Config, name string) {
	t.Helper()
	n := g.N()
	stride := (n + c.Tile - 1) / c.Tile * c.Tile
	inf := c.Inf()
	prob := Problem{N: n, Stride: stride, Config: c, MaxReal: inf - 1}
	res, err := s.Run(ctx, prob, InitLanes(g, stride, c), true)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			want := capped(ref.At(u, v), c.Lanes)
			x := int32(LaneAt(res.Matrix, c, u*stride+v))
			got := float64(x)
			if x == inf {
				got = math.Inf(1)
			}
			if got != want {
				t.Fatalf("%s: d(%d,%d) = %v (lane %d), want %v", name, u, v, got, x, want)
			}
		}
	}
	red, err := s.Run(ctx, prob, InitLanes(g, stride, c), false)
	if err != nil {
		t.Fatalf("%s reduce: %v", name, err)
	}
	checkPackedRows(t, name, n, ref, c.Lanes, red.Reach, red.Max, red.Sum)
}

// checkPackedRows compares device row summaries with the capped reference.
func checkPackedRows(t *testing.T, name string, n int, ref *lanes.Matrix[float64], kind lanes.Kind, reach []int32, maxv []uint32, sum []float64) {
	t.Helper()
	for u := 0; u < n; u++ {
		var cnt int32
		var best, total float64
		for v := 0; v < n; v++ {
			if d := capped(ref.At(u, v), kind); v != u && !math.IsInf(d, 1) {
				cnt++
				total += d
				best = math.Max(best, d)
			}
		}
		if reach[u] != cnt || (cnt > 0 && (float64(int32(maxv[u])) != best || sum[u] != total)) {
			t.Fatalf("%s: row %d: reach %d max %d sum %v, want %d %v %v", name, u, reach[u], int32(maxv[u]), sum[u], cnt, best, total)
		}
	}
}

// checkPackedJob runs the device-built path (fw_init from the arcs), the
// matrix copy-back and the row reduction in packed lanes.
func checkPackedJob(t *testing.T, ctx context.Context, g *graph.Graph, ref *lanes.Matrix[float64], k gpu.Kernel, kind lanes.Kind, name string) {
	t.Helper()
	n := g.N()
	job := Job{Graph: g, Kernel: k, Lanes: kind, MaxReal: int32(kind.InfInt() - 1)}
	m, err := Matrix(ctx, gpu.OnGPU(0), job)
	if err != nil {
		t.Fatalf("%s: Matrix: %v", name, err)
	}
	if (kind == lanes.Int16) != (m.Int16 != nil) || (kind == lanes.Int8) != (m.Int8 != nil) || m.Int != nil {
		t.Fatalf("%s: matrix in the wrong lanes", name)
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			var x int64
			if m.Int16 != nil {
				x = int64(m.Int16[u*m.Stride+v])
			} else {
				x = int64(m.Int8[u*m.Stride+v])
			}
			got := float64(x)
			if x == kind.InfInt() {
				got = math.Inf(1)
			}
			if want := capped(ref.At(u, v), kind); got != want {
				t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, got, want)
			}
		}
	}
	r, err := Rows(ctx, gpu.OnGPU(0), job)
	if err != nil {
		t.Fatalf("%s: Rows: %v", name, err)
	}
	reach, maxv, sum := make([]int32, n), make([]uint32, n), make([]float64, n)
	for u, row := range r.Rows {
		reach[u], maxv[u], sum[u] = int32(row.Reach), uint32(int32(row.MaxI)), row.Sum.Float()
		if row.Unreach != (row.Reach < int64(n-1)) {
			t.Fatalf("%s: row %d: unreach %v with reach %d", name, u, row.Unreach, row.Reach)
		}
	}
	checkPackedRows(t, name, n, ref, kind, reach, maxv, sum)
}

// TestLanePerf times Floyd–Warshall kernels in every lane kind (CUDA
// events, kernel only, a warm-up then the median of APSP_LANE_REPS runs on
// fresh random matrices): APSP_LANE_PERF=1024,4096,... names the sizes.
// APSP_LANE_ALT=8192,... adds alternative packed shapes at those sizes;
// APSP_LANE_COARSE=1024,... every multi-kernel shape also in coarse rounds
// with pivot blocks of those sizes, and in tile rounds;
// APSP_LANE_KINDS=int16,... times only those lane kinds; APSP_LANE_NOTILE=1
// leaves out the tile rounds where coarse ones are timed.
func TestLanePerf(t *testing.T) {
	sizes := gputest.EnvInts("APSP_LANE_PERF", nil)
	if len(sizes) == 0 {
		t.Skip("APSP_LANE_PERF names the sizes to time")
	}
	s := open(t)
	ctx := context.Background()
	reps := gputest.EnvInt("APSP_LANE_REPS", 3)
	alts := gputest.EnvInts("APSP_LANE_ALT", nil)
	ceil := map[lanes.Kind]float64{lanes.Int32: 15.9e12, lanes.Int16: 32.4e12, lanes.Int8: envFloat("APSP_I8_CEIL", 0)}
	var table []string
	for _, n := range sizes {
		for _, kind := range []lanes.Kind{lanes.Int32, lanes.Int16, lanes.Int8} {
			if only := os.Getenv("APSP_LANE_KINDS"); only != "" && !slices.Contains(strings.Split(only, ","), kind.String()) {
				continue
			}
			k := gpu.Multi
			if n <= 2048 {
				k = gpu.Single
			}
			configs := []gpu.Config{gpu.ConfigFor(k, n, kind)}
			if slices.Contains(alts, n) && kind == lanes.Int16 {
				// Threads across words × rows, and blocks per SM, for tile
				// 128: 16 rows × 4 words a thread (16×8), 8 × 4 (16×16),
				// 8 × 8 (8×16).
				c := gpu.ConfigFor(k, n, kind)
				var alt []gpu.Config
				for _, sh := range [][3]int{{16, 8, 2}, {16, 8, 3}, {16, 8, 4}, {16, 16, 2}, {8, 16, 2}, {8, 16, 3}, {8, 16, 4}} {
					a := c
					a.TDim, a.TRows, a.MinBlocks = sh[0], sh[1], sh[2]
					if a != c { // invalid shapes (another tile) are skipped below
						alt = append(alt, a)
					}
				}
				configs = append(configs, alt...)
			}
			if k == gpu.Multi {
				// APSP_LANE_COARSE: each shape also in coarse rounds with
				// pivot blocks of these many vertices (and in tile rounds).
				var more []gpu.Config
				for _, c := range configs {
					for _, cs := range gputest.EnvInts("APSP_LANE_COARSE", nil) {
						c.Coarse = cs
						more = append(more, c)
					}
					if os.Getenv("APSP_LANE_NOTILE") == "" {
						c.Coarse = 0
						more = append(more, c)
					}
				}
				configs = slices.Compact(more)
			}
			for _, c := range configs {
				if c.Check() != nil {
					continue
				}
				times := make([]float64, 0, reps)
				for rep := 0; rep <= reps; rep++ {
					seed := uint32(rep*7919 + n)
					res, err := s.Run(ctx, Problem{N: n, Stride: n, Config: c, MaxReal: c.Inf() - 1}, randomLanes(n, c, seed), false)
					if err != nil {
						t.Fatalf("n=%d %v: %v", n, kind, err)
					}
					if rep > 0 {
						times = append(times, res.Timing.Kernel)
					}
				}
				sort.Float64s(times)
				med := times[len(times)/2] / 1e3
				rate := math.Pow(float64(n), 3) / med
				frac := ""
				if ceil[kind] > 0 {
					frac = fmt.Sprintf("%.0f%%", 100*rate/ceil[kind])
				}
				line := fmt.Sprintf("| %d | %v | %v W%d T%dx%d B%d C%d | %.4f | %.2f | %s | %v |", n, kind, k, c.Tile, c.TDim, c.Rows(), c.MinBlocks, c.Coarse,
					med, rate/1e12, frac, times)
				t.Log(line)
				table = append(table, line)
			}
		}
	}
	fmt.Println("| n | lanes | kernel | median s | T relax/s | of ceiling | runs (ms) |\n|---|---|---|---|---|---|---|\n" + strings.Join(table, "\n"))
}

// randomLanes fills a matrix in c's lanes with pseudo-random lengths
// 1..lane infinity/2 (some infinite), 0 on the diagonal: the kernels' time
// does not depend on the values, but they are never all alike.
func randomLanes(n int, c gpu.Config, seed uint32) func(host []uint32) {
	return func(h []uint32) {
		inf := uint32(c.Inf())
		pack := c.Pack()
		bits := 32 / pack
		var wg sync.WaitGroup
		const parts = 16
		chunk := (len(h) + parts - 1) / parts
		for p := 0; p < parts; p++ {
			lo, hi := min(p*chunk, len(h)), min((p+1)*chunk, len(h))
			wg.Add(1)
			go func() {
				defer wg.Done()
				x := seed*parts + uint32(p) | 1
				for i := lo; i < hi; i++ {
					var w uint32
					for l := 0; l < pack; l++ {
						x ^= x << 13
						x ^= x >> 17
						x ^= x << 5
						v := 1 + x%(inf/2)
						if x&15 == 0 {
							v = inf
						}
						if cell := i*pack + l; cell/n == cell%n {
							v = 0
						}
						w |= v << (bits * l)
					}
					h[i] = w
				}
			}()
		}
		wg.Wait()
	}
}

func envFloat(name string, def float64) float64 {
	var v float64
	if _, err := fmt.Sscan(os.Getenv(name), &v); err != nil {
		return def
	}
	return v
}
