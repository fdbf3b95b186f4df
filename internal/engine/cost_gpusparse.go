package engine

import (
	"math"

	gpuminplus "github.com/apsp/apsp/internal/gpu/minplus"
)

// maxSSSPLevels bounds the breadth-first levels of the graphs whose
// gpu-sssp time the estimate below knows (see there).
const maxSSSPLevels = 32

// gpu-sssp (internal/gpu/sssp) costs the GPU's start, the host's copy of
// the arcs, and per source its arcs (each relaxed a few times over: the
// frontier relaxation re-relaxes a vertex whose distance drops again) and
// its row of n lanes (init, reduce). The constants were fitted to device
// time on gnp graphs with weights 1..100 (docs/perf.md, "gpu-sssp and
// gpu-minplus"), rows in shared memory and rows past it (global rows),
// each taking the slowest cost a source's arc was measured at.
//
// Those graphs had a few breadth-first levels; a graph of long paths (a
// road network, a grid) makes each source's frontier relaxation run a
// round a hop of its shortest paths, which was not measured. Past
// maxSSSPLevels levels (one host BFS, as gpu-bitbfs's estimate) the
// estimate is +Inf, so auto leaves such graphs to the CPU's Dijkstra or
// the GPU's Floyd–Warshall; --algo gpu-sssp still runs them.
func (gpuSSSPEngine) Estimate(p *Problem) float64 { return ssspEstimate(p, p.Graph.N()) }

// EstimateFrom is the search from k chosen sources: the renumbering (host
// work of the order of the arcs) and k sources' searches.
func (gpuSSSPEngine) EstimateFrom(p *Problem, k int) float64 {
	return ssspEstimate(p, k) + 1.5e-9*float64(p.Graph.Arcs()+p.Graph.N())
}

// ssspEstimate is gpu-sssp's search from k sources.
func ssspEstimate(p *Problem, k int) float64 {
	g := p.Graph
	n, arcs := float64(g.N()), float64(g.Arcs())
	if g.N() == 0 {
		return 0
	}
	if bfsLevels(p) > maxSSSPLevels {
		return math.Inf(1)
	}
	const (
		host  = 1.5e-9  // seconds an arc and a vertex of host work
		arc   = 5e-11   // seconds an arc and source, rows in shared memory
		glob  = 1.4e-10 // the same with global rows
		lane  = 5e-13   // seconds a lane of a source's row (init, reduce)
		shMax = 55_000  // vertices whose row fits an H100's shared memory
	)
	per := arc*arcs + lane*n
	if g.N() > shMax {
		per = glob*arcs + lane*n
	}
	return GPUStartSeconds() + host*(arcs+n) + float64(k)*per
}

// gpu-minplus is never auto: its estimate is Floyd–Warshall's relaxation
// rate (slower: a plain 64-wide tile) for the most products it may run.
func (gpuMinPlusEngine) Estimate(p *Problem) float64 {
	n := float64(p.Graph.N())
	products := float64(gpuminplus.Products(p.Graph.N()))
	return GPUStartSeconds() + products*n*n*n/4e12 + 1.5e-9*(float64(p.Graph.Arcs())+n)
}
