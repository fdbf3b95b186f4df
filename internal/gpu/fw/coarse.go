package fw

import (
	gpurt "github.com/apsp/apsp/internal/gpu/runtime"
)

// Coarse rounds: the out-of-core schedule (outofcore.go) run on a matrix
// that lies on the device whole, without its copies. A round closes a
// pivot block of Config.Coarse vertices with the tile rounds (fwBlock),
// then passes every other row through it in long min-plus products
// (fw_strip, whose inner dimension is the whole block), where the tile
// rounds' products have the inner dimension of one tile. On an H100 at
// n = 32 768 in int16 lanes the out-of-core form, copies included, ran
// faster than the in-core tile rounds (1.39 against 1.44 s, docs/perf.md).

// fwCoarse queues the coarse rounds on matrix d of p (multi-kernel,
// Config.Coarse a multiple of the tile below the stride).
func fwCoarse(call *gpurt.Call, k *kernels, p Problem, d uint64) error {
	c := p.Config
	n, t := p.Stride, c.Tile
	row := uint64(n) * uint64(c.LaneBytes())
	st := call.Stream()
	at := func(r, col int) uint64 { return d + uint64(r)*row + uint64(col*c.LaneBytes()) }
	for z0 := 0; z0 < n; z0 += c.Coarse {
		if err := call.Ctx.Err(); err != nil {
			return err
		}
		z1 := min(z0+c.Coarse, n)
		sz := z1 - z0
		// The pivot block closed, then the rest of its rows through it.
		if err := fwBlock(call, k, c, at(z0, z0), n, sz/t); err != nil {
			return err
		}
		if err := stripProduct(st, k, p, at(z0, 0), at(z0, z0), at(z0, 0), sz, n/t, sz, z0/t, sz/t, 0, 0); err != nil {
			return err
		}
		// Every other row, above and below the block in one launch: its
		// pivot columns through the closed block (in place, as the
		// out-of-core strips are), then its other columns through the
		// pivot rows.
		if err := stripProduct(st, k, p, at(0, z0), at(0, z0), at(z0, z0), n, sz/t, sz, 0, 0, z0/t, sz/t); err != nil {
			return err
		}
		if err := stripProduct(st, k, p, at(0, 0), at(0, z0), at(z0, 0), n, n/t, sz, z0/t, sz/t, z0/t, sz/t); err != nil {
			return err
		}
	}
	return nil
}
