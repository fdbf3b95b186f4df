package apsp

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/bounds"
	"github.com/apsp/apsp/internal/cpu"
)

// BoundsAlgorithm names the diameter-by-bounds method in Options.Algorithm
// and in results; it answers diameter and radius only.
const BoundsAlgorithm = "bounds"

// errBoundsOnly is returned when "bounds" is asked for more than it gives.
var errBoundsOnly = errors.New(`algorithm bounds computes only the diameter and radius (apsp diameter, apsp stats --no-aspl)`)

// The budget of the bounds method under "auto". Bounds needs tens of
// searches on real networks but thousands on expanders (random regular
// graphs), where the all-pairs engines are far faster, so under "auto" it
// may spend boundsShare of the estimated all-pairs time (estimateSeconds
// of the cheaper of bitbfs and blocked, the CPU engines auto would pick
// for an unweighted graph) and then hands over to the all-pairs path, so
// the worst case is about 1.25 times the all-pairs time when the estimate
// is right (bitbfs on random 4-regular graphs, n = 100 000: 3.0 s
// measured, 3.3 s estimated).
//
// boundsUnitSeconds converts that time into searches: the cost of one
// unit of bounds.Options.Budget's work (a vertex reached or an arc
// scanned, with the bookkeeping around each search), measured on this
// 2-core machine on random graphs, whose searches jump around memory
// most: 5.4 ns at n = 20 000 and 7.7 ns at n = 100 000 for 4-regular
// graphs (3.5 s for 6 564 searches, 325 s for 84 253); 4.5 ns for a
// random digraph of n = 20 000 and out-degree 4 made strongly connected
// by a Hamiltonian cycle, 8.6 ns for one without the cycle, with
// --reachable. Real networks, searched in the renumbered order, cost less
// per unit, so they get more searches than the share says.
//
// boundsMinSeconds is a floor: on small graphs the estimate (microseconds)
// is below the all-pairs engines' fixed costs, and a fallback could save
// at most that much.
const (
	boundsShare       = 0.25
	boundsUnitSeconds = 6e-9
	boundsMinSeconds  = 1e-3
)

// boundsBudget returns the work bounds may spend on g under "auto", in
// searches of the whole graph (bounds.Options.Budget).
func boundsBudget(g *graph.Graph, threads int) float64 {
	allPairs := math.Min(estimateSeconds("bitbfs", g, threads), estimateSeconds("blocked", g, threads))
	seconds := math.Max(boundsShare*allPairs, boundsMinSeconds)
	return seconds / (boundsUnitSeconds * float64(g.N()+g.Arcs()))
}

// ComputeExtremes returns the diameter, radius and connectivity of g without
// the ASPL. For unweighted graphs under "auto" (or "bounds") it needs no
// all-pairs computation: the bounding-diameters method (Takes & Kosters)
// runs a few breadth-first searches and reports how many in
// Stats.Traversals. Under "auto" the bounds method has a budget of a
// share of the estimated all-pairs time (boundsBudget); when it runs out
// the answer comes from ComputeStats instead, Stats.Algorithm names the
// engine that gave it and Stats.Traversals still counts the searches spent
// before. "bounds" asked for by name has no budget. Other graphs go
// through ComputeStats. ASPL, reachable pairs, center and periphery are
// left unset (ASPL is NaN, null in JSON).
//
// The radius is the smallest eccentricity; without opt.Reachable a vertex
// that does not reach every other has an infinite one, so a directed graph
// that is not strongly connected has a finite radius (and an infinite
// diameter) when one strong component reaches all the others.
func ComputeExtremes(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	return computeExtremes(ctx, g, opt, boundsBudget)
}

// computeExtremes is ComputeExtremes with the budget of "auto" given by
// budget (which tests make tiny).
func computeExtremes(ctx context.Context, g *graph.Graph, opt Options, budget func(*graph.Graph, int) float64) (*Stats, error) {
	if g.N() == 0 {
		return nil, ErrEmptyGraph
	}
	kind, _, err := parseDevice(opt.Device)
	if err != nil {
		return nil, err
	}
	auto := opt.Algorithm == "" || opt.Algorithm == "auto"
	useBounds := opt.Algorithm == BoundsAlgorithm || (auto && kind != "gpu" && g.Kind() == graph.Unweighted)
	if !useBounds {
		return extremesFromStats(ctx, g, opt)
	}
	if g.Kind() != graph.Unweighted {
		return nil, errNeedsUnweighted
	}
	start := time.Now()
	if err := checkBounds(g); err != nil {
		return nil, err
	}
	bopt := bounds.Options{Reachable: opt.Reachable, Threads: opt.Threads, WantRadius: true}
	if auto {
		bopt.Budget = budget(g, cpu.Threads(opt.Threads))
	}
	r, err := bounds.Diameter(ctx, g, bopt)
	if auto && errors.Is(err, bounds.ErrBudget) {
		s, err := extremesFromStats(ctx, g, opt)
		if err != nil {
			return nil, err
		}
		s.Traversals = r.Traversals
		s.Seconds = time.Since(start).Seconds()
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s := &Stats{
		Vertices: g.N(), Arcs: g.Arcs(), Edges: g.Edges(), Directed: g.Directed(), Weighted: false,
		Connected: r.Connected, Reachable: opt.Reachable, NoASPL: true, ASPL: Mean(math.NaN()), ReachablePairs: -1,
		Algorithm: BoundsAlgorithm, Device: "cpu", Lanes: "int32", Threads: cpu.Threads(opt.Threads), Traversals: r.Traversals,
		Diameter: boundsLength(r.Diameter), Radius: boundsLength(r.Radius),
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// boundsLength converts a distance of package bounds.
func boundsLength(d int64) Length {
	if d == bounds.Infinite {
		return Infinite(false)
	}
	return IntLength(d)
}

// extremesFromStats is ComputeExtremes through ComputeStats.
func extremesFromStats(ctx context.Context, g *graph.Graph, opt Options) (*Stats, error) {
	s, err := ComputeStats(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	s.NoASPL = true
	s.ASPL, s.ReachablePairs, s.Center, s.Periphery = Mean(math.NaN()), -1, nil, nil
	return s, nil
}
