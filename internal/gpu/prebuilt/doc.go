// Package prebuilt holds kernels compiled ahead of time, so that a process
// on a fresh machine runs its first kernel without NVRTC compiling it
// (seconds of a cold start; see issue 31).
//
// The cubins come from NVRTC itself, run on a GPU machine by
// scripts/prebuild-kernels.sh with APSP_PREBUILT_RECORD set: every module
// the workloads there load is written out with its key, and the script
// gathers them here, gzipped, with a manifest. A module is keyed by its
// source, the GPU architecture and the compile options, and not by the
// driver: a driver that cannot load a cubin (one older than the NVRTC
// that made it) makes the caller compile it as before. A kernel source
// that changes no longer matches its cubins, which are then not used;
// the gpu package's tests fail on such stale entries until they are
// made again.
package prebuilt
