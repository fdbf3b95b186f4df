package cuda

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Device attribute numbers (CUdevice_attribute).
const (
	attrMaxThreadsPerBlock     = 1
	attrClockRate              = 13
	attrMultiprocessorCount    = 16
	attrComputeCapabilityMajor = 75
	attrComputeCapabilityMinor = 76
	attrMaxSharedPerBlockOptin = 97
	funcAttrMaxDynamicShared   = 8
	funcAttrNumRegs            = 4
)

// Info describes a GPU.
type Info struct {
	Ordinal      int    `json:"ordinal"`
	Name         string `json:"name"`
	Memory       uint64 `json:"memory_bytes"`
	Major, Minor int    `json:"-"`
	Capability   string `json:"compute_capability"`
	SMs          int    `json:"sms"`
	ClockKHz     int    `json:"clock_khz"`
	MaxShared    int    `json:"max_shared_per_block"`
	// UUID names the physical GPU ("GPU-8c1b…", as nvidia-smi writes
	// it): the same whatever CUDA_VISIBLE_DEVICES numbers it, and on
	// whichever host.
	UUID string `json:"uuid"`
}

// Arch returns the NVRTC architecture name, e.g. "sm_90".
func (i Info) Arch() string { return fmt.Sprintf("sm_%d%d", i.Major, i.Minor) }

// Devices lists the GPUs the driver sees.
func (a *API) Devices() ([]Info, error) {
	var n int32
	if err := a.check("cuDeviceGetCount", a.cuDeviceGetCount(&n)); err != nil {
		return nil, err
	}
	infos := make([]Info, 0, n)
	for i := 0; i < int(n); i++ {
		info, err := a.info(i)
		if err != nil {
			return nil, err
		}
		infos = append(infos, info)
	}
	return infos, nil
}

func (a *API) info(ordinal int) (Info, error) {
	var dev int32
	if err := a.check("cuDeviceGet", a.cuDeviceGet(&dev, int32(ordinal))); err != nil {
		return Info{}, err
	}
	name := make([]byte, 256)
	if err := a.check("cuDeviceGetName", a.cuDeviceGetName(&name[0], int32(len(name)), dev)); err != nil {
		return Info{}, err
	}
	info := Info{Ordinal: ordinal, Name: cString(&name[0])}
	if err := a.check("cuDeviceTotalMem", a.cuDeviceTotalMem(&info.Memory, dev)); err != nil {
		return Info{}, err
	}
	attrs := []struct {
		attr int32
		dst  *int
	}{{attrComputeCapabilityMajor, &info.Major}, {attrComputeCapabilityMinor, &info.Minor},
		{attrMultiprocessorCount, &info.SMs}, {attrClockRate, &info.ClockKHz}, {attrMaxSharedPerBlockOptin, &info.MaxShared}}
	for _, at := range attrs {
		var v int32
		if err := a.check("cuDeviceGetAttribute", a.cuDeviceGetAttribute(&v, at.attr, dev)); err != nil {
			return Info{}, err
		}
		*at.dst = int(v)
	}
	info.Capability = fmt.Sprintf("%d.%d", info.Major, info.Minor)
	var u [16]byte
	if err := a.check("cuDeviceGetUuid", a.cuDeviceGetUUID(&u, dev)); err != nil {
		return Info{}, err
	}
	info.UUID = fmt.Sprintf("GPU-%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
	return info, nil
}

// Device is one GPU with its context, owned by a goroutine locked to its OS
// thread: every method that touches the driver runs there (Do).
type Device struct {
	API  *API
	Info Info
	// Debug synchronises after every launch so that a failing kernel is
	// named at once (set by APSP_CUDA_DEBUG=1).
	Debug bool
	ctx   uintptr
	dev   int32 // the driver's device handle
	reset atomic.Bool
	own   *owner
}

// Open takes GPU ordinal's primary context and starts its goroutine.
func (a *API) Open(ordinal int) (*Device, error) {
	var n int32
	if err := a.check("cuDeviceGetCount", a.cuDeviceGetCount(&n)); err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= int(n) {
		return nil, fmt.Errorf("GPU %d not found: the driver sees %d GPU(s)", ordinal, n)
	}
	d := &Device{API: a, Debug: os.Getenv("APSP_CUDA_DEBUG") == "1"}
	init := func() error {
		info, err := a.info(ordinal)
		if err != nil {
			return err
		}
		d.Info = info
		if err := a.check("cuDeviceGet", a.cuDeviceGet(&d.dev, int32(ordinal))); err != nil {
			return err
		}
		// The device's primary context, the one the CUDA runtime uses:
		// libraries built on the runtime (NCCL) then work on our memory
		// and streams, which a context of our own would not share with
		// them (NCCL's threads make the primary context current).
		if err := a.check("cuDevicePrimaryCtxRetain", a.cuPrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
			return err
		}
		if err := a.check("cuCtxSetCurrent", a.cuCtxSetCurrent(d.ctx)); err != nil {
			a.cuPrimaryCtxRelease(d.dev)
			return err
		}
		return nil
	}
	// Releasing the last reference destroys the context, as cuCtxDestroy
	// would; a runtime library still holding it keeps it alive, unless the
	// context is broken (ResetOnClose).
	own, err := startOwner(init, func() {
		a.cuPrimaryCtxRelease(d.dev)
		if d.reset.Load() {
			a.cuPrimaryCtxReset(d.dev)
		}
	})
	if err != nil {
		return nil, err
	}
	d.own = own
	return d, nil
}

// Do runs f on the device's goroutine, where its context is current.
func (d *Device) Do(f func() error) error { return d.own.do(context.Background(), f) }

// DoContext is Do that gives up while f is still queued behind other work
// once ctx is done (returning ctx.Err(); f then never runs). After Close it
// returns ErrClosed.
func (d *Device) DoContext(ctx context.Context, f func() error) error { return d.own.do(ctx, f) }

// Close releases the context (destroyed with its last holder: in a
// process where no CUDA runtime library holds it too, at once) and stops
// the goroutine; work already handed to the goroutine finishes first, work
// still waiting gets ErrClosed. Devices opened on one GPU share its primary
// context.
func (d *Device) Close() { d.own.close(nil) }

// ResetOnClose makes Close destroy the context even if another holder
// (NCCL's CUDA runtime) keeps it: for a context broken by a sticky error,
// which a later Open must not get back.
func (d *Device) ResetOnClose() { d.reset.Store(true) }

// CloseWith is Close that first runs release on the device's goroutine,
// with the context still current, after the last work: the place to free
// what the device's users keep (pools, modules, streams).
func (d *Device) CloseWith(release func()) { d.own.close(release) }

// The methods below must be called inside Do.

// Alloc allocates device memory.
func (d *Device) Alloc(bytes uint64) (uint64, error) {
	var p uint64
	if r := d.API.cuMemAlloc(&p, bytes); r != 0 {
		return 0, d.API.check(fmt.Sprintf("cuMemAlloc(%d bytes)", bytes), r)
	}
	return p, nil
}

// Free frees device memory.
func (d *Device) Free(p uint64) error { return d.API.check("cuMemFree", d.API.cuMemFree(p)) }

// MemInfo returns free and total device memory.
func (d *Device) MemInfo() (free, total uint64, err error) {
	err = d.API.check("cuMemGetInfo", d.API.cuMemGetInfo(&free, &total))
	return free, total, err
}

// AllocHost allocates page-locked host memory.
func (d *Device) AllocHost(bytes uint64) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	if r := d.API.cuMemAllocHost(&p, bytes); r != 0 {
		return nil, d.API.check(fmt.Sprintf("cuMemAllocHost(%d bytes)", bytes), r)
	}
	return p, nil
}

// FreeHost frees page-locked host memory.
func (d *Device) FreeHost(p unsafe.Pointer) error {
	return d.API.check("cuMemFreeHost", d.API.cuMemFreeHost(p))
}

// CopyToDevice copies bytes from host to device.
func (d *Device) CopyToDevice(dst uint64, src unsafe.Pointer, bytes uint64) error {
	return d.API.check("cuMemcpyHtoD", d.API.cuMemcpyHtoD(dst, src, bytes))
}

// CopyToHost copies bytes from device to host.
func (d *Device) CopyToHost(dst unsafe.Pointer, src uint64, bytes uint64) error {
	return d.API.check("cuMemcpyDtoH", d.API.cuMemcpyDtoH(dst, src, bytes))
}

// CopyDevice copies bytes within the device.
func (d *Device) CopyDevice(dst, src uint64, bytes uint64) error {
	return d.API.check("cuMemcpyDtoD", d.API.cuMemcpyDtoD(dst, src, bytes))
}

// Memset32 sets n 32-bit words.
func (d *Device) Memset32(dst uint64, v uint32, n uint64) error {
	return d.API.check("cuMemsetD32", d.API.cuMemsetD32(dst, v, n))
}

// Synchronize waits for all work and reports any asynchronous error.
func (d *Device) Synchronize() error {
	return d.API.check("cuCtxSynchronize", d.API.cuCtxSynchronize())
}

// Module is loaded device code.
type Module struct {
	d   *Device
	mod uintptr
}

// LoadModule loads a cubin.
func (d *Device) LoadModule(cubin []byte) (*Module, error) {
	m := &Module{d: d}
	err := d.API.check("cuModuleLoadData", d.API.cuModuleLoadData(&m.mod, unsafe.Pointer(&cubin[0])))
	runtime.KeepAlive(cubin)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Unload unloads the module.
func (m *Module) Unload() error {
	return m.d.API.check("cuModuleUnload", m.d.API.cuModuleUnload(m.mod))
}

// Function is a kernel.
type Function struct {
	d    *Device
	f    uintptr
	Name string
}

// Function looks up a kernel by its extern "C" name.
func (m *Module) Function(name string) (*Function, error) {
	f := &Function{d: m.d, Name: name}
	if err := m.d.API.check("cuModuleGetFunction "+name, m.d.API.cuModuleGetFunction(&f.f, m.mod, name)); err != nil {
		return nil, err
	}
	return f, nil
}

// SetMaxDynamicShared allows bytes of dynamic shared memory per block.
func (f *Function) SetMaxDynamicShared(bytes int) error {
	return f.d.API.check("cuFuncSetAttribute "+f.Name, f.d.API.cuFuncSetAttribute(f.f, funcAttrMaxDynamicShared, int32(bytes)))
}

// Registers returns the registers per thread the kernel uses.
func (f *Function) Registers() int {
	var v int32
	f.d.API.cuFuncGetAttribute(&v, funcAttrNumRegs, f.f)
	return int(v)
}

// Launch starts the kernel on the default stream. Each argument must be a
// pointer to the value passed (e.g. &devPtr, &n).
func (f *Function) Launch(grid, block [3]uint32, shared uint32, args ...unsafe.Pointer) error {
	return f.LaunchOn(nil, grid, block, shared, args...)
}

// LaunchOn starts the kernel on stream s (nil: the default stream).
func (f *Function) LaunchOn(s *Stream, grid, block [3]uint32, shared uint32, args ...unsafe.Pointer) error {
	var params unsafe.Pointer
	if len(args) > 0 {
		params = unsafe.Pointer(&args[0])
	}
	r := f.d.API.cuLaunchKernel(f.f, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, s.handle(), params, nil)
	runtime.KeepAlive(args)
	if r != 0 {
		return f.d.API.check("cuLaunchKernel "+f.Name, r)
	}
	if f.d.Debug {
		return f.d.API.check("kernel "+f.Name, f.d.API.cuCtxSynchronize())
	}
	return nil
}

// Event is a CUDA event for timing.
type Event struct {
	d *Device
	e uintptr
}

// NewEvent creates an event.
func (d *Device) NewEvent() (*Event, error) {
	ev := &Event{d: d}
	if err := d.API.check("cuEventCreate", d.API.cuEventCreate(&ev.e, 0)); err != nil {
		return nil, err
	}
	return ev, nil
}

// Record records the event on the default stream.
func (e *Event) Record() error { return e.RecordOn(nil) }

// RecordOn records the event on stream s.
func (e *Event) RecordOn(s *Stream) error {
	if r := e.d.API.cuEventRecord(e.e, s.handle()); r != 0 {
		return e.d.API.check("cuEventRecord", r)
	}
	return nil
}

// Stream is a CUDA stream: work on different streams may overlap.
type Stream struct {
	d *Device
	s uintptr
}

// NewStream creates a stream.
func (d *Device) NewStream() (*Stream, error) {
	s := &Stream{d: d}
	if err := d.API.check("cuStreamCreate", d.API.cuStreamCreate(&s.s, 0)); err != nil {
		return nil, err
	}
	return s, nil
}

// Handle is the CUstream (a cudaStream_t to runtime libraries such as
// NCCL); 0, the legacy default stream, for a nil Stream.
func (s *Stream) Handle() uintptr { return s.handle() }

func (s *Stream) handle() uintptr {
	if s == nil {
		return 0
	}
	return s.s
}

// Destroy frees the stream.
func (s *Stream) Destroy() { s.d.API.cuStreamDestroy(s.s) }

// WaitEvent makes the work queued on s after this call wait until e, as
// last recorded, has completed; the host does not wait.
func (s *Stream) WaitEvent(e *Event) error {
	return s.d.API.check("cuStreamWaitEvent", s.d.API.cuStreamWaitEvent(s.handle(), e.e, 0))
}

// Synchronize waits for the work queued on the stream and reports any
// asynchronous error.
func (s *Stream) Synchronize() error {
	if r := s.d.API.cuStreamSynchronize(s.s); r != 0 {
		return s.d.API.check("cuStreamSynchronize", r)
	}
	return nil
}

// Memset32Async queues setting n 32-bit words at dst to v.
func (s *Stream) Memset32Async(dst uint64, v uint32, n uint64) error {
	if r := s.d.API.cuMemsetD32Async(dst, v, n, s.s); r != 0 {
		return s.d.API.check("cuMemsetD32Async", r)
	}
	return nil
}

// CopyToDeviceAsync queues a host-to-device copy from page-locked memory.
func (s *Stream) CopyToDeviceAsync(dst uint64, src unsafe.Pointer, bytes uint64) error {
	if r := s.d.API.cuMemcpyHtoDAsync(dst, src, bytes, s.s); r != 0 {
		return s.d.API.check("cuMemcpyHtoDAsync", r)
	}
	return nil
}

// CopyToHostAsync queues a device-to-host copy into page-locked memory.
func (s *Stream) CopyToHostAsync(dst unsafe.Pointer, src uint64, bytes uint64) error {
	if r := s.d.API.cuMemcpyDtoHAsync(dst, src, bytes, s.s); r != 0 {
		return s.d.API.check("cuMemcpyDtoHAsync", r)
	}
	return nil
}

// CopyPeerAsync queues a copy of bytes from src on GPU from (another
// context) to dst on the stream's GPU. It works whether or not peer access
// is enabled (the driver stages it through the host when it is not).
func (s *Stream) CopyPeerAsync(dst uint64, from *Device, src uint64, bytes uint64) error {
	if r := s.d.API.cuMemcpyPeerAsync(dst, s.d.ctx, src, from.ctx, bytes, s.s); r != 0 {
		return s.d.API.check("cuMemcpyPeerAsync", r)
	}
	return nil
}

// EnablePeerAccess lets this context (current: call it on d's goroutine)
// reach peer's memory directly (NVLink or PCIe peer to peer). It returns
// false with no error when the GPUs cannot reach each other that way;
// peer copies then still work, staged by the driver. Enabling it twice is
// no error.
func (d *Device) EnablePeerAccess(peer *Device) (bool, error) {
	switch r := d.API.cuCtxEnablePeerAccess(peer.ctx, 0); r {
	case 0, resultPeerAccessAlreadyEnabled:
		return true, nil
	case resultPeerAccessUnsupported:
		return false, nil
	default:
		return false, d.API.check("cuCtxEnablePeerAccess", r)
	}
}

// Driver results EnablePeerAccess tells apart.
const (
	resultPeerAccessUnsupported    Result = 217
	resultPeerAccessAlreadyEnabled Result = 704
)

// Since waits for e and returns the milliseconds from start to e.
func (e *Event) Since(start *Event) (float64, error) {
	if err := e.d.API.check("cuEventSynchronize", e.d.API.cuEventSynchronize(e.e)); err != nil {
		return 0, err
	}
	var ms float32
	err := e.d.API.check("cuEventElapsedTime", e.d.API.cuEventElapsedTime(&ms, start.e, e.e))
	return float64(ms), err
}

// Elapsed returns the milliseconds from start to e, both already complete
// (after a synchronisation of the stream they were recorded on).
func (e *Event) Elapsed(start *Event) (float64, error) {
	var ms float32
	if r := e.d.API.cuEventElapsedTime(&ms, start.e, e.e); r != 0 {
		return 0, e.d.API.check("cuEventElapsedTime", r)
	}
	return float64(ms), nil
}

// Destroy frees the event.
func (e *Event) Destroy() { e.d.API.cuEventDestroy(e.e) }
