package serve

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/apsp/apsp/graph"
)

// Held graphs. A client that measures one graph step by step (a search
// loop swapping two edges a step) loads it once ("op":"load") and then
// names it ("graph": HANDLE) with the step's changes ("add", "remove",
// "add_weights"), which change the held graph for good before it is
// measured: the next request sees the changed graph. The server keeps
// each held graph as the immutable graph.Graph it measures; a change
// makes the next one with graph.Graph.Change, which copies the arrays in
// blocks and sorts nothing (O(n + m), a few microseconds at m = 16 384),
// rather than sending, parsing and building the graph again.

// DefaultMaxGraphs and DefaultMaxHeld bound the graphs a server holds
// (Server.MaxGraphs, Server.MaxHeld) when not set.
const (
	DefaultMaxGraphs = 1000
	DefaultMaxHeld   = 1 << 30
)

// maxHandle bounds a handle's bytes.
const maxHandle = 256

// held is one held graph.
type held struct {
	g     *graph.Graph
	bytes int64
}

// heldBytes is what a held graph costs: the offsets, heads and lengths
// the Graph keeps.
func heldBytes(g *graph.Graph) int64 {
	per := int64(graph.HeadBytes)
	if g.Weighted() {
		per += graph.WeightBytes
	}
	return int64(g.N()+1)*8 + int64(g.Arcs())*per
}

// handleError is a request naming a graph the server does not hold: kind
// unknown_handle (a client whose co-process restarted loads it again).
type handleError struct{ name string }

func (e *handleError) Error() string {
	return fmt.Sprintf("no graph is held as %q (load it first; a restarted server holds none)", e.name)
}

func (s *Server) limits() (graphs int, bytes int64) {
	graphs, bytes = s.MaxGraphs, s.MaxHeld
	if graphs <= 0 {
		graphs = DefaultMaxGraphs
	}
	if bytes <= 0 {
		bytes = DefaultMaxHeld
	}
	return graphs, bytes
}

// heldAnswer is the answer of load and update.
type heldAnswer struct {
	Handle   string `json:"handle"`
	Vertices int    `json:"vertices"`
	Arcs     int    `json:"arcs"`
	Edges    int    `json:"edges"`
	Directed bool   `json:"directed"`
	Weighted bool   `json:"weighted"`
}

func heldInfo(name string, g *graph.Graph) heldAnswer {
	return heldAnswer{name, g.N(), g.Arcs(), g.Edges(), g.Directed(), g.Weighted()}
}

// checkHeldOp refuses the fields that do not belong to load, update and
// drop.
func (r *request) checkHeldOp() error {
	if r.Source != nil || r.Target != nil || r.File != "" || r.WFImproved != nil || r.Sources != nil || r.Targets != nil || r.Sample != nil || r.Options != (options{}) {
		return badRequest(`op %q takes no options, "source", "target", "file" or "wf_improved"`, r.Op)
	}
	if r.Op != "load" && r.Handle != "" {
		return badRequest(`"handle" names the graph a load holds: op %q names a held graph by "graph"`, r.Op)
	}
	if r.Op != "update" && (r.Add != nil || r.Remove != nil || r.AddWeights != nil) {
		return badRequest(`op %q takes no "add", "remove" or "add_weights"`, r.Op)
	}
	if r.Op != "load" && r.hasGraphFields() {
		return badRequest(`op %q names a held graph by "graph" and carries no graph`, r.Op)
	}
	return nil
}

// hasGraphFields reports whether r carries a graph inline.
func (r *request) hasGraphFields() bool {
	return r.N != nil || r.Directed || r.Edges != nil || r.EdgesB64 != "" || r.edgesRaw != nil ||
		r.Weights != nil || r.WeightsB64 != "" || r.weightsRaw != nil || r.WeightsDtype != ""
}

// load holds the request's graph.
func (s *Server) load(r *request) (any, error) {
	s.heldMu.Lock()
	defer s.heldMu.Unlock()
	if r.Graph != "" {
		return nil, badRequest(`op "load" carries its graph inline and names it by "handle", not "graph"`)
	}
	name := r.Handle
	if len(name) > maxHandle {
		return nil, badRequest("handle of %d bytes: at most %d", len(name), maxHandle)
	}
	if _, ok := s.held[name]; ok {
		return nil, badRequest("handle %q is in use: drop it first", name)
	}
	maxGraphs, maxBytes := s.limits()
	if len(s.held) >= maxGraphs {
		return nil, fmt.Errorf("the server holds %d graphs, its limit (--max-graphs %d): drop one first: %w", len(s.held), maxGraphs, graph.ErrTooLarge)
	}
	g, err := r.buildGraph()
	if err != nil {
		return nil, err
	}
	b := heldBytes(g)
	if s.heldTotal+b > maxBytes {
		return nil, fmt.Errorf("holding this graph (%d bytes) beside the %d held would pass the server's limit (--max-held %d bytes): drop one first: %w",
			b, s.heldTotal, maxBytes, graph.ErrTooLarge)
	}
	for name == "" {
		s.named++
		if _, ok := s.held[fmt.Sprintf("g%d", s.named)]; !ok {
			name = fmt.Sprintf("g%d", s.named)
		}
	}
	if s.held == nil {
		s.held = map[string]*held{}
	}
	s.held[name] = &held{g: g, bytes: b}
	s.heldTotal += b
	return heldInfo(name, g), nil
}

// drop frees a held graph.
func (s *Server) drop(r *request) (any, error) {
	s.heldMu.Lock()
	defer s.heldMu.Unlock()
	h, err := s.heldGraph(r.Graph)
	if err != nil {
		return nil, err
	}
	delete(s.held, r.Graph)
	s.heldTotal -= h.bytes
	return struct {
		Handle  string `json:"handle"`
		Dropped bool   `json:"dropped"`
	}{r.Graph, true}, nil
}

// heldGraph is the graph held as name.
func (s *Server) heldGraph(name string) (*held, error) {
	if name == "" {
		return nil, badRequest(`op needs "graph": the handle of a held graph`)
	}
	h, ok := s.held[name]
	if !ok {
		return nil, &handleError{name}
	}
	return h, nil
}

// changed makes the request's changes to the graph it names, all or
// none, and returns the graph as changed, and undo, which puts the graph
// back as it was (for a measurement that then fails) unless another
// request has changed it since; undo is nil when nothing changed.
func (s *Server) changed(r *request) (g *graph.Graph, undo func(), err error) {
	s.heldMu.Lock()
	defer s.heldMu.Unlock()
	h, err := s.heldGraph(r.Graph)
	if err != nil {
		return nil, nil, err
	}
	if r.Add == nil && r.Remove == nil {
		if r.AddWeights != nil {
			return nil, nil, badRequest(`"add_weights" without "add"`)
		}
		return h.g, nil, nil
	}
	c, err := changes(r.Add, r.Remove, r.AddWeights)
	if err != nil {
		return nil, nil, err
	}
	if g, err = change(h.g, r.Graph, c, "nothing changed"); err != nil {
		return nil, nil, err
	}
	b := heldBytes(g)
	if _, maxBytes := s.limits(); s.heldTotal-h.bytes+b > maxBytes {
		return nil, nil, fmt.Errorf("graph %q: changed, it would take %d bytes, and the held graphs more than the server's limit (--max-held %d bytes); nothing changed: %w",
			r.Graph, b, maxBytes, graph.ErrTooLarge)
	}
	base, baseBytes := h.g, h.bytes
	s.heldTotal += b - h.bytes
	h.g, h.bytes = g, b
	undo = func() {
		s.heldMu.Lock()
		defer s.heldMu.Unlock()
		// Not when another request changed the graph since (its change
		// was made on this one), nor when the graph as it was no longer
		// fits beside what was loaded since.
		_, maxBytes := s.limits()
		if s.held[r.Graph] == h && h.g == g && s.heldTotal-h.bytes+baseBytes <= maxBytes {
			s.heldTotal += baseBytes - h.bytes
			h.g, h.bytes = base, baseBytes
		}
	}
	return g, undo, nil
}

// changes are a request's "add", "remove" and "add_weights".
func changes(add, remove [][]int64, addWeights []json.Number) (graph.Changes, error) {
	var c graph.Changes
	var err error
	if c.Remove, err = pairs(remove, "remove"); err != nil {
		return c, err
	}
	if c.Add, err = pairs(add, "add"); err != nil {
		return c, err
	}
	if addWeights != nil {
		if len(addWeights) != len(add) {
			return c, badRequest("%d add_weights for %d edges to add", len(addWeights), len(add))
		}
		if c.AddInt, c.AddFloat, err = numbers(addWeights, "add_weights"); err != nil {
			return c, err
		}
	}
	return c, nil
}

// change is g, held as name, with the changes c made; after says what
// became of the held graph when they cannot be made.
func change(g *graph.Graph, name string, c graph.Changes, after string) (*graph.Graph, error) {
	changed, err := g.Change(c)
	if err != nil {
		return nil, changeError(name, err, after)
	}
	return changed, nil
}

// changeError is the request's error for Change's refusal err of a change
// of the graph held as name.
func changeError(name string, err error, after string) error {
	if errors.Is(err, graph.ErrNoEdge) || errors.Is(err, graph.ErrEdgeExists) {
		return badRequest("graph %q: %v (%s)", name, err, after)
	}
	return &graphError{fmt.Errorf("graph %q: %w (%s)", name, err, after)}
}

// pairs are a change's [u, v] pairs.
func pairs(list [][]int64, what string) ([][2]int, error) {
	if list == nil {
		return nil, nil
	}
	out := make([][2]int, len(list))
	for i, e := range list {
		if len(e) != 2 {
			return nil, badRequest("%s[%d]: %d numbers, want [u, v] (lengths go in \"add_weights\")", what, i, len(e))
		}
		for k, x := range e {
			if x < -1<<31 || x >= 1<<31 {
				return nil, &graphError{fmt.Errorf("%s[%d]: vertex %d out of range", what, i, x)}
			}
			out[i][k] = int(x)
		}
	}
	return out, nil
}
