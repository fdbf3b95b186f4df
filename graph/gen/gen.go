package gen

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp/graph"
)

// Spec describes a graph to generate.
type Spec struct {
	Kind   string            // regular, geometric, gnp, grid, torus, hypercube, complete, cycle, path, petersen
	Params map[string]string // key=value settings parsed from the command line: n=, d=, r=, a=, b=, weights=LO..HI, seed=, directed (value "true")
}

// KindInfo describes a kind for help text.
type KindInfo struct {
	Name        string // as given to ParseSpec
	Params      string // the kind's own parameters, such as "n= d="
	Description string // one line, including what the directed option does
	Example     string // a command line
}

// CommonParams are the options every kind takes besides its own Params.
const CommonParams = "weights=LO..HI seed=N directed"

// maxEdges bounds the edge count (arcs of a directed graph) of a generated
// graph.
const maxEdges = 1 << 31

// Seed-stream selectors for rand.NewPCG: separate streams keep the structure
// of a graph independent of whether weights or orientations are drawn.
const (
	streamStructure   = 0x5eed_0001_9e37_79b9
	streamWeights     = 0x5eed_0002_7f4a_7c15
	streamOrientation = 0x5eed_0003_f39c_c060
)

// Kinds lists the graph kinds with help text, in a fixed order.
func Kinds() []KindInfo {
	defs := kindDefs()
	infos := make([]KindInfo, len(defs))
	for i, d := range defs {
		infos[i] = d.info
	}
	return infos
}

// ParseSpec parses command-line arguments "key=value" (or a bare "directed")
// for a graph of the given kind. It checks the keys and their values, so
// that a Spec it returns is one Generate accepts unless it is too large.
func ParseSpec(kind string, args []string) (Spec, error) {
	def, err := lookup(kind)
	if err != nil {
		return Spec{}, err
	}
	s := Spec{Kind: kind, Params: make(map[string]string, len(args))}
	for _, arg := range args {
		key, value, hasValue := strings.Cut(arg, "=")
		if !hasValue {
			if key != "directed" {
				return Spec{}, fmt.Errorf("%s: argument %q is not key=value (%s takes %s)", kind, arg, kind, def.allowed())
			}
			value = "true"
		}
		if _, dup := s.Params[key]; dup {
			return Spec{}, fmt.Errorf("%s: %s= given twice", kind, key)
		}
		s.Params[key] = value
	}
	if _, err := compile(s); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// Generate builds the graph s describes.
func Generate(s Spec) (*graph.Graph, error) {
	return build(s)
}

// Make parses kind and its key=value arguments (as apsp gen takes them)
// and generates the graph: ParseSpec then Generate.
func Make(kind string, args ...string) (*graph.Graph, error) {
	s, err := ParseSpec(kind, args)
	if err != nil {
		return nil, err
	}
	return build(s)
}

func build(s Spec) (*graph.Graph, error) {
	p, err := compile(s)
	if err != nil {
		return nil, err
	}
	b := graph.NewBuilder(p.directed)
	if err := b.SetVertices(int(p.vertices)); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Kind, err)
	}
	b.Grow(int(p.edges))
	e := emitter{b: b, mode: undirected, w: p.weights}
	if p.weights.kind != graph.Unweighted {
		e.wrng = rand.New(rand.NewPCG(p.seed, streamWeights))
	}
	if p.directed {
		e.mode = p.def.directed
		if e.mode == randomOrientation {
			e.orng = rand.New(rand.NewPCG(p.seed, streamOrientation))
		}
	}
	rng := rand.New(rand.NewPCG(p.seed, streamStructure))
	if err := p.def.generate(p, rng, e.edge); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Kind, err)
	}
	return b.Build(), nil
}

// plan is a checked Spec.
type plan struct {
	def        *kindDef
	n, d, a, b int64   // the integer parameters that were given
	r          float64 // gnp's percentage
	weights    weightRange
	seed       uint64
	directed   bool
	vertices   int64 // of the graph to build
	m          int64 // edges {u, v} the generator emits
	edges      int64 // edges of the graph built: m, or 2m for two arcs per edge
}

// compile checks s and works out the size of its graph.
func compile(s Spec) (*plan, error) {
	def, err := lookup(s.Kind)
	if err != nil {
		return nil, err
	}
	kind := s.Kind
	p := &plan{def: def, seed: 1}
	// Sorted, so that of several bad parameters the same one is reported.
	for _, key := range slices.Sorted(maps.Keys(s.Params)) {
		value := s.Params[key]
		if !def.takes(key) {
			return nil, fmt.Errorf("%s: unknown parameter %q (%s takes %s)", kind, key, kind, def.allowed())
		}
		switch key {
		case "n", "d", "a", "b":
			x, err := parseInt(value)
			if err != nil {
				return nil, fmt.Errorf("%s: %s=%s: %w", kind, key, value, err)
			}
			if x > graph.MaxVertices {
				return nil, fmt.Errorf("%s: %s=%d: %w (at most %d vertices)", kind, key, x, graph.ErrTooLarge, graph.MaxVertices)
			}
			switch key {
			case "n":
				p.n = x
			case "d":
				p.d = x
			case "a":
				p.a = x
			case "b":
				p.b = x
			}
		case "r":
			if p.r, err = parsePercent(value); err != nil {
				return nil, fmt.Errorf("%s: r=%s: %w", kind, value, err)
			}
		case "weights":
			if p.weights, err = parseWeights(value); err != nil {
				return nil, fmt.Errorf("%s: weights=%s: %w", kind, value, err)
			}
		case "seed":
			if p.seed, err = strconv.ParseUint(value, 10, 64); err != nil {
				return nil, fmt.Errorf("%s: seed=%s: want a non-negative integer", kind, value)
			}
		case "directed":
			if p.directed, err = strconv.ParseBool(value); err != nil {
				return nil, fmt.Errorf("%s: directed=%s: want true or false", kind, value)
			}
		}
	}
	for _, key := range def.keys {
		if _, ok := s.Params[key]; !ok {
			return nil, fmt.Errorf("%s needs %s", kind, joinAnd(def.keys, "="))
		}
	}
	if p.vertices, p.m, err = def.size(p); err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if p.vertices > graph.MaxVertices {
		return nil, fmt.Errorf("%s: %d vertices: %w (at most %d)", kind, p.vertices, graph.ErrTooLarge, graph.MaxVertices)
	}
	p.edges = p.m
	if p.directed && def.directed == bothArcs {
		p.edges *= 2
	}
	if p.edges > maxEdges {
		return nil, fmt.Errorf("%s: %d edges: %w (at most %d)", kind, p.edges, graph.ErrTooLarge, int64(maxEdges))
	}
	return p, nil
}

// parseInt parses a decimal integer; it refuses negative values, which no
// parameter takes.
func parseInt(s string) (int64, error) {
	x, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("%w", graph.ErrTooLarge)
		}
		return 0, fmt.Errorf("want a non-negative integer")
	}
	if x < 0 {
		return 0, fmt.Errorf("want a non-negative integer")
	}
	return x, nil
}

// joinAnd joins keys as "n=, d= and r=", each followed by suffix.
func joinAnd(keys []string, suffix string) string {
	var sb strings.Builder
	for i, k := range keys {
		switch {
		case i == 0:
		case i == len(keys)-1:
			sb.WriteString(" and ")
		default:
			sb.WriteString(", ")
		}
		sb.WriteString(k + suffix)
	}
	return sb.String()
}

// arcMode says how an edge {u, v} becomes arcs.
type arcMode int

const (
	undirected        arcMode = iota // one undirected edge
	bothArcs                         // arcs u→v and v→u, weights drawn independently
	randomOrientation                // one arc, u→v or v→u with equal probability
	asEmitted                        // the arc u→v
)

// emitter adds the edges a generator emits to a builder, drawing weights.
type emitter struct {
	b    *graph.Builder
	mode arcMode
	w    weightRange
	wrng *rand.Rand // weights
	orng *rand.Rand // orientations
}

func (e *emitter) edge(u, v int) error {
	switch e.mode {
	case bothArcs:
		if err := e.arc(u, v); err != nil {
			return err
		}
		return e.arc(v, u)
	case randomOrientation:
		if e.orng.Uint64()&1 != 0 {
			u, v = v, u
		}
	}
	return e.arc(u, v)
}

func (e *emitter) arc(u, v int) error {
	switch e.w.kind {
	case graph.IntWeights:
		return e.b.AddIntEdge(u, v, e.w.drawInt(e.wrng))
	case graph.FloatWeights:
		return e.b.AddFloatEdge(u, v, e.w.drawFloat(e.wrng))
	}
	return e.b.AddEdge(u, v)
}
