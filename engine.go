package apsp

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
)

// Problem is one all-pairs computation handed to an engine.
type Problem struct {
	Graph    *graph.Graph
	Paths    bool          // also keep a successor matrix for Path
	Threads  int           // CPU threads; 0 means all
	Tile     int           // tile width of blocked engines; 0 means the default
	Device   string        // "auto", "cpu", "gpu" or "gpu:N"
	Progress func(float64) // fraction done, called from the engine's goroutines; may be nil
}

// Engine computes all-pairs distances. CPU and GPU engines are peers behind
// this interface; "auto" picks among the registered ones.
type Engine interface {
	// Name is what Options.Algorithm and --algo call the engine.
	Name() string
	// Device says where it runs ("cpu", or a GPU's name).
	Device() string
	// Supports returns nil when the engine can solve p, else why not.
	Supports(p *Problem) error
	// Run solves p.
	Run(ctx context.Context, p *Problem) (*Distances, error)
}

// Engines returns every engine of this build, in the order "auto" prefers
// them.
func Engines() []Engine {
	return []Engine{blockedEngine{}, fwEngine{}, bfsEngine{bitParallel: true}, bfsEngine{}, dijkstraEngine{}, dijkstraEngine{johnson: true},
		gpuEngine{gpu.Multi}, gpuEngine{gpu.Single}}
}

// rowReducer is implemented by engines that can summarise every source's
// distances without handing back the matrix (a GPU reducing on the device).
// It returns the rows and the device's name.
type rowReducer interface {
	Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error)
}

// AlgorithmNames returns the names Options.Algorithm accepts.
func AlgorithmNames() []string {
	names := []string{"auto", BoundsAlgorithm}
	for _, e := range Engines() {
		names = append(names, e.Name())
	}
	return names
}

// Candidate is one engine as "auto" saw it: its estimated time, or why it
// could not take the graph.
type Candidate struct {
	Engine  string  `json:"engine"`
	Device  string  `json:"device"`
	Seconds float64 `json:"estimated_seconds,omitempty"` // 0 when not eligible
	Refused string  `json:"refused,omitempty"`           // why it cannot take the graph, or why auto skips it
}

// Choice is the engine a computation will use and, under "auto", the
// estimates it compared (what `apsp --explain` prints).
type Choice struct {
	Engine     string      `json:"engine"`
	Device     string      `json:"device"`
	Auto       bool        `json:"auto"`
	Candidates []Candidate `json:"candidates,omitempty"`
	Note       string      `json:"note,omitempty"` // why a GPU was not used, when auto wanted one
}

// Explain returns the engine AllPairs, ComputeStats and the other
// all-pairs entry points would use for g under opt, and the cost
// estimates "auto" compared, without computing anything.
func Explain(g *graph.Graph, opt Options) (*Choice, error) {
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	if opt.Algorithm == BoundsAlgorithm {
		return &Choice{Engine: BoundsAlgorithm, Device: "cpu"}, nil
	}
	c := &Choice{}
	e, note, err := pickEngineExplained(opt.Algorithm, &Problem{Graph: g, Threads: opt.Threads, Tile: opt.Tile, Device: opt.Device, Paths: opt.Paths}, c)
	if err != nil {
		return nil, err
	}
	c.Engine, c.Device, c.Note = e.Name(), e.Device(), note
	return c, nil
}

// pickEngine resolves Options.Algorithm and Options.Device. It returns the
// engine and, when "auto" would have used a GPU but none is usable, a note
// saying why it computes on the CPU instead.
func pickEngine(name string, p *Problem) (Engine, string, error) {
	return pickEngineExplained(name, p, nil)
}

// pickEngineExplained is pickEngine recording what auto compared in c
// (when not nil).
func pickEngineExplained(name string, p *Problem, c *Choice) (Engine, string, error) {
	if name == "" {
		name = "auto"
	}
	kind, _, err := parseDevice(p.Device)
	if err != nil {
		return nil, "", err
	}
	all := Engines()
	if name != "auto" {
		i := slices.IndexFunc(all, func(e Engine) bool { return e.Name() == name })
		if i < 0 {
			return nil, "", fmt.Errorf("unknown algorithm %q (have %s)", name, strings.Join(AlgorithmNames(), ", "))
		}
		e := all[i]
		if kind == "cpu" && e.Device() != "cpu" {
			return nil, "", fmt.Errorf("algorithm %s runs on a GPU, but the device is cpu", name)
		}
		if kind == "gpu" && e.Device() == "cpu" {
			return nil, "", fmt.Errorf("algorithm %s runs on the CPU, but the device is %s", name, p.Device)
		}
		if err := e.Supports(p); err != nil {
			return nil, "", fmt.Errorf("algorithm %s: %w", name, err)
		}
		return e, "", nil
	}
	record := func(e Engine, seconds float64, refused string) {
		if c != nil {
			c.Auto = true
			c.Candidates = append(c.Candidates, Candidate{Engine: e.Name(), Device: e.Device(), Seconds: seconds, Refused: refused})
		}
	}
	// Lanes that cannot hold the graph's path lengths rule out every
	// engine: say that, not each engine's refusal.
	if _, err := cpu.PlanLanes(p.Graph); err != nil {
		return nil, "", err
	}
	// auto: the engine with the smallest estimated time (estimateSeconds)
	// among those that take the graph; GPU engines only when a GPU is
	// usable (or asked for), and float graphs stay on the CPU's float64
	// unless a GPU is asked for.
	threads := cpu.Threads(p.Threads)
	var best Engine
	bestTime := math.Inf(1)
	var why []string
	for _, e := range all {
		if e.Device() != "cpu" {
			continue // considered below, as one GPU choice
		}
		if e.Name() == "fw" || e.Name() == "bfs" {
			record(e, 0, "never faster than blocked or bitbfs")
			continue
		}
		if kind == "gpu" {
			record(e, 0, "the device is "+p.Device)
			continue
		}
		if err := e.Supports(p); err != nil {
			why = append(why, e.Name()+": "+err.Error())
			record(e, 0, err.Error())
			continue
		}
		t := estimateSeconds(e.Name(), p.Graph, threads)
		record(e, t, "")
		if t < bestTime {
			best, bestTime = e, t
		}
	}
	note := ""
	g := gpuEngine{gpu.AutoKernel(p.Graph.N())}
	gpuTime := estimateSeconds("gpu", p.Graph, threads)
	switch {
	case kind == "gpu" || (kind == "auto" && gpuTime < bestTime && p.Graph.Kind() != graph.FloatWeights):
		gerr := g.Supports(p) // includes finding a usable GPU
		if gerr == nil {
			record(g, gpuTime, "")
			return g, "", nil
		}
		record(g, gpuTime, gerr.Error())
		if kind == "gpu" {
			return nil, "", fmt.Errorf("device %s: %w", p.Device, gerr)
		}
		note = "no GPU used (" + gerr.Error() + "); computing on the CPU"
	case kind == "cpu":
		record(g, gpuTime, "the device is cpu")
	case p.Graph.Kind() == graph.FloatWeights:
		record(g, gpuTime, "float graphs stay in the CPU's float64 unless a GPU is asked for")
	default:
		record(g, gpuTime, "")
	}
	if best == nil {
		return nil, "", fmt.Errorf("no engine supports this graph (%s)", strings.Join(why, "; "))
	}
	return best, note, nil
}

// estimateSeconds is the rough cost model behind "auto", fitted to the
// measurements in docs/perf.md (2-core Zen 4, `apsp stats --json --algo X`
// on random regular graphs): the blocked CPU engine does about 10^10
// relaxations a second per core after about 0.3 ms of set-up; bit-parallel
// BFS touches every arc once per level for each batch of 512 sources (about
// 2.5 ns each, with about a dozen levels on sparse graphs) and spends about
// 0.2 ns a pair summing rows, after 0.1 ms of set-up (n = 128: 0.14 ms
// against blocked's 0.7 ms; n = 20 000, degree 4: 0.11 s; n = 100 000:
// 3.0 s, estimated 3.3 s); Dijkstra costs about 8 ns per arc and 20 ns per
// vertex for each source after 0.1 ms of set-up (karate: 0.17 ms); a GPU costs about 0.3 s to start and then runs
// 1.2·10^13 relaxations a second. On unweighted graphs bitbfs is estimated
// (and measured) faster than blocked at every size.
func estimateSeconds(engine string, g *graph.Graph, threads int) float64 {
	n, arcs, t := float64(g.N()), float64(g.Arcs()), float64(max(threads, 1))
	switch engine {
	case "blocked":
		return 3e-4 + n*n*n/(1e10*t)
	case "bitbfs":
		levels := 12.0
		if avg := arcs / math.Max(n, 1); avg > 2 {
			levels = math.Min(12, math.Log(n)/math.Log(avg-1)+2)
		}
		return 1e-4 + math.Ceil(n/512)*arcs*levels*2.5e-9/t + n*n*2e-10
	case "dijkstra":
		return 1e-4 + n*(arcs*8e-9+n*20e-9)/t
	case "johnson":
		return 1e-4 + 1.2*n*(arcs*8e-9+n*20e-9)/t
	case "gpu":
		return 0.3 + n*n*n/1.2e13
	}
	return math.Inf(1)
}

// fwEngine is the textbook triple loop: the reference every other engine is
// tested against.
type fwEngine struct{}

func (fwEngine) Name() string   { return "fw" }
func (fwEngine) Device() string { return "cpu" }
func (fwEngine) Supports(p *Problem) error {
	_, err := cpu.PlanLanes(p.Graph)
	return err
}

func (e fwEngine) Run(ctx context.Context, p *Problem) (*Distances, error) {
	plan, err := cpu.PlanLanes(p.Graph)
	if err != nil {
		return nil, err
	}
	// The oracle finds negative cycles itself, independently of the
	// Bellman–Ford check the fast engines rely on; a negative self-loop is
	// not in the matrix, so it is checked here.
	if v, ok := p.Graph.NegativeSelfLoop(); ok {
		return nil, &cpu.NegativeCycleError{Vertex: v}
	}
	stride := p.Graph.N()
	switch plan.Lanes {
	case cpu.Int32:
		return runCPU(ctx, e, p, plan, stride, func(m *cpu.Matrix[int32], next []int32) error {
			return cpu.FloydWarshall(ctx, m, next, p.Progress)
		})
	case cpu.Int64:
		return runCPU(ctx, e, p, plan, stride, func(m *cpu.Matrix[int64], next []int32) error {
			return cpu.FloydWarshall(ctx, m, next, p.Progress)
		})
	}
	return runCPU(ctx, e, p, plan, stride, func(m *cpu.Matrix[float64], next []int32) error {
		return cpu.FloydWarshall(ctx, m, next, p.Progress)
	})
}

// blockedEngine is the parallel blocked Floyd–Warshall with vectorised
// kernels.
type blockedEngine struct{}

func (blockedEngine) Name() string   { return "blocked" }
func (blockedEngine) Device() string { return "cpu" }
func (e blockedEngine) Supports(p *Problem) error {
	_, err := e.plan(p)
	return err
}

// plan checks the tile and plans lanes; the vectorised kernels add without
// overflow checks, so wide plans are refused.
func (blockedEngine) plan(p *Problem) (cpu.Plan, error) {
	if err := cpu.CheckTile(p.Tile); err != nil {
		return cpu.Plan{}, err
	}
	plan, err := cpu.PlanLanes(p.Graph)
	if err == nil && plan.Wide {
		err = cpu.ErrWide
	}
	return plan, err
}

func (e blockedEngine) Run(ctx context.Context, p *Problem) (*Distances, error) {
	plan, err := e.plan(p)
	if err != nil {
		return nil, err
	}
	if plan.Negative {
		if err := cpu.FindNegativeCycle(ctx, p.Graph); err != nil {
			return nil, err
		}
	}
	stride := cpu.TileSize(p.Graph.N(), p.Tile)
	opt := cpu.BlockedOptions{Tile: p.Tile, Threads: p.Threads, Progress: p.Progress}
	switch plan.Lanes {
	case cpu.Int32:
		return runCPU(ctx, e, p, plan, stride, func(m *cpu.Matrix[int32], next []int32) error {
			return cpu.Blocked(ctx, m, opt)
		})
	case cpu.Int64:
		return runCPU(ctx, e, p, plan, stride, func(m *cpu.Matrix[int64], next []int32) error {
			return cpu.Blocked(ctx, m, opt)
		})
	}
	return runCPU(ctx, e, p, plan, stride, func(m *cpu.Matrix[float64], next []int32) error {
		return cpu.Blocked(ctx, m, opt)
	})
}

// runCPU allocates the initial matrix of p's graph in lanes T (after
// checking that it fits in memory), runs the engine's loop on it and wraps
// the result.
func runCPU[T cpu.Lane](ctx context.Context, e Engine, p *Problem, plan cpu.Plan, stride int,
	run func(m *cpu.Matrix[T], next []int32) error) (*Distances, error) {
	start := time.Now()
	if err := checkMemory(p.Graph.N(), stride, plan.Lanes, p.Paths); err != nil {
		return nil, err
	}
	inf := cpu.InfOf[T]()
	if plan.Wide {
		wide := cpu.InfWide
		inf = T(wide)
	}
	m, err := cpu.NewMatrixInf(p.Graph, stride, inf)
	if err != nil {
		return nil, err
	}
	// Only the reference engine tracks successors as it goes; the others
	// derive them from the distances afterwards.
	var next []int32
	if p.Paths && e.Name() == "fw" {
		next = cpu.NewSuccessors(m)
	}
	if err := run(m, next); err != nil {
		return nil, err
	}
	if plan.Negative {
		cpu.Normalize(m, plan.MaxReal)
	}
	d := newDistances(m, next)
	if p.Paths && next == nil {
		d.next, d.nextStride = deriveSuccessors(d, p.Graph, p.Threads), d.n
	}
	d.Algorithm, d.Device = e.Name(), e.Device()
	d.Threads = cpu.Threads(p.Threads)
	if e.Name() == "fw" {
		d.Threads = 1
	}
	d.Seconds = time.Since(start).Seconds()
	return d, nil
}
