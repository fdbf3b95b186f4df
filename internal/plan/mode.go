package plan

import "github.com/apsp/apsp/graph"

// Mode says which distances a per-vertex measure of a directed graph
// reads, as igraph's mode argument does: Out the distances from the
// vertex, In those to it, All those of the graph with its directions
// dropped (graph.Graph.Undirected). On an undirected graph every mode
// reads the same distances.
type Mode int

const (
	// ModeDefault is the measure's own default: out for eccentricities
	// and the statistics, in for closeness and harmonic centrality (as
	// NetworkX computes them).
	ModeDefault Mode = iota
	ModeOut
	ModeIn
	ModeAll
)

func (m Mode) String() string {
	switch m {
	case ModeOut:
		return "out"
	case ModeIn:
		return "in"
	case ModeAll:
		return "all"
	}
	return "default"
}

// ParseMode reads "out", "in", "all", or "" (also "default") for the
// measure's default.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "", "default":
		return ModeDefault, nil
	case "out":
		return ModeOut, nil
	case "in":
		return ModeIn, nil
	case "all":
		return ModeAll, nil
	}
	return ModeDefault, invalid("mode", "unknown: %q (have out, in, all)", s)
}

// ModeOr is o's mode, def when none was given.
func (o *Options) ModeOr(def Mode) Mode {
	if o.Mode == ModeDefault {
		return def
	}
	return o.Mode
}

// View is the graph whose rows (distances from each source) are the
// distances a measure reads in mode m: g for out, its transpose for in,
// its undirected view for all; g itself when undirected.
func View(g *graph.Graph, m Mode) *graph.Graph {
	switch {
	case !g.Directed():
		return g
	case m == ModeIn:
		return g.Transpose()
	case m == ModeAll:
		return g.Undirected()
	}
	return g
}

// NoEffective returns an error for an entry point other than Stats given
// an effective-diameter ratio (what names it), else nil.
func (o *Options) NoEffective(what string) error {
	if o.Effective != 0 {
		return invalid("effective", "%s computes no effective diameter (ComputeStats does)", what)
	}
	return nil
}

// NoMode returns an error for an entry point that reads the distances
// from each vertex alone (what), given mode in or all, else nil.
func (o *Options) NoMode(what string) error {
	if o.Mode == ModeIn || o.Mode == ModeAll {
		return invalid("mode", "%s reads the distances from each vertex only (mode out), not mode %s", what, o.Mode)
	}
	return nil
}
