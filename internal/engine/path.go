package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/dijkstra"
	"github.com/apsp/apsp/internal/lanes"
)

// ErrNoPath is wrapped when the target cannot be reached.
var ErrNoPath = errors.New("no path")

// OnePath is one shortest path and its length: Int for exact distances,
// Float for float ones.
type OnePath struct {
	Vertices []int
	Int      int64
	Float    float64
	IsFloat  bool
}

// PathFrom answers one pair without all pairs: Dijkstra on non-negative
// weights (breadth-first order when unweighted) and Bellman–Ford (after the
// negative-cycle check) otherwise. It records parents and walks them back
// from v.
func PathFrom(ctx context.Context, g *graph.Graph, u, v int) (OnePath, error) {
	if _, err := lanes.PlanFor(g); err != nil {
		return OnePath{}, err
	}
	if err := cpu.FindNegativeCycle(ctx, g); err != nil {
		return OnePath{}, err
	}
	float := g.Kind() == graph.FloatWeights
	var parent []int32
	var dist []float64
	var idist []int64
	switch {
	case g.HasNegativeWeights() && float:
		dist, parent = dijkstra.BellmanFordFrom(g, u, g.ArcFloat)
	case g.HasNegativeWeights():
		idist, parent = dijkstra.BellmanFordFrom(g, u, g.ArcInt)
	case float:
		dist, parent = dijkstra.From(g, u, g.ArcFloat)
	default:
		idist, parent = dijkstra.From(g, u, g.ArcInt)
	}
	if parent[v] < 0 && u != v {
		return OnePath{}, fmt.Errorf("from %d to %d: %w", u, v, ErrNoPath)
	}
	var rev []int
	for x := v; x != u; x = int(parent[x]) {
		rev = append(rev, x)
		if len(rev) > g.N() {
			return OnePath{}, fmt.Errorf("parent chain from %d to %d loops (a bug)", u, v)
		}
	}
	p := OnePath{Vertices: []int{u}, IsFloat: float}
	for i := len(rev) - 1; i >= 0; i-- {
		p.Vertices = append(p.Vertices, rev[i])
	}
	if float {
		p.Float = dist[v]
	} else {
		p.Int = idist[v]
	}
	return p, nil
}
