package gpu

import (
	"github.com/apsp/apsp/internal/cuda"
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

// LoadKernels is how every family loads its kernel source, inside
// a gpurt.Cached build: src is compiled by NVRTC with opts for the
// device's architecture, or its cubin is taken from the disk cache
// (cuda.API.Compile: keyed by the source, architecture, driver, NVRTC and
// opts); file names it in NVRTC's messages. The module is loaded for the
// life of the runtime (gpurt.Call.LoadModule) and each kernel is looked
// up, in order, and allowed its shared memory. compiled reports that NVRTC
// ran. Errors are the driver's and NVRTC's own, as they come.
func LoadKernels(call *gpurt.Call, src, file string, opts []string, ks ...Entry) (compiled bool, err error) {
	dev := call.Dev()
	cubin, cached, err := dev.API.Compile(src, file, dev.Info.Arch(), opts)
	if err != nil {
		return false, err
	}
	mod, err := call.LoadModule(cubin)
	if err != nil {
		return false, err
	}
	for _, k := range ks {
		f, err := mod.Function(k.Name)
		if err != nil {
			return false, err
		}
		if k.Shared > 0 {
			if err := f.SetMaxDynamicShared(k.Shared); err != nil {
				return false, err
			}
		}
		*k.Fn = f
	}
	return !cached, nil
}
