// Package mpi binds Open MPI (libmpi.so.40) through purego, so that apsp
// still builds with CGO_ENABLED=0 and runs as one rank per GPU under
// mpirun. Comm implements comm.Comm over host memory.
//
// Open MPI's handles (MPI_COMM_WORLD, MPI_BYTE, MPI_SUM, ...) are not
// integers but the addresses of symbols the library exports
// (ompi_mpi_comm_world, ompi_mpi_byte, ompi_mpi_op_sum: mpi.h defines
// OMPI_PREDEFINED_GLOBAL(type, global) as ((type) &(global))); they are
// looked up with dlsym. The binding is therefore Open MPI's, not MPICH's,
// whose handles are integer constants.
//
// MPI is initialised with MPI_THREAD_SERIALIZED: calls may come from any
// goroutine, one at a time. Errors return (MPI_ERRORS_RETURN on every
// communicator) instead of killing the job, and Abort calls MPI_Abort so
// that one failing rank ends every process of the job.
package mpi
