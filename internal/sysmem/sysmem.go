// Package sysmem tells how much memory the process may still allocate, so
// that apsp refuses a size that cannot fit with a clear error instead of
// being killed by the allocation, or swapping for minutes first.
package sysmem

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The Source of the bounds that rlimits set. ulimit -v limits address
// space, not memory: the Go runtime reserves address space in arenas
// beyond what it uses, so a refusal under it states figures of address
// space, and says so, lest they be read as memory the machine lacks.
const (
	SourceAddressSpace = "ulimit -v, which counts address space"
	SourceData         = "ulimit -d"
)

// Headroom is one bound on what the process may still allocate.
type Headroom struct {
	Bytes  uint64 // how many more bytes fit under this bound
	Source string // what imposes it, for messages: "MemAvailable", SourceAddressSpace, ...
	// Mapped is true when the bound charges memory as soon as it is
	// allocated (address space: ulimit -v and -d, the Go memory limit)
	// rather than page by page as it is first written (MemAvailable, a
	// cgroup): a large slice allocated but not yet filled is already out
	// of this headroom.
	Mapped bool
	// Arena is the unit in which the bound charges the growth of the Go
	// heap, 0 when it charges only what is used: under ulimit -v, 64 MiB,
	// as the runtime reserves heap address space in 64 MiB arenas (see
	// Slack).
	Arena uint64
	// Reserved is address space the Go heap holds under this bound and can
	// allocate from without reserving more: its free pages and the rest of
	// its current arena (less a heap chunk, the unit in which the heap
	// grows into it, 4 MiB). Allocations that fit in it cost the bound
	// nothing more, unless the free pages are too fragmented for them,
	// which this does not see.
	Reserved uint64
}

// Slack returns what need bytes in allocs large allocations may cost under
// h beyond need itself: nothing when the bound does not charge arenas or
// when they fit in the address space the heap holds already (h.Reserved);
// otherwise an arena, for the rest of the last one the heap reserves, plus
// at most an arena for each allocation, or its size if smaller, for the
// rest of an arena left behind when the runtime cannot extend the current
// one. Allocations smaller than an arena share arenas, so the slack is at
// most h.Arena·(1 + min(allocs, need/h.Arena)).
func (h Headroom) Slack(need uint64, allocs int) uint64 {
	if h.Arena == 0 || allocs <= 0 || need <= h.Reserved {
		return 0
	}
	return h.Arena + min(need, mul(uint64(allocs), h.Arena))
}

// Left returns what h leaves for need bytes in allocs large allocations:
// h.Bytes less their slack. They fit when need <= h.Left(need, allocs).
func (h Headroom) Left(need uint64, allocs int) uint64 {
	return sub(h.Bytes, h.Slack(need, allocs))
}

// Most returns the largest need that fits under h in allocs large
// allocations (need <= h.Left(need, allocs)); every smaller need fits too.
func (h Headroom) Most(allocs int) uint64 {
	if h.Arena == 0 || allocs <= 0 {
		return h.Bytes
	}
	// Within the address space the heap holds, no slack.
	inReserve := min(h.Reserved, h.Bytes)
	// Beyond it: need + Arena + min(need, allocs·Arena) <= Bytes.
	r, all := sub(h.Bytes, h.Arena), mul(uint64(allocs), h.Arena)
	beyond := r / 2
	if r/2 >= all {
		beyond = r - all
	}
	return max(inReserve, beyond)
}

// mul returns a·b, saturated at the largest uint64.
func mul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// Available returns the smallest headroom Lowest finds, and whether any
// bound is known.
func Available() (uint64, bool) {
	h, ok := Lowest()
	return h.Bytes, ok
}

// Lowest returns the tightest of the bounds Bounds finds, and whether any is
// known.
func Lowest() (Headroom, bool) {
	all := Bounds()
	if len(all) == 0 {
		return Headroom{}, false
	}
	low := all[0]
	for _, h := range all[1:] {
		if h.Bytes < low.Bytes {
			low = h
		}
	}
	return low, true
}

// LowestFor returns the bound that allows the least in allocs large
// allocations, that least (Headroom.Most: a need fits under every bound
// exactly when need <= avail), and whether any bound is known.
func LowestFor(allocs int) (h Headroom, avail uint64, ok bool) {
	for i, x := range Bounds() {
		if v := x.Most(allocs); i == 0 || v < avail {
			h, avail, ok = x, v, true
		}
	}
	return h, avail, ok
}

// Fits reports whether need bytes in allocs large allocations fit under
// every bound Bounds finds (true when none is known), and returns the bound
// that leaves them the least and what it leaves (Headroom.Left; the largest
// uint64 when no bound is known): when fits is false, need > avail.
func Fits(need uint64, allocs int) (h Headroom, avail uint64, fits bool) {
	avail = math.MaxUint64
	for i, x := range Bounds() {
		if v := x.Left(need, allocs); i == 0 || v < avail {
			h, avail = x, v
		}
	}
	return h, avail, need <= avail
}

// Bounds returns every bound on further allocation that it can read:
//
//   - MemAvailable in /proc/meminfo (memory the kernel can hand out without
//     swapping);
//   - the Go memory limit (GOMEMLIMIT or debug.SetMemoryLimit) minus the
//     memory the Go runtime holds in use (goMemory);
//   - RLIMIT_AS (ulimit -v) minus the address space in use (VmSize), and
//     RLIMIT_DATA (ulimit -d) minus the data segment in use (VmData):
//     Linux counts anonymous mappings, so Go's heap, against both;
//   - the cgroup memory limit minus its usage, for cgroup v2 (memory.max
//     and memory.current, at the process's cgroup and every ancestor) and
//     v1 (memory.limit_in_bytes and memory.usage_in_bytes). The usage
//     leaves out inactive file pages, which the kernel reclaims before it
//     kills anything for the limit.
//
// A bound already exceeded gives 0 bytes.
//
// MemAvailable and the cgroup's bounds come from files whose reading is a
// visible share of a fast call (a large gpu-bitbfs search, a search loop's
// graph; docs/perf.md, "Many graphs: `StatsBatch` and `apsp bulk`"): they
// are read again only once the last reading is fileBoundsAge old (or
// Forget was called), and until then taken from it less what the Go
// runtime has come to hold since. The Go memory limit and the rlimits are
// read every time.
func Bounds() []Headroom {
	out := readings.files(time.Now(), goHeld(), systemBounds)
	if lim := debug.SetMemoryLimit(-1); lim > 0 && lim < math.MaxInt64 {
		out = append(out, Headroom{Bytes: sub(uint64(lim), goMemory()), Source: "GOMEMLIMIT", Mapped: true})
	}
	return append(out, rlimitBounds()...)
}

// systemBounds reads the bounds of Bounds that come from files:
// MemAvailable and the cgroup's.
func systemBounds() []Headroom {
	var out []Headroom
	if kb, ok := fieldKB(readFile("/proc/meminfo"), "MemAvailable:"); ok {
		out = append(out, Headroom{Bytes: kb * 1024, Source: "MemAvailable"})
	}
	return append(out, cgroupBounds("/proc/self/cgroup", "/sys/fs/cgroup")...)
}

// fileBoundsAge is how long a reading of the file bounds serves: shorter
// than any run worth refusing, longer than a search loop's call.
const fileBoundsAge = 50 * time.Millisecond

// readings is the process's last reading of the file bounds: the memory
// they describe is the machine's and the cgroup's, one for the process,
// as the GPU runtime is.
var readings fileBounds

// fileBounds is a reading of the file bounds, when it was taken and how
// much the Go runtime had mapped then.
type fileBounds struct {
	mu     sync.Mutex
	at     time.Time
	mapped uint64
	bounds []Headroom
}

// Forget makes the next Bounds read the files again: a caller that took
// memory the Go runtime does not count (page-locked host memory from the
// CUDA driver, say) calls it, so that no admission trusts a reading from
// before.
func Forget() { readings.forget() }

func (f *fileBounds) forget() {
	f.mu.Lock()
	f.bounds = nil
	f.mu.Unlock()
}

// files returns the file bounds at now: read (by read) when the last
// reading is fileBoundsAge old or older (or from the future, or
// forgotten), else the last reading less what the Go runtime came to hold
// since (mapped now).
func (f *fileBounds) files(now time.Time, mapped uint64, read func() []Headroom) []Headroom {
	f.mu.Lock()
	defer f.mu.Unlock()
	if age := now.Sub(f.at); f.bounds == nil || age < 0 || age >= fileBoundsAge {
		f.bounds, f.at, f.mapped = read(), now, mapped
		if f.bounds == nil {
			f.bounds = []Headroom{}
		}
	}
	out := make([]Headroom, len(f.bounds))
	grown := sub(mapped, f.mapped)
	for i, h := range f.bounds {
		h.Bytes = sub(h.Bytes, grown)
		out[i] = h
	}
	return out
}

// goHeld is the memory the Go runtime holds from the system: what it has
// mapped less the heap pages it gave back (which it may take again
// without mapping more).
func goHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0
		}
	}
	return sub(s[0].Value.Uint64(), s[1].Value.Uint64())
}

// goMemory returns the memory the Go runtime holds for use: what it has
// mapped, less what it has returned to the system and the free heap, which
// new allocations reuse (and which the scavenger returns to stay under the
// memory limit).
// GoInUse returns the memory the Go runtime holds in use (mapped, less the
// heap's free and released pages): what counts against GOMEMLIMIT, and
// what a test adds its budget to before setting one.
func GoInUse() uint64 { return goMemory() }

func goMemory() uint64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0
		}
	}
	return sub(s[0].Value.Uint64(), s[1].Value.Uint64()+s[2].Value.Uint64())
}

// heapFree returns the bytes of the heap's pages that are free, those
// returned to the system included: mapped still, so within VmSize.
func heapFree() uint64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	var free uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			free += x.Value.Uint64()
		}
	}
	return free
}

// chunkBytes is the unit in which the Go heap grows into its arena
// (pallocChunkBytes).
const chunkBytes = 4 << 20

// cgroupBounds reads the memory limits of the cgroups listed in the file
// procCgroup (the format of /proc/self/cgroup), with the hierarchy mounted
// at root.
func cgroupBounds(procCgroup, root string) []Headroom {
	var out []Headroom
	for _, line := range strings.Split(string(readFile(procCgroup)), "\n") {
		// hierarchy-ID:controllers:path
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "": // v2, alone or beside v1 ("unified")
			v2 := root
			if _, err := os.Stat(filepath.Join(root, "unified", "cgroup.procs")); err == nil {
				v2 = filepath.Join(root, "unified")
			}
			out = append(out, cgroup2(v2, f[2])...)
		case hasController(f[1], "memory"): // v1
			if h, ok := cgroup1(filepath.Join(root, "memory"), f[2]); ok {
				out = append(out, h)
			}
		}
	}
	return out
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// cgroup2 returns the headroom of the v2 cgroup at path and of each of its
// ancestors that sets memory.max. Inside a cgroup namespace the path may not
// exist under root, which then is the process's own cgroup.
func cgroup2(root, path string) []Headroom {
	dir := filepath.Join(root, path)
	if _, err := os.Stat(filepath.Join(dir, "memory.max")); err != nil {
		dir = root
	}
	var out []Headroom
	for {
		lim, okLim := readUint(filepath.Join(dir, "memory.max"))
		cur, okCur := readUint(filepath.Join(dir, "memory.current"))
		if okLim && okCur {
			inactive, _ := statField(filepath.Join(dir, "memory.stat"), "inactive_file")
			out = append(out, Headroom{Bytes: sub(lim, sub(cur, inactive)), Source: "cgroup memory.max"})
		}
		if len(dir) <= len(root) || dir == filepath.Dir(dir) {
			return out
		}
		dir = filepath.Dir(dir)
	}
}

// cgroup1 returns the headroom of the v1 memory cgroup at path under root.
// A limit of about 2^63 means none.
func cgroup1(root, path string) (Headroom, bool) {
	dir := filepath.Join(root, path)
	if _, err := os.Stat(filepath.Join(dir, "memory.limit_in_bytes")); err != nil {
		dir = root
	}
	lim, ok1 := readUint(filepath.Join(dir, "memory.limit_in_bytes"))
	use, ok2 := readUint(filepath.Join(dir, "memory.usage_in_bytes"))
	if !ok1 || !ok2 || lim >= 1<<62 {
		return Headroom{}, false
	}
	inactive, ok := statField(filepath.Join(dir, "memory.stat"), "total_inactive_file")
	if !ok {
		inactive, _ = statField(filepath.Join(dir, "memory.stat"), "inactive_file")
	}
	return Headroom{Bytes: sub(lim, sub(use, inactive)), Source: "cgroup memory.limit_in_bytes"}, true
}

// heapReserve returns the address space the Go heap has reserved and not
// used yet above the mapping holding addr, an address in the heap, as maps
// (the format of /proc/self/maps) shows it: after that mapping and the
// anonymous read-write mappings that follow it without a gap (the heap
// grows upwards into its arenas, and maps them read-write as it does), the
// anonymous PROT_NONE mapping that follows at once, up to the end of the
// arena (aligned to arena bytes) that the heap ends in: the rest of the
// heap's current arena. 0 when the mappings are not laid out so.
func heapReserve(maps []byte, addr, arena uint64) uint64 {
	found := false
	var top uint64
	for _, line := range strings.Split(string(maps), "\n") {
		// start-end perms offset dev inode [path]
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		anon := f[4] == "0" && len(f) == 5
		if !found {
			if start <= addr && addr < end {
				if !anon || f[1] != "rw-p" {
					return 0
				}
				found, top = true, end
			}
			continue
		}
		switch {
		case start != top || !anon:
			return 0
		case f[1] == "rw-p":
			top = end
		case f[1] == "---p" && arena > 0 && top%arena != 0:
			return min(end, top-top%arena+arena) - top
		default:
			return 0
		}
	}
	return 0
}

func readFile(name string) []byte {
	b, _ := os.ReadFile(name)
	return b
}

// readUint reads a file holding one number; "max" (no limit) reads as not
// known.
func readUint(name string) (uint64, bool) {
	v, err := strconv.ParseUint(strings.TrimSpace(string(readFile(name))), 10, 64)
	return v, err == nil
}

// statField returns the value of key in a memory.stat file.
func statField(name, key string) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(readFile(name)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == key {
			v, err := strconv.ParseUint(f[1], 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// fieldKB returns the value of a "Key:   123 kB" line of /proc/meminfo or
// /proc/self/status.
func fieldKB(b []byte, key string) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == key {
			v, err := strconv.ParseUint(string(f[1]), 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// sub returns a-b, or 0 when b > a.
func sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// FormatBytes prints b in binary units: "512 B", "1.5 GiB", for the
// refusals that state what was needed and what is available.
func FormatBytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := uint64(unit), 0
	for n := b / unit; n >= unit; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}

// ParseBytes reads a size: a non-negative number of bytes with an
// optional unit K, M, G, T (powers of 1024, also written KiB, MiB, GiB,
// TiB, or KB, MB, GB, TB).
func ParseBytes(s string) (uint64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := uint64(1)
	for _, u := range []struct {
		suffix string
		mult   uint64
	}{{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		for _, form := range []string{u.suffix + "IB", u.suffix + "B", u.suffix} {
			if strings.HasSuffix(t, form) {
				t, mult = strings.TrimSpace(strings.TrimSuffix(t, form)), u.mult
				goto number
			}
		}
	}
	t = strings.TrimSpace(strings.TrimSuffix(t, "B"))
number:
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("size %q: want bytes with an optional unit (K, M, G, T)", s)
	}
	b := v * float64(mult)
	if b >= 1<<63 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return uint64(b), nil
}
