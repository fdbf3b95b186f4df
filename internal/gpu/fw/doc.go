// Package fw runs the blocked Floyd–Warshall algorithm on NVIDIA GPUs:
// all-pairs shortest paths of one graph (integer or float lengths,
// negative ones included), in the kernels of kernels/fw.cu shaped by
// gpu.Config: the multi-kernel form (three launches a round, after Lund &
// Smith) or the single-kernel soft-synchronisation form (SKSS, one launch
// whose blocks take tasks from an atomic counter in topological order and
// wait on per-tile completion flags), in int32 (DPX on Hopper), float32,
// or packed int16×2 and int8×4 lanes (a weight above a packed lane's
// infinity is stored as infinity).
//
// Outputs. Rows reduces every source's distances on the device to a
// summary (reach, largest distance, sum; reduce.Row) so that the n×n
// matrix never crosses the bus; Matrix copies the matrix back through a
// pooled page-locked buffer, in its lanes. Both build the initial matrix
// on the device from the graph's arcs (fw_init) and queue every copy and
// launch of a call on the GPU's stream, with one synchronisation at the
// end. A negative cycle is reported as a vertex with a negative diagonal
// (NegVertex), never as a distance. Session runs a Problem from a
// host-built matrix (InitLanes) for benchmarks.
//
// Placements. On one GPU (gpu.OnGPU) the matrix lies on the device whole;
// beyond 4 096 vertices the multi-kernel form runs coarse rounds in int32
// and int16 lanes (coarse.go, gpu.Config.Coarse): pivot blocks closed by
// the tile rounds, every other row passed through each block in long
// min-plus products (fw_strip). A matrix larger than the GPU's free memory,
// or than MemoryLimitEnv allows, is computed out of core (outofcore.go):
// it lives in page-locked host memory and each round streams it through
// the GPU. On several GPUs of the process (gpu.OnGPUs, gpu.OnAll) the
// matrix is cut into strips of rows dealt to the GPUs, each round's pivot
// strip copied peer to peer (multifw.go); over the ranks of an MPI job
// (gpu.OverRanks, Rows only) the same rounds run with a GPU a rank, the
// strips broadcast by NCCL (mglink.go holds the links' interface and the
// link between GPUs, ranks.go the NCCL link, the only use of NCCL). The summaries of a split run are one GPU's, bit for
// bit for integer lanes. Matrix over ranks is refused (gpu.ErrPlacement):
// each rank holds only its strips. Over ranks, failures a rank finds
// before the ranks wait for each other are agreed (every rank returns an
// error wrapping comm.ErrRankFailed); a later one aborts the job.
package fw
