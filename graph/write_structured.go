package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The writers of the formats that name vertices (GraphML, GML, Pajek) write
// the graph's names, or its ids when it has none (0-based in GraphML and
// GML, 1-based in Pajek, as each reads them back: names that are just the
// ids read back as no names). METIS has no names, and holds only
// undirected graphs with integer weights.

// vertexNames returns the name of every vertex, its id counted from base
// when the graph has no names.
func vertexNames(g *Graph, base int) []string {
	if g.names != nil {
		return g.names
	}
	names := make([]string, g.n)
	for v := range names {
		names[v] = strconv.Itoa(v + base)
	}
	return names
}

// isXMLChar reports whether XML 1.0 can hold r.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// WriteGraphML writes g as a GraphML document: a <key> "weight" (long or
// double) when g is weighted, a <graph> with edgedefault, a <node> for
// every vertex with its name as id, and an <edge> for every arc, or for
// every undirected edge once (source before target in vertex order). A
// negative self-loop is an edge of weight -1. A name that XML cannot hold
// (invalid UTF-8, control characters) is refused.
func WriteGraphML(w io.Writer, g *Graph) error {
	names := vertexNames(g, 0)
	for v, s := range names {
		ok := utf8.ValidString(s)
		for _, r := range s {
			ok = ok && isXMLChar(r)
		}
		if !ok {
			return fmt.Errorf("vertex %d: name %q cannot be written in XML", v, s)
		}
	}
	ew := newGraphWriter(w, g)
	ew.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	ew.str(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + "\n")
	switch g.kind {
	case IntWeights:
		ew.str(`  <key id="weight" for="edge" attr.name="weight" attr.type="long"/>` + "\n")
	case FloatWeights:
		ew.str(`  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>` + "\n")
	}
	if g.directed {
		ew.str(`  <graph id="G" edgedefault="directed">` + "\n")
	} else {
		ew.str(`  <graph id="G" edgedefault="undirected">` + "\n")
	}
	for _, s := range names {
		ew.str(`    <node id="`)
		xml.EscapeText(ew.bw, []byte(s))
		ew.str("\"/>\n")
	}
	ew.arcs(func(u, v int, weight []byte) {
		if !g.directed && v < u {
			return
		}
		ew.str(`    <edge source="`)
		xml.EscapeText(ew.bw, []byte(names[u]))
		ew.str(`" target="`)
		xml.EscapeText(ew.bw, []byte(names[v]))
		if len(weight) == 0 {
			ew.str("\"/>\n")
			return
		}
		ew.str(`"><data key="weight">`)
		ew.bw.Write(weight)
		ew.str("</data></edge>\n")
	})
	ew.str("  </graph>\n</graphml>\n")
	return ew.flush()
}

// WriteGML writes g as GML: "directed 0|1", a node [ id V label "name" ]
// for every vertex (ids 0..N-1) and an edge [ source U target V weight W ]
// for every arc, or for every undirected edge once. Strings escape '"',
// '&' and every byte outside printable ASCII as character references
// (&#233;), as NetworkX does; floats always have a decimal point ("1.0e+21"),
// which NetworkX needs to read them as floats. A name that is not valid
// UTF-8 is refused.
func WriteGML(w io.Writer, g *Graph) error {
	names := vertexNames(g, 0)
	for v, s := range names {
		if !utf8.ValidString(s) {
			return fmt.Errorf("vertex %d: name %q is not UTF-8, which GML cannot hold", v, s)
		}
	}
	ew := newGraphWriter(w, g)
	ew.str("graph [\n  directed ")
	if g.directed {
		ew.str("1\n")
	} else {
		ew.str("0\n")
	}
	var buf []byte
	for v, s := range names {
		ew.str("  node [\n    id ")
		ew.int(int64(v))
		ew.str("\n    label \"")
		buf = appendGMLString(buf[:0], s)
		ew.bw.Write(buf)
		ew.str("\"\n  ]\n")
	}
	ew.arcs(func(u, v int, weight []byte) {
		if !g.directed && v < u {
			return
		}
		ew.str("  edge [\n    source ")
		ew.int(int64(u))
		ew.str("\n    target ")
		ew.int(int64(v))
		if len(weight) > 0 {
			ew.str("\n    weight ")
			if g.kind == FloatWeights && !bytes.ContainsRune(weight, '.') {
				// "1e+21" → "1.0e+21": a GML real has a point.
				e := bytes.IndexAny(weight, "eE")
				ew.bw.Write(weight[:e])
				ew.str(".0")
				ew.bw.Write(weight[e:])
			} else {
				ew.bw.Write(weight)
			}
		}
		ew.str("\n  ]\n")
	})
	ew.str("]\n")
	return ew.flush()
}

// appendGMLString appends s with '"', '&' and every rune outside printable
// ASCII written as a decimal character reference.
func appendGMLString(dst []byte, s string) []byte {
	for _, r := range s {
		if r < ' ' || r > '~' || r == '"' || r == '&' {
			dst = append(dst, "&#"...)
			dst = strconv.AppendInt(dst, int64(r), 10)
			dst = append(dst, ';')
			continue
		}
		dst = append(dst, byte(r))
	}
	return dst
}

// WritePajek writes g as a Pajek network: "*Vertices N", a line `k "name"`
// for every vertex k = 1..N, then "*Arcs" (directed) or "*Edges" and a line
// "u v [w]" for every arc, or for every undirected edge once. Pajek has no
// escapes: a name with a '"' is written unquoted (as NetworkX does), which
// it can be only when it has no blank and does not start with '"'; one
// that cannot, or that holds a line break, is refused.
func WritePajek(w io.Writer, g *Graph) error {
	names := vertexNames(g, 1)
	for v, s := range names {
		if strings.ContainsAny(s, "\n\r") || strings.Contains(s, `"`) && !pajekBare(s) {
			return fmt.Errorf("vertex %d: name %q cannot be written in Pajek (a line break, or a quote with blanks)", v, s)
		}
	}
	ew := newGraphWriter(w, g)
	ew.str("*Vertices ")
	ew.int(int64(g.n))
	ew.str("\n")
	for v, s := range names {
		ew.int(int64(v) + 1)
		if strings.Contains(s, `"`) {
			ew.str(" " + s + "\n")
			continue
		}
		ew.str(` "`)
		ew.str(s)
		ew.str("\"\n")
	}
	if g.directed {
		ew.str("*Arcs\n")
	} else {
		ew.str("*Edges\n")
	}
	ew.arcs(func(u, v int, weight []byte) {
		if !g.directed && v < u {
			return
		}
		ew.int(int64(u) + 1)
		ew.str(" ")
		ew.int(int64(v) + 1)
		if len(weight) > 0 {
			ew.str(" ")
			ew.bw.Write(weight)
		}
		ew.str("\n")
	})
	return ew.flush()
}

// pajekBare reports whether a name can be a Pajek label without quotes:
// one field, not starting with a quote.
func pajekBare(s string) bool {
	if s == "" || s[0] == '"' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if isBlank(s[i]) {
			return false
		}
	}
	return true
}

// ErrNotMETIS is returned by WriteMETIS for a graph METIS cannot hold.
var ErrNotMETIS = errors.New("METIS files hold undirected graphs without self-loops, with integer weights if any")

// WriteMETIS writes g as a METIS graph: the header "n m" ("n m 1" with
// weights) and a line for each vertex listing its neighbours from 1, each
// followed by the edge's weight when weighted. It refuses, wrapping
// ErrNotMETIS, a directed graph, float weights and a negative self-loop.
// Names, which METIS cannot hold, are not written.
func WriteMETIS(w io.Writer, g *Graph) error {
	switch {
	case g.directed:
		return fmt.Errorf("directed graph: %w", ErrNotMETIS)
	case g.kind == FloatWeights:
		return fmt.Errorf("float weights: %w", ErrNotMETIS)
	case g.negLoop >= 0:
		return fmt.Errorf("negative self-loop at vertex %d: %w", g.negLoop, ErrNotMETIS)
	}
	ew := newGraphWriter(w, g)
	ew.int(int64(g.n))
	ew.str(" ")
	ew.int(int64(g.Edges()))
	if g.kind == IntWeights {
		ew.str(" 1")
	}
	ew.str("\n")
	for u := range g.n {
		for i, v := range g.Neighbors(u) {
			if i > 0 {
				ew.str(" ")
			}
			ew.int(int64(v) + 1)
			if g.kind == IntWeights {
				ew.str(" ")
				ew.int(g.intW[g.offsets[u]+i])
			}
		}
		ew.str("\n")
	}
	return ew.flush()
}
