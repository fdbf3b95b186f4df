package gpu

import _ "embed"

// The CUDA sources of the kernels (kernels/*.cu), embedded here and
// compiled by each family with LoadKernels for the device it runs on. The
// blocked rounds of the bulk Floyd–Warshall build on the one-graph
// kernels, so bulk compiles FWSource before BulkFWSource.
var (
	// FWSource is the blocked Floyd–Warshall (package gpu/fw): the
	// multi-kernel rounds, the single kernel, fw_init, fw_reduce, fw_strip.
	//go:embed kernels/fw.cu
	FWSource string
	// BitBFSSource is the bit-parallel breadth-first search (gpu/bitbfs).
	//go:embed kernels/bitbfs.cu
	BitBFSSource string
	// BulkBFSSource is the bulk search of many small graphs (gpu/bulk).
	//go:embed kernels/bulkbfs.cu
	BulkBFSSource string
	// BulkFWSource is the bulk Floyd–Warshall of many graphs (gpu/bulk).
	//go:embed kernels/bulkfw.cu
	BulkFWSource string
	// SSSPSource is the per-source shortest-path search (gpu/sssp).
	//go:embed kernels/sssp.cu
	SSSPSource string
	// MinPlusSource is the repeated min-plus squaring (gpu/minplus).
	//go:embed kernels/minplus.cu
	MinPlusSource string
)

// Source returns the source that LoadKernels compiles for a kernel file,
// and whether there is one: the file's own source, but for bulkfw.cu,
// which builds on fw.cu's.
func Source(file string) (string, bool) {
	switch file {
	case "fw.cu":
		return FWSource, true
	case "bitbfs.cu":
		return BitBFSSource, true
	case "bulkbfs.cu":
		return BulkBFSSource, true
	case "bulkfw.cu":
		return FWSource + "\n" + BulkFWSource, true
	case "sssp.cu":
		return SSSPSource, true
	case "minplus.cu":
		return MinPlusSource, true
	}
	return "", false
}

// KernelFiles are the files Source knows.
var KernelFiles = []string{"fw.cu", "bitbfs.cu", "bulkbfs.cu", "bulkfw.cu", "sssp.cu", "minplus.cu"}
