package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apsp/apsp/internal/cuda"
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
	notCUDA := ""
	for _, p := range []string{"/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6", "/lib64/libm.so.6", "/usr/lib64/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6"} {
		if _, err := os.Stat(p); err == nil {
			notCUDA = p
			break
		}
	}
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
