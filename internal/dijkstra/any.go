package dijkstra

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/lanes"
)

// FillAny is Fill on an erased matrix.
func FillAny(ctx context.Context, g *graph.Graph, m lanes.Any, threads int, progress func(float64)) error {
	switch mm := m.(type) {
	case *lanes.Matrix[int32]:
		return Fill(ctx, g, mm, threads, progress)
	case *lanes.Matrix[int64]:
		return Fill(ctx, g, mm, threads, progress)
	case *lanes.Matrix[float64]:
		return Fill(ctx, g, mm, threads, progress)
	}
	return fmt.Errorf("dijkstra: no search fills %v lanes", m.Kind())
}

// JohnsonFillAny is JohnsonFill on an erased matrix.
func JohnsonFillAny(ctx context.Context, g *graph.Graph, m lanes.Any, threads int, progress func(float64)) error {
	switch mm := m.(type) {
	case *lanes.Matrix[int32]:
		return JohnsonFill(ctx, g, mm, threads, progress)
	case *lanes.Matrix[int64]:
		return JohnsonFill(ctx, g, mm, threads, progress)
	case *lanes.Matrix[float64]:
		return JohnsonFill(ctx, g, mm, threads, progress)
	}
	return fmt.Errorf("johnson: no search fills %v lanes", m.Kind())
}
