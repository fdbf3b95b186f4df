package mpi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/comm"
)

// TestLoadWithoutLibrary: a missing or unloadable library is an error
// wrapping ErrNoMPI that names the file, never a panic.
func TestLoadWithoutLibrary(t *testing.T) {
	dir := t.TempDir()
	notELF := filepath.Join(dir, "libmpi.so.40")
	if err := os.WriteFile(notELF, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, env, want string }{
		{"missing file", filepath.Join(dir, "gone.so"), "APSP_LIBMPI="},
		{"not a library", notELF, "dlopen"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("APSP_LIBMPI", tt.env)
			api, err := Load()
			if api != nil || !errors.Is(err, ErrNoMPI) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load() = %v, %v; want ErrNoMPI mentioning %q", api, err, tt.want)
			}
		})
	}
}

// TestLoadIfPresent binds every symbol and handle where Open MPI is
// installed (without initialising MPI) and skips elsewhere, unless
// APSP_REQUIRE_MPI=1.
func TestLoadIfPresent(t *testing.T) {
	api, err := Load()
	if errors.Is(err, ErrNoMPI) && os.Getenv("APSP_REQUIRE_MPI") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]uintptr{"comm_world": api.h.commWorld, "byte": api.h.byteType, "int64_t": api.h.int64Type, "op_sum": api.h.opSum} {
		if h == 0 {
			t.Errorf("ompi_mpi_%s: nil handle", name)
		}
	}
}

func TestErrorNames(t *testing.T) {
	var a *API
	tests := []struct {
		code int32
		want string
	}{
		{5, "MPI_ERR_COMM (5)"},
		{7, "MPI_ERR_REQUEST (7)"},
		{8, "MPI_ERR_ROOT (8)"},
		{15, "MPI_ERR_TRUNCATE (15)"},
		{19, "MPI_ERR_PENDING (19)"},
		{61, "MPI_ERR_61 (61)"},
	}
	for _, tt := range tests {
		if err := a.check("MPI_Bcast", tt.code); err == nil || !strings.Contains(err.Error(), "MPI_Bcast: "+tt.want) {
			t.Errorf("code %d: %v, want %q", tt.code, err, tt.want)
		}
	}
	if a.check("x", 0) != nil {
		t.Error("MPI_SUCCESS must not be an error")
	}
}

// TestCommRefusesMisuse: device memory and a cancelled context are
// refused before MPI is called.
func TestCommRefusesMisuse(t *testing.T) {
	c := &Comm{}
	if err := c.Bcast(context.Background(), comm.DeviceBuffer(0x1000, 8), 0); err == nil || !strings.Contains(err.Error(), "device buffer") {
		t.Errorf("device buffer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Barrier(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	if err := c.AllReduceSum(context.Background(), comm.Buffer{Host: make([]byte, 12)}); err == nil {
		t.Error("12 bytes are not int64 values")
	}
	if err := c.AllReduceMax(context.Background(), comm.Buffer{Host: make([]byte, 12)}); err == nil {
		t.Error("AllReduceMax: 12 bytes are not int64 values")
	}
	if err := c.Close(); err != nil {
		t.Errorf("closing the world (not owned): %v", err)
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }
