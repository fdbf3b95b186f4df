package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/apsp/apsp/internal/dynlib"
)

// ErrNoDriver is wrapped by errors that mean no usable CUDA driver.
var ErrNoDriver = errors.New("no usable CUDA driver")

// Where the libraries are: the environment variables APSP_LIBCUDA and
// APSP_LIBNVRTC name a file directly.
var (
	cudaLib = dynlib.Spec{
		Env:   "APSP_LIBCUDA",
		Names: []string{"libcuda.so.1", "libcuda.so"},
		Dirs:  []string{"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/cuda/lib64", "/usr/lib/wsl/lib"},
	}
	nvrtcLib = dynlib.Spec{
		Env:   "APSP_LIBNVRTC",
		Names: []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"},
		Dirs:  []string{"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib64"},
	}
)

// API holds the bound driver and NVRTC functions.
type API struct {
	CudaPath, NVRTCPath string

	cuInit                func(flags uint32) Result
	cuDriverGetVersion    func(v *int32) Result
	cuGetErrorName        func(r Result, s **byte) Result
	cuDeviceGetCount      func(n *int32) Result
	cuDeviceGet           func(dev *int32, ordinal int32) Result
	cuDeviceGetName       func(name *byte, n int32, dev int32) Result
	cuDeviceGetAttribute  func(v *int32, attrib int32, dev int32) Result
	cuDeviceGetUUID       func(uuid *[16]byte, dev int32) Result
	cuDeviceTotalMem      func(b *uint64, dev int32) Result
	cuPrimaryCtxRetain    func(ctx *uintptr, dev int32) Result
	cuPrimaryCtxRelease   func(dev int32) Result
	cuPrimaryCtxReset     func(dev int32) Result
	cuCtxSetCurrent       func(ctx uintptr) Result
	cuCtxSynchronize      func() Result
	cuModuleLoadData      func(mod *uintptr, image unsafe.Pointer) Result
	cuModuleUnload        func(mod uintptr) Result
	cuModuleGetFunction   func(f *uintptr, mod uintptr, name string) Result
	cuFuncSetAttribute    func(f uintptr, attrib int32, v int32) Result
	cuFuncGetAttribute    func(v *int32, attrib int32, f uintptr) Result
	cuMemAlloc            func(p *uint64, size uint64) Result
	cuMemFree             func(p uint64) Result
	cuMemAllocHost        func(p *unsafe.Pointer, size uint64) Result
	cuMemFreeHost         func(p unsafe.Pointer) Result
	cuMemcpyHtoD          func(dst uint64, src unsafe.Pointer, size uint64) Result
	cuMemcpyDtoH          func(dst unsafe.Pointer, src uint64, size uint64) Result
	cuMemcpyDtoD          func(dst, src uint64, size uint64) Result
	cuMemsetD32           func(dst uint64, v uint32, n uint64) Result
	cuMemGetInfo          func(free, total *uint64) Result
	cuLaunchKernel        func(f uintptr, gx, gy, gz, bx, by, bz, shm uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) Result
	cuStreamCreate        func(s *uintptr, flags uint32) Result
	cuStreamDestroy       func(s uintptr) Result
	cuStreamSynchronize   func(s uintptr) Result
	cuStreamWaitEvent     func(s uintptr, e uintptr, flags uint32) Result
	cuMemsetD32Async      func(dst uint64, v uint32, n uint64, stream uintptr) Result
	cuMemcpyHtoDAsync     func(dst uint64, src unsafe.Pointer, size uint64, stream uintptr) Result
	cuMemcpyDtoHAsync     func(dst unsafe.Pointer, src uint64, size uint64, stream uintptr) Result
	cuEventCreate         func(e *uintptr, flags uint32) Result
	cuEventDestroy        func(e uintptr) Result
	cuEventRecord         func(e uintptr, stream uintptr) Result
	cuEventSynchronize    func(e uintptr) Result
	cuEventElapsedTime    func(ms *float32, start, end uintptr) Result
	cuMemcpyPeerAsync     func(dst uint64, dstCtx uintptr, src uint64, srcCtx uintptr, size uint64, stream uintptr) Result
	cuCtxEnablePeerAccess func(peer uintptr, flags uint32) Result

	// NVRTC is opened on the first compile (loadNVRTC): with every cubin
	// in the disk cache a process never needs it, and its dlopen is a
	// noticeable part of a GPU's start (docs/perf.md, "The GPU runtime:
	// repeated calls").
	nvrtcOnce              sync.Once
	nvrtcErr               error
	nvrtcVersion           func(major, minor *int32) NVRTCResult
	nvrtcGetErrorString    func(r NVRTCResult) uintptr
	nvrtcCreateProgram     func(prog *uintptr, src string, name string, n int32, h, i unsafe.Pointer) NVRTCResult
	nvrtcDestroyProgram    func(prog *uintptr) NVRTCResult
	nvrtcCompileProgram    func(prog uintptr, n int32, opts unsafe.Pointer) NVRTCResult
	nvrtcGetProgramLogSize func(prog uintptr, n *uint64) NVRTCResult
	nvrtcGetProgramLog     func(prog uintptr, log *byte) NVRTCResult
	nvrtcGetCUBINSize      func(prog uintptr, n *uint64) NVRTCResult
	nvrtcGetCUBIN          func(prog uintptr, out *byte) NVRTCResult
}

// Load opens libcuda, binds its functions and initialises the driver; it
// finds NVRTC, which the first compile opens (loadNVRTC). The error wraps
// ErrNoDriver when the machine has no usable GPU.
func Load() (*API, error) {
	cudaPath, err := cudaLib.Find()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	nvrtcPath, err := nvrtcLib.Find()
	if err != nil {
		return nil, fmt.Errorf("%w: NVRTC (the CUDA runtime compiler) is missing: %v", ErrNoDriver, err)
	}
	cu, err := dynlib.Open(cudaPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	a := &API{CudaPath: cudaPath, NVRTCPath: nvrtcPath}
	// A missing symbol (an old driver, say) is an error naming it.
	if err := cu.Bind(
		dynlib.Func(&a.cuInit, "cuInit"),
		dynlib.Func(&a.cuDriverGetVersion, "cuDriverGetVersion"),
		dynlib.Func(&a.cuGetErrorName, "cuGetErrorName"),
		dynlib.Func(&a.cuDeviceGetCount, "cuDeviceGetCount"),
		dynlib.Func(&a.cuDeviceGet, "cuDeviceGet"),
		dynlib.Func(&a.cuDeviceGetName, "cuDeviceGetName"),
		dynlib.Func(&a.cuDeviceGetAttribute, "cuDeviceGetAttribute"),
		dynlib.Func(&a.cuDeviceGetUUID, "cuDeviceGetUuid_v2"),
		dynlib.Func(&a.cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
		dynlib.Func(&a.cuPrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
		dynlib.Func(&a.cuPrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
		dynlib.Func(&a.cuPrimaryCtxReset, "cuDevicePrimaryCtxReset_v2"),
		dynlib.Func(&a.cuCtxSetCurrent, "cuCtxSetCurrent"),
		dynlib.Func(&a.cuCtxSynchronize, "cuCtxSynchronize"),
		dynlib.Func(&a.cuModuleLoadData, "cuModuleLoadData"),
		dynlib.Func(&a.cuModuleUnload, "cuModuleUnload"),
		dynlib.Func(&a.cuModuleGetFunction, "cuModuleGetFunction"),
		dynlib.Func(&a.cuFuncSetAttribute, "cuFuncSetAttribute"),
		dynlib.Func(&a.cuFuncGetAttribute, "cuFuncGetAttribute"),
		dynlib.Func(&a.cuMemAlloc, "cuMemAlloc_v2"),
		dynlib.Func(&a.cuMemFree, "cuMemFree_v2"),
		dynlib.Func(&a.cuMemAllocHost, "cuMemAllocHost_v2"),
		dynlib.Func(&a.cuMemFreeHost, "cuMemFreeHost"),
		dynlib.Func(&a.cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
		dynlib.Func(&a.cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
		dynlib.Func(&a.cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
		dynlib.Func(&a.cuMemsetD32, "cuMemsetD32_v2"),
		dynlib.Func(&a.cuMemGetInfo, "cuMemGetInfo_v2"),
		dynlib.Func(&a.cuLaunchKernel, "cuLaunchKernel"),
		dynlib.Func(&a.cuStreamCreate, "cuStreamCreate"),
		dynlib.Func(&a.cuStreamDestroy, "cuStreamDestroy_v2"),
		dynlib.Func(&a.cuStreamSynchronize, "cuStreamSynchronize"),
		dynlib.Func(&a.cuStreamWaitEvent, "cuStreamWaitEvent"),
		dynlib.Func(&a.cuMemsetD32Async, "cuMemsetD32Async"),
		dynlib.Func(&a.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
		dynlib.Func(&a.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
		dynlib.Func(&a.cuEventCreate, "cuEventCreate"),
		dynlib.Func(&a.cuEventDestroy, "cuEventDestroy_v2"),
		dynlib.Func(&a.cuEventRecord, "cuEventRecord"),
		dynlib.Func(&a.cuEventSynchronize, "cuEventSynchronize"),
		dynlib.Func(&a.cuEventElapsedTime, "cuEventElapsedTime_v2"),
		dynlib.Func(&a.cuMemcpyPeerAsync, "cuMemcpyPeerAsync"),
		dynlib.Func(&a.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess"),
	); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	if err := a.check("cuInit", a.cuInit(0)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	return a, nil
}

// cString reads a NUL-terminated C string.
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	var b []byte
	for q := unsafe.Pointer(p); *(*byte)(q) != 0; q = unsafe.Add(q, 1) {
		b = append(b, *(*byte)(q))
	}
	return string(b)
}

// loadNVRTC opens NVRTC and binds its functions, once; the error (also
// on every later call) wraps ErrNoDriver.
func (a *API) loadNVRTC() error {
	a.nvrtcOnce.Do(func() {
		a.nvrtcErr = a.bindNVRTC()
	})
	return a.nvrtcErr
}

func (a *API) bindNVRTC() error {
	nv, err := dynlib.Open(a.NVRTCPath)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	// A missing symbol (an NVRTC too old, or another library) is an error
	// naming it; the library is closed again.
	if err := nv.Bind(
		dynlib.Func(&a.nvrtcVersion, "nvrtcVersion"),
		dynlib.Func(&a.nvrtcGetErrorString, "nvrtcGetErrorString"),
		dynlib.Func(&a.nvrtcCreateProgram, "nvrtcCreateProgram"),
		dynlib.Func(&a.nvrtcDestroyProgram, "nvrtcDestroyProgram"),
		dynlib.Func(&a.nvrtcCompileProgram, "nvrtcCompileProgram"),
		dynlib.Func(&a.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"),
		dynlib.Func(&a.nvrtcGetProgramLog, "nvrtcGetProgramLog"),
		dynlib.Func(&a.nvrtcGetCUBINSize, "nvrtcGetCUBINSize"),
		dynlib.Func(&a.nvrtcGetCUBIN, "nvrtcGetCUBIN"),
	); err != nil {
		_ = nv.Close()
		return fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	return nil
}
