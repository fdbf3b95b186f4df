package gpu

import (
	"github.com/apsp/apsp/internal/cuda"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// kernel is one function of a module for loadKernels: its extern "C"
// name, where the function goes, and the dynamic shared memory it is
// allowed per block (0: the default).
type kernel struct {
	fn     **cuda.Function
	name   string
	shared int
}

// loadKernels is how every kernel source of the package is loaded, inside
// a gpurt.Cached build: src is compiled by NVRTC with opts for the
// device's architecture, or its cubin is taken from the disk cache
// (cuda.API.Compile: keyed by the source, architecture, driver, NVRTC and
// opts); file names it in NVRTC's messages. The module is loaded for the
// life of the runtime (gpurt.Call.LoadModule) and each kernel is looked
// up, in order, and allowed its shared memory. compiled reports that NVRTC
// ran. Errors are the driver's and NVRTC's own, as they come.
func loadKernels(call *gpurt.Call, src, file string, opts []string, ks ...kernel) (compiled bool, err error) {
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
		f, err := mod.Function(k.name)
		if err != nil {
			return false, err
		}
		if k.shared > 0 {
			if err := f.SetMaxDynamicShared(k.shared); err != nil {
				return false, err
			}
		}
		*k.fn = f
	}
	return !cached, nil
}
