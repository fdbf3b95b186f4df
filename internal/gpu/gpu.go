package gpu

import (
	_ "embed"
	"fmt"
	"math"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

//go:embed kernels/fw.cu
var fwSource string

// Kernel names a form of the GPU algorithm.
type Kernel int

const (
	// Multi launches three kernels a round.
	Multi Kernel = iota
	// Single is the one-launch SKSS kernel.
	Single
)

func (k Kernel) String() string {
	if k == Single {
		return "gpu-single"
	}
	return "gpu-multi"
}

// Config shapes the kernels.
type Config struct {
	Kernel Kernel
	Tile   int  // tile width W: 64 or 128 (a multiple of 4·TDim and of 32)
	TDim   int  // threads per block = TDim²
	Float  bool // float32 lanes instead of int32
	// MinBlocks asks the compiler to fit this many blocks of the product
	// and single kernels on an SM (0 means 1).
	MinBlocks int
}

// DefaultConfig returns the shape tuned on an H200 (docs/perf.md): small
// tiles keep the chain of dependent pivot steps short for small graphs,
// 128-wide tiles with two blocks per SM feed the min-plus product at scale.
func DefaultConfig(k Kernel, n int, float bool) Config {
	switch {
	case n <= 512:
		return Config{Kernel: k, Tile: 32, TDim: 8, Float: float}
	case n <= 2048:
		return Config{Kernel: k, Tile: 64, TDim: 16, Float: float}
	}
	return Config{Kernel: k, Tile: 128, TDim: 16, Float: float, MinBlocks: 2}
}

// AutoKernel is the faster form for n vertices on the GPU measured (an
// H200): the single kernel saves the launches that dominate small graphs and
// ties at 1024–2048; the multi-kernel form is ahead from 4096 on.
func AutoKernel(n int) Kernel {
	if n <= 2048 {
		return Single
	}
	return Multi
}

// Check validates a configuration.
func (c Config) Check() error {
	if c.MinBlocks < 0 || c.MinBlocks > 4 {
		return fmt.Errorf("GPU blocks per SM %d: want 1..4", c.MinBlocks)
	}
	if c.TDim <= 0 || c.Tile <= 0 || c.Tile%32 != 0 || c.Tile%(4*c.TDim) != 0 || c.TDim*c.TDim > 1024 {
		return fmt.Errorf("GPU tile %d with %d×%d threads: the tile must be a multiple of 32 and of 4×%d, and at most 1024 threads",
			c.Tile, c.TDim, c.TDim, c.TDim)
	}
	return nil
}

// InfInt32 is the int32 lanes' infinity: the lane table's (lanes.Inf32),
// shared with the CPU engines.
const InfInt32 = lanes.Inf32

// InitFromGraph returns an init function that writes g's adjacency matrix
// (int32 or float32 lanes) into a stride×stride host buffer.
func InitFromGraph(g *graph.Graph, stride int, float bool) func(host []uint32) {
	return func(h []uint32) {
		inf := uint32(InfInt32)
		if float {
			inf = math.Float32bits(float32(math.Inf(1)))
		}
		for i := range h {
			h[i] = inf
		}
		for i := 0; i < stride; i++ {
			h[i*stride+i] = 0
		}
		for u := 0; u < g.N(); u++ {
			row := h[u*stride:]
			for i, v := range g.Neighbors(u) {
				if float {
					row[v] = math.Float32bits(float32(g.ArcFloat(u, i)))
				} else {
					row[v] = uint32(int32(g.ArcInt(u, i)))
				}
			}
		}
	}
}

// productShared is the min-plus product's shared memory: two k-slices (of 32)
// of A and B, padded by four lanes a row.
func productShared(tile int) int { return 2 * (tile*(32+4) + 32*(tile+4)) * 4 }
