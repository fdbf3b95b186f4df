// Package gpu is the base the GPU families stand on; the algorithms live
// in one package each below it:
//
//	internal/gpu/fw       blocked Floyd–Warshall of one graph: in core, out of
//	                      core, coarse rounds, rows split over GPUs or MPI ranks
//	internal/gpu/bitbfs   gpu-bitbfs, the bit-parallel multi-source BFS of one
//	                      unweighted graph
//	internal/gpu/sssp     gpu-sssp, a shortest-path search from every source
//	internal/gpu/bulk     many small graphs at once: the bulk BFS and the bulk
//	                      Floyd–Warshall
//	internal/gpu/minplus  gpu-minplus, repeated min-plus squaring
//
// Families never import each other, and this package never imports a
// family (internal/depcheck keeps both rules): what two families share is
// here.
//
// Devices. Every call runs on the process's GPU runtime (package
// gpu/runtime): the driver, each GPU's context, the compiled modules and
// pooled memory are opened once and kept, so a call costs its kernels and
// little else. Devices, Check, CheckAll and Visible find the GPUs without
// opening them; Opened, Totals and SetupTimes report on them; Close
// releases them. Do runs a function on a GPU's owner goroutine (once more
// if the runtime was closed meanwhile; a sticky error forgets the GPU),
// OnEach runs one on each GPU of a list at once, the first failure
// cancelling the others and naming its GPU, and DeviceName names the GPUs
// that ran. SplitWork deals units of work (batches of sources, sources)
// to several GPUs in interleaved spans, Parallel splits host work over
// the processors, Slowest picks the timing of the GPU that took longest.
//
// Placements. Each family exports one function per output (fw.Rows,
// fw.Matrix, bitbfs.Brief, ...), taking a Placement: one GPU of this
// process (OnGPU; the zero value is GPU 0), a list of them (OnGPUs), every
// GPU the driver sees (OnAll), or one GPU a rank of an MPI job
// (OverRanks). A family refuses a placement it does not run with an error
// wrapping ErrPlacement (Refuse), before it touches a GPU: the bulk
// families and gpu-minplus run on one GPU; over MPI ranks run
// Floyd–Warshall's summaries (fw.Rows) and gpu-bitbfs's (bitbfs.Brief),
// no other output.
// A list that names a GPU twice runs its shares one after the other where
// a family splits independent work (the tests do so on one GPU); the
// Floyd–Warshall row split refuses it (ErrDuplicateGPU).
//
// Kernels. The CUDA sources (kernels/*.cu) are embedded here (FWSource,
// BitBFSSource, SSSPSource, BulkBFSSource, BulkFWSource, MinPlusSource)
// and loaded by LoadKernels: compiled by NVRTC for the device's
// architecture, or taken from the disk cache of cubins, and kept loaded
// for the life of the runtime. Config is the shape of the blocked
// Floyd–Warshall kernels of kernels/fw.cu (tile, threads, lanes: int32,
// float32, or packed int16×2 and int8×4, a row-major matrix whose column
// j is lane j%L of word j/L), with the form (Kernel: Multi, three launches
// a round after Lund & Smith; Single, the one-launch soft-synchronisation
// kernel) and the coarse pivot block; ConfigFor picks the tuned shape for
// a size and lane kind. The one-graph Floyd–Warshall (fw) runs these
// kernels, and the bulk Floyd–Warshall (bulk) builds its blocked rounds on
// them, which is why the shape is here.
//
// Graphs. CheckArcs and FillArcs check and lay out a graph's arcs as the
// searching families upload them (offsets, heads, lengths as lane bits);
// ErrNegativeArc is their refusal of a negative length. ErrDoesNotFit is
// wrapped by the families' refusals of data that cannot fit in the GPU's
// memory.
package gpu
