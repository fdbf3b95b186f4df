package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// ErrNoDriver is wrapped by errors that mean no usable CUDA driver.
var ErrNoDriver = errors.New("no usable CUDA driver")

// Search paths for the libraries; the environment variables APSP_LIBCUDA
// and APSP_LIBNVRTC name a file directly.
var (
	cudaNames  = []string{"libcuda.so.1", "libcuda.so"}
	cudaDirs   = []string{"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/cuda/lib64", "/usr/lib/wsl/lib"}
	nvrtcNames = []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}
	nvrtcDirs  = []string{"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib64"}
)

// FindLibrary returns the first existing file among names in dirs, after
// the file named by the environment variable env, if set.
func FindLibrary(env string, names, dirs []string) (string, error) {
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", env, p, err)
		}
		return p, nil
	}
	for _, n := range names {
		for _, d := range dirs {
			p := filepath.Join(d, n)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s not found in %s (set %s)", names[0], strings.Join(dirs, ", "), env)
}

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
	// in the disk cache a process never needs it, and its dlopen took
	// 8–11 ms of a GPU's start on the H100 machines (docs/perf.md).
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
// finds NVRTC, which the first compile opens (loadNVRTC). The error wraps ErrNoDriver when the machine has no usable GPU.
func Load() (api *API, err error) {
	cudaPath, err := FindLibrary("APSP_LIBCUDA", cudaNames, cudaDirs)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	nvrtcPath, err := FindLibrary("APSP_LIBNVRTC", nvrtcNames, nvrtcDirs)
	if err != nil {
		return nil, fmt.Errorf("%w: NVRTC (the CUDA runtime compiler) is missing: %v", ErrNoDriver, err)
	}
	cu, err := purego.Dlopen(cudaPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("%w: dlopen %s: %v", ErrNoDriver, cudaPath, err)
	}
	a := &API{CudaPath: cudaPath, NVRTCPath: nvrtcPath}
	// RegisterLibFunc panics on a missing symbol; turn that into an error
	// naming it (an old driver, say).
	defer func() {
		if r := recover(); r != nil {
			api, err = nil, fmt.Errorf("%w: %v", ErrNoDriver, r)
		}
	}()
	bind := func(lib uintptr, fp any, name string) { purego.RegisterLibFunc(fp, lib, name) }
	bind(cu, &a.cuInit, "cuInit")
	bind(cu, &a.cuDriverGetVersion, "cuDriverGetVersion")
	bind(cu, &a.cuGetErrorName, "cuGetErrorName")
	bind(cu, &a.cuDeviceGetCount, "cuDeviceGetCount")
	bind(cu, &a.cuDeviceGet, "cuDeviceGet")
	bind(cu, &a.cuDeviceGetName, "cuDeviceGetName")
	bind(cu, &a.cuDeviceGetAttribute, "cuDeviceGetAttribute")
	bind(cu, &a.cuDeviceGetUUID, "cuDeviceGetUuid_v2")
	bind(cu, &a.cuDeviceTotalMem, "cuDeviceTotalMem_v2")
	bind(cu, &a.cuPrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
	bind(cu, &a.cuPrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
	bind(cu, &a.cuPrimaryCtxReset, "cuDevicePrimaryCtxReset_v2")
	bind(cu, &a.cuCtxSetCurrent, "cuCtxSetCurrent")
	bind(cu, &a.cuCtxSynchronize, "cuCtxSynchronize")
	bind(cu, &a.cuModuleLoadData, "cuModuleLoadData")
	bind(cu, &a.cuModuleUnload, "cuModuleUnload")
	bind(cu, &a.cuModuleGetFunction, "cuModuleGetFunction")
	bind(cu, &a.cuFuncSetAttribute, "cuFuncSetAttribute")
	bind(cu, &a.cuFuncGetAttribute, "cuFuncGetAttribute")
	bind(cu, &a.cuMemAlloc, "cuMemAlloc_v2")
	bind(cu, &a.cuMemFree, "cuMemFree_v2")
	bind(cu, &a.cuMemAllocHost, "cuMemAllocHost_v2")
	bind(cu, &a.cuMemFreeHost, "cuMemFreeHost")
	bind(cu, &a.cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	bind(cu, &a.cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	bind(cu, &a.cuMemcpyDtoD, "cuMemcpyDtoD_v2")
	bind(cu, &a.cuMemsetD32, "cuMemsetD32_v2")
	bind(cu, &a.cuMemGetInfo, "cuMemGetInfo_v2")
	bind(cu, &a.cuLaunchKernel, "cuLaunchKernel")
	bind(cu, &a.cuStreamCreate, "cuStreamCreate")
	bind(cu, &a.cuStreamDestroy, "cuStreamDestroy_v2")
	bind(cu, &a.cuStreamSynchronize, "cuStreamSynchronize")
	bind(cu, &a.cuStreamWaitEvent, "cuStreamWaitEvent")
	bind(cu, &a.cuMemsetD32Async, "cuMemsetD32Async")
	bind(cu, &a.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")
	bind(cu, &a.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")
	bind(cu, &a.cuEventCreate, "cuEventCreate")
	bind(cu, &a.cuEventDestroy, "cuEventDestroy_v2")
	bind(cu, &a.cuEventRecord, "cuEventRecord")
	bind(cu, &a.cuEventSynchronize, "cuEventSynchronize")
	bind(cu, &a.cuEventElapsedTime, "cuEventElapsedTime_v2")
	bind(cu, &a.cuMemcpyPeerAsync, "cuMemcpyPeerAsync")
	bind(cu, &a.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess")
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

func (a *API) bindNVRTC() (err error) {
	nv, err := purego.Dlopen(a.NVRTCPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return fmt.Errorf("%w: dlopen %s: %v", ErrNoDriver, a.NVRTCPath, err)
	}
	// RegisterLibFunc panics on a missing symbol; turn that into an error
	// naming it (an NVRTC too old, say).
	defer func() {
		if r := recover(); r != nil {
			_ = purego.Dlclose(nv)
			err = fmt.Errorf("%w: %v", ErrNoDriver, r)
		}
	}()
	bind := func(lib uintptr, fp any, name string) { purego.RegisterLibFunc(fp, lib, name) }
	bind(nv, &a.nvrtcVersion, "nvrtcVersion")
	bind(nv, &a.nvrtcGetErrorString, "nvrtcGetErrorString")
	bind(nv, &a.nvrtcCreateProgram, "nvrtcCreateProgram")
	bind(nv, &a.nvrtcDestroyProgram, "nvrtcDestroyProgram")
	bind(nv, &a.nvrtcCompileProgram, "nvrtcCompileProgram")
	bind(nv, &a.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize")
	bind(nv, &a.nvrtcGetProgramLog, "nvrtcGetProgramLog")
	bind(nv, &a.nvrtcGetCUBINSize, "nvrtcGetCUBINSize")
	bind(nv, &a.nvrtcGetCUBIN, "nvrtcGetCUBIN")
	return nil
}
