package plan

import (
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/lanes"
)

// The choices besides one all-pairs engine: how a single path is found,
// whether the extremes start with the bounds method, which graphs of a
// batch a batch engine takes. Each is made here, from the parsed options,
// so that the executor only follows them.

// PathSearch reports whether one shortest path is found by a search from
// its source alone (breadth-first, Dijkstra or Bellman–Ford:
// engine.PathFrom) rather than by all pairs with successors: under "auto"
// off the GPU. A named engine or a GPU computes all pairs.
func PathSearch(o *Options) bool { return o.Auto() && o.Device.Kind != "gpu" }

// BoundsFirst reports whether the extremes (diameter and radius) of g
// start with the bounds method: when it is named, or under "auto" for an
// unweighted graph off the GPU with no lanes named but its int32.
// Budgeted says whether it runs on a budget, after which an all-pairs
// engine answers: under "auto" only.
func BoundsFirst(g *graph.Graph, o *Options) (first, budgeted bool) {
	if o.Bounds {
		return true, false
	}
	auto := o.Auto() && o.Device.Kind != "gpu" && g.Kind() == graph.Unweighted &&
		(!o.LanesNamed || o.Lanes == lanes.Int32)
	return auto, auto
}

// BatchMay reports whether batch engine e may take graphs under o: the
// engine left to "auto", no lanes named that e does not compute in, and a
// device other than the CPU. On the "auto" device it takes them only
// when BatchWins says so as well.
func BatchMay(o *Options, e engine.BatchEngine) bool {
	return o.Auto() && o.Device.Kind != "cpu" && (!o.LanesNamed || e.TakesLanes(o.Lanes))
}

// BatchWins reports whether e takes gs under o, which BatchMay allowed:
// always on a GPU asked for, and on the "auto" device when its estimate
// beats the CPU batch on threads threads (engine.BatchEngine.Wins).
func BatchWins(o *Options, e engine.BatchEngine, gs []*graph.Graph, threads int) bool {
	return o.Device.Kind == "gpu" || e.Wins(gs, threads)
}
