package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/gputest"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// TestMultiGPUCaps: gpu-bitbfs and gpu-sssp split their sources over
// several GPUs, gpu-multi and gpu-single the rows of the matrix; no other
// engine does.
func TestMultiGPUCaps(t *testing.T) {
	for _, e := range All() {
		want := e.Name() == "gpu-bitbfs" || e.Name() == "gpu-sssp" || e.Name() == "gpu-multi" || e.Name() == "gpu-single"
		if e.Caps().MultiGPU != want {
			t.Errorf("%s: MultiGPU %v, want %v", e.Name(), e.Caps().MultiGPU, want)
		}
	}
}

// TestAutoGPUForSeveralGPUs: with several GPUs asked for, auto's GPU
// choice is the engine that splits over them whenever it takes the graph,
// even where Floyd–Warshall's estimate is lower on one GPU; a graph with
// negative arcs still goes to Floyd–Warshall (which then refuses several
// GPUs).
func TestAutoGPUForSeveralGPUs(t *testing.T) {
	small, err := gen.Make("regular", "n=64", "d=4", "seed=3")
	if err != nil {
		t.Fatal(err)
	}
	weighted := build(t, false, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, 5) })
	negative := build(t, true, func(b *graph.Builder) error { return b.AddIntEdge(0, 1, -5) })
	for _, tt := range []struct {
		name string
		g    *graph.Graph
		one  string // with one GPU
		many string // with gpu:all or a list
	}{
		{"tiny unweighted", small, AutoGPU(64).Name(), "gpu-bitbfs"},
		{"weighted", weighted, AutoGPU(2).Name(), "gpu-sssp"},
		{"negative", negative, AutoGPU(2).Name(), AutoGPU(2).Name()},
	} {
		p := bitProblem(t, tt.g)
		if got, _ := AutoGPUFor(p); got.Name() != tt.one {
			t.Errorf("%s on one GPU: %s, want %s", tt.name, got.Name(), tt.one)
		}
		for _, many := range []*Problem{{AllGPUs: true}, {GPUs: []int{0, 1}}} {
			q := *p
			q.AllGPUs, q.GPUs = many.AllGPUs, many.GPUs
			if got, _ := AutoGPUFor(&q); got.Name() != tt.many {
				t.Errorf("%s on %+v: %s, want %s", tt.name, many, got.Name(), tt.many)
			}
		}
	}
}

// TestSeveralGPUsWithoutGPU: on a machine without GPUs (CI) every GPU
// engine asked for gpu:all or a list fails for want of a GPU (ErrNoGPU),
// as gpu:N does.
func TestSeveralGPUsWithoutGPU(t *testing.T) {
	if _, err := Devices(); err == nil {
		t.Skip("a GPU is here: TestEnginesOnSeveralGPUs covers it")
	}
	g := pathGraph(t, 10)
	for _, e := range All() {
		if e.Caps().Device != GPU {
			continue
		}
		for _, many := range []*Problem{{AllGPUs: true}, {GPUs: []int{0, 1}}} {
			p := bitProblem(t, g)
			p.AllGPUs, p.GPUs = many.AllGPUs, many.GPUs
			if err := e.Supports(p); !errors.Is(err, ErrNoGPU) {
				t.Errorf("%s on %+v: %v, want ErrNoGPU", e.Name(), many, err)
			}
		}
	}
}

// TestEnginesOnSeveralGPUs runs gpu-bitbfs and gpu-sssp on gpu:all (one
// GPU or several, as the machine has) and, with several GPUs, on the list
// of all of them, through the engine interface: rows, histogram and matrix
// equal the CPU engines' (bitbfs, Dijkstra) and the one-GPU run's; so do
// gpu-multi's and gpu-single's rows and matrices (one matrix split by rows
// over the GPUs). The min-plus engine refuses several GPUs (ErrInvalid)
// and takes gpu:all on a machine of one. A list with a GPU that is not there
// fails with ErrNoGPU, one listed twice with ErrInvalid.
func TestEnginesOnSeveralGPUs(t *testing.T) {
	infos, err := Devices()
	if err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
	var all []int
	for _, in := range infos {
		all = append(all, in.Ordinal)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(13, 14))
	multis := []*Problem{{AllGPUs: true}}
	if len(all) > 1 {
		multis = append(multis, &Problem{GPUs: all})
	}
	with := func(p *Problem, m *Problem) *Problem {
		q := *p
		q.AllGPUs, q.GPUs = m.AllGPUs, m.GPUs
		return &q
	}
	checked := 0
	for i := range 16 {
		n := 1 + rng.IntN(3000)
		directed := i%2 == 0
		kind := []graph.WeightKind{graph.Unweighted, graph.IntWeights, graph.FloatWeights}[i%3]
		g := sparseTestGraph(rng, n, 1+i%3, 3/float64(n)+rng.Float64()*0.003, directed, kind)
		float := kind == graph.FloatWeights
		if !g.Weighted() {
			p := bitProblem(t, g)
			cpuE, gpuE := bfsEngine{bitParallel: true}, BitEngine()
			want, _, err := cpuE.Rows(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			wantH, err := cpuE.Hist(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range multis {
				q := with(p, m)
				name := fmt.Sprintf("gpu-bitbfs graph %d (n=%d, directed=%v) on %+v", i, n, directed, m)
				if err := gpuE.Supports(q); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, dev, err := gpuE.(RowReducer).Rows(ctx, q)
				if err != nil || !slices.EqualFunc(got, want, reduce.Same) {
					t.Fatalf("%s: rows differ from bitbfs (%v)", name, err)
				}
				if len(all) > 1 && !strings.Contains(dev, "gpu:") {
					t.Fatalf("%s: device %q does not name the GPUs", name, dev)
				}
				gotH, err := gpuE.(Histogrammer).Hist(ctx, q)
				if err != nil || !slices.Equal(gotH, wantH) {
					t.Fatalf("%s: histogram %v, want %v (%v)", name, gotH, wantH, err)
				}
				if n <= 1500 {
					wantM, err := cpuE.Run(ctx, p)
					if err != nil {
						t.Fatal(err)
					}
					gotM, err := gpuE.Run(ctx, q)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					a, b := gotM.Matrix.(*lanes.Matrix[int32]), wantM.Matrix.(*lanes.Matrix[int32])
					if !slices.Equal(a.Data, b.Data) {
						t.Fatalf("%s: the matrix differs from bitbfs's", name)
					}
				}
				checked++
			}
		}
		// Floyd–Warshall: one matrix split by rows over the GPUs.
		for _, fw := range []Engine{GPUEngine(gpuMulti), GPUEngine(gpuSingle)} {
			p := sparseProblem(t, fw, g)
			one, _, err := fw.(RowReducer).Rows(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			var oneM *Result
			if n <= 1500 {
				if oneM, err = fw.Run(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			for _, m := range multis {
				q := with(p, m)
				name := fmt.Sprintf("%s graph %d (n=%d, %s, directed=%v, %v lanes) on %+v", fw.Name(), i, n, kind, directed, p.Lanes, m)
				if err := fw.Supports(q); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, dev, err := fw.(RowReducer).Rows(ctx, q)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(all) > 1 && !strings.Contains(dev, "gpu:") {
					t.Fatalf("%s: device %q does not name the GPUs", name, dev)
				}
				for u := range n {
					if !rowsAgree(got[u], one[u], float) {
						t.Fatalf("%s: row %d = %+v, one GPU %+v", name, u, got[u], one[u])
					}
				}
				if oneM != nil {
					gotM, err := fw.Run(ctx, q)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for u := range n {
						for v := range n {
							a, b := gotM.Matrix.Float(u, v), oneM.Matrix.Float(u, v)
							if a != b && !(float && math.Abs(a-b) <= 1e-5*math.Max(1, math.Abs(b))) {
								t.Fatalf("%s: d(%d,%d) = %v, one GPU %v", name, u, v, a, b)
							}
						}
					}
				}
				checked++
			}
		}
		cpuE, gpuE := dijkstraEngine{}, SSSPEngine()
		ref := sparseProblem(t, cpuE, g)
		want, _, err := cpuE.Rows(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		p := sparseProblem(t, gpuE, g)
		one, _, err := gpuE.(RowReducer).Rows(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range multis {
			q := with(p, m)
			name := fmt.Sprintf("gpu-sssp graph %d (n=%d, %s, directed=%v) on %+v", i, n, kind, directed, m)
			got, _, err := gpuE.(RowReducer).Rows(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(got, one) {
				t.Fatalf("%s: rows differ from one GPU's", name)
			}
			for u := range n {
				if !rowsAgree(got[u], want[u], float) {
					t.Fatalf("%s: row %d = %+v, want %+v", name, u, got[u], want[u])
				}
			}
			checked++
		}
	}
	// The one-GPU engine.
	p := bitProblem(t, pathGraph(t, 50))
	for _, e := range []Engine{MinPlusEngine()} {
		err := e.Supports(with(p, &Problem{AllGPUs: true}))
		if (len(all) > 1) != errors.Is(err, ErrInvalid) || (len(all) == 1 && err != nil) {
			t.Errorf("%s on gpu:all (%d GPUs): %v", e.Name(), len(all), err)
		}
		if len(all) > 1 {
			if err := e.Supports(with(p, &Problem{GPUs: all})); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s on %v: %v, want ErrInvalid", e.Name(), all, err)
			}
		}
	}
	if err := BitEngine().Supports(with(p, &Problem{GPUs: []int{0, 99}})); !errors.Is(err, ErrNoGPU) || !strings.Contains(err.Error(), "gpu:99") {
		t.Errorf("gpu:0,99: %v, want ErrNoGPU naming gpu:99", err)
	}
	if err := BitEngine().Supports(with(p, &Problem{GPUs: []int{0, 0}})); !errors.Is(err, ErrInvalid) {
		t.Errorf("gpu:0,0: %v, want ErrInvalid", err)
	}
	t.Logf("%d engine runs on %d GPU(s) matched the CPU engines", checked, len(all))
}
