package cli

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/encode"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
	"github.com/apsp/apsp/internal/progress"
)

func mustCommand(name string) command {
	c, _ := findCommand(name)
	return c
}

// computeStats is shared by stats, diameter and aspl.
func computeStats(e *env, name string, args []string) (*apsp.Stats, *flagSet, string, error) {
	f, _ := newFlags(name)
	pos, err := f.parse(e, mustCommand(name), args, 1, 1)
	if err != nil {
		return nil, nil, "", err
	}
	opt, bar, err := f.options(e, name)
	if err != nil {
		return nil, nil, "", err
	}
	if !f.distributed {
		// Open the GPUs a --device gpu… names while the file is read; the
		// computation reports any failure to open them.
		go func() { _ = apsp.WarmUp(opt) }()
	}
	g, err := f.readGraph(e, pos[0])
	if err != nil {
		return nil, nil, "", err
	}
	if f.distributed {
		s, err := statsOverMPI(e, f, g, opt, name, pos[0])
		bar.Done()
		return s, f, pos[0], err
	}
	if err := f.printChoice(e, name, g, sampled(opt, f.sample, g)); err != nil {
		return nil, nil, "", err
	}
	if f.sample > 0 {
		est, err := apsp.EstimateStats(e.ctx, g, f.sample, f.seed, opt)
		bar.Done()
		if err != nil {
			return nil, f, pos[0], f.explain(err, pos[0])
		}
		return nil, f, pos[0], writeEstimate(e, f, est)
	}
	var s *apsp.Stats
	if f.noASPL || name == "diameter" {
		s, err = apsp.ComputeExtremes(e.ctx, g, opt)
	} else {
		s, err = apsp.ComputeStats(e.ctx, g, opt)
	}
	bar.Done()
	return s, f, pos[0], f.explain(err, pos[0])
}

// statsOverMPI is stats --distributed: the graph's Stats over the ranks
// of the MPI job this process belongs to; ranks other than 0 print nothing
// (their output goes to io.Discard), every rank fails when one does. A
// failure every rank shares (a refused graph, invalid options, one rank's
// failure that the ranks agreed on) is printed by rank 0 before the ranks
// wait for each other and end together: a rank that exited first would
// have Open MPI end the job before rank 0 printed why. A rank's own later
// failure aborts the job in MPI after that rank prints it.
func statsOverMPI(e *env, f *flagSet, g *graph.Graph, opt apsp.Options, name, path string) (*apsp.Stats, error) {
	if f.noASPL || f.showPlan {
		return nil, usagef("--distributed computes every measure and has one engine: --no-aspl and --explain do not apply")
	}
	job, err := apsp.JoinMPI()
	if err != nil {
		return nil, f.explain(err, path)
	}
	s, err := job.ComputeStats(e.ctx, g, opt)
	err = f.explain(err, path)
	if job.Rank != 0 {
		e.stdout = io.Discard
	}
	if err != nil && (errors.Is(err, apsp.ErrNotDistributable) || errors.Is(err, apsp.ErrInvalidOptions) || errors.Is(err, apsp.ErrRankFailed)) {
		code := exitCode(err) // every rank alike, so mpirun's status does not depend on which exits first
		if job.Rank == 0 {
			report(e.stderr, name, err)
		}
		err = &reportedError{err: err, code: code}
		_ = job.Barrier(e.ctx) // rank 0 has printed
	}
	if cerr := job.Close(); err == nil {
		err = cerr
	}
	return s, err
}

func writeJSON(w io.Writer, v any) error { return encode.JSON(w, v) }

func runStats(e *env, args []string) error {
	s, f, path, err := computeStats(e, "stats", args)
	if err != nil || s == nil { // an estimate is written already
		return err
	}
	out := *s
	if s.Names == nil {
		base := f.base(path)
		out.Center, out.Periphery = shift(s.Center, base), shift(s.Periphery, base)
	}
	if f.json {
		return writeJSON(e.stdout, out)
	}
	return encode.StatsText(e.stdout, &out)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func shift(vs []int, base int) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = v + base
	}
	return out
}

func runDiameter(e *env, args []string) error {
	s, f, _, err := computeStats(e, "diameter", args)
	if err != nil {
		return err
	}
	if f.json {
		return writeJSON(e.stdout, map[string]any{"diameter": s.Diameter, "connected": s.Connected,
			"algorithm": s.Algorithm, "traversals": s.Traversals, "seconds": s.Seconds})
	}
	_, err = fmt.Fprintln(e.stdout, s.Diameter)
	return err
}

func runASPL(e *env, args []string) error {
	s, f, _, err := computeStats(e, "aspl", args)
	if err != nil {
		return err
	}
	if f.json {
		return writeJSON(e.stdout, map[string]any{"aspl": s.ASPL, "connected": s.Connected, "reachable_pairs": s.ReachablePairs})
	}
	_, err = fmt.Fprintln(e.stdout, s.ASPL)
	return err
}

// oneGraph parses command name's flags and reads its one graph, as the
// commands that print a value a vertex (ecc, closeness) begin.
func oneGraph(e *env, name string, args []string) (f *flagSet, g *graph.Graph, opt apsp.Options, bar *progress.Bar, path string, err error) {
	f, _ = newFlags(name)
	pos, err := f.parse(e, mustCommand(name), args, 1, 1)
	if err != nil {
		return nil, nil, opt, nil, "", err
	}
	if opt, bar, err = f.options(e, name); err != nil {
		return nil, nil, opt, nil, "", err
	}
	if g, err = f.readGraph(e, pos[0]); err != nil {
		return nil, nil, opt, nil, "", err
	}
	// The plan shown is that of the chosen or sampled sources (which the
	// callers read again), when there are any.
	shown := sampled(opt, f.sample, g)
	if f.sample == 0 {
		if shown.Sources, err = f.sourcesOf(g, pos[0]); err != nil {
			return nil, nil, opt, nil, "", err
		}
	}
	if err := f.printChoice(e, name, g, shown); err != nil {
		return nil, nil, opt, nil, "", err
	}
	return f, g, opt, bar, pos[0], nil
}

// sampled is opt with as many sources as a sample of k draws from g
// (none when k is 0), for the plan --explain shows: it depends on their
// number only.
func sampled(opt apsp.Options, k int, g *graph.Graph) apsp.Options {
	if k > 0 {
		opt.Sources = make([]int, min(k, g.N()))
	}
	return opt
}

func runEcc(e *env, args []string) error {
	f, g, opt, bar, path, err := oneGraph(e, "ecc", args)
	if err != nil {
		return err
	}
	if opt.Sources, err = f.sourcesOf(g, path); err != nil {
		return err
	}
	ecc, err := apsp.Eccentricities(e.ctx, g, opt)
	bar.Done()
	if err != nil {
		return f.explain(err, path)
	}
	vs := f.namer(path)
	vertex := func(i int) int { return i }
	if opt.Sources != nil {
		vertex = func(i int) int { return opt.Sources[i] }
	}
	if f.json {
		type row struct {
			Vertex       any         `json:"vertex"`
			Eccentricity apsp.Length `json:"eccentricity"`
		}
		rows := make([]row, len(ecc))
		for i, x := range ecc {
			rows[i] = row{vs.JSON(vertex(i)), x}
		}
		return writeJSON(e.stdout, rows)
	}
	bw := bufio.NewWriter(e.stdout)
	for i, x := range ecc {
		fmt.Fprintf(bw, "%s %v\n", vs.Text(vertex(i)), x)
	}
	return bw.Flush()
}

func runDist(e *env, args []string) error {
	f, _ := newFlags("dist")
	pos, err := f.parse(e, mustCommand("dist"), args, 1, 1)
	if err != nil {
		return err
	}
	asNPY := strings.HasSuffix(strings.ToLower(f.out), ".npy")
	dtype, err := encode.ParseDtype(f.dtype)
	if err != nil {
		return usagef("--dtype: %v", err)
	}
	if dtype != encode.Auto && !asNPY {
		return usagef("--dtype %s needs -o FILE.npy (TSV writes every distance exactly)", f.dtype)
	}
	opt, bar, err := f.options(e, "dist")
	if err != nil {
		return err
	}
	// The output is created before anything is computed, and put in place
	// only once written: a failed computation, or a dtype refused before
	// anything is written, leaves no file behind.
	out, err := createOutput(e, f.out)
	if err != nil {
		return err
	}
	defer out.abort()
	g, err := f.readGraph(e, pos[0])
	if err != nil {
		return err
	}
	sources, targets, chosen, err := f.pairsOf(e, g, pos[0], opt)
	if err != nil {
		return err
	}
	if chosen {
		d, err := apsp.DistancesBetween(e.ctx, g, sources, targets, opt)
		bar.Done()
		if err != nil {
			return f.explain(err, pos[0])
		}
		if !asNPY {
			return out.finish(writeSourceTSV(out, d, f.namer(pos[0])))
		}
		if err := out.finish(writeNPY(out, d, dtype)); err != nil {
			return err
		}
		return writeRowsCols(e, namesPath(f.out), d, f.namer(pos[0]))
	}
	if err := f.printChoice(e, "dist", g, opt); err != nil {
		return err
	}
	d, err := apsp.AllPairs(e.ctx, g, opt)
	bar.Done()
	if err != nil {
		return f.explain(err, pos[0])
	}
	if asNPY {
		if err := out.finish(writeNPY(out, d, dtype)); err != nil {
			return err
		}
		if f.names == nil {
			// A names file an earlier run left beside FILE.npy would
			// name this matrix's rows wrongly.
			if err := os.Remove(namesPath(f.out)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: %w", namesPath(f.out), err)
			}
			return nil
		}
		return writeNames(e, namesPath(f.out), f.names)
	}
	if f.names != nil {
		return out.finish(encode.TSVNamed(out, d, f.names))
	}
	return out.finish(writeTSV(out, d))
}

// namesPath is where the vertex names of a .npy matrix go: beside it, as
// FILE.names.json for FILE.npy.
func namesPath(npy string) string {
	return npy[:len(npy)-len(".npy")] + ".names.json"
}

// writeNames writes a .npy matrix's vertex names, row and column i being
// names[i], as a JSON array of strings (names may hold any character).
func writeNames(e *env, path string, names []string) error {
	out, err := createOutput(e, path)
	if err != nil {
		return err
	}
	defer out.abort()
	b, err := json.Marshal(names)
	if err == nil {
		_, err = out.Write(append(b, '\n'))
	}
	return out.finish(err)
}

// writeRowsCols writes the vertices of an origin–destination .npy's rows
// and columns beside it, as {"sources": [...], "targets": [...]}, each
// vertex its name or its id as the file counts them.
func writeRowsCols(e *env, path string, d *apsp.SourceDistances, vs encode.Vertices) error {
	list := func(ids []int, count int) []any {
		out := make([]any, count)
		for i := range count {
			v := i
			if ids != nil {
				v = ids[i]
			}
			out[i] = vs.JSON(v)
		}
		return out
	}
	b, err := json.Marshal(map[string]any{"sources": list(d.Sources, d.Rows()), "targets": list(d.Targets, d.Cols())})
	if err != nil {
		return err
	}
	out, err := createOutput(e, path)
	if err != nil {
		return err
	}
	defer out.abort()
	_, err = out.Write(append(b, '\n'))
	return out.finish(err)
}

// writeTSV writes tab-separated rows with inf for unreachable pairs.
func writeTSV(w io.Writer, d *apsp.Distances) error { return encode.TSV(w, d) }

// writeNPY writes a NumPy array: unreachable pairs are the dtype's maximum
// (integer dtypes) or inf (float dtypes), the same for every graph.
func writeNPY(w io.Writer, d encode.Matrix, dtype encode.Dtype) error {
	return encode.NPY(w, d, dtype)
}

func runPath(e *env, args []string) error {
	f, _ := newFlags("path")
	pos, err := f.parse(e, mustCommand("path"), args, 3, 3)
	if err != nil {
		return err
	}
	opt, bar, err := f.options(e, "path")
	if err != nil {
		return err
	}
	g, err := f.readGraph(e, pos[0])
	if err != nil {
		return err
	}
	// The vertices are named as the file names them, or counted as it
	// counts, known once it is read (sniffed formats included).
	vs := f.namer(pos[0])
	var uv [2]int
	for i, s := range pos[1:] {
		v, ok := vs.Parse(s, g.N())
		switch {
		case !ok && vs.Names != nil:
			return fmt.Errorf("%s: no vertex is named %q", pos[0], s)
		case !ok:
			if _, err := strconv.Atoi(s); err != nil {
				return usagef("vertex %q is not an integer (vertex names need --labels or a format that names vertices)", s)
			}
			return fmt.Errorf("vertex %s out of range %d..%d", s, vs.Base, g.N()-1+vs.Base)
		}
		uv[i] = v
	}
	if err := f.printChoice(e, "path", g, opt); err != nil {
		return err
	}
	p, err := apsp.ShortestPath(e.ctx, g, uv[0], uv[1], opt)
	bar.Done()
	if errors.Is(err, apsp.ErrNoPath) {
		return fmt.Errorf("no path from %s to %s", pos[1], pos[2])
	}
	if err != nil {
		return f.explain(err, pos[0])
	}
	strs := make([]string, len(p.Vertices))
	named := make([]any, len(p.Vertices))
	for i, v := range p.Vertices {
		strs[i], named[i] = vs.Text(v), vs.JSON(v)
	}
	if f.json {
		return writeJSON(e.stdout, struct {
			Vertices []any       `json:"vertices"`
			Length   apsp.Length `json:"length"`
		}{named, p.Length})
	}
	_, err = fmt.Fprintf(e.stdout, "%s\nlength %v\n", strings.Join(strs, " "), p.Length)
	return err
}

func runGen(e *env, args []string) error {
	f, _ := newFlags("gen")
	c := mustCommand("gen")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		printGenHelp(e.stdout, c, f)
		return flag.ErrHelp
	}
	pos, err := parseInterspersed(f.fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	if len(pos) == 0 {
		return usagef("want a kind: %s", genKindNames())
	}
	spec, err := gen.ParseSpec(pos[0], pos[1:])
	if err != nil {
		return usagef("%v", err)
	}
	out, err := createOutput(e, f.out)
	if err != nil {
		return err
	}
	defer out.abort()
	g, err := gen.Generate(spec)
	if err != nil {
		return err
	}
	return out.finish(writeGraph(out, f.out, g))
}

func genKindNames() string {
	var names []string
	for _, k := range gen.Kinds() {
		names = append(names, k.Name)
	}
	return strings.Join(names, ", ")
}

func printGenHelp(w io.Writer, c command, f *flagSet) {
	printCommandHelp(w, c, f.fs)
	fmt.Fprintln(w, "\nkinds:")
	for _, k := range gen.Kinds() {
		fmt.Fprintf(w, "  %s %s\n      %s\n      e.g. %s\n", k.Name, k.Params, k.Description, k.Example)
	}
	fmt.Fprintln(w, "\noptions for every kind: weights=LO..HI (integers, or floats if written with a point),")
	fmt.Fprintln(w, "seed=N (reproducible; default 1), directed")
}

// writeGraph writes g in the format path's extension names.
func writeGraph(w io.Writer, path string, g *graph.Graph) (err error) {
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		zw := gzip.NewWriter(w)
		defer func() {
			if cerr := zw.Close(); err == nil {
				err = cerr
			}
		}()
		w = zw
	}
	return graph.Write(w, g, graph.FormatFromName(path))
}

// graphInfo is what info prints.
type graphInfo struct {
	Vertices         int          `json:"vertices"`
	Arcs             int          `json:"arcs"`
	Edges            int          `json:"edges"`
	Directed         bool         `json:"directed"`
	Weights          string       `json:"weights"`
	MinWeight        *apsp.Length `json:"min_weight"` // a number (exact for int64), null when unweighted or without arcs
	MaxWeight        *apsp.Length `json:"max_weight"`
	NegativeSelfLoop bool         `json:"negative_self_loop"`
	MinDegree        int          `json:"min_out_degree"`
	MaxDegree        int          `json:"max_out_degree"`
	Components       int          `json:"components"`
	StrongComponents int          `json:"strong_components"`
}

func runInfo(e *env, args []string) error {
	f, _ := newFlags("info")
	pos, err := f.parse(e, mustCommand("info"), args, 1, 1)
	if err != nil {
		return err
	}
	g, err := f.readGraph(e, pos[0])
	if err != nil {
		return err
	}
	info := graphInfo{Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(),
		Weights: g.Kind().String(), Components: g.WeakComponents()}
	info.StrongComponents = info.Components // an undirected graph's are its components
	if g.Directed() {
		info.StrongComponents = g.StrongComponents()
	}
	_, info.NegativeSelfLoop = g.NegativeSelfLoop()
	info.MinDegree, info.MaxDegree = g.DegreeRange()
	if g.Weighted() && g.Arcs() > 0 {
		var lo, hi apsp.Length
		if g.Kind() == graph.IntWeights {
			l, h := g.IntWeightRange()
			lo, hi = apsp.IntLength(l), apsp.IntLength(h)
		} else {
			l, h := g.FloatWeightRange()
			lo, hi = apsp.FloatLength(l), apsp.FloatLength(h)
		}
		info.MinWeight, info.MaxWeight = &lo, &hi
	}
	if f.json {
		return writeJSON(e.stdout, info)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "vertices\t%d\n", info.Vertices)
	fmt.Fprintf(tw, "edges\t%d (%d arcs)\n", info.Edges, info.Arcs)
	fmt.Fprintf(tw, "directed\t%s\n", yesNo(info.Directed))
	w := info.Weights
	if info.MinWeight != nil {
		w += fmt.Sprintf(", %v..%v", *info.MinWeight, *info.MaxWeight)
	}
	if info.NegativeSelfLoop {
		w += " (a negative self-loop: a negative cycle)"
	}
	fmt.Fprintf(tw, "weights\t%s\n", w)
	deg := "degree"
	if g.Directed() {
		deg = "out-degree"
	}
	fmt.Fprintf(tw, "%s\t%d..%d\n", deg, info.MinDegree, info.MaxDegree)
	if g.Directed() {
		fmt.Fprintf(tw, "weak components\t%d\n", info.Components)
		fmt.Fprintf(tw, "strong components\t%d\n", info.StrongComponents)
	} else {
		fmt.Fprintf(tw, "components\t%d\n", info.Components)
	}
	return tw.Flush()
}

func runCloseness(e *env, args []string) error {
	f, g, opt, bar, path, err := oneGraph(e, "closeness", args)
	if err != nil {
		return err
	}
	if f.sample > 0 {
		est, err := apsp.EstimateCloseness(e.ctx, g, f.sample, f.seed, opt, f.wfImproved)
		bar.Done()
		if err != nil {
			return f.explain(err, path)
		}
		return writeEstimates(e, f, path, "closeness", est)
	}
	if opt.Sources, err = f.sourcesOf(g, path); err != nil {
		return err
	}
	c, err := apsp.ClosenessCentrality(e.ctx, g, opt, f.wfImproved)
	bar.Done()
	if err != nil {
		return f.explain(err, path)
	}
	return writeVertexValues(e, f, path, "closeness", c, opt.Sources)
}

func runHarmonic(e *env, args []string) error {
	f, g, opt, bar, path, err := oneGraph(e, "harmonic", args)
	if err != nil {
		return err
	}
	if opt.Sources, err = f.sourcesOf(g, path); err != nil {
		return err
	}
	h, err := apsp.HarmonicCentrality(e.ctx, g, opt)
	bar.Done()
	if err != nil {
		return f.explain(err, path)
	}
	return writeVertexValues(e, f, path, "harmonic", h, opt.Sources)
}

// writeVertexValues prints a value a vertex: "vertex value" lines, or with
// --json a list of {"vertex": …, key: value} (null for +Inf). xs[i] is
// vertex i's, or sources[i]'s when sources is not nil.
//
// With --top K only the K largest are printed, largest first; equal values
// keep their order (vertex order, or the order of --sources).
func writeVertexValues(e *env, f *flagSet, path, key string, xs []float64, sources []int) error {
	vs := f.namer(path)
	vertex := func(i int) int { return i }
	if sources != nil {
		vertex = func(i int) int { return sources[i] }
	}
	if f.top > 0 {
		order := make([]int, len(xs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[b], xs[a]) })
		order = order[:min(f.top, len(order))]
		top := make([]float64, len(order))
		at := make([]int, len(order))
		for j, i := range order {
			top[j], at[j] = xs[i], vertex(i)
		}
		xs, vertex = top, func(j int) int { return at[j] }
	}
	if f.json {
		rows := make([]map[string]any, len(xs))
		for i, x := range xs {
			var val any = x
			if math.IsInf(x, 0) {
				val = nil
			}
			rows[i] = map[string]any{"vertex": vs.JSON(vertex(i)), key: val}
		}
		return writeJSON(e.stdout, rows)
	}
	bw := bufio.NewWriter(e.stdout)
	for i, x := range xs {
		v := vertex(i)
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if math.IsInf(x, 1) {
			s = "inf"
		}
		fmt.Fprintf(bw, "%s %s\n", vs.Text(v), s)
	}
	return bw.Flush()
}
