package engine

import (
	"context"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/bulk"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// BulkFWName is the algorithm the GPU bulk Floyd–Warshall reports: many
// small integer-weighted graphs computed together on one GPU
// (bulk.FWRows), each graph's matrix in registers up to 128 vertices
// and blocked rounds launched once for all graphs beyond, in int16×2 lanes
// where a graph's plan holds them and int32 otherwise. Like BulkName it
// is not an engine of its own: a batch asked for on a GPU takes it.
const BulkFWName = "gpu-bulk-fw"

// BulkFWMaxN is the largest graph a batch sends to the bulk
// Floyd–Warshall. bulk.FWRows takes up to 16 384 vertices, but beyond a
// couple of thousand a graph's n³ work hides the one-graph engine's
// per-call cost (GPUStartSeconds once a GPU is open) and the one-graph
// engine keeps its other options (paths, float32 lanes).
const BulkFWMaxN = 2048

// BulkFWFits reports whether a batch sends g to the bulk Floyd–Warshall:
// integer weights, 1 to BulkFWMaxN vertices. Which lanes its lengths fit,
// and whether it has a negative cycle, bulk.FWRows decides
// per graph; the batch computes the graphs it refuses the one-graph way.
func BulkFWFits(g *graph.Graph) bool {
	return g != nil && g.Kind() == graph.IntWeights && g.N() >= 1 && g.N() <= BulkFWMaxN
}

// bulkFWRows is bulk.FWRows on GPU ordinal with the GPU's name: every
// source's summary of each graph of gs and the lanes it was computed in,
// errs[i] for a graph it does not take (ErrBulkFWGraph, a negative cycle),
// err for what fails them all.
func bulkFWRows(ctx context.Context, ordinal int, gs []*graph.Graph) (rows [][]reduce.Row, kinds []lanes.Kind, errs []error, device string, err error) {
	rows, kinds, errs, err = bulk.FWRows(ctx, gpu.OnGPU(ordinal), gs)
	if err != nil {
		return nil, nil, nil, "", err
	}
	return rows, kinds, errs, deviceName(ordinal), nil
}

// bulkFWWins reports whether "auto" should compute the graphs gs (each
// BulkFWFits) with the bulk Floyd–Warshall rather than one per CPU thread:
// only when a GPU is already open in this process (auto never pays its
// start-up for a batch) and the estimate is below the CPU's.
func bulkFWWins(gs []*graph.Graph, threads int) bool {
	if gpu.Opened() == 0 || len(gs) == 0 {
		return false
	}
	return bulkFWSeconds(gs) < batchWeightedCPUSeconds(gs, threads)
}

// bulkFWSeconds is the bulk Floyd–Warshall's estimated time for gs: a
// fixed 0.2 ms a call, the host's lane plan, upload and conversion (about
// 0.3 µs a graph and 5 ns a vertex and an arc), and n³ relaxations at
// 10^13 a second (fitted to the kernels' rate from 128 vertices up,
// docs/perf.md, "Bulk Floyd–Warshall on the GPU"; smaller graphs run at a
// lower rate, where the host's share dominates anyway).
func bulkFWSeconds(gs []*graph.Graph) float64 {
	t := 2e-4
	for _, g := range gs {
		n := float64(g.N())
		t += 3e-7 + 5e-9*(n+float64(g.Arcs())) + n*n*n/1e13
	}
	return t
}

// batchWeightedCPUSeconds is the estimated time of gs on the CPU, one
// graph per thread, each by the faster of the blocked Floyd–Warshall and
// Dijkstra (what auto picks for an integer-weighted graph).
func batchWeightedCPUSeconds(gs []*graph.Graph, threads int) float64 {
	var t float64
	for _, g := range gs {
		p := &Problem{Graph: g, Threads: 1}
		t += math.Min(blocked{}.Estimate(p), dijkstraEngine{}.Estimate(p))
	}
	return t / float64(max(threads, 1))
}
