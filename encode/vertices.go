package encode

import (
	"strconv"
)

// Vertices says how answers name a graph's vertices: by the graph's names
// (graph.Graph.Names) when it has them, else by id counted from Base (1
// for the formats that number vertices from 1, and --one-based).
type Vertices struct {
	Names []string
	Base  int
}

// Text returns vertex v as text: its name, or its id.
func (vs Vertices) Text(v int) string {
	if vs.Names != nil {
		return vs.Names[v]
	}
	return strconv.Itoa(v + vs.Base)
}

// JSON returns vertex v as a JSON value: its name (a string), or its id
// (a number).
func (vs Vertices) JSON(v int) any {
	if vs.Names != nil {
		return vs.Names[v]
	}
	return v + vs.Base
}

// Parse returns the vertex that s names: by name, or by id within
// 0..n-1 counted from Base. ok is false when no vertex is s.
func (vs Vertices) Parse(s string, n int) (v int, ok bool) {
	if vs.Names != nil {
		for v, name := range vs.Names {
			if name == s {
				return v, true
			}
		}
		return 0, false
	}
	id, err := strconv.Atoi(s)
	if err != nil || id-vs.Base < 0 || id-vs.Base >= n {
		return 0, false
	}
	return id - vs.Base, true
}
