// Package gpu runs the blocked Floyd–Warshall algorithm on NVIDIA GPUs
// through package cuda: the multi-kernel form (three launches a round, after
// Lund & Smith) and the single-kernel soft-synchronisation form (SKSS, one
// launch whose blocks take tasks from an atomic counter in topological order
// and wait on per-tile completion flags), in int32 (DPX on Hopper),
// float32, and packed int16×2 (`__viaddmin_s16x2`) or int8×4 (SWAR) lanes,
// a row-major matrix whose column j is lane j%L of word j/L; packed lanes
// store a weight above their infinity as infinity.
//
// Beyond 4 096 vertices the multi-kernel form runs coarse rounds in int32
// and int16 lanes (coarse.go, Config.Coarse): pivot blocks of 2 048
// vertices closed by the tile rounds, every other row passed through each
// block in long min-plus products (fw_strip), the schedule of the
// out-of-core form (outofcore.go) without its copies.
//
// Every call runs on the process's GPU runtime (package gpu/runtime): the
// driver, the GPU's context, the compiled modules and pooled memory are
// opened once and kept, so a call costs its kernels and little else. A graph
// (Rows, Matrix) is uploaded as its arcs and the initial matrix is built on
// the device (fw_init); the copies and launches of a call are queued on the
// GPU's stream with one synchronisation at the end. Summary measures are
// reduced on the device (Rows) so that the n×n matrix need not cross the
// bus; Matrix copies it back through a pooled page-locked buffer.
//
// BulkFWRows and BulkFWMatrices (bulkfw.go, kernels/bulkfw.cu) run
// Floyd–Warshall on many integer graphs at once, in int16×2 lanes where a
// graph's plan holds them and int32 otherwise, grouped by lanes and
// padded size: up to 128 vertices a graph lives in the registers of a part
// of a warp, two warps or a block, built from its arcs and reduced to row
// summaries in the same kernel; larger graphs run blocked rounds whose
// phases are launched once for all graphs of a group (the pivot closed in
// registers, the panels as min-plus products with it). Graphs with negative
// arcs are searched for negative cycles on the host first; each graph's
// refusal or cycle is its own error.
//
// BulkRows, BulkStream and BulkSummaries (bulk.go, kernels/bulkbfs.cu)
// search many small unweighted graphs at once, a thread block per graph
// (or part of its sources), the batch cut into groups streamed over
// several CUDA streams so that copies overlap kernels and each group comes
// back as soon as it is done (the thesis' low-latency bulk execution).
//
// BitRows, BitBriefOn and BitMatrix (bitbfs.go, kernels/bitbfs.cu) are gpu-bitbfs: the
// bit-parallel multi-source breadth-first search of internal/bfs on one
// large unweighted graph, batches of 64·W sources as bit rows, pull levels
// that skip rows outside the frontier through a one-bit-a-vertex bitmap,
// several batches at once, the row summaries and the hop plot reduced on
// the device.
//
// RowsOn and MatrixOn (multifw.go) run one Floyd–Warshall over several
// GPUs of the process, strips of rows dealt to them, each round's pivot
// strip copied peer to peer; RowsOverRanks (ranks.go) runs the same rounds
// with a GPU a rank of an MPI job, the strips broadcast by NCCL (mglink.go
// holds both links). BitBriefOverRanks splits gpu-bitbfs's sources over
// the ranks.
//
// SSSPRows and SSSPMatrix (sssp.go, kernels/sssp.cu) are gpu-sssp: a
// shortest-path search from every source of a sparse graph with lengths of
// at least 0, a block a source (Harish–Narayanan's frontier relaxation),
// distances in shared memory while a row fits; MinPlus (minplus.go,
// kernels/minplus.cu) is gpu-minplus, Tran's repeated min-plus squaring, an
// independent check of the Floyd–Warshall kernels.
package gpu
