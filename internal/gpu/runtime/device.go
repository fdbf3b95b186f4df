package runtime

import (
	"context"
	"errors"
	goruntime "runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/sysmem"
)

// Events is how many timing events each device keeps for its calls: four
// for each of up to four streams of a call.
const Events = 16

// hostMaxIdle bounds the idle page-locked host memory of a device: pinned
// pages are taken from the whole machine.
const hostMaxIdle = 4 << 30

// Device is one open GPU. Its fields below the owner are used on the owner
// goroutine only, inside Do.
type Device struct {
	Info cuda.Info
	// Dev is the GPU's context and owner goroutine.
	Dev *cuda.Device
	// OpenTime is how long creating the context, stream and events took.
	OpenTime time.Duration

	stream  *cuda.Stream
	events  []*cuda.Event
	mem     *Pool[uint64]
	host    *Pool[unsafe.Pointer]
	mods    map[any]any
	modules []*cuda.Module
	spare   []*cuda.Stream
	hand    *handoff

	mu     sync.Mutex // guards timing, read from any goroutine
	timing Timing
}

// Timing accumulates what the device's calls measured with CUDA events.
type Timing struct {
	Calls  int
	Kernel float64 // milliseconds in the algorithm's kernels
	Device float64 // milliseconds from the first copy to the last, kernels included
}

func openDevice(api *cuda.API, ordinal int) (*Device, error) {
	start := time.Now()
	dev, err := api.Open(ordinal)
	if err != nil {
		return nil, err
	}
	d := &Device{Info: dev.Info, Dev: dev, mods: map[any]any{}, hand: newHandoff()}
	d.mem = NewPool(dev.Alloc, dev.Free, Limits{MaxIdle: dev.Info.Memory / 2, Keep: 64 << 20, Ratio: 8})
	// Page-locked memory is the process's but not the Go runtime's: the
	// admission's cached reading of the system's memory must not outlive
	// a new allocation (sysmem.Forget).
	allocHost := func(bytes uint64) (unsafe.Pointer, error) {
		p, err := dev.AllocHost(bytes)
		sysmem.Forget()
		return p, err
	}
	d.host = NewPool(allocHost, dev.FreeHost, Limits{MaxIdle: hostMaxIdle, Keep: 64 << 20, Ratio: 8})
	err = dev.Do(func() error {
		var err error
		if d.stream, err = dev.NewStream(); err != nil {
			return err
		}
		d.events = make([]*cuda.Event, Events)
		for i := range d.events {
			if d.events[i], err = dev.NewEvent(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		dev.Close() // releasing the context frees what was made
		return nil, err
	}
	d.OpenTime = time.Since(start)
	return d, nil
}

// close releases the device on its owner goroutine, after the work
// already running.
func (d *Device) close() error {
	d.hand.stop.Store(true) // a spinner on the owner leaves at once
	var err error
	d.Dev.CloseWith(func() { err = d.release() })
	return err
}

func (d *Device) release() error {
	errs := []error{d.mem.Release(), d.host.Release()}
	for _, m := range d.modules {
		errs = append(errs, m.Unload())
	}
	for _, s := range append(d.spare, d.stream) {
		s.Destroy()
	}
	for _, e := range d.events {
		e.Destroy()
	}
	d.modules, d.spare, d.mods = nil, nil, nil
	return errors.Join(errs...)
}

// AddTiming records one call's event timings (milliseconds).
func (d *Device) AddTiming(kernel, device float64) {
	d.mu.Lock()
	d.timing.Calls++
	d.timing.Kernel += kernel
	d.timing.Device += device
	d.mu.Unlock()
}

// Timing returns the totals of AddTiming.
func (d *Device) Timing() Timing {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.timing
}

// Do runs f on the device's owner goroutine with a Call that lends it the
// device's stream, events and pooled memory; what f takes from the pools
// goes back when f returns. While f waits behind other work, a cancelled
// ctx withdraws it (Do returns ctx.Err()). After the runtime was closed, Do
// returns cuda.ErrClosed.
//
// Calls in quick succession are handed over without waking a thread (see
// handoff.go): after a call the owner polls for the next for a while.
func (d *Device) Do(ctx context.Context, f func(c *Call) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	run := func() error {
		c := &Call{Ctx: ctx, d: d}
		err := f(c)
		return errors.Join(err, c.finish(err != nil))
	}
	j := &job{ctx: ctx, f: run, wake: make(chan struct{})}
	if d.hand.post(j) {
		return d.hand.wait(j)
	}
	d.hand.direct.Add(1)
	d.hand.queued.Add(1) // a spinner holding the owner leaves for us
	err := d.Dev.DoContext(ctx, run)
	d.hand.queued.Add(-1)
	// Keep the owner polling for the next call, unless it already does or
	// a lone Go processor would make the two spinners take turns.
	if err == nil && goruntime.GOMAXPROCS(0) >= 2 && !d.hand.stop.Load() && d.hand.starting.CompareAndSwap(false, true) {
		go func() {
			if d.Dev.DoContext(context.Background(), func() error { d.hand.spin(); return nil }) != nil {
				d.hand.starting.Store(false) // closed before it ran
			}
		}()
	}
	return err
}

// Call is one piece of work on a device's owner goroutine.
type Call struct {
	Ctx context.Context
	d   *Device

	mem     []Buffer[uint64]
	host    []Buffer[unsafe.Pointer]
	spare   []*cuda.Stream
	maxMem  uint64
	maxHost uint64
}

// Device returns the device the call runs on.
func (c *Call) Device() *Device { return c.d }

// Dev returns the device's context, for driver calls.
func (c *Call) Dev() *cuda.Device { return c.d.Dev }

// Stream returns the device's stream, on which the calls queue their work
// one after another.
func (c *Call) Stream() *cuda.Stream { return c.d.stream }

// Event returns the device's timing event i (i < Events).
func (c *Call) Event(i int) *cuda.Event { return c.d.events[i] }

// Has reports whether device memory of bytes would come from the pool
// without allocating.
func (c *Call) Has(bytes uint64) bool { return c.d.mem.Has(bytes) }

// Mem lends device memory of at least bytes until the call ends.
func (c *Call) Mem(bytes uint64) (uint64, error) {
	b, err := c.d.mem.Get(bytes)
	if err != nil {
		return 0, err
	}
	c.mem = append(c.mem, b)
	c.maxMem = max(c.maxMem, b.Size)
	return b.Ptr, nil
}

// Host lends page-locked host memory of at least bytes until the call
// ends.
func (c *Call) Host(bytes uint64) (unsafe.Pointer, error) {
	b, err := c.d.host.Get(bytes)
	if err != nil {
		return nil, err
	}
	c.host = append(c.host, b)
	c.maxHost = max(c.maxHost, b.Size)
	return b.Ptr, nil
}

// SpareStream lends a second stream (from the device's pool of them) until
// the call ends, for work that should overlap the main stream's.
func (c *Call) SpareStream() (*cuda.Stream, error) {
	var s *cuda.Stream
	if n := len(c.d.spare); n > 0 {
		s, c.d.spare = c.d.spare[n-1], c.d.spare[:n-1]
	} else {
		var err error
		if s, err = c.d.Dev.NewStream(); err != nil {
			return nil, err
		}
	}
	c.spare = append(c.spare, s)
	return s, nil
}

// LoadModule loads a cubin for the life of the runtime (it is unloaded on
// Close). Use it inside a Cached build.
func (c *Call) LoadModule(cubin []byte) (*cuda.Module, error) {
	m, err := c.d.Dev.LoadModule(cubin)
	if err != nil {
		return nil, err
	}
	c.d.modules = append(c.d.modules, m)
	return m, nil
}

// Cached returns the value built for key on c's device, building it the
// first time (a loaded module and its functions, say): it stays until the
// runtime is closed. Keys are compared with ==; a struct of the
// configuration is a good key (no strings to build per call). A build that
// fails for want of a usable driver library (cuda.ErrNoDriver: NVRTC is
// opened at the first compile) fails with an error matching ErrNoGPU.
func Cached[V any](c *Call, key any, build func() (V, error)) (V, error) {
	if v, ok := c.d.mods[key]; ok {
		return v.(V), nil
	}
	v, err := build()
	if err != nil {
		if errors.Is(err, cuda.ErrNoDriver) && !errors.Is(err, ErrNoGPU) {
			// NVRTC missing or broken, found at the first compile: the
			// GPU cannot run kernels, which callers learn as ErrNoGPU.
			err = &noGPU{err: err}
		}
		return v, err
	}
	c.d.mods[key] = v
	return v, nil
}

// finish gives back what the call took. After a failure the streams are
// synchronised first, so that no copy still queued touches memory the next
// call is lent.
func (c *Call) finish(failed bool) error {
	if failed {
		_ = c.d.stream.Synchronize()
		for _, s := range c.spare {
			_ = s.Synchronize()
		}
	}
	var errs []error
	for _, b := range c.mem {
		errs = append(errs, c.d.mem.Put(b))
	}
	for _, b := range c.host {
		errs = append(errs, c.d.host.Put(b))
	}
	// Only a pool the call used learns the size of its problem.
	if c.maxMem > 0 {
		errs = append(errs, c.d.mem.Trim(c.maxMem))
	}
	if c.maxHost > 0 {
		errs = append(errs, c.d.host.Trim(c.maxHost))
	}
	c.d.spare = append(c.d.spare, c.spare...)
	c.mem, c.host, c.spare = nil, nil, nil
	return errors.Join(errs...)
}

// PoolStats returns the device's pools' counters (device memory, host
// memory); call inside Do.
func (c *Call) PoolStats() (mem, host PoolStats) { return c.d.mem.Stats(), c.d.host.Stats() }
