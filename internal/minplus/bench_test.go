package minplus

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// benchTile times f on W×W×W tiles. With ld == W the three tiles are
// separate contiguous arrays (all of them fit in L1/L2); otherwise they are
// the (0,1), (0,2) and (2,1) blocks of one ld×ld row-major matrix, as in
// blocked Floyd–Warshall, so rows are ld elements apart.
func benchTile[T number](b *testing.B, f tileFunc[T], g gen[T], w, ld int) {
	var c, a, bm []T
	if ld == w {
		c, a, bm = make([]T, w*w), make([]T, w*w), make([]T, w*w)
		g.fill(c)
		g.fill(a)
		g.fill(bm)
	} else {
		m := make([]T, ld*(3*w))
		g.fill(m)
		c, a, bm = m[w:], m[2*w:], m[2*w*ld+w:]
	}
	b.ResetTimer()
	for b.Loop() {
		f(c, ld, a, ld, bm, ld, w, w, w)
	}
	b.ReportMetric(float64(w*w*w)*float64(b.N)/b.Elapsed().Seconds(), "relax/s")
}

// tileWidths and strides are the shapes benchmarked: W=64 is the engine's
// default tile; 2048 and 2048+16 show what a power-of-two stride costs.
var (
	tileWidths = []int{16, 32, 48, 64, 96, 128, 256}
	strides    = []int{0, 2048, 2064} // 0: contiguous tiles, named ld=W
)

func benchTiles[T number](b *testing.B, pick func(testImpl) tileFunc[T], g gen[T]) {
	for _, im := range testImpls() {
		if im.name == "api" {
			continue // same as one of the others
		}
		for _, ld := range strides {
			for _, w := range tileWidths {
				l, ldName := ld, fmt.Sprint(ld)
				if l == 0 {
					l, ldName = w, "W"
				} else if im.name == "generic" && w > 64 {
					continue // slow and says nothing new
				}
				b.Run(fmt.Sprintf("%s/ld=%s/W=%d", im.name, ldName, w), func(b *testing.B) {
					benchTile(b, pick(im), g, w, l)
				})
			}
		}
	}
}

func BenchmarkInt32(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[int32] { return im.i32 }, int32Gen(7))
}

func BenchmarkInt8(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[int8] { return im.i8 }, int8Gen(1))
}

func BenchmarkInt16(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[int16] { return im.i16 }, int16Gen(1))
}

// The Pre benchmarks include ExpandInt8's allocation and expansion of A in
// every call (pre8), what a one-off caller pays; the blocked engine expands
// each A tile once a round, so BenchmarkBlocked is its measure.
func BenchmarkInt8Pre(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[int8] { return im.p8 }, int8Gen(1))
}

func BenchmarkInt16Pre(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[int16] { return im.p16 }, int16Gen(1))
}

func BenchmarkInt64(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[int64] { return im.i64 }, int64Gen(8))
}

func BenchmarkFloat64(b *testing.B) {
	benchTiles(b, func(im testImpl) tileFunc[float64] { return im.f64 }, float64Gen(9))
}

func benchRows[T number](b *testing.B, pick func(testImpl) rowFunc[T], g gen[T]) {
	for _, im := range testImpls() {
		for _, n := range []int{16, 64, 256, 4096} {
			b.Run(fmt.Sprintf("%s/n=%d", im.name, n), func(b *testing.B) {
				dst, src := make([]T, n), make([]T, n)
				g.fill(dst)
				g.fill(src)
				f, x := pick(im), g.draw(g.rng)
				for b.Loop() {
					f(dst, src, x)
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "relax/s")
			})
		}
	}
}

func BenchmarkRelaxRowInt32(b *testing.B) {
	benchRows(b, func(im testImpl) rowFunc[int32] { return im.r32 }, int32Gen(10))
}

func BenchmarkRelaxRowInt64(b *testing.B) {
	benchRows(b, func(im testImpl) rowFunc[int64] { return im.r64 }, int64Gen(11))
}

func BenchmarkRelaxRowFloat64(b *testing.B) {
	benchRows(b, func(im testImpl) rowFunc[float64] { return im.rf64 }, float64Gen(12))
}

// BenchmarkSweepInt32 is one Floyd–Warshall round's bulk phase on a big
// matrix: every W×W tile (I,J), I,J ≥ 1, gets C(I,J) ⊕= A(I,0) ⊗ B(0,J), the
// tiles dealt round-robin to p goroutines (p=1 and p=GOMAXPROCS). Unlike
// the per-tile benchmarks the C tiles stream through the caches, so it shows
// how the tile width trades kernel speed against memory traffic (a round
// reads and writes the whole matrix: 8/W bytes per int32 relaxation) and
// what a power-of-two stride costs (ld=n versus ld=n+16).
func BenchmarkSweepInt32(b *testing.B) {
	procs := []int{1}
	if p := runtime.GOMAXPROCS(0); p > 1 {
		procs = append(procs, p)
	}
	for _, n := range []int{2048, 4096} {
		for _, pad := range []int{0, 16} {
			ld := n + pad
			m := make([]int32, n*ld)
			int32Gen(13).fill(m)
			for _, p := range procs {
				for _, w := range []int{32, 64, 128, 256} {
					b.Run(fmt.Sprintf("n=%d/ld=%d/p=%d/W=%d", n, ld, p, w), func(b *testing.B) {
						for b.Loop() {
							sweep(m, ld, n, w, p)
						}
						tiles := (n/w - 1) * (n/w - 1)
						b.ReportMetric(float64(tiles*w*w*w)*float64(b.N)/b.Elapsed().Seconds(), "relax/s")
					})
				}
			}
		}
	}
}

func sweep(m []int32, ld, n, w, procs int) {
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			t := 0
			for i := w; i < n; i += w {
				for j := w; j < n; j += w {
					if t%procs == p {
						Int32(m[i*ld+j:], ld, m[i*ld:], ld, m[j:], ld, w, w, w)
					}
					t++
				}
			}
		})
	}
	wg.Wait()
}
