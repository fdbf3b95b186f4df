package hopplot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Format is an output format, named as the file extension that asks for it.
type Format string

// The formats Draw writes.
const (
	SVG Format = "svg"
	PDF Format = "pdf"
	PNG Format = "png"
)

// Formats lists the extensions FormatOf takes, for messages. gonum also
// writes EPS, but its header line is malformed ("%%!PS-Adobe"), so it is
// left out.
const Formats = ".svg, .pdf or .png"

// ErrFormat is wrapped by FormatOf's error for an extension it does not draw.
var ErrFormat = errors.New("unknown plot format")

// FormatOf returns the format that path's extension names (any case).
func FormatOf(path string) (Format, error) {
	switch f := Format(strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")); f {
	case SVG, PDF, PNG:
		return f, nil
	}
	return "", fmt.Errorf("%s: %w (name it %s)", path, ErrFormat, Formats)
}

// Options say what Draw draws.
type Options struct {
	Format Format
	// Title heads the plot (the graph's file); Draw adds a line with the
	// number of reachable and unreachable pairs.
	Title string
	// Weighted labels the x axis "distance" rather than "distance (hops)".
	Weighted bool
	// Log draws the y axis on a log scale (the zero counts are left out).
	Log bool
	// Cumulative draws the fraction of reachable pairs within each
	// distance rather than the number of pairs at it.
	Cumulative bool
}

// The drawing's size: 96 dots an inch in PNG, 768×480 pixels.
const width, height = 8 * vg.Inch, 5 * vg.Inch

// Draw writes the plot of a distance histogram: count[d] ordered pairs at
// distance d (count[0] counts distinct vertices joined at length 0, drawn
// only when some are) and unreachable pairs without a path.
func Draw(w io.Writer, count []int64, unreachable int64, opt Options) (err error) {
	switch opt.Format {
	case SVG, PDF, PNG:
	default:
		return fmt.Errorf("hop plot: format %q: %w", opt.Format, ErrFormat)
	}
	for d, c := range count {
		if c < 0 {
			return fmt.Errorf("hop plot: %d pairs at distance %d", c, d)
		}
	}
	// gonum/plot panics on some inputs (a log axis over non-positive
	// values); the ranges below keep clear of them, and this turns any
	// that remains into an error rather than a crashed command.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("hop plot: drawing failed: %v", r)
		}
	}()
	p := build(count, unreachable, opt)
	wt, err := p.WriterTo(width, height, string(opt.Format))
	if err != nil {
		return fmt.Errorf("hop plot: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("hop plot: writing %s: %w", opt.Format, err)
	}
	return nil
}

// build lays out the plot: the points, the axes and their ranges, which
// are set here rather than left to gonum so that an empty histogram or a
// log axis gets a valid range.
func build(count []int64, unreachable int64, opt Options) *plot.Plot {
	first := 1
	if len(count) > 0 && count[0] > 0 {
		first = 0
	}
	var reachable int64
	for _, c := range count[min(first, len(count)):] {
		reachable += c
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s\n%d reachable ordered pairs, %d unreachable", opt.Title, reachable, unreachable)
	p.X.Label.Text = "distance (hops)"
	if opt.Weighted {
		p.X.Label.Text = "distance"
	}
	p.Y.Label.Text = "pairs"
	if opt.Cumulative {
		p.Y.Label.Text = "fraction of reachable pairs within distance"
	}

	// xs, ys are the values drawn: zero counts are left out on a log axis.
	var xs, ys []float64
	var cum int64
	for d := first; d < len(count); d++ {
		y := float64(count[d])
		if opt.Cumulative {
			cum += count[d]
			y = float64(cum) / float64(max(reachable, 1))
		}
		if opt.Log && y <= 0 {
			continue
		}
		xs, ys = append(xs, float64(d)), append(ys, y)
	}
	last := float64(max(len(count)-1, first+1))
	p.X.Min, p.X.Max = float64(first)-0.5, last+0.5
	p.X.Tick.Marker = plot.TickerFunc(intTicks)

	top := 1.0
	for _, y := range ys {
		top = max(top, y)
	}
	if opt.Log {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		bottom := 0.5 // below a count of 1, so that its bar shows
		if opt.Cumulative {
			bottom = 1.0
			for _, y := range ys {
				bottom = min(bottom, y)
			}
			bottom /= 2
		}
		p.Y.Min, p.Y.Max = bottom, top*1.5
	} else {
		p.Y.Tick.Marker = plot.TickerFunc(shortTicks)
		p.Y.Min, p.Y.Max = 0, top*1.05
		if opt.Cumulative {
			p.Y.Max = 1.05
		}
	}
	p.Add(plotter.NewGrid())
	if len(xs) == 0 {
		return p
	}
	if opt.Cumulative {
		// The hop plot is a curve: its points joined.
		pts := make(plotter.XYs, len(xs))
		for i := range xs {
			pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
		}
		if line, points, err := plotter.NewLinePoints(pts); err == nil {
			line.Color, points.Color = ink, ink
			points.Shape = draw.CircleGlyph{}
			p.Add(line, points)
		}
		return p
	}
	p.Add(&bars{xs: xs, ys: ys, base: p.Y.Min})
	return p
}

var ink = color.RGBA{52, 101, 164, 255}

// bars draws a bar from base to y at each x. gonum's BarChart starts its
// bars at 0, which a log axis cannot place.
type bars struct {
	xs, ys []float64
	base   float64
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	// Each bar is 80% of the space a distance has, at least a hairline.
	w := max((trX(1)-trX(0))*0.8, 0.5)
	for i, x := range b.xs {
		cx, y0, y1 := trX(x), trY(b.base), trY(b.ys[i])
		rect := []vg.Point{{X: cx - w/2, Y: y0}, {X: cx + w/2, Y: y0}, {X: cx + w/2, Y: y1}, {X: cx - w/2, Y: y1}}
		c.FillPolygon(ink, c.ClipPolygonXY(rect))
	}
}

// shortTicks are gonum's default ticks labelled without trailing zeros
// (500, not 500.00).
func shortTicks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, tk := range ticks {
		if tk.Label != "" {
			ticks[i].Label = strconv.FormatFloat(tk.Value, 'f', -1, 64)
		}
	}
	return ticks
}

// intTicks marks whole distances only: a step of 1, 2 or 5 times a power
// of ten, chosen for at most about ten labels.
func intTicks(lo, hi float64) []plot.Tick {
	first, last := math.Ceil(lo), math.Floor(hi)
	if last < first {
		return nil
	}
	step := 1.0
	for k := 0; (last-first)/step > 10 && k < 60; k++ {
		switch m := step / math.Pow(10, math.Floor(math.Log10(step))); {
		case m < 1.5:
			step *= 2
		case m < 3:
			step = step / 2 * 5
		default:
			step *= 2
		}
	}
	var ticks []plot.Tick
	for x := math.Ceil(first/step) * step; x <= last; x += step {
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', 0, 64)})
	}
	return ticks
}
