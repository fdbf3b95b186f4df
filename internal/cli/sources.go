package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/encode"
	"github.com/apsp/apsp/graph"
)

// sourcesOf reads --sources: a comma-separated list of vertices, or
// @FILE with one a line (or separated by spaces or commas; # starts a
// comment), by name when the graph names its vertices, else by id in the
// file's numbering. nil when the flag is not given.
func (f *flagSet) sourcesOf(g *graph.Graph, path string) ([]int, error) {
	return f.verticesOf("sources", f.sources, g, path)
}

// targetsOf reads --targets as sourcesOf reads --sources.
func (f *flagSet) targetsOf(g *graph.Graph, path string) ([]int, error) {
	return f.verticesOf("targets", f.targets, g, path)
}

// pairsOf reads --sources and --targets; when either is given it prints
// with --explain the plan of the searches DistancesBetween makes (from
// the shorter list) and reports chosen true.
func (f *flagSet) pairsOf(e *env, g *graph.Graph, path string, opt apsp.Options) (sources, targets []int, chosen bool, err error) {
	if sources, err = f.sourcesOf(g, path); err != nil {
		return nil, nil, false, err
	}
	if targets, err = f.targetsOf(g, path); err != nil {
		return nil, nil, false, err
	}
	if sources == nil && targets == nil {
		return nil, nil, false, nil
	}
	shown := opt
	shown.Sources = sources
	if fromTargets(g.N(), sources, targets) {
		// The searches go from the targets, against the arcs (as
		// apsp.DistancesBetween runs them): the plan shown is that one's.
		shown.Sources = targets
		switch opt.Mode {
		case "", "default", "out":
			shown.Mode = "in"
		case "in":
			shown.Mode = "out"
		}
	}
	return sources, targets, true, f.printChoice(e, "dist", g, shown)
}

// fromTargets reports whether apsp.DistancesBetween searches from the
// targets (fewer than the rows asked for: the sources, or every vertex).
func fromTargets(n int, sources, targets []int) bool {
	if targets == nil {
		return false
	}
	if sources == nil {
		return len(targets) < n
	}
	return len(targets) < len(sources)
}

// verticesOf reads the list spec of flag --name (see sourcesOf).
func (f *flagSet) verticesOf(name, spec string, g *graph.Graph, path string) ([]int, error) {
	if spec == "" {
		return nil, nil
	}
	var fields []string
	if file, ok := strings.CutPrefix(spec, "@"); ok {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", name, err)
		}
		for line := range strings.SplitSeq(string(data), "\n") {
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			if g.Names() != nil { // a name may hold spaces: one a line
				if s := strings.TrimSpace(line); s != "" {
					fields = append(fields, s)
				}
				continue
			}
			fields = append(fields, strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })...)
		}
	} else {
		for s := range strings.SplitSeq(spec, ",") {
			fields = append(fields, strings.TrimSpace(s))
		}
	}
	vs := f.namer(path)
	out := make([]int, 0, len(fields))
	for _, s := range fields {
		if g.Names() != nil {
			v, ok := g.VertexNamed(s)
			if !ok {
				return nil, fmt.Errorf("--%s: %s: no vertex is named %q", name, path, s)
			}
			out = append(out, v)
			continue
		}
		v, ok := vs.Parse(s, g.N())
		if !ok {
			if _, err := strconv.Atoi(s); err != nil {
				return nil, usagef("--%s: vertex %q is not an integer (vertex names need --labels or a format that names vertices)", name, s)
			}
			return nil, usagef("--%s: vertex %s out of range %d..%d", name, s, vs.Base, g.N()-1+vs.Base)
		}
		out = append(out, v)
	}
	return out, nil
}

// writeSourceTSV writes an origin–destination matrix as a labelled table:
// a header row of the targets, or of every vertex (after an empty cell),
// then a row a source beginning with its label; vertices as the file
// names or counts them.
func writeSourceTSV(w io.Writer, d *apsp.SourceDistances, vs encode.Vertices) error {
	bw := bufio.NewWriter(w)
	for j := range d.Cols() {
		v := j
		if d.Targets != nil {
			v = d.Targets[j]
		}
		s := vs.Text(v)
		if strings.ContainsAny(s, "\t\r\n") {
			return fmt.Errorf("vertex name %q holds a tab or a line break, which TSV cannot hold", s)
		}
		bw.WriteByte('\t')
		bw.WriteString(s)
	}
	bw.WriteByte('\n')
	var row []apsp.Length
	var b []byte
	for i, s := range d.Sources {
		row = d.Row(i, row)
		b = append(b[:0], vs.Text(s)...)
		for _, x := range row {
			b = append(b, '\t')
			b = x.Append(b)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeEstimate prints stats --sample: JSON, whose estimates say
// "estimate": true, or text marking them ≈ and ≥.
func writeEstimate(e *env, f *flagSet, est *apsp.Estimate) error {
	if f.json {
		return writeJSON(e.stdout, est)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	kind := "undirected"
	if est.Directed {
		kind = "directed"
	}
	fmt.Fprintf(tw, "vertices\t%d\n", est.Vertices)
	fmt.Fprintf(tw, "edges\t%d (%s, %d arcs)\n", est.Edges, kind, est.Arcs)
	conn := "connected"
	if est.Directed {
		conn = "strongly connected"
	}
	fmt.Fprintf(tw, "%s\t%s\n", conn, map[bool]string{true: "yes", false: "no"}[est.Connected])
	if est.Reachable {
		fmt.Fprintf(tw, "measures over\treachable pairs only\n")
	}
	sample := fmt.Sprintf("%d of %d sources sampled, seed %d", est.Sample, est.Vertices, est.Seed)
	switch {
	case !est.ASPL.Estimate:
		fmt.Fprintf(tw, "aspl\t%v (exact: not connected)\n", est.ASPL.Value)
		fmt.Fprintf(tw, "diameter\t%v (exact: not connected)\n", est.DiameterLowerBound)
	default:
		fmt.Fprintf(tw, "aspl\t≈ %v (95 %% confidence %v..%v; %s)\n", est.ASPL.Value, est.ASPL.Low, est.ASPL.High, sample)
		fmt.Fprintf(tw, "diameter\t≥ %v (the largest eccentricity of a sampled source)\n", est.DiameterLowerBound)
	}
	fmt.Fprintf(tw, "algorithm\t%s (cpu, %d threads)\n", est.Algorithm, est.Threads)
	fmt.Fprintf(tw, "seconds\t%.3f\n", est.Seconds)
	return tw.Flush()
}

// writeEstimates prints a value a vertex estimated: "vertex ≈ value
// (95 % lo..hi)" lines, or with --json a list of {"vertex": …, key:
// {"value", "ci95_low", "ci95_high", "estimate": true}}.
func writeEstimates(e *env, f *flagSet, path, key string, est []apsp.Interval) error {
	vs := f.namer(path)
	if f.json {
		rows := make([]map[string]any, len(est))
		for v, x := range est {
			rows[v] = map[string]any{"vertex": vs.JSON(v), key: x}
		}
		return writeJSON(e.stdout, rows)
	}
	bw := bufio.NewWriter(e.stdout)
	for v, x := range est {
		fmt.Fprintf(bw, "%s ≈ %v (95 %% %v..%v)\n", vs.Text(v), x.Value, x.Low, x.High)
	}
	return bw.Flush()
}
