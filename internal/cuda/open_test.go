package cuda

import (
	"os"
	"testing"
	"time"

	"github.com/apsp/apsp/internal/dynlib"
)

// TestOpenSteps times the steps of a GPU's start in a fresh process
// (APSP_OPEN_STEPS=1; run the binary once per measurement): NVRTC's
// dlopen (which a process pays only at its first compile), then Load
// (libcuda, cuInit), the context, and a context's destruction. It is a measurement, not a check: it fails only when a step
// fails.
func TestOpenSteps(t *testing.T) {
	if os.Getenv("APSP_OPEN_STEPS") == "" {
		t.Skip("APSP_OPEN_STEPS=1 times a GPU's start")
	}
	nvrtc, err := nvrtcLib.Find()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if _, err := dynlib.Open(nvrtc); err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	a, err := Load() // libcuda's dlopen and cuInit
	if err != nil {
		t.Fatal(err)
	}
	t2 := time.Now()
	d, err := a.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	t3 := time.Now()
	if err := d.Do(func() error {
		p, err := d.Alloc(1 << 20)
		if err != nil {
			return err
		}
		return d.Free(p)
	}); err != nil {
		t.Fatal(err)
	}
	t4 := time.Now()
	d.Close()
	t5 := time.Now()
	t.Logf("open steps: nvrtc dlopen %v, libcuda dlopen + cuInit %v, context %v, first alloc and free %v, close %v",
		t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4))
}
