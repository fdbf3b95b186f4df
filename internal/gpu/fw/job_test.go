package fw

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/lanes"
)

// reference is the CPU's float64 matrix of g and its lane plan.
func reference(t testing.TB, g *graph.Graph) (*lanes.Matrix[float64], lanes.Plan) {
	t.Helper()
	plan, err := lanes.PlanFor(g)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := lanes.NewMatrix[float64](g, cpu.TileSize(g.N(), 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := cpu.Blocked(context.Background(), ref, cpu.BlockedOptions{}); err != nil {
		t.Fatal(err)
	}
	return ref, plan
}

func near(got, want float64, float bool) bool {
	if math.IsInf(want, 1) || math.IsInf(got, 1) {
		return got == want
	}
	if !float {
		return got == want
	}
	return math.Abs(got-want) <= 1e-5*math.Max(1, math.Abs(want))
}

// checkJob runs g through Rows and Matrix and compares both with the CPU.
func checkJob(t *testing.T, ctx context.Context, g *graph.Graph, k gpu.Kernel, name string) {
	t.Helper()
	ref, plan := reference(t, g)
	float := g.Kind() == graph.FloatWeights
	job := Job{Graph: g, Kernel: k, MaxReal: int32(min(plan.MaxReal, math.MaxInt32))}
	n := g.N()
	m, err := Matrix(ctx, gpu.OnGPU(0), job)
	if err != nil {
		t.Fatalf("%s: Matrix: %v", name, err)
	}
	if m.NegVertex >= 0 {
		t.Fatalf("%s: negative diagonal at %d", name, m.NegVertex)
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			var got float64
			if float {
				got = float64(m.Float[u*m.Stride+v])
			} else if x := m.Int[u*m.Stride+v]; x == gpu.InfInt32 {
				got = math.Inf(1)
			} else {
				got = float64(x)
			}
			if want := ref.At(u, v); !near(got, want, float) {
				t.Fatalf("%s: d(%d,%d) = %v, want %v", name, u, v, got, want)
			}
		}
	}
	r, err := Rows(ctx, gpu.OnGPU(0), job)
	if err != nil {
		t.Fatalf("%s: Rows: %v", name, err)
	}
	if r.NegVertex >= 0 {
		t.Fatalf("%s: Rows: negative diagonal at %d", name, r.NegVertex)
	}
	for u := 0; u < n; u++ {
		var reach int64
		var maxd, sum float64
		for v := 0; v < n; v++ {
			if d := ref.At(u, v); v != u && !math.IsInf(d, 1) {
				reach++
				sum += d
				if reach == 1 || d > maxd {
					maxd = d
				}
			}
		}
		row := r.Rows[u]
		gotMax, gotSum := float64(row.MaxI), row.Sum.Float()
		if float {
			gotMax, gotSum = row.MaxF, row.SumF
		}
		if row.Reach != reach || row.Unreach != (reach < int64(n-1)) ||
			(reach > 0 && (!near(gotMax, maxd, float) || !near(gotSum, sum, float))) {
			t.Fatalf("%s: row %d: reach %d max %v sum %v, want %d %v %v", name, u, row.Reach, gotMax, gotSum, reach, maxd, sum)
		}
	}
}

// TestJobsAgreeWithCPU builds the matrices on the device from the arcs, in
// sizes interleaved so that pooled buffers serve problems of other sizes,
// with both kernels and every weight kind.
func TestJobsAgreeWithCPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	sizes := []int{700, 64, 1000, 1, 300, 2100, 65, 1000, 129, 5, 700, 2100}
	for i, n := range sizes {
		for kind := 0; kind < 3; kind++ {
			directed := (i+kind)%2 == 0
			p := math.Min(1, 6/float64(max(n, 1)))
			g := randomGraph(rng, n, p, directed, kind == 1 && directed, kind == 2)
			if kind == 0 { // unweighted
				b := graph.NewBuilder(directed)
				_ = b.SetVertices(n)
				for u := 0; u < n; u++ {
					for _, v := range g.Neighbors(u) {
						_ = b.AddEdge(u, int(v))
					}
				}
				g = b.Build()
			}
			for _, k := range []gpu.Kernel{gpu.Single, gpu.Multi} {
				checkJob(t, ctx, g, k, fmt.Sprintf("n=%d/kind=%d/directed=%v/%v", n, kind, directed, k))
			}
		}
	}
}

// poolStats reads GPU 0's pool counters.
func poolStats(t *testing.T) (mem, host gpurt.PoolStats) {
	t.Helper()
	d, err := gpurt.Default().Device(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Do(context.Background(), func(c *gpurt.Call) error { mem, host = c.PoolStats(); return nil }); err != nil {
		t.Fatal(err)
	}
	return mem, host
}

// TestSteadyStateAllocatesNothing repeats interleaved sizes: after the
// pools have warmed up, a pass allocates neither device nor pinned memory,
// and the GPU is opened once.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 42))
	var graphs []*graph.Graph
	for _, n := range []int{1024, 256, 3000, 1024, 100} {
		graphs = append(graphs, randomGraph(rng, n, 4/float64(n), false, false, false))
	}
	pass := func() {
		for _, g := range graphs {
			for _, k := range []gpu.Kernel{gpu.Single, gpu.Multi} {
				if _, err := Rows(ctx, gpu.OnGPU(0), Job{Graph: g, Kernel: k}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Matrix(ctx, gpu.OnGPU(0), Job{Graph: g, Kernel: gpu.AutoKernel(g.N())}); err != nil {
				t.Fatal(err)
			}
		}
	}
	pass()
	pass()
	opened := gpu.Opened()
	mem0, host0 := poolStats(t)
	pass()
	mem1, host1 := poolStats(t)
	if mem1.Allocs != mem0.Allocs || host1.Allocs != host0.Allocs || gpu.Opened() != opened {
		t.Fatalf("a warm pass allocated %d device and %d host buffers and opened %d GPUs",
			mem1.Allocs-mem0.Allocs, host1.Allocs-host0.Allocs, gpu.Opened()-opened)
	}
	t.Logf("device pool %+v, host pool %+v", mem1, host1)
}

// TestCancelQueued withdraws a call that waits behind other work on the
// GPU, and calls from several goroutines are serialised correctly.
func TestCancelQueued(t *testing.T) {
	requireGPU(t)
	d, err := gpurt.Default().Device(0)
	if err != nil {
		t.Fatal(err)
	}
	g := randomGraph(rand.New(rand.NewPCG(5, 6)), 500, 0.01, true, false, false)
	started, release := make(chan struct{}), make(chan struct{})
	busy := make(chan error, 1)
	go func() {
		busy <- d.Do(context.Background(), func(*gpurt.Call) error { close(started); <-release; return nil })
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := Rows(ctx, gpu.OnGPU(0), Job{Graph: g, Kernel: gpu.Single}); errc <- err }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("queued call: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the queued call was not withdrawn")
	}
	close(release)
	if err := <-busy; err != nil {
		t.Fatal(err)
	}
	// Concurrent callers: each gets its own graph's answer.
	ref, _ := reference(t, g)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Rows(context.Background(), gpu.OnGPU(0), Job{Graph: g, Kernel: gpu.Kernel(i % 2)})
			if err != nil {
				t.Error(err)
				return
			}
			for u := 0; u < g.N(); u += 37 {
				reach := int64(0)
				for v := 0; v < g.N(); v++ {
					if v != u && !math.IsInf(ref.At(u, v), 1) {
						reach++
					}
				}
				if r.Rows[u].Reach != reach {
					t.Errorf("concurrent call: reach[%d] = %d, want %d", u, r.Rows[u].Reach, reach)
				}
			}
		}()
	}
	wg.Wait()
}

// TestCloseReopens releases the GPU and uses it again.
func TestCloseReopens(t *testing.T) {
	requireGPU(t)
	g := randomGraph(rand.New(rand.NewPCG(7, 8)), 300, 0.02, false, false, false)
	if _, err := Rows(context.Background(), gpu.OnGPU(0), Job{Graph: g}); err != nil {
		t.Fatal(err)
	}
	before := gpu.Opened()
	if err := gpu.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gpu.Close(); err != nil { // twice is harmless
		t.Fatal(err)
	}
	checkJob(t, context.Background(), g, gpu.Single, "after Close")
	if gpu.Opened() != before+1 {
		t.Fatalf("opened %d times after Close, want once", gpu.Opened()-before)
	}
}
