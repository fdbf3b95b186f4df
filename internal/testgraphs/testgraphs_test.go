package testgraphs

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/apsp/apsp/graph"
)

// arcs returns the arcs of c's edges as the builder keeps them: both ways
// when undirected, the lightest of parallel ones, no self-loop.
func arcs(c *Case) map[[2]int]float64 {
	out := map[[2]int]float64{}
	add := func(u, v int, w float64) {
		if old, ok := out[[2]int{u, v}]; !ok || w < old {
			out[[2]int{u, v}] = w
		}
	}
	for _, e := range c.Edges {
		if e.U == e.V {
			continue
		}
		w := length(c, e)
		add(e.U, e.V, w)
		if !c.Directed {
			add(e.V, e.U, w)
		}
	}
	return out
}

func length(c *Case, e Edge) float64 {
	switch c.Kind {
	case graph.IntWeights:
		return float64(e.W)
	case graph.FloatWeights:
		return e.F
	}
	return 1
}

// TestTableShape: every case's graph is its edges, named once, with a
// square matrix or a negative cycle.
func TestTableShape(t *testing.T) {
	seen := map[string]bool{}
	for i := range Cases {
		c := &Cases[i]
		if seen[c.Name] {
			t.Errorf("two cases called %q", c.Name)
		}
		seen[c.Name] = true
		g := c.Graph
		if g.N() != c.N || g.Directed() != c.Directed || (len(c.Edges) > 0 && g.Kind() != c.Kind) {
			t.Errorf("%s: graph of %d vertices, directed %v, %v; want %d, %v, %v", c.Name, g.N(), g.Directed(), g.Kind(), c.N, c.Directed, c.Kind)
		}
		if c.Source == "" {
			t.Errorf("%s: no source for its answers", c.Name)
		}
		if c.NegativeCycle != nil {
			if c.Dist != nil {
				t.Errorf("%s: a negative cycle and distances", c.Name)
			}
			continue
		}
		if len(c.Dist) != c.N {
			t.Fatalf("%s: %d rows for %d vertices", c.Name, len(c.Dist), c.N)
		}
		for u, row := range c.Dist {
			if len(row) != c.N {
				t.Fatalf("%s: row %d has %d entries", c.Name, u, len(row))
			}
		}
		if !c.Directed {
			for u := range c.N {
				for v := range c.N {
					if c.Dist[u][v] != c.Dist[v][u] {
						t.Errorf("%s: undirected but d(%d,%d) = %v, d(%d,%d) = %v", c.Name, u, v, c.Dist[u][v], v, u, c.Dist[v][u])
					}
				}
			}
		}
	}
}

// TestDistCertificates proves every matrix right from the case's edges
// alone, without computing a shortest path: d(u,u) = 0; every arc x→y is
// relaxed (d(u,y) ≤ d(u,x) + w: no walk is shorter than d); and every
// finite d(u,v) is attained, v being found from u along tight arcs
// (d(u,x) + w = d(u,y)), whose lengths add up to d(u,v).
func TestDistCertificates(t *testing.T) {
	for i := range Cases {
		c := &Cases[i]
		if c.NegativeCycle != nil {
			continue
		}
		as := arcs(c)
		out := make([][]int, c.N)
		for a := range as {
			out[a[0]] = append(out[a[0]], a[1])
		}
		for u := range c.N {
			d := c.Dist[u]
			if d[u] != 0 {
				t.Errorf("%s: d(%d,%d) = %v", c.Name, u, u, d[u])
			}
			for a, w := range as {
				x, y := a[0], a[1]
				if !math.IsInf(d[x], 1) && d[y] > d[x]+w {
					t.Errorf("%s: d(%d,%d) = %v but d(%d,%d) + w(%d,%d) = %v", c.Name, u, y, d[y], u, x, x, y, d[x]+w)
				}
			}
			found := make([]bool, c.N)
			found[u] = true
			queue := []int{u}
			for len(queue) > 0 {
				x := queue[0]
				queue = queue[1:]
				for _, y := range out[x] {
					if !found[y] && d[x]+as[[2]int{x, y}] == d[y] {
						found[y] = true
						queue = append(queue, y)
					}
				}
			}
			for v := range c.N {
				if found[v] == math.IsInf(d[v], 1) {
					t.Errorf("%s: d(%d,%d) = %v is not attained along tight arcs (reached %v)", c.Name, u, v, d[v], found[v])
				}
			}
		}
	}
}

// TestNegativeCycles checks each stated negative cycle: its arcs exist and
// add up below 0, and no vertex off it lies on any cycle at all (so every
// negative closed walk stays on it).
func TestNegativeCycles(t *testing.T) {
	for i := range Cases {
		c := &Cases[i]
		if c.NegativeCycle == nil {
			continue
		}
		cyc := c.NegativeCycle
		var sum float64
		if len(cyc) == 1 {
			loop := math.Inf(1)
			for _, e := range c.Edges {
				if e.U == cyc[0] && e.V == cyc[0] {
					loop = math.Min(loop, length(c, e))
				}
			}
			sum = loop
		} else {
			as := arcs(c)
			for k, u := range cyc {
				v := cyc[(k+1)%len(cyc)]
				w, ok := as[[2]int{u, v}]
				if !ok {
					t.Fatalf("%s: no arc %d→%d on the cycle", c.Name, u, v)
				}
				sum += w
			}
		}
		if !(sum < 0) {
			t.Errorf("%s: the cycle %v has length %v", c.Name, cyc, sum)
		}
		as := arcs(c)
		for v := range c.N {
			if c.OnNegativeCycle(v) {
				continue
			}
			// Does v reach itself by one arc or more?
			found := map[int]bool{}
			queue := []int{v}
			for len(queue) > 0 {
				x := queue[0]
				queue = queue[1:]
				for a := range as {
					if a[0] == x && !found[a[1]] {
						found[a[1]] = true
						queue = append(queue, a[1])
					}
				}
			}
			if found[v] {
				t.Errorf("%s: vertex %d, off the cycle %v, is on a cycle", c.Name, v, cyc)
			}
		}
	}
}

// byDefinition derives the measures from a matrix by README's definitions.
func byDefinition(c *Case, reachable bool) (m Measures, pairs int64, total float64, connected bool) {
	n := c.N
	connected = true
	reachesSome := make([]bool, n)
	for u := range n {
		e, first := 0.0, true
		for v := range n {
			d := c.Dist[u][v]
			if u == v {
				continue
			}
			if math.IsInf(d, 1) {
				connected = false
				if !reachable {
					e, first = Inf, false
				}
				continue
			}
			reachesSome[u] = true
			pairs++
			total += d
			if !math.IsInf(e, 1) && (first || d > e) {
				e, first = d, false
			}
		}
		m.Ecc = append(m.Ecc, e)
	}
	m.Radius = slices.Min(m.Ecc)
	if !connected && !reachable {
		m.Diameter, m.ASPL = Inf, Inf
	} else {
		m.Diameter = 0
		first := true
		for u, e := range m.Ecc {
			if reachesSome[u] && (first || e > m.Diameter) {
				m.Diameter, first = e, false
			}
		}
		m.ASPL = math.NaN()
		if pairs > 0 {
			m.ASPL = total / float64(pairs)
		}
	}
	for u, e := range m.Ecc {
		if !math.IsInf(m.Radius, 1) && e == m.Radius {
			m.Center = append(m.Center, u)
		}
		if e == m.Diameter {
			m.Periphery = append(m.Periphery, u)
		}
	}
	return m, pairs, total, connected
}

func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// TestStatedMeasures: every measure the table states agrees with its
// matrix by the definitions (two derivations by hand, or a closed form
// and a matrix, that must meet).
func TestStatedMeasures(t *testing.T) {
	for i := range Cases {
		c := &Cases[i]
		if c.NegativeCycle != nil {
			continue
		}
		for _, reachable := range []bool{false, true} {
			want, pairs, total, connected := byDefinition(c, reachable)
			got := c.Strict
			if reachable {
				got = c.Reachable
			}
			name := c.Name
			if reachable {
				name += " (reachable)"
			}
			if pairs != c.Pairs || !sameFloat(total, c.Total) || connected != c.Connected {
				t.Errorf("%s: pairs %d, total %v, connected %v stated; the matrix gives %d, %v, %v", name, c.Pairs, c.Total, c.Connected, pairs, total, connected)
			}
			if !slices.EqualFunc(got.Ecc, want.Ecc, sameFloat) {
				t.Errorf("%s: eccentricities %v stated; the matrix gives %v", name, got.Ecc, want.Ecc)
			}
			if !sameFloat(got.Radius, want.Radius) || !sameFloat(got.Diameter, want.Diameter) || !sameFloat(got.ASPL, want.ASPL) {
				t.Errorf("%s: radius %v, diameter %v, ASPL %v stated; the matrix gives %v, %v, %v", name, got.Radius, got.Diameter, got.ASPL, want.Radius, want.Diameter, want.ASPL)
			}
			if !slices.Equal(got.Center, want.Center) || !slices.Equal(got.Periphery, want.Periphery) {
				t.Errorf("%s: center %v, periphery %v stated; the matrix gives %v, %v", name, got.Center, got.Periphery, want.Center, want.Periphery)
			}
		}
	}
}

// TestRowsAndHist: the rows and histogram the tests compare engines with
// add up to the stated totals.
func TestRowsAndHist(t *testing.T) {
	for i := range Cases {
		c := &Cases[i]
		if c.NegativeCycle != nil {
			continue
		}
		var pairs int64
		var sum float64
		for _, r := range c.Rows(c.Exact()) {
			pairs += r.Reach
			sum += r.Sum.Float() + r.SumF
		}
		if pairs != c.Pairs || !sameFloat(sum, c.Total) {
			t.Errorf("%s: rows of %d pairs, total %v; want %d, %v", c.Name, pairs, sum, c.Pairs, c.Total)
		}
		if h := c.Hist(); h != nil {
			var hp int64
			var ht float64
			for d, k := range h {
				hp += k
				ht += float64(d) * float64(k)
			}
			if hp != c.Pairs || ht != c.Total {
				t.Errorf("%s: histogram %v of %d pairs, total %v; want %d, %v", c.Name, h, hp, ht, c.Pairs, c.Total)
			}
		}
	}
	if h := mustNamed(t, "karate club").Hist(); !slices.Equal(h, []int64{0, 156, 530, 274, 146, 16}) {
		t.Errorf("karate club histogram %v, want NetworkX's [0 156 530 274 146 16]", h)
	}
}

func mustNamed(t *testing.T, name string) *Case {
	t.Helper()
	c, ok := Named(name)
	if !ok {
		t.Fatalf("no case %q", name)
	}
	return c
}

// TestRandom: a seed gives the same edges; the models keep to their
// shapes (pairs u < v when undirected, parts, lengths in range, the first
// one Lo, no self-loop unless asked for).
func TestRandom(t *testing.T) {
	specs := []Spec{
		{N: 40, P: 0.1, Kind: graph.IntWeights, Lo: 2, Hi: 9},
		{N: 40, P: 0.1, Directed: true, Kind: graph.FloatWeights, Lo: 1, Hi: 3, Parts: 3},
		{N: 40, P: 0.2, Directed: true, Kind: graph.IntWeights, Lo: 0, Hi: 5, Potential: 10},
		{N: 40, P: 0.2, Directed: true, Kind: graph.FloatWeights, Lo: 0, Hi: 5, Potential: 10, Zeros: 0.3},
		{N: 30, M: 200, Kind: graph.IntWeights, Lo: -5, Hi: 5},
		{N: 30, M: 200, Loops: true, Directed: true, Kind: graph.FloatWeights, Lo: -1, Hi: 9},
		{N: 30, M: 200, Directed: true},
		{N: 0, M: 10},
	}
	for _, s := range specs {
		a := RandomEdges(rand.New(rand.NewPCG(1, 2)), s)
		b := RandomEdges(rand.New(rand.NewPCG(1, 2)), s)
		if !slices.Equal(a, b) {
			t.Fatalf("%v: two draws of one seed differ", s)
		}
		loops, zeros, negative := 0, 0, 0
		for i, e := range a {
			if e.U == e.V {
				loops++
			}
			if s.M == 0 && !s.Directed && e.U >= e.V {
				t.Fatalf("%v: edge %d–%d of an undirected G(n,p)", s, e.U, e.V)
			}
			if s.Parts > 1 && e.U%s.Parts != e.V%s.Parts {
				t.Fatalf("%v: edge %d–%d across parts", s, e.U, e.V)
			}
			var w float64
			switch s.Kind {
			case graph.IntWeights:
				w = float64(e.W)
			case graph.FloatWeights:
				w = e.F
			}
			if w < 0 {
				negative++
			}
			if s.Potential > 0 {
				continue
			}
			if s.Kind != graph.Unweighted && (w < float64(s.Lo) || w > float64(s.Hi)) && !(s.Zeros > 0 && w == 0) {
				t.Fatalf("%v: length %v", s, w)
			}
			if i == 0 && s.Kind != graph.Unweighted && w != float64(s.Lo) {
				t.Fatalf("%v: first length %v, want Lo", s, w)
			}
			if w == 0 {
				zeros++
			}
		}
		if (loops > 0) != (s.Loops && len(a) > 0) {
			t.Errorf("%v: %d self-loops", s, loops)
		}
		if s.Potential > 0 && negative == 0 {
			t.Errorf("%v: potentials but no negative arc", s)
		}
		if s.Zeros > 0 && s.Potential == 0 && zeros == 0 {
			t.Errorf("%v: no zero length", s)
		}
		g := Random(rand.New(rand.NewPCG(1, 2)), s)
		if g.N() != s.N || g.Directed() != s.Directed {
			t.Errorf("%v: graph of %d vertices, directed %v", s, g.N(), g.Directed())
		}
	}
}

// TestDumpForNetworkX writes the table as JSON to the file named by
// TESTGRAPHS_JSON, for testdata/check_networkx.py, which recomputes every
// answer with NetworkX:
//
//	TESTGRAPHS_JSON=/tmp/cases.json go test -run DumpForNetworkX ./internal/testgraphs
//	python3 internal/testgraphs/testdata/check_networkx.py /tmp/cases.json
func TestDumpForNetworkX(t *testing.T) {
	path := os.Getenv("TESTGRAPHS_JSON")
	if path == "" {
		t.Skip("TESTGRAPHS_JSON names no file")
	}
	// JSON has no infinity or NaN: they are written as strings.
	num := func(x float64) any {
		switch {
		case math.IsInf(x, 1):
			return "inf"
		case math.IsNaN(x):
			return "nan"
		}
		return x
	}
	nums := func(xs []float64) []any {
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = num(x)
		}
		return out
	}
	measures := func(m Measures) map[string]any {
		return map[string]any{"ecc": nums(m.Ecc), "radius": num(m.Radius), "diameter": num(m.Diameter), "aspl": num(m.ASPL),
			"center": orEmpty(m.Center), "periphery": orEmpty(m.Periphery)}
	}
	var out []map[string]any
	for i := range Cases {
		c := &Cases[i]
		var edges [][3]float64
		for _, e := range c.Edges {
			edges = append(edges, [3]float64{float64(e.U), float64(e.V), length(c, e)})
		}
		entry := map[string]any{"name": c.Name, "n": c.N, "directed": c.Directed, "kind": c.Kind.String(), "edges": edges}
		if c.NegativeCycle != nil {
			entry["negative_cycle"] = c.NegativeCycle
		} else {
			var dist [][]any
			for _, row := range c.Dist {
				dist = append(dist, nums(row))
			}
			entry["dist"] = dist
			entry["connected"] = c.Connected
			entry["pairs"] = c.Pairs
			entry["total"] = c.Total
			entry["strict"] = measures(c.Strict)
			entry["reachable"] = measures(c.Reachable)
		}
		out = append(out, entry)
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func orEmpty(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
