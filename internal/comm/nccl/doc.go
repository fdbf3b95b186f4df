// Package nccl binds NVIDIA's NCCL (libnccl.so.2) through purego, so that
// apsp builds with CGO_ENABLED=0 and uses NCCL where the library is
// installed (the GPU machines: NCCL 2.28). Comm implements comm.Comm over
// device memory: each collective is enqueued on the communicator's CUDA
// stream and returns before it completes, so the caller orders kernels
// after it on that stream (or synchronises the stream) as for any launch.
//
// The library is opened only by Load, never at start-up; a machine
// without it gets an error wrapping ErrNoNCCL, not a panic.
package nccl
