package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/reduce"
)

// BulkName is the algorithm the GPU bulk search reports: many small
// unweighted graphs searched together on one GPU (gpu.BulkRows), a thread
// block per graph. It is not an engine of its own: a batch of graphs asked
// for on a GPU takes it (apsp.StatsBatch).
const BulkName = "gpu-bulk"

// BulkFits reports whether the GPU bulk search takes g: unweighted, with 1
// to gpu.BulkMaxN vertices.
func BulkFits(g *graph.Graph) bool {
	return g != nil && g.Kind() == graph.Unweighted && g.N() >= 1 && g.N() <= gpu.BulkMaxN
}

// BulkRows returns every source's summary of each graph of gs (each
// BulkFits) from one bulk search on GPU ordinal, and the GPU's name. Its
// errors are the batch's: no usable GPU (matching ErrNoGPU), a driver
// failure, ctx's.
func BulkRows(ctx context.Context, ordinal int, gs []*graph.Graph) ([][]reduce.Row, string, error) {
	rows, err := gpu.BulkRows(ctx, ordinal, gs)
	if err != nil {
		return nil, "", err
	}
	name := "gpu"
	if infos, err := gpu.Devices(); err == nil {
		for _, in := range infos {
			if in.Ordinal == ordinal {
				name = in.Name
			}
		}
	}
	return rows, name, nil
}
