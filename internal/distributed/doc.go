// Package dist distributes blocked Floyd–Warshall over a P×Q grid of ranks
// (GPUs, or processes): which rank owns each tile of the padded n×n matrix
// (2-D block-cyclic or block), each rank's local shape, and the schedule of
// round k — the owner of the pivot tile closes it, broadcasts it along its
// grid row and column, the owners of the pivot row and column panels
// update them and broadcast them along grid columns and rows, and every
// rank then updates the rest of its tiles.
//
// RunHost executes that schedule on host memory over any comm.Comm; with
// comm.NewFake it runs all ranks as goroutines, which is how the tests
// check the schedule against the reference Floyd–Warshall without a GPU.
// Summaries is a whole distributed run for the summary measures: each rank
// builds its tiles from the graph's arcs (no rank holds the n×n matrix),
// runs RunHost, and the rows are reduced where they lie and combined over
// the ranks; over internal/comm/mpi it is `apsp stats --distributed` under
// mpirun on CPU ranks. GPU ranks run the strip schedule of internal/gpu/fw
// instead (a 1-D distribution, pivot strips by NCCL), and use SameGraph
// from here. CombineBrief adds up the totals of a search whose sources
// the ranks split (unweighted graphs, on CPUs or GPUs).
package distributed
