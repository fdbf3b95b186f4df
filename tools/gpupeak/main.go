// gpupeak measures the register-only min-plus ("relaxation") peak of the GPU it runs on:
// int32 through __viaddmin_s32 (one DPX instruction on Hopper), plain int32 add+min,
// packed int16x2 through __viaddmin_s16x2, float32 add+fminf, and the packed int8x4 forms
// apsp's GPU Floyd-Warshall could use (issue 12): a 32-bit add (lanes of at most 63 cannot
// carry) then __vminu4, __vaddus4/__vaddss4 then a byte minimum, or the SWAR minimum of
// 7-bit lanes (minb7, the form internal/gpu/kernels/fw.cu takes), and unsigned int16x2
// through __vaddus2 + __vminu2. It is the shared tools/gpupeak with those probes added.
// It is also a minimal
// example of driving CUDA from Go with no cgo: purego loads libcuda and libnvrtc, NVRTC
// compiles the kernels for the device's own architecture, and the driver API launches them.
//
// Build here (no GPU or CUDA needed):  CGO_ENABLED=0 go build -o bin/gpupeak ./tools/gpupeak
// Run on a GPU machine:                ./gpupeak
// A relaxation is one d = min(d, a + b). Peak figures are the ceiling for Floyd-Warshall.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"
)

var (
	cuInit               func(flags uint32) int32
	cuDeviceGet          func(dev *int32, ordinal int32) int32
	cuDeviceGetName      func(name *byte, n int32, dev int32) int32
	cuDeviceGetAttribute func(v *int32, attrib int32, dev int32) int32
	cuCtxCreate          func(ctx *uintptr, flags uint32, dev int32) int32
	cuModuleLoadData     func(mod *uintptr, image unsafe.Pointer) int32
	cuModuleGetFunction  func(f *uintptr, mod uintptr, name string) int32
	cuMemAlloc           func(p *uint64, size uint64) int32
	cuMemcpyHtoD         func(dst uint64, src unsafe.Pointer, size uint64) int32
	cuMemcpyDtoH         func(dst unsafe.Pointer, src uint64, size uint64) int32
	cuLaunchKernel       func(f uintptr, gx, gy, gz, bx, by, bz, shm uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
	cuCtxSynchronize     func() int32
	cuEventCreate        func(e *uintptr, flags uint32) int32
	cuEventRecord        func(e uintptr, stream uintptr) int32
	cuEventSynchronize   func(e uintptr) int32
	cuEventElapsedTime   func(ms *float32, start, end uintptr) int32

	nvrtcCreateProgram     func(prog *uintptr, src string, name string, n int32, h, i unsafe.Pointer) int32
	nvrtcCompileProgram    func(prog uintptr, n int32, opts unsafe.Pointer) int32
	nvrtcGetProgramLogSize func(prog uintptr, n *uint64) int32
	nvrtcGetProgramLog     func(prog uintptr, log *byte) int32
	nvrtcGetCUBINSize      func(prog uintptr, n *uint64) int32
	nvrtcGetCUBIN          func(prog uintptr, out *byte) int32
)

func must(what string, rc int32) {
	if rc != 0 {
		fmt.Printf("%s failed: %d\n", what, rc)
		os.Exit(1)
	}
}

func findLib(names []string, dirs []string) string {
	for _, d := range dirs {
		for _, n := range names {
			m, _ := filepath.Glob(filepath.Join(d, n))
			if len(m) > 0 {
				return m[len(m)-1]
			}
		}
	}
	return ""
}

const src = `
extern "C" __global__ void peak_dpx(int *out, int iters, int seed) {
  int a0 = threadIdx.x + seed, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  int b = blockIdx.x ^ seed;
  int c0 = 1 << 30, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  for (int i = 0; i < iters; i++) {
    c0 = __viaddmin_s32(a0, b, c0); c1 = __viaddmin_s32(a1, b, c1);
    c2 = __viaddmin_s32(a2, b, c2); c3 = __viaddmin_s32(a3, b, c3);
    c4 = __viaddmin_s32(a0, c3, c4); c5 = __viaddmin_s32(a1, c2, c5);
    c6 = __viaddmin_s32(a2, c1, c6); c7 = __viaddmin_s32(a3, c0, c7);
    b += 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5 ^ c6 ^ c7;
}
extern "C" __global__ void peak_plain(int *out, int iters, int seed) {
  int a0 = threadIdx.x + seed, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  volatile int vb = blockIdx.x ^ seed; int b = vb;
  int c0 = 1 << 30, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  for (int i = 0; i < iters; i++) {
    c0 = min(a0 + b, c0); c1 = min(a1 + b, c1);
    c2 = min(a2 + b, c2); c3 = min(a3 + b, c3);
    c4 = min(a0 + c3, c4); c5 = min(a1 + c2, c5);
    c6 = min(a2 + c1, c6); c7 = min(a3 + c0, c7);
    b += 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5 ^ c6 ^ c7;
}
extern "C" __global__ void peak_dpx16(int *out, int iters, int seed) {
  unsigned a0 = threadIdx.x + seed, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  unsigned b = blockIdx.x ^ seed;
  unsigned c0 = 0x7fff7fff, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  for (int i = 0; i < iters; i++) {
    c0 = __viaddmin_s16x2(a0, b, c0); c1 = __viaddmin_s16x2(a1, b, c1);
    c2 = __viaddmin_s16x2(a2, b, c2); c3 = __viaddmin_s16x2(a3, b, c3);
    c4 = __viaddmin_s16x2(a0, c3, c4); c5 = __viaddmin_s16x2(a1, c2, c5);
    c6 = __viaddmin_s16x2(a2, c1, c6); c7 = __viaddmin_s16x2(a3, c0, c7);
    b += 0x00010001;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5 ^ c6 ^ c7;
}
extern "C" __global__ void peak_f32(float *out, int iters, int seed) {
  float a0 = threadIdx.x + seed, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  float b = blockIdx.x ^ seed;
  float c0 = 1e30f, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  for (int i = 0; i < iters; i++) {
    c0 = fminf(a0 + b, c0); c1 = fminf(a1 + b, c1);
    c2 = fminf(a2 + b, c2); c3 = fminf(a3 + b, c3);
    c4 = fminf(a0 + c3, c4); c5 = fminf(a1 + c2, c5);
    c6 = fminf(a2 + c1, c6); c7 = fminf(a3 + c0, c7);
    b += 1.0f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7;
}
// minb7 is the byte-wise minimum of lanes below 128: (x|0x80) - y has its top
// bit set where x >= y, with no borrow between bytes.
__device__ __forceinline__ unsigned minb7(unsigned x, unsigned y) {
  unsigned d = (x | 0x80808080u) - y;
  unsigned m = d & 0x80808080u;
  m = m - (m >> 7);
  return (y & m) | (x & ~m);
}
#define I8BODY(RELAX) \
  unsigned a0 = (threadIdx.x & 31) * 0x01010101u, a1 = a0 + 0x01010101u, a2 = a0 + 0x02020202u, a3 = a0 + 0x03030303u; \
  unsigned b = ((blockIdx.x ^ seed) & 31) * 0x01010101u; \
  unsigned c0 = 0x3f3f3f3fu, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0; \
  for (int i = 0; i < iters; i++) { \
    c0 = RELAX(a0, b, c0); c1 = RELAX(a1, b, c1); \
    c2 = RELAX(a2, b, c2); c3 = RELAX(a3, b, c3); \
    c4 = RELAX(a0, c3, c4); c5 = RELAX(a1, c2, c5); \
    c6 = RELAX(a2, c1, c6); c7 = RELAX(a3, c0, c7); \
    b = (b + 0x01010101u) & 0x1f1f1f1fu; \
  } \
  out[blockIdx.x * blockDim.x + threadIdx.x] = c0 ^ c1 ^ c2 ^ c3 ^ c4 ^ c5 ^ c6 ^ c7;
#define R_VMINU4(a, b, c) __vminu4((a) + (b), (c))
#define R_VADDUS4(a, b, c) __vminu4(__vaddus4((a), (b)), (c))
#define R_VADDSS4(a, b, c) __vmins4(__vaddss4((a), (b)), (c))
#define R_SWAR(a, b, c) minb7((c), (a) + (b))
extern "C" __global__ void peak_i8_vminu4(unsigned *out, int iters, int seed) { I8BODY(R_VMINU4) }
extern "C" __global__ void peak_i8_vaddus4(unsigned *out, int iters, int seed) { I8BODY(R_VADDUS4) }
extern "C" __global__ void peak_i8_vaddss4(unsigned *out, int iters, int seed) { I8BODY(R_VADDSS4) }
extern "C" __global__ void peak_i8_swar(unsigned *out, int iters, int seed) { I8BODY(R_SWAR) }
#define R_U16(a, b, c) __vminu2(__vaddus2((a), (b)), (c))
extern "C" __global__ void peak_i16_vaddus2(unsigned *out, int iters, int seed) { I8BODY(R_U16) }
`

func main() {
	runtime.LockOSThread()
	cudaPath := findLib([]string{"libcuda.so.1", "libcuda.so"}, []string{"/usr/lib/x86_64-linux-gnu", "/usr/local/nvidia/lib64", "/usr/lib64", "/usr/local/cuda/lib64/stubs"})
	nvrtcPath := findLib([]string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so*"}, []string{"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/x86_64-linux-gnu"})
	fmt.Println("libcuda:", cudaPath, "libnvrtc:", nvrtcPath)
	cu, err := purego.Dlopen(cudaPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		fmt.Println("dlopen cuda:", err)
		os.Exit(1)
	}
	nv, err := purego.Dlopen(nvrtcPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		fmt.Println("dlopen nvrtc:", err)
		os.Exit(1)
	}
	reg := func(lib uintptr, fp any, name string) { purego.RegisterLibFunc(fp, lib, name) }
	reg(cu, &cuInit, "cuInit")
	reg(cu, &cuDeviceGet, "cuDeviceGet")
	reg(cu, &cuDeviceGetName, "cuDeviceGetName")
	reg(cu, &cuDeviceGetAttribute, "cuDeviceGetAttribute")
	reg(cu, &cuCtxCreate, "cuCtxCreate_v2")
	reg(cu, &cuModuleLoadData, "cuModuleLoadData")
	reg(cu, &cuModuleGetFunction, "cuModuleGetFunction")
	reg(cu, &cuMemAlloc, "cuMemAlloc_v2")
	reg(cu, &cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	reg(cu, &cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	reg(cu, &cuLaunchKernel, "cuLaunchKernel")
	reg(cu, &cuCtxSynchronize, "cuCtxSynchronize")
	reg(cu, &cuEventCreate, "cuEventCreate")
	reg(cu, &cuEventRecord, "cuEventRecord")
	reg(cu, &cuEventSynchronize, "cuEventSynchronize")
	reg(cu, &cuEventElapsedTime, "cuEventElapsedTime_v2")
	reg(nv, &nvrtcCreateProgram, "nvrtcCreateProgram")
	reg(nv, &nvrtcCompileProgram, "nvrtcCompileProgram")
	reg(nv, &nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize")
	reg(nv, &nvrtcGetProgramLog, "nvrtcGetProgramLog")
	reg(nv, &nvrtcGetCUBINSize, "nvrtcGetCUBINSize")
	reg(nv, &nvrtcGetCUBIN, "nvrtcGetCUBIN")

	must("cuInit", cuInit(0))
	var dev int32
	must("cuDeviceGet", cuDeviceGet(&dev, 0))
	name := make([]byte, 256)
	cuDeviceGetName(&name[0], 256, dev)
	var sms, major, minor, clk int32
	cuDeviceGetAttribute(&sms, 16, dev)
	cuDeviceGetAttribute(&major, 75, dev)
	cuDeviceGetAttribute(&minor, 76, dev)
	cuDeviceGetAttribute(&clk, 13, dev)
	fmt.Printf("device %s sms=%d cc=%d.%d clock=%d kHz\n", string(name[:clen(name)]), sms, major, minor, clk)
	var ctx uintptr
	if rc := cuCtxCreate(&ctx, 0, dev); rc != 0 {
		fmt.Println("cuCtxCreate_v2 rc", rc)
		os.Exit(1)
	}

	var prog uintptr
	must("nvrtcCreate", nvrtcCreateProgram(&prog, src, "probe.cu", 0, nil, nil))
	arch := fmt.Sprintf("--gpu-architecture=sm_%d%d\x00", major, minor)
	opts := []*byte{&[]byte(arch)[0]}
	rc := nvrtcCompileProgram(prog, int32(len(opts)), unsafe.Pointer(&opts[0]))
	var ls uint64
	nvrtcGetProgramLogSize(prog, &ls)
	if ls > 1 {
		lb := make([]byte, ls)
		nvrtcGetProgramLog(prog, &lb[0])
		fmt.Println("nvrtc log:", string(lb))
	}
	must("nvrtcCompile", rc)
	var cs uint64
	must("cubinsize", nvrtcGetCUBINSize(prog, &cs))
	cubin := make([]byte, cs)
	must("cubin", nvrtcGetCUBIN(prog, &cubin[0]))
	var mod uintptr
	must("moduleLoad", cuModuleLoadData(&mod, unsafe.Pointer(&cubin[0])))

	blocks, threads := uint32(sms*16), uint32(256)
	var out uint64
	must("alloc", cuMemAlloc(&out, uint64(blocks*threads*4)))
	var e0, e1 uintptr
	cuEventCreate(&e0, 0)
	cuEventCreate(&e1, 0)
	for _, k := range []struct {
		name string
		vals int
	}{{"peak_dpx", 1}, {"peak_plain", 1}, {"peak_dpx16", 2}, {"peak_f32", 1},
		{"peak_i8_vminu4", 4}, {"peak_i8_vaddus4", 4}, {"peak_i8_vaddss4", 4}, {"peak_i8_swar", 4}, {"peak_i16_vaddus2", 2}} {
		var f uintptr
		must("getfn "+k.name, cuModuleGetFunction(&f, mod, k.name))
		iters := int32(1 << 16)
		seed := int32(7)
		params := []unsafe.Pointer{unsafe.Pointer(&out), unsafe.Pointer(&iters), unsafe.Pointer(&seed)}
		best := float32(1e9)
		for rep := 0; rep < 5; rep++ {
			cuEventRecord(e0, 0)
			must("launch", cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, unsafe.Pointer(&params[0]), nil))
			cuEventRecord(e1, 0)
			must("sync", cuEventSynchronize(e1))
			var ms float32
			cuEventElapsedTime(&ms, e0, e1)
			if ms < best {
				best = ms
			}
		}
		ops := float64(blocks) * float64(threads) * float64(iters) * 8 * float64(k.vals)
		fmt.Printf("%-11s %.3f ms  %.2f T relax/s\n", k.name, best, ops/float64(best)/1e9)
	}
	res := make([]int32, 4)
	must("dtoh", cuMemcpyDtoH(unsafe.Pointer(&res[0]), out, 16))
	fmt.Println("ok", res[0])
}

func clen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}
