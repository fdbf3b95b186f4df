package nccl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/gputest"
)

// TestLoadWithoutLibrary: a missing or unloadable library, or one without
// NCCL's functions, is an error wrapping ErrNoNCCL that names the file (and
// the function), never a panic.
func TestLoadWithoutLibrary(t *testing.T) {
	dir := t.TempDir()
	notELF := filepath.Join(dir, "libnccl.so.2")
	if err := os.WriteFile(notELF, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := gputest.NotALibrary()
	for _, tt := range []struct{ name, env, want string }{
		{"missing file", filepath.Join(dir, "gone.so"), "APSP_LIBNCCL="},
		{"not a library", notELF, "dlopen"},
		{"not NCCL", other, "ncclGetVersion"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env == "" {
				t.Skip("no libm.so.6 to stand in for a library that is not NCCL")
			}
			t.Setenv("APSP_LIBNCCL", tt.env)
			api, err := Load()
			if api != nil || !errors.Is(err, ErrNoNCCL) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load() = %v, %v; want ErrNoNCCL mentioning %q", api, err, tt.want)
			}
		})
	}
}

// TestLoadIfPresent binds every symbol where NCCL is installed (the GPU
// machines) and skips elsewhere, unless APSP_REQUIRE_NCCL=1.
func TestLoadIfPresent(t *testing.T) {
	api, err := Load()
	if errors.Is(err, ErrNoNCCL) && os.Getenv("APSP_REQUIRE_NCCL") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if api.Version < 21800 {
		t.Errorf("NCCL %d: ncclCommSplit needs 2.18 or newer", api.Version)
	}
	if _, err := api.NewUniqueID(); err != nil {
		t.Errorf("ncclGetUniqueId: %v", err)
	}
	if e := api.check("x", 4); !strings.Contains(e.Error(), "ncclInvalidArgument") {
		t.Errorf("error %v does not name the code", e)
	}
}

func TestErrorNames(t *testing.T) {
	var a *API // no library: names from the table
	tests := []struct {
		code Result
		want string
	}{
		{1, "ncclUnhandledCudaError (1)"},
		{5, "ncclInvalidUsage (5)"},
		{6, "ncclRemoteError (6)"},
		{7, "ncclInProgress (7)"},
		{42, "ncclResult(42) (42)"},
	}
	for _, tt := range tests {
		err := a.check("ncclBroadcast", tt.code)
		if err == nil || !strings.Contains(err.Error(), "ncclBroadcast: "+tt.want) {
			t.Errorf("code %d: %v, want %q", tt.code, err, tt.want)
		}
	}
	if a.check("x", 0) != nil {
		t.Error("ncclSuccess must not be an error")
	}
	var e *Error
	if !errors.As(a.check("x", 6), &e) || !e.Remote() {
		t.Error("ncclRemoteError must report Remote")
	}
}

// TestABI pins the facts the binding relies on.
func TestABI(t *testing.T) {
	if s := unsafe.Sizeof(UniqueID{}); s != 128 {
		t.Errorf("UniqueID is %d bytes, ncclUniqueId 128", s)
	}
}

// TestCommRefusesMisuse: a closed communicator and host memory are
// refused before NCCL is called (no library needed).
func TestCommRefusesMisuse(t *testing.T) {
	ctx := context.Background()
	closed := &Comm{}
	if err := closed.Bcast(ctx, comm.DeviceBuffer(0x1000, 8), 0); !errors.Is(err, comm.ErrAborted) {
		t.Errorf("closed communicator: %v", err)
	}
	open := &Comm{c: 1}
	if err := open.Bcast(ctx, comm.HostBuffer([]int64{1}), 0); err == nil || !strings.Contains(err.Error(), "host buffer") {
		t.Errorf("host buffer: %v", err)
	}
	if err := open.Barrier(ctx); err == nil || !strings.Contains(err.Error(), "scratch") {
		t.Errorf("barrier without scratch: %v", err)
	}
	if err := closed.Close(); err != nil {
		t.Errorf("closing a closed communicator: %v", err)
	}
}
