package apsp

import (
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/plan"
)

// DeviceInfo describes a GPU.
type DeviceInfo struct {
	Ordinal int    `json:"ordinal"`
	Name    string `json:"name"`
	// Memory is the device memory in bytes.
	Memory uint64 `json:"memory_bytes"`
	// Capability is the compute capability, e.g. "9.0".
	Capability string `json:"compute_capability"`
	SMs        int    `json:"sms"`
	ClockKHz   int    `json:"clock_khz"`
}

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

// Device is a parsed Options.Device.
type Device struct {
	Kind    string // "auto", "cpu" or "gpu"
	Ordinal int    // the GPU number of "gpu:N" (0 for "gpu")
}

// ParseDevice reads an Options.Device string: "", "auto", "cpu", "gpu" or
// "gpu:N". Errors wrap ErrInvalidOptions.
func ParseDevice(s string) (Device, error) {
	d, err := plan.ParseDevice(s)
	return Device(d), err
}
