package gpu

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/cuda"
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

// InfInt32 is the int32 lanes' infinity (the same as the CPU engines').
const InfInt32 = int32(1<<30 - 1)

// Session is an open GPU with its compiled modules.
type Session struct {
	API  *cuda.API
	Dev  *cuda.Device
	mods map[string]*kernels
}

type kernels struct {
	pivot, panel, rest, single, reduce *cuda.Function
	shared                             int // dynamic shared bytes per block
	product                            int // the part the min-plus product needs
	cached                             bool
}

// Open loads the driver and opens GPU ordinal.
func Open(ordinal int) (*Session, error) {
	api, err := cuda.Load()
	if err != nil {
		return nil, err
	}
	dev, err := api.Open(ordinal)
	if err != nil {
		return nil, err
	}
	return &Session{API: api, Dev: dev, mods: map[string]*kernels{}}, nil
}

// Close releases the GPU.
func (s *Session) Close() { s.Dev.Close() }

// module compiles (or takes from the cache) the kernels for c. Call inside
// Dev.Do.
func (s *Session) module(c Config) (*kernels, error) {
	opts := []string{fmt.Sprintf("-DTILE=%d", c.Tile), fmt.Sprintf("-DTDIM=%d", c.TDim), "-DBK=32", fmt.Sprintf("-DMINB=%d", max(c.MinBlocks, 1))}
	if c.Float {
		opts = append(opts, "-DLANE_FLOAT")
	}
	key := strings.Join(opts, " ")
	if k, ok := s.mods[key]; ok {
		return k, nil
	}
	cubin, cached, err := s.API.Compile(fwSource, "fw.cu", s.Dev.Info.Arch(), opts)
	if err != nil {
		return nil, err
	}
	mod, err := s.Dev.LoadModule(cubin)
	if err != nil {
		return nil, err
	}
	k := &kernels{cached: cached}
	for _, f := range []struct {
		p    **cuda.Function
		name string
	}{{&k.pivot, "fw_pivot"}, {&k.panel, "fw_panel"}, {&k.rest, "fw_rest"}, {&k.single, "fw_single"}, {&k.reduce, "fw_reduce"}} {
		if *f.p, err = mod.Function(f.name); err != nil {
			return nil, err
		}
	}
	// In-place tiles keep the pivot tile in shared memory; the product
	// stages two k-slices.
	inplace := (c.Tile*c.Tile + 4*c.Tile) * 4
	k.product = productShared(c.Tile)
	k.shared = max(inplace, k.product)
	if k.shared > s.Dev.Info.MaxShared {
		return nil, fmt.Errorf("tile %d needs %d bytes of shared memory per block; this GPU allows %d", c.Tile, k.shared, s.Dev.Info.MaxShared)
	}
	for _, f := range []*cuda.Function{k.pivot, k.panel, k.rest, k.single} {
		if err := f.SetMaxDynamicShared(k.shared); err != nil {
			return nil, err
		}
	}
	s.mods[key] = k
	return k, nil
}

// Timing is what a run measured with CUDA events, in milliseconds.
type Timing struct {
	ToDevice, Kernel, Reduce, ToHost float64
	Compiled                         bool // NVRTC ran (the cubin was not cached)
}

// Problem is one matrix computation: a stride×stride matrix of 4-byte lanes
// (int32 or float32 bits), stride a multiple of the tile, of which the first
// n rows and columns are real vertices.
type Problem struct {
	N, Stride int
	Config    Config
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
}

// ErrDoesNotFit is wrapped when the matrix exceeds device memory.
var ErrDoesNotFit = errors.New("distance matrix does not fit in GPU memory")

// Run copies the initial matrix to the GPU, runs blocked FW and either
// copies the matrix back (wantMatrix) or reduces its rows on the device.
func (s *Session) Run(ctx context.Context, p Problem, init func(host []uint32), wantMatrix bool) (*Result, error) {
	if err := p.Config.Check(); err != nil {
		return nil, err
	}
	if p.Stride%p.Config.Tile != 0 {
		return nil, fmt.Errorf("stride %d is not a multiple of the tile %d", p.Stride, p.Config.Tile)
	}
	var res *Result
	err := s.Dev.Do(func() error {
		var err error
		res, err = s.run(ctx, p, init, wantMatrix)
		return err
	})
	return res, err
}

func (s *Session) run(ctx context.Context, p Problem, init func(host []uint32), wantMatrix bool) (res *Result, err error) {
	dev := s.Dev
	k, err := s.module(p.Config)
	if err != nil {
		return nil, err
	}
	bytes := uint64(p.Stride) * uint64(p.Stride) * 4
	free, total, err := dev.MemInfo()
	if err != nil {
		return nil, err
	}
	if bytes+64<<20 > free {
		return nil, fmt.Errorf("%w: %d×%d lanes need %.2f GiB; the GPU has %.2f GiB free of %.2f GiB",
			ErrDoesNotFit, p.Stride, p.Stride, float64(bytes)/(1<<30), float64(free)/(1<<30), float64(total)/(1<<30))
	}
	hostPtr, err := dev.AllocHost(bytes)
	if err != nil {
		return nil, err
	}
	defer dev.FreeHost(hostPtr)
	host := unsafe.Slice((*uint32)(hostPtr), p.Stride*p.Stride)
	init(host)
	d, err := dev.Alloc(bytes)
	if err != nil {
		return nil, err
	}
	defer dev.Free(d)
	ev := make([]*cuda.Event, 5)
	for i := range ev {
		if ev[i], err = dev.NewEvent(); err != nil {
			return nil, err
		}
		defer ev[i].Destroy()
	}
	res = &Result{NegVertex: -1}
	res.Timing.Compiled = !k.cached
	if err := ev[0].Record(); err != nil {
		return nil, err
	}
	if err := dev.CopyToDevice(d, hostPtr, bytes); err != nil {
		return nil, err
	}
	if err := ev[1].Record(); err != nil {
		return nil, err
	}
	var flags uint64
	if p.Config.Kernel == Single {
		m := p.Stride / p.Config.Tile
		if flags, err = dev.Alloc(uint64(m*m+1) * 4); err != nil {
			return nil, err
		}
		defer dev.Free(flags)
		if err := dev.Memset32(flags, 0, uint64(m*m+1)); err != nil {
			return nil, err
		}
	}
	if err := s.fw(ctx, k, p, d, flags); err != nil {
		return nil, err
	}
	if err := ev[2].Record(); err != nil {
		return nil, err
	}
	if err := dev.Synchronize(); err != nil {
		return nil, err
	}
	if wantMatrix {
		if err := dev.CopyToHost(hostPtr, d, bytes); err != nil {
			return nil, err
		}
		if err := ev[3].Record(); err != nil {
			return nil, err
		}
		res.Matrix = make([]uint32, len(host))
		copy(res.Matrix, host)
		res.Timing.ToHost, err = ev[3].Since(ev[2])
	} else {
		err = s.reduce(k, p, d, res)
		if err == nil {
			if err = ev[3].Record(); err == nil {
				res.Timing.Reduce, err = ev[3].Since(ev[2])
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if res.Timing.ToDevice, err = ev[1].Since(ev[0]); err != nil {
		return nil, err
	}
	if res.Timing.Kernel, err = ev[2].Since(ev[1]); err != nil {
		return nil, err
	}
	return res, nil
}

// fw launches the kernels on matrix d.
func (s *Session) fw(ctx context.Context, k *kernels, p Problem, d, flags uint64) error {
	dev := s.Dev
	c := p.Config
	n := int32(p.Stride)
	m := int32(p.Stride / c.Tile)
	block := [3]uint32{uint32(c.TDim * c.TDim), 1, 1}
	shared := uint32(k.shared)
	if c.Kernel == Single {
		// flags holds the task counter, then the per-tile completion counts.
		counter, done := flags, flags+4
		// A persistent grid: as many blocks as can be resident at once,
		// but no more than there are tasks in a round.
		blocks := uint32(min(dev.Info.SMs*max(c.MinBlocks, 2), int(m*m)))
		return k.single.Launch([3]uint32{blocks, 1, 1}, block, shared,
			unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&m), unsafe.Pointer(&counter), unsafe.Pointer(&done))
	}
	for z := int32(0); z < m; z++ {
		if z%16 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := k.pivot.Launch([3]uint32{1, 1, 1}, block, shared, unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&z)); err != nil {
			return err
		}
		if m == 1 {
			break
		}
		if err := k.panel.Launch([3]uint32{uint32(2 * (m - 1)), 1, 1}, block, shared,
			unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&z), unsafe.Pointer(&m)); err != nil {
			return err
		}
		if err := k.rest.Launch([3]uint32{uint32(m - 1), uint32(m - 1), 1}, block, uint32(k.product),
			unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&z)); err != nil {
			return err
		}
	}
	return nil
}

// reduce summarises the rows on the device.
func (s *Session) reduce(k *kernels, p Problem, d uint64, res *Result) error {
	dev := s.Dev
	nv := int32(p.N)
	n := int32(p.Stride)
	buf, err := dev.Alloc(uint64(p.N)*16 + 4)
	if err != nil {
		return err
	}
	defer dev.Free(buf)
	reach, maxv, sum, neg := buf, buf+uint64(p.N)*4, buf+uint64(p.N)*8, buf+uint64(p.N)*16
	if err := dev.Memset32(neg, uint32(math.MaxInt32), 1); err != nil {
		return err
	}
	maxReal := uint32(p.MaxReal)
	if p.Config.Float {
		maxReal = math.Float32bits(math.MaxFloat32)
	}
	if err := k.reduce.Launch([3]uint32{uint32(p.N), 1, 1}, [3]uint32{256, 1, 1}, 0,
		unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&nv), unsafe.Pointer(&maxReal),
		unsafe.Pointer(&reach), unsafe.Pointer(&maxv), unsafe.Pointer(&sum), unsafe.Pointer(&neg)); err != nil {
		return err
	}
	if err := dev.Synchronize(); err != nil {
		return err
	}
	res.Reach = make([]int32, p.N)
	res.Max = make([]uint32, p.N)
	res.Sum = make([]float64, p.N)
	var negV int32
	for _, c := range []struct {
		dst   unsafe.Pointer
		src   uint64
		bytes uint64
	}{{unsafe.Pointer(&res.Reach[0]), reach, uint64(p.N) * 4}, {unsafe.Pointer(&res.Max[0]), maxv, uint64(p.N) * 4},
		{unsafe.Pointer(&res.Sum[0]), sum, uint64(p.N) * 8}, {unsafe.Pointer(&negV), neg, 4}} {
		if err := dev.CopyToHost(c.dst, c.src, c.bytes); err != nil {
			return err
		}
	}
	if negV != math.MaxInt32 {
		res.NegVertex = int(negV)
	}
	return nil
}

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

// Describe compiles the kernels for c (if needed) and names their register
// and shared-memory use, for benchmark logs.
func (s *Session) Describe(c Config) (string, error) {
	var out string
	err := s.Dev.Do(func() error {
		k, err := s.module(c)
		if err != nil {
			return err
		}
		out = fmt.Sprintf("W%d T%d B%d: registers pivot %d panel %d rest %d single %d; shared %d B (product %d B)",
			c.Tile, c.TDim, max(c.MinBlocks, 1), k.pivot.Registers(), k.panel.Registers(), k.rest.Registers(), k.single.Registers(), k.shared, k.product)
		return nil
	})
	return out, err
}
