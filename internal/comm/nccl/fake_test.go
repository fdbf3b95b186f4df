package nccl

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp/internal/comm"
	"github.com/ebitengine/purego"
)

// buildFake compiles testdata/fakenccl.c into a shared library, or skips
// the test where no C compiler is installed (the binding itself needs
// none).
func buildFake(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler to build the fake library:", err)
	}
	lib := filepath.Join(t.TempDir(), "libnccl.so.2")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", lib, "testdata/fakenccl.c").CombinedOutput(); err != nil {
		t.Fatalf("building the fake: %v\n%s", err, out)
	}
	return lib
}

// TestBindingABI drives every bound function of a fake libnccl that
// checks and records its arguments: the 128-byte id passed by value
// arrives intact, the collectives get their arguments in NCCL's order
// (in-place buffers, int8 for broadcasts, int64 and sum for sums, the
// stream), split communicators report their rank and size, and failures
// carry the library's own message.
func TestBindingABI(t *testing.T) {
	lib := buildFake(t)
	t.Setenv("APSP_LIBNCCL", lib)
	api, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if api.Version != 22803 || api.Path != lib {
		t.Fatalf("Load: version %d, path %s", api.Version, api.Path)
	}
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	var get func(i int32) int64
	purego.RegisterLibFunc(&get, h, "fake_get")
	ctx := context.Background()

	id, err := api.NewUniqueID()
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.InitRank(4, 3, id, 0xabc, 0x9000)
	if err != nil {
		t.Fatalf("InitRank with the library's own id: %v", err)
	}
	if c.Rank() != 3 || c.Size() != 4 {
		t.Fatalf("rank %d of %d", c.Rank(), c.Size())
	}
	bad := id
	bad.Internal[77]++
	if _, err := api.InitRank(4, 3, bad, 0, 0); err == nil || !strings.Contains(err.Error(), "ncclInvalidArgument") {
		t.Fatalf("a corrupted id must reach the library as is: %v", err)
	}

	if err := c.Bcast(ctx, comm.DeviceBuffer(0x5000, 96), 2); err != nil {
		t.Fatal(err)
	}
	want := map[int32]int64{0: 0x5000, 1: 0x5000, 2: 96, 3: ncclInt8, 4: 2, 5: 1, 6: 0xabc}
	for i, w := range want {
		if g := get(i); g != w {
			t.Errorf("ncclBroadcast argument %d: %#x, want %#x", i, g, w)
		}
	}
	if err := c.AllReduceSum(ctx, comm.DeviceBuffer(0x6000, 24)); err != nil {
		t.Fatal(err)
	}
	want = map[int32]int64{0: 0x6000, 1: 0x6000, 2: 3, 3: ncclInt64, 7: ncclSum, 6: 0xabc}
	for i, w := range want {
		if g := get(i); g != w {
			t.Errorf("ncclAllReduce argument %d: %#x, want %#x", i, g, w)
		}
	}
	if err := c.Barrier(ctx); err != nil || get(0) != 0x9000 || get(2) != 1 {
		t.Errorf("Barrier: %v, buffer %#x count %d; want the scratch word", err, get(0), get(2))
	}
	err = c.Bcast(ctx, comm.DeviceBuffer(0x5000, 8), 99)
	if err == nil || !strings.Contains(err.Error(), "ncclBroadcast: ncclInvalidUsage (5): fake nccl error 5") {
		t.Errorf("failure: %v", err)
	}

	sub, err := c.Split(ctx, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if get(8) != 1 || get(9) != 2 || sub.Rank() != 2 || sub.Size() != 14 {
		t.Errorf("Split: color %d key %d, rank %d size %d", get(8), get(9), sub.Rank(), sub.Size())
	}
	sub.Abort(nil)
	if get(11) != 2 {
		t.Error("Abort did not reach ncclCommAbort")
	}
	if err := sub.Bcast(ctx, comm.DeviceBuffer(0x5000, 8), 0); err == nil {
		t.Error("an aborted communicator must refuse work")
	}
	if err := c.Close(); err != nil || get(10) != 1 {
		t.Errorf("Close: %v, destroyed %d", err, get(10))
	}

	cs, err := api.InitAll([]int{0, 1}, []uintptr{1, 2}, []uint64{0, 0})
	if err != nil || len(cs) != 2 || cs[1].Rank() != 1 || cs[1].Size() != 2 {
		t.Fatalf("InitAll: %v %v", cs, err)
	}
	if err := api.GroupStart(); err != nil {
		t.Fatal(err)
	}
	if err := api.GroupEnd(); err != nil || get(12) != 1 || get(13) != 1 {
		t.Errorf("GroupStart/End: %v, %d/%d calls", err, get(12), get(13))
	}
}
