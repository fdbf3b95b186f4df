package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/gputest"
)

// TestLoadWithoutDriver: a missing driver, a file that is not one, a
// library without the driver's symbols and a missing NVRTC are errors
// wrapping ErrNoDriver that say which.
func TestLoadWithoutDriver(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "libcuda.so.1")
	notELF := filepath.Join(dir, "libnot.so.1")
	if err := os.WriteFile(notELF, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, cuda, nvrtc, want string }{
		{"missing driver", gone, "", "APSP_LIBCUDA=" + gone},
		{"not a library", notELF, notELF, "dlopen " + notELF},
		{"not the driver", gputest.NotALibrary(), notELF, "cuInit"},
		{"missing NVRTC", notELF, filepath.Join(dir, "libnvrtc.so.13"), "NVRTC (the CUDA runtime compiler) is missing: APSP_LIBNVRTC="},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cuda == "" {
				t.Skip("no libm.so.6 to stand in for a library that is not the driver")
			}
			t.Setenv("APSP_LIBCUDA", tt.cuda)
			t.Setenv("APSP_LIBNVRTC", tt.nvrtc)
			a, err := Load()
			if a != nil || !errors.Is(err, ErrNoDriver) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load() = %v, %v; want ErrNoDriver mentioning %q", a, err, tt.want)
			}
		})
	}
}

func TestErrorNames(t *testing.T) {
	var a *API // no driver: names come from the table
	err := a.check("cuMemAlloc", 2)
	var ce *Error
	if !errors.As(err, &ce) || ce.Name != "CUDA_ERROR_OUT_OF_MEMORY" || !strings.Contains(err.Error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)") {
		t.Fatalf("got %v", err)
	}
	if a.check("x", 0) != nil {
		t.Fatal("success must not be an error")
	}
	if !Sticky(fmt.Errorf("run: %w", &Error{Code: 700})) || Sticky(err) || Sticky(errors.New("x")) {
		t.Fatal("Sticky: an illegal address is sticky, out of memory and other errors are not")
	}
	if ResultName(12345) != "CUDA_ERROR_12345" {
		t.Fatalf("unknown code named %q", ResultName(12345))
	}
	ne := &NVRTCError{Call: "nvrtcCompileProgram fw.cu", Code: 6, Log: "fw.cu(3): error: expected a \";\""}
	if !strings.Contains(ne.Error(), "NVRTC_ERROR_COMPILATION") || !strings.Contains(ne.Error(), "expected a") {
		t.Fatalf("compile error does not carry the log: %v", ne)
	}
}

func TestCacheKey(t *testing.T) {
	base := CacheKey("src", "sm_90", 13000, "13.0", []string{"-DTILE=64"})
	if base != CacheKey("src", "sm_90", 13000, "13.0", []string{"-DTILE=64"}) {
		t.Fatal("the key is not stable")
	}
	for _, other := range []string{
		CacheKey("src2", "sm_90", 13000, "13.0", []string{"-DTILE=64"}),
		CacheKey("src", "sm_80", 13000, "13.0", []string{"-DTILE=64"}),
		CacheKey("src", "sm_90", 12080, "13.0", []string{"-DTILE=64"}),
		CacheKey("src", "sm_90", 13000, "12.8", []string{"-DTILE=64"}),
		CacheKey("src", "sm_90", 13000, "13.0", []string{"-DTILE=128"}),
	} {
		if other == base {
			t.Fatal("a different source, architecture, driver, NVRTC or option gave the same key")
		}
	}
	t.Setenv("APSP_CACHE_DIR", "/tmp/x")
	if d, err := CacheDir(); err != nil || d != "/tmp/x" {
		t.Fatalf("CacheDir = %q, %v", d, err)
	}
}

// TestLoadNVRTCLazily: NVRTC is opened at the first compile, and a file
// that is not NVRTC, or none, gives ErrNoDriver there, the same on every
// later call; the cache names NVRTC by its file without opening it.
func TestLoadNVRTCLazily(t *testing.T) {
	notNVRTC := gputest.NotALibrary()
	for _, tt := range []struct{ name, path, want string }{
		{"missing file", filepath.Join(t.TempDir(), "libnvrtc.so.13"), "dlopen"},
		{"not NVRTC", notNVRTC, "nvrtc"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.path == "" {
				t.Skip("no libm.so.6 to stand in for a library that is not NVRTC")
			}
			a := &API{NVRTCPath: tt.path}
			for range 2 {
				_, err := a.compile("", "x.cu", "sm_90", nil)
				if !errors.Is(err, ErrNoDriver) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("compile: %v, want ErrNoDriver mentioning %q", err, tt.want)
				}
			}
			if _, err := a.NVRTCVersion(); !errors.Is(err, ErrNoDriver) {
				t.Fatalf("NVRTCVersion: %v, want ErrNoDriver", err)
			}
		})
	}
	// The cache's name of NVRTC changes with the file, without opening it.
	dir := t.TempDir()
	lib := filepath.Join(dir, "libnvrtc.so.13")
	if err := os.WriteFile(lib, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &API{NVRTCPath: lib}
	first := a.nvrtcID()
	if err := os.WriteFile(lib, []byte("another"), 0o644); err != nil {
		t.Fatal(err)
	}
	if second := a.nvrtcID(); second == first || !strings.Contains(second, "libnvrtc.so.13") {
		t.Fatalf("nvrtcID %q after the file changed, %q before", second, first)
	}
}
