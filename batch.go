package apsp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/reduce"
)

// Batch scheduling (StatsBatch). A graph whose planned engine runs on the
// CPU in under smallSeconds on one thread (by the engine's estimate) and
// needs at most smallBytes of working memory is small: small graphs run one
// per worker goroutine, each on one thread, so a batch of them costs no
// thread start-up or barrier per graph and keeps every core busy. Larger
// graphs, and graphs planned on a GPU, run afterwards one at a time with
// every thread (a GPU serialises its calls anyway). With these bounds an
// unweighted 16-regular graph is small up to about 20 000 vertices and a
// dense weighted one up to about 1 300. One thread per graph measured 1.6
// to 2 times faster per graph than a ComputeStats loop at n = 1024 and as
// fast at n = 4096 (docs/perf.md, "Many graphs"), so the bounds only keep
// long runs, whose memory times the workers could exhaust the machine and
// whose results would otherwise wait for the slowest, one at a time.
var (
	smallSeconds = 0.25 // tests lower it to send graphs to the one-at-a-time pass
	smallBytes   = uint64(256 << 20)
)

// ErrNilGraph is returned for a nil graph (by the batch calls, for that
// graph alone).
var ErrNilGraph = errors.New("graph is nil")

// StatsBatch computes ComputeStats(ctx, graphs[i], opt) for every graph and
// returns the results in input order: stats[i] is graph i's Stats, or nil
// when errs[i] says why it has none. Errors are per graph: a graph that
// fails (no vertices, a negative cycle, weights too large, too little
// memory, a nil graph: ErrNilGraph) fails alone and the others complete.
// Invalid options fail every graph with the same error (wrapping
// ErrInvalidOptions); when ctx is cancelled, the graphs not finished by
// then fail with ctx.Err().
//
// The batch is spread over the CPU threads opt.Threads allows (0: all):
// graphs whose estimated time on one thread is short (a quarter of a
// second; an unweighted 16-regular graph up to about 20 000 vertices, a
// dense weighted one up to about 1 300) run one per worker goroutine, each
// on one thread — several threads per graph only when there are fewer
// graphs than threads — and larger ones, or those planned on a GPU, run
// after them one at a time with every thread. Each worker keeps its goroutine and its last plan
// across graphs: unweighted graphs of the same size and direction reuse
// the plan (engine, lanes, memory estimate) without resolving it again.
// "auto" chooses each graph's engine as ComputeStats would with every
// thread, so Stats.Algorithm is what ComputeStats reports; Stats.Threads
// and Stats.Seconds are the graph's own (1 for a small graph in a large
// batch; the seconds of its computation, not of the batch).
//
// With opt.Device "gpu" or "gpu:N" and the engine left to "auto", the
// unweighted graphs of 1 to 1024 vertices are searched together by the
// GPU bulk search (a thread block per graph), in groups of 2048 streamed
// through the GPU (StatsBatchWith chooses the group): their Stats name the
// algorithm "gpu-bulk" and the GPU, and Seconds is their group's time
// divided by its graphs. Likewise the integer-weighted graphs of 1 to
// 2048 vertices go to the GPU bulk Floyd–Warshall ("gpu-bulk-fw", int32
// lanes, many graphs a launch), except those whose lengths int32 cannot
// hold or that have a negative cycle. The other graphs run one at a time
// on the GPU as ComputeStats would. Under the "auto" device the bulk paths
// take graphs only when a GPU is already open in the process (the batch
// never pays the GPU's start-up, about 0.3 s) and their estimate beats the
// CPU's: on an H100 with 16 host cores (docs/perf.md) the bulk search took
// 15–29 µs a graph of 1024 vertices and degree 16 where the CPU batch took
// 35–78 µs.
//
// opt.Progress, when set, receives the fraction of the batch done (graphs
// finished, and the progress of a large graph while it runs); opt.Notice
// receives each distinct line once per batch.
func StatsBatch(ctx context.Context, graphs []*graph.Graph, opt Options) (stats []*Stats, errs []error) {
	return StatsBatchWith(ctx, graphs, opt, BatchOptions{})
}

// BatchOptions are what StatsBatchWith takes beyond Options: how the GPU
// bulk search groups the batch, and results handed over as they become
// final.
type BatchOptions struct {
	// GroupSize is b, the graphs of a group of the GPU bulk search: the
	// graphs it takes are searched in groups of b, each group's copies
	// overlapping the previous group's kernels on another CUDA stream, and
	// each group is reduced to Stats as soon as its rows are back. A small
	// b gives the first results sooner, a large one more graphs a second
	// (docs/perf.md, "Streaming groups"). 0 chooses 2048 graphs. It
	// also bounds the rows held before reduction (56 bytes a vertex): at
	// most four groups' (with the default two streams) at once.
	// Negative is invalid.
	GroupSize int
	// Ready, when set, is called with each run [lo, hi) of graphs whose
	// results have become final, in input order (lo is the previous
	// call's hi; the calls cover the batch unless it stops early), one
	// call at a time, from the batch's goroutines: stats and errs are the
	// results of graphs lo to hi-1. A slow Ready delays the batch.
	Ready func(lo, hi int, stats []*Stats, errs []error)
}

// defaultGroup is the GPU bulk search's group when BatchOptions leaves it
// to the batch.
const defaultGroup = 2048

// StatsBatchWith is StatsBatch with BatchOptions: a group size for the GPU
// bulk search and results handed to bo.Ready in input order as they
// become final, so that a caller can write them out before the batch
// ends. An invalid bo fails every graph as invalid options do.
func StatsBatchWith(ctx context.Context, graphs []*graph.Graph, opt Options, bo BatchOptions) (stats []*Stats, errs []error) {
	return statsBatch(ctx, graphs, opt, bo, false, nil)
}

// statsBatch is StatsBatchWith. With summary only the fields a Summary
// reports are asked for, as SummaryBatch does (statsOf may leave the
// others zero). keep, when not nil, is an Evaluator's plan kept across
// calls: the workers start from it and leave theirs there.
func statsBatch(ctx context.Context, graphs []*graph.Graph, opt Options, bo BatchOptions, summary bool, keep *keptPlan) (stats []*Stats, errs []error) {
	stats, errs = make([]*Stats, len(graphs)), make([]error, len(graphs))
	err := opt.Validate(false)
	if err == nil && bo.GroupSize < 0 {
		err = &OptionError{Option: "group size", Msg: fmt.Sprintf("%d graphs: want 0 (automatic) or more", bo.GroupSize)}
	}
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		if bo.Ready != nil && len(graphs) > 0 {
			bo.Ready(0, len(graphs), stats, errs)
		}
		return stats, errs
	}
	b := &batch{ctx: ctx, graphs: graphs, opt: opt, stats: stats, errs: errs, threads: par.Threads(opt.Threads),
		progress: opt.Progress, callerNotice: opt.Notice, group: bo.GroupSize, ready: bo.Ready, summary: summary, keep: keep}
	if b.group == 0 {
		b.group = defaultGroup
	}
	if b.ready != nil {
		b.final = make([]bool, len(graphs))
	}
	b.opt.Notice = b.notice
	b.opt.Progress = nil // the batch reports progress itself
	b.run()
	return stats, errs
}

// batch is one StatsBatch call.
type batch struct {
	ctx     context.Context
	graphs  []*graph.Graph
	opt     Options // the caller's, without Progress; Notice deduplicated
	stats   []*Stats
	errs    []error
	threads int       // every thread the batch may use
	summary bool      // only a Summary's fields are asked for (statsBatch)
	keep    *keptPlan // an Evaluator's plan across calls, or nil

	progress     func(float64) // the caller's Progress, or nil
	callerNotice func(string)  // the caller's Notice, or nil
	group        int           // graphs a group of the GPU bulk search

	// Results handed over in input order (BatchOptions.Ready).
	ready   func(lo, hi int, stats []*Stats, errs []error)
	readyMu sync.Mutex
	final   []bool // graph i's result is recorded
	upTo    int    // graphs [0, upTo) handed over

	done  atomic.Int64 // graphs finished
	mu    sync.Mutex
	later []int           // graphs to run one at a time with every thread, unordered
	seen  map[string]bool // the notices passed on
}

// run computes the batch: the small graphs on the workers, then the rest
// one at a time.
func (b *batch) run() {
	n := len(b.graphs)
	if n == 0 {
		return
	}
	todo := b.gpuBulkFW(b.gpuBulk())
	if len(todo) == 0 {
		return
	}
	workers := min(b.threads, len(todo))
	per := max(1, b.threads/workers) // threads per graph on a worker
	var next atomic.Int64
	work := func() {
		w := &worker{b: b, threads: per}
		if b.keep != nil {
			// A GPU opened since the kept plan was made changes what
			// "auto" picks: the plan is then made again.
			opened := gpu.Opened()
			w.last = b.keep.load(per, opened)
			defer func() { b.keep.store(w.last, per, opened) }()
		}
		for {
			k := int(next.Add(1) - 1)
			if k >= len(todo) {
				return
			}
			w.graph(todo[k])
		}
	}
	if workers == 1 {
		// One worker (one graph, or one thread) runs on the caller: a search
		// loop's call then starts no goroutine, and the engine's pooled
		// buffers and teams stay with the goroutine that used them last.
		work()
	} else {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(work)
		}
		wg.Wait()
	}
	// Large graphs in input order, so that a run is reproducible.
	slices.Sort(b.later)
	for _, i := range b.later {
		if err := b.ctx.Err(); err != nil {
			b.finish(i, nil, err)
			continue
		}
		g := b.graphs[i]
		opt := b.opt
		if b.progress != nil {
			total, before := float64(n), float64(b.done.Load())
			opt.Progress = func(f float64) { b.progress((before + min(max(f, 0), 1)) / total) }
		}
		pl, err := resolve(g, opt, plan.Rows)
		if err != nil {
			b.finish(i, nil, err)
			continue
		}
		s, err := statsOf(b.ctx, g, pl, opt.Reachable, b.summary)
		b.finish(i, s, err)
	}
}

// gpuBulk computes in the GPU bulk search, streamed in groups of b.group
// graphs (engine.BulkStream), the graphs it takes — unweighted, at most gpu.BulkMaxN vertices — when the engine is
// left to "auto" and the batch asks for a GPU ("gpu" or "gpu:N"), or the
// device is "auto" and engine.BulkWins (a GPU already open, the estimate
// lower), and returns the indices of the other graphs. When the search
// fails (no usable GPU, a driver error, cancellation) it leaves the graphs
// of the groups not yet back to the one-graph path, which then reports for each what
// ComputeStats would (under "auto": computes it on the CPU).
func (b *batch) gpuBulk() []int {
	fit, rest, gs, ordinal, ok := bulkShare(b.ctx, b.graphs, b.opt, b.threads)
	if !ok {
		return allOf(b.graphs)
	}
	// In groups streamed off the GPU, each reduced as soon as it is back
	// (the rows take 56 bytes a vertex until reduced: 5.7 GB for 10^5
	// graphs of 1024), while the GPU searches the next.
	start := time.Now()
	searched := 0
	err := engine.BulkStream(b.ctx, ordinal, gs, b.group, func(lo, hi int, rows [][]reduce.Row, device string) error {
		// The graphs of a group were searched together: each is given an
		// equal share of the time since the previous group. Their rows are
		// reduced on every thread (one after the other, the reduction took
		// ten times the search).
		each := time.Since(start).Seconds() / float64(hi-lo)
		start = time.Now()
		_ = par.For(context.Background(), b.threads, hi-lo, func(k int) {
			s := statsFromRows(rows[k], gs[lo+k], true, b.opt.Reachable)
			s.Algorithm, s.Device, s.Lanes, s.Threads, s.Seconds = engine.BulkName, device, lanes.Int32.String(), 1, each
			rows[k] = nil
			b.finish(fit[lo+k], s, nil)
		})
		searched = hi
		return nil
	})
	if err != nil {
		// The groups not delivered go the one-graph way.
		return append(rest, fit[searched:]...)
	}
	return rest
}

// bulkShare splits graphs between the GPU bulk search and the rest:
// fit (with its graphs gs) are the indices it takes — unweighted, 1 to
// gpu.BulkMaxN vertices — when the engine is left to "auto", no lanes are
// named, and the device is "gpu" or "gpu:N", or "auto" with
// engine.BulkWins on threads threads; ok is false when it takes none.
func bulkShare(ctx context.Context, graphs []*graph.Graph, opt Options, threads int) (fit, rest []int, gs []*graph.Graph, ordinal int, ok bool) {
	dev, _ := plan.ParseDevice(opt.Device) // validated by the caller
	if dev.Kind == "cpu" || (opt.Algorithm != "" && opt.Algorithm != "auto") || namedLanes(opt) {
		return nil, nil, nil, 0, false
	}
	for i, g := range graphs {
		if engine.BulkFits(g) {
			fit, gs = append(fit, i), append(gs, g)
		} else {
			rest = append(rest, i)
		}
	}
	if len(fit) == 0 || ctx.Err() != nil || (dev.Kind == "auto" && !engine.BulkWins(gs, threads)) {
		return nil, nil, nil, 0, false
	}
	return fit, rest, gs, dev.Ordinal, true
}

// allOf is every index of graphs.
func allOf(graphs []*graph.Graph) []int {
	all := make([]int, len(graphs))
	for i := range all {
		all[i] = i
	}
	return all
}

// gpuBulkFW computes the integer-weighted graphs among todo that
// engine.BulkFWFits takes (1 to engine.BulkFWMaxN vertices) by the GPU
// bulk Floyd–Warshall, under the same conditions as gpuBulk (engine left
// to "auto"; device "gpu" or "gpu:N", or "auto" with engine.BulkFWWins), in
// groups of b.group graphs, each reduced to Stats as soon as it is back,
// and returns the indices of the other graphs. A graph the bulk search
// refuses (lengths beyond int32, a negative cycle) and every graph of a
// group that fails go the one-graph way, which reports for each what
// ComputeStats would.
func (b *batch) gpuBulkFW(todo []int) []int {
	dev, _ := plan.ParseDevice(b.opt.Device)
	// Any named lanes, int32 included, keep graphs off the bulk FW, which
	// picks int16 or int32 per graph itself.
	if dev.Kind == "cpu" || (b.opt.Algorithm != "" && b.opt.Algorithm != "auto") || (b.opt.Lanes != "" && b.opt.Lanes != "auto") {
		return todo
	}
	var fit, rest []int
	var gs []*graph.Graph
	for _, i := range todo {
		if g := b.graphs[i]; engine.BulkFWFits(g) {
			fit, gs = append(fit, i), append(gs, g)
		} else {
			rest = append(rest, i)
		}
	}
	if len(fit) == 0 || b.ctx.Err() != nil || (dev.Kind == "auto" && !engine.BulkFWWins(gs, b.threads)) {
		return todo
	}
	for lo := 0; lo < len(fit); lo += b.group {
		hi := min(lo+b.group, len(fit))
		start := time.Now()
		rows, kinds, errs, device, err := engine.BulkFWRows(b.ctx, dev.Ordinal, gs[lo:hi])
		if err != nil {
			// This group and the ones after go the one-graph way.
			return append(rest, fit[lo:]...)
		}
		each := time.Since(start).Seconds() / float64(hi-lo)
		_ = par.For(context.Background(), b.threads, hi-lo, func(k int) {
			if errs[k] != nil {
				return
			}
			s := statsFromRows(rows[k], gs[lo+k], true, b.opt.Reachable)
			s.Algorithm, s.Device, s.Lanes, s.Threads, s.Seconds = engine.BulkFWName, device, kinds[k].String(), 1, each
			rows[k] = nil
			b.finish(fit[lo+k], s, nil)
		})
		for k, err := range errs {
			if err != nil {
				rest = append(rest, fit[lo+k])
			}
		}
	}
	return rest
}

// worker runs graphs on one goroutine, keeping its last plan.
type worker struct {
	b       *batch
	threads int
	last    *plan.Plan // the last plan made for an unweighted graph, or nil
}

// graph plans graph i and computes it when it is small; otherwise it
// queues it for the one-at-a-time pass.
func (w *worker) graph(i int) {
	b := w.b
	if err := b.ctx.Err(); err != nil {
		b.finish(i, nil, err)
		return
	}
	g := b.graphs[i]
	if g == nil {
		b.finish(i, nil, ErrNilGraph)
		return
	}
	pl, err := w.plan(g)
	if err != nil {
		b.finish(i, nil, err)
		return
	}
	if !w.small(pl) {
		b.mu.Lock()
		b.later = append(b.later, i)
		b.mu.Unlock()
		return
	}
	s, err := statsOf(b.ctx, g, pl, b.opt.Reachable, b.summary)
	b.finish(i, s, err)
}

// plan resolves g as ComputeStats would with every thread of the batch,
// then gives a CPU engine the worker's threads. An unweighted graph with
// the vertex and arc counts and direction of the worker's last one has the
// same plan, which is reused — unless that plan computes in packed lanes
// (int8, int16): those were chosen from a bound proven by searching that
// graph (lanes.Plan.Tighten), which another graph of the same shape need
// not share (a cycle's diameter is not a star's). Lanes of 32 bits and
// more hold (n-1)·1, which depends on n alone.
func (w *worker) plan(g *graph.Graph) (*plan.Plan, error) {
	if l := w.last; l != nil && g.Kind() == graph.Unweighted && l.Problem.Lanes.Packed() == 1 {
		lg := l.Problem.Graph
		if g.N() == lg.N() && g.Arcs() == lg.Arcs() && g.Directed() == lg.Directed() {
			return withGraph(l, g), nil
		}
	}
	pl, err := resolve(g, w.b.opt, plan.Rows)
	if err != nil {
		return nil, err
	}
	if pl.Engine.Caps().Device == engine.CPU && !pl.Engine.Caps().Serial {
		p := *pl.Problem
		p.Threads = min(p.Threads, w.threads)
		pl.Problem = &p
	}
	if g.Kind() == graph.Unweighted {
		w.last = pl
	}
	return pl, nil
}

// withGraph is pl for another graph of the same plan.
func withGraph(pl *plan.Plan, g *graph.Graph) *plan.Plan {
	c, p := *pl, *pl.Problem
	p.Graph = g
	c.Problem = &p
	return &c
}

// small reports whether a planned graph runs on a worker.
func (w *worker) small(pl *plan.Plan) bool { return smallPlan(pl) }

// smallPlan reports whether a planned graph is small (see smallSeconds).
func smallPlan(pl *plan.Plan) bool {
	if pl.Engine.Caps().Device != engine.CPU {
		return false
	}
	return pl.Memory <= smallBytes && pl.Engine.Estimate(pl.Problem) <= smallSeconds
}

// finish records graph i's result and reports progress.
func (b *batch) finish(i int, s *Stats, err error) {
	if err != nil {
		s = nil
	}
	b.stats[i], b.errs[i] = s, err
	done := b.done.Add(1)
	if b.progress != nil {
		b.progress(float64(done) / float64(len(b.graphs)))
	}
	if b.ready != nil {
		b.handOver(i)
	}
}

// handOver marks graph i final and passes the run of final results that
// now follows the last one handed over to Ready, in input order.
func (b *batch) handOver(i int) {
	b.readyMu.Lock()
	defer b.readyMu.Unlock()
	b.final[i] = true
	lo := b.upTo
	for b.upTo < len(b.final) && b.final[b.upTo] {
		b.upTo++
	}
	if b.upTo > lo {
		b.ready(lo, b.upTo, b.stats[lo:b.upTo], b.errs[lo:b.upTo])
	}
}

// notice passes each distinct line to the caller's Notice once.
func (b *batch) notice(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[line] {
		return
	}
	if b.seen == nil {
		b.seen = map[string]bool{}
	}
	b.seen[line] = true
	if b.callerNotice != nil {
		b.callerNotice(line)
	}
}

// statsOf computes the Stats of g under its plan, as ComputeStats does
// after resolving: from the matrix, from the engine's Brief where it has
// one (exact distances, a seventh of the rows' size), else from its rows.
// With summary only the fields a Summary reports are asked for: where the
// plan's CPU engine counts pairs per distance without the matrix, they
// come from that histogram, which needs no per-source totals, and the
// radius, center and periphery are left zero; otherwise the center and
// periphery are left out.
func statsOf(ctx context.Context, g *graph.Graph, pl *plan.Plan, reachable, summary bool) (*Stats, error) {
	start := time.Now()
	var d *Distances
	var s *Stats
	hr, hist := pl.Engine.(engine.Histogrammer)
	hist = hist && summary && !pl.Dense && pl.Engine.Caps().Hist && pl.Engine.Caps().Device == engine.CPU
	if pl.Dense {
		var err error
		if d, err = run(ctx, pl); err != nil {
			return nil, err
		}
		s = statsFromRows(d.m.Rows(pl.Problem.Threads), g, d.Exact(), reachable)
	} else if hist {
		h, err := hr.Hist(ctx, pl.Problem)
		if err != nil {
			return nil, err
		}
		d = summaryInfo(pl, "cpu", start)
		s = summaryFromHist(h, g, reachable)
	} else if br, ok := pl.Engine.(engine.BriefReducer); ok {
		b, device, err := br.Brief(ctx, pl.Problem)
		if err != nil {
			return nil, err
		}
		d = summaryInfo(pl, device, start)
		s = statsFromBrief(b, g, reachable, !summary)
		b.Release()
	} else {
		rr, ok := pl.Engine.(engine.RowReducer)
		if !ok {
			return nil, fmt.Errorf("engine %s claims Caps.Rows but has no Rows method (a bug)", pl.Engine.Name())
		}
		rs, device, err := rr.Rows(ctx, pl.Problem)
		if err != nil {
			return nil, err
		}
		d = summaryInfo(pl, device, start)
		s = statsFromRows(rs, g, d.Exact(), reachable)
	}
	s.Algorithm, s.Device, s.Lanes, s.Threads = d.Algorithm, d.Device, d.Lanes(), d.Threads
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}
