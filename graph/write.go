package graph

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The writers produce files that the readers turn back into the same graph:
// the same arcs with the same weights. Weights of a float graph are written
// with the shortest representation that parses back to the same float64,
// with ".0" added to integral values so that they are read as floats again;
// a -0 (which only a Builder caller can make) is written, and so read back,
// as 0.
//
// The Graph keeps only the vertex of a negative self-loop, not its length,
// so such a loop is written with length -1: enough for a reader to record
// the negative cycle again.
//
// Two things do not come back, as the formats cannot say them: a DIMACS
// file is directed and weighted (see WriteDIMACS), and a graph with no arcs
// and no negative self-loop reads back unweighted whatever its weight kind,
// as no weight shows the kind.

// Write writes g in format f (FormatAuto and FormatEdgeList: an edge
// list), by the writer of that format's name.
func Write(w io.Writer, g *Graph, f Format) error {
	write := map[Format]func(io.Writer, *Graph) error{
		FormatMatrixMarket: WriteMatrixMarket, FormatDIMACS: WriteDIMACS, FormatCSV: WriteCSV,
		FormatGraphML: WriteGraphML, FormatGML: WriteGML, FormatPajek: WritePajek, FormatMETIS: WriteMETIS,
		FormatGraph6: WriteGraph6, FormatSparse6: WriteSparse6, FormatDigraph6: WriteDigraph6,
	}[f]
	if write == nil {
		write = WriteEdgeList
	}
	return write(w, g)
}

// WriteEdgeList writes g as an edge list: a header of comment lines
// "# key: value" (vertices, edges, directed, weights), then one line "u v"
// (unweighted) or "u v w" per edge with 0-based ids. An undirected edge is
// written once, as "u v" with u < v. The reader takes the vertex count and
// directedness from the header ("# vertices: N", "# directed: true|false";
// see Read), so that isolated vertices above every id used, a graph of one
// vertex and a directed graph all read back the same with no options; the
// edges and weights lines are for people.
//
// A graph with names (Graph.Names) is written in them, under a header line
// "# labels: true" that has the reader take them as names; a vertex with
// no edge is a line of its name alone. A name an edge list cannot hold
// (empty, or with a blank, a comma, a brace, a quote, or starting with '#'
// or '%') is refused before anything is written: write CSV or GraphML.
func WriteEdgeList(w io.Writer, g *Graph) error {
	if err := edgeListNames(g); err != nil {
		return err
	}
	ew := newGraphWriter(w, g)
	lines := ew.lines()
	ew.str("# apsp edge list\n")
	if g.names != nil {
		ew.str("# labels: true\n")
	}
	ew.str("# vertices: ")
	ew.int(int64(g.N()))
	ew.str("\n# edges: ")
	ew.int(int64(lines))
	ew.str("\n# directed: ")
	ew.str(strconv.FormatBool(g.Directed()))
	ew.str("\n# weights: ")
	ew.str(g.Kind().String())
	ew.str("\n")
	ew.arcs(func(u, v int, weight []byte) {
		if !g.directed && v < u {
			return // the edge is written from its smaller end
		}
		ew.vertex(u)
		ew.str(" ")
		ew.vertex(v)
		if len(weight) > 0 {
			ew.str(" ")
			ew.bw.Write(weight)
		}
		ew.str("\n")
	})
	if g.names != nil {
		ew.isolated(func(v int) { ew.str(g.names[v] + "\n") })
	}
	return ew.flush()
}

// edgeListNames refuses a graph with a name that an edge list cannot hold
// as one field of a line that is not a comment.
func edgeListNames(g *Graph) error {
	for _, s := range g.names {
		if s == "" || s[0] == '#' || s[0] == '%' || strings.ContainsAny(s, " \t\r\v\f\n,{}'\"") || s == "\ufeff" {
			return fmt.Errorf("vertex name %q cannot be written in an edge list (write CSV or GraphML)", s)
		}
	}
	return nil
}

// WriteCSV writes g as CSV with a header row, "source,target" and
// ",weight" when weighted, then a row an edge (an undirected edge once,
// from its smaller end), in the vertices' names or, without names, their
// 0-based ids: what pandas.read_csv and nx.from_pandas_edgelist read, and
// what Read takes back (ids then read as names). A vertex with no edge is
// a row with an empty target.
func WriteCSV(w io.Writer, g *Graph) error {
	ew := newGraphWriter(w, g)
	cw := csv.NewWriter(ew.bw)
	row := []string{"source", "target", "weight"}
	if !g.Weighted() {
		row = row[:2]
	}
	cw.Write(row)
	ew.arcs(func(u, v int, weight []byte) {
		if !g.directed && v < u {
			return
		}
		row[0], row[1] = g.Name(u), g.Name(v)
		if len(row) == 3 {
			row[2] = string(weight)
		}
		cw.Write(row)
	})
	ew.isolated(func(v int) {
		row[0], row[1] = g.Name(v), ""
		if len(row) == 3 {
			row[2] = ""
		}
		cw.Write(row)
	})
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return ew.flush()
}

// WriteMatrixMarket writes g as a Matrix Market coordinate matrix with
// 1-based ids, entry "i j" being the arc i→j: "pattern" when unweighted,
// "integer" or "real" otherwise; "general" when directed and "symmetric"
// when not, in which case each edge is stored once in the lower triangle
// (row >= column).
func WriteMatrixMarket(w io.Writer, g *Graph) error {
	ew := newGraphWriter(w, g)
	field := "pattern"
	switch g.Kind() {
	case IntWeights:
		field = "integer"
	case FloatWeights:
		field = "real"
	}
	symmetry := "symmetric"
	if g.Directed() {
		symmetry = "general"
	}
	ew.str("%%MatrixMarket matrix coordinate " + field + " " + symmetry + "\n")
	ew.str("% written by apsp: ")
	ew.int(int64(g.N()))
	if g.Directed() {
		ew.str(" vertices, directed\n")
	} else {
		ew.str(" vertices, undirected\n")
	}
	ew.int(int64(g.N()))
	ew.str(" ")
	ew.int(int64(g.N()))
	ew.str(" ")
	ew.int(int64(ew.lines()))
	ew.str("\n")
	ew.arcs(func(u, v int, weight []byte) {
		if !g.directed && v > u {
			return // the lower triangle holds the edge
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

// WriteDIMACS writes g in the DIMACS shortest-path format: a "c" comment,
// the problem line "p sp N M" and M arc lines "a u v w" with 1-based ids.
// DIMACS graphs are directed, so an undirected edge becomes two arcs, and an
// unweighted graph is written with every weight 1: the file reads back as a
// directed graph with integer weights (for an unweighted graph), which has
// the same arcs, lengths and distances.
func WriteDIMACS(w io.Writer, g *Graph) error {
	ew := newGraphWriter(w, g)
	ew.str("c written by apsp: ")
	ew.int(int64(g.N()))
	ew.str(" vertices, ")
	if g.Directed() {
		ew.str("directed, ")
	} else {
		ew.str("undirected (each edge written as two arcs), ")
	}
	ew.str(g.Kind().String())
	ew.str(" weights\np sp ")
	ew.int(int64(g.N()))
	ew.str(" ")
	arcs := g.Arcs()
	if g.negLoop >= 0 {
		arcs++
	}
	ew.int(int64(arcs))
	ew.str("\n")
	ew.arcs(func(u, v int, weight []byte) {
		ew.str("a ")
		ew.int(int64(u) + 1)
		ew.str(" ")
		ew.int(int64(v) + 1)
		if len(weight) == 0 {
			ew.str(" 1\n") // DIMACS requires a weight
			return
		}
		ew.str(" ")
		ew.bw.Write(weight)
		ew.str("\n")
	})
	return ew.flush()
}

// appendFloatWeight appends x so that it reads back as the same float64 and
// as a float, not an integer: 3 is written "3.0". A -0 is written "0.0", as
// the readers read every zero as +0.
func appendFloatWeight(dst []byte, x float64) []byte {
	if x == 0 {
		x = 0 // -0 becomes +0
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'g', -1, 64)
	if !bytes.ContainsAny(dst[start:], ".eEnN") { // no point, exponent, Inf or NaN
		dst = append(dst, ".0"...)
	}
	return dst
}

// graphWriter formats a graph through a bufio.Writer; the first write error
// is kept by bufio and returned by flush.
type graphWriter struct {
	bw  *bufio.Writer
	g   *Graph
	buf []byte
}

func newGraphWriter(w io.Writer, g *Graph) *graphWriter {
	return &graphWriter{bw: bufio.NewWriterSize(w, 64<<10), g: g, buf: make([]byte, 0, 32)}
}

func (ew *graphWriter) str(s string) { ew.bw.WriteString(s) }

func (ew *graphWriter) int(x int64) {
	ew.buf = strconv.AppendInt(ew.buf[:0], x, 10)
	ew.bw.Write(ew.buf)
}

func (ew *graphWriter) flush() error { return ew.bw.Flush() }

// vertex writes v's name, or its 0-based id when the graph has no names.
func (ew *graphWriter) vertex(v int) {
	if ew.g.names != nil {
		ew.str(ew.g.names[v])
		return
	}
	ew.int(int64(v))
}

// isolated calls f for every vertex with no arc in or out and no negative
// self-loop: the vertices that an edge list's lines would not name.
func (ew *graphWriter) isolated(f func(v int)) {
	for v, t := range ew.g.touched() {
		if !t {
			f(v)
		}
	}
}

// touched tells, a vertex, whether an arc or a negative self-loop has it
// as an end.
func (g *Graph) touched() []bool {
	t := make([]bool, g.n)
	for u := range g.n {
		if nb := g.Neighbors(u); len(nb) > 0 {
			t[u] = true
			for _, v := range nb {
				t[v] = true
			}
		}
	}
	if g.negLoop >= 0 {
		t[g.negLoop] = true
	}
	return t
}

// lines returns how many edge lines the edge list and Matrix Market writers
// produce: the stored edges plus a negative self-loop.
func (ew *graphWriter) lines() int {
	m := ew.g.Edges()
	if ew.g.negLoop >= 0 {
		m++
	}
	return m
}

// arcs calls f for every arc in order of tail then head, with its weight
// formatted (empty when unweighted; valid only during the call); a negative
// self-loop comes first among the arcs of its vertex.
func (ew *graphWriter) arcs(f func(u, v int, weight []byte)) {
	g := ew.g
	wbuf := make([]byte, 0, 32)
	for u := 0; u < g.n; u++ {
		if u == g.negLoop {
			wbuf = append(wbuf[:0], "-1"...)
			if g.kind == FloatWeights {
				wbuf = append(wbuf, ".0"...)
			}
			f(u, u, wbuf)
		}
		for i, v := range g.Neighbors(u) {
			wbuf = wbuf[:0]
			switch g.kind {
			case IntWeights:
				wbuf = strconv.AppendInt(wbuf, g.intW[g.offsets[u]+i], 10)
			case FloatWeights:
				wbuf = appendFloatWeight(wbuf, g.floatW[g.offsets[u]+i])
			}
			f(u, int(v), wbuf)
		}
	}
}
