package cli

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/golf"
	"github.com/apsp/apsp/internal/progress"
)

const golfLong = `Graph Golf (research.nii.ac.jp/graphgolf): graphs of order n and degree at
most d of smallest diameter, then smallest ASPL; on a w×h grid (n = w·h)
edges may join vertices at Manhattan distance at most r.

  bound  n=N d=D [w=W h=H r=R]   the lower bounds of the diameter and the ASPL
         (Moore-type for (n, d); on a grid the grid bound), as ODP and Graph
         Golf compute them
  eval   FILE [d=D] [w=W h=H] [r=R]   diameter, ASPL, bounds and gaps (gap =
         value − bound) of an edges file: "u v" lines, or "x,y x,y" on a grid
         (vertex x·h+y; w and h from the file unless given; an edge longer
         than r is refused)
  search n=N d=D [w=W h=H r=R]   simulated annealing (--method hc: hill
         climbing) over degree-preserving 2-opt edge swaps from a random
         connected graph (or --from FILE); writes the best graph with -o

Every final diameter and ASPL is computed again by plain BFS before it is
printed. A progress line goes to stderr when it is a terminal.`

// golfFlags are the flags of apsp golf.
type golfFlags struct {
	json          bool
	out, from     string
	method        string
	pick          string
	evals         int64
	dur           time.Duration
	seed          uint64
	batch         int
	fixedBatch    bool
	symmetry      int
	maxT, minT    float64
	device, algo  string
	threads       int
	quiet         bool
	progressEvery time.Duration
}

func newGolfFlags() (*flag.FlagSet, *golfFlags) {
	g := &golfFlags{}
	fs := flag.NewFlagSet("golf", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&g.json, "json", false, "print JSON")
	fs.StringVar(&g.out, "o", "", "search: write the best graph to `FILE` in Graph Golf's edges format")
	fs.StringVar(&g.from, "from", "", "search: start from the graph in `FILE` instead of a random one")
	fs.StringVar(&g.method, "method", golf.Annealing, "search: sa (simulated annealing, ODP's schedule) or hc (hill climbing)")
	fs.StringVar(&g.pick, "pick", golf.PickFirst, "search: how a step of --batch candidates moves: first (its first accepted candidate) or best (its best candidate, then the acceptance test)")
	fs.Int64Var(&g.evals, "evals", 0, "search: stop after `K` evaluations (default "+strconv.Itoa(golf.DefaultEvals)+" unless --time is given)")
	fs.DurationVar(&g.dur, "time", 0, "search: stop after this long (e.g. 30s)")
	fs.Uint64Var(&g.seed, "seed", 1, "search: the random start graph and the moves (reproducible on one machine and thread count)")
	fs.IntVar(&g.batch, "batch", 0, "search: the most candidate swaps evaluated at once a step (default: one a CPU thread, 256 on a GPU)")
	fs.IntVar(&g.symmetry, "symmetry", 1, "search: keep the graph invariant under v → v+n/G (mod n), measuring it from n/G sources (ODP's symmetric samples; G divides n, odd G for an odd d; CPU)")
	fs.BoolVar(&g.fixedBatch, "fixed-batch", false, "search: evaluate --batch candidates every step (default: fewer while acceptances are frequent, under --pick first)")
	fs.Float64Var(&g.maxT, "max-temp", 0, "search: starting temperature (default: ODP's, from 100 hill-climbing candidates)")
	fs.Float64Var(&g.minT, "min-temp", 0, "search: final temperature (default: ODP's, -2/ln 0.0001)")
	fs.StringVar(&g.device, "device", "auto", "where to evaluate: auto, cpu, gpu, gpu:N")
	fs.StringVar(&g.algo, "algo", "auto", "engine: "+strings.Join(apsp.AlgorithmNames(), ", "))
	fs.IntVar(&g.threads, "threads", 0, "CPU threads (default: all)")
	fs.BoolVar(&g.quiet, "quiet", false, "no progress line")
	fs.DurationVar(&g.progressEvery, "progress", time.Second, "search: how often the progress line is updated")
	return fs, g
}

// golfParams parses key=value arguments n, d, w, h, r.
func golfParams(args []string) (map[string]int, []string, error) {
	p := map[string]int{}
	var rest []string
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			rest = append(rest, a)
			continue
		}
		switch k {
		case "n", "d", "w", "h", "r":
		default:
			return nil, nil, usagef("unknown parameter %q (want n=, d=, w=, h=, r=)", k)
		}
		x, err := strconv.Atoi(v)
		if err != nil || x < 1 {
			return nil, nil, usagef("%s=%s: want a positive integer", k, v)
		}
		p[k] = x
	}
	return p, rest, nil
}

func runGolf(e *env, args []string) error {
	fs, g := newGolfFlags()
	if len(args) == 0 {
		return usagef("want bound, eval or search")
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		printCommandHelp(e.stdout, mustCommand("golf"), fs)
		return flag.ErrHelp
	}
	sub := args[0]
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return usagef("%v", err)
	}
	p, rest, err := golfParams(pos)
	if err != nil {
		return err
	}
	opt := apsp.Options{Device: g.device, Algorithm: g.algo, Threads: g.threads}
	grid := golf.Grid{W: p["w"], H: p["h"], R: p["r"]}
	switch sub {
	case "bound":
		if len(rest) > 0 {
			return usagef("bound takes no file (%q)", rest[0])
		}
		return golfBound(e, g, p, grid)
	case "eval":
		if len(rest) != 1 {
			return usagef("eval wants one edges file")
		}
		gr, err := golf.ReadFile(rest[0], golf.ReadOptions{N: p["n"], W: grid.W, H: grid.H, R: grid.R})
		if err != nil {
			return err
		}
		if err := rOnlyForGrids(rest[0], grid, gr.Grid); err != nil {
			return err
		}
		rep, err := golf.Evaluate(e.ctx, gr, p["d"], opt)
		if err != nil {
			return err
		}
		if g.json {
			return writeJSON(e.stdout, rep)
		}
		return printReport(e.stdout, rep)
	case "search":
		if len(rest) > 0 {
			return usagef("search takes no file (%q); use --from", rest[0])
		}
		return golfSearch(e, g, p, grid, opt)
	}
	return usagef("unknown golf command %q (want bound, eval or search)", sub)
}

func golfBound(e *env, g *golfFlags, p map[string]int, grid golf.Grid) error {
	var b golf.Bound
	var err error
	if grid.W > 0 || grid.H > 0 {
		if grid.W == 0 || grid.H == 0 || grid.R == 0 || p["d"] == 0 {
			return usagef("a grid bound wants w=, h=, d= and r=")
		}
		b, err = golf.GridBound(grid.W, grid.H, p["d"], grid.R)
	} else {
		if err := rWithoutGrid(grid); err != nil {
			return err
		}
		if p["n"] == 0 || p["d"] == 0 {
			return usagef("bound wants n= and d= (or w= h= d= r=)")
		}
		b, err = golf.GeneralBound(p["n"], p["d"])
	}
	if err != nil {
		return usagef("%v", err)
	}
	if g.json {
		return writeJSON(e.stdout, b)
	}
	_, err = fmt.Fprintf(e.stdout, "diameter bound %d\nASPL bound     %.10f\n", b.Diameter, b.ASPL)
	return err
}

// printReport prints a report as Graph Golf and ODP print their figures.
func printReport(w io.Writer, r *golf.Report) error {
	if r.Grid != nil {
		fmt.Fprintf(w, "Grid = %dx%d, Length = %d\n", r.Grid.W, r.Grid.H, r.Grid.R)
	}
	fmt.Fprintf(w, "Nodes = %d, Degrees = %d (largest %d), Edges = %d\n", r.N, r.Degree, r.MaxDegree, r.Edges)
	if !r.Connected {
		_, err := fmt.Fprintln(w, "Diameter     = inf (not connected)")
		return err
	}
	pairs := float64(r.N) * float64(r.N-1) / 2
	fmt.Fprintf(w, "Diameter     = %d\n", r.Diameter)
	fmt.Fprintf(w, "Diameter Gap = %d (%d - %d)\n", r.DiameterGap, r.Diameter, r.Bound.Diameter)
	fmt.Fprintf(w, "ASPL         = %.10f (%d/%.0f)\n", r.ASPL, r.Sum, pairs)
	_, err := fmt.Fprintf(w, "ASPL Gap     = %.10f (%.10f - %.10f)\n", r.ASPLGap, r.ASPL, r.Bound.ASPL)
	return err
}

func golfSearch(e *env, g *golfFlags, p map[string]int, grid golf.Grid, opt apsp.Options) error {
	so := golf.Options{N: p["n"], D: p["d"], Grid: grid, Method: g.method, Pick: g.pick, Evals: g.evals, Time: g.dur,
		Seed: g.seed, Batch: g.batch, FixedBatch: g.fixedBatch, Symmetry: g.symmetry, MaxTemp: g.maxT, MinTemp: g.minT, Eval: opt, ProgressEvery: g.progressEvery}
	if grid.W > 0 || grid.H > 0 {
		if grid.W == 0 || grid.H == 0 || grid.R == 0 {
			return usagef("a grid search wants w=, h= and r=")
		}
	}
	if g.from != "" {
		f, err := golf.ReadFile(g.from, golf.ReadOptions{N: p["n"], W: grid.W, H: grid.H, R: grid.R})
		if err != nil {
			return err
		}
		so.From = f
		if err := rOnlyForGrids(g.from, grid, f.Grid); err != nil {
			return err
		}
		if grid.W == 0 && f.Grid.IsGrid() {
			if grid.R == 0 {
				return usagef("%s is a grid graph: give its r=", g.from)
			}
			// w and h from the file, as eval takes them.
			grid.W, grid.H = f.Grid.W, f.Grid.H
			so.Grid = grid
		}
	} else if so.N == 0 && !grid.IsGrid() || so.D == 0 {
		return usagef("search wants n= and d= (or w= h= d= r=, or --from FILE)")
	} else if err := rWithoutGrid(grid); err != nil {
		return err
	}
	if !g.quiet && progress.IsTerminal(e.stderr) {
		so.Progress = func(pr golf.Progress) {
			fmt.Fprintf(e.stderr, "\r%s %d evals %.0f/s T=%.3g current %d %.6f best %d %.6f (gaps %d %.6f)   ",
				pr.Elapsed.Truncate(time.Second), pr.Evals, pr.EvalsPerSec, pr.Temp, pr.Current.Diameter, pr.Current.ASPL,
				pr.Best.Diameter, pr.Best.ASPL, pr.Best.DiameterGap, pr.Best.ASPLGap)
		}
	}
	res, err := golf.Search(e.ctx, so)
	if so.Progress != nil {
		fmt.Fprintln(e.stderr)
	}
	if res == nil {
		if err != nil && strings.Contains(err.Error(), golf.ErrParams.Error()) {
			return usagef("%v", err)
		}
		return err
	}
	if g.out != "" {
		if werr := golf.WriteFile(g.out, res.Graph); werr != nil {
			return werr
		}
	}
	if g.json {
		if jerr := writeJSON(e.stdout, res); jerr != nil {
			return jerr
		}
		return err
	}
	r := res.Report
	fmt.Fprintf(e.stdout, "Method = %s, Seed = %d, Batch = %d, Evaluations = %d (%.0f/s, %.2f s), Accepted = %d, Stopped = %s\n",
		res.Method, res.Seed, res.Batch, res.Evals, res.EvalsPerSec, res.Seconds, res.Accepted, res.Stopped)
	if res.Method == golf.Annealing {
		fmt.Fprintf(e.stdout, "Max, Min temperature = %f, %f\n", res.MaxTemp, res.MinTemp)
	}
	fmt.Fprintf(e.stdout, "Start: Diameter = %d, ASPL = %.10f\n", res.Start.Diameter, res.Start.ASPL)
	if perr := printReport(e.stdout, r); perr != nil {
		return perr
	}
	if g.out != "" {
		fmt.Fprintf(e.stdout, "Written to %s\n", g.out)
	}
	return err
}

// rWithoutGrid refuses an r= without the grid (w= and h=) it limits.
func rWithoutGrid(grid golf.Grid) error {
	if grid.R > 0 && grid.W == 0 {
		return usagef("r= limits the edges of a grid graph: give w= and h= too")
	}
	return nil
}

// rOnlyForGrids refuses an r= that would be ignored: the file's graph
// (of grid fileGrid) is not a grid graph and no w= and h= were given.
func rOnlyForGrids(file string, grid, fileGrid golf.Grid) error {
	if grid.R > 0 && grid.W == 0 && !fileGrid.IsGrid() {
		return usagef("r= limits the edges of a grid graph, and %s is not one (its vertices are not named x,y): drop r=, or give w= and h=", file)
	}
	return nil
}
