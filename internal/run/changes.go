package run

import (
	"context"
	"fmt"
	"time"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/engine"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/plan"
	"github.com/apsp/apsp/internal/result"
)

// ChangeSummaries is Summaries of the graphs base.Change(changes[i])
// (apsp.Evaluator.SummaryChanges): changes[i]'s error when Change refuses
// it, else its graph's Summary. A batch engine that reduces edited copies
// on the device (engine.EditSummarizer) takes the changes that keep every
// arc count without their graphs being built, where it would take the
// graphs; every other change is built and measured as Summaries measures
// a batch, with keep.
func ChangeSummaries(ctx context.Context, base *graph.Graph, changes []graph.Changes, o *plan.Options, keep *Kept) ([]result.Summary, []error) {
	sums, errs := make([]result.Summary, len(changes)), make([]error, len(changes))
	if err := batchRefuses(o, 0); err != nil || base == nil {
		if err == nil {
			err = fmt.Errorf("the graph to change: %w", ErrNilGraph)
		}
		for i := range errs {
			errs[i] = err
		}
		return sums, errs
	}
	done := make([]bool, len(changes))
	threads := o.CPUs()
	if es := editEngine(base, len(changes), o, threads); es != nil {
		lists := make([][]graph.ArcEdit, len(changes))
		oks := make([]bool, len(changes))
		buf := make([]graph.ArcEdit, 4*len(changes)) // a swap's four arcs each, without an allocation
		_ = par.For(context.Background(), threads, len(changes), func(i int) {
			lists[i], oks[i], errs[i] = base.ArcEdits(changes[i], buf[4*i:4*i:4*i+4])
		})
		var at []int
		var edits [][]graph.ArcEdit
		for i, ok := range oks {
			if ok {
				at, edits = append(at, i), append(edits, lists[i])
			}
		}
		if len(at) > 0 {
			start := time.Now()
			ts, device, err := es.EditTotals(ctx, o.Device.Ordinal, base, edits)
			switch {
			case err == nil:
				each := time.Since(start).Seconds() / float64(len(at))
				for k, i := range at {
					t := ts[k]
					s := result.SummaryOfTotals(t.Vertices, t.Connected, t.Pairs, t.Sum, t.Diameter, o.Reachable)
					s.Algorithm, s.Device, s.Seconds = es.Name(), device, each
					sums[i], done[i] = s, true
				}
			case ctx.Err() != nil:
				for i := range errs {
					if errs[i] == nil {
						errs[i] = ctx.Err()
					}
				}
				return sums, errs
			case o.Notice != nil:
				// Refused (the arcs' table does not fit this GPU's shared
				// memory, say): the graphs are built and measured instead.
				o.Notice(fmt.Sprintf("%s: the changes measured as built graphs: %v", es.Name(), err))
			}
		}
	}
	// The rest are built and measured as a batch.
	var rest []int
	for i := range changes {
		if !done[i] && errs[i] == nil {
			rest = append(rest, i)
		}
	}
	if len(rest) == 0 {
		return sums, errs
	}
	gs := make([]*graph.Graph, len(rest))
	_ = par.For(context.Background(), threads, len(rest), func(k int) {
		gs[k], errs[rest[k]] = base.Change(changes[rest[k]])
	})
	var built []*graph.Graph
	var at []int
	for k, g := range gs {
		if g != nil {
			built, at = append(built, g), append(at, rest[k])
		}
	}
	bs, berrs := Summaries(ctx, built, o, keep)
	for k, i := range at {
		sums[i], errs[i] = bs[k], berrs[k]
	}
	return sums, errs
}

// ChangesAsEdits reports whether ChangeSummaries measures the changes of
// base that keep every arc count without building them, under o (a batch
// engine takes them as edits).
func ChangesAsEdits(base *graph.Graph, o *plan.Options) bool {
	return base != nil && batchRefuses(o, 0) == nil && editEngine(base, 1, o, o.CPUs()) != nil
}

// editEngine is the batch engine that takes count edited copies of base
// under o on threads threads, as the batch would take their graphs
// (plan.BatchMay, plan.BatchWins, the engine's EditsFit), or nil.
func editEngine(base *graph.Graph, count int, o *plan.Options, threads int) engine.EditSummarizer {
	if count == 0 {
		return nil
	}
	for _, e := range engine.Batches() {
		es, ok := e.(engine.EditSummarizer)
		if !ok || !plan.BatchMay(o, e) || !es.EditsFit(base) {
			continue
		}
		var same []*graph.Graph // the graphs' sizes, for an estimate ("auto")
		if o.Device.Kind != "gpu" {
			same = make([]*graph.Graph, count)
			for i := range same {
				same[i] = base
			}
		}
		if plan.BatchWins(o, e, same, threads) {
			return es
		}
	}
	return nil
}
