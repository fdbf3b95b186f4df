package runtime

import "errors"

// Buffer is one allocation of a pool: a device address or a host pointer,
// and the bytes allocated (the class of the request, at least what was
// asked for).
type Buffer[P comparable] struct {
	Ptr  P
	Size uint64
}

// Limits bound what a pool keeps idle.
type Limits struct {
	// MaxIdle is the most idle bytes kept: a buffer put back beyond it
	// evicts the oldest idle buffers, or is freed itself if it alone is
	// larger.
	MaxIdle uint64
	// Keep and Ratio say when a call returns memory (Trim): idle buffers
	// larger than both Keep and Ratio times the largest buffer the call
	// used are freed, so that a much smaller problem after a large one
	// does not hold the large one's memory, while buffers of up to Keep
	// bytes stay whatever follows.
	Keep  uint64
	Ratio uint64
}

// Pool keeps freed buffers of one kind of memory (device memory, or
// page-locked host memory) for later calls. Requests are rounded up to a
// size class (Class), and an idle buffer of at least the class, at most
// twice it, is reused. A Pool is not safe for concurrent use: a device's
// pools are used on its owner goroutine only.
type Pool[P comparable] struct {
	alloc  func(bytes uint64) (P, error)
	free   func(P) error
	limits Limits
	idle   []Buffer[P] // oldest first
	bytes  uint64      // idle bytes
	stats  PoolStats
}

// PoolStats counts a pool's work.
type PoolStats struct {
	Allocs, Frees, Reuses int
	IdleBytes             uint64
	Idle                  int
}

// NewPool returns a pool over alloc and free.
func NewPool[P comparable](alloc func(uint64) (P, error), free func(P) error, l Limits) *Pool[P] {
	return &Pool[P]{alloc: alloc, free: free, limits: l}
}

// smallMax is the largest size rounded to a power of two; larger sizes are
// rounded to a multiple of largeStep, so that a 40 GiB matrix is not
// allocated as 64 GiB.
const (
	smallMin  = 4 << 10
	smallMax  = 64 << 20
	largeStep = 2 << 20
)

// Class is the size a request for bytes is allocated at: the next power of
// two from 4 KiB to 64 MiB, above that the next multiple of 2 MiB.
func Class(bytes uint64) uint64 {
	if bytes <= smallMin {
		return smallMin
	}
	if bytes <= smallMax {
		c := uint64(smallMin)
		for c < bytes {
			c <<= 1
		}
		return c
	}
	return (bytes + largeStep - 1) / largeStep * largeStep
}

// find returns the index of the smallest idle buffer that serves a request
// of class c, or -1.
func (p *Pool[P]) find(c uint64) int {
	best := -1
	for i, b := range p.idle {
		if b.Size >= c && b.Size <= 2*c && (best < 0 || b.Size < p.idle[best].Size) {
			best = i
		}
	}
	return best
}

// Has reports whether a request for bytes would be served from idle
// buffers, without allocating.
func (p *Pool[P]) Has(bytes uint64) bool { return p.find(Class(bytes)) >= 0 }

// Get returns a buffer of at least bytes: an idle one, or a new one. When
// allocating fails and buffers are idle, it frees them and tries once more.
func (p *Pool[P]) Get(bytes uint64) (Buffer[P], error) {
	c := Class(bytes)
	if i := p.find(c); i >= 0 {
		b := p.idle[i]
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		p.bytes -= b.Size
		p.stats.Reuses++
		return b, nil
	}
	ptr, err := p.alloc(c)
	if err != nil && len(p.idle) > 0 {
		_ = p.Release()
		ptr, err = p.alloc(c)
	}
	if err != nil {
		var zero Buffer[P]
		return zero, err
	}
	p.stats.Allocs++
	return Buffer[P]{Ptr: ptr, Size: c}, nil
}

// Put gives a buffer back for reuse, within MaxIdle.
func (p *Pool[P]) Put(b Buffer[P]) error {
	if b.Size > p.limits.MaxIdle {
		return p.drop(b)
	}
	var errs []error
	for p.bytes+b.Size > p.limits.MaxIdle && len(p.idle) > 0 {
		old := p.idle[0]
		p.idle = p.idle[1:]
		p.bytes -= old.Size
		errs = append(errs, p.drop(old))
	}
	p.idle = append(p.idle, b)
	p.bytes += b.Size
	return errors.Join(errs...)
}

// Trim frees the idle buffers larger than both Keep and Ratio times
// largest, the largest buffer the call that ends used.
func (p *Pool[P]) Trim(largest uint64) error {
	limit := max(p.limits.Keep, p.limits.Ratio*largest)
	var errs []error
	kept := p.idle[:0]
	for _, b := range p.idle {
		if b.Size > limit {
			p.bytes -= b.Size
			errs = append(errs, p.drop(b))
			continue
		}
		kept = append(kept, b)
	}
	clear(p.idle[len(kept):])
	p.idle = kept
	return errors.Join(errs...)
}

// Release frees every idle buffer.
func (p *Pool[P]) Release() error {
	var errs []error
	for _, b := range p.idle {
		errs = append(errs, p.drop(b))
	}
	p.idle, p.bytes = nil, 0
	return errors.Join(errs...)
}

func (p *Pool[P]) drop(b Buffer[P]) error {
	p.stats.Frees++
	return p.free(b.Ptr)
}

// Stats returns the pool's counters.
func (p *Pool[P]) Stats() PoolStats {
	s := p.stats
	s.IdleBytes, s.Idle = p.bytes, len(p.idle)
	return s
}
