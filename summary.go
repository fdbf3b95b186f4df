package apsp

import (
	"context"
	"math"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/gpu"
	"github.com/apsp/apsp/internal/par"
)

// Summary is what a search loop asks of each candidate graph (Graph Golf's
// diameter and average shortest path length), with the meaning Stats gives
// those fields: the diameter and ASPL are infinite when some pair has no
// path, unless Options.Reachable (then over the pairs that have one); the
// ASPL of no pair (one vertex, or Reachable without a path) is NaN. It has no radius, center or periphery, so the
// GPU reduces it on the device and only a few bytes a graph come back.
type Summary struct {
	Vertices       int     `json:"vertices"`
	Connected      bool    `json:"connected"`
	Diameter       Length  `json:"diameter"`
	ASPL           Mean    `json:"aspl"`
	ReachablePairs int64   `json:"reachable_pairs"`
	Algorithm      string  `json:"algorithm"`
	Device         string  `json:"device"`
	Seconds        float64 `json:"seconds"`
}

// SummaryBatch computes the Summary of every graph of graphs, results and
// errors in input order as StatsBatch gives them. With opt.Device "gpu" or
// "gpu:N" (or "auto" with a GPU open and the bulk search's estimate lower)
// and the engine left to "auto", the unweighted graphs of 1 to 1024
// vertices are searched together on the GPU and reduced there
// (algorithm "gpu-bulk"): one such graph a call took 38–42 µs on an H100
// (docs/perf.md). The other graphs, and all of them when the GPU search
// fails, take StatsBatch's path.
func SummaryBatch(ctx context.Context, graphs []*graph.Graph, opt Options) ([]Summary, []error) {
	return summaryBatch(ctx, graphs, opt, nil)
}

// summaryBatch is SummaryBatch, with an Evaluator's kept plan or nil.
func summaryBatch(ctx context.Context, graphs []*graph.Graph, opt Options, keep *keptPlan) ([]Summary, []error) {
	sums, errs := make([]Summary, len(graphs)), make([]error, len(graphs))
	if err := opt.Validate(false); err != nil {
		for i := range errs {
			errs[i] = err
		}
		return sums, errs
	}
	rest := summariesOnGPU(ctx, graphs, opt, sums)
	if len(rest) == 0 {
		return sums, errs
	}
	gs := make([]*graph.Graph, len(rest))
	for k, i := range rest {
		gs[k] = graphs[i]
	}
	stats, serrs := statsBatch(ctx, gs, opt, BatchOptions{}, true, keep)
	for k, i := range rest {
		if errs[i] = serrs[k]; errs[i] == nil {
			sums[i] = stats[k].Summary()
		}
	}
	return sums, errs
}

// Summary returns the fields of s that a Summary has.
func (s *Stats) Summary() Summary {
	return Summary{Vertices: s.Vertices, Connected: s.Connected, Diameter: s.Diameter, ASPL: s.ASPL,
		ReachablePairs: s.ReachablePairs, Algorithm: s.Algorithm, Device: s.Device, Seconds: s.Seconds}
}

// summariesOnGPU fills sums for the graphs the GPU bulk search takes, under
// the conditions StatsBatch's bulk path has, and returns the indices of the
// others (all of them when the search fails).
func summariesOnGPU(ctx context.Context, graphs []*graph.Graph, opt Options, sums []Summary) []int {
	fit, rest, gs, ordinal, ok := bulkShare(ctx, graphs, opt, par.Threads(opt.Threads))
	if !ok {
		return allOf(graphs)
	}
	start := time.Now()
	bs, device, err := engine.BulkSummaries(ctx, ordinal, gs)
	if err != nil {
		return allOf(graphs)
	}
	each := time.Since(start).Seconds() / float64(len(gs))
	for k, i := range fit {
		sums[i] = summaryOfBulk(bs[k], opt.Reachable)
		sums[i].Algorithm, sums[i].Device, sums[i].Seconds = engine.BulkName, device, each
	}
	return rest
}

// summaryOfBulk gives a graph's bulk summary (its reachable pairs, their
// distance sum and the largest distance) Stats' meaning.
func summaryOfBulk(b gpu.BulkSummary, reachable bool) Summary {
	s := Summary{Vertices: b.Vertices, Connected: b.Connected, ReachablePairs: b.Pairs}
	switch finite := b.Connected || reachable; {
	case !finite:
		s.Diameter, s.ASPL = Infinite(false), Mean(math.Inf(1))
	case b.Pairs > 0:
		s.Diameter, s.ASPL = IntLength(b.Diameter), Mean(float64(b.Sum)/float64(b.Pairs))
	default: // no pair has a path (one vertex, or reachable with no arc)
		s.Diameter, s.ASPL = IntLength(0), Mean(math.NaN())
	}
	return s
}
