package fw

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/testgraphs"
)

// TestPlanMulti: every row in exactly one strip, strips dealt to the GPUs
// in turn, each GPU's strips contiguous in its buffer, S a multiple of the
// tile, for sizes that are multiples of neither the tile nor S·k.
func TestPlanMulti(t *testing.T) {
	for _, tt := range []struct{ stride, tile, k, block int }{
		{128, 32, 2, 0}, {352, 32, 2, 0}, {352, 32, 3, 0}, {65536, 128, 2, 0}, {131072, 128, 2, 0},
		{1408, 128, 2, 0}, {1408, 128, 4, 0}, {96, 32, 5, 0}, {320, 32, 2, 64}, {320, 32, 3, 96}, {128, 128, 2, 0},
		{512, 32, 1, 0}, {36, 4, 3, 8},
	} {
		pl := planMulti(tt.stride, tt.tile, 4, tt.k, tt.block)
		name := fmt.Sprintf("stride %d tile %d k %d block %d (S %d)", tt.stride, tt.tile, tt.k, tt.block, pl.s)
		if pl.s%tt.tile != 0 || pl.s <= 0 || pl.s > max(mgMaxBlock, tt.block) {
			t.Errorf("%s: S %d", name, pl.s)
		}
		seen := make([]int, tt.stride)
		rows := 0
		for j := range tt.k {
			var at uint64
			for _, i := range pl.owned(j) {
				if pl.owner(i) != j || i%tt.k != j {
					t.Errorf("%s: strip %d owned by %d, owner says %d", name, i, j, pl.owner(i))
				}
				if pl.offset(i) != at {
					t.Errorf("%s: strip %d at %d, want %d", name, i, pl.offset(i), at)
				}
				r0, r1 := pl.rows(i)
				if r0%tt.tile != 0 || r1%tt.tile != 0 || r1 <= r0 {
					t.Errorf("%s: strip %d rows [%d, %d)", name, i, r0, r1)
				}
				for r := r0; r < r1; r++ {
					seen[r]++
				}
				at += uint64(r1-r0) * pl.row
			}
			rows += pl.localRows(j)
		}
		if rows != tt.stride {
			t.Errorf("%s: %d rows held, want %d", name, rows, tt.stride)
		}
		for r, c := range seen {
			if c != 1 {
				t.Fatalf("%s: row %d held %d times", name, r, c)
			}
		}
		if tt.block == 0 && tt.stride >= 2*tt.k*tt.tile && pl.strips() < min(2*tt.k, tt.stride/mgMaxBlock) {
			t.Errorf("%s: %d strips for %d GPUs", name, pl.strips(), tt.k)
		}
	}
	if pl := planMulti(65536, 128, 4, 2, 0); pl.s != 4096 || pl.strips() != 16 {
		t.Errorf("n = 65536 on 2 GPUs: S %d, %d strips; want 4096, 16", pl.s, pl.strips())
	}
}

// TestMultiSchedule: each worker's schedule closes its own strips once and
// copies every other strip once, updates each of its strips in every
// round but the strip's own, before the strip's closing where the strip
// is the next pivot, and waits for the copies of a strip it sent before
// changing it again.
func TestMultiSchedule(t *testing.T) {
	for _, k := range []int{1, 2, 3, 4} {
		for _, strips := range []int{1, 2, 3, 5, 8} {
			pl := mgPlan{stride: strips * 32, tile: 32, s: 32, k: k, row: 128}
			for c := range 2 * k {
				j, late := c/2, c%2 == 1
				ops := pl.schedule(j, late)
				closed := map[int]int{}  // strip -> position
				pulled := map[int]int{}  // round -> position
				updates := map[int]int{} // strip -> count
				for at, op := range ops {
					switch op.kind {
					case opClose:
						closed[op.i] = at
						if pl.owner(op.i) != j {
							t.Fatalf("k %d strips %d worker %d closes strip %d", k, strips, j, op.i)
						}
					case opPull:
						pulled[op.z] = at
					case opUpdate:
						updates[op.i]++
						if op.i == op.z {
							t.Fatalf("pivot strip %d updated in its own round", op.i)
						}
						if c, ok := closed[op.z]; ok == (pl.owner(op.z) != j) || (ok && c > at) {
							t.Fatalf("k %d strips %d worker %d: round %d before R(%d) is closed", k, strips, j, op.z, op.z)
						}
						if c, ok := pulled[op.z]; ok == (pl.owner(op.z) == j) || (ok && c > at) {
							t.Fatalf("k %d strips %d worker %d: round %d before R(%d) is copied", k, strips, j, op.z, op.z)
						}
						if c, ok := closed[op.i]; ok && op.z < op.i {
							t.Fatalf("strip %d updated in round %d after its closing at %d", op.i, op.z, c)
						}
					}
				}
				for _, i := range pl.owned(j) {
					if updates[i] != strips-1 {
						t.Errorf("k %d strips %d worker %d: strip %d updated %d times, want %d", k, strips, j, i, updates[i], strips-1)
					}
					if _, ok := closed[i]; !ok {
						t.Errorf("strip %d never closed", i)
					}
				}
				if len(closed)+len(pulled) != strips {
					t.Errorf("k %d strips %d worker %d: %d closed, %d copied", k, strips, j, len(closed), len(pulled))
				}
			}
		}
	}
}

// TestMultiScheduleOnCPU runs the workers' schedules in goroutines over
// int32 matrices on the CPU, each step done at once where the GPU would
// queue it, with the same waits on the other workers (promises): the
// result equals the plain Floyd–Warshall's, for several GPUs, strip
// sizes, sizes that are multiples of neither, and negative arcs. Run
// with -race, it also checks that the waits order every read of another
// worker's strip before that strip's next change.
func TestMultiScheduleOnCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := range 40 {
		n := 1 + rng.IntN(70)
		tile := []int{4, 8}[c%2]
		stride := (n + tile - 1) / tile * tile
		k := 1 + c%4
		block := tile * (1 + rng.IntN(3))
		directed := c%3 != 0
		want := randomMatrix(rng, n, stride, directed, c%2 == 0)
		got := slices.Clone(want)
		floydWarshallRef(want, stride)
		pl := planMulti(stride, tile, 4, k, block)
		if err := cpuMultiFW(got, pl, (c/4)%2 == 1); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: n %d stride %d k %d S %d: the strips' result differs from Floyd–Warshall", c, n, stride, k, pl.s)
		}
	}
}

const cpuInf = int32(1 << 29)

// randomMatrix is a random graph's matrix: lengths 1..20, or with
// potentials some negative (no negative cycle), about 3 arcs a vertex.
func randomMatrix(rng *rand.Rand, n, stride int, directed, negative bool) []int32 {
	d := make([]int32, stride*stride)
	for i := range d {
		d[i] = cpuInf
	}
	for u := range stride {
		d[u*stride+u] = 0
	}
	pot := make([]int32, n)
	if negative {
		for u := range pot {
			pot[u] = int32(rng.IntN(15))
		}
	}
	for range 3 * n {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v {
			continue
		}
		w := int32(1 + rng.IntN(20))
		d[u*stride+v] = min(d[u*stride+v], w+pot[u]-pot[v])
		if !directed {
			d[v*stride+u] = min(d[v*stride+u], w+pot[v]-pot[u])
		}
	}
	return d
}

func relax(x *int32, a, b int32) {
	if a < cpuInf && b < cpuInf && a+b < *x {
		*x = a + b
	}
}

func floydWarshallRef(d []int32, n int) {
	for k := range n {
		for i := range n {
			for j := range n {
				relax(&d[i*n+j], d[i*n+k], d[k*n+j])
			}
		}
	}
}

// cpuMultiFW computes the matrix d as the GPUs would: strips dealt to pl.k
// workers, each running its schedule in a goroutine.
func cpuMultiFW(d []int32, pl mgPlan, late bool) error {
	st := pl.stride
	ctx := context.Background()
	homes := make([]*promise[[]int32], pl.k)
	ready := make([]*promise[bool], pl.strips())
	got := make([][]*promise[bool], pl.strips())
	for j := range homes {
		homes[j] = newPromise[[]int32]()
	}
	for z := range ready {
		ready[z] = newPromise[bool]()
		got[z] = make([]*promise[bool], pl.k)
		for j := range got[z] {
			got[z][j] = newPromise[bool]()
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, pl.k)
	for j := range pl.k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]int32, pl.localRows(j)*st)
			for _, i := range pl.owned(j) {
				r0, r1 := pl.rows(i)
				copy(local[int(pl.offset(i)/4):], d[r0*st:r1*st])
			}
			homes[j].set(local)
			var recv [2][]int32
			strip := func(i int) []int32 {
				r0, r1 := pl.rows(i)
				at := int(pl.offset(i) / 4)
				return local[at : at+(r1-r0)*st]
			}
			rbuf := func(z int) []int32 {
				if pl.owner(z) == j {
					return strip(z)
				}
				return recv[z%2]
			}
			for _, op := range pl.schedule(j, late) {
				switch op.kind {
				case opClose:
					z0, z1 := pl.rows(op.i)
					s := strip(op.i)
					sz := z1 - z0
					for kk := range sz {
						for a := range sz {
							for b := range sz {
								relax(&s[a*st+z0+b], s[a*st+z0+kk], s[kk*st+z0+b])
							}
						}
					}
					for a := range sz {
						for c := range st {
							if c >= z0 && c < z1 {
								continue
							}
							for kk := range sz {
								relax(&s[a*st+c], s[a*st+z0+kk], s[kk*st+c])
							}
						}
					}
					ready[op.i].set(true)
				case opPull:
					if _, err := ready[op.z].get(ctx); err != nil {
						errs[j] = err
						return
					}
					h, _ := homes[pl.owner(op.z)].get(ctx)
					r0, r1 := pl.rows(op.z)
					at := int(pl.offset(op.z) / 4)
					recv[op.z%2] = append(recv[op.z%2][:0], h[at:at+(r1-r0)*st]...)
					got[op.z][j].set(true)
				case opAwait:
					for r := range pl.k {
						if r != j {
							if _, err := got[op.i][r].get(ctx); err != nil {
								errs[j] = err
								return
							}
						}
					}
				case opUpdate:
					z0, z1 := pl.rows(op.z)
					s, r := strip(op.i), rbuf(op.z)
					rows := len(s) / st
					for a := range rows {
						for b := z0; b < z1; b++ {
							for kk := range z1 - z0 {
								relax(&s[a*st+b], s[a*st+z0+kk], r[kk*st+b])
							}
						}
					}
					for a := range rows {
						for c := range st {
							if c >= z0 && c < z1 {
								continue
							}
							for kk := range z1 - z0 {
								relax(&s[a*st+c], s[a*st+z0+kk], r[kk*st+c])
							}
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	for j := range pl.k {
		if errs[j] != nil {
			return errs[j]
		}
		local, _ := homes[j].get(ctx)
		for _, i := range pl.owned(j) {
			r0, r1 := pl.rows(i)
			copy(d[r0*st:r1*st], local[int(pl.offset(i)/4):int(pl.offset(i)/4)+(r1-r0)*st])
		}
	}
	return nil
}

// multiGPUs returns the GPUs a multi-GPU test runs on: gpu:0,1 where the
// machine has two, else it skips (fails with APSP_REQUIRE_GPUS=2).
func multiGPUs(t *testing.T) []int {
	t.Helper()
	requireGPU(t)
	infos, err := gpu.Devices()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) < 2 {
		if os.Getenv("APSP_REQUIRE_GPUS") == "2" {
			t.Fatalf("APSP_REQUIRE_GPUS=2 but the driver sees %d GPU", len(infos))
		}
		t.Skipf("one GPU here: the multi-GPU Floyd–Warshall needs two (set APSP_REQUIRE_GPUS=2 where there are)")
	}
	return []int{infos[0].Ordinal, infos[1].Ordinal}
}

// mgCase is a multi-GPU test graph and the Job that runs it.
type mgCase struct {
	name string
	g    *graph.Graph
	job  Job
}

// mgCases: sizes that are multiples neither of the tile nor of S·k,
// directed and undirected, negative arcs without negative cycles, int32,
// int16 packed and float32.
func mgCases(t *testing.T, rng *rand.Rand) []mgCase {
	var out []mgCase
	for i, n := range []int{1, 70, 257, 300, 700, 1000, 1500} {
		directed := i%2 == 0
		for _, kind := range []lanes.Kind{lanes.Int32, lanes.Int16, lanes.Float32} {
			negative := directed && kind == lanes.Int32 && i%3 != 1
			var g *graph.Graph
			switch kind {
			case lanes.Int16:
				g = packedGraph(rng, n, lanes.Int16, 4/float64(n)+0.002, 30, directed, false)
			default:
				g = randomGraph(rng, n, 4/float64(n)+0.003, directed, negative, kind == lanes.Float32)
			}
			plan, err := lanes.PlanFor(g)
			if err != nil {
				t.Fatal(err)
			}
			j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: int32(min(plan.MaxReal, math.MaxInt32))}
			if kind == lanes.Int16 {
				j.Lanes = lanes.Int16
			}
			out = append(out, mgCase{fmt.Sprintf("n=%d/directed=%v/negative=%v/%v", n, directed, negative, kind), g, j})
		}
	}
	return out
}

// checkMulti runs every case on ords (strips of block rows, 0: the plan's)
// as matrix and summaries, against one GPU's run (bit for bit; float32
// within tolerance) and, for the matrix, the CPU reference.
func checkMulti(t *testing.T, ords []int, block int) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, uint64(len(ords)*1000+block)))
	for _, c := range mgCases(t, rng) {
		name := fmt.Sprintf("%s/gpus=%v/block=%d", c.name, ords, block)
		float := c.g.Kind() == graph.FloatWeights
		one, err := Matrix(ctx, gpu.OnGPU(0), c.job)
		if err != nil {
			t.Fatalf("%s: one GPU: %v", name, err)
		}
		got, err := matrixOn(ctx, ords, c.job, block)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.NegVertex != one.NegVertex || got.Stride != one.Stride {
			t.Fatalf("%s: negative vertex %d stride %d, one GPU %d %d", name, got.NegVertex, got.Stride, one.NegVertex, one.Stride)
		}
		ref, _ := reference(t, c.g)
		n := c.g.N()
		for u := range n {
			for v := range n {
				i := u*got.Stride + v
				var x, y float64
				switch {
				case float:
					x, y = float64(got.Float[i]), float64(one.Float[i])
				case got.Int16 != nil:
					x, y = float64(got.Int16[i]), float64(one.Int16[i])
					if got.Int16[i] == lanes.Inf16 {
						x = math.Inf(1)
					}
					if one.Int16[i] == lanes.Inf16 {
						y = math.Inf(1)
					}
				default:
					x, y = float64(got.Int[i]), float64(one.Int[i])
					if got.Int[i] == gpu.InfInt32 {
						x = math.Inf(1)
					}
					if one.Int[i] == gpu.InfInt32 {
						y = math.Inf(1)
					}
				}
				if (!float && x != y) || !near(x, y, float) || !near(x, ref.At(u, v), float) {
					t.Fatalf("%s: d(%d,%d) = %v; one GPU %v, CPU %v", name, u, v, x, y, ref.At(u, v))
				}
			}
		}
		oneR, err := Rows(ctx, gpu.OnGPU(0), c.job)
		if err != nil {
			t.Fatalf("%s: one GPU rows: %v", name, err)
		}
		gotR, err := rowsOn(ctx, ords, c.job, block)
		if err != nil {
			t.Fatalf("%s: rows: %v", name, err)
		}
		if gotR.NegVertex != oneR.NegVertex {
			t.Fatalf("%s: rows: negative vertex %d, one GPU %d", name, gotR.NegVertex, oneR.NegVertex)
		}
		for u := range n {
			a, b := gotR.Rows[u], oneR.Rows[u]
			if (!float && !gputest.SameRow(a, b)) || (float && (a.Reach != b.Reach || !near(a.MaxF, b.MaxF, true) || !near(a.SumF, b.SumF, true))) {
				t.Fatalf("%s: row %d: %+v, one GPU %+v", name, u, a, b)
			}
		}
	}
}

// TestMultiFWOneGPU runs the multi-GPU code on one GPU (k = 1: every strip
// on gpu:0, the lookahead on the same GPU), with small strips so that
// every run has several rounds.
func TestMultiFWOneGPU(t *testing.T) {
	requireGPU(t)
	for _, block := range []int{0, 128} {
		checkMulti(t, []int{0}, block)
	}
}

// TestMultiFWTwoGPUs runs gpu:0,1 against one GPU and the CPU, with
// strips of the plan's size and of one or two tiles (many rounds, both
// GPUs owning pivots in turn, the last strip short).
func TestMultiFWTwoGPUs(t *testing.T) {
	ords := multiGPUs(t)
	for _, block := range []int{0, 128} {
		checkMulti(t, ords, block)
	}
	checkMulti(t, []int{ords[1], ords[0]}, 256)
}

// TestMultiFWRefuses: one GPU listed twice is refused (each worker waits
// for the others), as is a GPU that is not there, naming it; a cancelled
// context returns, never hangs.
func TestMultiFWRefuses(t *testing.T) {
	requireGPU(t)
	rng := rand.New(rand.NewPCG(1, 2))
	g := randomGraph(rng, 300, 0.02, true, false, false)
	j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	ctx := context.Background()
	if _, err := rowsOn(ctx, []int{0, 0}, j, 0); !errors.Is(err, gpu.ErrDuplicateGPU) {
		t.Errorf("gpu:0,0: %v, want ErrDuplicateGPU", err)
	}
	if _, err := rowsOn(ctx, []int{0, 99}, j, 0); !errors.Is(err, gpu.ErrNoGPU) || !strings.Contains(err.Error(), "gpu:99") {
		t.Errorf("gpu:0,99: %v, want ErrNoGPU naming gpu:99", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := rowsOn(cctx, []int{0}, j, 128)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a cancelled run did not return within a minute")
	}
}

// failingLink is a peer link whose worker fail refuses to join, as a GPU
// whose memory check or allocation failed would.
type failingLink struct {
	mgLink
	fail int
}

func (l failingLink) join(ctx context.Context, m *mgRun, w *mgSide, failed error) (mgPort, error) {
	if w.j == l.fail {
		return nil, errors.New("injected failure")
	}
	return l.mgLink.join(ctx, m, w, failed)
}

// TestMultiFWWorkerFails: a GPU that fails before it joins (its memory
// check, an allocation) makes the run return its error; the other GPU,
// waiting for its strips' address, does not hang.
func TestMultiFWWorkerFails(t *testing.T) {
	ords := multiGPUs(t)
	rng := rand.New(rand.NewPCG(3, 9))
	g := randomGraph(rng, 600, 0.01, true, false, false)
	j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	for fail := range 2 {
		done := make(chan error, 1)
		go func() {
			p := j.problem()
			_, err := multiFWLinked(context.Background(), ords, p, g, 128, nil, &Result{},
				func(pl mgPlan) mgLink { return failingLink{newPeerLink(pl), fail} })
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "injected failure") {
				t.Errorf("worker %d failing: %v, want the injected failure", fail, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("worker %d failing: the run did not return within a minute", fail)
		}
	}
}

// TestMultiFWPerf times int32 Floyd–Warshall (summaries) at the sizes in
// APSP_MGFW_PERF (e.g. "65536,131072") on gpu:0,1, and on gpu:0 alone
// where APSP_MGFW_ONE is at least the size; the two agree row for row, and
// 16 rows are checked against Dijkstra on the CPU.
func TestMultiFWPerf(t *testing.T) {
	sizes := gputest.EnvInts("APSP_MGFW_PERF", nil)
	if len(sizes) == 0 {
		t.Skip("APSP_MGFW_PERF not set")
	}
	ords := multiGPUs(t)
	oneUpTo := gputest.EnvInt("APSP_MGFW_ONE", 0)
	ctx := context.Background()
	// Warm up: the kernels compiled and loaded on both GPUs.
	rng := rand.New(rand.NewPCG(7, 8))
	warm := Job{Graph: fwGraph(rng, 3000, 8, true, false), Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
	if _, err := rowsOn(ctx, ords, warm, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Rows(ctx, gpu.OnGPU(0), warm); err != nil {
		t.Fatal(err)
	}
	for _, n := range sizes {
		start := time.Now()
		g := fwGraph(rng, n, 8, true, false)
		j := Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1}
		t.Logf("n=%d: graph of %d arcs built in %v", n, g.Arcs(), time.Since(start).Round(time.Millisecond))
		relax := float64(n) * float64(n) * float64(n)
		wall := time.Now()
		got, err := rowsOn(ctx, ords, j, 0)
		if err != nil {
			t.Fatalf("n=%d on %v: %v", n, ords, err)
		}
		t.Logf("PERF n=%d gpus=%v: %.3f s (start barrier to summaries on the host), %.2f T relaxations/s; call %.3f s; %s; peer pairs %d",
			n, ords, got.Timing.Kernel/1000, relax/got.Timing.Kernel/1e9, time.Since(wall).Seconds(), got.Device, got.Timing.PeerLinks)
		checkDijkstra(t, g, got.Rows, 16, rng)
		if n <= oneUpTo {
			wall := time.Now()
			one, err := Rows(ctx, gpu.OnGPU(ords[0]), Job{Graph: g, Kernel: gpu.Multi, MaxReal: math.MaxInt32 - 1})
			if err != nil {
				t.Fatalf("n=%d on one GPU: %v", n, err)
			}
			t.Logf("PERF n=%d gpus=[%d]: %.3f s kernels (%.3f s with init and reduction), %.2f T relaxations/s; call %.3f s; speed-up %.3f (kernel time) ",
				n, ords[0], one.Timing.Kernel/1000, one.Timing.Total/1000, relax/one.Timing.Kernel/1e9, time.Since(wall).Seconds(), one.Timing.Kernel/got.Timing.Kernel)
			for u := range n {
				if !gputest.SameRow(got.Rows[u], one.Rows[u]) {
					t.Fatalf("n=%d: row %d: %+v, one GPU %+v", n, u, got.Rows[u], one.Rows[u])
				}
			}
			t.Logf("n=%d: all %d rows equal one GPU's", n, n)
		}
	}
}

// checkDijkstra compares count random rows with Dijkstra on the CPU
// (non-negative integer lengths).
func checkDijkstra(t *testing.T, g *graph.Graph, rows []reduce.Row, count int, rng *rand.Rand) {
	t.Helper()
	n := g.N()
	dist := make([]int64, n)
	for range count {
		s := rng.IntN(n)
		for i := range dist {
			dist[i] = math.MaxInt64
		}
		dist[s] = 0
		h := &distHeap{{0, s}}
		for h.Len() > 0 {
			it := heap.Pop(h).(distItem)
			if it.d > dist[it.v] {
				continue
			}
			for i, v := range g.Neighbors(it.v) {
				if d := it.d + g.ArcInt(it.v, i); d < dist[v] {
					dist[v] = d
					heap.Push(h, distItem{d, int(v)})
				}
			}
		}
		var want reduce.Row
		for v, d := range dist {
			if v != s && d != math.MaxInt64 {
				want.AddInt(d)
			}
		}
		want.Unreach = want.Reach < int64(n-1)
		if !gputest.SameRow(rows[s], want) {
			t.Fatalf("row %d: %+v, Dijkstra %+v", s, rows[s], want)
		}
	}
	t.Logf("%d rows equal Dijkstra's", count)
}

type distItem struct {
	d int64
	v int
}

type distHeap []distItem

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// envInt and envInts are copies of the bulk tests' (package gpu/bulk): families share no test code.

// fwGraph and sameRow are copies of the bulk Floyd–Warshall tests' (package gpu/bulk): families share no test code.

// fwGraph is a random graph of n vertices with about deg arcs a vertex
// (testgraphs' M model, n·deg/2 draws, no self-loop), weights 1..100 (or,
// with negative, shifted by potentials of up to 39: negative arcs but no
// negative cycle; directed only, an undirected negative edge being a
// cycle), directed or not.
func fwGraph(rng *rand.Rand, n, deg int, directed, negative bool) *graph.Graph {
	s := testgraphs.Spec{N: n, M: n * deg / 2, Directed: directed, Kind: graph.IntWeights, Lo: 1, Hi: 100}
	if negative {
		s.Potential = 39
	}
	return testgraphs.Random(rng, s)
}
