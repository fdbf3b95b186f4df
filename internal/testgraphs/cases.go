package testgraphs

import (
	"math"
	"strconv"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/reduce"
)

// Inf is the distance of a pair without a path, in Dist and in the
// measures.
var Inf = math.Inf(1)

// Measures are the summary measures of a graph by apsp's definitions
// (README, "Definitions"), over every pair (Case.Strict) or over the
// pairs that have a path (Case.Reachable).
type Measures struct {
	// Ecc[u] is the largest distance from u to another vertex (which may
	// be negative with negative arcs): Inf when u misses one (strict), 0
	// when u reaches none (reachable, and a lone vertex).
	Ecc []float64
	// Radius is the smallest eccentricity. Diameter is Inf when some pair
	// has no path (strict), else the largest eccentricity of a vertex that
	// reaches another (0 when none does).
	Radius, Diameter float64
	// ASPL is Case.Total / Case.Pairs: Inf when some pair has no path
	// (strict), NaN without a pair.
	ASPL float64
	// Center holds the vertices whose eccentricity is the radius (none
	// when it is infinite), Periphery those whose eccentricity is the
	// diameter, in increasing order.
	Center, Periphery []int
}

// Case is a named graph with its known answers. The graph and the slices
// are shared by every test: none may be modified.
type Case struct {
	Name     string
	N        int
	Directed bool
	Kind     graph.WeightKind
	// Edges are the edges as given to the builder, parallel edges and
	// self-loops included.
	Edges []Edge
	Graph *graph.Graph
	// Source says how the answers were derived.
	Source string

	// NegativeCycle, when not nil, is a negative cycle of the graph in
	// order (a negative self-loop is one vertex), and every closed walk of
	// negative length passes only through its vertices: an engine that
	// takes negative arcs must refuse the graph naming one of them. The
	// answers below are then unset.
	NegativeCycle []int

	// Dist[u][v] is the distance from u to v, Inf without a path.
	Dist [][]float64
	// Connected says that every vertex reaches every other (strongly, when
	// directed); a lone vertex is connected.
	Connected bool
	// Pairs counts the ordered pairs u ≠ v with a path; Total is the sum
	// of their distances.
	Pairs int64
	Total float64
	// Strict and Reachable are the measures over every pair and over the
	// pairs with a path.
	Strict, Reachable Measures
}

// Exact reports whether the case's distances are integers (no float
// weights): engines in integer lanes must give them exactly.
func (c *Case) Exact() bool { return c.Kind != graph.FloatWeights }

// Rows returns the summary of every source's distances (reduce.Row) as
// the engines report it: exact fields (MaxI, Sum) when exact, float ones
// (MaxF, SumF) otherwise.
func (c *Case) Rows(exact bool) []reduce.Row {
	rows := make([]reduce.Row, c.N)
	for u, row := range c.Dist {
		r := &rows[u]
		for v, d := range row {
			switch {
			case u == v:
			case math.IsInf(d, 1):
				r.Unreach = true
			case exact:
				r.AddInt(int64(d))
			default:
				r.AddFloat(d)
			}
		}
	}
	return rows
}

// Hist returns the number of ordered pairs u ≠ v at each distance (index
// 0: the pairs at distance 0), up to the largest; nil for a case whose
// distances are not all non-negative integers below 2¹⁶.
func (c *Case) Hist() []int64 {
	if !c.Exact() || c.NegativeCycle != nil {
		return nil
	}
	hist := []int64{0}
	for u, row := range c.Dist {
		for v, d := range row {
			if u == v || math.IsInf(d, 1) {
				continue
			}
			if d < 0 || d >= 1<<16 {
				return nil
			}
			for int(d) >= len(hist) {
				hist = append(hist, 0)
			}
			hist[int(d)]++
		}
	}
	return hist
}

// OnNegativeCycle reports whether v is on the case's negative cycle.
func (c *Case) OnNegativeCycle(v int) bool {
	for _, x := range c.NegativeCycle {
		if x == v {
			return true
		}
	}
	return false
}

// Named returns the case called name, and whether there is one.
func Named(name string) (*Case, bool) {
	for i := range Cases {
		if Cases[i].Name == name {
			return &Cases[i], true
		}
	}
	return nil, false
}

// Cases is the table. Every test that runs an engine runs it on each case
// the engine takes.
var Cases = table()

func table() []Case {
	cs := []Case{
		oneVertex(),
		twoIsolated(),
		singleArc(),
		path(5),
		cycle(6),
		directedCycle(5),
		star(6),
		complete(5),
		petersen(),
		grid(3, 4),
		grid(11, 12),
		karate(),
		disconnected(),
		notStrong(),
		intWeights(),
		directedIntWeights(),
		largeWeights(),
		floatWeights(),
		negativeArcs(),
		negativePath(),
		negativeCycle(),
		negativeSelfLoop(),
		negativeUndirected(),
		loopsAndParallel(),
		loopsAndParallelUnweighted(),
	}
	for i := range cs {
		c := &cs[i]
		c.Graph = Build(c.N, c.Directed, c.Kind, c.Edges)
	}
	return cs
}

// unit turns pairs into unweighted edges.
func unit(pairs ...[2]int) []Edge {
	es := make([]Edge, len(pairs))
	for i, p := range pairs {
		es[i] = Edge{U: p[0], V: p[1]}
	}
	return es
}

// same is the measures of a connected graph, which are the same over
// every pair and over the pairs with a path.
func same(m Measures) (strict, reachable Measures) { return m, m }

// all lists 0..n-1.
func all(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// matrix builds an n×n distance matrix from a closed form.
func matrix(n int, d func(u, v int) float64) [][]float64 {
	m := make([][]float64, n)
	for u := range m {
		m[u] = make([]float64, n)
		for v := range m[u] {
			m[u][v] = d(u, v)
		}
	}
	return m
}

func oneVertex() Case {
	// By hand: no pair at all. The graph is connected (all 0 ordered pairs
	// have a path); the lone vertex's eccentricity is 0 both ways, so it
	// is the center and the periphery; the ASPL is a mean over no pair.
	m := Measures{Ecc: []float64{0}, Radius: 0, Diameter: 0, ASPL: math.NaN(), Center: []int{0}, Periphery: []int{0}}
	c := Case{Name: "one vertex", N: 1, Source: "by hand",
		Dist: [][]float64{{0}}, Connected: true}
	c.Strict, c.Reachable = same(m)
	return c
}

func twoIsolated() Case {
	// By hand: neither vertex reaches the other. Strictly both
	// eccentricities are infinite (no center; both peripheral); over the
	// reachable pairs both are 0, no vertex reaches another so the
	// diameter is 0, and there is no pair to average.
	return Case{Name: "two isolated vertices", N: 2, Source: "by hand",
		Dist:      [][]float64{{0, Inf}, {Inf, 0}},
		Strict:    Measures{Ecc: []float64{Inf, Inf}, Radius: Inf, Diameter: Inf, ASPL: Inf, Periphery: []int{0, 1}},
		Reachable: Measures{Ecc: []float64{0, 0}, Radius: 0, Diameter: 0, ASPL: math.NaN(), Center: []int{0, 1}, Periphery: []int{0, 1}},
	}
}

func singleArc() Case {
	// By hand: the arc 0→1. Strictly ecc(0) = 1 and ecc(1) = Inf: radius 1
	// with center {0}, an infinite diameter with periphery {1}. Over the
	// reachable pairs ecc(1) = 0 (it reaches none): radius 0, center {1};
	// the diameter is 1 (only 0 reaches another), periphery {0}.
	return Case{Name: "single arc", N: 2, Directed: true, Edges: unit([2]int{0, 1}), Source: "by hand",
		Dist:      [][]float64{{0, 1}, {Inf, 0}},
		Pairs:     1,
		Total:     1,
		Strict:    Measures{Ecc: []float64{1, Inf}, Radius: 1, Diameter: Inf, ASPL: Inf, Center: []int{0}, Periphery: []int{1}},
		Reachable: Measures{Ecc: []float64{1, 0}, Radius: 0, Diameter: 1, ASPL: 1, Center: []int{1}, Periphery: []int{0}},
	}
}

func path(n int) Case {
	// Closed form: d(i, j) = |i − j|; ecc(i) = max(i, n−1−i); the ordered
	// pairs at distance k number 2(n−k), so the total is
	// Σ 2k(n−k) = n(n²−1)/3.
	var es []Edge
	for i := 0; i+1 < n; i++ {
		es = append(es, Edge{U: i, V: i + 1})
	}
	ecc := make([]float64, n)
	for i := range ecc {
		ecc[i] = float64(max(i, n-1-i))
	}
	center := []int{n / 2}
	if n%2 == 0 {
		center = []int{n/2 - 1, n / 2}
	}
	pairs := int64(n * (n - 1))
	total := float64(n * (n*n - 1) / 3)
	c := Case{Name: "path " + strconv.Itoa(n), N: n, Edges: es, Source: "closed form",
		Dist:      matrix(n, func(u, v int) float64 { return math.Abs(float64(u - v)) }),
		Connected: true, Pairs: pairs, Total: total}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: float64(n / 2), Diameter: float64(n - 1),
		ASPL: total / float64(pairs), Center: center, Periphery: []int{0, n - 1}})
	return c
}

func cycle(n int) Case {
	// Closed form: d(i, j) = min(|i − j|, n − |i − j|); every eccentricity
	// ⌊n/2⌋; from each vertex two vertices at each distance below n/2 and
	// one at n/2 when n is even.
	var es []Edge
	for i := range n {
		es = append(es, Edge{U: i, V: (i + 1) % n})
	}
	ecc := make([]float64, n)
	var perVertex int
	for k := 1; k <= n/2; k++ {
		if 2*k == n {
			perVertex += k
		} else {
			perVertex += 2 * k
		}
	}
	for i := range ecc {
		ecc[i] = float64(n / 2)
	}
	pairs, total := int64(n*(n-1)), float64(n*perVertex)
	c := Case{Name: "cycle " + strconv.Itoa(n), N: n, Edges: es, Source: "closed form",
		Dist: matrix(n, func(u, v int) float64 {
			k := max(u-v, v-u)
			return float64(min(k, n-k))
		}),
		Connected: true, Pairs: pairs, Total: total}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: float64(n / 2), Diameter: float64(n / 2),
		ASPL: total / float64(pairs), Center: all(n), Periphery: all(n)})
	return c
}

func directedCycle(n int) Case {
	// Closed form: the one-way cycle 0→1→…→n−1→0, d(i, j) = (j − i) mod n;
	// every eccentricity n−1, each vertex at distances 1..n−1 once.
	var es []Edge
	for i := range n {
		es = append(es, Edge{U: i, V: (i + 1) % n})
	}
	ecc := make([]float64, n)
	for i := range ecc {
		ecc[i] = float64(n - 1)
	}
	pairs, total := int64(n*(n-1)), float64(n*n*(n-1)/2)
	c := Case{Name: "directed cycle " + strconv.Itoa(n), N: n, Directed: true, Edges: es, Source: "closed form",
		Dist:      matrix(n, func(u, v int) float64 { return float64(((v-u)%n + n) % n) }),
		Connected: true, Pairs: pairs, Total: total}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: float64(n - 1), Diameter: float64(n - 1),
		ASPL: total / float64(pairs), Center: all(n), Periphery: all(n)})
	return c
}

func star(n int) Case {
	// Closed form: the hub 0 is at 1 from every leaf, leaves at 2 from one
	// another. Total: 2(n−1)·1 + (n−1)(n−2)·2.
	var es []Edge
	for v := 1; v < n; v++ {
		es = append(es, Edge{U: 0, V: v})
	}
	ecc := make([]float64, n)
	for i := range ecc {
		ecc[i] = 2
	}
	ecc[0] = 1
	pairs, total := int64(n*(n-1)), float64(2*(n-1)+2*(n-1)*(n-2))
	c := Case{Name: "star " + strconv.Itoa(n), N: n, Edges: es, Source: "closed form",
		Dist: matrix(n, func(u, v int) float64 {
			switch {
			case u == v:
				return 0
			case u == 0 || v == 0:
				return 1
			}
			return 2
		}),
		Connected: true, Pairs: pairs, Total: total}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: 1, Diameter: 2,
		ASPL: total / float64(pairs), Center: []int{0}, Periphery: all(n)[1:]})
	return c
}

func complete(n int) Case {
	// Closed form: every distance 1.
	var es []Edge
	for u := range n {
		for v := u + 1; v < n; v++ {
			es = append(es, Edge{U: u, V: v})
		}
	}
	ecc := make([]float64, n)
	for i := range ecc {
		ecc[i] = 1
	}
	pairs := int64(n * (n - 1))
	c := Case{Name: "complete " + strconv.Itoa(n), N: n, Edges: es, Source: "closed form",
		Dist: matrix(n, func(u, v int) float64 {
			if u == v {
				return 0
			}
			return 1
		}),
		Connected: true, Pairs: pairs, Total: float64(pairs)}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: 1, Diameter: 1, ASPL: 1, Center: all(n), Periphery: all(n)})
	return c
}

func petersen() Case {
	// The Petersen graph: outer cycle 0..4, inner pentagram 5..9 (i+5 to
	// (i+2) mod 5 + 5), spokes i–i+5. It is 3-regular of diameter 2 (a
	// Moore graph: every two non-adjacent vertices have exactly one common
	// neighbour), so d = 1 for the edges and 2 otherwise; each vertex has
	// 3 vertices at 1 and 6 at 2.
	const n = 10
	adj := [n][n]bool{}
	var es []Edge
	add := func(u, v int) {
		es = append(es, Edge{U: u, V: v})
		adj[u][v], adj[v][u] = true, true
	}
	for i := range 5 {
		add(i, (i+1)%5)
		add(i+5, (i+2)%5+5)
		add(i, i+5)
	}
	ecc := make([]float64, n)
	for i := range ecc {
		ecc[i] = 2
	}
	c := Case{Name: "Petersen", N: n, Edges: es, Source: "closed form (diameter 2, 3-regular)",
		Dist: matrix(n, func(u, v int) float64 {
			switch {
			case u == v:
				return 0
			case adj[u][v]:
				return 1
			}
			return 2
		}),
		Connected: true, Pairs: n * (n - 1), Total: n * (3 + 6*2)}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: 2, Diameter: 2, ASPL: 15.0 / 9, Center: all(n), Periphery: all(n)})
	return c
}

func grid(a, b int) Case {
	// Closed form: vertex (i, j) is i·b + j; d is the Manhattan distance;
	// ecc(i, j) = max(i, a−1−i) + max(j, b−1−j). The total is
	// b²·S(a) + a²·S(b), with S(k) = k(k²−1)/3 a path's (each row pair
	// meets each column pair). Center: the middle rows × middle columns;
	// periphery: the corners.
	n := a * b
	var es []Edge
	for i := range a {
		for j := range b {
			if j+1 < b {
				es = append(es, Edge{U: i*b + j, V: i*b + j + 1})
			}
			if i+1 < a {
				es = append(es, Edge{U: i*b + j, V: (i+1)*b + j})
			}
		}
	}
	ecc := make([]float64, n)
	for i := range a {
		for j := range b {
			ecc[i*b+j] = float64(max(i, a-1-i) + max(j, b-1-j))
		}
	}
	mid := func(k int) []int {
		if k%2 == 1 {
			return []int{k / 2}
		}
		return []int{k/2 - 1, k / 2}
	}
	var center []int
	for _, i := range mid(a) {
		for _, j := range mid(b) {
			center = append(center, i*b+j)
		}
	}
	s := func(k int) int { return k * (k*k - 1) / 3 }
	pairs, total := int64(n*(n-1)), float64(b*b*s(a)+a*a*s(b))
	c := Case{Name: "grid " + strconv.Itoa(a) + "×" + strconv.Itoa(b), N: n, Edges: es, Source: "closed form",
		Dist: matrix(n, func(u, v int) float64 {
			return math.Abs(float64(u/b-v/b)) + math.Abs(float64(u%b-v%b))
		}),
		Connected: true, Pairs: pairs, Total: total}
	c.Strict, c.Reachable = same(Measures{Ecc: ecc, Radius: float64(a/2 + b/2), Diameter: float64(a - 1 + b - 1),
		ASPL: total / float64(pairs), Center: center, Periphery: []int{0, b - 1, (a - 1) * b, n - 1}})
	return c
}

func disconnected() Case {
	// By hand: the triangle 0-1-2, the path 3-4-5 and the lone vertex 6.
	// Reachable pairs: 6 in the triangle (at 1) and 6 on the path (four at
	// 1, two at 2): total 6 + 8 = 14.
	es := unit([2]int{0, 1}, [2]int{1, 2}, [2]int{0, 2}, [2]int{3, 4}, [2]int{4, 5})
	return Case{Name: "disconnected", N: 7, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 1, 1, Inf, Inf, Inf, Inf},
			{1, 0, 1, Inf, Inf, Inf, Inf},
			{1, 1, 0, Inf, Inf, Inf, Inf},
			{Inf, Inf, Inf, 0, 1, 2, Inf},
			{Inf, Inf, Inf, 1, 0, 1, Inf},
			{Inf, Inf, Inf, 2, 1, 0, Inf},
			{Inf, Inf, Inf, Inf, Inf, Inf, 0},
		},
		Pairs: 12, Total: 14,
		Strict: Measures{Ecc: []float64{Inf, Inf, Inf, Inf, Inf, Inf, Inf}, Radius: Inf, Diameter: Inf, ASPL: Inf,
			Periphery: all(7)},
		Reachable: Measures{Ecc: []float64{1, 1, 1, 2, 1, 2, 0}, Radius: 0, Diameter: 2, ASPL: 14.0 / 12,
			Center: []int{6}, Periphery: []int{3, 5}},
	}
}

func notStrong() Case {
	// By hand: the directed triangle 0→1→2→0 with the tail 2→3→4. The
	// triangle reaches everything; 3 reaches only 4, and 4 nothing.
	// Strictly the radius is ecc(2) = 2; over the reachable pairs vertex 4
	// (reaching none) has eccentricity 0, the radius, and the diameter is
	// ecc(0) = 4. Row sums 10, 8, 6, 1, 0.
	es := unit([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0}, [2]int{2, 3}, [2]int{3, 4})
	return Case{Name: "directed, not strongly connected", N: 5, Directed: true, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 1, 2, 3, 4},
			{2, 0, 1, 2, 3},
			{1, 2, 0, 1, 2},
			{Inf, Inf, Inf, 0, 1},
			{Inf, Inf, Inf, Inf, 0},
		},
		Pairs: 13, Total: 25,
		Strict:    Measures{Ecc: []float64{4, 3, 2, Inf, Inf}, Radius: 2, Diameter: Inf, ASPL: Inf, Center: []int{2}, Periphery: []int{3, 4}},
		Reachable: Measures{Ecc: []float64{4, 3, 2, 1, 0}, Radius: 0, Diameter: 4, ASPL: 25.0 / 13, Center: []int{4}, Periphery: []int{0}},
	}
}

func intWeights() Case {
	// By hand, with zero-weight edges 1–2 and 3–4 (so distinct vertices at
	// distance 0): from 0, 1 and 2 at 3, then 3 at 3+0+4 = 7 (not 10
	// directly) and 4 at 7 (not 3+7); from 1, 3 and 4 at 4 (through 2,
	// then 3). Row sums 20, 11, 11, 15, 15.
	es := []Edge{{U: 0, V: 1, W: 3}, {U: 1, V: 2, W: 0}, {U: 2, V: 3, W: 4}, {U: 0, V: 3, W: 10}, {U: 3, V: 4, W: 0}, {U: 1, V: 4, W: 7}}
	c := Case{Name: "integer weights with zeros", N: 5, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 3, 3, 7, 7},
			{3, 0, 0, 4, 4},
			{3, 0, 0, 4, 4},
			{7, 4, 4, 0, 0},
			{7, 4, 4, 0, 0},
		},
		Connected: true, Pairs: 20, Total: 72}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{7, 4, 4, 7, 7}, Radius: 4, Diameter: 7, ASPL: 72.0 / 20,
		Center: []int{1, 2}, Periphery: []int{0, 3, 4}})
	return c
}

func directedIntWeights() Case {
	// By hand: arcs 0→1 (2), 1→2 (3), 0→2 (6), 2→0 (1), 2→3 (0), 3→1 (5).
	// d(0,2) = 2+3 = 5 beats 6; d(2,1) = 1+2 = 3 beats 0+5; d(3,2) = 5+3,
	// d(3,0) = 8+1. Row sums 12, 10, 4, 22.
	es := []Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 3}, {U: 0, V: 2, W: 6}, {U: 2, V: 0, W: 1}, {U: 2, V: 3, W: 0}, {U: 3, V: 1, W: 5}}
	c := Case{Name: "directed integer weights", N: 4, Directed: true, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 2, 5, 5},
			{4, 0, 3, 3},
			{1, 3, 0, 0},
			{9, 5, 8, 0},
		},
		Connected: true, Pairs: 12, Total: 48}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{5, 4, 3, 9}, Radius: 3, Diameter: 9, ASPL: 4,
		Center: []int{2}, Periphery: []int{3}})
	return c
}

func largeWeights() Case {
	// By hand: the path 0–1–2 with lengths 3·10⁹ and 2·10⁹, beyond int32
	// (and float32's exact integers), so int64 or float64 lanes only.
	const a, b = 3_000_000_000, 2_000_000_000
	es := []Edge{{U: 0, V: 1, W: a}, {U: 1, V: 2, W: b}}
	c := Case{Name: "integer weights beyond int32", N: 3, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, a, a + b},
			{a, 0, b},
			{a + b, b, 0},
		},
		Connected: true, Pairs: 6, Total: 4 * (a + b)}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{a + b, a, a + b}, Radius: a, Diameter: a + b, ASPL: 4 * (a + b) / 6.0,
		Center: []int{1}, Periphery: []int{0, 2}})
	return c
}

func floatWeights() Case {
	// By hand, with lengths that binary floats hold exactly (so do their
	// sums, in float32 too): edges 0–1 (0.5), 1–2 (1.25), 0–2 (2), 2–3
	// (0.75), 1–3 (2.5). d(0,2) = 0.5+1.25 = 1.75 beats 2; d(0,3) =
	// 1.75+0.75 = 2.5 beats 0.5+2.5; d(1,3) = 1.25+0.75 = 2 beats 2.5.
	// Row sums 4.75, 3.75, 3.75, 5.25.
	es := []Edge{{U: 0, V: 1, F: 0.5}, {U: 1, V: 2, F: 1.25}, {U: 0, V: 2, F: 2}, {U: 2, V: 3, F: 0.75}, {U: 1, V: 3, F: 2.5}}
	c := Case{Name: "float weights", N: 4, Kind: graph.FloatWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 0.5, 1.75, 2.5},
			{0.5, 0, 1.25, 2},
			{1.75, 1.25, 0, 0.75},
			{2.5, 2, 0.75, 0},
		},
		Connected: true, Pairs: 12, Total: 17.5}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{2.5, 2, 1.75, 2.5}, Radius: 1.75, Diameter: 2.5, ASPL: 17.5 / 12,
		Center: []int{2}, Periphery: []int{0, 3}})
	return c
}

func negativeArcs() Case {
	// By hand: arcs 0→1 (4), 0→2 (1), 2→1 (−2), 1→3 (1), 3→0 (2), 2→3 (5).
	// The cycles 0→2→1→3→0 (2), 0→1→3→0 (7) and 0→2→3→0 (8) are
	// positive. d(0,1) = 1−2 = −1, d(0,3) = −1+1 = 0; d(1,0) = 1+2,
	// d(1,2) = 3+1; d(2,3) = −2+1 = −1 beats 5, d(2,0) = −1+2; d(3,2) =
	// 2+1, d(3,1) = 3−2 = 1 beats 2+4. Row sums 0, 8, −2, 6.
	es := []Edge{{U: 0, V: 1, W: 4}, {U: 0, V: 2, W: 1}, {U: 2, V: 1, W: -2}, {U: 1, V: 3, W: 1}, {U: 3, V: 0, W: 2}, {U: 2, V: 3, W: 5}}
	c := Case{Name: "negative arcs", N: 4, Directed: true, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, -1, 1, 0},
			{3, 0, 4, 1},
			{1, -2, 0, -1},
			{2, 1, 3, 0},
		},
		Connected: true, Pairs: 12, Total: 12}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{1, 4, 1, 3}, Radius: 1, Diameter: 4, ASPL: 1,
		Center: []int{0, 2}, Periphery: []int{1}})
	return c
}

func negativePath() Case {
	// By hand: the directed path 0→1 (−3), 1→2 (−1), so every distance is
	// negative: ecc(0) = max(−3, −4) = −3, ecc(1) = −1. Strictly only 0
	// reaches all (radius −3, center {0}). Over the reachable pairs vertex
	// 2 (reaching none) has eccentricity 0 but does not count for the
	// diameter, which is −1 (periphery {1}); the ASPL is (−3−4−1)/3.
	es := []Edge{{U: 0, V: 1, W: -3}, {U: 1, V: 2, W: -1}}
	return Case{Name: "negative path", N: 3, Directed: true, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, -3, -4},
			{Inf, 0, -1},
			{Inf, Inf, 0},
		},
		Pairs: 3, Total: -8,
		Strict:    Measures{Ecc: []float64{-3, Inf, Inf}, Radius: -3, Diameter: Inf, ASPL: Inf, Center: []int{0}, Periphery: []int{1, 2}},
		Reachable: Measures{Ecc: []float64{-3, -1, 0}, Radius: -3, Diameter: -1, ASPL: -8.0 / 3, Center: []int{0}, Periphery: []int{1}},
	}
}

func negativeCycle() Case {
	// By hand: the cycle 1→2 (2), 2→3 (−4), 3→1 (1) has length −1; 0→1
	// leads into it and 3→4 out of it, so no other vertex is on a closed
	// walk through it.
	es := []Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}, {U: 2, V: 3, W: -4}, {U: 3, V: 1, W: 1}, {U: 3, V: 4, W: 1}}
	return Case{Name: "negative cycle", N: 5, Directed: true, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		NegativeCycle: []int{1, 2, 3}}
}

func negativeSelfLoop() Case {
	// By hand: the path 0→1→2 and a self-loop of length −1 at 2, a
	// negative cycle by itself (the builder drops the loop but notes it).
	es := []Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 2, W: -1}}
	return Case{Name: "negative self-loop", N: 3, Directed: true, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		NegativeCycle: []int{2}}
}

func negativeUndirected() Case {
	// By hand: an undirected edge 0–1 of length −1 is the negative cycle
	// 0→1→0; vertex 2 is apart.
	es := []Edge{{U: 0, V: 1, W: -1}}
	return Case{Name: "negative undirected edge", N: 3, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		NegativeCycle: []int{0, 1}}
}

func loopsAndParallel() Case {
	// By hand: parallel edges 0–1 of 5, 2 and 3 (the lightest, 2, counts),
	// 0–2 of 9 and 7, 1–2 of 1, and self-loops 1–1 (4) and 2–2 (0), which
	// do not count. So d(0,1) = 2, d(1,2) = 1, d(0,2) = 3 beats 7.
	es := []Edge{{U: 0, V: 1, W: 5}, {U: 0, V: 1, W: 2}, {U: 1, V: 0, W: 3}, {U: 1, V: 2, W: 1}, {U: 1, V: 1, W: 4},
		{U: 2, V: 2, W: 0}, {U: 0, V: 2, W: 9}, {U: 2, V: 0, W: 7}}
	c := Case{Name: "self-loops and parallel edges", N: 3, Kind: graph.IntWeights, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 2, 3},
			{2, 0, 1},
			{3, 1, 0},
		},
		Connected: true, Pairs: 6, Total: 12}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{3, 2, 3}, Radius: 2, Diameter: 3, ASPL: 2,
		Center: []int{1}, Periphery: []int{0, 2}})
	return c
}

func loopsAndParallelUnweighted() Case {
	// By hand: the arcs 0→1 (three times), 1→2, 2→0 and self-loops at 1
	// and 2 are the one-way triangle: d(i, j) = (j − i) mod 3.
	es := unit([2]int{0, 1}, [2]int{0, 1}, [2]int{1, 1}, [2]int{1, 2}, [2]int{2, 2}, [2]int{2, 0}, [2]int{0, 1})
	c := Case{Name: "self-loops and parallel arcs, unweighted", N: 3, Directed: true, Edges: es, Source: "by hand",
		Dist: [][]float64{
			{0, 1, 2},
			{2, 0, 1},
			{1, 2, 0},
		},
		Connected: true, Pairs: 6, Total: 9}
	c.Strict, c.Reachable = same(Measures{Ecc: []float64{2, 2, 2}, Radius: 2, Diameter: 2, ASPL: 1.5,
		Center: all(3), Periphery: all(3)})
	return c
}
