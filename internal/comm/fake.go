package comm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// NewFake returns the size ranks of an in-process communicator, one Comm a
// rank, each to be used by its own goroutine. Collectives copy host
// buffers; a collective whose ranks disagree (another operation, length or
// root) aborts every rank with an error naming both calls, as a real
// library would hang or corrupt memory instead.
func NewFake(size int) ([]Comm, error) {
	if size < 1 {
		return nil, fmt.Errorf("comm: a communicator of %d ranks", size)
	}
	f := &fabric{}
	f.cond = sync.NewCond(&f.mu)
	g := newGroup(f, size)
	ranks := make([]Comm, size)
	for r := range ranks {
		ranks[r] = &fake{g: g, rank: r}
	}
	return ranks, nil
}

// fabric is what every group split from one NewFake shares: one lock and
// one abort state, so that a failure anywhere wakes every waiting rank.
type fabric struct {
	mu   sync.Mutex
	cond *sync.Cond
	err  error
}

func (f *fabric) abortLocked(err error) {
	if f.err == nil {
		f.err = fmt.Errorf("%w: %w", ErrAborted, err)
	}
	f.cond.Broadcast()
}

// group is one communicator: the calls of the collective in progress and
// the results of the last one completed.
type group struct {
	f       *fabric
	size    int
	arrived int
	gen     uint64
	slots   []call
	results []Comm
}

func newGroup(f *fabric, size int) *group {
	return &group{f: f, size: size, slots: make([]call, size)}
}

// call is one rank's side of a collective.
type call struct {
	op         string
	buf        Buffer
	root       int
	color, key int
}

func (c call) String() string {
	switch c.op {
	case "Bcast":
		return fmt.Sprintf("Bcast(%d bytes, root %d)", c.buf.Len(), c.root)
	case "AllReduceSum", "AllReduceMax":
		return fmt.Sprintf("%s(%d bytes)", c.op, c.buf.Len())
	}
	return c.op
}

type fake struct {
	g    *group
	rank int
}

func (c *fake) Rank() int { return c.rank }
func (c *fake) Size() int { return c.g.size }

func (c *fake) Abort(err error) {
	f := c.g.f
	f.mu.Lock()
	defer f.mu.Unlock()
	f.abortLocked(fmt.Errorf("rank %d: %w", c.rank, err))
}

func (c *fake) Close() error { return nil }

func (c *fake) Bcast(ctx context.Context, buf Buffer, root int) error {
	if buf.Host == nil && buf.Bytes > 0 {
		return errors.New("comm: the fake moves host memory only")
	}
	if root < 0 || root >= c.g.size {
		return fmt.Errorf("comm: Bcast root %d of %d ranks", root, c.g.size)
	}
	_, err := c.collective(ctx, call{op: "Bcast", buf: buf, root: root}, func(s []call) {
		for r := range s {
			if r != root {
				copy(s[r].buf.Host, s[root].buf.Host)
			}
		}
	})
	return err
}

func (c *fake) AllReduceSum(ctx context.Context, buf Buffer) error {
	if buf.Len()%8 != 0 || (buf.Host == nil && buf.Bytes > 0) {
		return fmt.Errorf("comm: AllReduceSum of %d bytes: want host int64 values", buf.Len())
	}
	_, err := c.collective(ctx, call{op: "AllReduceSum", buf: buf}, func(s []call) {
		n := s[0].buf.Len() / 8
		sum := make([]int64, n)
		for r := range s {
			v := int64s(s[r].buf.Host)
			for i := range sum {
				sum[i] += v[i]
			}
		}
		for r := range s {
			copy(int64s(s[r].buf.Host), sum)
		}
	})
	return err
}

func (c *fake) AllReduceMax(ctx context.Context, buf Buffer) error {
	if buf.Len()%8 != 0 || (buf.Host == nil && buf.Bytes > 0) {
		return fmt.Errorf("comm: AllReduceMax of %d bytes: want host int64 values", buf.Len())
	}
	_, err := c.collective(ctx, call{op: "AllReduceMax", buf: buf}, func(s []call) {
		most := slices.Clone(int64s(s[0].buf.Host))
		for r := range s {
			for i, x := range int64s(s[r].buf.Host) {
				most[i] = max(most[i], x)
			}
		}
		for r := range s {
			copy(int64s(s[r].buf.Host), most)
		}
	})
	return err
}

func (c *fake) Barrier(ctx context.Context) error {
	_, err := c.collective(ctx, call{op: "Barrier"}, func([]call) {})
	return err
}

func (c *fake) Split(ctx context.Context, color, key int) (Comm, error) {
	return c.collective(ctx, call{op: "Split", color: color, key: key}, func(s []call) {
		byColor := map[int][]int{}
		for r, x := range s {
			byColor[x.color] = append(byColor[x.color], r)
		}
		for _, members := range byColor {
			slices.SortFunc(members, func(a, b int) int {
				return cmp.Or(cmp.Compare(s[a].key, s[b].key), cmp.Compare(a, b))
			})
			g := newGroup(c.g.f, len(members))
			for i, r := range members {
				c.g.results[r] = &fake{g: g, rank: i}
			}
		}
	})
}

// collective waits for every rank of the group to call, checks that they
// agree, runs finish once (under the lock, by the last to arrive) and
// returns this rank's result. A cancelled context aborts the whole fabric.
func (c *fake) collective(ctx context.Context, me call, finish func([]call)) (Comm, error) {
	g, f := c.g, c.g.f
	stop := context.AfterFunc(ctx, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.abortLocked(fmt.Errorf("rank %d: %w", c.rank, context.Cause(ctx)))
	})
	defer stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	g.slots[c.rank] = me
	g.arrived++
	gen := g.gen
	if g.arrived < g.size {
		for g.gen == gen && f.err == nil {
			f.cond.Wait()
		}
		if g.gen == gen {
			return nil, f.err
		}
		return g.results[c.rank], nil
	}
	for r, x := range g.slots {
		y := g.slots[0]
		if x.op != y.op || x.buf.Len() != y.buf.Len() || x.root != y.root {
			f.abortLocked(fmt.Errorf("collective mismatch: rank 0 called %v, rank %d %v", y, r, x))
			return nil, f.err
		}
	}
	g.results = make([]Comm, g.size)
	finish(g.slots)
	clear(g.slots)
	g.arrived = 0
	g.gen++
	f.cond.Broadcast()
	return g.results[c.rank], nil
}
