package bounds

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apsp/apsp/graph"
)

// gridGraph is the side×side 4-neighbour grid, vertex i*side+j.
func gridGraph(tb testing.TB, side int) *graph.Graph {
	tb.Helper()
	b := graph.NewBuilder(false)
	if err := b.SetVertices(side * side); err != nil {
		tb.Fatal(err)
	}
	b.Grow(2 * side * side)
	for i := range side {
		for j := range side {
			v := i*side + j
			if j+1 < side {
				if err := b.AddEdge(v, v+1); err != nil {
					tb.Fatal(err)
				}
			}
			if i+1 < side {
				if err := b.AddEdge(v, v+side); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	return b.Build()
}

// geometricGraph is a random geometric graph: n points uniform in the unit
// square, joined when at most r apart, with r set for an average degree of
// about deg (n·π·r² ignoring the border). Points are bucketed into cells of
// side >= r, so only the 3×3 neighbouring cells are compared: O(n) work.
func geometricGraph(tb testing.TB, n int, deg float64, seed uint64) *graph.Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	r := math.Sqrt(deg / (math.Pi * float64(n)))
	k := max(1, int(1/r)) // cells per side
	xs, ys := make([]float64, n), make([]float64, n)
	cell := make([]int32, n)
	start := make([]int32, k*k+1)
	for i := range n {
		xs[i], ys[i] = rng.Float64(), rng.Float64()
		cx, cy := min(int(xs[i]*float64(k)), k-1), min(int(ys[i]*float64(k)), k-1)
		cell[i] = int32(cy*k + cx)
		start[cell[i]+1]++
	}
	for c := range k * k {
		start[c+1] += start[c]
	}
	byCell := make([]int32, n)
	fill := append([]int32(nil), start[:k*k]...)
	for i := range n {
		byCell[fill[cell[i]]] = int32(i)
		fill[cell[i]]++
	}
	b := graph.NewBuilder(false)
	if err := b.SetVertices(n); err != nil {
		tb.Fatal(err)
	}
	b.Grow(int(float64(n) * deg / 2 * 1.1))
	r2 := r * r
	for cy := range k {
		for cx := range k {
			a := byCell[start[cy*k+cx]:start[cy*k+cx+1]]
			// Each pair of cells once: this cell with itself and with
			// four of its eight neighbours.
			for _, d := range [][2]int{{0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
				nx, ny := cx+d[0], cy+d[1]
				if nx < 0 || nx >= k || ny >= k {
					continue
				}
				same := d == [2]int{0, 0}
				bs := byCell[start[ny*k+nx]:start[ny*k+nx+1]]
				for ai, p := range a {
					if same {
						bs = a[ai+1:]
					}
					for _, q := range bs {
						dx, dy := xs[p]-xs[q], ys[p]-ys[q]
						if dx*dx+dy*dy <= r2 {
							if err := b.AddEdge(int(p), int(q)); err != nil {
								tb.Fatal(err)
							}
						}
					}
				}
			}
		}
	}
	return b.Build()
}

// largestComponent returns the subgraph induced by the largest connected
// component of an undirected graph.
func largestComponent(tb testing.TB, g *graph.Graph) *graph.Graph {
	tb.Helper()
	n := g.N()
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	var sizes []int
	var stack []int32
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		c := int32(len(sizes))
		comp[s] = c
		size := 0
		stack = append(stack[:0], int32(s))
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for _, v := range g.Neighbors(int(u)) {
				if comp[v] < 0 {
					comp[v] = c
					stack = append(stack, v)
				}
			}
		}
		sizes = append(sizes, size)
	}
	big := int32(0)
	for c, sz := range sizes {
		if sz > sizes[big] {
			big = int32(c)
		}
	}
	id := make([]int, n)
	k := 0
	for v := range n {
		if comp[v] == big {
			id[v] = k
			k++
		}
	}
	b := graph.NewBuilder(false)
	if err := b.SetVertices(k); err != nil {
		tb.Fatal(err)
	}
	for u := range n {
		if comp[u] != big {
			continue
		}
		for _, v := range g.Neighbors(u) {
			if int(v) > u {
				if err := b.AddEdge(id[u], id[v]); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	return b.Build()
}

func benchDiameter(b *testing.B, g *graph.Graph, opt Options, st strategy) {
	var res Result
	for b.Loop() {
		var err error
		if res, err = diameter(context.Background(), g, opt, st); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Traversals), "bfs")
	b.ReportMetric(float64(res.Diameter), "diameter")
	if opt.WantRadius {
		b.ReportMetric(float64(res.Radius), "radius")
	}
}

// benchVariants runs the default algorithm (bounding diameters) with and
// without the radius, and iFUB for comparison.
func benchVariants(b *testing.B, g *graph.Graph, reachable bool) {
	for _, v := range []struct {
		name string
		opt  Options
		st   strategy
	}{
		{"diameter", Options{}, boundingDiameters},
		{"diameter+radius", Options{WantRadius: true}, boundingDiameters},
		{"ifub-diameter", Options{}, ifub},
		{"ifub-diameter+radius", Options{WantRadius: true}, ifub},
	} {
		v.opt.Reachable = reachable
		b.Run(v.name, func(b *testing.B) { benchDiameter(b, g, v.opt, v.st) })
	}
}

// BenchmarkGrid1000 is the 1000×1000 grid: 10^6 vertices, about 2·10^6
// edges, diameter 1998, radius 1000.
func BenchmarkGrid1000(b *testing.B) {
	benchVariants(b, gridGraph(b, 1000), false)
}

// BenchmarkGeometric1e6 is a random geometric graph of 10^6 points with
// average degree about 6: "lcc" is its largest component (about 98.7% of
// the vertices), "all" the whole graph with Options.Reachable, where each
// of the ~4,900 small components costs a search or two.
func BenchmarkGeometric1e6(b *testing.B) {
	g := geometricGraph(b, 1_000_000, 6, 1)
	b.Run("lcc", func(b *testing.B) { benchVariants(b, largestComponent(b, g), false) })
	b.Run("all", func(b *testing.B) { benchVariants(b, g, true) })
}

// oneWayGraph is geometricGraph with each edge made one arc either way
// (a quarter each) or kept both ways (half): a digraph with a giant
// strongly connected component and many small ones, so the directed
// solver's transpose, pivot passes and per-component searches all run.
func oneWayGraph(tb testing.TB, n int, deg float64, seed uint64) *graph.Graph {
	tb.Helper()
	geo := geometricGraph(tb, n, deg, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	b := graph.NewBuilder(true)
	if err := b.SetVertices(n); err != nil {
		tb.Fatal(err)
	}
	b.Grow(geo.Arcs())
	add := func(u, v int) {
		if err := b.AddEdge(u, v); err != nil {
			tb.Fatal(err)
		}
	}
	for u := range n {
		for _, v := range geo.Neighbors(u) {
			if int(v) > u {
				switch rng.IntN(4) {
				case 0:
					add(u, int(v))
				case 1:
					add(int(v), u)
				default:
					add(u, int(v))
					add(int(v), u)
				}
			}
		}
	}
	return b.Build()
}

// BenchmarkOneWay3e5 is oneWayGraph with 3·10^5 vertices and average
// degree about 7, with Options.Reachable: the directed solver.
func BenchmarkOneWay3e5(b *testing.B) {
	benchVariants(b, oneWayGraph(b, 300_000, 7, 1), true)
}
