package engine

import (
	"context"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/gpu/bulk"
	"github.com/apsp/apsp/internal/lanes"
	"github.com/apsp/apsp/internal/reduce"
)

// A BatchEngine computes many small graphs together (a GPU bulk kernel, a
// thread block a graph) where one-graph engines would pay a launch or a
// plan per graph. The executor offers it, in Batches' order, the graphs
// of a batch that no engine before it took; the graphs it does not
// deliver go the one-graph way.
type BatchEngine interface {
	// Name is the algorithm its results report.
	Name() string
	// Fits reports whether it takes g (its weights and size).
	Fits(g *graph.Graph) bool
	// TakesLanes reports whether it computes in lanes k when the caller
	// names them; a batch engine that picks its lanes per graph takes
	// none.
	TakesLanes(k lanes.Kind) bool
	// Wins reports whether, on the "auto" device, it is expected to beat
	// the CPU batch of gs on threads threads: a GPU already open in the
	// process (the batch never pays a GPU's start-up) and a lower
	// estimate.
	Wins(gs []*graph.Graph, threads int) bool
	// Stream computes gs on GPU ordinal in groups of group graphs and
	// hands each group to deliver as soon as it is back: one call at a
	// time, in order, from one goroutine (the caller counts on it), out[k]
	// being graph lo+k's result, valid only during the call. An error ends
	// the stream; the groups delivered before it stand. A streaming engine
	// computes the next group while deliver runs; one that does not
	// computes it after.
	Stream(ctx context.Context, ordinal int, gs []*graph.Graph, group int,
		deliver func(lo, hi int, out []BatchResult, device string) error) error
}

// BatchResult is one graph's result from a BatchEngine: every source's
// summary in exact integer lanes, or why this graph alone must go the
// one-graph way (lengths its lanes cannot hold, a negative cycle).
type BatchResult struct {
	Rows  []reduce.Row
	Lanes lanes.Kind
	Err   error
}

// BatchTotals is a graph's summary reduced on the device: its reachable
// ordered pairs, their distance sum and the largest distance, and whether
// every vertex reaches every other.
type BatchTotals = bulk.Summary

// A BatchSummarizer is a BatchEngine that can also reduce each graph to
// its BatchTotals on the device, for callers that want only the diameter
// and ASPL (a search loop): a few bytes come back a graph, not its rows.
type BatchSummarizer interface {
	BatchEngine
	Totals(ctx context.Context, ordinal int, gs []*graph.Graph) ([]BatchTotals, string, error)
}

// An EditSummarizer is a BatchSummarizer that also reduces edited copies
// of one graph (graph.ArcEdits: changes that keep every arc count, a
// search's edge swaps) without their graphs being built: the base goes to
// the device once, and each copy as its few arc edits.
type EditSummarizer interface {
	BatchSummarizer
	// EditsFit reports whether it may take edited copies of base (the
	// device may still refuse them, and the caller then builds them).
	EditsFit(base *graph.Graph) bool
	// EditTotals is Totals of base with each list of edits made.
	EditTotals(ctx context.Context, ordinal int, base *graph.Graph, edits [][]graph.ArcEdit) ([]BatchTotals, string, error)
}

// Batches returns every batch engine of this build, in the order the
// executor offers them graphs.
func Batches() []BatchEngine { return []BatchEngine{bulkSearch{}, bulkFW{}} }

// bulkSearch is the GPU bulk breadth-first search (unweighted graphs of up
// to bulk.MaxN vertices, int32 lanes).
type bulkSearch struct{}

func (bulkSearch) Name() string                 { return BulkName }
func (bulkSearch) Fits(g *graph.Graph) bool     { return BulkFits(g) }
func (bulkSearch) TakesLanes(k lanes.Kind) bool { return k == lanes.Int32 }
func (bulkSearch) Wins(gs []*graph.Graph, threads int) bool {
	return BulkWins(gs, threads)
}

func (bulkSearch) Stream(ctx context.Context, ordinal int, gs []*graph.Graph, group int,
	deliver func(lo, hi int, out []BatchResult, device string) error) error {
	var out []BatchResult
	return bulkStream(ctx, ordinal, gs, group, func(lo, hi int, rows [][]reduce.Row, device string) error {
		out = out[:0]
		for _, r := range rows {
			out = append(out, BatchResult{Rows: r, Lanes: lanes.Int32})
		}
		return deliver(lo, hi, out, device)
	})
}

func (bulkSearch) Totals(ctx context.Context, ordinal int, gs []*graph.Graph) ([]BatchTotals, string, error) {
	return bulkSummaries(ctx, ordinal, gs)
}

// EditsFit is bulk.EditsFit, and where GPUs are already known (a loaded
// driver's: asking loads none) bulk.EditsFitShared on each.
func (bulkSearch) EditsFit(base *graph.Graph) bool {
	if !bulk.EditsFit(base) {
		return false
	}
	infos, _ := gpu.LoadedDevices()
	for _, in := range infos {
		if !bulk.EditsFitShared(base, in.MaxShared) {
			return false
		}
	}
	return true
}

func (bulkSearch) EditTotals(ctx context.Context, ordinal int, base *graph.Graph, edits [][]graph.ArcEdit) ([]BatchTotals, string, error) {
	sums, err := bulk.EditSummaries(ctx, gpu.OnGPU(ordinal), base, edits)
	if err != nil {
		return nil, "", err
	}
	return sums, deviceName(ordinal), nil
}

// bulkFW is the GPU bulk Floyd–Warshall (integer-weighted graphs of up to
// BulkFWMaxN vertices, int16 or int32 lanes picked per graph).
type bulkFW struct{}

func (bulkFW) Name() string                 { return BulkFWName }
func (bulkFW) Fits(g *graph.Graph) bool     { return BulkFWFits(g) }
func (bulkFW) TakesLanes(k lanes.Kind) bool { return false }
func (bulkFW) Wins(gs []*graph.Graph, threads int) bool {
	return bulkFWWins(gs, threads)
}

func (bulkFW) Stream(ctx context.Context, ordinal int, gs []*graph.Graph, group int,
	deliver func(lo, hi int, out []BatchResult, device string) error) error {
	var out []BatchResult
	for lo := 0; lo < len(gs); lo += group {
		hi := min(lo+group, len(gs))
		rows, kinds, errs, device, err := bulkFWRows(ctx, ordinal, gs[lo:hi])
		if err != nil {
			return err
		}
		out = out[:0]
		for k := range rows {
			out = append(out, BatchResult{Rows: rows[k], Lanes: kinds[k], Err: errs[k]})
		}
		if err := deliver(lo, hi, out, device); err != nil {
			return err
		}
	}
	return nil
}

// GPUsOpened is how many GPUs this process has opened so far: under the
// "auto" device, an open GPU changes what the planner picks.
func GPUsOpened() int { return gpu.Opened() }

// CloseGPUs releases the GPU runtime: contexts, modules and pooled memory.
func CloseGPUs() error { return gpu.Close() }
