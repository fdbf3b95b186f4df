package apsp

import (
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/plan"
)

// Devices lists the GPUs this machine offers, or says why there are none;
// the error then wraps ErrNoGPU.
func Devices() ([]DeviceInfo, error) {
	infos, err := engine.Devices()
	if err != nil {
		return nil, err
	}
	out := make([]DeviceInfo, len(infos))
	for i, in := range infos {
		out[i] = DeviceInfo{Ordinal: in.Ordinal, Name: in.Name, Memory: in.Memory, Capability: in.Capability, SMs: in.SMs, ClockKHz: in.ClockKHz}
	}
	return out, nil
}

// WarmUp opens the GPUs that opt.Device names ("gpu", "gpu:N", a list or
// "gpu:all"), one after another: it loads the driver and creates each
// context, most of the start-up that the first computation on a GPU pays
// otherwise (the kernels still load on first use; docs/perf.md, "The GPU
// runtime: repeated calls"). A program can call it in a goroutine while it
// reads its graph, as apsp stats does; a computation that starts meanwhile
// waits for the opening under the runtime's lock, and tries again itself if
// the opening failed. With a list or "gpu:all" every GPU named is opened,
// also those a small graph would leave idle. It does nothing for "cpu",
// "auto" and "" (which may not use a GPU), and its error is the opening's.
func WarmUp(opt Options) error {
	d, err := ParseDevice(opt.Device) // the device alone: WarmUp checks nothing else
	if err != nil || d.Kind != "gpu" {
		return err
	}
	ords := d.Ordinals
	if len(ords) == 0 {
		ords = []int{d.Ordinal}
	}
	return engine.OpenGPUs(ords, d.All)
}

// Device is a parsed Options.Device.
type Device struct {
	Kind    string // "auto", "cpu" or "gpu"
	Ordinal int    // the GPU number of "gpu:N", the first of a list (0 for "gpu" and "gpu:all")
	// Ordinals is the list of "gpu:0,1": two or more distinct GPU numbers
	// in the order given; nil for every other form.
	Ordinals []int
	// All is "gpu:all": every GPU the driver sees, resolved when an
	// engine runs.
	All bool
	// Numbered says the GPUs were named by number ("gpu:N" or a list).
	Numbered bool
}

// Multi says whether d may name several GPUs (a list, or gpu:all).
// gpu-bitbfs and gpu-sssp split their sources over them, gpu-multi and
// gpu-single the rows of one matrix; gpu-minplus refuses several GPUs.
func (d Device) Multi() bool { return d.All || len(d.Ordinals) > 1 }

// ParseDevice reads an Options.Device string: "", "auto", "cpu", "gpu",
// "gpu:N", "gpu:all" or a list such as "gpu:0,1" (each GPU once). Errors
// wrap ErrInvalidOptions; a GPU that does not exist is found when the
// computation starts (ErrNoGPU).
func ParseDevice(s string) (Device, error) {
	d, err := plan.ParseDevice(s)
	return Device(d), err
}
