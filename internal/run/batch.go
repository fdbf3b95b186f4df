package run

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
)

// Small says which planned graphs of a batch are small: those whose engine
// runs on the CPU in at most Seconds on one thread (by its estimate) and
// needs at most Bytes of working memory. Small graphs run one per worker
// goroutine, each on one thread, so a batch of them costs no thread
// start-up or barrier per graph and keeps every core busy; larger graphs,
// and graphs planned on a GPU, run afterwards one at a time with every
// thread (a GPU serialises its calls anyway). With DefaultSmall and the
// engines' estimates, unweighted sparse graphs of many thousands of
// vertices are small but dense weighted ones only up to about a thousand
// vertices: the bounds keep long runs, whose memory times the workers
// could exhaust the machine and whose results would otherwise wait for the
// slowest, one at a time.
type Small struct {
	Seconds float64
	Bytes   uint64
}

// DefaultSmall is what the library's batches use.
var DefaultSmall = Small{Seconds: 0.25, Bytes: 256 << 20}

// smallKey is the context key of WithSmall.
type smallKey struct{}

// WithSmall returns ctx under which a batch counts as small what sm holds
// instead of DefaultSmall: tests send every graph to the one-at-a-time
// pass with Small{Seconds: -1}.
func WithSmall(ctx context.Context, sm Small) context.Context {
	return context.WithValue(ctx, smallKey{}, sm)
}

// holds reports whether a plan is small.
func (sm Small) holds(pl *plan.Plan) bool {
	if pl.Engine.Caps().Device != engine.CPU {
		return false
	}
	return pl.Memory <= sm.Bytes && pl.Engine.Estimate(pl.Problem) <= sm.Seconds
}

// DefaultGroup is the batch engines' group when BatchOptions leaves it to
// the batch.
const DefaultGroup = 2048

// BatchOptions are what a batch takes beyond the options of one graph.
type BatchOptions struct {
	// Group is the graphs of a batch engine's group (0: DefaultGroup).
	Group int
	// Ready, when set, receives each run [lo, hi) of graphs whose results
	// became final, in input order, one call at a time.
	Ready func(lo, hi int, stats []*result.Stats, errs []error)
	// Summary asks only for a Summary's fields: the batch engines reduce
	// on the device where they can, and the CPU engines may leave the
	// radius, center and periphery out.
	Summary bool
	// Keep, when not nil, is an Evaluator's plan kept across calls: the
	// workers start from it and leave theirs there.
	Keep *Kept
	// Engines are the batch engines offered the graphs, in order (nil:
	// engine.Batches()).
	Engines []engine.BatchEngine
}

// Batch computes Stats(ctx, graphs[i], o) for every graph, results and
// errors in input order; see apsp.StatsBatch for the contract. o's
// Progress receives the fraction of the batch done and its Notice each
// distinct line once.
func Batch(ctx context.Context, graphs []*graph.Graph, o *plan.Options, bo BatchOptions) ([]*result.Stats, []error) {
	stats, errs := make([]*result.Stats, len(graphs)), make([]error, len(graphs))
	if err := batchRefuses(o, bo.Group); err != nil {
		for i := range errs {
			errs[i] = err
		}
		if bo.Ready != nil && len(graphs) > 0 {
			bo.Ready(0, len(graphs), stats, errs)
		}
		return stats, errs
	}
	b := &batch{ctx: ctx, graphs: graphs, stats: stats, errs: errs, threads: o.CPUs(), progress: o.Progress,
		callerNotice: o.Notice, group: bo.Group, ready: bo.Ready, summary: bo.Summary, keep: bo.Keep, small: DefaultSmall}
	if b.group == 0 {
		b.group = DefaultGroup
	}
	if sm, ok := ctx.Value(smallKey{}).(Small); ok {
		b.small = sm
	}
	if b.ready != nil {
		b.final = make([]bool, len(graphs))
	}
	opt := *o
	opt.Notice = b.notice
	opt.Progress = nil // the batch reports progress itself
	b.opt = &opt
	b.engines = bo.Engines
	if b.engines == nil {
		b.engines = engine.Batches()
	}
	b.run()
	return stats, errs
}

// batchRefuses is the error of options a batch does not take, or nil.
func batchRefuses(o *plan.Options, group int) error {
	switch {
	case o.Bounds:
		return plan.ErrBoundsOnly()
	case o.NoMode("a batch") != nil:
		return o.NoMode("a batch")
	case o.NoEffective("a batch") != nil:
		return o.NoEffective("a batch")
	case o.NoSources("a batch") != nil:
		return o.NoSources("a batch")
	case group < 0:
		return &plan.OptionError{Option: "group size", Msg: fmt.Sprintf("%d graphs: want 0 (automatic) or more", group)}
	}
	return nil
}

// Summaries is Batch asking only for each graph's Summary.
func Summaries(ctx context.Context, graphs []*graph.Graph, o *plan.Options, keep *Kept) ([]result.Summary, []error) {
	stats, errs := Batch(ctx, graphs, o, BatchOptions{Summary: true, Keep: keep})
	sums := make([]result.Summary, len(graphs))
	for i, s := range stats {
		if errs[i] == nil {
			sums[i] = s.Summary()
		}
	}
	return sums, errs
}

// batch is one Batch call.
type batch struct {
	ctx     context.Context
	graphs  []*graph.Graph
	opt     *plan.Options // the caller's, without Progress; Notice deduplicated
	stats   []*result.Stats
	errs    []error
	threads int   // every thread the batch may use
	summary bool  // only a Summary's fields are asked for
	keep    *Kept // an Evaluator's plan across calls, or nil
	small   Small
	engines []engine.BatchEngine

	progress     func(float64) // the caller's Progress, or nil
	callerNotice func(string)  // the caller's Notice, or nil
	group        int           // graphs a group of a batch engine

	// Results handed over in input order (BatchOptions.Ready).
	ready   func(lo, hi int, stats []*result.Stats, errs []error)
	readyMu sync.Mutex
	final   []bool // graph i's result is recorded
	upTo    int    // graphs [0, upTo) handed over

	done  atomic.Int64 // graphs finished
	mu    sync.Mutex
	later []int           // graphs to run one at a time with every thread, unordered
	seen  map[string]bool // the notices passed on
}

// run computes the batch: what the batch engines take, then the small
// graphs on the workers, then the rest one at a time.
func (b *batch) run() {
	n := len(b.graphs)
	if n == 0 {
		return
	}
	todo := make([]int, n)
	for i := range todo {
		todo[i] = i
	}
	for _, e := range b.engines {
		if len(todo) == 0 {
			return
		}
		todo = b.batched(e, todo)
	}
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
			opened := engine.GPUsOpened()
			w.last = b.keep.Plan(per, opened)
			defer func() { b.keep.store(w.last, per, opened, b.small) }()
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
		// The caller is one of the workers: a search loop's batch of
		// two graphs starts one goroutine, not two, and waits for one.
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Go(work)
		}
		work()
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
		opt := *b.opt
		if b.progress != nil {
			total, before := float64(n), float64(b.done.Load())
			opt.Progress = func(f float64) { b.progress((before + min(max(f, 0), 1)) / total) }
		}
		pl, err := resolve(g, &opt, plan.Rows)
		if err != nil {
			b.finish(i, nil, err)
			continue
		}
		s, err := statsOf(b.ctx, g, pl, opt.Reachable, b.summary, nil)
		b.finish(i, s, err)
	}
}

// batched computes the graphs of todo that batch engine e takes, as the
// planner allows (plan.BatchMay, plan.BatchWins), in groups of b.group
// graphs, each reduced as soon as it is back while e computes the next;
// it returns the graphs left to the one-graph way: those e does not take,
// those it refused alone (lengths beyond its lanes, a negative cycle), and
// every graph of the groups not delivered when it fails (no usable GPU, a
// driver error, cancellation), for which the one-graph way then reports
// what Stats would.
func (b *batch) batched(e engine.BatchEngine, todo []int) []int {
	if !plan.BatchMay(b.opt, e) || b.ctx.Err() != nil {
		return todo
	}
	var fit, rest []int
	var gs []*graph.Graph
	for _, i := range todo {
		if g := b.graphs[i]; g != nil && e.Fits(g) {
			fit, gs = append(fit, i), append(gs, g)
		} else {
			rest = append(rest, i)
		}
	}
	if len(fit) == 0 || !plan.BatchWins(b.opt, e, gs, b.threads) {
		return todo
	}
	if sz, ok := e.(engine.BatchSummarizer); ok && b.summary {
		if b.totals(sz, fit, gs) {
			return rest
		}
		return todo
	}
	// The graphs of a group were computed together: each is given an equal
	// share of the time since the previous group was delivered (for an
	// engine that does not stream, that includes the previous group's
	// reduction). Their rows are reduced on every thread (one after the
	// other, the reduction took ten times the bulk search).
	start := time.Now()
	delivered := 0
	var refused []int
	var refusedMu sync.Mutex
	err := e.Stream(b.ctx, b.opt.Device.Ordinal, gs, b.group, func(lo, hi int, out []engine.BatchResult, device string) error {
		each := time.Since(start).Seconds() / float64(hi-lo)
		start = time.Now()
		_ = par.For(context.Background(), b.threads, hi-lo, func(k int) {
			r := &out[k]
			if r.Err != nil {
				refusedMu.Lock()
				refused = append(refused, fit[lo+k])
				refusedMu.Unlock()
				return
			}
			s := result.FromRows(r.Rows, gs[lo+k], true, b.opt.Reachable)
			s.Algorithm, s.Device, s.Lanes, s.Threads, s.Seconds = e.Name(), device, r.Lanes.String(), 1, each
			r.Rows = nil
			b.finish(fit[lo+k], s, nil)
		})
		delivered = hi
		return nil
	})
	rest = append(rest, refused...)
	if err != nil {
		rest = append(rest, fit[delivered:]...)
	}
	slices.Sort(rest)
	return rest
}

// totals computes the Summary fields of the graphs fit (gs) by e's
// reduction on the device and reports whether it did; when it fails
// nothing is recorded.
func (b *batch) totals(e engine.BatchSummarizer, fit []int, gs []*graph.Graph) bool {
	start := time.Now()
	ts, device, err := e.Totals(b.ctx, b.opt.Device.Ordinal, gs)
	if err != nil {
		return false
	}
	each := time.Since(start).Seconds() / float64(len(gs))
	for k, i := range fit {
		t := ts[k]
		s := result.FromTotals(t.Vertices, t.Connected, t.Pairs, t.Sum, t.Diameter, b.opt.Reachable)
		s.Algorithm, s.Device, s.Seconds = e.Name(), device, each
		b.finish(i, s, nil)
	}
	return true
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
	if !b.small.holds(pl) {
		b.mu.Lock()
		b.later = append(b.later, i)
		b.mu.Unlock()
		return
	}
	s, err := statsOf(b.ctx, g, pl, b.opt.Reachable, b.summary, nil)
	b.finish(i, s, err)
}

// plan resolves g as Stats would with every thread of the batch, then
// gives a CPU engine the worker's threads. An unweighted graph with the
// vertex and arc counts and direction of the worker's last one has the
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

// finish records graph i's result and reports progress.
func (b *batch) finish(i int, s *result.Stats, err error) {
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
