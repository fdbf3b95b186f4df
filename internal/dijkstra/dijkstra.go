package dijkstra

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/reduce"
)

// ErrNegativeWeights is wrapped by the error Rows and Fill return for a graph
// with a negative arc, which Dijkstra cannot handle; Johnson can.
var ErrNegativeWeights = errors.New("negative arc lengths need the johnson engine")

// Rows runs Dijkstra from every source on up to threads goroutines
// (par.Threads) and returns the summary of each source's distances. Integer
// lengths give exact distances, which must fit 64-bit lanes (lanes.PlanFor);
// unweighted graphs use breadth-first search.
func Rows(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) ([]reduce.Row, error) {
	if err := checkNonNegative(g); err != nil {
		return nil, err
	}
	j, err := plainJob(g)
	if err != nil {
		return nil, err
	}
	return j.rows(ctx, threads, progress)
}

// Fill writes the distances from every source into m, a matrix of g made
// by lanes.NewMatrix: row u's first N entries become the distances from u, or
// m.Inf where there is no path; padding is left alone. Integer graphs fill
// any lanes that lanes.PlanFor's plan holds (Plan.Holds); float graphs
// need float64 lanes.
func Fill[T lanes.Lane](ctx context.Context, g *graph.Graph, m *lanes.Matrix[T], threads int, progress func(float64)) error {
	if err := checkNonNegative(g); err != nil {
		return err
	}
	if err := checkMatrix(g, m); err != nil {
		return err
	}
	j, err := plainJob(g)
	if err != nil {
		return err
	}
	return fill(ctx, j, m, threads, progress)
}

func checkNonNegative(g *graph.Graph) error {
	if g.HasNegativeWeights() {
		return fmt.Errorf("dijkstra: %w", ErrNegativeWeights)
	}
	return nil
}

// checkMatrix makes sure m has g's shape and lanes that hold every distance
// exactly: float lengths need float64 lanes; integer lengths any kind that
// the plan's Holds allows (int8 … int64 whose span bound covers them,
// float lanes while they stay exact), with InfWide for a wide plan.
func checkMatrix[T lanes.Lane](g *graph.Graph, m *lanes.Matrix[T]) error {
	if m.N != g.N() || m.Stride < m.N || len(m.Data) < m.N*m.Stride {
		return fmt.Errorf("dijkstra: a matrix of %d vertices (stride %d, %d cells) for a graph of %d", m.N, m.Stride, len(m.Data), g.N())
	}
	kind := m.Kind()
	if g.Kind() == graph.FloatWeights {
		if kind != lanes.Float64 {
			return fmt.Errorf("dijkstra: float lengths need float64 lanes, not %s", kind)
		}
		return nil
	}
	plan, err := lanes.PlanFor(g)
	if err != nil {
		return fmt.Errorf("dijkstra: %w", err)
	}
	if err := plan.Holds(kind); err != nil {
		return fmt.Errorf("dijkstra: %w", err)
	}
	if plan.Wide && !m.Wide() {
		return fmt.Errorf("dijkstra: a wide plan needs the matrix's infinity to be lanes.InfWide: %w", lanes.ErrWide)
	}
	return nil
}

// job is a prepared all-sources run: n sources and a maker of per-goroutine
// searchers over a shared read-only layout.
type job struct {
	n           int
	newSearcher func() searcher
	// sources, when not nil, are the sources searched, in order (the i-th
	// result is sources[i]'s); nil searches every vertex.
	sources []int32
}

// plainJob lays g out for Dijkstra (lengths already known non-negative):
// int32 distances when lanes.PlanFor proves they fit, else int64; float64
// for float lengths.
func plainJob(g *graph.Graph) (job, error) {
	switch g.Kind() {
	case graph.Unweighted:
		l := packLayout(g, func(int, int, int32) int32 { return 1 })
		return job{n: g.N(), newSearcher: func() searcher { return newBFS(l) }}, nil
	case graph.FloatWeights:
		l := packLayout(g, func(u, i int, _ int32) float64 { return positiveZero(g.FloatWeights(u)[i]) })
		return job{n: g.N(), newSearcher: func() searcher { return newFloatSearcher(l, nil) }}, nil
	}
	narrow, wide, err := planInt(g)
	if err != nil {
		return job{}, fmt.Errorf("dijkstra: %w", err)
	}
	if wide {
		return job{n: g.N(), newSearcher: func() searcher { return &wideSearcher{g: g} }}, nil
	}
	if narrow {
		l := packLayout(g, func(u, i int, _ int32) int32 { return int32(g.IntWeights(u)[i]) })
		return job{n: g.N(), newSearcher: func() searcher { return newIntSearcher(l, nil) }}, nil
	}
	l := packLayout(g, func(u, i int, _ int32) int64 { return g.IntWeights(u)[i] })
	return job{n: g.N(), newSearcher: func() searcher { return newIntSearcher(l, nil) }}, nil
}

// positiveZero maps -0 to +0, whose bits order correctly as a radix key.
func positiveZero(w float64) float64 {
	if w == 0 {
		return 0
	}
	return w
}

// rows returns the summary of every source's distances.
func (j job) rows(ctx context.Context, threads int, progress func(float64)) ([]reduce.Row, error) {
	count := j.n
	if j.sources != nil {
		count = len(j.sources)
	}
	rows := make([]reduce.Row, count)
	err := j.forEachSource(ctx, threads, progress, func(i, u int, res *result) {
		r := reduce.Row{Unreach: len(res.order) < j.n}
		reached := res.order[1:] // order[0] is u
		switch {
		case res.dF != nil:
			addFloats(&r, reached, res.dF, res.hF, u)
		case res.d32 != nil:
			addInts(&r, reached, res.d32, res.h64, u)
		default:
			addInts(&r, reached, res.d64, res.h64, u)
		}
		rows[i] = r
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func addInts[D int32 | int64](r *reduce.Row, vs []int32, dist []D, h []int64, u int) {
	if d32, ok := any(dist).([]int32); ok {
		addInt32s(r, vs, d32, h, u)
		return
	}
	if h == nil {
		for _, v := range vs {
			r.AddInt(int64(dist[v]))
		}
		return
	}
	hu := h[u]
	for _, v := range vs {
		r.AddInt(int64(dist[v]) - hu + h[v])
	}
}

// addInt32s is addInts for distances that lanes.PlanFor bounds by 2^30: n
// of them sum within int64, so the 128-bit sum is updated once.
func addInt32s(r *reduce.Row, vs []int32, dist []int32, h []int64, u int) {
	if len(vs) == 0 {
		return
	}
	var sum, top int64
	var harm float64
	if h == nil {
		var m int32
		for _, v := range vs {
			d := dist[v]
			sum += int64(d)
			m = max(m, d)
			if d > 0 {
				harm += 1 / float64(d)
			}
		}
		top = int64(m)
	} else {
		hu := h[u]
		top = math.MinInt64
		for _, v := range vs {
			d := int64(dist[v]) - hu + h[v]
			sum += d
			top = max(top, d)
			if d > 0 {
				harm += 1 / float64(d)
			}
		}
	}
	r.Reach += int64(len(vs))
	r.MaxI = top
	r.Sum.Add(sum)
	r.Harm += harm
}

func addFloats(r *reduce.Row, vs []int32, dist, h []float64, u int) {
	if h == nil {
		for _, v := range vs {
			r.AddFloat(dist[v])
		}
		return
	}
	hu := h[u]
	for _, v := range vs {
		r.AddFloat(dist[v] - hu + h[v])
	}
}

// fill writes every source's distances into m.
func fill[T lanes.Lane](ctx context.Context, j job, m *lanes.Matrix[T], threads int, progress func(float64)) error {
	return j.forEachSource(ctx, threads, progress, func(_, u int, res *result) {
		row := m.Row(u)
		if len(res.order) < j.n {
			for i := range row {
				row[i] = m.Inf
			}
		}
		switch {
		case res.dF != nil:
			fillFloats(row, res.order, res.dF, res.hF, u)
		case res.d32 != nil:
			fillInts(row, res.order, res.d32, res.h64, u)
		default:
			fillInts(row, res.order, res.d64, res.h64, u)
		}
		row[u] = 0 // exact even where float potentials round
	})
}

func fillInts[T lanes.Lane, D int32 | int64](row []T, vs []int32, dist []D, h []int64, u int) {
	if h == nil {
		for _, v := range vs {
			row[v] = T(dist[v])
		}
		return
	}
	hu := h[u]
	for _, v := range vs {
		row[v] = T(int64(dist[v]) - hu + h[v])
	}
}

func fillFloats[T lanes.Lane](row []T, vs []int32, dist, h []float64, u int) {
	if h == nil {
		for _, v := range vs {
			row[v] = T(dist[v])
		}
		return
	}
	hu := h[u]
	for _, v := range vs {
		row[v] = T(dist[v] - hu + h[v])
	}
}

// forEachSource searches from every vertex on up to threads goroutines, each
// with its own searcher, and hands each result to emit on the goroutine that
// found it. Sources are handed out one at a time from a shared counter, since
// their costs differ. It stops early, returning ctx.Err(), once ctx is done.
func (j job) forEachSource(ctx context.Context, threads int, progress func(float64), emit func(i, u int, res *result)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	count := j.n
	if j.sources != nil {
		count = len(j.sources)
	}
	if count == 0 {
		return nil
	}
	threads = max(1, min(par.Threads(threads), count))
	rep := newReporter(count, progress)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range threads {
		wg.Go(func() {
			s := j.newSearcher()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				u := i
				if j.sources != nil {
					u = int(j.sources[i])
				}
				s.search(int32(u))
				emit(i, u, s.result())
				rep.done()
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	rep.finish()
	return nil
}

// reporter calls progress with the fraction of sources done, from any
// goroutine but one call at a time and never going backwards, about 256
// times per run.
type reporter struct {
	progress func(float64)
	n, step  int64
	count    atomic.Int64
	mu       sync.Mutex
	last     int64
}

func newReporter(n int, progress func(float64)) *reporter {
	return &reporter{progress: progress, n: int64(n), step: max(1, int64(n)/256)}
}

func (r *reporter) done() {
	if r.progress == nil {
		return
	}
	c := r.count.Add(1)
	if c%r.step != 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c > r.last {
		r.last = c
		r.progress(float64(c) / float64(r.n))
	}
}

func (r *reporter) finish() {
	if r.progress != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.progress(1)
	}
}

// RowsFrom is Rows, or JohnsonRows when johnson, from the given sources
// alone: row i summarises the distances from sources[i] (valid vertex
// ids, repeats allowed).
func RowsFrom(ctx context.Context, g *graph.Graph, sources []int32, johnson bool, threads int, progress func(float64)) ([]reduce.Row, error) {
	j, err := sourceJob(ctx, g, sources, johnson)
	if err != nil {
		return nil, err
	}
	return j.rows(ctx, threads, progress)
}

// DistancesFrom writes the distances from sources[i] to every vertex v
// into row i of a len(sources)×n matrix: ints (none for float lengths)
// with unreachable where there is no path, else floats (+Inf for none).
func DistancesFrom(ctx context.Context, g *graph.Graph, sources []int32, johnson bool, unreachable int64, threads int, progress func(float64)) (ints []int64, floats []float64, err error) {
	j, err := sourceJob(ctx, g, sources, johnson)
	if err != nil {
		return nil, nil, err
	}
	n := g.N()
	if g.Kind() == graph.FloatWeights {
		floats = make([]float64, len(sources)*n)
	} else {
		ints = make([]int64, len(sources)*n)
	}
	err = j.forEachSource(ctx, threads, progress, func(i, u int, res *result) {
		if floats != nil {
			row := floats[i*n : (i+1)*n]
			for v := range row {
				row[v] = math.Inf(1)
			}
			fillFloats(row, res.order, res.dF, res.hF, u)
			row[u] = 0
			return
		}
		row := ints[i*n : (i+1)*n]
		for v := range row {
			row[v] = unreachable
		}
		if res.d32 != nil {
			fillInts(row, res.order, res.d32, res.h64, u)
		} else {
			fillInts(row, res.order, res.d64, res.h64, u)
		}
		row[u] = 0
	})
	if err != nil {
		return nil, nil, err
	}
	return ints, floats, nil
}

// sourceJob is the job of Rows (johnson: JohnsonRows) restricted to
// sources.
func sourceJob(ctx context.Context, g *graph.Graph, sources []int32, johnson bool) (job, error) {
	var j job
	var err error
	if johnson {
		j, err = johnsonJob(ctx, g)
	} else {
		if err := checkNonNegative(g); err != nil {
			return job{}, err
		}
		j, err = plainJob(g)
	}
	if err != nil {
		return job{}, err
	}
	for _, s := range sources {
		if s < 0 || int(s) >= g.N() {
			return job{}, fmt.Errorf("source %d out of range 0..%d", s, g.N()-1)
		}
	}
	j.sources = sources
	if j.sources == nil {
		j.sources = []int32{}
	}
	return j, nil
}
