// Package sysmem tells how much memory the process may still allocate, so
// that apsp refuses a size that cannot fit with a clear error instead of
// being killed by the allocation.
package sysmem

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
)

// Available returns the smaller of MemAvailable in /proc/meminfo and the Go
// memory limit (GOMEMLIMIT or debug.SetMemoryLimit), and whether either is
// known.
func Available() (uint64, bool) {
	avail, ok := uint64(0), false
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := bytes.Fields(sc.Bytes())
			if len(f) >= 2 && string(f[0]) == "MemAvailable:" {
				if kb, err := strconv.ParseUint(string(f[1]), 10, 64); err == nil {
					avail, ok = kb*1024, true
				}
			}
		}
	}
	if lim := debug.SetMemoryLimit(-1); lim > 0 && lim < 1<<62 {
		if !ok || uint64(lim) < avail {
			avail, ok = uint64(lim), true
		}
	}
	return avail, ok
}
