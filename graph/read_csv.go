package graph

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// CSVColumns names the columns of a CSV edge list (see ReadOptions.CSV).
type CSVColumns struct {
	Source, Target, Weight string
}

// withDefaults fills the empty names with NetworkX's.
func (c CSVColumns) withDefaults() CSVColumns {
	if c.Source == "" {
		c.Source = "source"
	}
	if c.Target == "" {
		c.Target = "target"
	}
	return c
}

// readCSV reads a CSV edge list, as pandas' DataFrame.to_csv writes one for
// NetworkX's from_pandas_edgelist: a header row naming the columns, then a
// row an edge. The source and target columns (ReadOptions.CSV) hold vertex
// names, numbered in the order they first appear; the weight column, when
// the header has it, the lengths. A row whose target is empty names a
// vertex that may have no edge (WriteCSV writes isolated vertices so).
// Other columns are ignored. Quoting follows RFC 4180 (encoding/csv), and
// errors name the line.
func readCSV(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	cols := opt.CSV.withDefaults()
	r := csv.NewReader(lr.br)
	r.ReuseRecord = true
	r.TrimLeadingSpace = true
	header, err := r.Read()
	switch {
	case err == io.EOF:
		return nil, lr.errorf(1, "empty CSV file: want a header row naming the columns %q and %q", cols.Source, cols.Target)
	case err != nil:
		return nil, lr.csvError(err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], utf8BOM)
	}
	header = slices.Clone(header)
	for i, name := range header {
		if j := slices.Index(header[i+1:], name); j >= 0 && name != "" &&
			(name == cols.Source || name == cols.Target || name == cols.Weight || cols.Weight == "" && name == "weight") {
			return nil, lr.errorf(1, "the CSV header names column %q twice (columns %d and %d)", name, i+1, i+j+2)
		}
	}
	find := func(name string) int { return slices.Index(header, name) }
	src, dst, wcol := find(cols.Source), find(cols.Target), -1
	if src < 0 || dst < 0 || src == dst {
		return nil, lr.errorf(1, "the CSV header %q lacks the source and target columns %q and %q (name them with --source and --target)",
			header, cols.Source, cols.Target)
	}
	switch {
	case cols.Weight != "":
		if wcol = find(cols.Weight); wcol < 0 {
			return nil, lr.errorf(1, "the CSV header %q has no weight column %q", header, cols.Weight)
		}
	default:
		wcol = find("weight")
	}
	if opt.Unweighted {
		wcol = -1
	}
	b := NewBuilder(opt.Directed)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, lr.csvError(err)
		}
		lr.line, _ = r.FieldPos(0)
		if rec[src] == "" {
			return nil, lr.errorf(lr.line, "empty source vertex name")
		}
		u, err := lr.namedVertex(b, []byte(rec[src]), lim)
		if err != nil {
			return nil, err
		}
		if rec[dst] == "" { // a vertex alone
			if wcol >= 0 && rec[wcol] != "" {
				return nil, lr.errorf(lr.line, "a weight without a target vertex")
			}
			continue
		}
		v, err := lr.namedVertex(b, []byte(rec[dst]), lim)
		if err != nil {
			return nil, err
		}
		var w weight
		if wcol >= 0 {
			if rec[wcol] == "" {
				return nil, lr.errorf(lr.line, "empty weight in column %q", header[wcol])
			}
			if w, err = lr.parseWeight([]byte(rec[wcol]), false); err != nil {
				return nil, err
			}
		}
		if err := lr.addEdge(b, u, v, w, wcol < 0); err != nil {
			return nil, err
		}
	}
	if err := b.SetVertices(opt.Vertices); err != nil {
		return nil, fmt.Errorf("%s: %w", lr.name, err)
	}
	return b.Build(), nil
}

// csvError turns an encoding/csv error into a ParseError at its line.
func (lr *lineReader) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: lr.name, Line: pe.Line, Msg: pe.Err.Error(), err: pe.Err}
	}
	return lr.readError(err)
}
