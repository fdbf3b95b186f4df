package golf

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp/graph"
)

// ErrFormat is wrapped by the errors of ReadEdges about a file's content.
var ErrFormat = errors.New("golf: bad edge file")

// Grid is the layout of a grid graph: vertex x,y (0 ≤ x < W, 0 ≤ y < H) is
// number x·H+y, as in ODP, and an edge may join vertices at Manhattan
// distance at most R. The zero Grid is no grid (a general graph).
type Grid struct {
	W int `json:"w"`
	H int `json:"h"`
	R int `json:"r"`
}

// IsGrid reports whether g lays out a grid graph.
func (g Grid) IsGrid() bool { return g.W > 0 }

// Vertex returns the number of vertex x,y.
func (g Grid) Vertex(x, y int) int { return x*g.H + y }

// XY returns the coordinates of vertex v.
func (g Grid) XY(v int) (x, y int) { return v / g.H, v % g.H }

// Length returns the Manhattan distance between vertices u and v.
func (g Grid) Length(u, v int) int {
	ux, uy := g.XY(u)
	vx, vy := g.XY(v)
	return abs(ux-vx) + abs(uy-vy)
}

// Name returns v's name in Graph Golf's files: "x,y" on a grid, the
// number otherwise.
func (g Grid) Name(v int) string {
	if !g.IsGrid() {
		return strconv.Itoa(v)
	}
	x, y := g.XY(v)
	return strconv.Itoa(x) + "," + strconv.Itoa(y)
}

// Graph is a simple undirected graph as Graph Golf's files hold it.
type Graph struct {
	N     int        // vertices, 0..N-1
	Grid  Grid       // the layout of a grid graph, or the zero Grid
	Edges [][2]int32 // each edge once, u < v
}

// Degrees returns each vertex's degree.
func (g *Graph) Degrees() []int {
	deg := make([]int, g.N)
	for _, e := range g.Edges {
		deg[e[0]]++
		deg[e[1]]++
	}
	return deg
}

// MaxDegree returns the largest degree.
func (g *Graph) MaxDegree() int {
	m := 0
	for _, d := range g.Degrees() {
		m = max(m, d)
	}
	return m
}

// Graph returns g in the library's form, for apsp's entry points.
func (g *Graph) Graph() (*graph.Graph, error) {
	b := graph.NewBuilder(false)
	if err := b.SetVertices(g.N); err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	b.Grow(len(g.Edges))
	for _, e := range g.Edges {
		if err := b.AddEdge(int(e[0]), int(e[1])); err != nil {
			return nil, fmt.Errorf("golf: %w", err)
		}
	}
	return b.Build(), nil
}

// ReadOptions says what ReadEdges expects. Zero fields are taken from the
// file: N is then one more than the largest vertex, W and H one more than
// the largest coordinates (as ODP reads a grid file).
type ReadOptions struct {
	N    int // vertices of a general graph
	W, H int // the grid's size
	R    int // the longest edge allowed on a grid; 0: no limit checked
}

// ReadFile is ReadEdges of the named file.
func ReadFile(name string, opt ReadOptions) (*Graph, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("golf: %w", err)
	}
	defer f.Close()
	return ReadEdges(f, name, opt)
}

// ReadEdges reads a Graph Golf edge file: one edge a line, "u v" with
// vertex numbers from 0 (NetworkX's write_edgelist without data; a third
// field "{}" is ignored) or "x1,y1 x2,y2" for a grid graph. Blank lines
// and lines starting with '#' are skipped. A self-loop, an edge listed
// twice, a vertex out of range or a grid edge longer than opt.R is
// refused with name:line in the error, which wraps ErrFormat.
func ReadEdges(r io.Reader, name string, opt ReadOptions) (*Graph, error) {
	type rawEdge struct {
		a, b [2]int // x,y (or the number, 0)
		line int
	}
	var raw []rawEdge
	grid := -1 // unknown, 0 general, 1 grid
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	bad := func(line int, format string, args ...any) error {
		return fmt.Errorf("%w: %s:%d: %s", ErrFormat, name, line, fmt.Sprintf(format, args...))
	}
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Fields(text)
		if len(f) == 3 && f[2] == "{}" {
			f = f[:2]
		}
		if len(f) != 2 {
			return nil, bad(line, "want two vertices a line, have %q", text)
		}
		isGrid := 0
		if strings.Contains(f[0], ",") {
			isGrid = 1
		}
		if grid < 0 {
			grid = isGrid
		} else if grid != isGrid {
			return nil, bad(line, "%q: grid and general vertex names mixed", text)
		}
		var e rawEdge
		e.line = line
		for i, tok := range f {
			p, err := parseName(tok, isGrid == 1)
			if err != nil {
				return nil, bad(line, "%v", err)
			}
			if i == 0 {
				e.a = p
			} else {
				e.b = p
			}
		}
		raw = append(raw, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("golf: reading %s: %w", name, err)
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("%w: %s: no edges", ErrFormat, name)
	}
	g := &Graph{}
	if grid == 1 {
		w, h := opt.W, opt.H
		if w == 0 || h == 0 {
			mw, mh := 0, 0
			for _, e := range raw {
				mw = max(mw, e.a[0]+1, e.b[0]+1)
				mh = max(mh, e.a[1]+1, e.b[1]+1)
			}
			if w == 0 {
				w = mw
			}
			if h == 0 {
				h = mh
			}
		}
		g.Grid = Grid{W: w, H: h, R: opt.R}
		g.N = w * h
	} else {
		g.N = opt.N
		if g.N == 0 {
			for _, e := range raw {
				g.N = max(g.N, e.a[0]+1, e.b[0]+1)
			}
		}
	}
	g.Edges = make([][2]int32, 0, len(raw))
	seen := make(map[[2]int32]int, len(raw))
	for _, e := range raw {
		var u, v int
		if grid == 1 {
			for _, p := range [][2]int{e.a, e.b} {
				if p[0] >= g.Grid.W || p[1] >= g.Grid.H {
					return nil, bad(e.line, "vertex %d,%d outside the %d×%d grid", p[0], p[1], g.Grid.W, g.Grid.H)
				}
			}
			u, v = g.Grid.Vertex(e.a[0], e.a[1]), g.Grid.Vertex(e.b[0], e.b[1])
			if l := g.Grid.Length(u, v); opt.R > 0 && l > opt.R {
				return nil, bad(e.line, "edge %s %s has length %d > r=%d", g.Grid.Name(u), g.Grid.Name(v), l, opt.R)
			}
		} else {
			u, v = e.a[0], e.b[0]
			if max(u, v) >= g.N {
				return nil, bad(e.line, "vertex %d out of range (n=%d)", max(u, v), g.N)
			}
		}
		if u == v {
			return nil, bad(e.line, "self-loop at %s", g.Grid.Name(u))
		}
		k := [2]int32{int32(min(u, v)), int32(max(u, v))}
		if first, dup := seen[k]; dup {
			return nil, bad(e.line, "edge %s %s listed again (first at line %d)", g.Grid.Name(u), g.Grid.Name(v), first)
		}
		seen[k] = e.line
		g.Edges = append(g.Edges, k)
	}
	return g, nil
}

// parseName parses a vertex name: a number, or x,y on a grid.
func parseName(tok string, grid bool) ([2]int, error) {
	var p [2]int
	parts := []string{tok}
	if grid {
		parts = strings.Split(tok, ",")
		if len(parts) != 2 {
			return p, fmt.Errorf("vertex %q: want x,y", tok)
		}
	}
	for i, s := range parts {
		x, err := strconv.Atoi(s)
		if err != nil || x < 0 || x > 1<<30 {
			return p, fmt.Errorf("vertex %q: want non-negative integers", tok)
		}
		p[i] = x
	}
	return p, nil
}

// WriteEdges writes g in Graph Golf's format, one edge a line in
// increasing order: "u v", or "x1,y1 x2,y2" for a grid graph.
func WriteEdges(w io.Writer, g *Graph) error {
	es := slices.Clone(g.Edges)
	for i, e := range es {
		if e[0] > e[1] {
			es[i] = [2]int32{e[1], e[0]}
		}
	}
	slices.SortFunc(es, func(a, b [2]int32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	bw := bufio.NewWriter(w)
	for _, e := range es {
		bw.WriteString(g.Grid.Name(int(e[0])))
		bw.WriteByte(' ')
		bw.WriteString(g.Grid.Name(int(e[1])))
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("golf: writing edges: %w", err)
	}
	return nil
}

// WriteFile writes g to the named file with WriteEdges.
func WriteFile(name string, g *Graph) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("golf: %w", err)
	}
	if err := WriteEdges(f, g); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("golf: %w", err)
	}
	return nil
}
