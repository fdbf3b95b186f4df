package graph

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a graph file format.
type Format int

const (
	// FormatAuto picks the format from the file name (see FormatFromName).
	FormatAuto Format = iota
	// FormatEdgeList is one edge per line: "u v" or "u v w".
	FormatEdgeList
	// FormatMatrixMarket is a Matrix Market coordinate file (.mtx).
	FormatMatrixMarket
	// FormatDIMACS is a DIMACS shortest-path file (.gr).
	FormatDIMACS
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
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat parses a format name: "auto", "edgelist", "mtx" (or
// "matrixmarket") and "gr" (or "dimacs"), in any case.
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
	}
	return FormatAuto, fmt.Errorf("unknown graph format %q (want auto, edgelist, mtx or gr)", s)
}

// FormatFromName guesses the format from a file name's extension, ignoring a
// trailing ".gz": ".mtx" is Matrix Market, ".gr" is DIMACS and anything else
// is an edge list.
func FormatFromName(name string) Format {
	lower := strings.ToLower(name)
	lower = strings.TrimSuffix(lower, ".gz")
	switch filepath.Ext(lower) {
	case ".mtx":
		return FormatMatrixMarket
	case ".gr":
		return FormatDIMACS
	}
	return FormatEdgeList
}
