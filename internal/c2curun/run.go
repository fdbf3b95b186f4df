package c2curun

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/apsp/apsp/c2cu"
	"github.com/apsp/apsp/internal/cuda"
)

// Data holds one global's values for all P inputs in row layout.
type Data map[string][]byte

// elems returns the number of elements of one input of a.
func elems(a c2cu.Array) int {
	n := 1
	for _, d := range a.Dims {
		n *= d
	}
	return n
}

// RandomInputs draws inputs reproducibly: ints in [0, 1000), unsigned and
// unsigned long as full-width random bits (so that multi-word arithmetic is
// exercised), long in [0, 2^31), floats in [0, 1).
func RandomInputs(arrs []c2cu.Array, p int, seed uint64) Data {
	rng := rand.New(rand.NewPCG(seed, 0xc2c0))
	in := Data{}
	for _, a := range arrs {
		n := elems(a) * p
		b := make([]byte, n*a.ElemBytes)
		for i := 0; i < n; i++ {
			off := b[i*a.ElemBytes:]
			switch a.Type {
			case "int":
				binary.LittleEndian.PutUint32(off, uint32(rng.IntN(1000)))
			case "unsigned":
				binary.LittleEndian.PutUint32(off, rng.Uint32())
			case "float":
				binary.LittleEndian.PutUint32(off, math.Float32bits(rng.Float32()))
			case "double":
				binary.LittleEndian.PutUint64(off, math.Float64bits(rng.Float64()))
			case "long":
				binary.LittleEndian.PutUint64(off, uint64(rng.Int64N(1<<31)))
			default: // unsigned long and any other 8-byte integer
				if a.ElemBytes == 8 {
					binary.LittleEndian.PutUint64(off, rng.Uint64())
				} else {
					binary.LittleEndian.PutUint32(off, rng.Uint32())
				}
			}
		}
		in[a.Name] = b
	}
	return in
}

// transpose turns [rows][cols] elements of size e into [cols][rows], in
// 32×32 blocks so that both sides stay in cache.
func transpose(src []byte, rows, cols, e int) []byte {
	dst := make([]byte, len(src))
	switch e {
	case 4:
		transposeOf(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)/4),
			unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(src))), len(src)/4), rows, cols)
	case 8:
		transposeOf(unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)/8),
			unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(src))), len(src)/8), rows, cols)
	default:
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				copy(dst[(c*rows+r)*e:(c*rows+r+1)*e], src[(r*cols+c)*e:(r*cols+c+1)*e])
			}
		}
	}
	return dst
}

func transposeOf[T uint32 | uint64](dst, src []T, rows, cols int) {
	if len(src) == 0 {
		return
	}
	const b = 32
	for r0 := 0; r0 < rows; r0 += b {
		for c0 := 0; c0 < cols; c0 += b {
			for r := r0; r < min(r0+b, rows); r++ {
				row := src[r*cols:]
				for c := c0; c < min(c0+b, cols); c++ {
					dst[c*rows+r] = row[c]
				}
			}
		}
	}
}

// GPUTiming is what one GPU run measured with CUDA events, in ms.
type GPUTiming struct {
	ToDevice, Kernel, ToHost float64
	Compiled                 bool
}

// Runner holds an open GPU and the compiled kernel of one program.
type Runner struct {
	dev    *cuda.Device
	fn     *cuda.Function
	arrays []c2cu.Array
	Source string // the generated kernel source
	cached bool
}

// NewRunner generates the program's kernel and compiles it for GPU ordinal.
func NewRunner(prog *c2cu.Program, ordinal int) (*Runner, error) {
	src, err := c2cu.GenerateKernel(prog)
	if err != nil {
		return nil, err
	}
	api, err := cuda.Load()
	if err != nil {
		return nil, err
	}
	dev, err := api.Open(ordinal)
	if err != nil {
		return nil, err
	}
	r := &Runner{dev: dev, arrays: prog.Arrays(), Source: src}
	err = dev.Do(func() error {
		// No fused multiply-adds: float results must match the CPU bit for bit.
		cubin, cached, err := api.Compile(src, "c2cu.cu", dev.Info.Arch(), []string{"--fmad=false"})
		if err != nil {
			return err
		}
		r.cached = cached
		mod, err := dev.LoadModule(cubin)
		if err != nil {
			return err
		}
		r.fn, err = mod.Function("c2cu_kernel")
		return err
	})
	if err != nil {
		dev.Close()
		return nil, err
	}
	return r, nil
}

// Close releases the GPU.
func (r *Runner) Close() { r.dev.Close() }

// Device names the GPU.
func (r *Runner) Device() string { return r.dev.Info.Name }

// Run executes the kernel for the p inputs in, threads per block t, and
// returns the outputs in row layout.
func (r *Runner) Run(ctx context.Context, in Data, p, t int) (Data, GPUTiming, error) {
	var out Data
	var tm GPUTiming
	err := r.dev.Do(func() error {
		var err error
		out, tm, err = r.run(in, p, t)
		return err
	})
	return out, tm, err
}

func (r *Runner) run(in Data, p, t int) (Data, GPUTiming, error) {
	dev := r.dev
	tm := GPUTiming{Compiled: !r.cached}
	ptrs := make([]uint64, len(r.arrays))
	cols := make([][]byte, len(r.arrays))
	for i, a := range r.arrays {
		rows := in[a.Name]
		if len(rows) != elems(a)*p*a.ElemBytes {
			return nil, tm, fmt.Errorf("input %s: %d bytes, want %d", a.Name, len(rows), elems(a)*p*a.ElemBytes)
		}
		cols[i] = transpose(rows, p, elems(a), a.ElemBytes)
		var err error
		if ptrs[i], err = dev.Alloc(uint64(max(len(cols[i]), 1))); err != nil {
			return nil, tm, err
		}
		defer dev.Free(ptrs[i])
	}
	ev := make([]*cuda.Event, 4)
	for i := range ev {
		var err error
		if ev[i], err = dev.NewEvent(); err != nil {
			return nil, tm, err
		}
		defer ev[i].Destroy()
	}
	if err := ev[0].Record(); err != nil {
		return nil, tm, err
	}
	for i := range r.arrays {
		if len(cols[i]) > 0 {
			if err := dev.CopyToDevice(ptrs[i], unsafe.Pointer(&cols[i][0]), uint64(len(cols[i]))); err != nil {
				return nil, tm, err
			}
		}
	}
	if err := ev[1].Record(); err != nil {
		return nil, tm, err
	}
	args := make([]unsafe.Pointer, 0, len(ptrs)+1)
	for i := range ptrs {
		args = append(args, unsafe.Pointer(&ptrs[i]))
	}
	p32 := int32(p)
	args = append(args, unsafe.Pointer(&p32))
	blocks := uint32((p + t - 1) / t)
	if err := r.fn.Launch([3]uint32{blocks, 1, 1}, [3]uint32{uint32(t), 1, 1}, 0, args...); err != nil {
		return nil, tm, err
	}
	if err := ev[2].Record(); err != nil {
		return nil, tm, err
	}
	if err := dev.Synchronize(); err != nil {
		return nil, tm, err
	}
	for i := range r.arrays {
		if len(cols[i]) > 0 {
			if err := dev.CopyToHost(unsafe.Pointer(&cols[i][0]), ptrs[i], uint64(len(cols[i]))); err != nil {
				return nil, tm, err
			}
		}
	}
	if err := ev[3].Record(); err != nil {
		return nil, tm, err
	}
	out := Data{}
	for i, a := range r.arrays {
		out[a.Name] = transpose(cols[i], elems(a), p, a.ElemBytes)
	}
	var err error
	if tm.ToDevice, err = ev[1].Since(ev[0]); err != nil {
		return nil, tm, err
	}
	if tm.Kernel, err = ev[2].Since(ev[1]); err != nil {
		return nil, tm, err
	}
	if tm.ToHost, err = ev[3].Since(ev[2]); err != nil {
		return nil, tm, err
	}
	return out, tm, nil
}

// CPU is the original program built with the host C compiler.
type CPU struct {
	dir, bin string
	arrays   []c2cu.Array
}

// BuildCPU writes the C driver and compiles it with $CC (default cc) -O2.
func BuildCPU(prog *c2cu.Program) (*CPU, error) {
	src, err := c2cu.GenerateDriver(prog)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "c2cu-")
	if err != nil {
		return nil, err
	}
	c := &CPU{dir: dir, bin: filepath.Join(dir, "driver"), arrays: prog.Arrays()}
	if err := os.WriteFile(filepath.Join(dir, "driver.c"), []byte(src), 0o644); err != nil {
		c.Close()
		return nil, err
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	cmd := exec.Command(cc, "-O2", "-o", c.bin, filepath.Join(dir, "driver.c"))
	if out, err := cmd.CombinedOutput(); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s -O2 driver.c: %w\n%s", cc, err, out)
	}
	return c, nil
}

// Close removes the build directory.
func (c *CPU) Close() { os.RemoveAll(c.dir) }

// Run runs the driver on the p inputs and returns the outputs and the
// seconds of its compute loop.
func (c *CPU) Run(ctx context.Context, in Data, p int) (Data, float64, error) {
	inDir, outDir := filepath.Join(c.dir, "in"), filepath.Join(c.dir, "out")
	for _, d := range []string{inDir, outDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, 0, err
		}
	}
	for _, a := range c.arrays {
		if err := os.WriteFile(filepath.Join(inDir, a.Name+".bin"), in[a.Name], 0o644); err != nil {
			return nil, 0, err
		}
	}
	start := time.Now()
	cmd := exec.CommandContext(ctx, c.bin, strconv.Itoa(p), inDir, outDir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, 0, fmt.Errorf("driver: %w: %s", err, stderr.String())
	}
	secs := time.Since(start).Seconds()
	for _, line := range strings.Split(stdout.String(), "\n") {
		if f, ok := strings.CutPrefix(line, "seconds "); ok {
			if v, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil {
				secs = v
			}
		}
	}
	out := Data{}
	for _, a := range c.arrays {
		b, err := os.ReadFile(filepath.Join(outDir, a.Name+".bin"))
		if err != nil {
			return nil, 0, err
		}
		out[a.Name] = b
	}
	return out, secs, nil
}

// Compare reports the first global whose outputs differ, or nil.
func Compare(arrs []c2cu.Array, got, want Data, p int) error {
	for _, a := range arrs {
		g, w := got[a.Name], want[a.Name]
		if bytes.Equal(g, w) {
			continue
		}
		if len(g) != len(w) {
			return fmt.Errorf("%s: %d bytes on the GPU, %d on the CPU", a.Name, len(g), len(w))
		}
		for i := 0; i < len(g); i += a.ElemBytes {
			if !bytes.Equal(g[i:i+a.ElemBytes], w[i:i+a.ElemBytes]) {
				e := i / a.ElemBytes
				return fmt.Errorf("%s: input %d, element %d differs (GPU % x, CPU % x)", a.Name, e/elems(a), e%elems(a), g[i:i+a.ElemBytes], w[i:i+a.ElemBytes])
			}
		}
	}
	return nil
}
