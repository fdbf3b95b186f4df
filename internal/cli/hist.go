package cli

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/internal/plot"
)

func runHist(e *env, args []string) error {
	f, _ := newFlags("hist")
	pos, err := f.parse(e, mustCommand("hist"), args, 1, 1)
	if err != nil {
		return err
	}
	if f.out != "" && !strings.HasSuffix(strings.ToLower(f.out), ".png") {
		return usagef("-o %s: the chart is written as PNG (name it .png)", f.out)
	}
	opt, bar, err := f.options(e, "hist")
	if err != nil {
		return err
	}
	// The chart's file is created before anything is computed, and put in
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
	if err := f.printChoice(e, "hist", g, opt); err != nil {
		return err
	}
	h, err := apsp.DistanceHistogram(e.ctx, g, opt)
	bar.Done()
	if err != nil {
		return f.explain(err, pos[0])
	}
	if f.json {
		if err := writeJSON(e.stdout, h); err != nil {
			return err
		}
	} else {
		bw := bufio.NewWriter(e.stdout)
		n := int64(g.N())
		pairs := float64(max(n*(n-1), 1)) // one vertex: no pair, fractions 0
		var cum int64
		fmt.Fprintf(bw, "%-9s %14s %9s %9s\n", "distance", "pairs", "fraction", "cumul.")
		for d, c := range h.Count {
			if d == 0 {
				continue
			}
			cum += c
			fmt.Fprintf(bw, "%-9d %14d %9.6f %9.6f\n", d, c, float64(c)/pairs, float64(cum)/pairs)
		}
		fmt.Fprintf(bw, "%-9s %14d %9.6f\n", "inf", h.Unreachable, float64(h.Unreachable)/pairs)
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	if f.out == "" {
		return nil
	}
	title := fmt.Sprintf("%s: shortest-path lengths over %d ordered pairs", pos[0], int64(g.N())*int64(g.N()-1)-h.Unreachable)
	return out.finish(plot.Bars(out, title, "distance", "pairs", h.Count, 1))
}
