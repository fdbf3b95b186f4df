package mpi

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/comm"
	"github.com/ebitengine/purego"
)

// buildFake compiles testdata/fakempi.c into a shared library, or skips
// the test where no C compiler is installed (the binding itself needs
// none). -Bsymbolic binds the fake's references to its own handles:
// under go test -count 2 a second copy is loaded beside the first, whose
// global symbols would otherwise stand in for them, and every handle the
// binding passes would look foreign.
func buildFake(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler to build the fake library:", err)
	}
	lib := filepath.Join(t.TempDir(), "libmpi.so.40")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-Wl,-Bsymbolic", "-o", lib, "testdata/fakempi.c").CombinedOutput(); err != nil {
		t.Fatalf("building the fake: %v\n%s", err, out)
	}
	return lib
}

// TestBindingABI drives the binding against a fake libmpi that accepts
// only Open MPI's handles (the addresses of the ompi_* symbols) and
// MPI_IN_PLACE as (void *) 1, as Open MPI's mpi.h defines them.
func TestBindingABI(t *testing.T) {
	lib := buildFake(t)
	t.Setenv("APSP_LIBMPI", lib)
	api, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	var get func(i int32) int64
	purego.RegisterLibFunc(&get, h, "fake_get")
	ctx := context.Background()

	world, err := api.Init()
	if err != nil {
		t.Fatal(err)
	}
	if get(0) != 1 || get(1) != 1 || world.Rank() != 1 || world.Size() != 3 {
		t.Fatalf("Init: initialised %d, errhandler set %d times, rank %d of %d", get(0), get(1), world.Rank(), world.Size())
	}
	if _, err := api.Init(); err != nil {
		t.Fatalf("a second Init must be a no-op: %v", err)
	}

	buf := make([]byte, 10)
	if err := world.Bcast(ctx, comm.Buffer{Host: buf}, 2); err != nil {
		t.Fatal(err)
	}
	for i, b := range buf {
		if b != byte(i+2) {
			t.Fatalf("Bcast from 2: got %v", buf)
		}
	}
	sums := []int64{1, -2, 1 << 40}
	if err := world.AllReduceSum(ctx, comm.HostBuffer(sums)); err != nil {
		t.Fatal(err)
	}
	if sums[0] != 3 || sums[1] != -6 || sums[2] != 3<<40 {
		t.Fatalf("AllReduceSum: %v", sums)
	}
	most := []int64{-3, 5, 9}
	if err := world.AllReduceMax(ctx, comm.HostBuffer(most)); err != nil {
		t.Fatal(err)
	}
	if most[0] != 5 || most[1] != 5 || most[2] != 9 {
		t.Fatalf("AllReduceMax: %v", most)
	}
	if err := world.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	err = world.Bcast(ctx, comm.Buffer{Host: buf}, 7)
	if err == nil || !strings.Contains(err.Error(), "MPI_Bcast: MPI_ERR_ROOT (8): fake mpi error 8") {
		t.Errorf("failure: %v", err)
	}

	sub, err := world.Split(ctx, 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Rank() != 0 || sub.Size() != 2 || get(1) != 3 { // world twice (Init, Init again), then the split
		t.Errorf("Split: rank %d of %d, errhandler set %d times", sub.Rank(), sub.Size(), get(1))
	}
	if err := sub.Barrier(ctx); err != nil {
		t.Error(err)
	}
	if err := sub.Close(); err != nil || get(2) != 1 {
		t.Errorf("Close: %v, freed %d", err, get(2))
	}
	if err := world.Close(); err != nil || get(2) != 1 {
		t.Errorf("closing the world must not free it: %v, freed %d", err, get(2))
	}
	if _, err := world.Split(ctx, -1, 0); err == nil || !strings.Contains(err.Error(), "MPI_ERR_ARG") {
		t.Errorf("bad split: %v", err)
	}
	if err := api.Finalize(); err != nil || get(0) != 0 {
		t.Errorf("Finalize: %v", err)
	}
	if _, err := api.Init(); err == nil || !strings.Contains(err.Error(), "finalized") {
		t.Errorf("Init after Finalize: %v, want an error", err)
	}
}

// TestNotOpenMPI: a library without Open MPI's handle symbols (MPICH, or
// anything else) is refused by name.
func TestNotOpenMPI(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler:", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "other.c")
	lib := filepath.Join(dir, "libmpi.so.12")
	if err := writeFile(src, "int MPI_Init(int *c, char ***v) { return 0; }\n"); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Setenv("APSP_LIBMPI", lib)
	if _, err := Load(); !errors.Is(err, ErrNoMPI) || !strings.Contains(err.Error(), "ompi_mpi_comm_world") {
		t.Errorf("Load of a non-Open MPI library: %v", err)
	}
}
