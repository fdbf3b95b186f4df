package apsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/run"
	"github.com/apsp/apsp/internal/sysmem"
)

// TestCLIRefusesHugeGraphsUnderUlimit is issue 8, item 6, end to end: apsp
// info on a 15-byte file naming vertex 10^9 (and 1.5·10^9, which the old
// message said would fit) ran for 81 s and took 15.6 GB. Under ulimit -v
// 4000000 (3.8 GiB, of which the Go runtime maps about 1.2 GB at start-up)
// it must fail at once with exit status 1 and the figures, and a normal
// graph must still read.
func TestCLIRefusesHugeGraphsUnderUlimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v and VmSize are Linux's")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "apsp")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		// The GPU machines run prebuilt test binaries and have no Go; CI
		// and development machines have it, and there the test runs.
		t.Skipf("no go tool to build the CLI with: %v", err)
	}
	build := exec.Command(goTool, "build", "-o", bin, "./cmd/apsp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/apsp: %v\n%s", err, out)
	}
	run := func(file string) (code int, out string, elapsed time.Duration) {
		cmd := exec.Command("sh", "-c", `ulimit -v 4000000 && exec "$0" info "$1"`, bin, file)
		start := time.Now()
		b, err := cmd.CombinedOutput()
		elapsed = time.Since(start)
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			code = exit.ExitCode()
		case err != nil:
			t.Fatalf("%s: %v", file, err)
		}
		return code, string(b), elapsed
	}
	for _, id := range []string{"1000000000", "1500000000"} {
		file := filepath.Join(dir, id+".txt")
		if err := os.WriteFile(file, []byte("0 "+id+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, elapsed := run(file)
		t.Logf("vertex %s: exit %d after %v: %s", id, code, elapsed.Round(time.Millisecond), strings.TrimSpace(out))
		if code != 1 {
			t.Errorf("vertex %s: exit status %d, want 1", id, code)
		}
		for _, want := range []string{graph.ErrTooLarge.Error(), fmt.Sprint(mustAtoi(t, id)+1) + " vertices need", "GiB (32 bytes a vertex) but only", "the headroom under ulimit -v", "vertices fit"} {
			if !strings.Contains(out, want) {
				t.Errorf("vertex %s: output lacks %q", id, want)
			}
		}
		if elapsed > 5*time.Second {
			t.Errorf("vertex %s: refused after %v", id, elapsed)
		}
	}
	code, out, _ := run("testdata/karate.txt")
	if code != 0 || !strings.Contains(out, "vertices    34") {
		t.Errorf("karate under ulimit -v: exit %d\n%s", code, out)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// inUse returns the memory the Go runtime holds in use, after a
// collection, as sysmem counts it against the Go memory limit.
func inUse() int64 {
	runtime.GC()
	return int64(sysmem.GoInUse())
}

// pathGraph returns the path 0-1-...-(n-1).
func pathGraph(t *testing.T, n int, directed, weighted bool) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(directed)
	for i := range n - 1 {
		var err error
		if weighted {
			err = b.AddIntEdge(i, i+1, 3)
		} else {
			err = b.AddEdge(i, i+1)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// plannedMemory is the working memory the planner admits for algo on g:
// the summaries of every source, or (dense) the matrix and its work.
func plannedMemory(t *testing.T, algo string, g *graph.Graph, threads int, dense bool) uint64 {
	t.Helper()
	want := plan.Rows
	if dense {
		want = plan.Matrix
	}
	o, err := plan.Parse(plan.Raw{Algorithm: algo, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.Resolve(g, plan.Request{Options: o, Want: want, NoAdmit: true})
	if err != nil {
		t.Fatal(err)
	}
	if pl.Dense != dense {
		t.Fatalf("%s: planned dense %v, want %v", algo, pl.Dense, dense)
	}
	return pl.Memory
}

// TestEnginesCheckTheirWorkingMemory: each engine's run is refused, before
// it allocates, when its working memory (Engine.WorkBytes) does not fit in
// the headroom, with the figures and ErrTooLarge; with room it runs.
func TestEnginesCheckTheirWorkingMemory(t *testing.T) {
	ctx := context.Background()
	unweighted := pathGraph(t, 200_000, false, false)
	weighted := pathGraph(t, 200_000, true, true)
	// Dense runs hold n² lanes: smaller graphs, so that half their need is
	// the tightest bound here.
	unweightedDense := pathGraph(t, 20_000, false, false)
	weightedDense := pathGraph(t, 20_000, true, true)
	for _, tc := range []struct {
		algo  string
		g     *graph.Graph
		dense bool
	}{
		{"bitbfs", unweighted, false},
		{"bfs", unweighted, false},
		{"dijkstra", weighted, false},
		{"johnson", weighted, false},
		{"dijkstra", weightedDense, true},
		{"bitbfs", unweightedDense, true},
	} {
		need := plannedMemory(t, tc.algo, tc.g, 0, tc.dense)
		old := debug.SetMemoryLimit(inUse() + int64(min(need/2, 1<<40)))
		start := time.Now()
		var err error
		if tc.dense {
			_, err = AllPairs(ctx, tc.g, Options{Algorithm: tc.algo})
		} else {
			_, err = ComputeStats(ctx, tc.g, Options{Algorithm: tc.algo})
		}
		debug.SetMemoryLimit(old)
		if !errors.Is(err, graph.ErrTooLarge) || !strings.Contains(err.Error(), "need") || !strings.Contains(err.Error(), "(GOMEMLIMIT)") {
			t.Errorf("%s (dense %v) in half its working memory: %v", tc.algo, tc.dense, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: refused after %v", tc.algo, d)
		}
	}
	karate, err := graph.ReadFile("testdata/karate.txt", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	old := debug.SetMemoryLimit(inUse() + 32<<20)
	defer debug.SetMemoryLimit(old)
	for _, algo := range []string{"bitbfs", "bfs", "dijkstra", "johnson"} {
		if _, err := ComputeStats(ctx, karate, Options{Algorithm: algo}); err != nil {
			t.Errorf("%s on karate with 32 MiB: %v", algo, err)
		}
	}
}

// TestWorkBytes pins the per-vertex and per-arc figures.
func TestWorkBytes(t *testing.T) {
	g := pathGraph(t, 1_000_001, true, false) // 10^6 arcs
	n, m := uint64(g.N()), uint64(g.Arcs())
	if engine.RowVertexBytes != 64+24+16 { // reduce.Row holds Harm
		t.Errorf("RowVertexBytes = %d, want 104", engine.RowVertexBytes)
	}
	matrix, err := lanes.MatrixBytes(g.N(), lanes.Int32)
	if err != nil {
		t.Fatal(err)
	}
	// bitbfs on a directed graph: rows, csr copy, transpose, one worker.
	if got, want := plannedMemory(t, "bitbfs", g, 1, false), 104*n+(8*n+4*m)+(8*n+20*m)+228*n; got != want {
		t.Errorf("bitbfs: %d, want %d", got, want)
	}
	if got, want := plannedMemory(t, "bfs", g, 4, false), 104*n+4*8*n; got != want {
		t.Errorf("bfs: %d, want %d", got, want)
	}
	if got, want := plannedMemory(t, "bfs", g, 4, true), (8*n+4*m)+(8*n+20*m)+716*n+matrix; got != want {
		t.Errorf("bfs matrix: %d, want %d", got, want)
	}
	if got, want := plannedMemory(t, "dijkstra", g, 2, false), 104*n+8*n+8*m+2*28*n; got != want {
		t.Errorf("dijkstra: %d, want %d", got, want)
	}
	old := debug.SetMemoryLimit(inUse() + int64(138*n+8*m)/2) // the bounds method's need, halved
	_, err = ComputeExtremes(context.Background(), g, Options{})
	debug.SetMemoryLimit(old)
	if !errors.Is(err, graph.ErrTooLarge) || !strings.Contains(err.Error(), "bounds: ") {
		t.Errorf("diameter by bounds in half its need: %v", err)
	}
}

// TestDenseAdmission: a dense run that cannot fit is refused at once,
// naming the matrices' size.
func TestDenseAdmission(t *testing.T) {
	g := pathGraph(t, 1<<17, false, true)
	// 64 GiB of int32 lanes may fit a large machine: a Go memory limit of
	// 1 GiB more than in use makes the refusal certain everywhere.
	old := debug.SetMemoryLimit(inUse() + 1<<30)
	_, err := AllPairs(context.Background(), g, Options{Algorithm: "blocked"})
	debug.SetMemoryLimit(old)
	if !errors.Is(err, graph.ErrTooLarge) || !strings.Contains(err.Error(), "distance matrix") {
		t.Errorf("a 2^17-vertex matrix (64 GiB of int32): %v", err)
	}
	if err := Supports(pathGraph(t, 1000, false, true), Options{Algorithm: "blocked", Paths: true}); err != nil {
		t.Errorf("1000 vertices with paths: %v", err)
	}
}

// TestExtremesAdmitFallbackFirst is issue 32, item 4: under "auto" the
// bounds method runs on a budget and then hands over to an all-pairs
// engine; that engine's memory is admitted before the bounds method
// spends anything (stats --no-aspl on 10^6 vertices under a 300 MiB limit
// spent 190 s of searches and only then found the fallback could not
// fit). With room for the bounds method but not its fallback, the call is
// refused at once and no budget is drawn.
func TestExtremesAdmitFallbackFirst(t *testing.T) {
	g, err := gen.Make("regular", "n=50000", "d=4", "seed=1")
	if err != nil {
		t.Fatal(err)
	}
	// On the CPU: a GPU's fallback needs little host memory.
	o, err := Options{Device: "cpu"}.parse()
	if err != nil {
		t.Fatal(err)
	}
	n, m := int64(g.N()), int64(g.Arcs())
	bounds := 46*n + 4*m // undirected, as plan.AdmitBounds counts it
	old := debug.SetMemoryLimit(inUse() + 2*bounds)
	spent := false
	start := time.Now()
	_, err = run.Extremes(context.Background(), g, o, func(*graph.Graph, int) float64 { spent = true; return 1 })
	debug.SetMemoryLimit(old)
	if !errors.Is(err, graph.ErrTooLarge) || !strings.Contains(err.Error(), "fallback") {
		t.Fatalf("bounds with room for itself but not its fallback: %v", err)
	}
	if spent {
		t.Error("the bounds method drew its budget before its fallback was admitted")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refused after %v", d)
	}
	// With room, the budget is drawn and the call answers.
	if _, err := run.Extremes(context.Background(), g, o, func(*graph.Graph, int) float64 { spent = true; return 0.1 }); err != nil || !spent {
		t.Fatalf("with room: %v (budget drawn: %v)", err, spent)
	}
}
