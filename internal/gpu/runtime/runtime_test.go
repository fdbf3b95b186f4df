package runtime

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gputest"
)

// counting returns a loader that fails or lists infos, and the number of
// times it ran.
func counting(infos []cuda.Info, err error) (Loader, *atomic.Int32) {
	var n atomic.Int32
	return func() (*cuda.API, []cuda.Info, error) {
		n.Add(1)
		if err != nil {
			return nil, nil, err
		}
		return &cuda.API{}, infos, nil
	}, &n
}

func TestNoDriverIsRemembered(t *testing.T) {
	cause := fmt.Errorf("%w: libcuda.so.1 not found", cuda.ErrNoDriver)
	l, calls := counting(nil, cause)
	r := New(l)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.Devices(); !errors.Is(err, ErrNoGPU) || !errors.Is(err, cuda.ErrNoDriver) {
				t.Errorf("Devices: %v", err)
			}
		}()
	}
	wg.Wait()
	if _, err := r.Device(0); !errors.Is(err, ErrNoGPU) {
		t.Fatalf("Device: %v", err)
	}
	if err := r.Check(0); !errors.Is(err, ErrNoGPU) {
		t.Fatalf("Check: %v", err)
	}
	if calls.Load() != 1 {
		t.Fatalf("the loader ran %d times, want once", calls.Load())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r.Devices()
	if calls.Load() != 2 {
		t.Fatalf("after Close the loader ran %d times in all, want 2", calls.Load())
	}
	_, err := r.Devices()
	if err.Error() != cause.Error() {
		t.Fatalf("the message %q repeats or loses the cause %q", err, cause)
	}
}

func TestNoDeviceAndOutOfRange(t *testing.T) {
	l, _ := counting(nil, nil)
	r := New(l)
	if _, err := r.Devices(); !errors.Is(err, ErrNoGPU) {
		t.Fatalf("a driver that sees no GPU: %v", err)
	}
	if _, err := r.Device(0); !errors.Is(err, ErrNoGPU) {
		t.Fatalf("Device(0) with no GPU: %v", err)
	}
	one := []cuda.Info{{Ordinal: 0, Name: "Fake GPU", Major: 9}}
	if err := r.SetLoader(func() (*cuda.API, []cuda.Info, error) { return &cuda.API{}, one, nil }); err != nil {
		t.Fatal(err)
	}
	infos, err := r.Devices()
	if err != nil || len(infos) != 1 || infos[0].Name != "Fake GPU" {
		t.Fatalf("Devices: %v, %v", infos, err)
	}
	if err := r.Check(0); err != nil {
		t.Fatal(err)
	}
	for _, o := range []int{1, 3, -1} {
		if err := r.Check(o); !errors.Is(err, ErrNoGPU) {
			t.Fatalf("Check(%d): %v", o, err)
		}
		if _, err := r.Device(o); !errors.Is(err, ErrNoGPU) {
			t.Fatalf("Device(%d): %v", o, err)
		}
	}
	if r.Opened() != 0 {
		t.Fatal("a device was opened")
	}
	if err := r.Forget(0); err != nil { // nothing open: nothing to do
		t.Fatal(err)
	}
}

// TestCUDALoaderWithoutGPU loads through the real loader with APSP_LIBCUDA
// naming a missing file and a library that is not CUDA.
func TestCUDALoaderWithoutGPU(t *testing.T) {
	dir := t.TempDir()
	notCUDA := gputest.NotALibrary()
	for _, tt := range []struct{ name, cuda, nvrtc string }{
		{"missing", filepath.Join(dir, "libcuda.so.1"), ""},
		{"not CUDA", notCUDA, notCUDA},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cuda == "" {
				t.Skip("no libm.so.6 found to stand in for a library that is not CUDA")
			}
			t.Setenv("APSP_LIBCUDA", tt.cuda)
			if tt.nvrtc != "" {
				t.Setenv("APSP_LIBNVRTC", tt.nvrtc)
			}
			r := New(nil)
			defer r.Close()
			_, err := r.Devices()
			if !errors.Is(err, ErrNoGPU) || !errors.Is(err, cuda.ErrNoDriver) {
				t.Fatalf("want ErrNoGPU and cuda.ErrNoDriver, got %v", err)
			}
		})
	}
}

// TestCachedNoDriver: a module whose build fails for want of a usable
// driver library (NVRTC, opened at the first compile) fails with an error
// matching ErrNoGPU and keeping its cause; other errors pass unchanged,
// and nothing is cached either way.
func TestCachedNoDriver(t *testing.T) {
	c := &Call{d: &Device{mods: map[any]any{}}}
	other := errors.New("nvrtcCompileProgram: a syntax error")
	for _, tt := range []struct {
		name   string
		err    error
		wantNo bool
	}{
		{"NVRTC unusable", fmt.Errorf("%w: dlopen libnvrtc.so.13: not found", cuda.ErrNoDriver), true},
		{"compile error", other, false},
	} {
		_, err := Cached(c, tt.name, func() (int, error) { return 0, tt.err })
		if errors.Is(err, ErrNoGPU) != tt.wantNo || !errors.Is(err, tt.err) {
			t.Errorf("%s: %v (ErrNoGPU %v, want %v)", tt.name, err, errors.Is(err, ErrNoGPU), tt.wantNo)
		}
		if _, ok := c.d.mods[tt.name]; ok {
			t.Errorf("%s: a failed build was cached", tt.name)
		}
	}
}

// fakeOpens is a runtime over a driver that sees two GPUs, whose openings
// take a while and are counted; no GPU is touched.
func fakeOpens(t *testing.T, delay time.Duration, fail func(ordinal int) error) (r *Runtime, opens, discards *atomic.Int32) {
	t.Helper()
	opens, discards = new(atomic.Int32), new(atomic.Int32)
	r = New(func() (*cuda.API, []cuda.Info, error) {
		return &cuda.API{}, []cuda.Info{{Name: "fake 0"}, {Name: "fake 1"}}, nil
	})
	r.open = func(_ *cuda.API, ordinal int) (*Device, error) {
		opens.Add(1)
		time.Sleep(delay)
		if err := fail(ordinal); err != nil {
			return nil, err
		}
		return &Device{Info: cuda.Info{Name: fmt.Sprintf("fake %d", ordinal)}}, nil
	}
	r.discard = func(*Device) error { discards.Add(1); return nil }
	return r, opens, discards
}

// TestDeviceOpensConcurrently: two GPUs open at once, not one after the
// other; callers asking for a GPU being opened get the same device, opened
// once; a failed opening is retried by the next call.
func TestDeviceOpensConcurrently(t *testing.T) {
	const delay = 200 * time.Millisecond
	var failOnce atomic.Bool
	failOnce.Store(true)
	r, opens, _ := fakeOpens(t, delay, func(ordinal int) error {
		if ordinal == 1 && failOnce.CompareAndSwap(true, false) {
			return errors.New("context creation failed")
		}
		return nil
	})
	start := time.Now()
	var wg sync.WaitGroup
	got := make([]*Device, 8)
	errs := make([]error, 8)
	for i := range got {
		wg.Go(func() { got[i], errs[i] = r.Device(i % 2) })
	}
	wg.Wait()
	if took := time.Since(start); took > delay*3/2 {
		t.Errorf("two GPUs took %v to open; one takes %v: they did not open at once", took, delay)
	}
	for i := range got {
		switch {
		case i%2 == 0 && (errs[i] != nil || got[i] != got[0]):
			t.Errorf("caller %d of GPU 0: %p, %v; want the one device %p", i, got[i], errs[i], got[0])
		case i%2 == 1 && (!errors.Is(errs[i], ErrNoGPU) || got[i] != nil):
			t.Errorf("caller %d of GPU 1 (its opening failed): %p, %v", i, got[i], errs[i])
		}
	}
	if n := opens.Load(); n != 2 {
		t.Errorf("%d openings for 8 callers of two GPUs, want 2", n)
	}
	if d, err := r.Device(1); err != nil || d == nil || opens.Load() != 3 {
		t.Errorf("GPU 1 after its failed opening: %p, %v, %d openings", d, err, opens.Load())
	}
	if r.Opened() != 2 {
		t.Errorf("Opened() = %d, want 2", r.Opened())
	}
}

// TestDeviceClosedWhileOpening: a Close during an opening leaves no device
// behind: the opening closes its device itself and fails with
// cuda.ErrClosed, and the next call opens afresh.
func TestDeviceClosedWhileOpening(t *testing.T) {
	r, opens, discards := fakeOpens(t, 100*time.Millisecond, func(int) error { return nil })
	done := make(chan error, 1)
	go func() {
		_, err := r.Device(0)
		done <- err
	}()
	time.Sleep(30 * time.Millisecond) // the opening is under way
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, cuda.ErrClosed) {
		t.Fatalf("opening during Close: %v, want cuda.ErrClosed", err)
	}
	if discards.Load() != 1 || r.Opened() != 0 {
		t.Fatalf("%d devices closed, %d opened; want 1 and 0", discards.Load(), r.Opened())
	}
	if d, err := r.Device(0); err != nil || d == nil || opens.Load() != 2 {
		t.Fatalf("after Close: %p, %v, %d openings", d, err, opens.Load())
	}
	if err := r.Close(); err != nil || discards.Load() != 2 {
		t.Fatalf("Close: %v, %d devices closed", err, discards.Load())
	}
}

// TestForgetWaitsForTheClose: a GPU asked for while it is being forgotten
// opens afresh only once the old device is closed (its primary context
// reset), never in between; the callers then share the new device.
func TestForgetWaitsForTheClose(t *testing.T) {
	r, opens, _ := fakeOpens(t, 0, func(int) error { return nil })
	old, err := r.Device(0)
	if err != nil {
		t.Fatal(err)
	}
	var closed atomic.Bool
	r.discard = func(*Device) error {
		time.Sleep(100 * time.Millisecond)
		closed.Store(true)
		return nil
	}
	inner := r.open
	r.open = func(api *cuda.API, ordinal int) (*Device, error) {
		if !closed.Load() {
			t.Error("a GPU opened while its forgotten device was still closing")
		}
		return inner(api, ordinal)
	}
	forgot := make(chan error, 1)
	go func() { forgot <- r.Forget(0) }()
	time.Sleep(20 * time.Millisecond) // the close is under way
	got := make([]*Device, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			var err error
			if got[i], err = r.Device(0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := <-forgot; err != nil {
		t.Fatal(err)
	}
	for i, d := range got {
		if d == nil || d == old || d != got[0] {
			t.Errorf("caller %d: %p (old %p, first %p); want one new device", i, d, old, got[0])
		}
	}
	if n := opens.Load(); n != 2 {
		t.Errorf("%d openings, want 2 (the first and one afresh)", n)
	}
}

// TestLoadedDevicesDoesNotLoad: LoadedDevices answers from a driver
// already loaded and never loads one itself.
func TestLoadedDevicesDoesNotLoad(t *testing.T) {
	infos := []cuda.Info{{Ordinal: 0, Name: "fake", MaxShared: 99 << 10}}
	l, calls := counting(infos, nil)
	r := New(l)
	if got, ok := r.LoadedDevices(); ok || got != nil || calls.Load() != 0 {
		t.Fatalf("before any load: %v %v, loader ran %d times", got, ok, calls.Load())
	}
	if _, err := r.Devices(); err != nil {
		t.Fatal(err)
	}
	if got, ok := r.LoadedDevices(); !ok || len(got) != 1 || got[0].MaxShared != 99<<10 || calls.Load() != 1 {
		t.Fatalf("after a load: %v %v, loader ran %d times", got, ok, calls.Load())
	}
	bad, _ := counting(nil, fmt.Errorf("%w: none", cuda.ErrNoDriver))
	r = New(bad)
	r.Devices()
	if got, ok := r.LoadedDevices(); ok || got != nil {
		t.Fatalf("a failed load: %v %v", got, ok)
	}
}
