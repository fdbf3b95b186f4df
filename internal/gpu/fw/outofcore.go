package fw

import (
	"fmt"
	"math"
	"os"
	"strings"
	"time"
	"unsafe"

	"github.com/apsp/apsp/internal/cuda"
	"github.com/apsp/apsp/internal/gpu"
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
	"github.com/apsp/apsp/internal/sysmem"
)

// Out of core: when the matrix does not fit the GPU, it lives in
// page-locked host memory and each round of a coarse blocked
// Floyd–Warshall streams it through the GPU (the blocked algorithm's own
// pivot-row structure with a resident working set; Kemp's modified
// Katz–Kider makes the same three phases). A round takes a pivot block of
// S vertices (a multiple of the tile):
//
//  1. the pivot strip (its S rows, every column) is copied in and stays on
//     the device; its pivot block is closed by the in-core blocked rounds
//     (fw on the block, stride the matrix's), and the rest of the strip
//     becomes P*⊗strip, P* the closed pivot block;
//  2. every other strip of h rows is copied in, its pivot columns become
//     cols⊗P*, the rest min(rest, cols⊗strip) (fw_strip), and it is copied
//     back.
//
// One product with the closed pivot is exact: a shortest path through
// pivot vertices enters the block at some vertex k over earlier vertices
// only (the current entry) and continues within the closure. The panel
// products read tiles that other blocks of the same launch are rewriting
// (the pivot strip is both A or B and C); since P* has a zero diagonal and
// is closed, any mix of old and new values yields exactly the new ones
// (old ≥ new ≥ new⊗P*, and new⊗P* = new), so in integer lanes the race
// cannot change a result. In float32 lanes a new value read by another
// block may round a sum differently, so the last bits of a float result
// can differ between runs (never by more than float32 rounding over the
// path, which the float tests allow).
//
// Copies in, products and copies out run on three streams with events
// between them, over three strip buffers, so a strip's copies overlap its
// neighbours' products. A strip's copy in at round z+1 waits for the copy
// out of the rows it holds at round z. The panel work, 2·n·S² relaxations
// a round against n²·S, costs 2S/n of the in-core rate; the copies move
// the matrix in and out once a round, n/S rounds.

// MemoryLimitEnv names the environment variable that caps the device
// memory a Floyd–Warshall run may hold ("1GiB", "512MiB", "3G", bytes; 0
// or unset: no cap): a matrix above it is computed out of core, as one
// above the GPU's free memory is.
const MemoryLimitEnv = "APSP_GPU_MEMORY_LIMIT"

// memoryLimit reads MemoryLimitEnv: 0 when unset.
func memoryLimit() (uint64, error) {
	s := strings.TrimSpace(os.Getenv(MemoryLimitEnv))
	if s == "" {
		return 0, nil
	}
	v, err := sysmem.ParseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", MemoryLimitEnv, err)
	}
	return v, nil
}

// oocPlan is the shape of an out-of-core run, in lanes.
type oocPlan struct {
	stride, tile int
	s            int    // pivot block: vertices a round, a multiple of the tile
	h            int    // rows of a streamed strip, a multiple of the tile
	row          uint64 // bytes of a matrix row
}

// oocBuffers is how many streamed strips are on the device at once: one
// copied in, one computed, one copied out.
const oocBuffers = 3

// oocMaxBlock bounds S: the panels cost 2S/n of the run, and the copies
// of a round move the whole matrix, which a block of 4096 vertices keeps
// below the products on an H100 (n²·S relaxations at 1.4·10¹³ a second
// against 2·4n² bytes at some 25 GB/s each way).
const oocMaxBlock = 4096

// planOutOfCore fits the pivot strip and oocBuffers strips into budget
// bytes of device memory (besides the summaries), largest pivot block
// first.
func planOutOfCore(stride, tile, laneBytes int, budget uint64) (oocPlan, error) {
	p := oocPlan{stride: stride, tile: tile, row: uint64(stride) * uint64(laneBytes)}
	for s := min(oocMaxBlock, stride) / tile * tile; s >= tile; s -= tile {
		rest := int64(budget) - int64(gpurt.Class(uint64(s)*p.row))
		h := int(rest/int64(oocBuffers)/int64(p.row)) / tile * tile
		if h < tile {
			continue
		}
		p.s, p.h = s, min(h, max(s, 2*tile))
		for gpurt.Class(uint64(p.s)*p.row)+oocBuffers*gpurt.Class(uint64(p.h)*p.row) > budget && p.h > tile {
			p.h -= tile // the pool rounds buffers up
		}
		if gpurt.Class(uint64(p.s)*p.row)+oocBuffers*gpurt.Class(uint64(p.h)*p.row) <= budget {
			return p, nil
		}
	}
	return oocPlan{}, fmt.Errorf("%w: even out of core a %d×%d matrix needs %.2f GiB of GPU memory (a pivot strip and %d strips of %d rows); %.2f GiB are available",
		gpu.ErrDoesNotFit, stride, stride, float64(uint64(1+oocBuffers)*uint64(tile)*p.row)/(1<<30), oocBuffers, tile, float64(budget)/(1<<30))
}

// strip is a range of rows streamed through the device in a round.
type strip struct{ r0, r1 int }

// strips lists the rows of a round outside the pivot rows [z0, z1), in
// strips of at most h rows.
func (p oocPlan) strips(z0, z1 int) []strip {
	var out []strip
	for _, span := range [2][2]int{{0, z0}, {z1, p.stride}} {
		for r := span[0]; r < span[1]; r += p.h {
			out = append(out, strip{r, min(r+p.h, span[1])})
		}
	}
	return out
}

// storeMark is a copy out already queued: rows [r0, r1) are back on the
// host once ev has completed.
type storeMark struct {
	r0, r1 int
	ev     *cuda.Event
}

// runOutOfCore is run for a matrix kept in page-locked host memory (see
// the top of this file); budget bounds the device memory it holds.
func runOutOfCore(call *gpurt.Call, k *kernels, p Problem, src source, out sink, res *Result, budget uint64) error {
	c := p.Config
	lb := c.LaneBytes()
	pl, err := planOutOfCore(p.Stride, c.Tile, lb, budget)
	if err != nil {
		return err
	}
	bytes := uint64(p.Stride) * pl.row
	if _, avail, fits := sysmem.Fits(bytes, 1); !fits {
		return fmt.Errorf("%w, and out of core the %.2f GiB matrix needs page-locked host memory: %.2f GiB are available",
			gpu.ErrDoesNotFit, float64(bytes)/(1<<30), float64(avail)/(1<<30))
	}
	host, err := call.Host(bytes)
	if err != nil {
		return err
	}
	fill := src.host
	if fill == nil {
		fill = InitLanes(src.graph, p.Stride, c)
	}
	fill(unsafe.Slice((*uint32)(host), bytes/4))
	// Timed from here, as an in-core run's kernels are: the matrix is
	// built, and what follows is the computation with its copies.
	start := time.Now()

	dev := call.Dev()
	comp := call.Stream()
	load, err := call.SpareStream()
	if err != nil {
		return err
	}
	store, err := call.SpareStream()
	if err != nil {
		return err
	}
	var events []*cuda.Event
	defer func() {
		for _, e := range events {
			e.Destroy()
		}
	}()
	// hand records an event on from after the work queued there so far,
	// makes to (if any) wait for it, and returns it.
	hand := func(from, to *cuda.Stream) (*cuda.Event, error) {
		e, err := dev.NewEvent()
		if err != nil {
			return nil, err
		}
		events = append(events, e)
		if err := e.RecordOn(from); err != nil {
			return nil, err
		}
		if to != nil {
			if err := to.WaitEvent(e); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
	pivot, err := call.Mem(uint64(pl.s) * pl.row)
	if err != nil {
		return err
	}
	var bufs [oocBuffers]uint64
	var bufFree [oocBuffers]*cuda.Event // the buffer's last copy out is done
	for i := range bufs {
		if bufs[i], err = call.Mem(uint64(pl.h) * pl.row); err != nil {
			return err
		}
	}
	var sums uint64 // reach, max, sum, negative vertex of every row (the last round)
	if out.matrix == nil {
		if sums, err = call.Mem(uint64(p.N)*16 + 4); err != nil {
			return err
		}
		if err := comp.Memset32Async(sums+uint64(p.N)*16, uint32(math.MaxInt32), 1); err != nil {
			return err
		}
	}
	at := func(r int) unsafe.Pointer { return unsafe.Add(host, uint64(r)*pl.row) }
	// waitStored makes s wait for the copies out (of the last round) of
	// the rows [r0, r1).
	var stored []storeMark
	var pivotOut *cuda.Event // the last pivot strip's copy out
	waitStored := func(s *cuda.Stream, r0, r1 int) error {
		for _, m := range stored {
			if m.r0 < r1 && r0 < m.r1 {
				if err := s.WaitEvent(m.ev); err != nil {
					return err
				}
			}
		}
		return nil
	}
	product := func(cm, am, bm uint64, rows, ctiles, kdim, skip, skips int) error {
		return stripProduct(comp, k, p, cm, am, bm, rows, ctiles, kdim, skip, skips, 0, 0)
	}
	reduce := func(d uint64, r0, r1 int) error {
		if out.matrix != nil {
			return nil
		}
		return reduceStrip(comp, k, p, sums, d, r0, r1)
	}
	colOff := func(base uint64, z0 int) uint64 { return base + uint64(z0*lb) }
	used := 0 // strips streamed so far, to pick buffers in turn
	for z0 := 0; z0 < p.Stride; z0 += pl.s {
		if err := call.Ctx.Err(); err != nil {
			return err
		}
		z1 := min(z0+pl.s, p.Stride)
		last := z1 == p.Stride
		sz := z1 - z0
		var next []storeMark
		// 1. The pivot strip: in, closed, out. The buffer still holds the
		// last round's pivot strip until its copy out is done.
		if pivotOut != nil {
			if err := load.WaitEvent(pivotOut); err != nil {
				return err
			}
		}
		if err := waitStored(load, z0, z1); err != nil {
			return err
		}
		if err := load.CopyToDeviceAsync(pivot, at(z0), uint64(sz)*pl.row); err != nil {
			return err
		}
		if _, err := hand(load, comp); err != nil {
			return err
		}
		if err := fwBlock(call, k, c, colOff(pivot, z0), p.Stride, sz/c.Tile); err != nil {
			return err
		}
		if err := product(pivot, colOff(pivot, z0), pivot, sz, p.Stride/c.Tile, sz, z0/c.Tile, sz/c.Tile); err != nil {
			return err
		}
		if last {
			if err := reduce(pivot, z0, z1); err != nil {
				return err
			}
		}
		if _, err := hand(comp, store); err != nil {
			return err
		}
		if err := store.CopyToHostAsync(at(z0), pivot, uint64(sz)*pl.row); err != nil {
			return err
		}
		back, err := hand(store, nil)
		if err != nil {
			return err
		}
		pivotOut = back
		next = append(next, storeMark{z0, z1, back})
		// 2. Every other strip: in, through the pivot strip, out.
		for _, st := range pl.strips(z0, z1) {
			if err := call.Ctx.Err(); err != nil {
				return err
			}
			b := used % oocBuffers
			used++
			rows := st.r1 - st.r0
			if e := bufFree[b]; e != nil {
				if err := load.WaitEvent(e); err != nil {
					return err
				}
			}
			if err := waitStored(load, st.r0, st.r1); err != nil {
				return err
			}
			if err := load.CopyToDeviceAsync(bufs[b], at(st.r0), uint64(rows)*pl.row); err != nil {
				return err
			}
			if _, err := hand(load, comp); err != nil {
				return err
			}
			cols := colOff(bufs[b], z0)
			if err := product(cols, cols, colOff(pivot, z0), rows, sz/c.Tile, sz, 0, 0); err != nil {
				return err
			}
			// The other columns through the pivot strip; the pivot columns,
			// final now, are skipped.
			if err := product(bufs[b], cols, pivot, rows, p.Stride/c.Tile, sz, z0/c.Tile, sz/c.Tile); err != nil {
				return err
			}
			if last {
				if err := reduce(bufs[b], st.r0, st.r1); err != nil {
					return err
				}
			}
			if _, err := hand(comp, store); err != nil {
				return err
			}
			if err := store.CopyToHostAsync(at(st.r0), bufs[b], uint64(rows)*pl.row); err != nil {
				return err
			}
			back, err := hand(store, nil)
			if err != nil {
				return err
			}
			bufFree[b] = back
			next = append(next, storeMark{st.r0, st.r1, back})
		}
		// The next pivot strip overwrites this one: the products that read
		// it must be done (its copy out is pivotOut, waited for above).
		if _, err := hand(comp, load); err != nil {
			return err
		}
		stored = next
	}
	var summaries unsafe.Pointer
	if out.matrix == nil {
		size := uint64(p.N)*16 + 4
		if summaries, err = call.Host(size); err != nil {
			return err
		}
		if err := comp.CopyToHostAsync(summaries, sums, size); err != nil {
			return err
		}
	}
	for _, s := range []*cuda.Stream{load, comp, store} {
		if err := s.Synchronize(); err != nil {
			return err
		}
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	res.Timing.Kernel, res.Timing.Total, res.OutOfCore = ms, ms, true // copies included
	call.Device().AddTiming(ms, ms)
	if out.matrix != nil {
		return out.matrix(unsafe.Slice((*uint32)(host), bytes/4))
	}
	readSummaries(summaries, p.N, res)
	return nil
}

// stripProduct queues on st cm = min(cm, am ⊗ bm) over kdim (fw_strip),
// for the rows rows of cm but the tile rows [rskip, rskip+rskips) and its
// ctiles tile columns but [skip, skip+skips); the three share p's stride.
func stripProduct(st *cuda.Stream, k *kernels, p Problem, cm, am, bm uint64, rows, ctiles, kdim, skip, skips, rskip, rskips int) error {
	c := p.Config
	cols, rowTiles := ctiles-skips, rows/c.Tile-rskips
	if rowTiles <= 0 || cols <= 0 {
		return nil
	}
	n, k32, sk, sks, rsk, rsks := int32(p.Stride), int32(kdim), int32(skip), int32(skips), int32(rskip), int32(rskips)
	block := [3]uint32{uint32(c.TDim * c.Rows()), 1, 1}
	return k.strip.LaunchOn(st, [3]uint32{uint32(cols), uint32(rowTiles), 1}, block, uint32(k.product),
		unsafe.Pointer(&cm), unsafe.Pointer(&am), unsafe.Pointer(&bm), unsafe.Pointer(&n), unsafe.Pointer(&k32),
		unsafe.Pointer(&sk), unsafe.Pointer(&sks), unsafe.Pointer(&rsk), unsafe.Pointer(&rsks))
}

// reduceStrip queues on st the row summaries (fw_reduce) of the real
// vertices among rows [r0, r1), which lie at d, into sums (reach, max,
// sum and the negative vertex of all p.N rows, as reduceRows lays them).
func reduceStrip(st *cuda.Stream, k *kernels, p Problem, sums, d uint64, r0, r1 int) error {
	rows := min(r1, p.N) - r0
	if rows <= 0 {
		return nil
	}
	n, nv, first := int32(p.Stride), int32(p.N), int32(r0)
	maxReal := uint32(p.MaxReal)
	if p.Config.Float {
		maxReal = math.Float32bits(math.MaxFloat32)
	}
	reach, maxv, sum, neg := sums, sums+uint64(p.N)*4, sums+uint64(p.N)*8, sums+uint64(p.N)*16 // the kernel adds r0
	return k.reduce.LaunchOn(st, [3]uint32{uint32(rows), 1, 1}, [3]uint32{256, 1, 1}, 0,
		unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&nv), unsafe.Pointer(&first), unsafe.Pointer(&maxReal),
		unsafe.Pointer(&reach), unsafe.Pointer(&maxv), unsafe.Pointer(&sum), unsafe.Pointer(&neg))
}
