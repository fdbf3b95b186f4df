package serve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// Candidates. A search that weighs several changes of one graph before it
// takes one (the annealing step that looks at a neighbourhood of swaps)
// sends them together: "candidates" on op summary of a held graph, each
// a change ("add", "remove", "add_weights") measured apart on the held
// graph as it is, which none of them changes. They are computed in one
// batch (apsp.SummaryChanges: on a GPU the bulk kernels, a swap sent as
// its arc edits; the batch over threads on the CPU), so a request costs one round trip whatever their
// number. A candidate that cannot be made (an edge missing or already
// there) gets its own error; the others are answered. The candidates'
// graphs count against --max-held while they are measured.

// MaxCandidates bounds the candidates of one request.
const MaxCandidates = 1 << 16

// candidate is one change of a held graph, measured apart.
type candidate struct {
	Add        [][]int64     `json:"add"`
	Remove     [][]int64     `json:"remove"`
	AddWeights []json.Number `json:"add_weights"`
}

// candidateError is a candidate's answer when it cannot be measured.
type candidateError struct {
	Error string `json:"error"`
	Kind  string `json:"kind"`
}

// candidates answers op summary with "candidates": {"summaries": [...]},
// one Summary or candidateError each, in order.
func (s *Server) candidates(ctx context.Context, r *request, opt apsp.Options) (any, error) {
	switch {
	case r.Op != "summary":
		return nil, badRequest(`"candidates" belong to op "summary"`)
	case r.Graph == "" || r.hasGraphFields():
		return nil, badRequest(`"candidates" change a held graph: name it by "graph" (and send no graph)`)
	case r.Add != nil || r.Remove != nil || r.AddWeights != nil:
		return nil, badRequest(`"candidates" are measured on the held graph as it is: change it first (op "update"), not with "add" or "remove" beside them`)
	case len(r.Candidates) > MaxCandidates:
		return nil, fmt.Errorf("%d candidates: the limit is %d a request: %w", len(r.Candidates), MaxCandidates, graph.ErrTooLarge)
	}
	s.heldMu.Lock()
	h, err := s.heldGraph(r.Graph)
	var base *graph.Graph
	held := s.heldTotal
	if err == nil {
		base = h.g // immutable: a later change makes a new one
	}
	s.heldMu.Unlock()
	if err != nil {
		return nil, err
	}
	// The candidates are held while they are measured: with the graphs
	// held, within --max-held.
	if _, maxBytes := s.limits(); held+int64(len(r.Candidates))*heldBytes(base) > maxBytes {
		return nil, fmt.Errorf("%d candidates of graph %q take %d bytes each, more than the server's limit for held graphs (--max-held %d bytes, %d of it held) allows: %w",
			len(r.Candidates), r.Graph, heldBytes(base), maxBytes, held, graph.ErrTooLarge)
	}
	out := make([]any, len(r.Candidates))
	chs := make([]graph.Changes, 0, len(r.Candidates))
	at := make([]int, 0, len(r.Candidates))
	for i, c := range r.Candidates {
		ch, err := candidateChanges(base, r.Graph, c)
		if err != nil {
			err = fmt.Errorf("candidates[%d]: %w", i, err)
			out[i] = candidateError{Error: err.Error(), Kind: Kind(err)}
			continue
		}
		chs = append(chs, ch)
		at = append(at, i)
	}
	sums, errs := apsp.SummaryChanges(ctx, base, chs, opt)
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled or past its time: the request's error, not each candidate's
	}
	for k, i := range at {
		if errs[k] != nil {
			out[i] = candidateError{Error: errs[k].Error(), Kind: Kind(errs[k])}
			continue
		}
		out[i] = sums[k]
	}
	return map[string]any{"summaries": out}, nil
}

// candidateChanges is one candidate's changes of base, checked as
// Change checks them (its error as the held graph's change would give it)
// but not made: SummaryChanges makes them, or on a GPU sends a swap as a
// few arc edits.
func candidateChanges(base *graph.Graph, name string, c candidate) (graph.Changes, error) {
	ch, err := changes(c.Add, c.Remove, c.AddWeights)
	if err != nil {
		return ch, err
	}
	if _, _, err := base.ArcEdits(ch, nil); err != nil {
		return ch, changeError(name, err, "the candidate is not measured")
	}
	return ch, nil
}
