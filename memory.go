package apsp

import (
	"fmt"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/reduce"
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
	_, avail, ok := sysmem.LowestFor(3) // the matrix, successors, a copy
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

// Working memory of the CPU engines besides the graph and the distance
// matrix, counted from their allocations (n vertices, m arcs, t threads):
//
//   - bitbfs (internal/bfs/bitbfs.go): the transpose of a directed graph,
//     8n + 20m at its peak (offsets; Builder buffer 16m and heads 4m); the
//     kernels' CSR copy 8n + 4m; per batch worker visited, cur and next
//     (3·8·W bytes a vertex, W ≤ 8 words), curList, nextList and cnts
//     (12n), and acc (16n) for a summary or buf (64·W n) for the matrix.
//     A worker's scratch is 220n (summary) or 716n (matrix) at W = 8; on
//     large graphs there is one worker, on small ones several within a
//     16 MiB cache budget, which bitWorkers bounds.
//   - bfs (internal/bfs/bfs.go): dist and queue, 8n per thread.
//   - dijkstra (internal/dijkstra): the packed layout, 8n + 8m (int32
//     lengths) or 8n + 16m; per thread dist (≤ 8n), order (4n) and the
//     queue's entries (8 or 16 bytes; counted once per vertex, 16n).
//   - johnson: dijkstra's plus the potentials, 21n (h, hops, parent,
//     inQueue, queue), or the negative-cycle check before them, 17n.
//   - a summary (Rows): the rows, and the eccentricities, centre and
//     periphery the statistics derive from them: rowVertexBytes.
//   - bounds (internal/bounds): boundsWork.
const (
	bitWorkerSummary = 3*8*8 + 12 + 16
	bitWorkerMatrix  = 3*8*8 + 12 + 64*8
	bitCacheBudget   = 16 << 20
	perThreadBFS     = 8
	perThreadSearch  = 8 + 4 + 16
	potentialBytes   = 21
	rowVertexBytes   = uint64(unsafe.Sizeof(reduce.Row{})) + uint64(unsafe.Sizeof(Length{})) + 2*8
)

// workBytes returns what engine name allocates besides the graph and the
// distance matrix to summarise every source (dense false) or to fill the
// matrix (dense true).
func workBytes(name string, g *graph.Graph, threads int, dense bool) uint64 {
	n, m, t := uint64(g.N()), uint64(g.Arcs()), uint64(cpu.Threads(threads))
	if name == "bfs" && dense {
		name = "bitbfs" // bfs.Matrix runs the batched search
	}
	var need uint64
	if !dense {
		need = n * rowVertexBytes
	}
	switch name {
	case "bitbfs":
		need += 8*n + 4*m
		if g.Directed() {
			need += 8*n + 20*m
		}
		per := uint64(bitWorkerSummary)
		if dense {
			per = bitWorkerMatrix
		}
		// defaultConfig runs several workers only while their visited,
		// cur and next (192n at W = 8) fit the cache budget together.
		need += max(per*n, bitCacheBudget/(3*8*8)*per)
	case "bfs":
		need += t * perThreadBFS * n
	case "dijkstra", "johnson":
		arc := uint64(16)
		if plan, err := cpu.PlanLanes(g); err == nil && plan.Lanes == cpu.Int32 {
			arc = 8
		}
		need += 8*n + arc*m + t*perThreadSearch*n
		if name == "johnson" {
			need += potentialBytes * n
		}
	}
	return need
}

// engineAllocs bounds the large allocations of an engine run on threads
// threads, each of which may cost sysmem.Headroom.PerAllocation more than
// its size: bitbfs makes 14 (transpose 3, CSR copy 2, a worker's 7, rows,
// eccentricities), the others a few shared and 3 per thread.
func engineAllocs(threads int) int { return 16 + 3*cpu.Threads(threads) }

// checkWork refuses to run engine e on p when its working memory (and, when
// dense, the distance matrix and any successor matrix) would not fit in
// what is available now, the graph being already held.
func checkWork(e Engine, p *Problem, dense bool) error {
	g := p.Graph
	need := workBytes(e.Name(), g, p.Threads, dense)
	lanes := cpu.Int32
	if dense {
		if plan, err := cpu.PlanLanes(g); err == nil && e.Name() != "bfs" && e.Name() != "bitbfs" {
			lanes = plan.Lanes
		}
		cells, err := cpu.MatrixBytes(g.N(), lanes)
		if err != nil {
			return err
		}
		need += cells
		if p.Paths {
			succ, err := cpu.MatrixBytes(g.N(), cpu.Int32)
			if err != nil {
				return err
			}
			need += succ
		}
	}
	h, avail, ok := sysmem.LowestFor(engineAllocs(p.Threads))
	if !ok || need <= avail {
		return nil
	}
	what := "summaries of every source"
	if dense {
		what = "the distance matrix and working memory"
	}
	return fmt.Errorf("%s: %s of %d vertices and %d arcs need %s but only %s is available (%s): %w",
		e.Name(), what, g.N(), g.Arcs(), fmtBytes(need), fmtBytes(avail), h.Source, graph.ErrTooLarge)
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

// checkBounds refuses the bounds method on g when its working memory would
// not fit in what is available now.
func checkBounds(g *graph.Graph) error {
	need := boundsWork(g)
	h, avail, ok := sysmem.LowestFor(16)
	if !ok || need <= avail {
		return nil
	}
	return fmt.Errorf("bounds: %d vertices and %d arcs need %s but only %s is available (%s): %w",
		g.N(), g.Arcs(), fmtBytes(need), fmtBytes(avail), h.Source, graph.ErrTooLarge)
}
