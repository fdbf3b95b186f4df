package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/bulk"
)

// BulkName is the algorithm the GPU bulk search reports: many small
// unweighted graphs searched together on one GPU (bulk.Rows), a thread
// block per graph. It is not an engine of its own: a batch of graphs asked
// for on a GPU takes it (apsp.StatsBatch).
const BulkName = "gpu-bulk"

// BulkFits reports whether the GPU bulk search takes g: unweighted, with 1
// to bulk.MaxN vertices, and past bulk.AnyGPUMaxN not where the GPUs
// already known (a loaded driver's; BulkFits never loads it, so that
// "auto" on the CPU pays nothing for asking) lack the shared memory for
// its frontiers. The bulk call checks its GPU again and refuses such a
// graph, which the batch then computes the one-graph way.
func BulkFits(g *graph.Graph) bool {
	if g == nil || g.Kind() != graph.Unweighted || g.N() < 1 || g.N() > bulk.MaxN {
		return false
	}
	if g.N() <= bulk.AnyGPUMaxN {
		return true
	}
	infos, _ := gpu.LoadedDevices()
	for _, in := range infos {
		if !bulk.FitsShared(g.N(), in.MaxShared) {
			return false
		}
	}
	return true
}

// bulkSummaries is the bulk search's rows reduced on the GPU to each graph's pairs,
// distance sum and largest distance (bulk.Summary): only those bytes
// come back, which is what makes one graph a call cheap.
func bulkSummaries(ctx context.Context, ordinal int, gs []*graph.Graph) ([]bulk.Summary, string, error) {
	sums, err := bulk.Summaries(ctx, gpu.OnGPU(ordinal), gs)
	if err != nil {
		return nil, "", err
	}
	return sums, deviceName(ordinal), nil
}

// BulkWins reports whether "auto" should search the graphs gs (each
// BulkFits) with the bulk search rather than one per CPU thread: only when
// a GPU is already open in this process (auto never pays the driver's and
// the context's start-up for a batch) and the bulk search's estimate is
// below the CPU's with threads threads.
func BulkWins(gs []*graph.Graph, threads int) bool {
	if gpu.Opened() == 0 || len(gs) == 0 {
		return false
	}
	return bulkSeconds(gs) < batchCPUSeconds(gs, threads)
}

// bulkSeconds is the bulk search's estimated time for gs, the reduction
// of its rows on the host included: a fixed 0.1 ms a call and 3.5 ns per
// vertex and per four arcs, fitted to batches of random 16-regular graphs
// of 1024 vertices with the rows reduced on every host core (docs/perf.md,
// "Many graphs: `StatsBatch` and `apsp bulk`"), where the host's share
// was most of a graph's time and the search the lesser part.
func bulkSeconds(gs []*graph.Graph) float64 {
	t := 1e-4
	for _, g := range gs {
		t += 3.5e-9 * (float64(g.N()) + float64(g.Arcs())/4)
	}
	return t
}

// batchCPUSeconds is the estimated time of the bit-parallel BFS on gs, one
// graph per thread: their one-thread estimates over the threads.
func batchCPUSeconds(gs []*graph.Graph, threads int) float64 {
	var t float64
	e := bfsEngine{bitParallel: true}
	for _, g := range gs {
		t += e.Estimate(&Problem{Graph: g, Threads: 1})
	}
	return t / float64(max(threads, 1))
}
