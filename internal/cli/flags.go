package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/encode"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bench"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/progress"
	"github.com/apsp/apsp/internal/sysmem"
)

// flagSet holds every flag a command may take; each command registers the
// groups it uses.
type flagSet struct {
	fs *flag.FlagSet

	// input
	format     string
	directed   bool
	oneBased   bool
	unweighted bool
	vertices   int
	labels     bool   // --labels: edge list fields are vertex names
	weightKey  string // --weight-key
	csvIn      bool   // --csv (input; bulk's --csv is csv)
	csvColumns graph.CSVColumns
	// computation
	algo      string
	threads   int
	tile      int
	lanes     string // --lanes: auto or a lane kind
	reachable bool
	noASPL    bool
	// distributed: compute over the ranks of an MPI job (stats)
	distributed bool
	device      string
	quiet       bool
	showPlan    bool    // --explain
	csv         bool    // bulk --csv, hist --csv
	logY        bool    // hist --log
	cumulative  bool    // hist --cumulative
	wfImproved  bool    // closeness --wf-improved
	effective   float64 // stats --effective
	sources     string  // --sources LIST|@FILE (dist, ecc, closeness, harmonic)
	targets     string  // --targets LIST|@FILE (dist)
	top         int     // closeness, harmonic --top K
	sample      int     // stats --sample K
	seed        uint64  // stats --seed
	mode        string  // --mode: out, in or all (closeness, harmonic, ecc, stats, diameter)
	stdio       bool    // serve --stdio
	maxLine     int     // serve --max-line
	maxGraphs   int     // serve --max-graphs
	maxHeld     string  // serve --max-held
	http        httpFlags
	group       int // bulk --group
	// readFormat is the format readGraph read (FormatAuto before), which
	// decides whether output ids count from 1.
	readFormat graph.Format
	names      []string // the vertex names of the graph readGraph read, or nil
	// output
	json  bool
	out   string
	dtype string // dist: the .npy element type
	// bench
	benchSizes, benchTDims, benchTiles, benchKinds, benchMinBlocks string
	benchReps                                                      int
	benchFloat                                                     bool
}

// newFlags returns the flag set of a command.
func newFlags(cmd string) (*flagSet, error) {
	f := &flagSet{fs: flag.NewFlagSet(cmd, flag.ContinueOnError)}
	f.fs.SetOutput(io.Discard)
	fs := f.fs
	if cmd == "serve" {
		fs.BoolVar(&f.stdio, "stdio", false, "read requests on stdin and write responses on stdout (required)")
		fs.IntVar(&f.maxLine, "max-line", 0, "the longest request line in bytes (0: 256 MiB)")
		fs.IntVar(&f.maxGraphs, "max-graphs", 0, "the most graphs held by op load at once (0: 1000)")
		fs.StringVar(&f.maxHeld, "max-held", "", "the most bytes of graphs held by op load, e.g. 512M (default 1G)")
		f.http.register(fs)
		return f, nil
	}
	if cmd == "devices" {
		fs.BoolVar(&f.json, "json", false, "print JSON")
		return f, nil
	}
	if cmd == "bench" {
		fs.StringVar(&f.benchSizes, "sizes", "", "comma-separated vertex counts (default "+ints(bench.DefaultGPUSizes)+" on a GPU, "+ints(bench.DefaultCPUSizes)+" for the CPU engine)")
		fs.StringVar(&f.benchTDims, "tdims", "16", "comma-separated thread-block sides T (T×T threads: 8, 16, 32)")
		fs.StringVar(&f.benchTiles, "tiles", "64,128", "comma-separated GPU tile widths")
		fs.StringVar(&f.benchKinds, "kernels", "multi,single", "comma-separated: multi, single, cpu")
		fs.StringVar(&f.benchMinBlocks, "minblocks", "1", "comma-separated blocks per SM to compile the kernels for (1..4)")
		fs.IntVar(&f.benchReps, "reps", 5, "timed runs per configuration (after one warm-up)")
		fs.BoolVar(&f.benchFloat, "float", false, "float32 lanes instead of int32 (--lanes float32)")
		fs.StringVar(&f.lanes, "lanes", "int32", "lanes to time: int32, int16 or int8 (packed: the GPU kernels take their default shape, the graphs lengths of 1 (int8) or 1..8 (int16)), int64 (CPU) or float32")
		fs.StringVar(&f.device, "device", "auto", "auto, cpu, gpu or gpu:N")
		fs.BoolVar(&f.json, "json", false, "print JSON")
		fs.BoolVar(&f.quiet, "quiet", false, "no per-run log on stderr, and no notice that there is no GPU")
		return f, nil
	}
	if cmd == "golf" {
		f.fs, _ = newGolfFlags()
		return f, nil
	}
	if cmd == "gen" {
		fs.StringVar(&f.out, "o", "", "write to `FILE` (format from its extension: .mtx, .gr, .csv, .graphml, .gml, .net (Pajek), .graph (METIS), .g6, .s6, .d6, else edge list; .gz compresses)")
		return f, nil
	}
	fs.StringVar(&f.format, "format", "auto", "input `format`: edgelist, csv, mtx, gr, graphml, gml, pajek, metis, g6, s6, d6, or auto (from the extension, else the content)")
	fs.BoolVar(&f.labels, "labels", false, "edge list fields are vertex names, not ids: vertices are numbered as their names first appear, and answers give the names")
	fs.StringVar(&f.weightKey, "weight-key", "weight", "the edge attribute that holds lengths (NetworkX edge list dicts, GraphML, GML)")
	fs.StringVar(&f.csvColumns.Source, "source", "source", "CSV input: the source vertex column")
	fs.StringVar(&f.csvColumns.Target, "target", "target", "CSV input: the target vertex column")
	fs.StringVar(&f.csvColumns.Weight, "weight", "", "CSV input: the weight column (default weight, when the header has it)")
	if cmd != "bulk" && cmd != "hist" { // their --csv is the output's
		fs.BoolVar(&f.csvIn, "csv", false, "the input is CSV with a header row (as --format csv; a .csv name says so too)")
	}
	fs.BoolVar(&f.directed, "directed", false, "arcs are one-way (edge lists; .mtx general and .gr are directed, .mtx symmetric not: a --directed or --directed=false that contradicts the file is refused)")
	fs.BoolVar(&f.oneBased, "one-based", false, "edge list ids start at 1 (vertex ids in the output then do too)")
	fs.BoolVar(&f.unweighted, "unweighted", false, "ignore weights: every edge has length 1")
	fs.IntVar(&f.vertices, "vertices", 0, "at least `N` vertices, the last ones isolated (default the file's count, or largest id + 1); fewer than the file declares is refused")
	if cmd == "info" {
		fs.BoolVar(&f.json, "json", false, "print JSON")
		return f, nil
	}
	fs.StringVar(&f.algo, "algo", "auto", "engine: "+strings.Join(apsp.AlgorithmNames(), ", "))
	fs.IntVar(&f.threads, "threads", 0, "CPU threads (default, and most: the CPUs this process may run on)")
	fs.IntVar(&f.tile, "tile", 0, "tile width of the blocked engine, a multiple of 16 (default 64; 128 in int8 and int16 lanes)")
	fs.StringVar(&f.lanes, "lanes", "auto", "lanes to compute in: auto, int8, int16, int32, int64, float32, float64 (auto: the narrowest the engine offers and the graph's distances provably fit; a kind they may not fit is an error)")
	fs.StringVar(&f.device, "device", "auto", "where to compute: auto, cpu, gpu, gpu:N, or several GPUs: gpu:all or a list gpu:0,1 (gpu-bitbfs and gpu-sssp split their sources over them, gpu-multi and gpu-single the rows of one matrix)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar, and no notice (such as no GPU used)")
	if cmd == "bulk" {
		// Stats' flags but --explain, which is per graph, and --no-aspl.
		fs.BoolVar(&f.csv, "csv", false, "write CSV (a header line, then a row per graph) instead of JSON Lines")
		fs.IntVar(&f.group, "group", 0, "graphs a group of the GPU bulk search, each group written when done (0: automatic)")
	} else {
		fs.BoolVar(&f.showPlan, "explain", false, "print on stderr which engine computes and the estimates auto compared")
	}
	switch cmd {
	case "dist", "ecc", "closeness", "harmonic", "hist":
		fs.StringVar(&f.sources, "sources", "", "only these vertices: a comma-separated `LIST`, or @FILE with one a line; by name when the graph names its vertices, else by id as the file counts them (a search from each: bfs, bitbfs, dijkstra or johnson on the CPU, gpu-sssp with --device gpu; memory for their rows only)")
	}
	switch cmd {
	case "dist":
		fs.StringVar(&f.targets, "targets", "", "only the distances to these vertices, listed as --sources lists them: an origin–destination table of --sources (or every vertex) by `LIST` (searched from the targets, in the opposite direction, when they are fewer than the sources)")
	case "hist":
		fs.StringVar(&f.targets, "targets", "", "only the pairs to these vertices, listed as --sources lists them (with --sources: the pairs between the two lists, a vertex not paired with itself)")
	}
	if cmd == "closeness" || cmd == "harmonic" {
		fs.IntVar(&f.top, "top", 0, "print only the `K` largest values, largest first (ties: the smaller vertex id first); 0 prints every vertex in order")
	}
	switch cmd {
	case "closeness", "harmonic":
		fs.StringVar(&f.mode, "mode", "in", "on a directed graph, the distances read: in (to the vertex, NetworkX's choice), out (from it), all (the graph with its directions dropped)")
	case "hist":
		fs.StringVar(&f.mode, "mode", "out", "on a directed graph, the distances read: out (from each source), in (to it), all (the graph with its directions dropped); over every pair, in counts what out does")
	case "dist":
		fs.StringVar(&f.mode, "mode", "out", "with --sources on a directed graph: out (distances from each source), in (to it), all (the graph with its directions dropped); without --sources, out only")
	case "ecc", "stats", "diameter":
		fs.StringVar(&f.mode, "mode", "out", "on a directed graph, the eccentricities read: out (distances from the vertex), in (to it), all (the graph with its directions dropped, which every measure then describes)")
	}
	if cmd != "dist" && cmd != "path" && cmd != "closeness" && cmd != "harmonic" {
		fs.BoolVar(&f.reachable, "reachable", false, "take every measure over the pairs that have a path")
	}
	if cmd == "closeness" {
		fs.BoolVar(&f.wfImproved, "wf-improved", true, "scale by the share of vertices that reach each one (Wasserman and Faust; NetworkX's default), for graphs that are not connected")
	}
	if cmd == "closeness" {
		fs.IntVar(&f.sample, "sample", 0, "estimate every vertex's closeness from `K` sources drawn at random (--seed), each with a 95 % confidence interval, marked as estimates (≈; \"estimate\": true)")
		fs.Uint64Var(&f.seed, "seed", 1, "the seed of --sample's draw")
	}
	if cmd == "stats" {
		fs.IntVar(&f.sample, "sample", 0, "estimate from `K` sources drawn at random (--seed): the ASPL over the pairs with a path with a 95 % confidence interval, and a lower bound on the diameter, marked as estimates (connectivity stays exact)")
		fs.Uint64Var(&f.seed, "seed", 1, "the seed of --sample's draw")
		fs.Float64Var(&f.effective, "effective", 0, "also the effective diameter at this `ratio` of the pairs with a path (such as 0.9): effective_diameter, the smallest distance within which that share lie, and effective_diameter_interpolated, SNAP's; exact distances only, and a second computation unless the engine is bitbfs")
		fs.BoolVar(&f.noASPL, "no-aspl", false, "diameter, radius and connectivity only (exact, without all pairs on unweighted graphs)")
		fs.BoolVar(&f.distributed, "distributed", false, "compute over the ranks of an MPI job (mpirun -np K apsp stats --distributed FILE): each rank holds its part of the matrix, on its CPU, or with --device gpu on its GPU (NCCL between them); rank 0 prints")
	}
	if cmd != "dist" {
		fs.BoolVar(&f.json, "json", false, "print JSON")
	}
	if cmd == "dist" {
		fs.StringVar(&f.out, "o", "", "write to `FILE`: .npy for a NumPy array, anything else for TSV")
		fs.StringVar(&f.dtype, "dtype", "auto", "element `type` of the .npy array: uint8, int16, uint16, int32, int64, float32, float64, or auto (the narrowest integer type that holds every distance below its maximum, which is unreachable; float64 for float weights)")
	}
	if cmd == "hist" {
		fs.StringVar(&f.out, "o", "", "also draw the hop plot in `FILE`, as its extension names: .svg, .pdf or .png")
		fs.BoolVar(&f.logY, "log", false, "draw the y axis (pairs, or with --cumulative the fraction) on a log scale; needs -o")
		fs.BoolVar(&f.cumulative, "cumulative", false, "draw the fraction of reachable pairs within each distance (the classic hop plot) rather than the pairs at it; needs -o")
		fs.BoolVar(&f.csv, "csv", false, "print the histogram as CSV: distance,pairs rows, the last for distance inf (unreachable pairs)")
	}
	return f, nil
}

// parse parses args, prints help for -h, and checks the positional count.
func (f *flagSet) parse(e *env, c command, args []string, minPos, maxPos int) ([]string, error) {
	pos, err := parseInterspersed(f.fs, args)
	if err == flag.ErrHelp {
		printCommandHelp(e.stdout, c, f.fs)
		return nil, err
	}
	if err != nil {
		return nil, usagef("%v", err)
	}
	if len(pos) < minPos || len(pos) > maxPos {
		return nil, usagef("want %s, got %d argument(s)", c.args, len(pos))
	}
	if f.threads < 0 {
		return nil, usagef("--threads must be >= 0")
	}
	if most := maxThreads(); f.threads > most {
		return nil, usagef("--threads %d: at most %d, the CPUs this process may run on (more threads than CPUs would not run at once, and each takes its working memory)", f.threads, most)
	}
	if f.vertices < 0 {
		return nil, usagef("--vertices must be >= 0")
	}
	if f.top < 0 {
		return nil, usagef("--top must be >= 0")
	}
	switch {
	case f.sample < 0:
		return nil, usagef("--sample must be >= 1 (0: every source, exactly)")
	case f.sample > 0 && (f.noASPL || f.effective != 0 || f.distributed || f.sources != "" || f.top != 0):
		return nil, usagef("--sample estimates from its own sources: not with --no-aspl, --effective, --distributed, --sources or --top")
	}
	return pos, nil
}

// maxThreads is the most --threads takes: the CPUs the process may run on
// (runtime.NumCPU, which follows the CPU affinity), or GOMAXPROCS if it
// was set higher. The engines' threads are goroutines that each compute
// without waiting, so more than that only share the CPUs, each with its
// own working memory, and a report of the threads would overstate what
// ran at once; the library itself takes any count.
func maxThreads() int { return max(runtime.NumCPU(), runtime.GOMAXPROCS(0)) }

func (f *flagSet) readOptions() (graph.ReadOptions, error) {
	format, err := graph.ParseFormat(f.format)
	if err != nil {
		return graph.ReadOptions{}, usagef("%v", err)
	}
	// --directed given on the command line, even as --directed=false, must
	// agree with an edge list's "# directed:" header.
	directedSet := false
	f.fs.Visit(func(fl *flag.Flag) { directedSet = directedSet || fl.Name == "directed" })
	if f.csvIn {
		if format != graph.FormatAuto && format != graph.FormatCSV {
			return graph.ReadOptions{}, usagef("--csv and --format %s name two formats", f.format)
		}
		format = graph.FormatCSV
	}
	return graph.ReadOptions{Format: format, Directed: f.directed, DirectedSet: directedSet, OneBased: f.oneBased,
		Unweighted: f.unweighted, Vertices: f.vertices, Labels: f.labels, WeightKey: f.weightKey, CSV: f.csvColumns}, nil
}

// boundsVertexBytes is the least working memory of the bounds method a
// vertex (internal/plan's boundsWork of an undirected graph; a directed one
// takes 138).
const boundsVertexBytes = 46

// work is the least memory the command needs besides the graph, whatever
// engine runs: a vertex count the file declares (or an id implies) is
// checked against it with the graph before anything is read
// (graph.ReadOptions.Then), as the engine's own admission would refuse it
// only once the graph is built. Every summary (stats, aspl, ecc, hist)
// holds a row a vertex (engine.RowVertexBytes), the bounds method of
// diameter and --no-aspl less; a distance matrix a lane a pair (int8 at
// the least, unless --lanes names one), and a path asked of all pairs the
// successors besides. info and a path searched from U need nothing beyond
// reading; a distributed run holds a part a rank.
func (f *flagSet) work() graph.Work {
	name := f.fs.Name()
	auto := f.algo == "" || f.algo == "auto"
	lane := uint64(1)
	if k, err := lanes.ParseKind(f.lanes); err == nil && f.lanes != "auto" {
		lane = uint64(k.Bytes())
	}
	switch name {
	case "stats", "aspl", "ecc", "hist", "diameter", "closeness", "harmonic":
		if f.distributed {
			return graph.Work{}
		}
		w := graph.Work{Name: name, VertexBytes: engine.RowVertexBytes}
		// Under auto the bounds method's all-pairs fallback is admitted
		// before it runs (its rows); named, it runs alone.
		if (name == "diameter" || f.noASPL) && f.algo == apsp.BoundsAlgorithm {
			w.VertexBytes = min(w.VertexBytes, boundsVertexBytes)
		}
		return w
	case "dist":
		return graph.Work{Name: name, PairBytes: lane}
	case "path":
		if auto && !strings.HasPrefix(f.device, "gpu") {
			return graph.Work{}
		}
		return graph.Work{Name: name, PairBytes: lane + 4}
	}
	return graph.Work{}
}

// readGraph reads the graph named on the command line ("-" is stdin),
// refusing at once a declared size that the command's work cannot follow
// (see work).
func (f *flagSet) readGraph(e *env, path string) (*graph.Graph, error) {
	opt, err := f.readOptions()
	if err != nil {
		return nil, err
	}
	opt.Then = f.work()
	opt.Warn = warner(e)
	var g *graph.Graph
	if path == "-" {
		path = "stdin"
		g, f.readFormat, err = graph.ReadFormat(e.stdin, path, opt)
	} else {
		file, oerr := os.Open(path)
		if oerr != nil {
			return nil, fmt.Errorf("reading graph: %w", oerr)
		}
		defer file.Close() // read-only: a close error loses nothing
		g, f.readFormat, err = graph.ReadFormat(file, path, opt)
	}
	if err != nil {
		return nil, err
	}
	f.names = g.Names()
	// Every command refuses an empty graph the same way, naming the file:
	// no measure is defined on it.
	if g.N() == 0 {
		return nil, fmt.Errorf("%s: %w (%s)", path, apsp.ErrEmptyGraph, emptyHint(f.readFormat))
	}
	return g, nil
}

// printChoice writes, with --explain, the plan of the command (engine,
// lanes, threads, memory) and the estimates "auto" compared, on stderr.
func (f *flagSet) printChoice(e *env, cmd string, g *graph.Graph, opt apsp.Options) error {
	if !f.showPlan {
		return nil
	}
	w := e.stderr
	auto := opt.Algorithm == "" || opt.Algorithm == "auto"
	dev, err := apsp.ParseDevice(opt.Device)
	if err != nil {
		return err
	}
	task := apsp.TaskStats
	switch {
	case cmd == "path" && auto && dev.Kind != "gpu":
		fmt.Fprintln(w, "explain: auto finds one path by a single-source search from U (breadth-first, Dijkstra or Bellman–Ford), not all pairs")
		return nil
	case cmd == "path":
		opt.Paths = true
		task = apsp.TaskAllPairs
	case cmd == "dist":
		task = apsp.TaskAllPairs
	case cmd == "hist":
		task = apsp.TaskHistogram
	case cmd == "harmonic":
		task = apsp.TaskHarmonic
	case cmd == "closeness" && f.sample > 0:
		task = apsp.TaskAllPairs // the sampled sources' distances (DistancesFrom)
	case cmd == "diameter" || f.noASPL:
		task = apsp.TaskExtremes
	}
	c, err := apsp.Explain(g, opt, task)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "explain: %s on %s, %s lanes, %d threads, %s of working memory", c.Engine, c.Device, c.Lanes, c.Threads, sysmem.FormatBytes(c.Memory))
	if !c.Auto && c.Fallback == "" {
		fmt.Fprintln(w, ", as asked")
		return nil
	}
	fmt.Fprintln(w)
	if c.Fallback != "" {
		fmt.Fprintf(w, "explain: bounds may spend %.0f searches of the whole graph; past that budget %s answers (all pairs)\n", c.BoundsBudget, c.Fallback)
	}
	fmt.Fprintf(w, "explain: auto compared estimated seconds (%d vertices, %d arcs, weights: %s):\n", g.N(), g.Arcs(), g.Kind())
	chosen := c.Engine
	if c.Fallback != "" {
		chosen = c.Fallback
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, cand := range c.Candidates {
		est := "-"
		if cand.Seconds > 0 {
			est = strconv.FormatFloat(cand.Seconds, 'g', 3, 64)
		}
		mark := ""
		switch {
		case cand.Engine == chosen:
			mark = "<- chosen"
		case cand.Refused != "":
			mark = "not used: " + cand.Refused
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", cand.Engine, cand.Device, est, mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if c.Note != "" {
		fmt.Fprintln(w, "explain:", c.Note)
	}
	return nil
}

// emptyHint says why a file of format f read as no vertices.
func emptyHint(f graph.Format) string {
	switch f {
	case graph.FormatEdgeList, graph.FormatAuto:
		return "no edges and no vertex count; an edge list may say '# vertices: N'"
	case graph.FormatGraph6, graph.FormatSparse6, graph.FormatDigraph6:
		return "the line says 0 vertices"
	}
	return "the file declares no vertices and names none"
}

// warner prints a reader's warnings on stderr, whatever --quiet says: the
// answer may not be what the file meant.
func warner(e *env) func(string) {
	return func(msg string) { fmt.Fprintf(e.stderr, "apsp: warning: %s\n", msg) }
}

// namer says how the output names the vertices of the graph readGraph
// read: by the names the file gave, else by id counted as the file counts
// (see base).
func (f *flagSet) namer(path string) encode.Vertices {
	return encode.Vertices{Names: f.names, Base: f.base(path)}
}

// base is the offset of vertex ids in the output: 1 for --one-based and for
// formats whose files count from 1 (.mtx, .gr, .net, .graph), else 0.
func (f *flagSet) base(path string) int {
	format := f.readFormat // as read: named, from the name or sniffed
	if format == graph.FormatAuto {
		format, _ = graph.ParseFormat(f.format)
	}
	if format == graph.FormatAuto {
		format = graph.FormatFromName(path)
	}
	if f.oneBased || format.CountsFromOne() {
		return 1
	}
	return 0
}

// options turns the flags into library options with a progress bar.
func (f *flagSet) options(e *env, label string) (apsp.Options, *progress.Bar, error) {
	opt := apsp.Options{Algorithm: f.algo, Threads: f.threads, Tile: f.tile, Reachable: f.reachable, Device: f.device, Lanes: f.lanes, Mode: f.mode, Effective: f.effective}
	if !f.quiet {
		// Such as "no GPU used (…); computing on the CPU".
		opt.Notice = func(s string) { fmt.Fprintf(e.stderr, "apsp: %s\n", s) }
	}
	// The library validates; the command line only says which flag.
	extremes := label == "diameter" || (label == "stats" && f.noASPL)
	if err := opt.Validate(extremes); err != nil {
		return apsp.Options{}, nil, usagef("%v", flagError(err))
	}
	bar := progress.New(e.stderr, label, !f.quiet && progress.IsTerminal(e.stderr))
	if bar != nil {
		opt.Progress = bar.Update
	}
	return opt, bar, nil
}

// flagError restates an invalid option as the flag that set it.
func flagError(err error) error {
	var oe *apsp.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	flag := map[string]string{"algorithm": "--algo", "device": "--device", "threads": "--threads", "tile": "--tile", "lanes": "--lanes", "mode": "--mode", "effective": "--effective"}[oe.Option]
	if flag == "" {
		return err
	}
	return &renamed{flag + ": " + oe.Msg, err}
}

// explain names the input file in a failed computation's error and
// restates a negative cycle's vertex in the file's own numbering; the
// library's error stays wrapped (errors.Is and errors.As still see it).
func (f *flagSet) explain(err error, path string) error {
	if err == nil {
		return nil
	}
	if path == "-" {
		path = "stdin"
	}
	var nc *apsp.NegativeCycleError
	if errors.As(err, &nc) {
		return &renamed{fmt.Sprintf("%s: negative cycle through vertex %s", path, f.namer(path).Text(nc.Vertex)), err}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// renamed is an error restated for the user that still wraps the original.
type renamed struct {
	msg string
	err error
}

func (e *renamed) Error() string { return e.msg }
func (e *renamed) Unwrap() error { return e.err }
