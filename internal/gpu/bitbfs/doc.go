// Package bitbfs is gpu-bitbfs: the bit-parallel multi-source
// breadth-first search of internal/bfs on one large unweighted graph
// (directed or not) on NVIDIA GPUs, kernels/bitbfs.cu. Batches of 64·W
// sources travel as bit rows, pull levels skip rows outside the frontier
// through a one-bit-a-vertex bitmap, several batches are searched at once,
// and the row summaries and the hop plot are reduced on the device.
//
// Outputs. Rows gives every vertex's summary (reduce.Row) and the
// histogram of distances; Brief gives only what the summary measures need
// (reduce.Brief: each source's eccentricity and reach, and the totals),
// without building the rows; Matrix gives the distance matrix (-1 for no
// path), a batch's columns coming back as it ends. A weighted graph is
// refused (ErrGraph). HostBytes bounds the page-locked memory a call
// takes.
//
// Placements. On several GPUs of the process (gpu.OnGPUs, gpu.OnAll) the
// batches of sources are dealt out to them (gpu.SplitWork) and each GPU's
// totals merged on the host: the result is bit-identical to one GPU's but
// for the rows' Σ 1/d (reduce.Row.Harm, added in another order). A
// GPU that fails fails the call, naming it. Over the ranks of an MPI job
// (gpu.OverRanks) Brief splits the batches over the ranks, each on its
// GPU, and adds their totals at the end (ranks.go): every rank gets the
// same Brief; failures before the search are agreed, a failed search
// aborts the job. Rows and Matrix over ranks are refused
// (gpu.ErrPlacement).
package bitbfs
