package gpu

import (
	"testing"

	"github.com/apsp/apsp/internal/lanes"
)

func TestConfigCheck(t *testing.T) {
	for _, c := range []Config{{Tile: 64, TDim: 32}, {Tile: 48, TDim: 4}, {Tile: 0, TDim: 16},
		{Kernel: Multi, Tile: 64, TDim: 16, Coarse: 96}, {Kernel: Single, Tile: 64, TDim: 16, Coarse: 128},
		{Kernel: Multi, Tile: 64, TDim: 16, Coarse: -64}} {
		if c.Check() == nil {
			t.Errorf("%+v: want an error", c)
		}
	}
	// ConfigFor picks coarse rounds for large int32 and int16 problems of
	// the multi-kernel form only.
	for _, c := range []struct {
		k    Kernel
		n    int
		kind lanes.Kind
		want int
	}{{Multi, 32768, lanes.Int16, coarseBlock}, {Multi, 8192, lanes.Int32, coarseBlock}, {Multi, 8192, 0, coarseBlock},
		{Multi, 4096, lanes.Int16, 0}, {Multi, 32768, lanes.Int8, 0}, {Multi, 32768, lanes.Float32, 0}, {Single, 32768, lanes.Int16, 0}} {
		got := ConfigFor(c.k, c.n, c.kind)
		if got.Coarse != c.want || got.Check() != nil {
			t.Errorf("ConfigFor(%v, %d, %v): coarse %d (check %v), want %d", c.k, c.n, c.kind, got.Coarse, got.Check(), c.want)
		}
	}
	coarse := DefaultConfig(Multi, 10000, false)
	coarse.Coarse = 4 * coarse.Tile
	for _, c := range []Config{DefaultConfig(Multi, 10000, false), coarse} {
		if err := c.Check(); err != nil {
			t.Error(err)
		}
	}
}

// TestConfigForLanes: every default shape is valid and keeps int32's stride.
func TestConfigForLanes(t *testing.T) {
	for _, n := range []int{1, 100, 512, 513, 2048, 2049, 40000} {
		for _, k := range []Kernel{Multi, Single} {
			for _, kind := range []lanes.Kind{lanes.Int8, lanes.Int16, lanes.Int32, lanes.Float32} {
				c := ConfigFor(k, n, kind)
				if err := c.Check(); err != nil {
					t.Errorf("n=%d %v %v: %v", n, k, kind, err)
				}
				if c.Tile != DefaultConfig(k, n, false).Tile {
					t.Errorf("n=%d %v %v: tile %d, int32's %d", n, k, kind, c.Tile, DefaultConfig(k, n, false).Tile)
				}
				if kind == lanes.Int8 || kind == lanes.Int16 {
					if c.Pack() != 4/kind.Bytes() || c.LaneBytes() != kind.Bytes() {
						t.Errorf("%v: pack %d, %d bytes", kind, c.Pack(), c.LaneBytes())
					}
					// The product's shared memory for MinBlocks blocks fits an
					// H100 SM (228 KiB, 1 KiB reserved a block).
					if sh := ProductShared(c.Tile, c.Pack()); max(c.MinBlocks, 1)*(sh+1024) > 228<<10 {
						t.Errorf("%v n=%d: %d blocks of %d shared bytes", kind, n, c.MinBlocks, sh)
					}
				}
			}
		}
	}
	if (Config{Tile: 64, TDim: 16, Lanes: lanes.Int16}).Check() == nil {
		t.Error("64 lanes are 32 words: 16 threads of 4 words do not fit")
	}
	if (Config{Tile: 64, TDim: 8, Lanes: lanes.Int16, Float: true}).Check() == nil {
		t.Error("packed float lanes accepted")
	}
}
