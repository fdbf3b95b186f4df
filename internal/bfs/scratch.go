package bfs

import (
	"sync"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/csr"
	"github.com/apsp/apsp/internal/par"
)

// scratch is one batch worker's buffers. They are the bulk of a run's
// allocations (220 bytes a vertex for a summary), so a search loop that
// calls BitRows again and again on graphs of one size takes them from a
// scratchPool instead of allocating, zeroing and collecting them on every
// call.
type scratch struct {
	visited, cur, next []uint64
	curList, nextList  []int32
	cnts               []int32     // popcounts of next, parallel to nextList
	acc                []vertexAcc // summary mode
	buf                []uint8     // matrix mode: distances < 256 of the batch
	// The batcher's small slices, kept so that a loop's calls allocate
	// none of them (written before read).
	hist  []int64
	split []int
	parts []partResult
	// clean reports that cur, next and buf are zero over their whole
	// capacity: every batch leaves them so (see clearWords and flush), and
	// only a batch stopped by cancellation does not.
	clean bool
}

// scratchPool keeps scratch, padded heads and worker teams between runs.
// It is made of sync.Pools, so concurrent runs each get their own and the
// garbage collector empties it: a loop that stops calling holds nothing
// for long (a collected team stops its goroutines).
type scratchPool struct {
	bufs, arcs sync.Pool
	teams      sync.Map // team size -> *sync.Pool of *par.Team: one run takes teams of two sizes (batches, and parts of a level)
}

// scratches is the package's one pool, shared by every run. It holds no
// state a result depends on: get hands out buffers in the state a fresh
// allocation would have.
var scratches scratchPool

// get returns buffers for a worker on n vertices with w words a vertex;
// matrix asks for the matrix mode's byte buffer instead of acc, and
// noTotals for neither (config.histOnly: acc is left as it is, unused).
// cur, next and buf are zero; visited, the lists and cnts are as the
// batches expect (written before read); acc is zero. With asIs, cur, next
// and acc are left as they are: a lockstep run's workers clear them, each
// its own part (see lockstep.go).
func (p *scratchPool) get(n, w int, matrix, noTotals, asIs bool) *scratch {
	s, _ := p.bufs.Get().(*scratch)
	if s == nil {
		s = &scratch{clean: true}
	}
	if !s.clean && !asIs {
		clear(s.cur[:cap(s.cur)])
		clear(s.next[:cap(s.next)])
		clear(s.buf[:cap(s.buf)])
		s.clean = true
	}
	s.visited = fit(s.visited, n*w)
	s.cur = fit(s.cur, n*w)
	s.next = fit(s.next, n*w)
	s.curList = fit(s.curList, n)[:0]
	s.nextList = fit(s.nextList, n)[:0]
	s.cnts = fit(s.cnts, n)
	switch {
	case matrix:
		s.buf = fit(s.buf, n*64*w)
	case !noTotals:
		s.acc = fit(s.acc, n)
		if !asIs {
			clear(s.acc)
		}
	}
	return s
}

// put returns s to the pool; nil is ignored (a worker that never started).
func (p *scratchPool) put(s *scratch) {
	if s != nil {
		p.bufs.Put(s)
	}
}

// paddedArcs returns g's arcs with at least prefetchPad heads readable
// past the last arc, for the kernels that load ahead: g's own arrays when
// its heads have that capacity (package graph leaves csr.HeadsSlack), else
// a copy into a pooled buffer; giveBack returns the buffer. The copy was
// 64 KB a call at 1024 vertices of degree 16, written on the caller's core
// and read from every other.
func (p *scratchPool) paddedArcs(g *graph.Graph) (arcs *csr.CSR, giveBack func()) {
	a := csr.Of(g)
	if m := len(a.Heads); cap(a.Heads)-m >= prefetchPad {
		// As long as the padded copy (the kernels take &Heads[0], also
		// of a graph without arcs); the offsets bound every read.
		return &csr.CSR{Off: a.Off, Heads: a.Heads[:m+prefetchPad]}, func() {}
	}
	heads := p.heads(g)
	return padded(g, *heads), func() { p.putHeads(heads) }
}

// heads returns a buffer for g's heads followed by prefetchPad zeros.
func (p *scratchPool) heads(g *graph.Graph) *[]int32 {
	m := len(csr.Of(g).Heads)
	h, _ := p.arcs.Get().(*[]int32)
	if h == nil {
		h = new([]int32)
	}
	*h = fit(*h, m+prefetchPad)
	clear((*h)[m:]) // the padding, which an earlier, longer graph filled
	return h
}

// putHeads returns a heads buffer to the pool.
func (p *scratchPool) putHeads(h *[]int32) { p.arcs.Put(h) }

// team returns a team of size workers (nil for one: the caller alone).
func (p *scratchPool) team(size int) *par.Team {
	if size <= 1 {
		return nil
	}
	if t, _ := p.teamsOf(size).Get().(*par.Team); t != nil {
		return t
	}
	return par.NewTeam(size, par.DefaultSpin)
}

// putTeam returns a team to the pool; nil is ignored.
func (p *scratchPool) putTeam(t *par.Team) {
	if t != nil {
		p.teamsOf(t.Size()).Put(t)
	}
}

// teamsOf returns the pool of teams of size workers.
func (p *scratchPool) teamsOf(size int) *sync.Pool {
	if q, ok := p.teams.Load(size); ok {
		return q.(*sync.Pool)
	}
	q, _ := p.teams.LoadOrStore(size, new(sync.Pool))
	return q.(*sync.Pool)
}

// fit returns s with length k, reusing its storage when it can (the capacity
// is capped at k, so that code relying on cap sees exactly k). Storage
// beyond k keeps whatever it held.
func fit[T any](s []T, k int) []T {
	// A buffer far larger than needed (left by one large graph in a loop
	// of small ones) is dropped rather than kept alive by the pool.
	if cap(s) < k || cap(s) > 4*k+1<<16 {
		return make([]T, k)
	}
	return s[:k:k]
}
