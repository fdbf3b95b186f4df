package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// geometricSize checks n and the mean degree d of a random geometric graph;
// the edge count is random, so m is its expectation (a size hint).
func geometricSize(p *plan) (int64, int64, error) {
	if p.n < 1 {
		return 0, 0, fmt.Errorf("n=%d: need at least 1 vertex", p.n)
	}
	if p.d < 1 || p.d >= p.n && p.n > 1 {
		return 0, 0, fmt.Errorf("d=%d: the mean degree must be between 1 and n-1", p.d)
	}
	return p.n, p.n * p.d / 2, nil
}

// genGeometric places n points uniformly in the unit square and joins the
// pairs closer than r, with r chosen so that the mean degree is about d
// (πr²n = d). Points are bucketed in a grid of r-sized cells, so the work
// is linear in n + m. Such graphs look like road networks: planar-ish, with
// a diameter of order sqrt(n/d).
func genGeometric(p *plan, rng *rand.Rand, emit func(u, v int) error) error {
	n := int(p.n)
	r := math.Sqrt(float64(p.d) / (math.Pi * float64(n)))
	cells := max(1, int(1/r))
	xs, ys := make([]float64, n), make([]float64, n)
	count := make([]int32, cells*cells+1)
	cellOf := func(x, y float64) int {
		cx, cy := min(int(x*float64(cells)), cells-1), min(int(y*float64(cells)), cells-1)
		return cy*cells + cx
	}
	for i := range n {
		xs[i], ys[i] = rng.Float64(), rng.Float64()
		count[cellOf(xs[i], ys[i])+1]++
	}
	for c := 1; c < len(count); c++ {
		count[c] += count[c-1]
	}
	order := make([]int32, n)
	fill := append([]int32(nil), count[:cells*cells]...)
	for i := range n {
		c := cellOf(xs[i], ys[i])
		order[fill[c]] = int32(i)
		fill[c]++
	}
	r2 := r * r
	for cy := range cells {
		for cx := range cells {
			here := order[count[cy*cells+cx]:count[cy*cells+cx+1]]
			// Each pair of cells once: this cell with itself and with the
			// neighbours to the right and below.
			for _, d := range [][2]int{{0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
				nx, ny := cx+d[0], cy+d[1]
				if nx < 0 || nx >= cells || ny >= cells {
					continue
				}
				there := order[count[ny*cells+nx]:count[ny*cells+nx+1]]
				for i, u := range here {
					start := 0
					if d == [2]int{0, 0} {
						start = i + 1
					}
					for _, v := range there[start:] {
						dx, dy := xs[u]-xs[v], ys[u]-ys[v]
						if dx*dx+dy*dy < r2 {
							if err := emit(int(u), int(v)); err != nil {
								return err
							}
						}
					}
				}
			}
		}
	}
	return nil
}
