package bfs

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp/internal/par"
)

// runLockstep runs the batched search as one Run of team (config.lockstep):
// groups groups of cfg.inner workers, group g searching batches g,
// g+groups, … with one batcher. The workers of a group pull the parts of
// each level and meet at the group's barrier, whose last arrival books the
// level, runs any pushes and readies the next pull alone. A search loop's
// small graph thus costs one fork and join a call and one barrier a level,
// where the other layout forks and joins a team every level from a batch's
// worker.
//
// Each worker owns a stretch of the vertices: it clears their words of
// visited, cur and next as each batch starts, and their totals once, in
// parallel and in its own core's cache, where the other layout clears
// whole arrays on one core as each batch starts and ends (with many cores,
// a large share of a small graph's call). The batchers' buffers are thus
// taken as they are from the pool, and left dirty.
//
// When the groups are done, the whole team meets at one more barrier and
// m (when not nil) merges the totals, a range of vertices a worker.
//
// It returns the groups' batchers and ctx.Err().
func runLockstep(ctx context.Context, team *par.Team, shared *batchShared, groups, batches int, first func(int) int, progress func(float64), m merger) ([]*batcher, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, size, inner := shared.g.N(), 64*shared.cfg.words, shared.cfg.inner
	var done atomic.Int64 // batches finished, for progress
	gs := make([]*lockGroup, groups)
	for g := range gs {
		gs[g] = &lockGroup{ctx: ctx, bar: par.NewBarrier(inner), next: g, stride: groups, batches: batches,
			first: first, size: size, n: n, covered: make([]paddedInt, inner), arcs: make([]paddedInt, inner), claims: make([]paddedCounter, inner)}
		gs[g].endBatch = func() { // in the barrier's action: the group waits for progress
			if progress != nil {
				progress(float64(done.Add(1)) / float64(batches))
			}
		}
	}
	tr := shared.cfg.trace
	teamSize := groups * inner
	all := par.NewBarrier(teamSize)
	var workers []*batcher
	work := func(k int) {
		tr.mark(k, 'b')
		defer tr.mark(k, 'e')
		gr := gs[k/inner]
		defer func() {
			if r := recover(); r != nil {
				// Every group stops at its next barrier (this one's
				// workers would wait for this worker for ever, the others
				// for it at the end), and Run re-raises the panic.
				for _, g := range gs {
					g.bar.Break()
				}
				all.Break()
				panic(r)
			}
		}()
		if k%inner == 0 {
			gr.b = newBatcher(shared) // here, so that its buffers come from this worker's slot of the pool
		}
		gr.work(tr, k, k%inner)
		if !all.Wait(func() { workers = collect(gs) }) || m == nil || ctx.Err() != nil {
			return
		}
		m.mergeRange(workers, k*n/teamSize, (k+1)*n/teamSize)
	}
	tr.mark(0, 'r')
	if team == nil {
		work(0)
	} else {
		team.Run(work)
	}
	tr.mark(0, 'j')
	return workers, ctx.Err()
}

// collect returns the groups' batchers.
func collect(gs []*lockGroup) []*batcher {
	workers := make([]*batcher, 0, len(gs))
	for _, gr := range gs {
		if gr.b != nil {
			workers = append(workers, gr.b)
		}
	}
	return workers
}

// paddedInt is an int on a cache line of its own, written by one worker.
type paddedInt struct {
	v int
	_ [56]byte
}

// paddedCounter is a counter on a cache line of its own.
type paddedCounter struct {
	atomic.Int64
	_ [56]byte
}

// What a lockstep group's workers do between two Waits.
const (
	lockClear = iota // clear their stretch for the batch about to start
	lockPull         // pull their parts of a level
	lockOver         // nothing more: the group's batches are done, or ctx is cancelled
)

// lockGroup is one group of a lockstep run: the state its barrier's
// action advances, which its workers read after each Wait.
type lockGroup struct {
	ctx           context.Context
	b             *batcher
	bar           *par.Barrier
	next          int // the next batch the group starts
	stride        int // groups
	batches       int
	first         func(batch int) int // the batch's first source
	size, n       int                 // sources a batch, vertices
	endBatch      func()
	phase         int             // lockClear, lockPull or lockOver
	count         int             // the sources of the batch being cleared for or searched
	level         int32           // the level being pulled
	inBatch       bool            // a batch is started and not done
	list          []int32         // where the current pull's parts write
	covered, arcs []paddedInt     // per worker: sources its clear found covered, and their arcs
	claims        []paddedCounter // per worker: the next of its chunks to pull (chunks > 0)
}

// work is worker i of the group, worker of the team: it clears its
// stretch of the totals, then clears and pulls until the group is over.
// Until its first Wait returns, only worker 0 may read gr.b.
func (gr *lockGroup) work(tr *stepTrace, worker, i int) {
	accClear := false
	for {
		tr.mark(worker, 'a')
		ok := gr.bar.Wait(gr.advance)
		tr.mark(worker, 'l')
		if !ok || gr.phase == lockOver {
			return
		}
		b, k := gr.b, gr.level
		if gr.phase == lockClear {
			lo, hi := gr.stretch(i)
			if !accClear && !b.cfg.histOnly { // the group's first batch: the totals too
				clear(b.acc[lo:hi])
				accClear = true
			}
			b.fillVisited(lo, hi, gr.count)
			clear(b.cur[lo*b.w : hi*b.w])
			clear(b.next[lo*b.w : hi*b.w])
			gr.covered[i].v, gr.arcs[i].v = b.setSources(gr.first(gr.next), gr.count, lo, hi)
			continue
		}
		if b.cfg.chunks == 0 {
			if i < len(b.parts) { // a graph with fewer vertices than workers has fewer parts
				b.pullPart(k, i, gr.list)
			}
			continue
		}
		// Its own chunks first, then the others' that are left, so that
		// a worker slowed down (by its core, or a level's uneven parts)
		// does not hold the whole group at the barrier.
		inner, c := len(gr.claims), b.cfg.chunks
		for d := range inner {
			owner := (i + d) % inner
			for {
				j := int(gr.claims[owner].Add(1) - 1)
				if j >= c {
					break
				}
				if p := owner*c + j; p < len(b.parts) {
					b.pullPart(k, p, gr.list)
				}
			}
		}
	}
}

// stretch is the vertices worker i clears: its part, or its chunks, so
// that it clears the lines it mostly writes.
func (gr *lockGroup) stretch(i int) (lo, hi int) {
	b := gr.b
	c := max(1, b.cfg.chunks)
	parts := len(b.parts)
	return b.split[min(i*c, parts)], b.split[min((i+1)*c, parts)]
}

// advance is the barrier's action, run alone: it books the level just
// pulled or starts the batch just cleared for, then runs the group's
// batches on until the next clear or pull (pushes run here, serially) or
// the end.
func (gr *lockGroup) advance() {
	b := gr.b
	switch {
	case gr.phase == lockPull:
		b.endLevel(gr.level, b.pullEnd())
		gr.level++
	case gr.phase == lockClear && gr.level == 0 && !gr.inBatch && gr.count > 0:
		// The workers have cleared their stretches for batch gr.next
		// and set its sources there.
		covered, arcs := 0, 0
		for i := range gr.covered {
			covered += gr.covered[i].v
			arcs += gr.arcs[i].v
		}
		b.startCounts(gr.first(gr.next), gr.count, covered, arcs)
		gr.next += gr.stride
		gr.inBatch, gr.level = true, 1
	}
	for {
		if !gr.inBatch {
			if gr.next >= gr.batches {
				gr.phase = lockOver
				return
			}
			f := gr.first(gr.next)
			gr.count, gr.level = min(gr.size, gr.n-f), 0
			gr.phase = lockClear
			return
		}
		if !b.more() {
			gr.inBatch = false
			gr.endBatch()
			continue
		}
		if gr.ctx.Err() != nil {
			gr.phase = lockOver
			return
		}
		if b.pushNext() {
			b.endLevel(gr.level, b.push(gr.level))
			gr.level++
			continue
		}
		gr.list = b.pullBegin()
		for i := range gr.claims {
			gr.claims[i].Store(0)
		}
		gr.phase = lockPull
		return
	}
}

// stepTrace records when each worker of a lockstep run reaches each step:
// b and e its start and end, a and l its arrival at a barrier and its
// leaving it, and on worker 0 S the call, s the search, m its set-up done,
// t the team taken, r and j the fork and the join, d the merge done and
// z the buffers given back. Only the
// timeline benchmark sets one (config.trace); a nil trace records nothing.
type stepTrace struct {
	base time.Time
	at   [][]stepEvent // a list per team worker
}

type stepEvent struct {
	what byte
	ns   int64 // since base
}

func (t *stepTrace) mark(worker int, what byte) {
	if t != nil {
		t.at[worker] = append(t.at[worker], stepEvent{what, int64(time.Since(t.base))})
	}
}
