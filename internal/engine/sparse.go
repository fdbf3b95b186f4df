package engine

import (
	"context"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bfs"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// Working memory of the CPU engines besides the graph and the distance
// matrix, counted from their allocations (n vertices, m arcs, t threads):
//
//   - bitbfs (internal/bfs/bitbfs.go): the transpose of a directed graph,
//     8n + 20m at its peak (offsets; Builder buffer 16m and heads 4m); the
//     kernels' CSR copy 8n + 4m; per batch worker visited, cur and next
//     (3·8·W bytes a vertex, W ≤ 8 words), curList, nextList and cnts
//     (12n), and acc (24n) for a summary or buf (64·W n) for the matrix.
//     A worker's scratch is 228n (summary) or 716n (matrix) at W = 8;
//     bfs.Workers says how many run at once (as many as the threads and
//     batches allow while their visited, cur and next fit 256 MiB).
//   - bfs (internal/bfs/bfs.go): dist and queue, 8n per thread; its matrix
//     comes from the batched search, as bitbfs's.
//   - dijkstra (internal/dijkstra): the packed layout, 8n + 8m (int32
//     lengths) or 8n + 16m; per thread dist (≤ 8n), order (4n) and the
//     queue's entries (8 or 16 bytes; counted once per vertex, 16n).
//   - johnson: dijkstra's plus the potentials, 21n (h, hops, parent,
//     inQueue, queue), or the negative-cycle check before them, 17n.
//   - a summary (Rows): the rows, and the eccentricities, centre and
//     periphery the statistics derive from them: RowVertexBytes.
const (
	bitWorkerSummary = 3*8*8 + 12 + 24
	bitWorkerMatrix  = 3*8*8 + 12 + 64*8
	perThreadBFS     = 8
	perThreadSearch  = 8 + 4 + 16
	potentialBytes   = 21
	// RowVertexBytes is a summary's memory a vertex: its row, and the
	// eccentricity (an apsp.Length, 24 bytes), centre and periphery entries
	// the statistics derive from it.
	RowVertexBytes = uint64(unsafe.Sizeof(reduce.Row{})) + 24 + 2*8
)

// WorkBytesFrom is a search from k sources: per thread a search's arrays
// (bfs, counted as dijkstra's, the larger) or the batch workers' scratch
// and a directed graph's padded transpose (bitbfs: bfs.FromWorkBytes),
// and the rows, or the distances (8 bytes a pair, and 4 more where the
// search writes int32 first).
func (e bfsEngine) WorkBytesFrom(p *Problem, k int, matrix bool) uint64 {
	if !e.bitParallel {
		return sourcesBytes(p, k, matrix)
	}
	return bfs.FromWorkBytes(p.Graph, p.Threads, k) + resultBytes(p, k, matrix)
}

// sourcesBytes is a search a source on each of p.Threads threads, with
// arrays of 32 bytes a vertex, and its result.
func sourcesBytes(p *Problem, k int, matrix bool) uint64 {
	return uint64(p.Threads)*uint64(p.Graph.N())*32 + resultBytes(p, k, matrix)
}

// resultBytes is the rows of k sources, or their distances (8 bytes a
// pair, and 4 more where the search writes int32 first).
func resultBytes(p *Problem, k int, matrix bool) uint64 {
	if matrix {
		return uint64(k) * uint64(p.Graph.N()) * 12
	}
	return uint64(k) * RowVertexBytes
}

// bfsEngine runs a breadth-first search from every source: one at a time
// per goroutine ("bfs"), or 512 at a time as bit sets ("bitbfs").
type bfsEngine struct{ bitParallel bool }

func (e bfsEngine) Name() string {
	if e.bitParallel {
		return "bitbfs"
	}
	return "bfs"
}

// bfsLanes is the BFS engines' lanes, shared (as fwLanes): Caps is asked
// on every call of a search loop.
var bfsLanes = []lanes.Kind{lanes.Int32}

func (e bfsEngine) Caps() Caps {
	// Over every source the one-source-at-a-time search never beats the
	// batched one (Auto); from chosen sources, where a batch pays a level
	// for each distance its sources find, their estimates decide
	// (EstimateFrom).
	// Sums: one search a source (a batch's bits would need a row a source
	// again), so only the plain search claims them.
	return Caps{Device: CPU, Weights: Unweighted, Rows: true, Harmonic: true, Hist: true, Sources: true, Sums: !e.bitParallel,
		Auto: e.bitParallel, Lanes: bfsLanes}
}

func (bfsEngine) Supports(*Problem) error { return nil }

func (e bfsEngine) WorkBytes(p *Problem, dense bool) uint64 {
	g := p.Graph
	n, m, t := uint64(g.N()), uint64(g.Arcs()), uint64(p.Threads)
	if !e.bitParallel && !dense {
		return n*RowVertexBytes + t*perThreadBFS*n
	}
	need := 8*n + 4*m
	if g.Directed() {
		need += 8*n + 20*m
	}
	per := uint64(bitWorkerSummary)
	if dense {
		per = bitWorkerMatrix
	}
	need += uint64(bfs.Workers(int(t), g.N())) * per * n
	if dense {
		return need + matrixBytes(g.N(), lanes.Int32, p.Paths)
	}
	return need + n*RowVertexBytes
}

func (e bfsEngine) summary(ctx context.Context, p *Problem) (*bfs.Summary, error) {
	if e.bitParallel {
		return bfs.BitRows(ctx, p.Graph, p.Threads, p.Progress)
	}
	return bfs.Rows(ctx, p.Graph, p.Threads, p.Progress)
}

// Rows summarises every source.
func (e bfsEngine) Rows(ctx context.Context, p *Problem) ([]reduce.Row, string, error) {
	s, err := e.summary(ctx, p)
	if err != nil {
		return nil, "", err
	}
	return s.Rows, "cpu", nil
}

// Brief summarises every source for the summary measures: directly from
// the batched search, from the rows otherwise; both give the histogram
// they counted on the way (Brief.Hist).
func (e bfsEngine) Brief(ctx context.Context, p *Problem) (*reduce.Brief, string, error) {
	if e.bitParallel {
		b, err := bfs.BitBrief(ctx, p.Graph, p.Threads, p.Progress)
		return b, "cpu", err
	}
	s, err := e.summary(ctx, p)
	if err != nil {
		return nil, "", err
	}
	b := reduce.BriefOf(s.Rows)
	b.Hist = s.Hist
	return b, "cpu", nil
}

// Hist returns the number of ordered pairs at each distance: from the
// batched search's level counts alone, without per-source totals, or
// from the rows.
func (e bfsEngine) Hist(ctx context.Context, p *Problem) ([]int64, error) {
	if e.bitParallel {
		// A small graph is searched whole on one thread, which beats
		// the batched search on any number of threads there (at
		// n = 1024 on 2 threads by 4-5 times; on a 16-core host its
		// lockstep levels took 73-76 µs, the whole search about 60),
		// and a larger one on one thread in batches by the same kernel.
		if ctx.Err() == nil && p.Progress == nil {
			if h, ok := bfs.WholeHistOn(p.Graph, p.Threads); ok {
				return h, nil
			}
		}
		return bfs.BitHist(ctx, p.Graph, p.Threads, p.Progress)
	}
	s, err := e.summary(ctx, p)
	if err != nil {
		return nil, err
	}
	return s.Hist, nil
}

// HistFrom counts the pairs from sources at each distance by the whole
// search on one thread (bfs.WholeHistTo over the reversed arcs: a
// vertex's bits there are the sources that reach it), where it takes the
// graph: the bit-parallel engine on small graphs, no progress asked.
func (e bfsEngine) HistFrom(ctx context.Context, p *Problem, sources []int32) ([]int64, bool) {
	if !e.bitParallel || ctx.Err() != nil || p.Progress != nil || p.Graph.Kind() != graph.Unweighted {
		return nil, false
	}
	g := p.Graph
	if g.Directed() {
		g = g.Transpose()
	}
	return bfs.WholeHistTo(g, sources, p.Threads)
}

func (e bfsEngine) Run(ctx context.Context, p *Problem) (*Result, error) {
	n := p.Graph.N()
	data, err := bfs.Matrix(ctx, p.Graph, p.Threads, p.Progress)
	if err != nil {
		return nil, err
	}
	inf := lanes.InfOf[int32]()
	for i, x := range data {
		if x < 0 { // not reached
			data[i] = inf
		}
	}
	m := &lanes.Matrix[int32]{N: n, Size: n, Stride: n, Data: data, Inf: inf}
	r := &Result{Matrix: m, Device: "cpu", Threads: p.Threads}
	if p.Paths {
		r.Next, r.NextStride = Successors(m, p.Graph, p.Threads), n
	}
	return r, nil
}

// RowsFrom summarises the chosen sources: one search each (bfs), or
// batches of up to 512 searched at once as bit sets (bitbfs).
func (e bfsEngine) RowsFrom(ctx context.Context, p *Problem, sources []int32) ([]reduce.Row, error) {
	search := bfs.RowsFrom
	if e.bitParallel {
		search = bfs.BitRowsFrom
	}
	s, err := search(ctx, p.Graph, sources, p.Threads, p.Progress)
	if err != nil {
		return nil, err
	}
	return s.Rows, nil
}

// SumsFrom adds up the distances from the chosen sources, one plain
// search each (Caps.Sums: the plain engine's).
func (e bfsEngine) SumsFrom(ctx context.Context, p *Problem, sources []int32) (*bfs.Sums, error) {
	return bfs.SumsFrom(ctx, p.Graph, sources, p.Threads, p.Progress)
}

// DistancesFrom gives the distances from the chosen sources.
func (e bfsEngine) DistancesFrom(ctx context.Context, p *Problem, sources []int32, unreachable int64) ([]int64, []float64, error) {
	search := bfs.DistancesFrom
	if e.bitParallel {
		search = bfs.BitDistancesFrom
	}
	d, err := search(ctx, p.Graph, sources, p.Threads, p.Progress)
	if err != nil {
		return nil, nil, err
	}
	out := make([]int64, len(d))
	for i, x := range d {
		if x < 0 {
			out[i] = unreachable
		} else {
			out[i] = int64(x)
		}
	}
	return out, nil, nil
}
