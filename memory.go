package apsp

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
)

// checkMemory refuses a dense computation whose matrices cannot fit, with the
// size named, instead of letting the allocation kill the process.
func checkMemory(n, stride int, lanes cpu.LaneKind, paths bool) error {
	need, err := cpu.MatrixBytes(stride, lanes)
	if err != nil {
		return err
	}
	if paths {
		succ, err := cpu.MatrixBytes(stride, cpu.Int32)
		if err != nil {
			return err
		}
		need += succ
	}
	avail, ok := availableMemory()
	if ok && need > avail {
		what := "distance matrix"
		if paths {
			what = "distance and successor matrices"
		}
		return fmt.Errorf("the %s for %d vertices need %s (%s lanes) but only %s is available: %w",
			what, n, fmtBytes(need), lanes, fmtBytes(avail), graph.ErrTooLarge)
	}
	return nil
}

// availableMemory returns what the process may still allocate: the smaller
// of MemAvailable in /proc/meminfo and the Go memory limit, when known.
func availableMemory() (uint64, bool) {
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

func fmtBytes(b uint64) string {
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
