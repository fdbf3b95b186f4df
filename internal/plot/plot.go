// Package plot draws the bar chart of a distance histogram (the "hop
// plot") as a PNG, with the standard library and a bitmap font.
package plot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Bars draws counts[i] as the bar at x = i for i ≥ first, with a title and
// axis labels, and writes the PNG to w.
func Bars(w io.Writer, title, xLabel, yLabel string, counts []int64, first int) error {
	const width, height = 900, 540
	const left, right, top, bottom = 90, 30, 50, 70
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	ink := color.RGBA{40, 40, 40, 255}
	bar := color.RGBA{52, 101, 164, 255}
	grid := color.RGBA{225, 225, 225, 255}
	if first > len(counts) {
		first = len(counts)
	}
	vals := counts[first:]
	var most int64 = 1
	for _, c := range vals {
		most = max(most, c)
	}
	plotW, plotH := width-left-right, height-top-bottom
	// Horizontal grid lines and y labels at five even steps.
	for i := 0; i <= 5; i++ {
		y := top + plotH - plotH*i/5
		fill(img, left, y, width-right, y+1, grid)
		label(img, fmt.Sprint(int64(math.Round(float64(most)*float64(i)/5))), left-8, y+4, ink, alignRight)
	}
	if len(vals) > 0 {
		slot := float64(plotW) / float64(len(vals))
		gap := int(math.Max(1, slot*0.15))
		step := max(1, int(math.Ceil(float64(len(vals))/20))) // at most ~20 x labels
		for i, c := range vals {
			x0 := left + int(float64(i)*slot)
			x1 := left + int(float64(i+1)*slot) - gap
			h := int(float64(plotH) * float64(c) / float64(most))
			fill(img, x0, top+plotH-h, max(x1, x0+1), top+plotH, bar)
			if i%step == 0 {
				label(img, fmt.Sprint(i+first), (x0+x1)/2, top+plotH+18, ink, alignCenter)
			}
		}
	}
	fill(img, left, top, left+1, top+plotH, ink)
	fill(img, left, top+plotH, width-right, top+plotH+1, ink)
	label(img, title, width/2, 28, ink, alignCenter)
	label(img, xLabel, left+plotW/2, height-22, ink, alignCenter)
	label(img, yLabel, 12, top-14, ink, alignLeft)
	return png.Encode(w, img)
}

func fill(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	draw.Draw(img, image.Rect(x0, y0, x1, y1), &image.Uniform{c}, image.Point{}, draw.Src)
}

type align int

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

func label(img *image.RGBA, s string, x, y int, c color.Color, a align) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13}
	w := d.MeasureString(s).Ceil()
	switch a {
	case alignCenter:
		x -= w / 2
	case alignRight:
		x -= w
	}
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
}
