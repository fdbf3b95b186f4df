package graph

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a graph file format.
type Format int

const (
	// FormatAuto picks the format from the file name's extension (see
	// FormatFromName) and, where that names none, from the content (see Read).
	FormatAuto Format = iota
	// FormatEdgeList is one edge per line: "u v" or "u v w".
	FormatEdgeList
	// FormatMatrixMarket is a Matrix Market coordinate file (.mtx).
	FormatMatrixMarket
	// FormatDIMACS is a DIMACS shortest-path file (.gr).
	FormatDIMACS
	// FormatCSV is a CSV edge list with a header row (.csv): vertex
	// names in named source and target columns (see ReadOptions.CSV).
	FormatCSV
	// FormatGraph6, FormatSparse6 and FormatDigraph6 are nauty's formats
	// (.g6, .s6, .d6): one graph a line, each line in any of the three
	// (see NewSixReader).
	FormatGraph6
	FormatSparse6
	FormatDigraph6
	// FormatGraphML is a GraphML file (.graphml), read as an XML stream.
	FormatGraphML
	// FormatGML is a GML file (.gml): graph [ node [...] edge [...] ].
	FormatGML
	// FormatPajek is a Pajek network (.net): *Vertices, *Arcs, *Edges.
	FormatPajek
	// FormatMETIS is a METIS graph (.graph): a header "n m [fmt [ncon]]"
	// and one adjacency line a vertex.
	FormatMETIS
)

// String returns the name ParseFormat accepts for f.
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatEdgeList:
		return "edgelist"
	case FormatMatrixMarket:
		return "mtx"
	case FormatDIMACS:
		return "gr"
	case FormatCSV:
		return "csv"
	case FormatGraph6:
		return "graph6"
	case FormatSparse6:
		return "sparse6"
	case FormatDigraph6:
		return "digraph6"
	case FormatGraphML:
		return "graphml"
	case FormatGML:
		return "gml"
	case FormatPajek:
		return "pajek"
	case FormatMETIS:
		return "metis"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// CountsFromOne reports whether the format's files number their vertices
// from 1 (Matrix Market, DIMACS, Pajek, METIS), so that answers given in
// vertex ids count as the file does. (A Pajek file's labels, when it has
// any, are vertex names, which answers give instead.)
func (f Format) CountsFromOne() bool {
	switch f {
	case FormatMatrixMarket, FormatDIMACS, FormatPajek, FormatMETIS:
		return true
	}
	return false
}

// ParseFormat parses a format name: "auto", "edgelist", "mtx" (or
// "matrixmarket"), "gr" (or "dimacs"), "csv", "graphml", "gml", "pajek"
// (or "net"), "metis" (or "graph"), "graph6" (or "g6"), "sparse6" (or
// "s6") and "digraph6" (or "d6"), in any case.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		return FormatAuto, nil
	case "edgelist":
		return FormatEdgeList, nil
	case "mtx", "matrixmarket":
		return FormatMatrixMarket, nil
	case "gr", "dimacs":
		return FormatDIMACS, nil
	case "csv":
		return FormatCSV, nil
	case "graph6", "g6":
		return FormatGraph6, nil
	case "sparse6", "s6":
		return FormatSparse6, nil
	case "digraph6", "d6":
		return FormatDigraph6, nil
	case "graphml":
		return FormatGraphML, nil
	case "gml":
		return FormatGML, nil
	case "pajek", "net":
		return FormatPajek, nil
	case "metis", "graph":
		return FormatMETIS, nil
	}
	return FormatAuto, fmt.Errorf("unknown graph format %q (want auto, edgelist, csv, mtx, gr, graphml, gml, pajek, metis, g6, s6 or d6)", s)
}

// FormatFromName guesses the format from a file name's extension, ignoring a
// trailing ".gz": ".mtx" is Matrix Market, ".gr" is DIMACS, ".csv" CSV,
// ".graphml" GraphML, ".gml" GML, ".net" Pajek, ".graph" METIS, ".g6",
// ".s6" and ".d6" graph6, sparse6 and digraph6, and anything else is an
// edge list. Read with FormatAuto goes by the content instead where this
// gives an edge list.
func FormatFromName(name string) Format {
	lower := strings.ToLower(name)
	lower = strings.TrimSuffix(lower, ".gz")
	switch filepath.Ext(lower) {
	case ".mtx":
		return FormatMatrixMarket
	case ".gr":
		return FormatDIMACS
	case ".csv":
		return FormatCSV
	case ".g6":
		return FormatGraph6
	case ".s6":
		return FormatSparse6
	case ".d6":
		return FormatDigraph6
	case ".graphml":
		return FormatGraphML
	case ".gml":
		return FormatGML
	case ".net":
		return FormatPajek
	case ".graph":
		return FormatMETIS
	}
	return FormatEdgeList
}

// mtxBanner starts the first line of a Matrix Market file (in any case).
const mtxBanner = "%%MatrixMarket"

// isMtxBanner reports whether a line's first field starts with the Matrix
// Market banner.
func isMtxBanner(field []byte) bool {
	return len(field) >= len(mtxBanner) && bytes.EqualFold(field[:len(mtxBanner)], []byte(mtxBanner))
}

// isDIMACSProblem reports whether a line's fields start "p sp".
func isDIMACSProblem(f *fields, nf int) bool {
	return nf >= 2 && string(f[0]) == "p" && string(f[1]) == "sp"
}

// isDIMACSComment reports whether a line's first field is "c": a line "c"
// alone or "c text".
func isDIMACSComment(f *fields, nf int) bool {
	return nf >= 1 && string(f[0]) == "c"
}

// isGraphMLLine reports whether a line's first field starts an XML
// declaration or a GraphML root element, which no edge list can hold.
func isGraphMLLine(f0 []byte) bool {
	return bytes.HasPrefix(f0, []byte("<?xml")) || bytes.HasPrefix(f0, []byte("<graphml"))
}

// isGMLGraph reports whether a line opens a GML graph: "graph [",
// "graph[", or "graph" alone (the bracket on the next line, as igraph
// writes it).
func isGMLGraph(f *fields, nf int) bool {
	f0 := f[0]
	return string(f0) == "graph" && (nf == 1 || f[1][0] == '[') || bytes.HasPrefix(f0, []byte("graph["))
}

// isGMLCreator reports whether a line is GML's leading `Creator "..."`.
func isGMLCreator(f *fields, nf int) bool {
	return nf >= 2 && string(f[0]) == "Creator" && f[1][0] == '"'
}

// pajekSections are the section lines of a Pajek file, in lower case.
var pajekSections = []string{"*vertices", "*arcs", "*edges", "*arcslist", "*edgeslist", "*network", "*matrix"}

// isPajekSection reports whether a line's first field is a Pajek section
// keyword ("*Vertices", "*arcs"…, in any case).
func isPajekSection(f0 []byte) bool {
	if len(f0) == 0 || f0[0] != '*' {
		return false
	}
	for _, s := range pajekSections {
		if bytes.EqualFold(f0, []byte(s)) {
			return true
		}
	}
	return false
}

// sniffFormat tells the format of content that starts with buf (after any
// gzip decompression) from its first non-blank line: a Matrix Market banner
// gives FormatMatrixMarket; "p sp ...", or "c" comment lines and then
// "p sp ...", give FormatDIMACS; a line starting with "<" (XML: the GraphML
// reader says so when the root is not <graphml>) gives FormatGraphML;
// "graph [" or `Creator "...` gives FormatGML; a Pajek section line
// ("*Vertices N", "*Network name"…) gives FormatPajek; a first line that
// starts with a graph6, sparse6 or digraph6 header, or is a sparse6 or
// digraph6 graph (see sniffSix), gives that format; anything else, an
// empty input included, gives FormatEdgeList. METIS files have no mark of
// their own: only a .graph name or --format metis reads them. ok is false when buf ends before the answer is
// known and more input may follow. With final (no more input will be
// offered: the end of the input or of the window looked at), the answer is
// always known: a last line without its newline counts as a line, and
// comment lines "c" running to the end of a window that is not the end of
// the input are taken for DIMACS.
func sniffFormat(buf []byte, final, atEOF bool) (format Format, ok bool) {
	buf = bytes.TrimPrefix(buf, []byte(utf8BOM))
	var f fields
	sawComment := false
	for len(buf) > 0 {
		line, rest, complete := bytes.Cut(buf, []byte{'\n'})
		if !complete && !final {
			return FormatAuto, false
		}
		nf := f.split(line)
		switch {
		case nf == 0: // blank
		case !sawComment && isMtxBanner(f[0]):
			return FormatMatrixMarket, true
		case !sawComment && sniffSix(line) != FormatAuto:
			return sniffSix(line), true
		case !sawComment && f[0][0] == '<':
			return FormatGraphML, true
		case !sawComment && (isGMLGraph(&f, nf) || isGMLCreator(&f, nf)):
			return FormatGML, true
		case !sawComment && isPajekSection(f[0]):
			return FormatPajek, true
		case isDIMACSProblem(&f, nf):
			return FormatDIMACS, true
		case isDIMACSComment(&f, nf):
			sawComment = true
		default:
			return FormatEdgeList, true
		}
		buf = rest
	}
	switch {
	case !final:
		return FormatAuto, false
	case sawComment && !atEOF:
		return FormatDIMACS, true // a window full of "c" lines
	}
	return FormatEdgeList, true
}
