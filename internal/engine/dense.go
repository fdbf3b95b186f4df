package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/dijkstra"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/sysmem"
)

// cpuLanes are the lanes the CPU matrix engines compute in.
var cpuLanes = []lanes.Kind{lanes.Int32, lanes.Int64, lanes.Float64}

// fwLanes add the packed byte and word lanes for the Floyd–Warshall
// engines, whose every step is d = min(d, a+b) over stored values: the
// lanes hold a graph when its distances, not every simple path, stay below
// the kind's infinity, and only for non-negative weights (lanes.Plan.Holds).
var fwLanes = []lanes.Kind{lanes.Int8, lanes.Int16, lanes.Int32, lanes.Int64, lanes.Float64}

// fw is the textbook triple loop: the reference every other engine is
// tested against. It tracks successors as it goes and finds negative cycles
// by the diagonal itself, independently of the check the fast engines use.
type fw struct{}

func (fw) Name() string { return "fw" }
func (fw) Caps() Caps {
	return Caps{Device: CPU, Weights: AnyWeights, Negative: true, Wide: true, Paths: true, Serial: true, Lanes: fwLanes}
}
func (fw) Supports(*Problem) error { return nil }
func (fw) WorkBytes(p *Problem, dense bool) uint64 {
	return matrixBytes(p.Graph.N(), p.Lanes, p.Paths)
}

func (e fw) Run(ctx context.Context, p *Problem) (*Result, error) {
	// A negative self-loop is not in the matrix, so it is checked here.
	if v, ok := p.Graph.NegativeSelfLoop(); ok {
		return nil, &cpu.NegativeCycleError{Vertex: v}
	}
	m, err := lanes.New(p.Lanes, p.Graph, p.Graph.N(), p.Plan.Wide)
	if err != nil {
		return nil, err
	}
	next, stride, err := cpu.FloydWarshallAny(ctx, m, p.Paths, p.Progress)
	if err != nil {
		return nil, err
	}
	r := finishDense(p, m, next, 1)
	r.NextStride = stride
	return r, nil
}

// blocked is the parallel blocked Floyd–Warshall with vectorised kernels.
type blocked struct{}

func (blocked) Name() string { return "blocked" }
func (blocked) Caps() Caps {
	// The vectorised kernels add without overflow checks: no wide plans.
	return Caps{Device: CPU, Weights: AnyWeights, Negative: true, Auto: true, Lanes: fwLanes}
}
func (blocked) Supports(p *Problem) error { return cpu.CheckTile(p.Tile) }
func (blocked) WorkBytes(p *Problem, dense bool) uint64 {
	return matrixBytes(cpu.TileSize(p.Graph.N(), cpu.TileFor(p.Lanes, p.Tile)), p.Lanes, p.Paths)
}

func (e blocked) Run(ctx context.Context, p *Problem) (*Result, error) {
	if p.Plan.Negative {
		if err := cpu.FindNegativeCycle(ctx, p.Graph); err != nil {
			return nil, err
		}
	}
	tile := cpu.TileFor(p.Lanes, p.Tile)
	m, err := lanes.New(p.Lanes, p.Graph, cpu.TileSize(p.Graph.N(), tile), p.Plan.Wide)
	if err != nil {
		return nil, err
	}
	if err := cpu.BlockedAny(ctx, m, cpu.BlockedOptions{Tile: tile, Threads: p.Threads, Progress: p.Progress}); err != nil {
		return nil, err
	}
	return finishDense(p, m, nil, p.Threads), nil
}

// finishDense normalises what infinity plus a negative length left below
// infinity, derives successors when asked and the engine kept none, and
// wraps the result.
func finishDense(p *Problem, m lanes.Any, next []int32, threads int) *Result {
	if p.Plan.Negative {
		cpu.NormalizeAny(m, p.Plan.MaxReal)
	}
	r := &Result{Matrix: m, Next: next, Device: "cpu", Threads: threads}
	if p.Paths && next == nil {
		r.Next, r.NextStride = Successors(m, p.Graph, p.Threads), m.Vertices()
	}
	return r
}

// matrixBytes is the host memory of a dense run: the matrix of size rows
// (padded) in kind's lanes, and the successor matrix when paths are kept.
func matrixBytes(size int, kind lanes.Kind, paths bool) uint64 {
	need, err := lanes.MatrixBytes(size, kind)
	if err != nil {
		return ^uint64(0)
	}
	if paths {
		succ, err := lanes.MatrixBytes(size, lanes.Int32)
		if err != nil {
			return ^uint64(0)
		}
		need += succ
	}
	return need
}

// dijkstraEngine runs Dijkstra from every source; "johnson" reweights with
// Bellman–Ford potentials first, so negative arcs work.
type dijkstraEngine struct{ johnson bool }

func (e dijkstraEngine) Name() string {
	if e.johnson {
		return "johnson"
	}
	return "dijkstra"
}

func (e dijkstraEngine) Caps() Caps {
	// Both answer wide plans: their searches form only simple paths'
	// lengths there (a wide plan has no negative arc, so johnson is plain
	// Dijkstra on it).
	return Caps{Device: CPU, Weights: AnyWeights, Negative: e.johnson, Wide: true, Rows: true, Harmonic: true, Sources: true, Auto: true,
		Lanes: cpuLanes}
}

func (dijkstraEngine) Supports(*Problem) error { return nil }

func (e dijkstraEngine) WorkBytes(p *Problem, dense bool) uint64 {
	n, m, t := uint64(p.Graph.N()), uint64(p.Graph.Arcs()), uint64(p.Threads)
	arc := uint64(8 + p.Lanes.Bytes()) // a head and a length, padded
	if p.Lanes.Bytes() <= 4 {
		arc = 8
	}
	need := 8*n + arc*m + t*perThreadSearch*n
	if e.johnson {
		need += potentialBytes * n
	}
	if dense {
		return need + matrixBytes(p.Graph.N(), p.Lanes, p.Paths)
	}
	return need + n*RowVertexBytes
}

func (e dijkstraEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	search := dijkstra.Rows
	if e.johnson {
		search = dijkstra.JohnsonRows
	}
	rows, err := search(ctx, p.Graph, p.Threads, p.Progress)
	if err != nil {
		return nil, "", err
	}
	return rowsInLanes(rows, p), "cpu", nil
}

// rowsInLanes gives rows that searches summed in the graph's own terms
// (integers unless its weights are floats) the float fields as well when
// p asks for float lanes (--lanes float64 on an integer graph), which the
// caller then reads: they were zero, and every measure with them. The
// lane plan admits float lanes only where they hold every distance
// exactly.
func rowsInLanes(rows []reduce.Row, p *Problem) []reduce.Row {
	if !p.Lanes.IsFloat() || p.Graph.Kind() == graph.FloatWeights {
		return rows
	}
	for i := range rows {
		r := &rows[i]
		r.MaxF, r.SumF = float64(r.MaxI), r.Sum.Float()
	}
	return rows
}

func (e dijkstraEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	n := p.Graph.N()
	m, err := lanes.New(p.Lanes, p.Graph, n, p.Plan.Wide)
	if err != nil {
		return nil, err
	}
	if e.johnson {
		err = dijkstra.JohnsonFillAny(ctx, p.Graph, m, p.Threads, p.Progress)
	} else {
		err = dijkstra.FillAny(ctx, p.Graph, m, p.Threads, p.Progress)
	}
	if err != nil {
		return nil, err
	}
	r := &Result{Matrix: m, Device: "cpu", Threads: p.Threads}
	if p.Paths {
		r.Next, r.NextStride = Successors(m, p.Graph, p.Threads), n
	}
	return r, nil
}

// RowsFrom summarises the chosen sources, one search each, in p's lanes
// as Rows (rowsInLanes: without it, float lanes on an integer graph read
// zeros).
func (e dijkstraEngine) RowsFrom(ctx context.Context, p *Problem, sources []int32) ([]reduce.Row, error) {
	g, sources := locally(p.Graph, sources, bfs.LocalNumbers)
	rows, err := dijkstra.RowsFrom(ctx, g, sources, e.johnson, p.Threads, p.Progress)
	if err != nil {
		return nil, err
	}
	return rowsInLanes(rows, p), nil
}

// locally returns g renumbered by numbers (bfs.LocalNumbers: in
// breadth-first order when g is large and the sources many enough for the
// searches' locality to pay for the copy; nil otherwise), and sources in
// the new numbers, when the copy fits in memory; else g and sources as
// they are. On `gen geometric n=2000000 d=6 weights=1..100`, `stats
// --sample 64` took 6.8–7.0 s of estimating against 13.1–13.3 s.
// Not with negative lengths either: Johnson's searches break ties of the
// reweighted lengths by number (a row's Σ 1/d would change in its last
// bit), and a negative cycle would be reported by a vertex's new number. Integer lengths only:
// a row of float lengths sums its distances in the order the search
// meets them, which a renumbering changes, and the last bit of a sum
// should not depend on how many sources were asked for. Rows of
// non-negative integer lengths do not depend on the numbering.
func locally(g *graph.Graph, sources []int32, numbers func(*graph.Graph, int) []int32) (*graph.Graph, []int32) {
	if g.Kind() == graph.FloatWeights || g.HasNegativeWeights() {
		return g, sources
	}
	newID := numbers(g, len(sources))
	if newID == nil {
		return g, sources
	}
	need := uint64(g.N()+1)*8 + uint64(g.Arcs())*12 + uint64(g.N())
	if _, _, fits := sysmem.Fits(need, 4); !fits {
		return g, sources
	}
	r, err := g.Renumber(newID)
	if err != nil {
		return g, sources
	}
	mapped := make([]int32, len(sources))
	for i, s := range sources {
		mapped[i] = newID[s]
	}
	return r, mapped
}

// WorkBytesFrom is a search from k sources: per thread a search's arrays
// and the rows or the distances (sourcesBytes).
func (e dijkstraEngine) WorkBytesFrom(p *Problem, k int, matrix bool) uint64 {
	return sourcesBytes(p, k, matrix)
}

// DistancesFrom gives the distances from the chosen sources.
func (e dijkstraEngine) DistancesFrom(ctx context.Context, p *Problem, sources []int32, unreachable int64) ([]int64, []float64, error) {
	return dijkstra.DistancesFrom(ctx, p.Graph, sources, e.johnson, unreachable, p.Threads, p.Progress)
}
