package fw

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"time"
	"unsafe"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/comm/nccl"
	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/distributed"
	"github.com/apsp/apsp/internal/gpu"
)

// One Floyd–Warshall over the ranks of an MPI job, a GPU a rank (issue 13,
// item 3). It is multiFW's strip schedule with each worker in its own
// process: worker j is rank j, and R(Z) goes from its owner to every other
// rank by an NCCL broadcast on the receivers' copy streams, the NCCL
// communicator bootstrapped over world (rank 0's unique id by Bcast). The
// broadcasts are collectives: every rank issues them in the order of the
// rounds (each worker closes or pulls strip z in increasing z), so they
// match. The owner's release of strip i waits for its own broadcast of it
// (a rank's part of a broadcast is done when its buffer may change).

// ranksOpts are the tests' knobs: strips of block rows (0: the plan's),
// and the copies queued early (as between the GPUs of one process)
// rather than late.
type ranksOpts struct {
	block int
	early bool
}

// rowsOverRanks is Rows computed by the ranks of world together, each on
// its GPU ordinal: every rank calls it with the same job (the graph is
// checked), holds only its strips of the matrix, and gets every source's
// summaries, the same on every rank and, for integer lanes, bit for bit
// one GPU's. A failure that a rank finds before the ranks start to wait
// for each other (no NCCL, no GPU, a graph that differs, too little
// memory) is an error on every rank, wrapping comm.ErrRankFailed; a later
// one aborts world.
func rowsOverRanks(ctx context.Context, world comm.Comm, ordinal int, j Job, o ranksOpts) (*RowsResult, error) {
	p := j.problem()
	api, err := nccl.Load()
	if err == nil {
		err = p.Config.Check()
	}
	if err == nil {
		err = gpu.Check(ordinal)
	}
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, err
	}
	if err := comm.Agree(ctx, world, distributed.SameGraph(ctx, world, j.Graph)); err != nil {
		return nil, err
	}
	// NCCL takes a GPU a rank; two ranks on one GPU would fail inside
	// ncclCommInitRank, after the ranks began to wait for each other.
	shared, err := sharedGPU(ctx, world, ordinal)
	if err != nil {
		return nil, err
	}
	if shared != "" {
		err = errors.New(shared)
	}
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, err
	}
	var id nccl.UniqueID
	if world.Rank() == 0 {
		id, err = api.NewUniqueID()
	}
	if err := comm.Agree(ctx, world, err); err != nil {
		return nil, err
	}
	if err := world.Bcast(ctx, comm.HostBuffer(id.Internal[:]), 0); err != nil {
		return nil, err
	}

	pl := planMulti(p.Stride, p.Config.Tile, p.Config.LaneBytes(), world.Size(), o.block)
	link := &ncclLink{world: world, api: api, id: id}
	m := newMGRun(p, pl, j.Graph, 1, link)
	m.latePulls = !o.early
	m.sums = make([]byte, p.N*16)
	devs, err := m.onAll(ctx, []int{ordinal}, []int{world.Rank()})
	if err != nil {
		if !errors.Is(err, comm.ErrRankFailed) && !link.aborted {
			// Past the agreements: the others may be waiting for us.
			world.Abort(err)
		}
		return nil, err
	}
	res := &Result{NegVertex: -1}
	res.Timing.Compiled = m.compiled
	if err := m.combine(ctx, world, res); err != nil {
		world.Abort(err)
		return nil, err
	}
	name := fmt.Sprintf("%s, %d ranks", gpu.DeviceName([]int{ordinal}, devs), world.Size())
	return rowsResultOf(res, p, name), nil
}

// sharedGPU says which other rank uses this rank's GPU, or "" when none
// does (collective): a GPU is known by its UUID, which neither
// CUDA_VISIBLE_DEVICES nor the host changes, hashed. A rank that cannot
// read its GPU's UUID says so in the message, after the collective.
func sharedGPU(ctx context.Context, world comm.Comm, ordinal int) (string, error) {
	uuid := ""
	infos, lerr := gpu.Devices()
	for _, in := range infos {
		if in.Ordinal == ordinal {
			uuid = in.UUID
		}
	}
	h := fnv.New64a()
	h.Write([]byte(uuid))
	keys := make([]int64, world.Size())
	if uuid != "" {
		keys[world.Rank()] = int64(h.Sum64()>>1) | 1 // non-negative, not 0: sums of one key and zeros
	}
	if err := world.AllReduceSum(ctx, comm.HostBuffer(keys)); err != nil {
		return "", err
	}
	if uuid == "" {
		return fmt.Sprintf("gpu:%d: its UUID could not be read (%v)", ordinal, lerr), nil
	}
	for q, k := range keys {
		if q != world.Rank() && k == keys[world.Rank()] {
			return fmt.Sprintf("ranks %d and %d both use GPU %s (gpu:%d here): NCCL needs a GPU a rank (--device gpu takes each rank's local one)",
				min(q, world.Rank()), max(q, world.Rank()), uuid, ordinal), nil
		}
	}
	return "", nil
}

// combine adds the ranks' summaries: each rank holds its strips' rows
// and zeros elsewhere, so sums over the ranks are the rows themselves
// (the float sums travel as their bits, which adding zeros keeps). The
// negative vertex and the time go in a slot a rank and are reduced after.
func (m *mgRun) combine(ctx context.Context, world comm.Comm, res *Result) error {
	n, size, r := m.p.N, world.Size(), world.Rank()
	buf := make([]int64, 3*n+2*size)
	reach := unsafe.Slice((*int32)(unsafe.Pointer(&m.sums[0])), n)
	most := unsafe.Slice((*uint32)(unsafe.Pointer(&m.sums[4*n])), n)
	sum := unsafe.Slice((*uint64)(unsafe.Pointer(&m.sums[8*n])), n)
	for u := range n {
		buf[u], buf[n+u], buf[2*n+u] = int64(reach[u]), int64(most[u]), int64(sum[u])
	}
	buf[3*n+r] = int64(m.neg)
	buf[3*n+size+r] = int64(m.finish.Sub(m.begin))
	if err := world.AllReduceSum(ctx, comm.HostBuffer(buf)); err != nil {
		return err
	}
	res.Reach, res.Max, res.Sum = make([]int32, n), make([]uint32, n), make([]float64, n)
	for u := range n {
		res.Reach[u], res.Max[u] = int32(buf[u]), uint32(buf[n+u])
		res.Sum[u] = math.Float64frombits(uint64(buf[2*n+u]))
	}
	neg, slowest := int64(math.MaxInt32), time.Duration(0)
	for q := range size {
		neg = min(neg, buf[3*n+q])
		slowest = max(slowest, time.Duration(buf[3*n+size+q]))
	}
	if neg != math.MaxInt32 {
		res.NegVertex = int(neg)
	}
	ms := float64(slowest.Microseconds()) / 1000
	res.Timing.Kernel, res.Timing.Total = ms, ms
	return nil
}

// ncclLink is the link between ranks: an NCCL communicator of world's
// ranks, made by join on the worker's copy stream.
type ncclLink struct {
	world   comm.Comm
	api     *nccl.API
	id      nccl.UniqueID
	aborted bool // a port aborted world
}

// join agrees with the other ranks that every worker is ready (so a
// failed one stops them all), then joins the NCCL communicator.
func (l *ncclLink) join(ctx context.Context, m *mgRun, w *mgSide, failed error) (mgPort, error) {
	if err := comm.Agree(ctx, l.world, failed); err != nil {
		return nil, err
	}
	if w.j != l.world.Rank() {
		return nil, fmt.Errorf("worker %d on rank %d", w.j, l.world.Rank())
	}
	c, err := l.api.InitRank(l.world.Size(), w.j, l.id, w.copies.Handle(), 0)
	if err != nil {
		return nil, err
	}
	return &ncclPort{l: l, m: m, w: w, c: c, sent: make([]*cuda.Event, m.pl.strips())}, nil
}

type ncclPort struct {
	l    *ncclLink
	m    *mgRun
	w    *mgSide
	c    *nccl.Comm
	sent []*cuda.Event // [i]: our broadcast of R(i) is done
}

// started waits for every rank, so that the run's time is the same span
// on each.
func (p *ncclPort) started(ctx context.Context) error { return p.l.world.Barrier(ctx) }

// bytes is R(z)'s size.
func (p *ncclPort) bytes(z int) int {
	r0, r1 := p.m.pl.rows(z)
	return (r1 - r0) * int(p.m.pl.row)
}

func (p *ncclPort) send(ctx context.Context, i int, closed *cuda.Event) error {
	if err := p.w.copies.WaitEvent(closed); err != nil {
		return err
	}
	if err := p.c.Bcast(ctx, comm.DeviceBuffer(p.w.base+p.m.pl.offset(i), p.bytes(i)), p.w.j); err != nil {
		return err
	}
	e, err := p.w.newEvent(p.w.copies)
	p.sent[i] = e
	return err
}

func (p *ncclPort) receive(ctx context.Context, z int, dst uint64) (*cuda.Event, error) {
	if err := p.c.Bcast(ctx, comm.DeviceBuffer(dst, p.bytes(z)), p.m.pl.owner(z)); err != nil {
		return nil, err
	}
	return p.w.newEvent(p.w.copies)
}

func (p *ncclPort) release(_ context.Context, i int) error {
	if e := p.sent[i]; e != nil {
		return p.w.comp.WaitEvent(e)
	}
	return nil
}

// fail aborts the communicator, which ends our pending broadcasts, and
// world, so that no rank waits for ours (under MPI this ends the job).
func (p *ncclPort) fail(err error) {
	p.c.Abort(err)
	p.l.world.Abort(err)
	p.l.aborted = true
}

func (p *ncclPort) close() error { return p.c.Close() }
