package graph

import (
	"errors"
	"fmt"
	"strconv"
)

// Vertex names. A graph read from a file that names its vertices (CSV,
// GraphML, GML, Pajek, or an edge list read with ReadOptions.Labels)
// numbers them 0..N-1 in the order they first appear and keeps the names,
// so that every answer can be given in the file's own words. A graph
// without names (nil Names) is answered in its vertex ids.

// ErrDuplicateName is a name given to two vertices.
var ErrDuplicateName = errors.New("two vertices have the same name")

// Names returns the vertices' names, indexed by vertex id, or nil when the
// vertices have none (their ids are their names). The slice must not be
// modified.
func (g *Graph) Names() []string { return g.names }

// Name returns the name of vertex v: its name when the graph has names,
// else its id in decimal.
func (g *Graph) Name(v int) string {
	if g.names != nil {
		return g.names[v]
	}
	return strconv.Itoa(v)
}

// VertexNamed returns the vertex called name, and whether there is one.
// It looks through every name (once a lookup; keep a map for many).
func (g *Graph) VertexNamed(name string) (int, bool) {
	for v, s := range g.names {
		if s == name {
			return v, true
		}
	}
	return 0, false
}

// WithNames returns g with names for its vertices (nil removes them),
// sharing g's arcs. There must be one name a vertex, each distinct.
func (g *Graph) WithNames(names []string) (*Graph, error) {
	if names != nil {
		if len(names) != g.n {
			return nil, fmt.Errorf("%d names for %d vertices", len(names), g.n)
		}
		seen := make(map[string]int, len(names))
		for v, s := range names {
			if u, ok := seen[s]; ok {
				return nil, fmt.Errorf("%w: vertices %d and %d are both %q", ErrDuplicateName, u, v, s)
			}
			seen[s] = v
		}
		names = append([]string(nil), names...)
	}
	h := *g
	h.names = names
	return &h, nil
}

// nameIndex numbers names in the order they first appear.
type nameIndex struct {
	ids   map[string]int
	names []string
}

// Vertex returns the vertex called name, adding one (the next id) when no
// vertex has that name yet. Once one vertex has a name, they all have: a
// vertex added without one (by SetVertices or an edge by id) is named by
// its id in decimal, or, when a vertex already has that name, by the id
// with a suffix "#2", "#3"….
func (b *Builder) Vertex(name string) (int, error) {
	if b.index.ids == nil {
		b.index.ids = make(map[string]int)
	}
	b.nameUnnamed(b.n)
	if v, ok := b.index.ids[name]; ok {
		return v, nil
	}
	v := b.n
	if err := b.SetVertices(v + 1); err != nil {
		return 0, err
	}
	b.index.ids[name] = v
	b.index.names = append(b.index.names, name)
	return v, nil
}

// VertexBytes is Vertex for a name held in a byte slice that the caller
// may reuse: the map lookup of a known name copies nothing.
func (b *Builder) VertexBytes(name []byte) (int, error) {
	if v, ok := b.index.ids[string(name)]; ok && len(b.index.names) == b.n {
		return v, nil
	}
	return b.Vertex(string(name))
}

// NamedVertices returns how many vertices have been given names.
func (b *Builder) NamedVertices() int { return len(b.index.names) }

// nameUnnamed names the vertices below v that were added without a name,
// by their ids, so that names stay indexed by id. A name already taken
// gets a suffix "#2", "#3"… (names must stay distinct).
func (b *Builder) nameUnnamed(v int) {
	for u := len(b.index.names); u < v; u++ {
		name := strconv.Itoa(u)
		for k := 2; ; k++ {
			if _, taken := b.index.ids[name]; !taken {
				break
			}
			name = strconv.Itoa(u) + "#" + strconv.Itoa(k)
		}
		b.index.ids[name] = u
		b.index.names = append(b.index.names, name)
	}
}

// builtNames returns the names of a built graph of n vertices: nil when no
// vertex was named, else one a vertex.
func (b *Builder) builtNames(n int) []string {
	if b.index.ids == nil {
		return nil
	}
	b.nameUnnamed(n)
	names := b.index.names
	b.index = nameIndex{}
	return names
}
