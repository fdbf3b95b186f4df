package gpu

import (
	"fmt"

	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu/prebuilt"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// Entry is one function of a module for LoadKernels: its extern "C"
// name, where the function goes, and the dynamic shared memory it is
// allowed per block (0: the default).
type Entry struct {
	Fn     **cuda.Function
	Name   string
	Shared int
}

// LoadKernels is how every family loads its kernels, inside a
// gpurt.Cached build: the source of file (Source) with opts, for the
// device's architecture, is taken from the kernels built ahead of time
// (package prebuilt) when they hold it and the driver loads it; else
// compiled by NVRTC, or its cubin taken from the disk cache
// (cuda.API.Compile: keyed by the source, architecture, driver, NVRTC and
// opts); file names it in NVRTC's messages. The module is loaded for the
// life of the runtime (gpurt.Call.LoadModule) and each kernel is looked
// up, in order, and allowed its shared memory. compiled reports that NVRTC
// ran. Errors are the driver's and NVRTC's own, as they come.
func LoadKernels(call *gpurt.Call, file string, opts []string, ks ...Entry) (compiled bool, err error) {
	src, ok := Source(file)
	if !ok {
		return false, fmt.Errorf("gpu: no kernel source %q", file)
	}
	return loadSource(call, src, file, opts, ks...)
}

// loadSource is LoadKernels of a source given whole (tests give their own).
func loadSource(call *gpurt.Call, src, file string, opts []string, ks ...Entry) (compiled bool, err error) {
	dev := call.Dev()
	arch := dev.Info.Arch()
	if cubin := prebuilt.Lookup(src, arch, opts); cubin != nil {
		// A driver older than the NVRTC that built it refuses the cubin:
		// NVRTC then compiles for this one, as with no prebuilt kernels.
		if mod, err := call.LoadModule(cubin); err == nil {
			return false, lookUp(mod, ks)
		}
	}
	cubin, cached, err := dev.API.Compile(src, file, arch, opts)
	if err != nil {
		return false, err
	}
	prebuilt.Record(src, file, arch, opts, cubin)
	mod, err := call.LoadModule(cubin)
	if err != nil {
		return false, err
	}
	return !cached, lookUp(mod, ks)
}

// lookUp finds each kernel of ks in mod and allows it its shared memory.
func lookUp(mod *cuda.Module, ks []Entry) error {
	for _, k := range ks {
		f, err := mod.Function(k.Name)
		if err != nil {
			return err
		}
		if k.Shared > 0 {
			if err := f.SetMaxDynamicShared(k.Shared); err != nil {
				return err
			}
		}
		*k.Fn = f
	}
	return nil
}
