package fw

import (
	"context"

	"github.com/apsp/apsp/internal/cuda"
)

// mgSide is what a multi-GPU worker shows its link: its index, GPU,
// streams (comp runs the products, copies the transfers), where its strips
// start, and how it makes events (destroyed when the worker ends).
type mgSide struct {
	j            int
	dev          *cuda.Device
	comp, copies *cuda.Stream
	base         uint64
	newEvent     func(on *cuda.Stream) (*cuda.Event, error)
}

// mgLink moves each round's pivot strip R(z) from the worker that closed
// it to every other worker: peer copies between the GPUs of one process
// (peerLink), or NCCL broadcasts between processes (ncclLink, ranks.go).
type mgLink interface {
	// join connects worker w once its memory is taken; failed is the
	// worker's error so far. Every worker calls it, a failed one too, so
	// that partners in other processes hear of the failure instead of
	// waiting for it (ncclLink agrees on it: every rank's join fails);
	// partners in this process learn of it by the run's cancellation.
	join(ctx context.Context, m *mgRun, w *mgSide, failed error) (mgPort, error)
}

// mgPort is one worker's end of the link. Its methods run on the worker's
// goroutine, in schedule order.
type mgPort interface {
	// started is called once the local workers have built their rows.
	started(ctx context.Context) error
	// send: our strip i, R(i), is closed once comp reaches closed.
	send(ctx context.Context, i int, closed *cuda.Event) error
	// receive queues R(z)'s arrival at dst on the copy stream and returns
	// the event recorded after it.
	receive(ctx context.Context, z int, dst uint64) (*cuda.Event, error)
	// release makes comp wait until every other worker holds its copy of
	// our strip i, before the strip changes again.
	release(ctx context.Context, i int) error
	// fail ends the port after the worker failed with err, before its
	// streams are waited for; close ends it after success, the streams
	// idle.
	fail(err error)
	close() error
}

// mgHome is where a worker's strips live, for the others' copies.
type mgHome struct {
	dev  *cuda.Device
	base uint64
}

// peerLink is the link between the GPUs of one process: each receiver
// copies R(z) from its owner's memory (cuMemcpyPeerAsync) once the owner's
// event says it is closed; the events go between the workers as promises.
type peerLink struct {
	pl    mgPlan
	home  []*promise[mgHome]
	ready []*promise[*cuda.Event]   // R(Z) is closed on its owner
	got   [][]*promise[*cuda.Event] // [Z][j]: worker j's copy of R(Z) is done
}

func newPeerLink(pl mgPlan) *peerLink {
	l := &peerLink{pl: pl}
	for range pl.k {
		l.home = append(l.home, newPromise[mgHome]())
	}
	for range pl.strips() {
		l.ready = append(l.ready, newPromise[*cuda.Event]())
		got := make([]*promise[*cuda.Event], pl.k)
		for j := range got {
			got[j] = newPromise[*cuda.Event]()
		}
		l.got = append(l.got, got)
	}
	return l
}

// join publishes w's strips and learns the others', enabling peer access
// where the GPUs allow it (without it the copies still work, staged by the
// driver). A failed worker returns at once and cancels the run's context
// (mgRun.cancel, in its cleanup), which every wait of the others selects
// on.
func (l *peerLink) join(ctx context.Context, m *mgRun, w *mgSide, failed error) (mgPort, error) {
	if failed != nil {
		return nil, failed
	}
	l.home[w.j].set(mgHome{dev: w.dev, base: w.base})
	homes := make([]mgHome, l.pl.k)
	for i := range homes {
		var err error
		if homes[i], err = l.home[i].get(ctx); err != nil {
			return nil, err
		}
		if i != w.j {
			if linked, err := w.dev.EnablePeerAccess(homes[i].dev); err == nil && linked {
				m.mu.Lock()
				m.peerLinks++
				m.mu.Unlock()
			}
		}
	}
	return &peerPort{l: l, w: w, homes: homes}, nil
}

type peerPort struct {
	l     *peerLink
	w     *mgSide
	homes []mgHome
}

func (*peerPort) started(context.Context) error { return nil }

func (p *peerPort) send(_ context.Context, i int, closed *cuda.Event) error {
	p.l.ready[i].set(closed)
	return nil
}

func (p *peerPort) receive(ctx context.Context, z int, dst uint64) (*cuda.Event, error) {
	pl := p.l.pl
	o := pl.owner(z)
	ev, err := p.l.ready[z].get(ctx)
	if err != nil {
		return nil, err
	}
	if err := p.w.copies.WaitEvent(ev); err != nil {
		return nil, err
	}
	r0, r1 := pl.rows(z)
	if err := p.w.copies.CopyPeerAsync(dst, p.homes[o].dev, p.homes[o].base+pl.offset(z), uint64(r1-r0)*pl.row); err != nil {
		return nil, err
	}
	e, err := p.w.newEvent(p.w.copies)
	if err != nil {
		return nil, err
	}
	p.l.got[z][p.w.j].set(e)
	return e, nil
}

func (p *peerPort) release(ctx context.Context, i int) error {
	for r := range p.l.pl.k {
		if r == p.w.j {
			continue
		}
		e, err := p.l.got[i][r].get(ctx)
		if err != nil {
			return err
		}
		if err := p.w.comp.WaitEvent(e); err != nil {
			return err
		}
	}
	return nil
}

func (*peerPort) fail(error)   {}
func (*peerPort) close() error { return nil }
