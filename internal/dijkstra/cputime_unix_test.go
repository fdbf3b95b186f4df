//go:build unix

package dijkstra

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process has used, which other
// programs sharing the machine do not inflate as they do wall time.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
