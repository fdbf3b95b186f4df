package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindLibrary(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "libfake.so.2")
	if err := os.WriteFile(lib, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     string
		names   []string
		dirs    []string
		want    string
		wantErr string
	}{
		{"found in dir", "", []string{"libfake.so.1", "libfake.so.2"}, []string{"/nonexistent", dir}, lib, ""},
		{"first name wins", "", []string{"libfake.so.2"}, []string{dir}, lib, ""},
		{"missing", "", []string{"libnope.so"}, []string{dir}, "", "libnope.so not found"},
		{"env names the file", lib, []string{"libnope.so"}, nil, lib, ""},
		{"env names a missing file", filepath.Join(dir, "gone.so"), []string{"libfake.so.2"}, []string{dir}, "", "APSP_TEST_LIB="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("APSP_TEST_LIB", tt.env)
			got, err := FindLibrary("APSP_TEST_LIB", tt.names, tt.dirs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestLoadWithoutDriver(t *testing.T) {
	t.Setenv("APSP_LIBCUDA", filepath.Join(t.TempDir(), "libcuda.so.1"))
	_, err := Load()
	if !errors.Is(err, ErrNoDriver) {
		t.Fatalf("want ErrNoDriver, got %v", err)
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
