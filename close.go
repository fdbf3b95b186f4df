package apsp

import "github.com/apsp/apsp/internal/engine"

// Close releases what apsp keeps between calls: the GPU contexts, the
// loaded kernel modules and the pooled device and page-locked host memory
// of every GPU used so far. The CUDA driver is loaded, and each GPU opened,
// once per process on first use and kept for later calls, which is what
// makes repeated GPU calls cheap; a later call after Close opens them again.
// Programs that exit need not call Close. Calls still waiting for a GPU when
// Close runs fail; calls already running finish first.
func Close() error { return engine.CloseGPUs() }
