package bfs

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/reduce"
	"github.com/apsp/apsp/internal/sysmem"
)

// Summary is the result of a summary run.
type Summary struct {
	// Rows has one entry per source u, over the vertices v ≠ u: Reach,
	// MaxI (the eccentricity over the reachable vertices), Sum and Unreach
	// (some v ≠ u is unreachable).
	Rows []reduce.Row
	// Hist[d] is the number of ordered pairs (u, v), u ≠ v, at distance d;
	// Hist[0] is 0 and the length is the largest distance plus one.
	Hist []int64
}

// checkEvery is how many sources Rows runs between looks at ctx.
const checkEvery = 16

// Rows runs one BFS per source, the sources spread over threads goroutines
// (0 means every CPU), each with its own dist and queue. progress, if not
// nil, receives the fraction of sources done. It returns ctx.Err() if ctx is
// cancelled before the end.
func Rows(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) (*Summary, error) {
	return rowsFrom(ctx, g, nil, threads, progress, localAt)
}

// RowsFrom is Rows from the given sources alone (valid vertex ids,
// repeats allowed): Rows[i] summarises sources[i], Hist counts their
// pairs.
func RowsFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64)) (*Summary, error) {
	if err := checkSources(g, sources); err != nil {
		return nil, err
	}
	if sources == nil {
		sources = []int32{}
	}
	return rowsFrom(ctx, g, sources, threads, progress, localAt)
}

// DistancesFrom returns the distances from sources[i] to every vertex v
// at [i·n + v], -1 where there is no path.
func DistancesFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64)) ([]int32, error) {
	if err := checkSources(g, sources); err != nil {
		return nil, err
	}
	n, k := g.N(), len(sources)
	out := make([]int32, k*n)
	a := csr.Of(g)
	chunks := (k + checkEvery - 1) / checkEvery
	_, err := forEach(ctx, nil, threads, chunks, progress, func() []int32 { return make([]int32, n) }, func(queue []int32, c int) bool {
		for i := c * checkEvery; i < min(k, (c+1)*checkEvery); i++ {
			dist := out[i*n : (i+1)*n]
			for v := range dist {
				dist[v] = -1
			}
			search(&a, int(sources[i]), dist, queue)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func checkSources(g *graph.Graph, sources []int32) error {
	for _, s := range sources {
		if s < 0 || int(s) >= g.N() {
			return fmt.Errorf("source %d out of range 0..%d", s, g.N()-1)
		}
	}
	return nil
}

// rowsFrom is Rows over sources (nil: every vertex).
//
// A graph of at least localAt vertices searched from many sources is
// first renumbered in breadth-first order (localOrder), when the copy
// fits in memory: the rows do not depend on the numbering.
func rowsFrom(ctx context.Context, g *graph.Graph, sources []int32, threads int, progress func(float64), localAt int) (*Summary, error) {
	n := g.N()
	k := n
	if sources != nil {
		k = len(sources)
	}
	rows := make([]reduce.Row, k)
	chunks := (k + checkEvery - 1) / checkEvery
	sr := prepareSearch(g, k, localAt, threads)
	if sr.newID != nil {
		if sources == nil {
			sources = slices.Clone(sr.newID) // source i is vertex i: its new number
		} else {
			sources = sr.renumbered(sources)
		}
	}
	search := sr.search
	type scratch struct {
		*levelScratch
		counts, hist []int64
	}
	setup := func() *scratch { return &scratch{levelScratch: newLevelScratch(n)} }
	workers, err := forEach(ctx, nil, threads, chunks, progress, setup, func(w *scratch, c int) bool {
		for i := c * checkEvery; i < min(k, (c+1)*checkEvery); i++ {
			s := int32(i)
			if sources != nil {
				s = sources[i]
			}
			w.counts = search(s, w.levelScratch, w.counts[:0], nil)
			reach, ecc, sum, harm, hist := levelRow(w.counts, w.hist)
			w.hist = hist
			r := reduce.Row{Reach: reach, MaxI: ecc, Harm: harm, Unreach: reach < int64(n-1)}
			r.Sum.Add(sum)
			rows[i] = r
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	hists := make([][]int64, len(workers))
	for i, w := range workers {
		hists[i] = w.hist
	}
	return &Summary{Rows: rows, Hist: mergeHists(hists)}, nil
}

// levelSearcher is the arcs the level searches of a run read, as a
// search function: g's own, or, for a graph of at least localAt vertices
// searched from at least localSearches sources, a copy renumbered in
// breadth-first order (localOrder; narrowed where it fits) when it fits
// in memory, newID then giving each vertex's new number.
type levelSearcher struct {
	search func(s int32, sc *levelScratch, counts []int64, visit func(d int64, vs []int32)) []int64
	newID  []int32
}

func prepareSearch(g *graph.Graph, k, localAt, threads int) levelSearcher {
	a := csr.Of(g)
	wide := func(a csr.CSR) levelSearcher {
		return levelSearcher{search: func(s int32, sc *levelScratch, counts []int64, visit func(int64, []int32)) []int64 {
			return levelSearch(wideArcs(&a), s, sc, counts, visit)
		}}
	}
	if g.N() < localAt || k < localSearches {
		return wide(a)
	}
	b, newID, ok := localOrder(&a, threads)
	if !ok {
		return wide(a)
	}
	sr := wide(b)
	if narrow, ok := narrowArcs(&b, threads); ok {
		sr.search = func(s int32, sc *levelScratch, counts []int64, visit func(int64, []int32)) []int64 {
			return levelSearch(narrow, s, sc, counts, visit)
		}
	}
	sr.newID = newID
	return sr
}

// renumbered is vs in the new numbering.
func (sr levelSearcher) renumbered(vs []int32) []int32 {
	out := make([]int32, len(vs))
	for i, v := range vs {
		out[i] = sr.newID[v]
	}
	return out
}

// From runs one BFS from s over the arcs of g (lengths ignored). It sets
// dist[v] to the distance from s, or -1 when v is unreachable, and returns
// the eccentricity of s over the vertices it reaches and how many vertices
// it reaches, s included. dist must have length at least g.N(); queue is
// scratch and is allocated when shorter than g.N().
func From(g *graph.Graph, s int, dist []int32, queue []int32) (ecc int32, reached int) {
	n := g.N()
	dist = dist[:n]
	if len(queue) < n {
		queue = make([]int32, n)
	}
	for i := range dist {
		dist[i] = -1
	}
	a := csr.Of(g)
	return search(&a, s, dist, queue)
}

// localAt is the vertex count from which rowsFrom renumbers a graph
// before its searches, and localSearches the searches that pay for it (it
// costs about two searches). A search of a large graph numbered at random
// (a geometric graph's points in any order) misses the caches at almost
// every arc; in breadth-first order a vertex's neighbours have nearby
// numbers: on the 2-vCPU VM, `gen geometric n=10000000 d=6`, one search
// took 1.66–1.81 s numbered as generated and 0.50–0.63 s renumbered
// (renumbering 3.8 s).
const (
	localAt       = 1 << 20
	localSearches = 16
)

// localOrder returns a's arcs with the vertices renumbered in breadth-first
// order (from vertex 0, then from the first vertex not yet reached, and so
// on), and newID, each vertex's new number; ok is false, and nothing is
// made, when the copy (its arcs, offsets and the numbering) does not fit
// in the memory the process may still take.
func localOrder(a *csr.CSR, threads int) (b csr.CSR, newID []int32, ok bool) {
	n := a.N()
	need := uint64(len(a.Heads)+csr.HeadsSlack)*4 + uint64(n+1)*8 + uint64(n)*4*3
	if _, _, fits := sysmem.Fits(need, 4); !fits {
		return csr.CSR{}, nil, false
	}
	order, newID := breadthFirstOrder(a)
	off := make([]int, n+1)
	for i, v := range order {
		off[i+1] = off[i] + a.Degree(v)
	}
	// The arcs are copied on every thread: each vertex's go to their own
	// place, read at random from the old numbering (most of the copy's time).
	heads := make([]int32, len(a.Heads), len(a.Heads)+csr.HeadsSlack)
	par.Rows(n, threads, func(i int) {
		dst := heads[off[i]:off[i+1]]
		for j, w := range a.Nbrs(order[i]) {
			dst[j] = newID[w]
		}
		slices.Sort(dst) // heads stay sorted within a vertex, as a graph's
	})
	return csr.CSR{Off: off, Heads: heads}, newID, true
}

// breadthFirstOrder lists a's vertices in breadth-first order (from
// vertex 0, then from the first vertex not yet reached, and so on) and
// gives each its place in the list.
func breadthFirstOrder(a *csr.CSR) (order, newID []int32) {
	n := a.N()
	order, dist := make([]int32, n), make([]int32, n)
	for i := range dist {
		dist[i] = -1
	}
	placed := 0
	for root := range n {
		if dist[root] != -1 {
			continue
		}
		r, _ := a.BFS(int32(root), -1, dist, order[placed:])
		placed += r
	}
	newID = dist // reused: every vertex is placed once
	for i, v := range order {
		newID[v] = int32(i)
	}
	return order, newID
}

// LocalNumbers is the numbering that gives a large graph's searches
// locality (breadth-first order: a vertex's neighbours get nearby
// numbers), for engines that renumber a graph themselves (graph.Renumber)
// before searching it from many sources; nil when the graph is too small
// (under localAt vertices) or the sources too few (under localSearches)
// for it to pay.
func LocalNumbers(g *graph.Graph, sources int) []int32 {
	if g.N() < localAt || sources < localSearches {
		return nil
	}
	return BreadthFirstNumbers(g)
}

// BreadthFirstNumbers is each vertex's place in g's breadth-first order
// (as LocalNumbers, whatever the size).
func BreadthFirstNumbers(g *graph.Graph) []int32 {
	a := csr.Of(g)
	_, newID := breadthFirstOrder(&a)
	return newID
}

// search is From without the set-up, on g's arcs a: dist must be -1
// everywhere. On return queue[:reached] lists the reached vertices in order
// of distance, so the caller can reset just those.
func search(a *csr.CSR, s int, dist, queue []int32) (ecc int32, reached int) {
	reached, _ = a.BFS(int32(s), -1, dist, queue)
	return dist[queue[reached-1]], reached
}

// Matrix returns the n×n distance matrix of g row by row: dist[u*n+v] is the
// number of arcs on a shortest path from u to v, or -1 when there is none.
// It uses the batched search of BitRows; threads and progress are as there.
func Matrix(ctx context.Context, g *graph.Graph, threads int, progress func(float64)) ([]int32, error) {
	size, err := matrixSize(g.N())
	if err != nil {
		return nil, err
	}
	dist := make([]int32, size)
	if _, err := runBatches(ctx, g, defaultConfig(threads, g.N()), progress, dist); err != nil {
		return nil, err
	}
	return dist, nil
}

// matrixSize returns n·n, or an error wrapping graph.ErrTooLarge when the
// n·n·4 bytes of the matrix would overflow int.
func matrixSize(n int) (int, error) {
	if n > 0 && n > math.MaxInt/4/n {
		return 0, fmt.Errorf("distance matrix of %d vertices: %w", n, graph.ErrTooLarge)
	}
	return n * n, nil
}

// forEach calls run(w, i) for every task i in [0, count) on the workers of
// team (nil: on up to threads goroutines started for the call, 0 meaning
// every CPU), each worker with its own state w from setup, and returns the
// states of the workers that ran a task. Tasks are handed out in order from
// a shared counter so that uneven tasks balance; no new task starts once
// ctx is done. progress, if not nil, receives the fraction of tasks done:
// those for which run returns true. The calling goroutine is the first
// worker, so a run with one worker starts no goroutine (and with a team,
// none at all: waking a parked thread cost about as much as a 1024-vertex
// graph's whole search; see par.DefaultSpin).
func forEach[W any](ctx context.Context, team *par.Team, threads, count int, progress func(float64), setup func() W, run func(w W, i int) bool) ([]W, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	size := min(par.Threads(threads), count)
	if team != nil {
		size = min(team.Size(), count)
	}
	workers := make([]W, size)
	started := make([]bool, size)
	var next, done atomic.Int64
	work := func(k int) {
		if k >= size {
			return
		}
		var w W
		for {
			i := int(next.Add(1) - 1)
			if i >= count || ctx.Err() != nil {
				return
			}
			if !started[k] {
				w, started[k] = setup(), true
				workers[k] = w
			}
			if run(w, i) && progress != nil {
				progress(float64(done.Add(1)) / float64(count))
			}
		}
	}
	switch {
	case team != nil:
		team.Run(work)
	case size > 1:
		var wg sync.WaitGroup
		for k := 1; k < size; k++ {
			wg.Go(func() { work(k) })
		}
		work(0)
		wg.Wait()
	default:
		work(0)
	}
	ran := workers[:0]
	for k, w := range workers {
		if started[k] {
			ran = append(ran, w)
		}
	}
	return ran, ctx.Err()
}

// grow extends h so that h[d] exists.
func grow(h []int64, d int) []int64 {
	for len(h) <= d {
		h = append(h, 0)
	}
	return h
}

// mergeHists adds the per-goroutine histograms; the result has Hist[0] and
// is trimmed to the largest distance that occurs.
func mergeHists(hists [][]int64) []int64 {
	longest := 1
	for _, x := range hists {
		longest = max(longest, len(x))
	}
	h := make([]int64, 1, longest) // one allocation, not one a level
	for _, x := range hists {
		h = grow(h, len(x)-1)
		for d, c := range x {
			h[d] += c
		}
	}
	for len(h) > 1 && h[len(h)-1] == 0 {
		h = h[:len(h)-1]
	}
	h[0] = 0
	return h
}
