// Package bulk computes many small graphs at once on one NVIDIA GPU (the
// thesis' bulk execution), in two families that share the batching: the
// bulk search of unweighted graphs and the bulk Floyd–Warshall of integer
// graphs.
//
// Rows, Summaries and Stream (bulk.go, kernels/bulkbfs.cu) search
// unweighted graphs of at most MaxN vertices, a thread block per graph (or
// part of its sources) running a bit-parallel breadth-first search: a
// thread a vertex up to 1 024 vertices, then (mid-size graphs, the
// annealing of larger networks) 1 024 threads of up to 16 vertices each,
// batches of 32 sources, the graph's frontiers in shared memory; only
// the per-vertex summaries (reduce.Row, as internal/bfs.BitRows gives
// them) or one Summary a graph (diameter, distance sum, pairs, whether
// connected) cross the bus. Stream cuts the batch into groups delivered in
// order as each is done, spread over several CUDA streams so that copies
// overlap kernels (the low-latency bulk execution). A graph it cannot take
// is refused (ErrGraph) before the GPU is touched.
//
// EditSummaries (edits.go) is Summaries of many edited copies of one graph
// of up to 1 024 vertices (a search's edge swaps, graph.ArcEdits): the
// graph's arcs go to the GPU once and each copy as its arc edits, which
// its block writes into its shared-memory table of the arcs. A graph whose
// table does not fit that GPU's shared memory is refused (ErrGraph) after
// its shared memory is looked up, and the caller builds the copies.
//
// FWRows and FWMatrices (bulkfw.go, kernels/bulkfw.cu built on
// kernels/fw.cu) run Floyd–Warshall on integer graphs of at most FWMaxN
// vertices, negative lengths allowed, in packed int16×2 lanes where a
// graph's lane plan holds them and int32 otherwise, grouped by lanes and
// padded size: up to 128 vertices a graph lives in the registers of a part
// of a warp, two warps or a block, built from its arcs and reduced in the
// same kernel; larger graphs run blocked rounds whose phases are launched
// once for all graphs of a group. Each graph's refusal (ErrFWGraph) or
// negative cycle (NegativeCycleError, found on the host first) is its own
// error; the other graphs are computed.
//
// Placements. A batch runs on one GPU: gpu.OnGPU, or gpu.OnGPUs listing
// one. Several GPUs, every GPU and MPI ranks are refused
// (gpu.ErrPlacement) before anything runs.
package bulk
