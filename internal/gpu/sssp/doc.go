// Package sssp is gpu-sssp: a shortest-path search from every source of a
// sparse graph with lengths of at least 0 on NVIDIA GPUs
// (kernels/sssp.cu), a thread block a source (Harish–Narayanan's frontier
// relaxation), its distances in shared memory while a row fits, else in a
// global row a block. Lanes are int32 (the caller's lane plan must hold
// them) or float32 for float graphs; a negative length is refused
// (gpu.ErrNegativeArc) before the GPU is touched.
//
// Outputs. Rows reduces each source's row on the device, so only n
// summaries (reduce.Row) cross the bus; Matrix returns the n×n distance
// matrix (gpu.InfInt32 or +Inf for no path), rows coming back a launch of
// sources at a time. HostBytes bounds the page-locked memory a call takes.
//
// Placements. On several GPUs of the process (gpu.OnGPUs, gpu.OnAll) the
// sources are dealt out to them in ranges and every GPU searches its own
// at once; the summaries are merged on the host, bit-identical to one
// GPU's (float sums included), and the rows of a matrix go straight into
// the one matrix. A GPU that fails fails the call, naming it. MPI ranks
// are refused (gpu.ErrPlacement).
package sssp
