package gpu

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu/prebuilt"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// TestLoadKernels: loadSource (LoadKernels of a given source) compiles a source with its options once
// (a second load takes the cubin from the disk cache), looks up each
// kernel and allows it its shared memory, and reports a missing kernel or
// too much shared memory by the kernel's name.
func TestLoadKernels(t *testing.T) {
	requireGPU(t)
	cache := t.TempDir()
	t.Setenv("APSP_CACHE_DIR", cache)
	const src = `extern "C" __global__ void lt_set(unsigned *out) { out[threadIdx.x] = VALUE + threadIdx.x; }
extern "C" __global__ void lt_big(unsigned *out) {
	extern __shared__ unsigned s[];
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
`
	opts := []string{"-DVALUE=40"}
	// The function runs on the device's goroutine: it reports with
	// t.Errorf or its error, never t.Fatal.
	_, err := Do(context.Background(), 0, func(c *gpurt.Call) error {
		const n = 32
		out, err := c.Mem(4 * n)
		if err != nil {
			return err
		}
		for i, want := range []bool{true, false} {
			var set, big *cuda.Function
			compiled, err := loadSource(c, src, "load_test.cu", opts,
				Entry{Fn: &set, Name: "lt_set"}, Entry{Fn: &big, Name: "lt_big", Shared: 64 << 10})
			if err != nil {
				return err
			}
			if compiled != want || set == nil || big == nil || set.Name != "lt_set" || big.Name != "lt_big" {
				t.Errorf("load %d: compiled %v (want %v), kernels %v %v", i, compiled, want, set, big)
				continue
			}
			got := make([]uint32, n)
			for _, k := range []struct {
				f      *cuda.Function
				shared uint32
				want   func(i uint32) uint32
			}{{set, 0, func(i uint32) uint32 { return 40 + i }}, {big, 64 << 10, func(i uint32) uint32 { return n - 1 - i }}} {
				if err := k.f.LaunchOn(c.Stream(), [3]uint32{1, 1, 1}, [3]uint32{n, 1, 1}, k.shared, unsafe.Pointer(&out)); err != nil {
					return err
				}
				if err := c.Stream().Synchronize(); err != nil {
					return err
				}
				if err := c.Dev().CopyToHost(unsafe.Pointer(&got[0]), out, 4*n); err != nil {
					return err
				}
				for j, v := range got {
					if v != k.want(uint32(j)) {
						return fmt.Errorf("load %d: %s wrote %d at %d, want %d", i, k.f.Name, v, j, k.want(uint32(j)))
					}
				}
			}
		}
		if cubins, _ := filepath.Glob(filepath.Join(cache, "*.cubin")); len(cubins) != 1 {
			t.Errorf("the cache holds %v, want one cubin", cubins)
		}

		var f, g *cuda.Function
		if _, err := loadSource(c, src, "load_test.cu", opts, Entry{Fn: &f, Name: "lt_set"}, Entry{Fn: &g, Name: "lt_nope"}); err == nil ||
			!strings.Contains(err.Error(), "cuModuleGetFunction lt_nope") || g != nil {
			t.Errorf("a missing kernel: %v", err)
		}
		too := c.Dev().Info.MaxShared + 1
		if _, err := loadSource(c, src, "load_test.cu", opts, Entry{Fn: &g, Name: "lt_big", Shared: too}); err == nil ||
			!strings.Contains(err.Error(), "cuFuncSetAttribute lt_big") || g != nil {
			t.Errorf("%d bytes of shared memory: %v", too, err)
		}
		if _, err := loadSource(c, src+"\nnot C++", "load_test.cu", opts); err == nil || !strings.Contains(err.Error(), "load_test.cu") {
			t.Errorf("a source that does not compile: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPrebuiltMatchSources: every kernel built ahead of time (package
// prebuilt) was built from the kernel source of today, and every kernel
// file has some: a .cu that changed needs its cubins made again on a GPU
// machine (scripts/prebuild-kernels.sh), or a cold start compiles it.
func TestPrebuiltMatchSources(t *testing.T) {
	entries, err := prebuilt.Entries()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]int{}
	for _, e := range entries {
		src, ok := Source(e.File)
		if !ok {
			t.Errorf("prebuilt %s: no kernel file %q", e.Key, e.File)
			continue
		}
		if key := prebuilt.Key(src, e.Arch, e.Opts); key != e.Key {
			t.Errorf("prebuilt %s (%s %s %q) was built from another %s than today's (key %s): run scripts/prebuild-kernels.sh on a GPU machine",
				e.Key, e.File, e.Arch, e.Opts, e.File, key)
			continue
		}
		if prebuilt.Lookup(src, e.Arch, e.Opts) == nil {
			t.Errorf("prebuilt %s (%s %q): listed but its cubin is missing", e.Key, e.File, e.Opts)
		}
		have[e.File]++
	}
	for _, f := range KernelFiles {
		if have[f] == 0 {
			t.Errorf("no prebuilt kernels of %s: a cold start compiles it (run scripts/prebuild-kernels.sh on a GPU machine)", f)
		}
	}
}
