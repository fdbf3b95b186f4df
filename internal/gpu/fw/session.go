package fw

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// Timing is what a run measured with CUDA events, in milliseconds.
type Timing struct {
	ToDevice float64 // the initial matrix: upload and fw_init, or the copy of a host-built matrix
	Kernel   float64 // Floyd–Warshall
	Reduce   float64 // the row reduction and the copy of its summaries
	ToHost   float64 // the copy of the matrix
	Total    float64 // from the first copy to the last
	Compiled bool    // NVRTC ran for this call (the cubin was not cached)
	// PeerLinks counts the GPU pairs with peer access enabled, for a run
	// over several GPUs (multifw.go).
	PeerLinks int
}

// Problem is one matrix computation: a stride×stride matrix of 4-byte lanes
// (int32 or float32 bits), stride a multiple of the tile, of which the first
// n rows and columns are real vertices.
type Problem struct {
	N, Stride int
	Config    gpu.Config
	// MaxReal bounds real int32 distances (values above are infinity).
	MaxReal int32
}

// Result of a run. Exactly one of Matrix or the row arrays is filled.
type Result struct {
	Matrix    []uint32 // stride×stride lanes, when the matrix was asked for
	Reach     []int32  // per source: finite entries v ≠ u
	Max       []uint32 // per source: largest finite entry (lane bits)
	Sum       []float64
	NegVertex int // a vertex with a negative diagonal, or -1
	Timing    Timing
	// OutOfCore says that the matrix lived in host memory and was streamed
	// through the GPU (outofcore.go); Timing then has the wall time only.
	OutOfCore bool
}

// Session is a GPU of the process's runtime (package gpu/runtime): its
// context, modules and memory are opened once and kept for every later
// Session and call; gpu.Close releases them.
type Session struct {
	API *cuda.API
	Dev *cuda.Device
	dev *gpurt.Device
}

// Open returns GPU ordinal, opening it on first use. The error matches
// gpu.ErrNoGPU when there is no such GPU or no driver.
func Open(ordinal int) (*Session, error) {
	d, err := gpurt.Default().Device(ordinal)
	if err != nil {
		return nil, err
	}
	return &Session{API: d.Dev.API, Dev: d.Dev, dev: d}, nil
}

// Close does nothing: the runtime keeps the GPU open for the next call.
// gpu.Close releases it.
func (s *Session) Close() {}

// Run builds the initial matrix with init in a page-locked buffer, copies
// it to the GPU, runs blocked FW and either copies the matrix back
// (wantMatrix) or reduces its rows on the device.
func (s *Session) Run(ctx context.Context, p Problem, init func(host []uint32), wantMatrix bool) (*Result, error) {
	res := &Result{NegVertex: -1}
	var out sink
	if wantMatrix {
		out.matrix = func(host []uint32) error {
			res.Matrix = append([]uint32(nil), host...)
			return nil
		}
	}
	err := s.dev.Do(ctx, func(c *gpurt.Call) error { return run(c, p, source{host: init}, out, res) })
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Describe compiles the kernels for c (if needed) and names their register
// and shared-memory use, for benchmark logs.
func (s *Session) Describe(c gpu.Config) (string, error) {
	var out string
	err := s.dev.Do(context.Background(), func(call *gpurt.Call) error {
		k, err := module(call, c)
		if err != nil {
			return err
		}
		out = fmt.Sprintf("W%d T%d B%d: registers pivot %d panel %d rest %d single %d; shared %d B (product %d B)",
			c.Tile, c.TDim, max(c.MinBlocks, 1), k.pivot.Registers(), k.panel.Registers(), k.rest.Registers(), k.single.Registers(), k.shared, k.product)
		return nil
	})
	return out, err
}
