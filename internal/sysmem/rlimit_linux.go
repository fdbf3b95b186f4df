package sysmem

import "syscall"

// rlimitBounds returns the headroom under RLIMIT_AS (ulimit -v) and
// RLIMIT_DATA (ulimit -d), which Linux charges every anonymous mapping to,
// Go's heap included: the limit minus VmSize or VmData.
func rlimitBounds() []Headroom {
	var out []Headroom
	var status []byte
	for _, r := range []struct {
		res   int
		field string
		name  string
		per   uint64
	}{
		{syscall.RLIMIT_AS, "VmSize:", "ulimit -v", arenaBytes},
		{syscall.RLIMIT_DATA, "VmData:", "ulimit -d", 0}, // only what is mapped writable counts
	} {
		var lim syscall.Rlimit
		if syscall.Getrlimit(r.res, &lim) != nil || lim.Cur == rlimInfinity {
			continue
		}
		if status == nil {
			status = readFile("/proc/self/status")
		}
		used, _ := fieldKB(status, r.field)
		out = append(out, Headroom{Bytes: sub(lim.Cur, used*1024), Source: r.name, Mapped: true, PerAllocation: r.per})
	}
	return out
}

// rlimInfinity is RLIM_INFINITY as Getrlimit reports it.
const rlimInfinity = ^uint64(0)

// arenaBytes is the unit in which the Go runtime reserves heap address
// space on 64-bit Linux (heapArenaBytes).
const arenaBytes = 64 << 20
