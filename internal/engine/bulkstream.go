package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/bulk"
	"github.com/apsp/apsp/internal/reduce"
)

// bulkStream is the bulk search's rows delivered in groups of group graphs (0: the
// whole batch at once) over bulk.Stream: onGroup(lo, hi, rows) is
// called in order, on the caller's goroutine, as soon as each group's rows
// are in host memory, with the GPU's name. Its errors are bulk.Rows's, or
// onGroup's.
func bulkStream(ctx context.Context, ordinal int, gs []*graph.Graph, group int,
	onGroup func(lo, hi int, rows [][]reduce.Row, device string) error) error {
	name := deviceName(ordinal)
	// A group's rows are held until it is delivered: at most about
	// groupRows rows (64 bytes each) a group, so that groups of large
	// graphs stay small (128 of 16 384 vertices; 2 048 of 1 024).
	const groupRows = 1 << 21
	most := 1
	for _, g := range gs {
		most = max(most, g.N())
	}
	if group > 0 {
		group = min(group, max(1, groupRows/most))
	}
	return bulk.Stream(ctx, gpu.OnGPU(ordinal), gs, bulk.StreamConfig{Group: group}, func(lo, hi int, rows [][]reduce.Row) error {
		return onGroup(lo, hi, rows, name)
	})
}

// deviceName is GPU ordinal's name, or "gpu" when it cannot be read.
func deviceName(ordinal int) string {
	if infos, err := gpu.Devices(); err == nil {
		for _, in := range infos {
			if in.Ordinal == ordinal {
				return in.Name
			}
		}
	}
	return "gpu"
}
