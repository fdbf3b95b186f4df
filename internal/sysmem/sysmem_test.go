package sysmem

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
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
	var h Headroom
	for _, x := range Bounds() {
		if x.Source == "GOMEMLIMIT" {
			h = x
		}
	}
	if !h.Mapped || h.Arena != 0 {
		t.Fatalf("the Go memory limit's bound: %+v", h)
	}
	// What the runtime holds can fall a little between the two readings
	// (CI once saw 32 KiB less), so allow 1 MiB above; the limit itself
	// would be used + 64 MiB.
	if h.Bytes > 65<<20 || h.Bytes < 48<<20 {
		t.Errorf("headroom %d (%d in use before), want about 64 MiB", h.Bytes, used)
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

// TestSlack: under a bound that charges arenas, a run of allocations that
// fits in what the heap holds unused costs nothing more; beyond
// it, an arena and at most an arena an allocation, or need if smaller.
func TestSlack(t *testing.T) {
	const mib = 1 << 20
	h := Headroom{Bytes: 1000 * mib, Arena: 64 * mib, Reserved: 40 * mib}
	for _, tc := range []struct {
		need   uint64
		allocs int
		want   uint64
	}{
		{0, 6, 0},
		{1024, 6, 0}, // karate: in the reserve
		{40 * mib, 22, 0},
		{41 * mib, 22, 105 * mib},
		{18 * mib, 0, 0},          // no large allocations
		{100 * mib, 1, 128 * mib}, // one arena for the allocation, one for the end
		{100 * mib, 6, 164 * mib}, // allocations smaller than arenas: need
		{10000 * mib, 6, 448 * mib},
	} {
		if got := h.Slack(tc.need, tc.allocs); got != tc.want {
			t.Errorf("Slack(%d MiB, %d) = %d MiB, want %d MiB", tc.need/mib, tc.allocs, got/mib, tc.want/mib)
		}
		if got, want := h.Left(tc.need, tc.allocs), h.Bytes-tc.want; got != want {
			t.Errorf("Left(%d MiB, %d) = %d, want %d", tc.need/mib, tc.allocs, got, want)
		}
	}
	// The reviewer's bound: at most Arena·(1 + min(allocs, need/Arena)),
	// with need/Arena a real quotient.
	for _, need := range []uint64{1, 50 * mib, 64 * mib, 129 * mib, 5000 * mib} {
		for allocs := 1; allocs < 30; allocs++ {
			got := (Headroom{Arena: 64 * mib}).Slack(need, allocs)
			if lim := 64*mib + min(need, uint64(allocs)*64*mib); got > lim {
				t.Errorf("Slack(%d, %d) = %d above %d", need, allocs, got, lim)
			}
		}
	}
	if got := (Headroom{Bytes: 5}).Slack(1<<40, 100); got != 0 {
		t.Errorf("a bound without arenas: slack %d", got)
	}
	if got := (Headroom{Arena: 64 * mib}).Slack(1<<63, 1<<40); got != 64*mib+1<<63 {
		t.Errorf("huge: slack %d", got)
	}
}

// TestMost checks Most against Left by brute force: the largest need that
// fits, and every smaller one fits.
func TestMost(t *testing.T) {
	for bytes := uint64(0); bytes < 80; bytes++ {
		for _, reserved := range []uint64{0, 3, 30} {
			for allocs := 0; allocs < 6; allocs++ {
				h := Headroom{Bytes: bytes, Arena: 4, Reserved: reserved}
				most := h.Most(allocs)
				if most > bytes || most > h.Left(most, allocs) {
					t.Fatalf("%+v: Most(%d) = %d, which does not fit (left %d)", h, allocs, most, h.Left(most, allocs))
				}
				for need := uint64(0); need <= bytes+1; need++ {
					if fits := need <= h.Left(need, allocs); fits != (need <= most) {
						t.Fatalf("%+v, %d allocations: need %d fits %v, Most %d", h, allocs, need, fits, most)
					}
				}
			}
		}
	}
	h := Headroom{Bytes: 56 << 20, Arena: 64 << 20, Reserved: 40 << 20}
	if got := h.Most(22); got != 40<<20 {
		t.Errorf("Most(22) with 56 MiB left, 40 MiB reserved: %d, want 40 MiB", got)
	}
	if got := (Headroom{Bytes: 3 << 30, Arena: 64 << 20}).Most(7); got != 3<<30-8*64<<20 {
		t.Errorf("Most(7) of 3 GiB: %d", got)
	}
}

// TestHeapReserve reads the rest of the heap's arena from /proc/self/maps
// lines.
func TestHeapReserve(t *testing.T) {
	const arena = 64 << 20
	maps := `00400000-00402000 r--p 00000000 00:25 1234 /tmp/apsp
00865000-028a8000 rw-p 00000000 00:00 0
29b778000000-29b779000000 ---p 00000000 00:00 0
29b779000000-29b779400000 rw-p 00000000 00:00 0
29b779400000-29b779800000 rw-p 00000000 00:00 0
29b779800000-29b77c000000 ---p 00000000 00:00 0
7fc050021000-7fc054000000 ---p 00000000 00:00 0
7fc0aeaac000-7fc0aec02000 r-xp 00028000 00:25 99 /usr/lib/x86_64-linux-gnu/libc.so.6
`
	for _, tc := range []struct {
		addr, want uint64
		maps       string
	}{
		{0x29b779000010, 40 << 20, maps}, // through the second read-write mapping
		{0x29b779500000, 40 << 20, maps},
		{0x29b778000010, 0, maps}, // not read-write: not the heap
		{0x00865010, 0, maps},     // followed by a gap
		{0x7fc050021010, 0, maps}, // not read-write
		{0x1, 0, maps},            // nowhere
		{0x29b779000010, 0, strings.Replace(maps, "29b779800000-29b77c000000 ---p 00000000 00:00 0", "29b779800000-29b77c000000 ---p 00000000 00:25 7 /x", 1)},
		// The reservation beyond the arena is not the heap's.
		{0xc000000010, 16 << 20, "c000000000-c003000000 rw-p 00000000 00:00 0\nc003000000-c008000000 ---p 00000000 00:00 0\n"},
		// A heap that ends at an arena's end has no reserve.
		{0xc000000010, 0, "c000000000-c004000000 rw-p 00000000 00:00 0\nc004000000-c008000000 ---p 00000000 00:00 0\n"},
	} {
		if got := heapReserve([]byte(tc.maps), tc.addr, arena); got != tc.want {
			t.Errorf("heapReserve(%#x) = %d, want %d", tc.addr, got, tc.want)
		}
	}
}

// TestFileBoundsReading: the file bounds are read once, served for
// fileBoundsAge less what the Go runtime mapped since, and read again
// once older (or when the clock went back).
func TestFileBoundsReading(t *testing.T) {
	var f fileBounds
	reads := 0
	avail := uint64(1000)
	read := func() []Headroom {
		reads++
		return []Headroom{{Bytes: avail, Source: "MemAvailable"}}
	}
	t0 := time.Unix(1000, 0)
	steps := []struct {
		name      string
		at        time.Duration
		mapped    uint64
		avail     uint64 // what a read would find now
		wantReads int
		want      uint64
	}{
		{"first call reads", 0, 100, 1000, 1, 1000},
		{"within the age: the reading", 10 * time.Millisecond, 100, 500, 1, 1000},
		{"less what Go mapped since", 20 * time.Millisecond, 350, 500, 1, 750},
		{"Go mapped less than at the reading", 30 * time.Millisecond, 50, 500, 1, 1000},
		{"mapped past the reading", 40 * time.Millisecond, 2000, 500, 1, 0},
		{"at the age: read again", fileBoundsAge, 2000, 500, 2, 500},
		{"clock went back: read again", 0, 2000, 400, 3, 400},
	}
	for _, s := range steps {
		avail = s.avail
		got := f.files(t0.Add(s.at), s.mapped, read)
		if reads != s.wantReads || len(got) != 1 || got[0].Bytes != s.want || got[0].Source != "MemAvailable" {
			t.Fatalf("%s: %d reads, %+v; want %d reads, %d bytes", s.name, reads, got, s.wantReads, s.want)
		}
	}
	// A reading's bounds are not changed by what a caller does with them.
	got := f.files(t0, 2000, read)
	got[0].Bytes = 7
	if again := f.files(t0, 2000, read); again[0].Bytes != 400 {
		t.Fatalf("a caller's change reached the reading: %d", again[0].Bytes)
	}
	// Forget: the next call reads again, within the age.
	f.forget()
	avail = 300
	if got := f.files(t0, 2000, read); reads != 4 || got[0].Bytes != 300 {
		t.Fatalf("after forget: %d reads, %+v; want 4 reads, 300 bytes", reads, got)
	}
	// No bound readable: an empty reading, still served for its age.
	var none fileBounds
	calls := 0
	empty := func() []Headroom { calls++; return nil }
	for range 3 {
		if got := none.files(t0, 0, empty); len(got) != 0 {
			t.Fatalf("no bounds: %+v", got)
		}
	}
	if calls != 1 {
		t.Fatalf("no bounds read %d times within the age, want 1", calls)
	}
}

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		bad  bool
	}{
		{"0", 0, false}, {"1024", 1024, false}, {"1GiB", 1 << 30, false}, {"1 GiB", 1 << 30, false},
		{"512MiB", 512 << 20, false}, {"3G", 3 << 30, false}, {"2gb", 2 << 30, false}, {"1.5K", 1536, false},
		{"7B", 7, false}, {"5 B", 5, false}, {"1TiB", 1 << 40, false},
		{"", 0, true}, {"GiB", 0, true}, {"-1G", 0, true}, {"lots", 0, true}, {"1e30T", 0, true}, {"NaN", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseBytes(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseBytes(%q) = %d, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}
