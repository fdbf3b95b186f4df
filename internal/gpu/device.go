package gpu

import (
	"context"
	"errors"
	"time"

	"github.com/apsp/apsp/internal/cuda"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// ErrNoGPU is matched by every error that means no usable GPU: no driver,
// no GPU, a GPU number out of range (see gpu/runtime).
var ErrNoGPU = gpurt.ErrNoGPU

// DeviceInfo describes a GPU.
type DeviceInfo = cuda.Info

// Devices lists the GPUs (read once per process by the runtime), or says
// why there are none (matching ErrNoGPU).
func Devices() ([]DeviceInfo, error) { return gpurt.Default().Devices() }

// LoadedDevices lists the GPUs if the driver is already loaded, without
// loading it; false if it is not (or found none).
func LoadedDevices() ([]DeviceInfo, bool) { return gpurt.Default().LoadedDevices() }

// Check says whether GPU ordinal exists (matching ErrNoGPU if not),
// without opening it.
func Check(ordinal int) error { return gpurt.Default().Check(ordinal) }

// Close releases the process's GPUs: contexts, modules and pooled memory.
// Later calls open them again.
func Close() error { return gpurt.Default().Close() }

// Totals returns what the calls on GPU ordinal measured with CUDA events
// since it was opened, and false when it is not open.
func Totals(ordinal int) (gpurt.Timing, bool) {
	if gpurt.Default().Check(ordinal) != nil {
		return gpurt.Timing{}, false
	}
	d, err := gpurt.Default().Device(ordinal)
	if err != nil {
		return gpurt.Timing{}, false
	}
	return d.Timing(), true
}

// SetupTimes returns how long loading the driver took and how long opening
// GPU ordinal (context, stream, events) took, 0 for what has not happened.
func SetupTimes(ordinal int) (load, open time.Duration) {
	rt := gpurt.Default()
	load = rt.LoadTime()
	if rt.Check(ordinal) == nil {
		if d, err := rt.Device(ordinal); err == nil {
			open = d.OpenTime
		}
	}
	return load, open
}

// Opened counts the GPUs the process's runtime has opened (re-opens after
// Close included): 0 means the next call pays the set-up.
func Opened() int { return gpurt.Default().Opened() }

// Do runs f on GPU ordinal; if the runtime was closed between finding the
// GPU and running f, it runs f once more on the re-opened GPU. An error that
// leaves the context unusable closes the GPU, so that the next call opens
// it afresh.
func Do(ctx context.Context, ordinal int, f func(*gpurt.Call) error) (*gpurt.Device, error) {
	for try := 0; ; try++ {
		d, err := gpurt.Default().Device(ordinal)
		if err != nil {
			return nil, err
		}
		err = d.Do(ctx, f)
		if errors.Is(err, cuda.ErrClosed) && try == 0 {
			continue
		}
		if cuda.Sticky(err) {
			_ = gpurt.Default().Forget(ordinal)
		}
		return d, err
	}
}

// ErrDoesNotFit is wrapped when the matrix exceeds device memory.
var ErrDoesNotFit = errors.New("distance matrix does not fit in GPU memory")
