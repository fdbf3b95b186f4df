package cpu

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/par"
)

// DefaultTile is the tile width W of the blocked engine: a 64×64 int32 tile
// is 16 KiB, so the streamed tile of the min-plus product stays in L1.
const DefaultTile = 64

// TileFor returns the tile width for lanes of kind: tile when nonzero,
// else 128 for the byte and word lanes (a 128×128 tile is 16 KiB of int8,
// 32 KiB of int16: two and four 64-byte vectors a row for their kernels;
// in BenchmarkBlockedTiles 128 beat 64 and 256 for both: docs/perf.md,
// "CPU: blocked Floyd–Warshall") and DefaultTile otherwise.
func TileFor(kind lanes.Kind, tile int) int {
	switch {
	case tile != 0:
		return tile
	case kind == lanes.Int8 || kind == lanes.Int16:
		return 128
	}
	return DefaultTile
}

// BlockedOptions tunes Blocked.
type BlockedOptions struct {
	Tile     int           // tile width W, a multiple of 16; 0 means TileFor's (DefaultTile where Size is no multiple of it)
	Threads  int           // goroutines per phase; 0 means all CPUs
	Next     []int32       // successor matrix to maintain (scalar kernels), or nil
	Progress func(float64) // fraction of rounds done
	Kernels  KernelChoice  // which kernels to use
}

// KernelChoice picks the inner kernels.
type KernelChoice int

const (
	// FastKernels uses the vectorised min-plus kernels where the CPU has them.
	FastKernels KernelChoice = iota
	// ScalarKernels uses the portable Go loops (what the fast ones are tested against).
	ScalarKernels
)

// TileSize returns n rounded up to a multiple of the tile width.
func TileSize(n, tile int) int {
	if tile <= 0 {
		tile = DefaultTile
	}
	return (n + tile - 1) / tile * tile
}

// CheckTile validates a tile width.
func CheckTile(tile int) error {
	if tile == 0 {
		return nil
	}
	if tile < 16 || tile > 1024 || tile%16 != 0 {
		return fmt.Errorf("tile size %d: must be a multiple of 16 between 16 and 1024", tile)
	}
	return nil
}

// Blocked runs the blocked Floyd–Warshall algorithm (the seeds' Algorithm 2)
// on m, whose Size must be a multiple of the tile width. Each round Z
// updates the pivot tile, then the pivot row and column tiles in parallel,
// then every other tile in parallel; the last phase is a min-plus product
// C = min(C, A⊗B) with A and B fixed, the vectorised kernel's job. The
// caller must have ruled out negative cycles (FindNegativeCycle): with one,
// integer values could overflow.
func Blocked[T lanes.Lane](ctx context.Context, m *lanes.Matrix[T], opt BlockedOptions) error {
	w := opt.Tile
	if w == 0 {
		if w = TileFor(lanes.KindOf[T](), 0); m.Size%w != 0 {
			w = DefaultTile
		}
	}
	if err := CheckTile(w); err != nil {
		return err
	}
	if m.Size%w != 0 {
		return fmt.Errorf("matrix size %d is not a multiple of the tile %d", m.Size, w)
	}
	threads := par.Threads(opt.Threads)
	// Tiles of padding alone are isolated vertices: skip rounds and tiles
	// beyond the last one holding a real vertex.
	used := (m.N + w - 1) / w
	if used == 0 {
		return nil // no vertex: nothing to relax
	}
	ks := kernelsFor[T](opt.Kernels)
	s := m.Stride
	d := m.Data
	tile := func(x, y int) int { return x*w*s + y*w }
	// inPlace updates the pivot tile (z, z), which depends on itself: k
	// must run outermost. Row i of the tile is relaxed with D[i][k] and
	// row k restricted to the tile's columns.
	inPlace := func(x, y, z int) {
		for k := z * w; k < (z+1)*w; k++ {
			src := d[k*s+y*w : k*s+(y+1)*w]
			for i := x * w; i < (x+1)*w; i++ {
				ks.relaxRow(d[i*s+y*w:i*s+(y+1)*w], src, d[i*s+k])
			}
		}
	}
	others := used - 1
	scratch := make([]T, 2*others*w*w)
	// With kernels of an expanded A (int8, int16: minPlusPre), the A
	// operands are expanded once a round: pre holds tile (x, z) of every x
	// for the row of products that reads it, and preOld the column tiles'
	// values before phase 2 for their own products.
	var pre, preOld []int32
	if ks.minPlusPre != nil {
		pre, preOld = make([]int32, used*w*w), make([]int32, others*w*w)
	}
	expandTile := func(x, z int) {
		ks.expand(pre[x*w*w:(x+1)*w*w], d[tile(x, z):], s, w, w)
	}
	for z := 0; z < used; z++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		inPlace(z, z, z)
		if pre != nil {
			expandTile(z, z)
		}
		// Pivot row and column tiles: 2(used-1) independent tasks. The
		// pivot tile P is closed now (its diagonal 0), so a column tile
		// C becomes min(C, C⊗P) and a row tile min(C, P⊗C): one min-plus
		// product each, from a copy of C since the kernel may not read
		// the tile it writes. (Row by row in k order, as inPlace does, the
		// calls of one short vector each cost several times the kernel's
		// rate for byte lanes.)
		err := par.For(ctx, threads, 2*others, func(t int) {
			o := t % others
			if o >= z {
				o++
			}
			buf := scratch[t*w*w : (t+1)*w*w]
			switch {
			case t < others && pre != nil: // pivot column tile (o, z)
				old := preOld[t*w*w : (t+1)*w*w]
				ks.expand(old, d[tile(o, z):], s, w, w)
				ks.minPlusPre(d[tile(o, z):], s, old, w, d[tile(z, z):], s, w, w, w)
				expandTile(o, z) // phase 3's A
			case t < others:
				copyTile(buf, w, d[tile(o, z):], s, w)
				ks.minPlus(d[tile(o, z):], s, buf, w, d[tile(z, z):], s, w, w, w)
			case pre != nil: // pivot row tile (z, o)
				copyTile(buf, w, d[tile(z, o):], s, w)
				ks.minPlusPre(d[tile(z, o):], s, pre[z*w*w:], w, buf, w, w, w, w)
			default:
				copyTile(buf, w, d[tile(z, o):], s, w)
				ks.minPlus(d[tile(z, o):], s, d[tile(z, z):], s, buf, w, w, w, w)
			}
		})
		if err != nil {
			return err
		}
		err = par.For(ctx, threads, others*others, func(t int) {
			x, y := t/others, t%others
			if x >= z {
				x++
			}
			if y >= z {
				y++
			}
			if pre != nil {
				ks.minPlusPre(d[tile(x, y):], s, pre[x*w*w:], w, d[tile(z, y):], s, w, w, w)
				return
			}
			ks.minPlus(d[tile(x, y):], s, d[tile(x, z):], s, d[tile(z, y):], s, w, w, w)
		})
		if err != nil {
			return err
		}
		if opt.Progress != nil {
			opt.Progress(float64(z+1) / float64(used))
		}
	}
	return nil
}

// copyTile copies the w×w tile at src (row stride ls) to dst (stride ld).
func copyTile[T lanes.Lane](dst []T, ld int, src []T, ls, w int) {
	for i := 0; i < w; i++ {
		copy(dst[i*ld:i*ld+w], src[i*ls:i*ls+w])
	}
}
