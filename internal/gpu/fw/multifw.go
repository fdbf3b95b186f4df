package fw

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/lanes"
)

// One Floyd–Warshall over the GPUs of one host (issue 13, item 2).
//
// The matrix is cut into strips of S rows (S a multiple of the tile);
// strip i lives on GPU i mod k, each GPU holding its strips one after the
// other. Round Z takes the pivot vertices of strip Z, z0..z1, as the
// out-of-core rounds do (outofcore.go):
//
//  1. the owner of strip Z closes its pivot block in place (fwBlock, pitch
//     the stride) and multiplies the rest of the strip by the closed block
//     P*: the strip is then R(Z), the round's pivot rows;
//  2. every other GPU copies R(Z) from the owner into one of two receive
//     buffers: in one process by cuMemcpyPeerAsync (NVLink or PCIe peer
//     to peer where the GPUs reach each other, else staged by the driver;
//     peerLink), across processes by an NCCL broadcast (ncclLink,
//     ranks.go);
//  3. every GPU updates each of its strips but Z: pivot columns ⊗ P*, then
//     the other columns min(rest, cols ⊗ R(Z)) (two fw_strip launches).
//
// Lookahead: in round Z the owner of strip Z+1 updates that strip first,
// closes it (step 1 of round Z+1) and only then its other strips, so that
// R(Z+1) is on its way to the others while they still work on round Z. The
// copies run on a second stream of each receiver, which waits (on the
// device) for the owner's event; the receiver's products wait for the
// copy, and the owner's next change to a strip it sent waits for every
// receiver's copy of it. On the host, a worker blocks only for the events
// of other GPUs (promises), and each is recorded at an earlier step of the
// schedule than the one that waits for it, so the schedule cannot
// deadlock; a failing GPU cancels the context, which every wait selects
// on.
//
// Each round does the same arithmetic, in the same order per cell, as the
// out-of-core rounds on one GPU, and each strip's last round reduces its
// rows (fw_reduce with the strip's first vertex) into that GPU's
// summaries; integer lanes give the one-GPU results bit for bit.

// mgMaxBlock bounds S: the closing of a pivot block (an in-core blocked FW
// of S vertices) is work the other GPUs do not wait for, but larger
// blocks cost more memory for the receive buffers and coarser balance.
const mgMaxBlock = 4096

// mgPlan is the strip layout over k GPUs, in lanes.
type mgPlan struct {
	stride, tile, s, k int
	row                uint64 // bytes of a matrix row
}

// planMulti cuts stride rows into strips for k GPUs: S = block when it is
// positive (tests), else at most mgMaxBlock rows, and small enough that
// each GPU holds two strips where the matrix allows it.
func planMulti(stride, tile, laneBytes, k, block int) mgPlan {
	p := mgPlan{stride: stride, tile: tile, k: max(k, 1), row: uint64(stride) * uint64(laneBytes)}
	if block > 0 {
		p.s = max(block/tile, 1) * tile
		return p
	}
	want := (stride + 2*p.k - 1) / (2 * p.k)
	p.s = min(mgMaxBlock, max(tile, (want+tile-1)/tile*tile))
	return p
}

// strips is the number of strips (and rounds).
func (p mgPlan) strips() int { return (p.stride + p.s - 1) / p.s }

// rows is strip i's rows [r0, r1).
func (p mgPlan) rows(i int) (r0, r1 int) { return i * p.s, min((i+1)*p.s, p.stride) }

// owner is the worker that holds strip i.
func (p mgPlan) owner(i int) int { return i % p.k }

// offset is where strip i starts in its owner's buffer: the owner's
// earlier strips are all full (only the last strip may be short).
func (p mgPlan) offset(i int) uint64 { return uint64(i/p.k) * uint64(p.s) * p.row }

// owned lists worker j's strips.
func (p mgPlan) owned(j int) []int {
	var out []int
	for i := j; i < p.strips(); i += p.k {
		out = append(out, i)
	}
	return out
}

// localRows counts worker j's rows.
func (p mgPlan) localRows(j int) int {
	n := 0
	for _, i := range p.owned(j) {
		r0, r1 := p.rows(i)
		n += r1 - r0
	}
	return n
}

// mgOp is one step of a worker's schedule.
type mgOp struct {
	kind mgOpKind
	i, z int // the strip, the round
}

type mgOpKind int

const (
	opClose  mgOpKind = iota // close our strip i (its pivot block, then P*⊗strip): R(i), announced
	opPull                   // copy R(z) from its owner into receive buffer z mod 2, announced
	opAwait                  // wait for every other GPU's copy of our strip i (before it changes again)
	opUpdate                 // round z on our strip i: pivot columns ⊗ P*, then the rest through R(z)
	opFree                   // the receive buffer of R(z) is read no more
)

// schedule is worker j's steps, in order: the owner of strip 0 closes it
// and the others copy it; then round z updates the strips but z, the
// owner of z+1 first updating and closing strip z+1 (lookahead), the
// others queueing its copy before their round z — or, with late, after
// their first update of round z (at the round's end if they have none).
// A late copy starts on the device only when that update is done
// (mgRun.latePulls): an NCCL broadcast queued early would hold its SMs,
// waiting for the owner, while the products run.
func (p mgPlan) schedule(j int, late bool) []mgOp {
	rounds := p.strips()
	mine := p.owned(j)
	sent := make([]bool, rounds) // our strip went out and no change has awaited its copies
	var out []mgOp
	closeOrPull := func(i int) {
		if p.owner(i) == j {
			out = append(out, mgOp{kind: opClose, i: i})
			sent[i] = p.k > 1
		} else {
			out = append(out, mgOp{kind: opPull, z: i})
		}
	}
	update := func(i, z int) {
		if sent[i] {
			out = append(out, mgOp{kind: opAwait, i: i})
			sent[i] = false
		}
		out = append(out, mgOp{kind: opUpdate, i: i, z: z})
	}
	closeOrPull(0)
	for z := range rounds {
		next := z + 1
		ahead := next < rounds && p.owner(next) == j
		if ahead {
			update(next, z)
		}
		pending := next < rounds
		if pending && (ahead || !late) {
			closeOrPull(next)
			pending = false
		}
		for _, i := range mine {
			if i != z && !(ahead && i == next) {
				update(i, z)
				if pending {
					closeOrPull(next)
					pending = false
				}
			}
		}
		if pending {
			closeOrPull(next)
		}
		if p.owner(z) != j {
			out = append(out, mgOp{kind: opFree, z: z})
		}
	}
	return out
}

// promise is a value one worker sets once and others wait for.
type promise[T any] struct {
	done chan struct{}
	v    T
}

func newPromise[T any]() *promise[T] { return &promise[T]{done: make(chan struct{})} }

func (p *promise[T]) set(v T) {
	p.v = v
	close(p.done)
}

func (p *promise[T]) get(ctx context.Context) (T, error) {
	select {
	case <-p.done:
		return p.v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// barrier lets k workers wait for each other (or for the context's end).
type barrier struct {
	left atomic.Int32
	done chan struct{}
}

func newBarrier(k int) *barrier {
	b := &barrier{done: make(chan struct{})}
	b.left.Store(int32(k))
	return b
}

// arrive counts the caller in; arrive may be called once a worker.
func (b *barrier) arrive() {
	if b.left.Add(-1) == 0 {
		close(b.done)
	}
}

func (b *barrier) wait(ctx context.Context) error {
	select {
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// mgRun is one multi-GPU computation: the plan, the link that moves the
// pivot strips, and what this process's workers share. The workers are
// 0..k-1; a process runs all of them (multiFW) or one (a rank of an MPI
// job, ranks.go).
type mgRun struct {
	p     Problem
	pl    mgPlan
	g     *graph.Graph
	rows  func(r0, r1 int, host []uint32) // the matrix: rows [r0, r1) in page-locked lanes; nil for summaries
	link  mgLink
	start *barrier // every local matrix is built
	end   *barrier // every local stream is idle
	ended []sync.Once

	mu        sync.Mutex
	begin     time.Time // the last worker's start
	finish    time.Time // the last worker's end
	sums      []byte    // the summaries, merged: reach int32[n], max uint32[n], sum float64[n], negative vertex
	neg       int32
	compiled  bool
	peerLinks int // pairs with peer access enabled
	// latePulls queues each copy after the worker's first update of the
	// round before it (schedule), and starts it on the device only then.
	latePulls bool
	// cancel ends the context of every local worker (set by onAll): a
	// worker that fails calls it before it waits for the others at the
	// end barrier, so that none of them waits for it first.
	cancel context.CancelFunc
}

// newMGRun prepares a run of which this process runs local workers.
func newMGRun(p Problem, pl mgPlan, g *graph.Graph, local int, link mgLink) *mgRun {
	return &mgRun{p: p, pl: pl, g: g, link: link, start: newBarrier(local), end: newBarrier(local), ended: make([]sync.Once, pl.k), neg: math.MaxInt32}
}

// leave counts worker j out of the end barrier (once).
func (m *mgRun) leave(j int) { m.ended[j].Do(m.end.arrive) }

// multiFW runs p for graph g over the GPUs ordinals (distinct), block rows
// a strip (0: planMulti's choice). With rows nil, res gets the summaries;
// else rows receives every strip of the matrix (from several goroutines,
// distinct rows each).
func multiFW(ctx context.Context, ordinals []int, p Problem, g *graph.Graph, block int, rows func(r0, r1 int, host []uint32), res *Result) (string, error) {
	return multiFWLinked(ctx, ordinals, p, g, block, rows, res, func(pl mgPlan) mgLink { return newPeerLink(pl) })
}

// multiFWLinked is multiFW with the link newLink makes (tests wrap the
// peer link to make a worker fail).
func multiFWLinked(ctx context.Context, ordinals []int, p Problem, g *graph.Graph, block int, rows func(r0, r1 int, host []uint32), res *Result,
	newLink func(mgPlan) mgLink) (string, error) {
	if err := p.Config.Check(); err != nil {
		return "", err
	}
	if p.Stride%p.Config.Tile != 0 || p.Stride < p.N {
		return "", fmt.Errorf("stride %d is not a multiple of the tile %d at least n = %d", p.Stride, p.Config.Tile, p.N)
	}
	for i, o := range ordinals {
		if slices.Contains(ordinals[:i], o) {
			// Each GPU's worker waits for the others: one GPU listed twice
			// would wait for itself.
			return "", fmt.Errorf("gpu:%d: %w", o, gpu.ErrDuplicateGPU)
		}
	}
	pl := planMulti(p.Stride, p.Config.Tile, p.Config.LaneBytes(), len(ordinals), block)
	m := newMGRun(p, pl, g, len(ordinals), newLink(pl))
	m.rows = rows
	if rows == nil {
		m.sums = make([]byte, p.N*16)
	}
	workers := make([]int, len(ordinals))
	for i := range workers {
		workers[i] = i
	}
	devs, err := m.onAll(ctx, ordinals, workers)
	name := gpu.DeviceName(ordinals, devs)
	if err != nil {
		return name, err
	}
	ms := float64(m.finish.Sub(m.begin).Microseconds()) / 1000
	res.Timing.Kernel, res.Timing.Total, res.Timing.Compiled = ms, ms, m.compiled
	res.Timing.PeerLinks = m.peerLinks
	if rows == nil {
		n := p.N
		res.Reach = append([]int32(nil), unsafe.Slice((*int32)(unsafe.Pointer(&m.sums[0])), n)...)
		res.Max = append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(&m.sums[4*n])), n)...)
		res.Sum = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(&m.sums[8*n])), n)...)
	}
	if m.neg != math.MaxInt32 {
		res.NegVertex = int(m.neg)
	}
	return name, nil
}

// onAll runs this process's workers at once (workers[i] on GPU
// ordinals[i]), one goroutine a GPU, each on its GPU's owner goroutine (as
// gpu.OnEach does). A worker that fails cancels the others, and its error,
// naming its GPU, is the one returned. A worker's call that never ran
// (cancelled while queued, or its GPU did not open) still leaves the end
// barrier, which the others wait at.
func (m *mgRun) onAll(ctx context.Context, ordinals, workers []int) ([]*gpurt.Device, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m.cancel = cancel
	devs := make([]*gpurt.Device, len(ordinals))
	errs := make([]error, len(ordinals))
	var wg sync.WaitGroup
	for i, o := range ordinals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := workers[i]
			d, err := gpu.Do(ctx, o, func(c *gpurt.Call) error { return m.worker(w, c) })
			m.leave(w)
			devs[i] = d
			if err != nil {
				errs[i] = fmt.Errorf("gpu:%d: %w", o, err)
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return devs, err
		}
	}
	return devs, errors.Join(errs...)
}

// worker is GPU j's part, on its owner goroutine.
func (m *mgRun) worker(j int, call *gpurt.Call) (err error) {
	ctx := call.Ctx
	p, pl, c := m.p, m.pl, m.p.Config
	dev, comp := call.Dev(), call.Stream()
	var events []*cuda.Event
	var port mgPort
	side := &mgSide{j: j, dev: dev, comp: comp}
	defer func() {
		if err != nil {
			// First, so that no other worker waits for this one (for its
			// strips' address, or an event it will never record) while it
			// waits for them below, and no transfer waits for a partner
			// that has stopped (NCCL's pending broadcasts end).
			m.cancel()
			if port != nil {
				port.fail(err)
			}
		}
		// Every stream of every local GPU must be idle before an event or
		// a buffer goes back: another GPU's queued copy may read ours.
		errs := []error{err, comp.Synchronize()}
		if side.copies != nil {
			errs = append(errs, side.copies.Synchronize())
		}
		m.leave(j)
		if werr := m.end.wait(context.WithoutCancel(ctx)); werr != nil {
			errs = append(errs, werr)
		}
		if port != nil && err == nil {
			errs = append(errs, port.close())
		}
		for _, e := range events {
			e.Destroy()
		}
		err = errors.Join(errs...)
	}()
	side.newEvent = func(on *cuda.Stream) (*cuda.Event, error) {
		e, err := dev.NewEvent()
		if err != nil {
			return nil, err
		}
		events = append(events, e)
		return e, e.RecordOn(on)
	}

	// Everything this GPU can find wrong on its own comes before the link
	// joins it to the others: partners in other processes learn of it
	// there instead of waiting for it.
	var k *kernels
	var recv [2]uint64
	prepare := func() error {
		var err error
		if k, err = module(call, c); err != nil {
			return err
		}
		if k.compiled && !k.used {
			m.mu.Lock()
			m.compiled = true
			m.mu.Unlock()
		}
		k.used = true
		if side.copies, err = call.SpareStream(); err != nil {
			return err
		}
		local := uint64(pl.localRows(j)) * pl.row
		need := gpurt.Class(local) + uint64(csrBytes(m.g)) + uint64(p.N)*16 + 4
		if pl.k > 2 {
			need += 2 * gpurt.Class(uint64(pl.s)*pl.row)
		} else if pl.k == 2 {
			need += gpurt.Class(uint64(pl.s) * pl.row)
		}
		if !call.Has(local) {
			free, total, err := dev.MemInfo()
			if err != nil {
				return err
			}
			if need+oocMargin > free {
				return fmt.Errorf("%w: its %d rows of the %d×%d matrix and the receive buffers need %.2f GiB; the GPU has %.2f GiB free of %.2f GiB (several GPUs do not compute out of core)",
					gpu.ErrDoesNotFit, pl.localRows(j), p.Stride, p.Stride, float64(need)/(1<<30), float64(free)/(1<<30), float64(total)/(1<<30))
			}
		}
		if side.base, err = call.Mem(local); err != nil {
			return err
		}
		// Two receive buffers, R(z) in buffer z mod 2, of which two GPUs
		// use one (a GPU receives every other round).
		for z := range pl.strips() {
			if b := z % 2; pl.owner(z) != j && recv[b] == 0 {
				if recv[b], err = call.Mem(uint64(pl.s) * pl.row); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if port, err = m.link.join(ctx, m, side, prepare()); err != nil {
		return err
	}
	copies, base := side.copies, side.base

	// The initial matrix, built on the device from the arcs.
	arcs, err := uploadArcs(call, p, m.g)
	if err != nil {
		return err
	}
	mine := pl.owned(j)
	strip := func(i int) uint64 { return base + pl.offset(i) }
	for _, i := range mine {
		r0, r1 := pl.rows(i)
		if err := arcs.initRows(comp, k, p, strip(i), r0, r1-r0); err != nil {
			return err
		}
	}
	var sums uint64
	if m.rows == nil {
		if sums, err = call.Mem(uint64(p.N)*16 + 4); err != nil {
			return err
		}
		if err := comp.Memset32Async(sums+uint64(p.N)*16, uint32(math.MaxInt32), 1); err != nil {
			return err
		}
	}
	if err := comp.Synchronize(); err != nil {
		return err
	}
	m.start.arrive()
	if err := m.start.wait(ctx); err != nil {
		return err
	}
	if err := port.started(ctx); err != nil {
		return err
	}
	began := time.Now()
	m.mu.Lock()
	if began.After(m.begin) {
		m.begin = began
	}
	m.mu.Unlock()

	product := func(cm, am, bm uint64, rows, ctiles, kdim, skip, skips int) error {
		return stripProduct(comp, k, p, cm, am, bm, rows, ctiles, kdim, skip, skips, 0, 0)
	}
	colOff := func(d uint64, z0 int) uint64 { return d + uint64(z0*c.LaneBytes()) }
	reduce := func(i int) error {
		if m.rows != nil {
			return nil
		}
		r0, r1 := pl.rows(i)
		return reduceStrip(comp, k, p, sums, strip(i), r0, r1)
	}

	rounds := pl.strips()
	arrived := make([]*cuda.Event, rounds)
	var bufFree [2]*cuda.Event // the last products that read a receive buffer
	// rbuf is R(z) on this GPU.
	rbuf := func(z int) uint64 {
		if pl.owner(z) == j {
			return strip(z)
		}
		return recv[z%2]
	}
	// closeStrip closes strip i's pivot block and multiplies the rest of
	// the strip by it: R(i), sent to the others.
	closeStrip := func(i int) error {
		z0, z1 := pl.rows(i)
		sz := z1 - z0
		d := strip(i)
		if err := fwBlock(call, k, c, colOff(d, z0), p.Stride, sz/c.Tile); err != nil {
			return err
		}
		if err := product(d, colOff(d, z0), d, sz, p.Stride/c.Tile, sz, z0/c.Tile, sz/c.Tile); err != nil {
			return err
		}
		if i == rounds-1 {
			if err := reduce(i); err != nil {
				return err
			}
		}
		ev, err := side.newEvent(comp)
		if err != nil {
			return err
		}
		return port.send(ctx, i, ev)
	}
	// pull queues R(z)'s arrival in its receive buffer on the copy stream,
	// once the products that read the buffer last are done (and, for a
	// late pull, the update just queued).
	pull := func(z int) error {
		if e := bufFree[z%2]; e != nil {
			if err := copies.WaitEvent(e); err != nil {
				return err
			}
		}
		if m.latePulls {
			gate, err := side.newEvent(comp)
			if err != nil {
				return err
			}
			if err := copies.WaitEvent(gate); err != nil {
				return err
			}
		}
		e, err := port.receive(ctx, z, recv[z%2])
		arrived[z] = e
		return err
	}
	// update queues round z on our strip i.
	update := func(i, z int) error {
		if e := arrived[z]; e != nil {
			if err := comp.WaitEvent(e); err != nil {
				return err
			}
			arrived[z] = nil // once a round is enough: comp runs in order
		}
		z0, z1 := pl.rows(z)
		sz := z1 - z0
		r0, r1 := pl.rows(i)
		rows := r1 - r0
		d, r := strip(i), rbuf(z)
		cols := colOff(d, z0)
		if err := product(cols, cols, colOff(r, z0), rows, sz/c.Tile, sz, 0, 0); err != nil {
			return err
		}
		if err := product(d, cols, r, rows, p.Stride/c.Tile, sz, z0/c.Tile, sz/c.Tile); err != nil {
			return err
		}
		if z == rounds-1 {
			return reduce(i)
		}
		return nil
	}

	for _, op := range pl.schedule(j, m.latePulls) {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch op.kind {
		case opClose:
			err = closeStrip(op.i)
		case opPull:
			err = pull(op.z)
		case opAwait:
			err = port.release(ctx, op.i)
		case opUpdate:
			err = update(op.i, op.z)
		case opFree:
			bufFree[op.z%2], err = side.newEvent(comp)
		}
		if err != nil {
			return err
		}
	}

	// The results: this GPU's rows or its summaries.
	local := uint64(pl.localRows(j)) * pl.row
	var host unsafe.Pointer
	if m.rows != nil {
		if host, err = call.Host(local); err != nil {
			return err
		}
		if local > 0 {
			if err := comp.CopyToHostAsync(host, base, local); err != nil {
				return err
			}
		}
	} else {
		if host, err = call.Host(uint64(p.N)*16 + 4); err != nil {
			return err
		}
		if err := comp.CopyToHostAsync(host, sums, uint64(p.N)*16+4); err != nil {
			return err
		}
	}
	if err := comp.Synchronize(); err != nil {
		return err
	}
	if err := copies.Synchronize(); err != nil {
		return err
	}
	ended := time.Now()
	m.mu.Lock()
	if ended.After(m.finish) {
		m.finish = ended
	}
	m.mu.Unlock()
	if m.rows != nil {
		for _, i := range mine {
			r0, r1 := pl.rows(i)
			words := uint64(r1-r0) * pl.row / 4
			m.rows(r0, r1, unsafe.Slice((*uint32)(unsafe.Add(host, pl.offset(i))), words))
		}
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, i := range mine {
		r0, r1 := pl.rows(i)
		r1 = min(r1, p.N)
		if r0 >= r1 {
			continue
		}
		nn := p.N
		copy(m.sums[4*r0:4*r1], unsafe.Slice((*byte)(host), 16*nn)[4*r0:4*r1])
		copy(m.sums[4*nn+4*r0:4*nn+4*r1], unsafe.Slice((*byte)(host), 16*nn)[4*nn+4*r0:4*nn+4*r1])
		copy(m.sums[8*nn+8*r0:8*nn+8*r1], unsafe.Slice((*byte)(host), 16*nn)[8*nn+8*r0:8*nn+8*r1])
	}
	if neg := *(*int32)(unsafe.Add(host, 16*p.N)); neg < m.neg {
		m.neg = neg
	}
	return nil
}

// rowsOn is Rows over the GPUs listed (several), block rows a strip (0:
// planMulti's choice): one matrix split into strips of rows over them.
func rowsOn(ctx context.Context, ordinals []int, j Job, block int) (*RowsResult, error) {
	p := j.problem()
	res := &Result{NegVertex: -1}
	name, err := multiFW(ctx, ordinals, p, j.Graph, block, nil, res)
	if err != nil {
		return nil, err
	}
	return rowsResultOf(res, p, name), nil
}

// matrixOn is Matrix over the GPUs listed (several), block rows a strip.
func matrixOn(ctx context.Context, ordinals []int, j Job, block int) (*MatrixResult, error) {
	p := j.problem()
	out := newMatrixResult(p)
	res := &Result{NegVertex: -1}
	rows := func(r0, r1 int, host []uint32) {
		lo, hi := r0*p.Stride, r1*p.Stride
		part := &MatrixResult{}
		switch {
		case out.Float != nil:
			part.Float = out.Float[lo:hi]
		case out.Int16 != nil:
			part.Int16 = out.Int16[lo:hi]
		case out.Int8 != nil:
			part.Int8 = out.Int8[lo:hi]
		default:
			part.Int = out.Int[lo:hi]
		}
		convert(host, part, p.MaxReal)
	}
	name, err := multiFW(ctx, ordinals, p, j.Graph, block, rows, res)
	if err != nil {
		return nil, err
	}
	out.Device, out.Timing = name, res.Timing
	out.NegVertex = negDiagonal(out)
	return out, nil
}

// newMatrixResult allocates the matrix of p in its lanes.
func newMatrixResult(p Problem) *MatrixResult {
	out := &MatrixResult{N: p.N, Stride: p.Stride, NegVertex: -1}
	cells := p.Stride * p.Stride
	switch {
	case p.Config.Float:
		out.Float = make([]float32, cells)
	case p.Config.Lanes == lanes.Int16:
		out.Int16 = make([]int16, cells)
	case p.Config.Lanes == lanes.Int8:
		out.Int8 = make([]int8, cells)
	default:
		out.Int = make([]int32, cells)
	}
	return out
}

// negDiagonal is the first vertex of out with a negative diagonal, or -1.
func negDiagonal(out *MatrixResult) int {
	for v := 0; v < out.N; v++ {
		i := v*out.Stride + v
		if (out.Int != nil && out.Int[i] < 0) || (out.Float != nil && out.Float[i] < 0) ||
			(out.Int16 != nil && out.Int16[i] < 0) || (out.Int8 != nil && out.Int8[i] < 0) {
			return v
		}
	}
	return -1
}
