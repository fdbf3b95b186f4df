package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/internal/hopplot"
)

func runHist(e *env, args []string) error {
	f, _ := newFlags("hist")
	pos, err := f.parse(e, mustCommand("hist"), args, 1, 1)
	if err != nil {
		return err
	}
	var format hopplot.Format
	if f.out != "" {
		if format, err = hopplot.FormatOf(f.out); err != nil {
			return usagef("-o %s: the plot's format follows the extension: name it %s", f.out, hopplot.Formats)
		}
	} else if f.logY || f.cumulative {
		return usagef("--log and --cumulative shape the plot: give -o FILE (%s)", hopplot.Formats)
	}
	if f.json && f.csv {
		return usagef("--json and --csv: choose one")
	}
	opt, bar, err := f.options(e, "hist")
	if err != nil {
		return err
	}
	// The plot's file is created before anything is computed, and put in
	// place only once drawn.
	var out *outFile
	if f.out != "" {
		if out, err = createOutput(e, f.out); err != nil {
			return err
		}
		defer out.abort()
	}
	g, err := f.readGraph(e, pos[0])
	if err != nil {
		return err
	}
	sources, targets, chosen, err := f.pairsOf(e, g, pos[0], opt)
	if err != nil {
		return err
	}
	var h *apsp.Histogram
	if chosen {
		h, err = apsp.DistanceHistogramBetween(e.ctx, g, sources, targets, opt)
	} else {
		if err := f.printChoice(e, "hist", g, opt); err != nil {
			return err
		}
		h, err = apsp.DistanceHistogram(e.ctx, g, opt)
	}
	bar.Done()
	if err != nil {
		return f.explain(err, pos[0])
	}
	switch {
	case f.json:
		err = writeJSON(e.stdout, h)
	case f.csv:
		err = writeHistCSV(e.stdout, h)
	default:
		err = writeHistTable(e.stdout, h)
	}
	if err != nil || f.out == "" {
		return err
	}
	title := pos[0]
	if title == "-" {
		title = "stdin"
	}
	return out.finish(hopplot.Draw(out, h.Count, h.Unreachable, hopplot.Options{
		Format: format, Title: title, Weighted: g.Weighted(), Log: f.logY, Cumulative: f.cumulative,
	}))
}

// writeHistTable prints the histogram as apsp hist always has: distance,
// pairs, and their fraction and cumulative fraction of all the pairs
// counted (n(n-1), or the chosen ones).
func writeHistTable(w io.Writer, h *apsp.Histogram) error {
	bw := bufio.NewWriter(w)
	total := h.Unreachable
	for _, c := range h.Count {
		total += c
	}
	pairs := float64(max(total, 1)) // no pair: fractions 0
	var cum int64
	fmt.Fprintf(bw, "%-9s %14s %9s %9s\n", "distance", "pairs", "fraction", "cumul.")
	for d, c := range h.Count {
		if d == 0 && c == 0 {
			continue // distance 0 only where zero-length arcs join distinct vertices
		}
		cum += c
		fmt.Fprintf(bw, "%-9d %14d %9.6f %9.6f\n", d, c, float64(c)/pairs, float64(cum)/pairs)
	}
	fmt.Fprintf(bw, "%-9s %14d %9.6f\n", "inf", h.Unreachable, float64(h.Unreachable)/pairs)
	return bw.Flush()
}

// writeHistCSV prints the histogram as CSV: a distance,pairs header, a row
// per distance from 1 to the largest (zeros included, so that the rows are
// the x axis of a plot), distance 0 first only when zero-length arcs join
// distinct vertices, and last the unreachable pairs at distance inf (the
// word inf, as TSV matrices and bulk --csv write it).
func writeHistCSV(w io.Writer, h *apsp.Histogram) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("distance,pairs\n")
	for d, c := range h.Count {
		if d == 0 && c == 0 {
			continue
		}
		fmt.Fprintf(bw, "%d,%d\n", d, c)
	}
	fmt.Fprintf(bw, "inf,%d\n", h.Unreachable)
	return bw.Flush()
}
