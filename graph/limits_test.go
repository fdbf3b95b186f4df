package graph

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/sysmem"
)

// underLimit runs f with the Go memory limit set to limit, after a
// collection: the headroom counts garbage not yet collected as in use.
func underLimit(t *testing.T, limit int64, f func()) {
	t.Helper()
	runtime.GC()
	old := debug.SetMemoryLimit(limit)
	defer debug.SetMemoryLimit(old)
	f()
}

// goLimitTightest skips the test unless the Go memory limit is the bound
// that sets the budget: another (ulimit -v, a cgroup, MemAvailable) may be
// tighter where the test runs.
func goLimitTightest(t *testing.T) {
	t.Helper()
	if _, _, h, ok := budget(0, 0, largeAllocs+1); !ok || h.Source != "GOMEMLIMIT" {
		t.Skipf("the budget is set by %q, not by the Go memory limit", h.Source)
	}
}

// heapSys returns the bytes of heap the runtime has obtained.
func heapSys() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapSys
}

// TestReadRefusesHugeVertexCounts is issue 8, item 6, in process: a
// 15-byte file naming vertex 10^9 (or 1.5·10^9, below the old stated
// limit) is refused at once with the figures, before anything is allocated.
// The Go memory limit set here bounds the headroom, but another bound
// (ulimit -v, a cgroup, MemAvailable) may be tighter, so the test asserts
// only what holds under any of them.
func TestReadRefusesHugeVertexCounts(t *testing.T) {
	dir := t.TempDir()
	underLimit(t, 1<<30, func() {
		for _, tc := range []struct{ name, text, count string }{
			{"e9.txt", "0 1000000000\n", "1000000001 vertices need"}, // ids are 0-based
			{"e9x1.5.txt", "0 1500000000\n", "1500000001 vertices need"},
			{"e9.gr", "p sp 1000000000 1\na 1 2 3\n", "1000000000 vertices need"},
			{"e9.mtx", "%%MatrixMarket matrix coordinate pattern general\n1000000000 1000000000 1\n1 2\n", "1000000000 vertices need"},
		} {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			before := heapSys()
			start := time.Now()
			_, err := ReadFile(path, ReadOptions{})
			elapsed := time.Since(start)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%s: got %v, want ErrTooLarge", tc.name, err)
			}
			msg := err.Error()
			for _, want := range []string{"(32 bytes a vertex)", " is available (15/16 of ", ", the headroom under ", "vertices fit"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s: %q lacks %q", tc.name, msg, want)
				}
			}
			// Where the reader passes the count, it must be the count.
			if strings.Contains(msg, " need ") && !strings.Contains(msg, tc.count) {
				t.Errorf("%s: %q lacks %q", tc.name, msg, tc.count)
			}
			if elapsed > time.Second {
				t.Errorf("%s: refused after %v", tc.name, elapsed)
			}
			if grown := int64(heapSys()) - int64(before); grown > 64<<20 {
				t.Errorf("%s: the heap grew by %d bytes before the refusal", tc.name, grown)
			}
		}
	})
}

// TestVertexError pins the wording of the refusals, with and without the
// count of vertices, under a bound with and without arenas.
func TestVertexError(t *testing.T) {
	goLimit := sysmem.Headroom{Bytes: 1 << 30, Source: "GOMEMLIMIT", Mapped: true}
	ulimit := sysmem.Headroom{Bytes: 2 << 30, Source: "ulimit -v", Mapped: true, Arena: 64 << 20}
	if got := graphBytes(goLimit, largeAllocs+1); got != 960<<20 {
		t.Errorf("graphBytes(1 GiB under GOMEMLIMIT) = %d, want 960 MiB", got)
	}
	// 15/16 of 2 GiB is 1920 MiB; beyond the heap's reserve, 6 allocations
	// may leave 7 arenas unused.
	if got := graphBytes(ulimit, largeAllocs+1); got != 1472<<20 {
		t.Errorf("graphBytes(2 GiB under ulimit -v) = %d, want 1472 MiB", got)
	}
	for _, tc := range []struct {
		what string
		n    uint64
		maxN int
		b    uint64
		h    sysmem.Headroom
		want string
	}{
		{"vertex id 1000000000", 1000000001, 31457280, 960 << 20, goLimit,
			"vertex id 1000000000: graph too large: 1000000001 vertices need 29.8 GiB (32 bytes a vertex) but only 960.0 MiB is available (15/16 of 1.0 GiB, the headroom under GOMEMLIMIT): at most 31457280 vertices fit"},
		{"vertex id 0", 1, 0, 19, sysmem.Headroom{Bytes: 20, Source: "GOMEMLIMIT", Mapped: true},
			"vertex id 0: graph too large: 1 vertex needs 32 B (32 bytes a vertex) but only 19 B is available (15/16 of 20 B, the headroom under GOMEMLIMIT): at most 0 vertices fit"},
		{"99999999999999999999 vertices", 0, 48234496, 1472 << 20, ulimit,
			"99999999999999999999 vertices: graph too large: only 1.4 GiB is available (15/16 of 2.0 GiB, the headroom under ulimit -v, less 448.0 MiB for the Go heap's 64.0 MiB arenas): at most 48234496 vertices fit (32 bytes a vertex)"},
		{"1500000000 vertices", 1500000000, 48234496, 1472 << 20, ulimit,
			"1500000000 vertices: graph too large: 1500000000 vertices need 44.7 GiB (32 bytes a vertex) but only 1.4 GiB is available (15/16 of 2.0 GiB, the headroom under ulimit -v, less 448.0 MiB for the Go heap's 64.0 MiB arenas): at most 48234496 vertices fit"},
		{"vertex id 99999999999", 0, MaxVertices, 0, sysmem.Headroom{},
			"vertex id 99999999999: graph too large (at most 2147483647 vertices)"},
	} {
		err := vertexError(tc.what, tc.n, tc.maxN, tc.b, tc.h)
		if !errors.Is(err, ErrTooLarge) || err.Error() != tc.want {
			t.Errorf("vertexError(%q, %d):\n got %q\nwant %q", tc.what, tc.n, err, tc.want)
		}
	}
}

// TestReadUnderTightUlimit: under ulimit -v with 160 MiB to spare, which
// the Go runtime's own reservations leave on many machines at a few GB, a
// small graph reads (the guard charged 64 MiB of heap arena for each of 6
// allocations and refused it) and a file naming vertex 10^9 is refused at
// once. The test runs itself again under the limit.
func TestReadUnderTightUlimit(t *testing.T) {
	if os.Getenv("GRAPH_ULIMIT_CHILD") == "1" {
		g, err := ReadFile("../testdata/karate.txt", ReadOptions{})
		if err != nil || g.N() != 34 {
			t.Fatalf("karate: %v", err)
		}
		path := filepath.Join(t.TempDir(), "e9.txt")
		if err := os.WriteFile(path, []byte("0 1000000000\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = ReadFile(path, ReadOptions{})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the headroom under ulimit -v") || time.Since(start) > time.Second {
			t.Fatalf("vertex 10^9 after %v: %v", time.Since(start), err)
		}
		t.Logf("refused: %v", err)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v and VmSize are Linux's")
	}
	status, _ := os.ReadFile("/proc/self/status")
	var vmKB int
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmSize:" {
			vmKB, _ = strconv.Atoi(f[1])
		}
	}
	if vmKB == 0 {
		t.Skip("no VmSize in /proc/self/status")
	}
	limitKB := vmKB + 160<<10
	cmd := exec.Command("sh", "-c", `ulimit -v "$1" || exit 97; exec "$0" -test.run='^TestReadUnderTightUlimit$' -test.v`, os.Args[0], strconv.Itoa(limitKB))
	cmd.Env = append(os.Environ(), "GRAPH_ULIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 97 {
		t.Skipf("cannot set ulimit -v %d (an outer hard limit is lower?): %s", limitKB, out)
	}
	if err != nil {
		t.Fatalf("under ulimit -v %d: %v\n%s", limitKB, err, out)
	}
	t.Logf("under ulimit -v %d:\n%s", limitKB, out)
}

// TestVertexLimitBudget checks the stated limit against the budget and
// the budget against the allocations: under a memory limit L at most
// (15/16 of the headroom)/VertexBytes vertices are accepted, and a directed
// graph of about that many, read and split into components, stays within L.
func TestVertexLimitBudget(t *testing.T) {
	const limit = 256 << 20
	runtime.GC()
	before := heapSys()
	underLimit(t, limit, func() {
		goLimitTightest(t)
		got := vertexLimit()
		if hi := limit / 16 * 15 / VertexBytes; got > hi || got < hi*9/10 {
			t.Errorf("vertexLimit() = %d under 256 MiB, want a little under %d", got, hi)
		}
		n := got - 1<<16 // leave room for the test's own garbage
		g, err := Read(strings.NewReader("0 1\n"), "in", ReadOptions{Vertices: n, Directed: true})
		if err != nil {
			t.Fatalf("%d vertices under 256 MiB: %v", n, err)
		}
		if s, w := g.StrongComponents(), g.WeakComponents(); s != n || w != n-1 {
			t.Errorf("%d vertices, one arc: %d strong and %d weak components", n, s, w)
		}
		if _, err := Read(strings.NewReader("0 1\n"), "in", ReadOptions{Vertices: 2 * got}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%d vertices under 256 MiB: %v", 2*got, err)
		}
	})
	if grown := int64(heapSys()) - int64(before); grown > limit {
		t.Errorf("the heap grew by %d bytes under a limit of %d", grown, limit)
	}
}

// TestBuilderRefuses checks the Builder's own guard, which library users
// get without the reader: a huge vertex id or count, and arcs beyond the
// budget, are refused with ErrTooLarge before the heap gets near the limit.
func TestBuilderRefuses(t *testing.T) {
	const limit = 256 << 20
	underLimit(t, limit, func() {
		goLimitTightest(t)
		b := NewBuilder(false)
		if err := b.AddEdge(0, 1_000_000_000); !errors.Is(err, ErrTooLarge) {
			t.Errorf("AddEdge(0, 1e9): %v", err)
		}
		if err := b.SetVertices(1_000_000_000); !errors.Is(err, ErrTooLarge) {
			t.Errorf("SetVertices(1e9): %v", err)
		}
		b = NewBuilder(false)
		var err error
		i := 0
		for ; i < 100_000_000; i++ {
			if err = b.AddIntEdge(i, i+1, int64(i)); err != nil {
				break
			}
		}
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "28 an arc") {
			t.Fatalf("after %d edges: %v", i, err)
		}
		// Each edge is two arcs of 28 bytes and up to two vertices of 32.
		if need := MemoryNeeded(i+1, 2*i, true); need > limit {
			t.Errorf("accepted %d edges, which need %d bytes, under a limit of %d", i, need, limit)
		}
		// Garbage from the buffer's growth counts against Go's limit until
		// collected, so the guard may stop well before the budget: a
		// quarter of it is the floor (one run of a helper's saw less than
		// half under load).
		if i < limit/4/(2*28+32) {
			t.Errorf("refused at %d edges, fewer than a quarter of what the budget allows: %v", i, err)
		}
		g := b.Build() // what was accepted still builds within the limit
		if g.N() != i+1 || g.Edges() != i {
			t.Errorf("built %d vertices %d edges, want %d %d", g.N(), g.Edges(), i+1, i)
		}
	})
}

// TestMemoryNeeded pins the budget: 10^8 vertices with few edges need
// 3.2 GB; 10^7 weighted arcs 280 MB, unweighted 200 MB.
func TestMemoryNeeded(t *testing.T) {
	for _, tc := range []struct {
		n, arcs  int
		weighted bool
		want     uint64
	}{
		{100_000_000, 0, true, 3_200_000_000},
		{0, 10_000_000, true, 280_000_000},
		{0, 10_000_000, false, 200_000_000},
		{1_000_000_000, 2, false, 32_000_000_040},
	} {
		if got := MemoryNeeded(tc.n, tc.arcs, tc.weighted); got != tc.want {
			t.Errorf("MemoryNeeded(%d, %d, %v) = %d, want %d", tc.n, tc.arcs, tc.weighted, got, tc.want)
		}
	}
}

// TestSmallGraphsUnderTightLimit: a normal graph is not refused by a limit
// that it fits in.
func TestSmallGraphsUnderTightLimit(t *testing.T) {
	underLimit(t, 64<<20, func() {
		g, err := ReadFile("../testdata/karate.txt", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.N() != 34 || g.Edges() != 78 {
			t.Errorf("karate: %d vertices %d edges", g.N(), g.Edges())
		}
	})
}

// refGraph builds what Build must return: per tail, the heads in order,
// each with its lightest weight.
func refGraph(n int, directed bool, edges [][3]float64) map[int]map[int32]float64 {
	out := map[int]map[int32]float64{}
	add := func(u, v int, w float64) {
		if u == v {
			return
		}
		if out[u] == nil {
			out[u] = map[int32]float64{}
		}
		if old, ok := out[u][int32(v)]; !ok || w < old {
			out[u][int32(v)] = w
		}
	}
	for _, e := range edges {
		add(int(e[0]), int(e[1]), e[2])
		if !directed {
			add(int(e[1]), int(e[0]), e[2])
		}
	}
	return out
}

func TestBuildMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 60 {
		n := 1 + rng.IntN(50)
		if trial%10 == 9 {
			n = 3 * maxScratch // a hub of degree above maxScratch: sorted in place
		}
		directed := trial%2 == 0
		kind := WeightKind(trial % 3)
		m := rng.IntN(4 * n)
		var edges [][3]float64
		b := NewBuilder(directed)
		for e := range m + n {
			u, v := rng.IntN(n), rng.IntN(n)
			if e >= m { // the hub, with duplicates
				u, v = 0, rng.IntN(n)
			}
			var w float64
			var err error
			switch kind {
			case Unweighted:
				w, err = 1, b.AddEdge(u, v)
			case IntWeights:
				wi := int64(rng.IntN(7)) - 2
				w, err = float64(wi), b.AddIntEdge(u, v, wi)
			case FloatWeights:
				w = math.Round(rng.Float64()*8-2) / 4
				err = b.AddFloatEdge(u, v, w)
			}
			if err != nil {
				t.Fatal(err)
			}
			edges = append(edges, [3]float64{float64(u), float64(v), w})
		}
		g := b.Build()
		ref := refGraph(n, directed, edges)
		arcs := 0
		for u := range g.N() {
			hs := g.Neighbors(u)
			arcs += len(hs)
			if len(hs) != len(ref[u]) {
				t.Fatalf("trial %d: vertex %d has %d arcs, want %d", trial, u, len(hs), len(ref[u]))
			}
			for i, v := range hs {
				if i > 0 && hs[i-1] >= v {
					t.Fatalf("trial %d: heads of %d not increasing: %v", trial, u, hs)
				}
				want, ok := ref[u][v]
				if !ok || g.ArcFloat(u, i) != want {
					t.Fatalf("trial %d: arc %d→%d has length %v, want %v (present %v)", trial, u, v, g.ArcFloat(u, i), want, ok)
				}
			}
		}
		if arcs != g.Arcs() || g.Kind() != kind {
			t.Fatalf("trial %d: Arcs() = %d, counted %d; kind %v want %v", trial, g.Arcs(), arcs, g.Kind(), kind)
		}
	}
}

// TestStrongComponentsReference compares Tarjan with mutual reachability
// on small random digraphs.
func TestStrongComponentsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(30)
		b := NewBuilder(true)
		if err := b.SetVertices(n); err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(3 * n) {
			if err := b.AddEdge(rng.IntN(n), rng.IntN(n)); err != nil {
				t.Fatal(err)
			}
		}
		g := b.Build()
		reach := make([][]bool, n)
		for s := range n {
			reach[s] = make([]bool, n)
			reach[s][s] = true
			stack := []int{s}
			for len(stack) > 0 {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, v := range g.Neighbors(u) {
					if !reach[s][v] {
						reach[s][v] = true
						stack = append(stack, int(v))
					}
				}
			}
		}
		want := 0
		for v := range n {
			first := true // v is the smallest vertex of its component
			for u := range v {
				if reach[u][v] && reach[v][u] {
					first = false
				}
			}
			if first {
				want++
			}
		}
		if got := g.StrongComponents(); got != want {
			t.Fatalf("trial %d: %d strong components, want %d", trial, got, want)
		}
	}
}

// TestBuildShrinksDuplicates: an undirected edge list that gives every edge
// both ways leaves a graph whose arrays have the size of its arcs (the
// heads with csr.HeadsSlack more, for the kernels that load ahead).
func TestBuildShrinksDuplicates(t *testing.T) {
	b := NewBuilder(false)
	for i := range 1000 {
		if err := b.AddIntEdge(i, i+1, 5); err != nil {
			t.Fatal(err)
		}
		if err := b.AddIntEdge(i+1, i, 5); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	if g.Arcs() != 2000 || cap(g.heads) != 2000+csr.HeadsSlack || cap(g.intW) != 2000 {
		t.Errorf("arcs %d, capacities %d and %d, want %d and 2000", g.Arcs(), cap(g.heads), cap(g.intW), 2000+csr.HeadsSlack)
	}
}

// TestWorkLimit: the most vertices a Work admits sit exactly on the
// boundary of its bytes, with and without a matrix, and the refusal for
// the work states both figures and the bound (issue 32 item 4); a count
// beyond what reading fits is refused for reading.
func TestWorkLimit(t *testing.T) {
	stats := Work{Name: "stats", VertexBytes: 96}
	dist := Work{Name: "dist", PairBytes: 1}
	for _, tc := range []struct {
		w     Work
		avail uint64
		want  int
	}{
		{stats, 0, 0},
		{stats, 103, 0},
		{stats, 104, 1},
		{stats, 1 << 30, (1 << 30) / 104},
		{dist, 1 << 30, 32764}, // 32764² + 8·32764 <= 2^30 < 32765² + 8·32765
		{dist, 9, 1},
		{Work{Name: "path", PairBytes: 5, VertexBytes: 3}, 1 << 40, 468936},
		{stats, math.MaxUint64, MaxVertices},
	} {
		got := tc.w.maxFor(tc.avail)
		if got != tc.want {
			t.Errorf("%+v.maxFor(%d) = %d, want %d", tc.w, tc.avail, got, tc.want)
		}
		if got < MaxVertices && (tc.w.Bytes(uint64(got)) > tc.avail || tc.w.Bytes(uint64(got)+1) <= tc.avail) {
			t.Errorf("%+v.maxFor(%d) = %d is not the boundary", tc.w, tc.avail, got)
		}
	}
	if got := dist.Bytes(1 << 40); got != math.MaxUint64 {
		t.Errorf("Bytes(2^40) of a matrix = %d, want saturated", got)
	}
	h := sysmem.Headroom{Bytes: 1 << 30, Source: "GOMEMLIMIT", Mapped: true}
	l := limit{read: 31457280, work: stats.maxFor(1 << 30), w: stats, avail: 1 << 30, h: h}
	for _, tc := range []struct {
		what string
		n    uint64
		want string
	}{
		{"25000000 vertices", 25000000,
			"25000000 vertices: graph too large: stats needs 2.4 GiB for 25000000 vertices (8 bytes a vertex for the graph, 96 for stats, the least any engine takes) but only 1.0 GiB is available (GOMEMLIMIT): at most 10324440 vertices fit"},
		{"vertex id 40000000", 40000001, "vertex id 40000000: graph too large: 40000001 vertices need 1.2 GiB (32 bytes a vertex) but only "},
	} {
		err := l.refuse(tc.what, tc.n)
		if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("refuse(%q, %d):\n got %v\nwant %s", tc.what, tc.n, err, tc.want)
		}
	}
	if l.max() != 10324440 {
		t.Errorf("max() = %d, want the work's 10324440", l.max())
	}
}
