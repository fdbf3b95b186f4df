package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/dijkstra"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/fw"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
)

// Ceilings are the measured register-only relaxation peaks of one H100 SXM
// (GUIDE.md, tools/gpupeak), per second: for packed lanes, lanes relaxed
// (int16×2 by `__viaddmin_s16x2`, int8×4 by the SWAR form fw.cu uses).
var Ceilings = map[string]float64{"int32": 15.9e12, "float32": 14.0e12, "int16": 32.36e12, "int8": 14.97e12}

// DefaultGPUSizes are the vertex counts timed when none are given and a
// GPU runs: n = 32768 takes seconds a run on an H100.
var DefaultGPUSizes = []int{256, 512, 1024, 2048, 4096, 8192, 16384, 32768}

// DefaultCPUSizes are the vertex counts the CPU engine is timed at when
// none are given: up to 2048, which the blocked engine computes in about
// 0.2 s a run on two cores (n³ relaxations at a few 10¹⁰ a second), so
// that the default run (six runs a size) ends in seconds; at 32768 one run
// takes about ten minutes. --sizes 4096 takes about 7 s more.
var DefaultCPUSizes = []int{256, 512, 1024, 2048}

// Options of a run.
type Options struct {
	Sizes []int
	// CPUSizes, when set, are the only sizes of Sizes at which the CPU
	// engine ("cpu" in Kinds) runs: the GPU's sizes are beyond the CPU.
	CPUSizes  []int
	TDims     []int    // threads per block = TDim²
	Tiles     []int    // GPU tile widths
	MinBlocks []int    // blocks per SM the kernels are compiled for
	Kinds     []string // "multi", "single", "cpu"
	Float     bool
	// Lanes, when set, is the lane kind to time: int8 or int16 (packed;
	// the GPU kernels then take ConfigFor's shape, not Tiles and TDims),
	// int32, or float32 (the same as Float). Packed lanes run on graphs of
	// lengths 1 (int8) or 1..8 (int16) so that the distances fit; every
	// run is still checked against the CPU.
	Lanes  lanes.Kind
	Reps   int
	Degree int // arcs per vertex of the random graphs
	Seed   uint64
	// Log, when set, receives a line for every configuration as it
	// completes.
	Log io.Writer
}

// Row is one timed configuration.
type Row struct {
	Kernel    string  `json:"kernel"`
	Lanes     string  `json:"lanes"`
	N         int     `json:"n"`
	Tile      int     `json:"tile"`
	Threads   int     `json:"threads_per_block"`
	MinBlocks int     `json:"min_blocks_per_sm"`
	MedianMS  float64 `json:"median_ms"`
	MinMS     float64 `json:"min_ms"`
	ToDevMS   float64 `json:"to_device_ms"`
	ToHostMS  float64 `json:"to_host_ms"`
	RelaxPerS float64 `json:"relaxations_per_second"`
	Ceiling   float64 `json:"fraction_of_ceiling"`
	Checked   string  `json:"checked"`
	Error     string  `json:"error,omitempty"`
}

// RandomGraph is a directed graph with deg random arcs per vertex, weights
// 1..100 (float: uniform in [1,100)), plus a Hamiltonian cycle so that every
// distance is finite.
func RandomGraph(n, deg int, float bool, seed uint64) *graph.Graph {
	return randomGraph(n, deg, float, 100, seed)
}

// randomGraph is RandomGraph with integer weights 1..maxW.
func randomGraph(n, deg int, float bool, maxW int64, seed uint64) *graph.Graph {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	b := graph.NewBuilder(true)
	b.Grow(n * (deg + 1))
	add := func(u, v int) {
		if float {
			_ = b.AddFloatEdge(u, v, 1+rng.Float64()*99)
		} else {
			_ = b.AddIntEdge(u, v, 1+rng.Int64N(maxW))
		}
	}
	perm := rng.Perm(n)
	for i := range perm {
		add(perm[i], perm[(i+1)%n])
	}
	for u := 0; u < n; u++ {
		for range deg {
			add(u, rng.IntN(n))
		}
	}
	return b.Build()
}

// maxWeight is the benchmark graphs' largest weight in kind's lanes: small
// enough that a random graph's distances fit the packed lanes.
func (o Options) maxWeight() int64 {
	switch o.Lanes {
	case lanes.Int8:
		return 1
	case lanes.Int16:
		return 8
	}
	return 100
}

// Run times every configuration and returns the rows.
func Run(ctx context.Context, s *fw.Session, o Options) []Row {
	var rows []Row
	if o.Lanes == lanes.Float32 {
		o.Float = true
	}
	if o.Lanes == 0 || o.Float {
		o.Lanes = lanes.Int32
		if o.Float {
			o.Lanes = lanes.Float32
		}
	}
	laneName := o.Lanes.String() // the GPU kernels' lanes
	packed := o.Lanes.Packed() > 1
	for _, n := range o.Sizes {
		for _, kind := range o.Kinds {
			if kind == "cpu" {
				if o.CPUSizes != nil && !slices.Contains(o.CPUSizes, n) {
					continue
				}
				r := runCPU(ctx, n, o)
				rows = append(rows, r)
				if o.Log != nil {
					fmt.Fprintf(o.Log, "%s %s n=%d tile=%d threads=%d: %.3f ms %.3f T/s checked=%s %s\n",
						r.Kernel, r.Lanes, n, r.Tile, r.Threads, r.MedianMS, r.RelaxPerS/1e12, r.Checked, r.Error)
				}
				continue
			}
			if o.Lanes == lanes.Int64 {
				rows = append(rows, Row{Kernel: kind, Lanes: laneName, N: n, Error: "the GPU kernels have no int64 lanes"})
				continue
			}
			if packed {
				k := gpu.Multi
				if kind == "single" {
					k = gpu.Single
				}
				c := gpu.ConfigFor(k, n, o.Lanes)
				r := runGPU(ctx, s, n, c, o)
				r.Lanes = laneName
				rows = append(rows, r)
				if o.Log != nil {
					fmt.Fprintf(o.Log, "%s %s n=%d tile=%d: %.3f ms %.2f T/s checked=%s %s\n",
						r.Kernel, laneName, n, c.Tile, r.MedianMS, r.RelaxPerS/1e12, r.Checked, r.Error)
				}
				continue
			}
			for _, tile := range o.Tiles {
				for _, td := range o.TDims {
					for _, mb := range o.MinBlocks {
						c := gpu.Config{Kernel: gpu.Multi, Tile: tile, TDim: td, Float: o.Float, MinBlocks: mb}
						if kind == "single" {
							c.Kernel = gpu.Single
						}
						if cs := gpu.ConfigFor(c.Kernel, n, o.Lanes).Coarse; !o.Float && cs%tile == 0 {
							c.Coarse = cs // the rounds the engines run (tiles that do not divide it keep the tile rounds)
						}
						if c.Check() != nil {
							continue
						}
						if o.Log != nil && n == o.Sizes[0] {
							if desc, err := s.Describe(c); err == nil {
								fmt.Fprintf(o.Log, "%s %s\n", c.Kernel, desc)
							} else {
								fmt.Fprintf(o.Log, "%s: %v\n", c.Kernel, err)
							}
						}
						r := runGPU(ctx, s, n, c, o)
						r.Lanes = laneName
						rows = append(rows, r)
						if o.Log != nil {
							fmt.Fprintf(o.Log, "%s n=%d tile=%d threads=%d: %.3f ms %.2f T/s checked=%s %s\n",
								r.Kernel, n, tile, td*td, r.MedianMS, r.RelaxPerS/1e12, r.Checked, r.Error)
						}
					}
				}
			}
		}
	}
	return rows
}

func runGPU(ctx context.Context, s *fw.Session, n int, c gpu.Config, o Options) Row {
	rows := c.TDim
	if c.TRows > 0 {
		rows = c.TRows
	}
	r := Row{Kernel: c.Kernel.String(), N: n, Tile: c.Tile, Threads: c.TDim * rows, MinBlocks: max(c.MinBlocks, 1)}
	stride := (n + c.Tile - 1) / c.Tile * c.Tile
	var times []float64
	for rep := 0; rep <= o.Reps; rep++ { // rep 0 warms up (and compiles)
		g := randomGraph(n, o.Degree, o.Float, o.maxWeight(), o.Seed+uint64(rep))
		p := fw.Problem{N: n, Stride: stride, Config: c, MaxReal: math.MaxInt32}
		init := fw.InitFromGraph(g, stride, o.Float)
		if c.Pack() > 1 {
			p.MaxReal = c.Inf() - 1
			init = fw.InitLanes(g, stride, c)
		}
		res, err := s.Run(ctx, p, init, true)
		if err != nil {
			r.Error = err.Error()
			return r
		}
		if rep == 0 {
			continue
		}
		times = append(times, res.Timing.Kernel)
		r.ToDevMS, r.ToHostMS = res.Timing.ToDevice, res.Timing.ToHost
		if rep == 1 {
			r.Checked, err = check(g, res.Matrix, stride, c)
			if err != nil {
				r.Error = err.Error()
			}
		}
	}
	finish(&r, times, o.Lanes)
	return r
}

func finish(r *Row, times []float64, kind lanes.Kind) {
	sort.Float64s(times)
	if len(times) == 0 {
		return
	}
	r.MinMS = times[0]
	r.MedianMS = times[len(times)/2]
	r.RelaxPerS = math.Pow(float64(r.N), 3) / (r.MedianMS / 1e3)
	if ceil, ok := Ceilings[kind.String()]; ok {
		r.Ceiling = r.RelaxPerS / ceil
	}
}

func runCPU(ctx context.Context, n int, o Options) Row {
	kind := o.Lanes
	switch {
	case o.Float:
		kind = lanes.Float64 // the CPU's float lanes
	case kind == 0:
		kind = lanes.Int32
	}
	r := Row{Kernel: "cpu-blocked", Lanes: kind.String(), N: n, Tile: cpu.TileFor(kind, 0), Threads: par.Threads(0)}
	var times []float64
	for rep := 0; rep <= o.Reps; rep++ {
		g := randomGraph(n, o.Degree, o.Float, o.maxWeight(), o.Seed+uint64(rep))
		var took time.Duration
		var err error
		var exact string
		switch kind {
		case lanes.Float64:
			err = blockedOnce[float64](ctx, g, &took, nil)
		case lanes.Int8:
			err = blockedOnce[int8](ctx, g, &took, &exact)
		case lanes.Int16:
			err = blockedOnce[int16](ctx, g, &took, &exact)
		case lanes.Int64:
			err = blockedOnce[int64](ctx, g, &took, &exact)
		default:
			err = blockedOnce[int32](ctx, g, &took, nil)
		}
		if err != nil {
			r.Error = err.Error()
			return r
		}
		if rep > 0 {
			times = append(times, float64(took.Microseconds())/1e3)
		}
		if exact != "" {
			r.Checked = exact
		}
	}
	if r.Checked == "" {
		r.Checked = "cpu"
	}
	finish(&r, times, 0)
	return r
}

// blockedOnce runs the blocked CPU engine once on g in lanes T, setting
// *took to its time (the matrix built, the check after excluded). With checked set (the packed and int64
// lanes) it first checks that the plan holds T, and after the run compares
// 16 rows with Dijkstra, saying so in *checked.
func blockedOnce[T lanes.Lane](ctx context.Context, g *graph.Graph, took *time.Duration, checked *string) error {
	if checked != nil {
		lp, err := lanes.PlanFor(g)
		if err == nil {
			err = lp.Tighten(g).Holds(lanes.KindOf[T]())
		}
		if err != nil {
			return fmt.Errorf("%s lanes: %w", lanes.KindOf[T](), err)
		}
	}
	m, err := lanes.NewMatrix[T](g, cpu.TileSize(g.N(), cpu.TileFor(lanes.KindOf[T](), 0)))
	if err != nil {
		return err
	}
	start := time.Now()
	if err := cpu.Blocked(ctx, m, cpu.BlockedOptions{}); err != nil {
		return err
	}
	*took = time.Since(start)
	if checked == nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(uint64(g.N()), 7))
	for range 16 {
		u := rng.IntN(g.N())
		want, _ := dijkstra.From(g, u, g.ArcFloat)
		for v := range g.N() {
			got := math.Inf(1)
			if !m.IsInf(u, v) {
				got = float64(m.At(u, v))
			}
			if got != want[v] {
				return fmt.Errorf("MISMATCH d(%d,%d) = %v, cpu dijkstra says %v", u, v, got, want[v])
			}
		}
	}
	*checked = "16 rows vs cpu dijkstra"
	return nil
}

// check compares the GPU matrix with the CPU: every entry for n ≤ 2048 (the
// blocked engine), else 16 random rows by Dijkstra.
func check(g *graph.Graph, got []uint32, stride int, c gpu.Config) (string, error) {
	n := g.N()
	float := c.Float
	at := func(u, v int) float64 {
		b := fw.LaneAt(got, c, u*stride+v)
		if float {
			return float64(math.Float32frombits(b))
		}
		if int32(b) >= c.Inf() {
			return math.Inf(1)
		}
		return float64(int32(b))
	}
	var sources []int
	what := "all rows vs cpu dijkstra"
	if n <= 2048 {
		for u := 0; u < n; u++ {
			sources = append(sources, u)
		}
	} else {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		for range 16 {
			sources = append(sources, rng.IntN(n))
		}
		what = "16 rows vs cpu dijkstra"
	}
	for _, u := range sources {
		want, _ := dijkstra.From(g, u, g.ArcFloat)
		for v := 0; v < n; v++ {
			w, x := want[v], at(u, v)
			ok := w == x
			if float {
				ok = math.Abs(w-x) <= 1e-5*math.Max(1, math.Abs(w))
			}
			if !ok {
				return what, fmt.Errorf("MISMATCH d(%d,%d) = %v, cpu says %v", u, v, x, w)
			}
		}
	}
	if float {
		what += " (rel. tol. 1e-5)"
	}
	return what, nil
}

// PrintTable writes the rows as a Table 3.1-shaped table (milliseconds, one
// row per n, one column per configuration), then rates.
func PrintTable(w io.Writer, rows []Row) {
	var cols []string
	byKey := map[string]Row{}
	var sizes []int
	for _, r := range rows {
		col := label(r)
		if !slices.Contains(cols, col) {
			cols = append(cols, col)
		}
		if !slices.Contains(sizes, r.N) {
			sizes = append(sizes, r.N)
		}
		byKey[fmt.Sprint(r.N, col)] = r
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "n\t%s\t\n", strings.Join(cols, "\t"))
	for _, n := range sizes {
		fmt.Fprintf(tw, "%d", n)
		for _, c := range cols {
			r, ok := byKey[fmt.Sprint(n, c)]
			switch {
			case !ok:
				fmt.Fprint(tw, "\t-")
			case r.Error != "":
				fmt.Fprint(tw, "\tERR")
			default:
				fmt.Fprintf(tw, "\t%.3f", r.MedianMS)
			}
		}
		fmt.Fprintln(tw, "\t")
	}
	tw.Flush()
	fmt.Fprintln(w, "\nmedian kernel ms above; rates:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tn\tmedian ms\tmin ms\tT relax/s\tof ceiling\tH→D ms\tD→H ms\tcheck")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%d\tERROR: %s\n", label(r), r.N, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.2f\t%.0f%%\t%.2f\t%.2f\t%s\n", label(r), r.N,
			r.MedianMS, r.MinMS, r.RelaxPerS/1e12, r.Ceiling*100, r.ToDevMS, r.ToHostMS, r.Checked)
	}
	tw.Flush()
}

// PrintBenchLines writes Go benchmark lines (benchstat reads them).
func PrintBenchLines(w io.Writer, rows []Row) {
	for _, r := range rows {
		if r.Error != "" {
			continue
		}
		fmt.Fprintf(w, "BenchmarkFW/%s/%s/n=%d/tile=%d/threads=%d/minblocks=%d 1 %.0f ns/op %.4g relax/s\n",
			r.Kernel, r.Lanes, r.N, r.Tile, r.Threads, r.MinBlocks, r.MedianMS*1e6, r.RelaxPerS)
	}
}

// WriteJSON writes the rows as JSON.
func WriteJSON(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

func label(r Row) string {
	if r.MinBlocks > 1 {
		return fmt.Sprintf("%s/W%d/t%d/b%d", r.Kernel, r.Tile, r.Threads, r.MinBlocks)
	}
	return fmt.Sprintf("%s/W%d/t%d", r.Kernel, r.Tile, r.Threads)
}
