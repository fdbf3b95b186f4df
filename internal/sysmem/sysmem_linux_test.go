package sysmem

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// vmSize returns the address space the process has mapped (VmSize).
func vmSize() uint64 {
	kb, _ := fieldKB(readFile("/proc/self/status"), "VmSize:")
	return kb * 1024
}

// ulimitBound returns the bound that ulimit -v sets, if any.
func ulimitBound() (Headroom, bool) {
	for _, h := range Bounds() {
		if h.Source == SourceAddressSpace {
			return h, true
		}
	}
	return Headroom{}, false
}

// inChild runs the test named name again in a child process with
// SYSMEM_CHILD set to mode and returns its output; the child lowers its own
// address-space limit (RLIMIT_AS, ulimit -v), which it may always do, where
// a shell's ulimit -v fails above an outer hard limit.
func inChild(t *testing.T, name, mode string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), "SYSMEM_CHILD="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return string(out)
}

// limitAS lowers the soft RLIMIT_AS to VmSize plus extra, unless it is
// lower already, and returns the limit now in force.
func limitAS(t *testing.T, extra uint64) uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Fatal(err)
	}
	if want := vmSize() + extra; want < lim.Cur {
		lim.Cur = want
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			t.Fatal(err)
		}
	}
	return lim.Cur
}

// TestUlimitHeadroom: under an address-space limit, the ulimit -v bound
// is the limit less what the process has mapped, charges 64 MiB arenas,
// and credits no more than the heap's free pages and the rest of an arena.
func TestUlimitHeadroom(t *testing.T) {
	if os.Getenv("SYSMEM_CHILD") == "headroom" {
		limit := limitAS(t, 1<<30)
		h, ok := ulimitBound()
		vm := vmSize() // a moment after the headroom
		switch {
		case !ok || !h.Mapped || h.Arena != 64<<20 || h.Reserved > h.Arena+heapFree()+8<<20:
			t.Fatalf("ulimit -v bound: %+v, %v", h, ok)
		case h.Bytes+vm > limit+64<<20 || h.Bytes+vm < limit-64<<20:
			t.Fatalf("headroom %d with %d mapped under a limit of %d", h.Bytes, vm, limit)
		}
		t.Logf("under a limit of %d: %d bytes mapped, headroom %d, %d reserved by the heap", limit, vm, h.Bytes, h.Reserved)
		return
	}
	t.Log(inChild(t, "TestUlimitHeadroom", "headroom"))
}

// TestTightUlimit is the regression of karate refused under ulimit -v
// with tens of MiB to spare: a few small allocations fit, and are made;
// what cannot fit does not.
func TestTightUlimit(t *testing.T) {
	if os.Getenv("SYSMEM_CHILD") == "tight" {
		limitAS(t, 80<<20)
		h, ok := ulimitBound()
		if !ok || h.Bytes > 80<<20 {
			t.Fatalf("ulimit -v bound: %+v, %v", h, ok)
		}
		// More than an arena of slack, or less where the heap has room.
		if _, avail, fits := Fits(1<<20, 6); !fits {
			t.Fatalf("1 MiB in 6 allocations refused: %d available under %+v", avail, h)
		}
		if _, avail, ok := LowestFor(22); !ok || avail < 1<<20 {
			t.Fatalf("LowestFor(22) = %d, %v under %+v", avail, ok, h)
		}
		var keep [][]byte
		for range 6 {
			keep = append(keep, make([]byte, 1<<20/6))
		}
		if h2, avail, fits := Fits(200<<20, 1); fits || h2.Source != SourceAddressSpace {
			t.Fatalf("200 MiB fits? %v: %d available under %+v", fits, avail, h2)
		}
		t.Logf("headroom %d, reserved %d, %d allocations made", h.Bytes, h.Reserved, len(keep))
		return
	}
	t.Log(strings.TrimSpace(inChild(t, "TestTightUlimit", "tight")))
}
