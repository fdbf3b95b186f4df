// Package comm is the communicator that distributed apsp runs over: the
// few collectives blocked Floyd–Warshall needs (broadcast of a panel along
// a group of ranks, the sum of per-rank counts, a barrier) and Split, which
// makes the row and column groups of a rank grid.
//
// Three implementations share the interface: Fake, in this package, runs
// every rank as a goroutine of one process (the CPU tests of the schedule,
// and CI); internal/comm/nccl moves device memory between the GPUs of a
// host or of several hosts; internal/comm/mpi moves host memory between
// processes started by mpirun. The bindings load their libraries through
// purego, so apsp still builds with CGO_ENABLED=0.
package comm
