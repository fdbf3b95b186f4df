package gpu

import (
	"fmt"

	"github.com/apsp/apsp/internal/lanes"
)

// Kernel names a form of the blocked Floyd–Warshall kernels (fw.cu).
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

// Config shapes the blocked Floyd–Warshall kernels of kernels/fw.cu, which
// package fw runs and package bulk builds its blocked rounds on.
type Config struct {
	Kernel Kernel
	Tile   int  // tile width W in lanes: 32, 64 or 128 (a multiple of 4·TRows and of 32)
	TDim   int  // threads across a tile's words (4-byte, Tile/Pack() of them, a multiple of 4·TDim)
	Float  bool // float32 lanes instead of int32
	// Lanes is lanes.Int16 or lanes.Int8 for packed lanes (two or four a
	// 32-bit word; non-negative lengths below the kind's infinity only),
	// or 0 for int32 (float32 with Float).
	Lanes lanes.Kind
	// TRows is the threads across a tile's rows (0 means TDim); a block
	// has TDim×TRows threads.
	TRows int
	// MinBlocks asks the compiler to fit this many blocks of the product
	// and single kernels on an SM (0 means 1).
	MinBlocks int
	// Coarse, when set (multi-kernel only, a multiple of Tile), runs the
	// coarse rounds of fw/coarse.go: pivot blocks of Coarse vertices closed
	// by the tile rounds, the other rows passed through each block in
	// long products. 0 runs the tile rounds over the whole matrix.
	Coarse int
}

// Pack is the lanes a 32-bit word holds: 2 for int16, 4 for int8, else 1.
func (c Config) Pack() int {
	switch c.Lanes {
	case lanes.Int16:
		return 2
	case lanes.Int8:
		return 4
	}
	return 1
}

// LaneBytes is the bytes of one matrix cell.
func (c Config) LaneBytes() int { return 4 / c.Pack() }

// Rows is the threads across a tile's rows (TRows, or TDim when 0).
func (c Config) Rows() int {
	if c.TRows > 0 {
		return c.TRows
	}
	return c.TDim
}

// Inf is the lanes' infinity as a word's lane holds it.
func (c Config) Inf() int32 {
	switch c.Lanes {
	case lanes.Int16:
		return int32(lanes.Inf16)
	case lanes.Int8:
		return int32(lanes.Inf8)
	}
	return InfInt32
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

// ConfigFor is DefaultConfig in the given lanes (Int16 and Int8 packed,
// Float32 float, anything else int32). Packed tiles are as wide in lanes
// as int32's (so the stride is the same); a block has half or a quarter of
// int32's threads, each with int32's work per barrier.
func ConfigFor(k Kernel, n int, kind lanes.Kind) Config {
	c := DefaultConfig(k, n, kind == lanes.Float32)
	if k == Multi && n > coarseFrom && kind != lanes.Int8 && kind != lanes.Float32 {
		// Coarse rounds (fw/coarse.go) where they measured faster on an H100:
		// int32 at n = 32 768 2.43 against 2.57 s, int16 1.31 against
		// 1.44 s; at 8 192 and 16 384 2–6 % faster. Not int8 (1–10 %
		// slower), and not float32, whose in-place panels would round in
		// an order that varies between runs.
		c.Coarse = coarseBlock
	}
	if kind != lanes.Int16 && kind != lanes.Int8 {
		return c
	}
	c.Lanes = kind
	c.TDim = c.Tile / c.Pack() / 4
	switch {
	case c.Tile >= 128 && kind == lanes.Int16 && n >= 16384:
		// 8 rows × 8 words a thread, 128 threads: int32's shared loads a
		// relaxation. On an H100: n = 32 768 1.296 s against 1.314 s for
		// 16 rows × 4 words, 16 384 172.8 against 173.5 ms; smaller
		// graphs ran 2–8 % slower this way (docs/perf.md).
		c.TDim, c.TRows, c.MinBlocks = c.Tile/c.Pack()/8, c.Tile/8, 4
	case c.Tile >= 128 && kind == lanes.Int16:
		c.TRows, c.MinBlocks = 8, 3 // 16 rows × 4 words a thread, 128 threads
	case c.Tile >= 128:
		c.TRows, c.MinBlocks = 16, 4 // 8 rows × 4 words a thread, 128 threads
	default:
		c.TRows = c.Tile / 4 // 4 rows × 4 words a thread
	}
	return c
}

// coarseBlock is the pivot block of the coarse rounds that ConfigFor
// picks, for graphs of more than coarseFrom vertices: 2048 and 4096
// measured alike on an H100 (docs/perf.md), 1024 slower.
const (
	coarseBlock = 2048
	coarseFrom  = 4096
)

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
	if c.Lanes != 0 && c.Lanes != lanes.Int16 && c.Lanes != lanes.Int8 && c.Lanes != lanes.Int32 {
		return fmt.Errorf("GPU lanes %v: the Floyd–Warshall kernels pack int16 and int8 or take int32 and float32", c.Lanes)
	}
	if c.Float && c.Pack() > 1 {
		return fmt.Errorf("GPU lanes %v with float32: choose one", c.Lanes)
	}
	if c.Coarse < 0 || (c.Coarse > 0 && (c.Kernel != Multi || c.Tile <= 0 || c.Coarse%c.Tile != 0)) {
		return fmt.Errorf("GPU coarse pivot block %d with the %v kernel and tile %d: want 0, or a multiple of the tile with gpu-multi", c.Coarse, c.Kernel, c.Tile)
	}
	words, rows := c.Tile/c.Pack(), c.Rows()
	if c.TDim <= 0 || rows <= 0 || c.Tile <= 0 || c.Tile%32 != 0 || words%(4*c.TDim) != 0 || c.Tile%(4*rows) != 0 || c.TDim*rows > 1024 {
		return fmt.Errorf("GPU tile %d (%d words a row) with %d×%d threads: the tile must be a multiple of 32 and of 4×%d rows, its words of 4×%d, and at most 1024 threads",
			c.Tile, words, c.TDim, rows, rows, c.TDim)
	}
	return nil
}

// InfInt32 is the int32 lanes' infinity: the lane table's (lanes.Inf32),
// shared with the CPU engines.
const InfInt32 = lanes.Inf32

// ProductShared is the min-plus product's shared memory in bytes: two
// k-slices (of 32) of A (packed) and B, padded by four words a row, and
// for packed lanes the A slice spread to one lane a word.
func ProductShared(tile, pack int) int {
	words := 2 * (tile*(32/pack+4) + 32*(tile/pack+4))
	if pack > 1 {
		words += tile * (32 + 4)
	}
	return words * 4
}
