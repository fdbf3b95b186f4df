package sysmem

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

func TestAvailable(t *testing.T) {
	avail, ok := Available()
	if runtime.GOOS == "linux" && (!ok || avail == 0) {
		t.Fatalf("Available() = %d, %v on linux", avail, ok)
	}
	old := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(old)
	if got, ok := Available(); !ok || got > 1<<20 {
		t.Fatalf("with a 1 MiB limit: %d, %v", got, ok)
	}
}

// TestGoMemoryLimitHeadroom: the Go memory limit gives its headroom, the
// limit less what the runtime holds in use, not the limit itself.
func TestGoMemoryLimitHeadroom(t *testing.T) {
	runtime.GC()
	used := goMemory()
	old := debug.SetMemoryLimit(int64(used) + 64<<20)
	defer debug.SetMemoryLimit(old)
	h, ok := Lowest()
	if !ok || h.Source != "GOMEMLIMIT" || !h.Mapped {
		t.Fatalf("Lowest() = %+v, %v, want the Go memory limit", h, ok)
	}
	if h.Bytes > 64<<20 || h.Bytes < 48<<20 {
		t.Errorf("headroom %d, want about 64 MiB", h.Bytes)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCgroupBounds(t *testing.T) {
	root := t.TempDir()
	proc := filepath.Join(root, "cgroup")

	// v2: a limit on the process's cgroup and a tighter one on its parent;
	// inactive file pages do not count as used.
	write(t, proc, "0::/a/b\n")
	write(t, filepath.Join(root, "a/b/memory.max"), "1000000\n")
	write(t, filepath.Join(root, "a/b/memory.current"), "400000\n")
	write(t, filepath.Join(root, "a/b/memory.stat"), "anon 300000\ninactive_file 100000\n")
	write(t, filepath.Join(root, "a/memory.max"), "800000\n")
	write(t, filepath.Join(root, "a/memory.current"), "500000\n")
	write(t, filepath.Join(root, "memory.max"), "max\n") // none: skipped
	write(t, filepath.Join(root, "memory.current"), "1\n")
	got := cgroupBounds(proc, root)
	if len(got) != 2 || got[0].Bytes != 700000 || got[1].Bytes != 300000 || got[0].Source != "cgroup memory.max" || got[0].Mapped {
		t.Errorf("v2: %+v, want headrooms 700000 and 300000", got)
	}

	// v2 inside a cgroup namespace: the path does not exist under root,
	// which is the process's own cgroup.
	write(t, proc, "0::/elsewhere\n")
	write(t, filepath.Join(root, "memory.max"), "5000\n")
	if got := cgroupBounds(proc, root); len(got) != 1 || got[0].Bytes != 4999 {
		t.Errorf("v2 namespaced: %+v, want 4999", got)
	}

	// v1 beside v2's "0::/": the memory controller's limit, less usage
	// net of inactive file pages; a limit of about 2^63 is none.
	root = t.TempDir()
	proc = filepath.Join(root, "cgroup")
	write(t, proc, "5:cpu,cpuacct:/x\n4:memory:/x\n0::/\n")
	write(t, filepath.Join(root, "memory/x/memory.limit_in_bytes"), "2000000\n")
	write(t, filepath.Join(root, "memory/x/memory.usage_in_bytes"), "1500000\n")
	write(t, filepath.Join(root, "memory/x/memory.stat"), "inactive_file 1\ntotal_inactive_file 500000\n")
	if got := cgroupBounds(proc, root); len(got) != 1 || got[0].Bytes != 1000000 || got[0].Source != "cgroup memory.limit_in_bytes" {
		t.Errorf("v1: %+v, want 1000000", got)
	}
	write(t, filepath.Join(root, "memory/x/memory.limit_in_bytes"), "9223372036854771712\n")
	if got := cgroupBounds(proc, root); len(got) != 0 {
		t.Errorf("v1 without a limit: %+v", got)
	}

	// An exceeded limit leaves no headroom rather than wrapping around.
	write(t, filepath.Join(root, "memory/x/memory.limit_in_bytes"), "1000\n")
	if got := cgroupBounds(proc, root); len(got) != 1 || got[0].Bytes != 0 {
		t.Errorf("v1 over the limit: %+v, want 0", got)
	}
}

// TestUlimitHeadroom runs this test binary under ulimit -v and checks that
// the child sees the address-space limit, less what it has mapped, as its
// tightest bound.
func TestUlimitHeadroom(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RLIMIT_AS is read on linux only")
	}
	if os.Getenv("SYSMEM_CHILD") == "1" {
		h, ok := Lowest()
		if h.PerAllocation != 64<<20 {
			ok = false
		}
		status, _ := os.ReadFile("/proc/self/status")
		vm, _ := fieldKB(status, "VmSize:")
		os.Stdout.WriteString("HEADROOM " + strconv.FormatBool(ok) + " " + strconv.FormatUint(h.Bytes, 10) + " " +
			strconv.FormatUint(vm*1024, 10) + " " + strings.ReplaceAll(h.Source, " ", "_") + "\n")
		return
	}
	const limitKB = 4_000_000 // the Go runtime maps about 1.2 GB at start-up
	cmd := exec.Command("sh", "-c", "ulimit -v "+strconv.Itoa(limitKB)+` && exec "$0" -test.run='^TestUlimitHeadroom$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "SYSMEM_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var ok, src string
	var bytes, vm uint64
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 5 && f[0] == "HEADROOM" {
			ok, src = f[1], f[4]
			bytes, _ = strconv.ParseUint(f[2], 10, 64)
			vm, _ = strconv.ParseUint(f[3], 10, 64)
		}
	}
	if ok != "true" || src != "ulimit_-v" {
		t.Fatalf("child's tightest bound: %q %q, want ulimit -v\n%s", ok, src, out)
	}
	limit := uint64(limitKB) * 1024
	// The child measured VmSize a moment after its headroom.
	if bytes == 0 || bytes > limit || bytes+vm > limit+64<<20 || bytes+vm < limit-64<<20 {
		t.Errorf("headroom %d with %d mapped under a limit of %d", bytes, vm, limit)
	}
	t.Logf("under ulimit -v %d: %d bytes mapped, headroom %d", limitKB, vm, bytes)
}

func TestLess(t *testing.T) {
	h := Headroom{Bytes: 100 << 20, PerAllocation: 64 << 20}
	if h.Less(0) != 100<<20 || h.Less(1) != 36<<20 || h.Less(2) != 0 {
		t.Errorf("Less: %d %d %d", h.Less(0), h.Less(1), h.Less(2))
	}
	if h := (Headroom{Bytes: 5}); h.Less(100) != 5 {
		t.Errorf("no per-allocation cost: %d", h.Less(100))
	}
}
