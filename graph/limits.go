package graph

import (
	"fmt"
	"strconv"

	"github.com/apsp/apsp/internal/sysmem"
)

// vertexLimit returns the most vertices a graph read now may have. Build
// allocates an offsets slice of n+1 ints before anything else, so a header
// that claims a huge n could exhaust memory with a tiny file. Beyond the hard
// cap MaxVertices, when a memory limit is set (GOMEMLIMIT or
// debug.SetMemoryLimit) or the system's available memory is known, the
// offsets may take at most half of it.
func vertexLimit() int {
	maxN := MaxVertices
	if avail, ok := sysmem.Available(); ok {
		const intSize = strconv.IntSize / 8
		n := min(avail/2/intSize, uint64(maxN)+1) - 1
		maxN = int(max(0, n))
	}
	return maxN
}

// tooLarge describes a vertex count or id beyond maxN.
func tooLarge(what string, maxN int) error {
	if maxN == MaxVertices {
		return fmt.Errorf("%s: %w (at most %d vertices)", what, ErrTooLarge, maxN)
	}
	return fmt.Errorf("%s: %w (at most %d vertices fit in half the available memory)", what, ErrTooLarge, maxN)
}
