package plan

import (
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/sysmem"
)

// The budget of the bounds method under "auto". Bounds needs tens of
// searches on real networks but thousands on expanders (random regular
// graphs), where the all-pairs engines are far faster, so under "auto" it
// may spend boundsShare of the estimated all-pairs time (AllPairsSeconds:
// the CPU engine auto would pick) and then hands over to the all-pairs
// path, so the worst case is about 1.25 times the all-pairs time when the
// estimate is right (for bitbfs on random regular graphs it is close:
// docs/perf.md, "CPU: sparse and unweighted graphs").
//
// boundsUnitSeconds converts that time into searches: the cost of one
// unit of bounds.Options.Budget's work (a vertex reached or an arc
// scanned, with the bookkeeping around each search), fitted to bounds
// runs on random graphs, whose searches jump around memory most (random
// regular graphs, and random digraphs with and without --reachable; the
// cost a unit grows with n; docs/perf.md, "CPU: sparse and unweighted
// graphs"). Real networks, searched in the renumbered order, cost less
// per unit, so they get more searches than the share says.
//
// boundsMinSeconds is a floor: on small graphs the share of the estimate
// (microseconds) is below what a few searches cost, so the budget is at
// least this much — but never more than the all-pairs estimate itself, so
// that a small expander, where bounds needs a search from almost every
// vertex, costs at most about twice the all-pairs run (without that cap,
// the floor alone made ComputeExtremes on a 1024-vertex 16-regular graph
// an order of magnitude slower than ComputeStats).
const (
	boundsShare       = 0.25
	boundsUnitSeconds = 6e-9
	boundsMinSeconds  = 1e-3
)

// BoundsBudget returns the work the bounds method may spend on g under
// "auto", in searches of the whole graph (bounds.Options.Budget).
func BoundsBudget(g *graph.Graph, threads int) float64 {
	all := AllPairsSeconds(g, threads)
	seconds := math.Max(boundsShare*all, math.Min(boundsMinSeconds, all))
	return seconds / (boundsUnitSeconds * float64(g.N()+g.Arcs()))
}

// boundsWork returns what bounds.Diameter allocates besides the graph,
// counted from internal/bounds: for a directed graph 138 bytes a vertex and
// 8 an arc (forward and backward scratch 16n; the renumbered arcs and their
// transpose 16n + 8m, and its fill 8n; Tarjan's comp, members, index, low
// 16n and its stacks, growing by append, up to 2.25·(4 + 16)n = 45n; the
// six bounds arrays 24n; component starts, their fill, pivots and the
// entered flags of sourceComponent 13n);
// for an undirected one 46 bytes a vertex and 4 an arc (dist, order and
// inv 12n; the renumbered arcs 8n + 4m; lo and hi 8n; the components, up
// to one a vertex, appended 8-byte records, 18n).
func boundsWork(g *graph.Graph) uint64 {
	n, m := uint64(g.N()), uint64(g.Arcs())
	if g.Directed() {
		return 138*n + 8*m
	}
	return 46*n + 4*m
}

// AdmitBounds refuses the bounds method on g when its working memory would
// not fit in what is available now.
func AdmitBounds(g *graph.Graph) error {
	need := boundsWork(g)
	h, avail, ok := sysmem.LowestFor(16)
	if !ok || need <= avail {
		return nil
	}
	return fmt.Errorf("bounds: %d vertices and %d arcs need %s but only %s is available (%s): %w",
		g.N(), g.Arcs(), FormatBytes(need), FormatBytes(avail), h.Source, graph.ErrTooLarge)
}
