package apsp_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/gputest"
)

// requireGPU skips on machines without a GPU (CI), or fails when
// APSP_REQUIRE_GPU=1 says there must be one.
func requireGPU(tb testing.TB) {
	tb.Helper()
	if _, err := apsp.Devices(); err != nil {
		gputest.Skip(tb, "no GPU: %v", err)
	}
}

func genGraph(tb testing.TB, kind string, args ...string) *graph.Graph {
	tb.Helper()
	s, err := gen.ParseSpec(kind, args)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := gen.Generate(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func sameStats(got, want *apsp.Stats) bool {
	return got.Diameter == want.Diameter && got.Radius == want.Radius && got.ReachablePairs == want.ReachablePairs &&
		float64(got.ASPL) == float64(want.ASPL) && got.Connected == want.Connected &&
		slices.Equal(got.Center, want.Center) && slices.Equal(got.Periphery, want.Periphery)
}

// closeF compares float32 lanes' results with float64 ones.
func closeF(a, b float64) bool {
	if math.IsInf(a, 1) || math.IsInf(b, 1) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-5*math.Max(1, math.Abs(b))
}

// similarStats is sameStats for a float graph, computed in float32 on the
// GPU: the measures agree to rounding (and the vertices that attain them
// may differ by ties that rounding breaks).
func similarStats(got, want *apsp.Stats) bool {
	return closeF(got.Diameter.Float(), want.Diameter.Float()) && closeF(got.Radius.Float(), want.Radius.Float()) &&
		got.ReachablePairs == want.ReachablePairs && closeF(float64(got.ASPL), float64(want.ASPL)) && got.Connected == want.Connected
}

// TestGPUEnginesMatchCPU runs the GPU engines through the public API (stats
// reduced on the device, full matrices, paths) against the CPU; it skips on
// machines without a GPU, such as CI.
func TestGPUEnginesMatchCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	specs := [][]string{
		{"regular", "n=1000", "d=3"}, {"gnp", "n=777", "r=1", "weights=1..20"}, {"grid", "a=33", "b=40", "weights=1..9"},
		{"cycle", "n=1500", "directed"}, {"gnp", "n=300", "r=5", "weights=-3..20", "directed"},
	}
	for _, spec := range specs {
		g := genGraph(t, spec[0], append(spec[1:], "seed="+string(rune('0'+rng.IntN(9))))...)
		for _, algo := range []string{"gpu-multi", "gpu-single"} {
			want, werr := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: "blocked", Reachable: true})
			got, gerr := apsp.ComputeStats(ctx, g, apsp.Options{Algorithm: algo, Reachable: true})
			var nc *apsp.NegativeCycleError
			if errors.As(werr, &nc) {
				if !errors.As(gerr, &nc) {
					t.Fatalf("%v %s: want a negative cycle, got %v", spec, algo, gerr)
				}
				continue
			}
			if werr != nil || gerr != nil {
				t.Fatalf("%v %s: %v / %v", spec, algo, werr, gerr)
			}
			if !sameStats(got, want) {
				t.Fatalf("%v %s: got %+v\nwant %+v", spec, algo, got, want)
			}
			dw, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: "blocked"})
			if err != nil {
				t.Fatal(err)
			}
			dg, err := apsp.AllPairs(ctx, g, apsp.Options{Algorithm: algo, Paths: true})
			if err != nil {
				t.Fatal(err)
			}
			for u := 0; u < g.N(); u += 7 {
				for v := 0; v < g.N(); v++ {
					if dw.At(u, v) != dg.At(u, v) {
						t.Fatalf("%v %s: d(%d,%d) = %v, want %v", spec, algo, u, v, dg.At(u, v), dw.At(u, v))
					}
				}
				if !dw.At(u, 0).IsInf() {
					if _, err := dg.Path(u, 0); err != nil {
						t.Fatalf("%v %s: path: %v", spec, algo, err)
					}
				}
			}
		}
	}
	// A negative cycle is named.
	b := graph.NewBuilder(true)
	for i := 0; i < 1200; i++ {
		_ = b.AddIntEdge(i, (i+1)%1200, 2)
	}
	_ = b.AddIntEdge(5, 4, -3)
	var nc *apsp.NegativeCycleError
	if _, err := apsp.ComputeStats(ctx, b.Build(), apsp.Options{Algorithm: "gpu-multi"}); !errors.As(err, &nc) {
		t.Fatalf("want a negative cycle, got %v", err)
	}
}

// TestGPUManyCallsMatchCPU calls ComputeStats and AllPairs many times with
// sizes interleaved, so that the runtime's pooled buffers serve problems of
// other sizes, and compares every result with the CPU engines.
func TestGPUManyCallsMatchCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	type tc struct {
		g    *graph.Graph
		name string
	}
	var cases []tc
	for i, spec := range [][]string{
		{"regular", "n=1024", "d=4"}, {"regular", "n=256", "d=4"}, {"gnp", "n=1500", "r=3", "weights=1..50", "directed"},
		{"regular", "n=64", "d=3"}, {"regular", "n=1024", "d=4"}, {"regular", "n=3000", "d=4"},
		{"gnp", "n=600", "r=2", "weights=-2..30", "directed"}, {"geometric", "n=2000", "d=6", "weights=1.0..9.0"},
		{"regular", "n=256", "d=4"}, {"cycle", "n=700", "directed"}, {"regular", "n=1024", "d=4"},
	} {
		cases = append(cases, tc{genGraph(t, spec[0], append(spec[1:], fmt.Sprintf("seed=%d", i+1))...), fmt.Sprint(spec)})
	}
	calls := 0
	for round := 0; round < 3; round++ {
		for i, c := range cases {
			float := c.g.Kind() == graph.FloatWeights
			want, werr := apsp.ComputeStats(ctx, c.g, apsp.Options{Device: "cpu"})
			var nc *apsp.NegativeCycleError
			negative := errors.As(werr, &nc)
			if werr != nil && !negative {
				t.Fatal(werr)
			}
			for _, opt := range []apsp.Options{{Device: "gpu"}, {Algorithm: "gpu-multi"}, {Algorithm: "gpu-single"}} {
				got, err := apsp.ComputeStats(ctx, c.g, opt)
				calls++
				switch {
				case negative:
					if !errors.As(err, &nc) {
						t.Fatalf("%s %+v: want a negative cycle, got %v", c.name, opt, err)
					}
					continue
				case err != nil:
					t.Fatalf("%s %+v: %v", c.name, opt, err)
				}
				if (float && !similarStats(got, want)) || (!float && !sameStats(got, want)) {
					t.Fatalf("round %d %s %+v: got %+v\nwant %+v", round, c.name, opt, got, want)
				}
			}
			if negative {
				continue
			}
			if (i+round)%3 != 0 {
				continue
			}
			dw, err := apsp.AllPairs(ctx, c.g, apsp.Options{Device: "cpu"})
			if err != nil {
				t.Fatal(err)
			}
			dg, err := apsp.AllPairs(ctx, c.g, apsp.Options{Device: "gpu"})
			calls++
			if err != nil {
				t.Fatalf("%s: AllPairs: %v", c.name, err)
			}
			for u := round; u < c.g.N(); u += 11 {
				for v := 0; v < c.g.N(); v++ {
					if a, b := dg.At(u, v), dw.At(u, v); (float && !closeF(a.Float(), b.Float())) || (!float && a != b) {
						t.Fatalf("%s: d(%d,%d) = %v, want %v", c.name, u, v, dg.At(u, v), dw.At(u, v))
					}
				}
			}
		}
	}
	t.Logf("%d GPU calls matched the CPU", calls)
}

// TestGPUCancelQueued cancels a ComputeStats call while it waits for the
// GPU behind other work.
func TestGPUCancelQueued(t *testing.T) {
	requireGPU(t)
	d, err := gpurt.Default().Device(0)
	if err != nil {
		t.Fatal(err)
	}
	g := genGraph(t, "regular", "n=1024", "d=4", "seed=3")
	// (close is shadowed in this package's tests: the channels are sent on.)
	started, release := make(chan struct{}, 1), make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = d.Do(context.Background(), func(*gpurt.Call) error { started <- struct{}{}; <-release; return nil })
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := apsp.ComputeStats(ctx, g, apsp.Options{Device: "gpu"}); errc <- err }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the queued call was not withdrawn")
	}
	release <- struct{}{}
	wg.Wait()
	if _, err := apsp.ComputeStats(context.Background(), g, apsp.Options{Device: "gpu"}); err != nil {
		t.Fatal(err)
	}
}

// TestNoGPUErrors checks, without a GPU, that every way of lacking one
// matches ErrNoGPU: no driver library, a library that is not CUDA, a driver
// that sees no GPU, and gpu:N out of range.
func TestNoGPUErrors(t *testing.T) {
	g := genGraph(t, "regular", "n=64", "d=3", "seed=1")
	ctx := context.Background()
	t.Cleanup(func() { _ = gpurt.Default().SetLoader(nil) })
	expect := func(t *testing.T, devices bool, device string) {
		t.Helper()
		if devices {
			if _, err := apsp.Devices(); !errors.Is(err, apsp.ErrNoGPU) {
				t.Errorf("Devices: %v", err)
			}
		}
		for _, opt := range []apsp.Options{{Device: device}, {Device: device, Algorithm: "gpu-multi"}} {
			if _, err := apsp.ComputeStats(ctx, g, opt); !errors.Is(err, apsp.ErrNoGPU) {
				t.Errorf("ComputeStats %+v: %v", opt, err)
			}
			if _, err := apsp.AllPairs(ctx, g, opt); !errors.Is(err, apsp.ErrNoGPU) {
				t.Errorf("AllPairs %+v: %v", opt, err)
			}
		}
	}
	notCUDA := gputest.NotALibrary()
	t.Run("no driver", func(t *testing.T) {
		t.Setenv("APSP_LIBCUDA", filepath.Join(t.TempDir(), "libcuda.so.1"))
		if err := apsp.Close(); err != nil { // forget a driver loaded before
			t.Fatal(err)
		}
		defer apsp.Close()
		expect(t, true, "gpu")
		expect(t, false, "gpu:1")
	})
	t.Run("not CUDA", func(t *testing.T) {
		if notCUDA == "" {
			t.Skip("no libm.so.6 to stand in for a library that is not CUDA")
		}
		t.Setenv("APSP_LIBCUDA", notCUDA)
		t.Setenv("APSP_LIBNVRTC", notCUDA)
		apsp.Close()
		defer apsp.Close()
		expect(t, true, "gpu")
	})
	t.Run("no device", func(t *testing.T) {
		if err := gpurt.Default().SetLoader(func() (*cuda.API, []cuda.Info, error) { return &cuda.API{}, nil, nil }); err != nil {
			t.Fatal(err)
		}
		expect(t, true, "gpu")
	})
	t.Run("out of range", func(t *testing.T) {
		one := []cuda.Info{{Ordinal: 0, Name: "Fake GPU", Major: 9}}
		if err := gpurt.Default().SetLoader(func() (*cuda.API, []cuda.Info, error) { return &cuda.API{}, one, nil }); err != nil {
			t.Fatal(err)
		}
		if infos, err := apsp.Devices(); err != nil || len(infos) != 1 {
			t.Fatalf("Devices: %v, %v", infos, err)
		}
		expect(t, false, "gpu:1")
		expect(t, false, "gpu:7")
	})
}

// BenchmarkGPUStatsSteadyState times apsp.ComputeStats on a random
// 4-regular graph with Device "gpu" in a loop, after a warm-up, and reports
// per call: the median wall time, the median kernel time (CUDA events around
// Floyd–Warshall), the device time from the first copy to the last, and the
// median of each call's wall time less its kernel time. The first call of
// the process (the driver loaded, the context created, the module loaded
// from the cubin cache) is reported as first-call-ms, with its parts, by the
// sub-benchmark that makes it: run one size in a fresh process to see it.
func BenchmarkGPUStatsSteadyState(b *testing.B) {
	first := map[string]float64{}
	if gpu.Opened() == 0 {
		// The process's first call: it loads the driver, opens the GPU and
		// loads the module.
		g := genGraph(b, "regular", "n=1024", "d=4", "seed=99")
		start := time.Now()
		_, err := apsp.ComputeStats(context.Background(), g, apsp.Options{Device: "gpu"})
		if errors.Is(err, apsp.ErrNoGPU) {
			requireGPU(b)
		}
		if err != nil {
			b.Fatal(err)
		}
		first["first-call-ms"] = ms(time.Since(start))
		load, open := gpu.SetupTimes(0)
		first["first-load-ms"], first["first-open-ms"] = ms(load), ms(open)
	}
	requireGPU(b)
	for _, n := range []int{1024, 256, 4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ctx := context.Background()
			opt := apsp.Options{Device: "gpu"}
			// Fresh random graphs, rotated so that no call reuses the last
			// one's input.
			var graphs []*graph.Graph
			for s := range 4 {
				graphs = append(graphs, genGraph(b, "regular", fmt.Sprintf("n=%d", n), "d=4", fmt.Sprintf("seed=%d", s+1)))
			}
			for i := range 10 {
				if _, err := apsp.ComputeStats(ctx, graphs[i%len(graphs)], opt); err != nil {
					b.Fatal(err)
				}
			}
			wall := make([]float64, 0, b.N)
			kernel := make([]float64, 0, b.N)
			over := make([]float64, 0, b.N)
			var device float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0, _ := gpu.Totals(0)
				start := time.Now()
				if _, err := apsp.ComputeStats(ctx, graphs[i%len(graphs)], opt); err != nil {
					b.Fatal(err)
				}
				w := ms(time.Since(start))
				t1, _ := gpu.Totals(0)
				k := t1.Kernel - t0.Kernel
				wall, kernel, over = append(wall, w), append(kernel, k), append(over, w-k)
				device += t1.Device - t0.Device
			}
			b.StopTimer()
			b.ReportMetric(median(wall), "wall-ms")
			b.ReportMetric(median(kernel), "kernel-ms")
			b.ReportMetric(median(over), "overhead-ms")
			b.ReportMetric(device/float64(b.N), "device-ms")
			if n == 1024 {
				for k, v := range first {
					b.ReportMetric(v, k)
				}
			}
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// BenchmarkGPUBitStats times apsp.ComputeStats with gpu-bitbfs on the
// random 16-regular graph of issue 11's goal (n = 65 536, ≤ 10 ms a call
// on an H100), and on one of 262 144 vertices of degree 32, after a
// warm-up: the library call end to end (planning, the arcs to the GPU, the
// search, the Brief and the Stats).
func BenchmarkGPUBitStats(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	opt := apsp.Options{Device: "gpu", Algorithm: "gpu-bitbfs"}
	for _, c := range []struct{ n, d int }{{65536, 16}, {262144, 32}} {
		g := genGraph(b, "regular", fmt.Sprintf("n=%d", c.n), fmt.Sprintf("d=%d", c.d), "seed=1")
		b.Run(fmt.Sprintf("n=%d/d=%d", c.n, c.d), func(b *testing.B) {
			var s *apsp.Stats
			var err error
			for range 3 {
				if s, err = apsp.ComputeStats(ctx, g, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Diameter.Int()), "diameter")
			b.ReportMetric(float64(s.ASPL), "aspl")
			for b.Loop() {
				if _, err := apsp.ComputeStats(ctx, g, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The diameter and ASPL alone, through SummaryBatch of one graph.
		b.Run(fmt.Sprintf("summary/n=%d/d=%d", c.n, c.d), func(b *testing.B) {
			gs := []*graph.Graph{g}
			for range 3 {
				if sums, errs := apsp.SummaryBatch(ctx, gs, opt); errs[0] != nil || sums[0].Algorithm != "gpu-bitbfs" {
					b.Fatalf("%v (algorithm %q)", errs[0], sums[0].Algorithm)
				}
			}
			for b.Loop() {
				if _, errs := apsp.SummaryBatch(ctx, gs, opt); errs[0] != nil {
					b.Fatal(errs[0])
				}
			}
		})
	}
}

// TestWarmUp: WarmUp opens the GPU a device names (found open afterwards),
// does nothing for the CPU and "auto", refuses a malformed device, and
// says ErrNoGPU where there is no GPU.
func TestWarmUp(t *testing.T) {
	for _, dev := range []string{"", "auto", "cpu"} {
		if err := apsp.WarmUp(apsp.Options{Device: dev}); err != nil {
			t.Errorf("WarmUp(%q) = %v, want nil", dev, err)
		}
	}
	if err := apsp.WarmUp(apsp.Options{Device: "gpu:x"}); !errors.Is(err, apsp.ErrInvalidOptions) {
		t.Errorf("WarmUp(gpu:x) = %v, want ErrInvalidOptions", err)
	}
	// Opened counts the opens since the runtime was made: after Close, a
	// WarmUp that opens nothing leaves it where it was.
	if err := apsp.Close(); err != nil {
		t.Fatal(err)
	}
	before := gpu.Opened()
	err := apsp.WarmUp(apsp.Options{Device: "gpu"})
	if errors.Is(err, apsp.ErrNoGPU) {
		requireGPU(t)
	}
	if err != nil {
		t.Fatal(err)
	}
	if gpu.Opened() <= before {
		t.Fatalf("WarmUp(gpu) returned nil but opened nothing (%d opens before, %d after)", before, gpu.Opened())
	}
}

// BenchmarkGPUCrossover times ComputeStats of unweighted random regular
// graphs of rising degree by gpu-bitbfs and by Floyd–Warshall in packed
// lanes (gpu-multi, the lanes auto picks): where is dense FW faster than
// the bit-parallel search? APSP_CROSS=n:d,... names the graphs (default a
// sweep at n = 8 192 and 16 384).
func BenchmarkGPUCrossover(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	cases := [][2]int{}
	for _, s := range strings.Split(os.Getenv("APSP_CROSS"), ",") {
		var n, d int
		if _, err := fmt.Sscanf(s, "%d:%d", &n, &d); err == nil {
			cases = append(cases, [2]int{n, d})
		}
	}
	if len(cases) == 0 {
		for _, n := range []int{8192, 16384} {
			for _, d := range []int{16, 128, 1024, 2048} {
				cases = append(cases, [2]int{n, d})
			}
		}
	}
	for _, c := range cases {
		g := genGraph(b, "regular", fmt.Sprintf("n=%d", c[0]), fmt.Sprintf("d=%d", c[1]), "seed=1")
		var want *apsp.Stats
		for _, algo := range []string{"gpu-bitbfs", "gpu-multi"} {
			opt := apsp.Options{Device: "gpu", Algorithm: algo}
			b.Run(fmt.Sprintf("n=%d/d=%d/%s", c[0], c[1], algo), func(b *testing.B) {
				s, err := apsp.ComputeStats(ctx, g, opt) // a warm-up, and the answer both must give
				if err != nil {
					b.Fatal(err)
				}
				if want == nil {
					want = s
				} else if s.Diameter != want.Diameter || s.ASPL != want.ASPL || s.Radius != want.Radius {
					b.Fatalf("%s: diameter %v radius %v ASPL %v, gpu-bitbfs gave %v %v %v", algo, s.Diameter, s.Radius, s.ASPL, want.Diameter, want.Radius, want.ASPL)
				}
				b.ReportMetric(float64(s.Diameter.Int()), "diameter")
				b.Logf("%s: lanes %s", algo, s.Lanes)
				for b.Loop() {
					if _, err := apsp.ComputeStats(ctx, g, opt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestNetworkSpeed times ComputeStats of generated network-like graphs by
// gpu-bitbfs on the GPU and by bitbfs on every CPU core, and checks that
// the two agree on every measure (diameter, radius, ASPL, reachable pairs,
// center, periphery). APSP_NETS names the graphs, "KIND key=value ...;..."
// (e.g. "ba n=1000000 d=5;geometric n=65536 d=6"); APSP_NETS_CPU_MAX skips
// the CPU run (and the check) above that many vertices. A measurement, not
// run otherwise.
func TestNetworkSpeed(t *testing.T) {
	specs := os.Getenv("APSP_NETS")
	if specs == "" {
		t.Skip("APSP_NETS names the graphs")
	}
	requireGPU(t)
	cpuMax := math.MaxInt
	if s := os.Getenv("APSP_NETS_CPU_MAX"); s != "" {
		if _, err := fmt.Sscan(s, &cpuMax); err != nil {
			t.Fatalf("APSP_NETS_CPU_MAX=%s: %v", s, err)
		}
	}
	ctx := context.Background()
	for _, spec := range strings.Split(specs, ";") {
		f := strings.Fields(spec)
		if len(f) == 0 {
			continue
		}
		g := genGraph(t, f[0], f[1:]...)
		lo, hi := g.DegreeRange()
		gpuOpt := apsp.Options{Device: "gpu", Algorithm: "gpu-bitbfs"}
		if _, err := apsp.ComputeStats(ctx, g, gpuOpt); err != nil { // warm-up: kernels loaded
			t.Fatalf("%s: %v", spec, err)
		}
		start := time.Now()
		got, err := apsp.ComputeStats(ctx, g, gpuOpt)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		gpuS := time.Since(start).Seconds()
		line := fmt.Sprintf("NET %s: %d vertices, %d arcs, degrees %d..%d, diameter %v, ASPL %v; gpu-bitbfs %.3f s",
			spec, g.N(), g.Arcs(), lo, hi, got.Diameter, got.ASPL, gpuS)
		if g.N() <= cpuMax {
			start = time.Now()
			want, err := apsp.ComputeStats(ctx, g, apsp.Options{Device: "cpu", Algorithm: "bitbfs"})
			if err != nil {
				t.Fatalf("%s on the CPU: %v", spec, err)
			}
			cpuS := time.Since(start).Seconds()
			if got.Diameter != want.Diameter || got.Radius != want.Radius || got.ASPL != want.ASPL ||
				got.ReachablePairs != want.ReachablePairs || !slices.Equal(got.Center, want.Center) || !slices.Equal(got.Periphery, want.Periphery) {
				t.Fatalf("%s: the GPU's diameter %v radius %v ASPL %v pairs %d (%d centers, %d peripheral) differ from the CPU's %v %v %v %d (%d, %d)",
					spec, got.Diameter, got.Radius, got.ASPL, got.ReachablePairs, len(got.Center), len(got.Periphery),
					want.Diameter, want.Radius, want.ASPL, want.ReachablePairs, len(want.Center), len(want.Periphery))
			}
			line += fmt.Sprintf(", bitbfs on %d CPU threads %.3f s: %.1f×, every measure equal", want.Threads, cpuS, cpuS/gpuS)
		}
		t.Log(line)
	}
}

// BenchmarkGPUOneCall compares, on random 16-regular graphs, a plain
// ComputeStats with Device "gpu" against an Evaluator's Stats and Summary
// on the same graph (issue 31: one call within 1.2× of the loop), after a
// warm-up of each, reporting the median call.
func BenchmarkGPUOneCall(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	opt := apsp.Options{Device: "gpu"}
	for _, n := range []int{1024, 4096, 16384} {
		g := genGraph(b, "regular", fmt.Sprintf("n=%d", n), "d=16", "seed=1")
		ev, err := apsp.NewEvaluator(opt)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			call func() error
		}{
			{"ComputeStats", func() error { _, err := apsp.ComputeStats(ctx, g, opt); return err }},
			{"EvaluatorStats", func() error { _, err := ev.Stats(ctx, g); return err }},
			{"EvaluatorSummary", func() error { _, err := ev.Summary(ctx, g); return err }},
			{"SummaryBatch", func() error { _, errs := apsp.SummaryBatch(ctx, []*graph.Graph{g}, opt); return errs[0] }},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				for range 5 {
					if err := c.call(); err != nil {
						b.Fatal(err)
					}
				}
				var wall []float64
				for b.Loop() {
					start := time.Now()
					if err := c.call(); err != nil {
						b.Fatal(err)
					}
					wall = append(wall, ms(time.Since(start)))
				}
				b.ReportMetric(median(wall), "median-ms")
			})
		}
	}
}

// BenchmarkSummaryBatchGPUSizes times SummaryBatch on the GPU at the sizes
// the batching service and the golf search send (issue 31: a bulk call's
// wall against its device time): batches of B random 16-regular graphs
// of n vertices, reporting the median call and the time a graph.
func BenchmarkSummaryBatchGPUSizes(b *testing.B) {
	requireGPU(b)
	ctx := context.Background()
	opt := apsp.Options{Device: "gpu"}
	for _, c := range []struct{ n, batch int }{{1024, 32}, {1024, 256}, {256, 1024}, {64, 4096}} {
		gs := make([]*graph.Graph, c.batch)
		for i := range gs {
			g, err := gen.Make("regular", fmt.Sprintf("n=%d", c.n), "d=16", fmt.Sprintf("seed=%d", i+1))
			if err != nil {
				b.Fatal(err)
			}
			gs[i] = g
		}
		b.Run(fmt.Sprintf("n=%d/batch=%d", c.n, c.batch), func(b *testing.B) {
			call := func() {
				_, errs := apsp.SummaryBatch(ctx, gs, opt)
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			call()
			var wall []float64
			for b.Loop() {
				start := time.Now()
				call()
				wall = append(wall, ms(time.Since(start)))
			}
			m := median(wall)
			b.ReportMetric(m, "median-ms")
			b.ReportMetric(1e3*m/float64(c.batch), "us/graph")
		})
	}
}
