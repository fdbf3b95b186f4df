package sysmem

import (
	"syscall"
	"unsafe"
)

// rlimitBounds returns the headroom under RLIMIT_AS (ulimit -v) and
// RLIMIT_DATA (ulimit -d), which Linux charges every anonymous mapping to,
// Go's heap included: the limit minus VmSize or VmData. RLIMIT_AS charges
// the heap's arenas when they are reserved, and VmSize includes the rest of
// the current one (Headroom.Reserved); RLIMIT_DATA only what is mapped
// writable.
func rlimitBounds() []Headroom {
	var out []Headroom
	var status []byte
	for _, r := range []struct {
		res   int
		field string
		name  string
		arena uint64
	}{
		{syscall.RLIMIT_AS, "VmSize:", SourceAddressSpace, arenaBytes},
		{syscall.RLIMIT_DATA, "VmData:", SourceData, 0},
	} {
		var lim syscall.Rlimit
		if syscall.Getrlimit(r.res, &lim) != nil || lim.Cur == rlimInfinity {
			continue
		}
		if status == nil {
			status = readFile("/proc/self/status")
		}
		used, _ := fieldKB(status, r.field)
		h := Headroom{Bytes: sub(lim.Cur, used*1024), Source: r.name, Mapped: true, Arena: r.arena}
		if h.Arena > 0 {
			// The buffer holding the maps lies in the heap.
			maps := readFile("/proc/self/maps")
			rest := heapReserve(maps, uint64(uintptr(unsafe.Pointer(unsafe.SliceData(maps)))), h.Arena)
			h.Reserved = heapFree() + sub(rest, chunkBytes)
		}
		out = append(out, h)
	}
	return out
}

// rlimInfinity is RLIM_INFINITY as Getrlimit reports it.
const rlimInfinity = ^uint64(0)

// arenaBytes is the unit in which the Go runtime reserves heap address
// space on 64-bit Linux (heapArenaBytes).
const arenaBytes = 64 << 20
