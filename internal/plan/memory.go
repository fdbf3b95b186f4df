package plan

import (
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/sysmem"
)

// allocs bounds the large allocations of an engine run on threads threads,
// each of which may need a new heap arena under ulimit -v (sysmem's Slack):
// bitbfs makes 14 (transpose 3, CSR copy 2, a worker's 7, rows,
// eccentricities), the others a few shared and 3 per thread.
func allocs(threads int) int { return 16 + 3*max(threads, 1) }

// smallRun is the working memory below which admission is not checked.
const smallRun = 8 << 20

// admit refuses a run needing need bytes besides the graph when that is
// more than the process may still take, naming both figures.
func admit(what string, g *graph.Graph, need uint64, threads int) error {
	// A run this small cannot swap for long, and reading the bounds
	// (/proc, the cgroup) would cost more than a small GPU call's set-up.
	if need < smallRun {
		return nil
	}
	h, avail, ok := sysmem.LowestFor(allocs(threads))
	if !ok || need <= avail {
		return nil
	}
	return fmt.Errorf("%s of %d vertices and %d arcs need %s but only %s is available (%s): %w",
		what, g.N(), g.Arcs(), FormatBytes(need), FormatBytes(avail), h.Source, graph.ErrTooLarge)
}

// FormatBytes writes b in binary units.
func FormatBytes(b uint64) string { return sysmem.FormatBytes(b) }
