package runtime

import (
	"errors"
	"testing"
)

// fakeMem is an allocator without a GPU: addresses are counted up, live
// allocations are tracked, and a budget makes allocation fail like
// CUDA_ERROR_OUT_OF_MEMORY.
type fakeMem struct {
	next   uint64
	live   map[uint64]uint64
	budget uint64 // most live bytes (0: unlimited)
	used   uint64
}

var errOOM = errors.New("out of memory")

func newFakeMem(budget uint64) *fakeMem {
	return &fakeMem{next: 1 << 12, live: map[uint64]uint64{}, budget: budget}
}

func (f *fakeMem) alloc(n uint64) (uint64, error) {
	if f.budget > 0 && f.used+n > f.budget {
		return 0, errOOM
	}
	p := f.next
	f.next += n
	f.live[p] = n
	f.used += n
	return p, nil
}

func (f *fakeMem) free(p uint64) error {
	n, ok := f.live[p]
	if !ok {
		return errors.New("double free")
	}
	delete(f.live, p)
	f.used -= n
	return nil
}

func TestClass(t *testing.T) {
	for _, tt := range []struct{ in, want uint64 }{
		{0, 4 << 10}, {1, 4 << 10}, {4 << 10, 4 << 10}, {4<<10 + 1, 8 << 10},
		{3 << 20, 4 << 20}, {4 << 20, 4 << 20}, {64 << 20, 64 << 20},
		{64<<20 + 1, 66 << 20}, {40 << 30, 40 << 30}, {40<<30 + 5, 40<<30 + 2<<20},
	} {
		if got := Class(tt.in); got != tt.want {
			t.Errorf("Class(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestPoolReuse(t *testing.T) {
	f := newFakeMem(0)
	p := NewPool(f.alloc, f.free, Limits{MaxIdle: 1 << 30, Keep: 64 << 20, Ratio: 8})
	// The same size again, and a smaller one of the same class, reuse.
	a, err := p.Get(3 << 20)
	if err != nil || a.Size != 4<<20 {
		t.Fatalf("Get: %+v, %v", a, err)
	}
	if err := p.Put(a); err != nil {
		t.Fatal(err)
	}
	if !p.Has(4 << 20) {
		t.Fatal("Has: an idle 4 MiB buffer does not serve 4 MiB")
	}
	b, _ := p.Get(4 << 20)
	if b.Ptr != a.Ptr {
		t.Fatal("a buffer of the same class was not reused")
	}
	p.Put(b)
	// A request of half the class or less does not take a buffer twice its
	// class: 1 MiB is allocated anew.
	c, _ := p.Get(1 << 20)
	if c.Ptr == a.Ptr || c.Size != 1<<20 {
		t.Fatalf("1 MiB got %+v", c)
	}
	// 2 MiB may take the idle 4 MiB buffer (at most twice its class).
	d, _ := p.Get(2 << 20)
	if d.Ptr != a.Ptr {
		t.Fatal("2 MiB did not reuse the idle 4 MiB buffer")
	}
	p.Put(c)
	p.Put(d)
	s := p.Stats()
	if s.Allocs != 2 || s.Reuses != 2 || s.Idle != 2 || s.IdleBytes != 5<<20 {
		t.Fatalf("stats %+v", s)
	}
	if err := p.Release(); err != nil || len(f.live) != 0 {
		t.Fatalf("Release: %v, %d live", err, len(f.live))
	}
}

func TestPoolInterleavedSizes(t *testing.T) {
	f := newFakeMem(0)
	p := NewPool(f.alloc, f.free, Limits{MaxIdle: 4 << 30, Keep: 64 << 20, Ratio: 8})
	// A call's buffers: the matrix and a few small ones.
	call := func(matrix uint64) {
		var bufs []Buffer[uint64]
		largest := uint64(0)
		for _, n := range []uint64{matrix, 4 << 10, matrix / 64} {
			b, err := p.Get(n)
			if err != nil {
				t.Fatal(err)
			}
			bufs = append(bufs, b)
			largest = max(largest, b.Size)
		}
		for _, b := range bufs {
			p.Put(b)
		}
		p.Trim(largest)
	}
	// n = 1024 and n = 4096 (4 MiB and 64 MiB) interleaved: after the first
	// round every call reuses.
	for range 2 {
		call(4 << 20)
		call(64 << 20)
	}
	allocs := p.Stats().Allocs
	for range 10 {
		call(4 << 20)
		call(64 << 20)
	}
	if got := p.Stats().Allocs; got != allocs {
		t.Fatalf("interleaved sizes allocated %d more times", got-allocs)
	}
	// A large problem (1 GiB) and then a small one: the large buffer is
	// returned, the small ones stay.
	call(1 << 30)
	if f.used < 1<<30 {
		t.Fatal("the large buffer was not kept idle after its call")
	}
	call(4 << 20)
	if f.used >= 1<<30 {
		t.Fatalf("%d bytes still held after a much smaller problem", f.used)
	}
	if p.Stats().IdleBytes > 128<<20 {
		t.Fatalf("idle %d bytes", p.Stats().IdleBytes)
	}
}

func TestPoolMaxIdle(t *testing.T) {
	f := newFakeMem(0)
	p := NewPool(f.alloc, f.free, Limits{MaxIdle: 16 << 20, Keep: 64 << 20, Ratio: 8})
	var bufs []Buffer[uint64]
	for range 6 {
		b, _ := p.Get(4 << 20)
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		p.Put(b)
	}
	if s := p.Stats(); s.IdleBytes != 16<<20 || s.Frees != 2 || f.used != 16<<20 {
		t.Fatalf("idle beyond MaxIdle: %+v, %d live bytes", s, f.used)
	}
	big, _ := p.Get(32 << 20) // larger than MaxIdle: freed when put back
	p.Put(big)
	if f.used != 16<<20 {
		t.Fatalf("a buffer larger than MaxIdle was kept: %d live bytes", f.used)
	}
}

func TestPoolOutOfMemoryFreesIdle(t *testing.T) {
	f := newFakeMem(100 << 20)
	p := NewPool(f.alloc, f.free, Limits{MaxIdle: 1 << 30, Keep: 1 << 30, Ratio: 8})
	a, _ := p.Get(64 << 20)
	p.Put(a)
	// 96 MiB does not fit beside the idle 64 MiB: the pool frees it and
	// tries again.
	b, err := p.Get(96 << 20)
	if err != nil {
		t.Fatalf("Get after freeing idle: %v", err)
	}
	if _, err := p.Get(64 << 20); !errors.Is(err, errOOM) {
		t.Fatalf("want the allocator's error, got %v", err)
	}
	p.Put(b)
	p.Release()
	if f.used != 0 {
		t.Fatalf("%d bytes live after Release", f.used)
	}
}
