package apsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/reduce"
)

// Options control a computation. The zero value picks the engine
// automatically and uses every CPU.
type Options struct {
	// Algorithm is an engine name ("fw", "blocked") or "auto" (also "").
	Algorithm string
	// Threads caps the CPU threads; 0 means all.
	Threads int
	// Tile is the blocked engine's tile width (a multiple of 16); 0 means
	// the default.
	Tile int
	// Reachable takes every measure over the pairs that have a path instead
	// of reporting infinity for a disconnected graph.
	Reachable bool
	// Paths keeps a successor matrix so that Distances.Path works.
	Paths bool
	// Progress, when set, receives the fraction of work done (0..1) from the
	// engine's goroutines.
	Progress func(fraction float64)
	// Device is "auto" (also ""), "cpu", "gpu" or "gpu:N". Under "auto" a
	// usable GPU takes large integer problems and the CPU the rest.
	Device string
	// Notice, when set, receives one line when "auto" would have used a GPU
	// but none is usable, saying why.
	Notice func(string)
}

// NegativeCycleError reports a negative cycle through Vertex.
type NegativeCycleError = cpu.NegativeCycleError

// ErrWeightsTooLarge is wrapped by the error for weights whose path lengths
// could overflow the lanes: beyond exact 64-bit integers, or beyond the
// finite range of float64 (where an overflowed length would read as "no
// path").
var ErrWeightsTooLarge = cpu.ErrWeightsTooLarge

// ErrEmptyGraph is returned for a graph without vertices.
var ErrEmptyGraph = errors.New("graph has no vertices")

// AllPairs computes the distance between every ordered pair of vertices.
func AllPairs(ctx context.Context, g *graph.Graph, opt Options) (*Distances, error) {
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	if opt.Algorithm == BoundsAlgorithm {
		return nil, errBoundsOnly
	}
	e, p, err := choose(g, opt)
	if err != nil {
		return nil, err
	}
	return e.Run(ctx, p)
}

// choose picks the engine for g and opt and reports a fallback notice.
func choose(g *graph.Graph, opt Options) (Engine, *Problem, error) {
	p := &Problem{Graph: g, Paths: opt.Paths, Threads: opt.Threads, Tile: opt.Tile, Progress: opt.Progress, Device: opt.Device}
	e, note, err := pickEngine(opt.Algorithm, p)
	if err != nil {
		return nil, nil, err
	}
	if note != "" && opt.Notice != nil {
		opt.Notice(note)
	}
	return e, p, nil
}

// rows returns every source's summary: reduced on the device by engines
// that can, else from the full matrix.
func rows(ctx context.Context, g *graph.Graph, opt Options) ([]reduce.Row, *Distances, error) {
	if g.N() == 0 {
		return nil, nil, ErrEmptyGraph
	}
	if opt.Algorithm == BoundsAlgorithm {
		return nil, nil, errBoundsOnly
	}
	e, p, err := choose(g, opt)
	if err != nil {
		return nil, nil, err
	}
	if rr, ok := e.(rowReducer); ok {
		start := time.Now()
		rs, device, err := rr.Rows(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		info := &Distances{Algorithm: e.Name(), Device: device, Threads: 1, Seconds: time.Since(start).Seconds(), n: g.N()}
		if e.Device() == "cpu" {
			info.Threads = cpu.Threads(opt.Threads)
		}
		info.lanes, info.laneName = cpu.Int32, "int32"
		if plan, err := cpu.PlanLanes(g); err == nil && e.Device() == "cpu" {
			info.laneName = plan.Lanes.String()
		}
		if g.Kind() == graph.FloatWeights {
			info.lanes, info.laneName = cpu.Float64, "float64"
			if e.Device() != "cpu" {
				info.laneName = "float32"
			}
		}
		return rs, info, nil
	}
	d, err := e.Run(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	return reduceRows(d, opt.Threads), d, nil
}

// Stats are the summary measures of a graph. Infinite measures marshal as
// JSON null.
type Stats struct {
	Vertices       int    `json:"vertices"`
	Arcs           int    `json:"arcs"`
	Edges          int    `json:"edges"`
	Directed       bool   `json:"directed"`
	Weighted       bool   `json:"weighted"`
	Connected      bool   `json:"connected"`
	Reachable      bool   `json:"reachable_only"`
	NoASPL         bool   `json:"no_aspl,omitempty"`
	Diameter       Length `json:"diameter"`
	Radius         Length `json:"radius"`
	ASPL           Mean   `json:"aspl"`
	ReachablePairs int64  `json:"reachable_pairs"`
	// Center and Periphery list the vertices whose eccentricity equals the
	// radius and the diameter.
	Center    []int   `json:"center"`
	Periphery []int   `json:"periphery"`
	Algorithm string  `json:"algorithm"`
	Device    string  `json:"device"`
	Lanes     string  `json:"lanes"`
	Threads   int     `json:"threads"`
	Seconds   float64 `json:"seconds"`
	// Traversals counts the breadth-first searches of the bounds method.
	Traversals int `json:"traversals,omitempty"`
}

// MarshalJSON writes the measures; when NoASPL (diameter and radius only)
// the fields that were not computed — aspl, reachable_pairs, center,
// periphery — are left out rather than given placeholder values. An empty
// center or periphery is [].
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	if !s.NoASPL {
		if s.Center == nil {
			s.Center = []int{}
		}
		if s.Periphery == nil {
			s.Periphery = []int{}
		}
		return json.Marshal(plain(s))
	}
	// Fields of the outer struct hide the embedded ones of the same name;
	// nil pointers with omitempty leave them out.
	return json.Marshal(struct {
		plain
		ASPL           *Mean  `json:"aspl,omitempty"`
		ReachablePairs *int64 `json:"reachable_pairs,omitempty"`
		Center         *[]int `json:"center,omitempty"`
		Periphery      *[]int `json:"periphery,omitempty"`
	}{plain: plain(s)})
}

// ComputeStats computes every summary measure of g.
func ComputeStats(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	start := time.Now()
	rs, d, err := rows(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	s := statsFromRows(rs, g, d.Exact(), opt.Reachable)
	s.Algorithm, s.Device, s.Lanes, s.Threads = d.Algorithm, d.Device, d.Lanes(), d.Threads
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// Eccentricities returns the eccentricity of every vertex: the largest
// distance from it, infinite when some vertex is unreachable unless
// opt.Reachable (then over the reachable vertices only).
func Eccentricities(ctx context.Context, g *graph.Graph, opt Options) ([]Length, error) {
	rs, d, err := rows(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	ecc := make([]Length, len(rs))
	for u, r := range rs {
		ecc[u] = rowEcc(r, d.Exact(), opt.Reachable)
	}
	return ecc, nil
}

// Path is one shortest path.
type Path struct {
	Vertices []int  `json:"vertices"`
	Length   Length `json:"length"`
}

// ShortestPath returns one shortest path from u to v; the error wraps
// ErrNoPath when there is none. Under "auto" it searches from u alone
// (breadth-first, Dijkstra or Bellman–Ford); a named engine computes all
// pairs with successors.
func ShortestPath(ctx context.Context, g *graph.Graph, u, v int, opt Options) (Path, error) {
	if u < 0 || u >= g.N() || v < 0 || v >= g.N() {
		return Path{}, fmt.Errorf("vertex out of range 0..%d: %d %d", g.N()-1, u, v)
	}
	kind, _, err := parseDevice(opt.Device)
	if err != nil {
		return Path{}, err
	}
	if (opt.Algorithm == "" || opt.Algorithm == "auto") && kind != "gpu" {
		return singleSourcePath(ctx, g, u, v)
	}
	opt.Paths = true
	d, err := AllPairs(ctx, g, opt)
	if err != nil {
		return Path{}, err
	}
	vs, err := d.Path(u, v)
	if err != nil {
		return Path{}, err
	}
	return Path{Vertices: vs, Length: d.At(u, v)}, nil
}

// Summarize reduces a distance matrix of g to its Stats. Seconds is the
// engine's time; ComputeStats overwrites it with the total.
func Summarize(d *Distances, g *graph.Graph, reachable bool, threads int) *Stats {
	s := statsFromRows(reduceRows(d, threads), g, d.Exact(), reachable)
	s.Algorithm, s.Device, s.Lanes, s.Threads, s.Seconds = d.Algorithm, d.Device, d.Lanes(), d.Threads, d.Seconds
	return s
}

// statsFromRows turns per-source summaries into Stats; every engine, dense or
// per-source, ends here.
func statsFromRows(rows []reduce.Row, g *graph.Graph, exact, reachable bool) *Stats {
	n := len(rows)
	s := &Stats{
		Vertices: n, Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: g.Weighted(),
		Reachable: reachable,
	}
	var total reduce.Wide
	var floatTotal float64
	ecc := make([]Length, n)
	for u, r := range rows {
		s.ReachablePairs += r.Reach
		total.AddWide(r.Sum)
		floatTotal += r.SumF
		ecc[u] = rowEcc(r, exact, reachable)
	}
	pairs := int64(n) * int64(n-1)
	s.Connected = s.ReachablePairs == pairs
	// The radius is the smallest eccentricity, finite whenever some vertex
	// reaches every other — also in a directed graph that is not strongly
	// connected (the arc 0→1 has radius 1, center {0}).
	s.Radius = ecc[0]
	for _, e := range ecc {
		if e.less(s.Radius) {
			s.Radius = e
		}
	}
	if !s.Connected && !reachable {
		s.Diameter = Infinite(!exact)
		s.ASPL = Mean(math.Inf(1))
	} else {
		// The diameter is the largest distance over pairs that have a path,
		// so sources reaching nobody (eccentricity 0 by convention) do not
		// count: with negative weights every real distance may be below 0.
		s.Diameter = rowEcc(reduce.Row{}, exact, reachable) // 0 when no pair has a path
		first := true
		for u, e := range ecc {
			if rows[u].Reach > 0 && (first || s.Diameter.less(e)) {
				s.Diameter, first = e, false
			}
		}
		switch {
		case s.ReachablePairs > 0 && exact:
			s.ASPL = Mean(total.Float() / float64(s.ReachablePairs))
		case s.ReachablePairs > 0:
			s.ASPL = Mean(floatTotal / float64(s.ReachablePairs))
		default:
			// A mean over no pair (one vertex, or --reachable with no
			// path) is undefined, as in igraph.
			s.ASPL = Mean(math.NaN())
		}
	}
	for u, e := range ecc {
		// An infinite radius has no center; the periphery is then the
		// vertices that do not reach every other.
		if !s.Radius.IsInf() && sameEcc(e, s.Radius) {
			s.Center = append(s.Center, u)
		}
		if sameEcc(e, s.Diameter) {
			s.Periphery = append(s.Periphery, u)
		}
	}
	return s
}

// sameEcc compares eccentricities: exactly for integers, within a relative
// 1e-9 for floats, since per-source engines add a path's lengths in a
// different order from each end.
func sameEcc(a, b Length) bool {
	if a.IsInf() || b.IsInf() || !a.IsFloat() {
		return a == b
	}
	return math.Abs(a.Float()-b.Float()) <= 1e-9*math.Max(1, math.Abs(b.Float()))
}

// rowEcc is the eccentricity of a source from its row summary.
func rowEcc(r reduce.Row, exact, reachable bool) Length {
	if r.Unreach && !reachable {
		return Infinite(!exact)
	}
	if r.Reach == 0 {
		if exact {
			return IntLength(0)
		}
		return FloatLength(0)
	}
	if exact {
		return IntLength(r.MaxI)
	}
	return FloatLength(r.MaxF)
}

func reduceRows(d *Distances, threads int) []reduce.Row {
	switch d.lanes {
	case cpu.Int32:
		return reduceRowsOf(d.i32, threads, true)
	case cpu.Int64:
		return reduceRowsOf(d.i64, threads, true)
	}
	return reduceRowsOf(d.f64, threads, false)
}

func reduceRowsOf[T cpu.Lane](m *cpu.Matrix[T], threads int, exact bool) []reduce.Row {
	rows := make([]reduce.Row, m.N)
	cpu.ParallelRows(m.N, threads, func(u int) {
		var r reduce.Row
		for v, x := range m.Row(u) {
			switch {
			case v == u:
			case x == m.Inf:
				r.Unreach = true
			case exact:
				r.AddInt(int64(x))
			default:
				r.AddFloat(float64(x))
			}
		}
		rows[u] = r
	})
	return rows
}
