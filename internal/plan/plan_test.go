package plan

import (
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/sysmem"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		req      Raw
		extremes bool
		ok       bool
	}{
		{Raw{}, false, true},
		{Raw{Algorithm: "blocked", Tile: 32}, false, true},
		{Raw{Algorithm: "blocked", Tile: 17}, false, false},
		{Raw{Algorithm: "magic"}, false, false},
		{Raw{Algorithm: "gpu-multi", Device: "cpu"}, false, false},
		{Raw{Algorithm: "dijkstra", Device: "gpu:1"}, false, false},
		{Raw{Algorithm: BoundsAlgorithm}, false, false},
		{Raw{Algorithm: BoundsAlgorithm}, true, true},
		{Raw{Algorithm: BoundsAlgorithm, Device: "gpu"}, true, false},
		{Raw{Threads: -1}, false, false},
		{Raw{Device: "gpu:x"}, false, false},
		{Raw{Lanes: "auto"}, false, true},
		{Raw{Lanes: "int8"}, false, true},
		{Raw{Lanes: "int8", Algorithm: "blocked"}, false, true},
		{Raw{Lanes: "int4"}, false, false},
		{Raw{Lanes: "int8", Algorithm: "dijkstra"}, false, false}, // dijkstra has no int8 lanes
		{Raw{Lanes: "float32", Algorithm: "blocked"}, false, false},
	}
	for _, tt := range tests {
		err := Validate(tt.req, tt.extremes)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("Validate(%+v, %v) = %v", tt.req, tt.extremes, err)
		}
	}
}

func generate(t *testing.T, kind string, args ...string) *graph.Graph {
	t.Helper()
	g, err := gen.Make(kind, args...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestResolve: auto follows the estimates and the caps; a named engine is
// checked; the plan carries threads, lanes and memory.
func TestResolve(t *testing.T) {
	unweighted := generate(t, "regular", "n=2000", "d=4", "seed=1")
	sparseWeighted := generate(t, "regular", "n=2000", "d=4", "seed=1", "weights=1..9")
	dense := generate(t, "complete", "n=300", "weights=1..9")
	for _, tt := range []struct {
		g     *graph.Graph
		req   Request
		want  string
		lanes string
	}{
		{unweighted, request(t, Raw{}, Rows), "bitbfs", "int32"},
		{sparseWeighted, request(t, Raw{}, Rows), "dijkstra", "int32"},
		// The complete graph's distances are at most 9 (Tighten): the
		// Floyd–Warshall engines take int8 lanes.
		{dense, request(t, Raw{}, Matrix), "blocked", "int8"},
		{dense, request(t, Raw{Algorithm: "fw"}, Matrix), "fw", "int8"},
		{dense, request(t, Raw{Lanes: "int32"}, Matrix), "blocked", "int32"},
		{dense, request(t, Raw{Lanes: "auto"}, Matrix), "blocked", "int8"},
		// Forced lanes that only the matrix engines offer rule bitbfs out.
		{unweighted, request(t, Raw{Lanes: "int16"}, Rows), "blocked", "int16"},
	} {
		pl, err := Resolve(tt.g, tt.req)
		if err != nil {
			t.Fatalf("%+v: %v", tt.req, err)
		}
		if pl.Engine.Name() != tt.want || pl.Problem.Threads < 1 || pl.Memory == 0 || pl.Problem.Lanes.String() != tt.lanes {
			t.Errorf("%+v: %s, threads %d, memory %d, lanes %v; want %s in %s", tt.req, pl.Engine.Name(), pl.Problem.Threads, pl.Memory, pl.Problem.Lanes, tt.want, tt.lanes)
		}
		if tt.req.Auto() && (!pl.Auto || len(pl.Candidates) == 0) {
			t.Errorf("%+v: auto recorded no candidates", tt.req)
		}
	}
	if _, err := Resolve(sparseWeighted, request(t, Raw{Algorithm: "bitbfs"}, Matrix)); err == nil || !strings.Contains(err.Error(), "unweighted") {
		t.Errorf("bitbfs on a weighted graph: %v", err)
	}
	// Forced lanes the distances do not fit are an error, never a wider run.
	for _, tt := range []struct {
		g     *graph.Graph
		lanes string
		want  error
	}{
		{generate(t, "path", "n=100"), "int8", lanes.ErrWeightsTooLarge}, // diameter 99
		{generate(t, "cycle", "n=300", "directed"), "int16", nil},        // 299, strongly connected
		{generate(t, "complete", "n=50", "weights=-1..9"), "int8", lanes.ErrNoKind},
		{generate(t, "complete", "n=50", "weights=0.5..2"), "int32", lanes.ErrNoKind},
	} {
		_, err := Resolve(tt.g, request(t, Raw{Lanes: tt.lanes}, Matrix))
		if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
			t.Errorf("lanes %s: %v, want %v", tt.lanes, err, tt.want)
		}
	}
	if pl, err := Resolve(dense, request(t, Raw{Algorithm: "fw", Threads: 8}, Matrix)); err != nil || pl.Problem.Threads != 1 {
		t.Errorf("fw runs on one thread: %+v %v", pl, err)
	}
}

// TestAdmit: a run that cannot fit is refused with both figures.
func TestAdmit(t *testing.T) {
	g := generate(t, "path", "n=10")
	err := admit("blocked: the distance matrix", g, 1<<62, 1)
	if !errors.Is(err, graph.ErrTooLarge) || !strings.Contains(err.Error(), "4.0 EiB") || !strings.Contains(err.Error(), "available") {
		t.Errorf("4 EiB: %v", err)
	}
	// Above smallRun, under a Go memory limit that leaves 64 MiB: 32 MiB
	// passes, 1 GiB is refused, naming the limit.
	old := debug.SetMemoryLimit(inUse() + 64<<20)
	defer debug.SetMemoryLimit(old)
	if h, _, _ := sysmem.LowestFor(allocs(1)); h.Source != "GOMEMLIMIT" {
		t.Skipf("another bound (%s) is tighter than the test's Go memory limit", h.Source)
	}
	if err := admit("x", g, 32<<20, 1); err != nil {
		t.Errorf("32 MiB with 64 MiB left: %v", err)
	}
	if err := admit("x", g, 1<<30, 1); !errors.Is(err, graph.ErrTooLarge) || !strings.Contains(err.Error(), "GOMEMLIMIT") {
		t.Errorf("1 GiB with 64 MiB left: %v", err)
	}
}

// TestBounds pins the bounds method's memory and that its budget grows
// with the all-pairs estimate.
func TestBounds(t *testing.T) {
	g := generate(t, "path", "n=1001", "directed")
	n, m := uint64(g.N()), uint64(g.Arcs())
	if got, want := boundsWork(g), 138*n+8*m; got != want {
		t.Errorf("directed: %d, want %d", got, want)
	}
	small, big := generate(t, "regular", "n=1000", "d=4", "seed=1"), generate(t, "regular", "n=20000", "d=4", "seed=1")
	if b1, b2 := BoundsBudget(small, 2), BoundsBudget(big, 2); !(b1 > 0 && b2 > b1) {
		t.Errorf("budgets %v (n=1000) and %v (n=20000)", b1, b2)
	}
}

// BenchmarkResolve is the planning cost every call pays (n = 1024, 4-regular).
func BenchmarkResolve(b *testing.B) {
	g, err := gen.Make("regular", "n=1024", "d=4", "seed=1")
	if err != nil {
		b.Fatal(err)
	}
	for _, dev := range []string{"cpu", "auto"} {
		b.Run(dev, func(b *testing.B) {
			req := request(b, Raw{Device: dev}, Rows)
			for b.Loop() {
				if _, err := Resolve(g, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// inUse returns the memory the Go runtime holds in use, after a
// collection, as sysmem counts it against the Go memory limit.
func inUse() int64 {
	runtime.GC()
	return int64(sysmem.GoInUse())
}

// request parses r for a result of kind want, failing the test on an
// invalid r.
func request(t testing.TB, r Raw, want Want) Request {
	t.Helper()
	o, err := Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	return Request{Options: o, Want: want}
}

// TestResolveSources: a request from chosen sources goes to an engine
// that searches them (bfs, bitbfs, dijkstra, johnson; gpu-sssp on the
// gpu device) by their estimates for k sources: the batched search on a
// small world, one search a source where a batch would pay a level for
// each of thousands of distances (a cycle) or where one source is asked;
// and it admits memory for k rows or k·n distances, not n².
func TestResolveSources(t *testing.T) {
	unweighted := generate(t, "regular", "n=4000", "d=4", "seed=1")
	weighted := generate(t, "regular", "n=4000", "d=4", "seed=1", "weights=1..9")
	b := graph.NewBuilder(false)
	for v := range 4000 {
		if err := b.AddEdge(v, (v+1)%4000); err != nil {
			t.Fatal(err)
		}
	}
	cycle := b.Build()
	n := uint64(4000)
	for _, tc := range []struct {
		name   string
		algo   string
		device string
		g      *graph.Graph
		want   Want
		engine string // "" refused
	}{
		{"auto unweighted rows", "", "", unweighted, Rows, "bitbfs"},
		{"auto unweighted matrix", "", "", unweighted, Matrix, "bitbfs"},
		{"auto cycle", "", "", cycle, Rows, "bfs"},
		{"auto weighted matrix", "", "", weighted, Matrix, "dijkstra"},
		{"auto harmonic", "", "", weighted, Harmonic, "dijkstra"},
		{"named bfs", "bfs", "", unweighted, Rows, "bfs"},
		{"named johnson", "johnson", "", weighted, Rows, "johnson"},
		{"named bitbfs", "bitbfs", "", unweighted, Harmonic, "bitbfs"},
		{"named bfs matrix", "bfs", "", unweighted, Matrix, "bfs"},
		{"named fw", "fw", "", unweighted, Rows, ""},
		{"named blocked", "blocked", "", weighted, Matrix, ""},
		{"named gpu-bitbfs", "gpu-bitbfs", "", unweighted, Rows, ""},
	} {
		o, err := Parse(Raw{Algorithm: tc.algo, Device: tc.device, Threads: 2})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		pl, err := Resolve(tc.g, Request{Options: o, Want: tc.want, FromSources: true, Sources: 10})
		if tc.engine == "" {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: %v, want an invalid option", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if pl.Engine.Name() != tc.engine || pl.Dense {
			t.Errorf("%s: %s (dense %v), want %s", tc.name, pl.Engine.Name(), pl.Dense, tc.engine)
		}
		per := uint64(engine.RowVertexBytes)
		if tc.want == Matrix {
			per = 12 * n
		}
		want := 2*n*32 + 10*per
		if tc.engine == "bitbfs" {
			// Two batch workers' scratch at most (W = 1 for 10
			// sources, a part of a level each), not n².
			want = pl.Engine.(engine.SourceSearcher).WorkBytesFrom(pl.Problem, 10, tc.want == Matrix)
			if most := 10*per + 2*n*(3*8*8+12) + 2*8*32*8; want < 10*per || want > most {
				t.Errorf("%s: bitbfs admits %d bytes, want %d..%d", tc.name, want, 10*per, most)
			}
		}
		if pl.Memory != want {
			t.Errorf("%s: memory %d, want %d (k rows, not n²)", tc.name, pl.Memory, want)
		}
	}
	// One source: one plain search.
	o, err := Parse(Raw{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pl, err := Resolve(unweighted, Request{Options: o, Want: Rows, FromSources: true, Sources: 1}); err != nil || pl.Engine.Name() != "bfs" {
		t.Errorf("one source: %v, %v; want bfs", pl, err)
	}
	// The gpu device: gpu-sssp where a GPU is, else the GPU's own refusal
	// (not an invalid option).
	if o, err = Parse(Raw{Device: "gpu", Threads: 2}); err != nil {
		t.Fatal(err)
	}
	pl, err := Resolve(weighted, Request{Options: o, Want: Rows, FromSources: true, Sources: 10})
	switch {
	case err == nil && pl.Engine.Name() != "gpu-sssp":
		t.Errorf("gpu device: %s, want gpu-sssp", pl.Engine.Name())
	case err != nil && errors.Is(err, ErrInvalid):
		t.Errorf("gpu device: %v, want gpu-sssp or no GPU", err)
	}
}
