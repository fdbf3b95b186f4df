package apsp

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cpu"
	"github.com/apsp/apsp/internal/dijkstra"
)

// singleSourcePath answers one pair without all pairs: breadth-first search
// on unweighted graphs, Dijkstra on non-negative weights, and Bellman–Ford
// (after the negative-cycle check) otherwise. It records parents and walks
// them back from v.
func singleSourcePath(ctx context.Context, g *graph.Graph, u, v int) (Path, error) {
	if _, err := cpu.PlanLanes(g); err != nil {
		return Path{}, err
	}
	if err := cpu.FindNegativeCycle(ctx, g); err != nil {
		return Path{}, err
	}
	float := g.Kind() == graph.FloatWeights
	var parent []int32
	var dist []float64
	var idist []int64
	switch {
	case g.HasNegativeWeights():
		if float {
			dist, parent = dijkstra.BellmanFordFrom(g, u, g.ArcFloat)
		} else {
			idist, parent = dijkstra.BellmanFordFrom(g, u, g.ArcInt)
		}
	case float:
		dist, parent = dijkstra.From(g, u, g.ArcFloat)
	default:
		idist, parent = dijkstra.From(g, u, g.ArcInt)
	}
	if parent[v] < 0 && u != v {
		return Path{}, fmt.Errorf("from %d to %d: %w", u, v, ErrNoPath)
	}
	var rev []int
	for x := v; x != u; x = int(parent[x]) {
		rev = append(rev, x)
		if len(rev) > g.N() {
			return Path{}, fmt.Errorf("parent chain from %d to %d loops (a bug)", u, v)
		}
	}
	vs := []int{u}
	for i := len(rev) - 1; i >= 0; i-- {
		vs = append(vs, rev[i])
	}
	if float {
		return Path{Vertices: vs, Length: FloatLength(dist[v])}, nil
	}
	return Path{Vertices: vs, Length: IntLength(idist[v])}, nil
}
