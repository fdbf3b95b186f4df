// Package runtime is apsp's GPU runtime: one per process, created lazily.
//
// The CUDA driver and NVRTC are loaded once, on first use, and a failure to
// load them is remembered (every later call returns the same error without
// trying again) until Close. The list of GPUs is read once with them. Each
// GPU that is used gets one long-lived owner: a goroutine locked to its OS
// thread with the GPU's context current (cuda.Device), created on first use.
// Work for a GPU is submitted with a context.Context (Device.Do) and can be
// withdrawn while it waits for the owner. After each call the owner polls a
// one-job mailbox for a while (handoff.go), so that a loop of calls is
// handed over without waking a thread (1–2 µs a call instead of about 20).
// On the owner's side each GPU keeps
// its stream, its timing events, the modules its users loaded (Cached: one
// per key, for the life of the runtime) and two pools of memory, device
// memory and page-locked host memory, so that a steady stream of calls
// allocates nothing after the first.
//
// Close releases the contexts, modules and pooled memory; the next use opens
// everything again. The only package-level mutable state is the process's
// Runtime value (Default), whose fields are guarded by its mutex.
package runtime

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/apsp/apsp/internal/cuda"
)

// ErrNoGPU is matched (errors.Is) by every error that means no usable GPU:
// no driver library, a driver that sees no GPU, a GPU number out of range,
// or a GPU whose context cannot be created.
var ErrNoGPU = errors.New("no usable GPU")

// noGPU is an error that matches ErrNoGPU and keeps its cause (a
// cuda.ErrNoDriver, say) without repeating "no usable GPU" in its text.
type noGPU struct {
	msg string
	err error
}

func (e *noGPU) Error() string {
	switch {
	case e.msg == "":
		return e.err.Error()
	case e.err == nil:
		return e.msg
	}
	return e.msg + ": " + e.err.Error()
}

func (e *noGPU) Is(target error) bool { return target == ErrNoGPU }
func (e *noGPU) Unwrap() error        { return e.err }

// Loader loads the driver and lists the GPUs it sees. Tests pass fakes (a
// driver that sees no GPU, say) to New or SetLoader.
type Loader func() (*cuda.API, []cuda.Info, error)

// CUDALoader loads libcuda (cuda.Load; NVRTC is found there and opened at
// the first compile) and lists the GPUs.
func CUDALoader() (*cuda.API, []cuda.Info, error) {
	api, err := cuda.Load()
	if err != nil {
		return nil, nil, err
	}
	infos, err := api.Devices()
	if err != nil {
		return nil, nil, err
	}
	return api, infos, nil
}

// Runtime is the GPU runtime of a process (see the package comment).
type Runtime struct {
	mu     sync.Mutex
	loader Loader
	st     *state // nil until first use and after Close
	opened int    // devices opened since the runtime was made
	// open and discard open and close a device (openDevice and
	// Device.close; tests fake them to check the opening's concurrency
	// without a GPU).
	open    func(api *cuda.API, ordinal int) (*Device, error)
	discard func(*Device) error
}

// state is what one load holds, until Close.
type state struct {
	api      *cuda.API
	infos    []cuda.Info
	err      error
	loadTime time.Duration
	devs     map[int]*Device
	opening  map[int]*opening // devices being opened, outside the lock
}

// opening is a device's opening in progress: done closes when d or err is
// set, for the callers that asked for the same device meanwhile.
type opening struct {
	done chan struct{}
	d    *Device
	err  error
	// closing marks a device being forgotten (Forget): who waits for it
	// opens the GPU afresh once its context is gone.
	closing bool
}

// process is the runtime of this process: the package's only mutable
// state, initialised lazily on first use (the Runtime value is made at
// start-up, but loads nothing until asked).
var process = New(nil)

// Default returns the process's runtime.
func Default() *Runtime { return process }

// New returns a runtime over loader (nil: CUDALoader). Programs use
// Default; tests make their own with fake loaders.
func New(loader Loader) *Runtime {
	if loader == nil {
		loader = CUDALoader
	}
	return &Runtime{loader: loader, open: openDevice, discard: (*Device).close}
}

// SetLoader closes the runtime and makes it load through loader from now on
// (nil: CUDALoader); for tests that fake a machine without a GPU.
func (r *Runtime) SetLoader(loader Loader) error {
	if loader == nil {
		loader = CUDALoader
	}
	// One critical section: a use between forgetting the state and
	// setting the loader would load through the old loader.
	r.mu.Lock()
	st := r.st
	r.st, r.loader = nil, loader
	r.mu.Unlock()
	return r.closeState(st)
}

// load returns the state, loading the driver the first time. Call with
// r.mu held.
func (r *Runtime) load() *state {
	if r.st == nil {
		start := time.Now()
		api, infos, err := r.loader()
		r.st = &state{api: api, infos: infos, loadTime: time.Since(start), devs: map[int]*Device{}, opening: map[int]*opening{}}
		switch {
		case err != nil:
			r.st.err = &noGPU{err: err}
		case len(infos) == 0:
			r.st.err = &noGPU{msg: "the CUDA driver sees no GPU"}
		}
	}
	return r.st
}

// Devices lists the GPUs (read once per load), or says why there are none
// with an error matching ErrNoGPU.
func (r *Runtime) Devices() ([]cuda.Info, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.load()
	if st.err != nil {
		return nil, st.err
	}
	return append([]cuda.Info(nil), st.infos...), nil
}

// Check says whether GPU ordinal exists, without opening it.
func (r *Runtime) Check(ordinal int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.check(r.load(), ordinal)
}

func (r *Runtime) check(st *state, ordinal int) error {
	if st.err != nil {
		return st.err
	}
	if ordinal < 0 || ordinal >= len(st.infos) {
		return &noGPU{msg: fmt.Sprintf("gpu:%d not found: the CUDA driver sees %d GPU(s), gpu:0 to gpu:%d", ordinal, len(st.infos), len(st.infos)-1)}
	}
	return nil
}

// Device returns GPU ordinal, opening it (its context, owner goroutine,
// stream and pools) on first use. Different GPUs open at once: the
// opening runs outside the runtime's lock (a context took 0.1 s on the
// H100 machines), and callers that ask for a GPU being opened wait for it.
func (r *Runtime) Device(ordinal int) (*Device, error) {
	r.mu.Lock()
	st := r.load()
	if err := r.check(st, ordinal); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	if d := st.devs[ordinal]; d != nil {
		r.mu.Unlock()
		return d, nil
	}
	if o := st.opening[ordinal]; o != nil {
		r.mu.Unlock()
		<-o.done
		if o.closing {
			return r.Device(ordinal)
		}
		return o.d, o.err
	}
	o := &opening{done: make(chan struct{})}
	st.opening[ordinal] = o
	r.mu.Unlock()
	defer close(o.done)

	d, err := r.open(st.api, ordinal)
	if err != nil {
		err = &noGPU{msg: fmt.Sprintf("gpu:%d (%s)", ordinal, st.infos[ordinal].Name), err: err}
	}
	r.mu.Lock()
	delete(st.opening, ordinal)
	stale := r.st != st // closed or reloaded meanwhile: the device belongs to no state
	if err == nil && !stale {
		st.devs[ordinal] = d
		r.opened++
	}
	r.mu.Unlock()
	if err == nil && stale {
		err = fmt.Errorf("gpu:%d: the GPU runtime was closed while it opened: %w", ordinal, errors.Join(cuda.ErrClosed, r.discard(d)))
		d = nil
	}
	o.d, o.err = d, err
	return d, err
}

// Forget closes GPU ordinal if it is open, so that the next use opens it
// afresh: for a context that a sticky error (cuda.Sticky) made unusable.
func (r *Runtime) Forget(ordinal int) error {
	r.mu.Lock()
	var d *Device
	var o *opening
	st := r.st
	if st != nil {
		d = st.devs[ordinal]
		delete(st.devs, ordinal)
		if d != nil && st.opening[ordinal] == nil {
			// Until the old context is gone, callers wait: an open in
			// between would retain the primary context that the reset
			// below then destroys under it.
			o = &opening{done: make(chan struct{}), closing: true}
			st.opening[ordinal] = o
		}
	}
	r.mu.Unlock()
	if d == nil {
		return nil
	}
	if o != nil {
		defer func() {
			r.mu.Lock()
			if st.opening[ordinal] == o {
				delete(st.opening, ordinal)
			}
			r.mu.Unlock()
			close(o.done)
		}()
	}
	if d.Dev != nil {
		// Forgotten after a sticky error: the next open must get a fresh
		// context, not the broken one another library still holds.
		d.Dev.ResetOnClose()
	}
	return r.discard(d)
}

// LoadTime is how long loading the driver and listing the GPUs took (0
// before the first use).
func (r *Runtime) LoadTime() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil {
		return 0
	}
	return r.st.loadTime
}

// LoadedDevices lists the GPUs if the driver is already loaded (without
// loading it: a caller that only consults them does not pay the driver's
// start-up), and false if it is not, or found none.
func (r *Runtime) LoadedDevices() ([]cuda.Info, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil || r.st.err != nil {
		return nil, false
	}
	return append([]cuda.Info(nil), r.st.infos...), true
}

// Opened counts the devices opened since the runtime was made (a Close and
// a re-open count twice).
func (r *Runtime) Opened() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opened
}

// Close releases every open GPU (its pooled memory, modules, streams and
// context, after the work already running) and forgets the driver and any
// load error; the next use loads and opens again. Work still waiting for a
// GPU when Close comes fails with cuda.ErrClosed.
func (r *Runtime) Close() error {
	r.mu.Lock()
	st := r.st
	r.st = nil
	r.mu.Unlock()
	return r.closeState(st)
}

// closeState closes the GPUs of a state that the runtime no longer holds
// (no one adds to its devices then: an opening that ends later finds the
// state stale and closes its device itself).
func (r *Runtime) closeState(st *state) error {
	if st == nil {
		return nil
	}
	var errs []error
	for _, d := range st.devs {
		errs = append(errs, r.discard(d))
	}
	return errors.Join(errs...)
}
