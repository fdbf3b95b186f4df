// Package cuda is a thin binding of the CUDA driver API and NVRTC through
// purego, so that apsp builds with CGO_ENABLED=0 on any machine and uses a
// GPU when libcuda is present at run time.
//
// Every driver and NVRTC return code is checked and reported by name. A
// CUDA context is current per OS thread, so a Device owns one goroutine
// locked to its thread; all driver calls for that device run there (Do).
// Kernels are compiled by NVRTC for the device's own architecture and the
// cubins are cached on disk, keyed by source hash, architecture, driver and
// NVRTC versions and options.
package cuda
