package bounds

import (
	"math"

	"github.com/apsp/apsp/internal/csr"
)

// The searches are csr.BFS: with dist -1 wherever a search may go, over
// the package's relabelled arcs, the reversed arcs, or (for the first
// search, whose order becomes the numbering) the graph's own, csr.Of(g).

// scratch is one goroutine's search state. dist is -1 everywhere between
// searches; clearing only the reached vertices keeps searches inside small
// components cheap.
type scratch struct {
	dist    []int32
	queue   []int32
	reached int
	arcs    int // scanned by the last search
}

func newScratch(n int) *scratch {
	s := &scratch{dist: make([]int32, n), queue: make([]int32, n)}
	for i := range s.dist {
		s.dist[i] = -1
	}
	return s
}

// run searches a from src and returns the eccentricity of src.
func (s *scratch) run(a *csr.CSR, src int32) int32 {
	s.reached, s.arcs = a.BFS(src, -1, s.dist, s.queue)
	return s.dist[s.queue[s.reached-1]]
}

// work is the cost of the last search for the budget: vertices reached
// plus arcs scanned.
func (s *scratch) work() int { return s.reached + s.arcs }

// far returns a vertex farthest from the last source.
func (s *scratch) far() int32 { return s.queue[s.reached-1] }

func (s *scratch) clear() {
	for _, v := range s.queue[:s.reached] {
		s.dist[v] = -1
	}
	s.reached = 0
}

// sat adds two distances, saturating where an int32 would overflow (only
// paths of over 2^30 vertices get there).
func sat(a, b int32) int32 {
	return int32(min(int64(a)+int64(b), math.MaxInt32))
}

// middle walks steps arcs back from b towards the source of dist (the
// search that reached b) and returns where it stops: with steps =
// dist[b]-dist[b]/2 that is a middle vertex of a shortest path. It takes
// the predecessors in turn rather than always the first, so that on grids
// the path is a staircase whose middle is central, not an L through a
// corner.
func middle(a *csr.CSR, dist []int32, b int32, steps int32) int32 {
	turn := 0
	for range steps {
		want := dist[b] - 1
		var preds [4]int32
		k := 0
		for _, x := range a.Nbrs(b) {
			if dist[x] == want {
				if k < len(preds) {
					preds[k] = x
				}
				k++
			}
		}
		b = preds[turn%min(k, len(preds))]
		turn++
	}
	return b
}
