// Package dynlib is the one loader of apsp's native libraries (libcuda,
// NVRTC, Open MPI, NCCL): it finds a shared library (the file an
// environment variable names, else the first of its names found in a list
// of directories), opens it with purego, without cgo, and binds its
// functions to Go function variables.
//
// Its errors say what was looked for: a library not found names the
// file names, the directories searched and the variable that overrides
// them (NotFoundError); one that cannot be opened names its path; a
// missing symbol names the symbol and the library (SymbolError). The
// bindings wrap them in their own sentinels (cuda.ErrNoDriver,
// mpi.ErrNoMPI, nccl.ErrNoNCCL).
//
// It imports nothing of the module, so that any binding can use it.
package dynlib
