package apsp

import (
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/sysmem"
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
	return checkBytes(n, need, lanes, paths)
}

// checkBytes refuses a computation that needs more host memory than is
// available.
func checkBytes(n int, need uint64, lanes cpu.LaneKind, paths bool) error {
	avail, ok := sysmem.Available()
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
