package graph

import (
	"bytes"
	"fmt"
)

// mtxField is the value type a Matrix Market header declares.
type mtxField int

const (
	mtxPattern mtxField = iota // no values: unweighted
	mtxInteger
	mtxReal
)

// readMatrixMarket reads a square coordinate matrix: a general matrix is a
// directed graph, a symmetric one undirected (opt.Directed, or DirectedSet,
// must agree). Entry i j is the arc i→j. opt.Vertices may add isolated
// vertices beyond the size line's, not remove any.
// The banner is the first non-blank line: blank lines before it are
// skipped, as format recognition skips them.
func readMatrixMarket(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	var f fields
	var nf int
	for nf == 0 {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			if lr.line == 0 {
				return nil, lr.errorf(1, "empty file, want a %%%%MatrixMarket header")
			}
			return nil, lr.errorf(lr.line, "only blank lines, want a %%%%MatrixMarket header")
		}
		nf = f.split(line)
	}
	field, directed, err := parseMtxHeader(lr, &f, nf)
	if err != nil {
		return nil, err
	}
	if err := lr.checkDirected(directed, opt, fmt.Sprintf("a %s banner says", quote(f[4]))); err != nil {
		return nil, err
	}

	// The size line "rows cols nnz" comes after the comments.
	var n, nnz, sizeLine int
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, lr.errorf(max(lr.line, 1), `missing size line "rows cols entries"`)
		}
		nf := f.split(line)
		if nf == 0 || f[0][0] == '%' {
			continue
		}
		if nf != 3 {
			return nil, lr.errorf(lr.line, `want size line "rows cols entries", found %d fields`, nf)
		}
		rows, err := lr.parseCount(f[0], "row count")
		if err != nil {
			return nil, err
		}
		cols, err := lr.parseCount(f[1], "column count")
		if err != nil {
			return nil, err
		}
		if nnz, err = lr.parseCount(f[2], "entry count"); err != nil {
			return nil, err
		}
		if rows != cols {
			return nil, lr.errorf(lr.line, "matrix is %d x %d, not square", rows, cols)
		}
		if err := lr.checkVertices(rows, lim); err != nil {
			return nil, err
		}
		if err := lr.checkVerticesOption(rows, opt, "the size line says"); err != nil {
			return nil, err
		}
		n, sizeLine = rows, lr.line
		break
	}

	b := NewBuilder(directed)
	if err := b.SetVertices(max(n, opt.Vertices)); err != nil {
		return nil, lr.wrap(sizeLine, err)
	}
	b.Grow(lr.countHint(nnz))
	want := 3 // fields per entry
	if field == mtxPattern {
		want = 2
	}
	entries := 0
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		nf := f.split(line)
		if nf == 0 || f[0][0] == '%' {
			continue
		}
		entries++
		if entries > nnz {
			// Count the rest so that the message says how many there are.
			continue
		}
		if nf != want {
			return nil, lr.errorf(lr.line, "want %d fields per entry, found %d", want, nf)
		}
		u, err := lr.parseRangedID(f[0], n)
		if err != nil {
			return nil, err
		}
		v, err := lr.parseRangedID(f[1], n)
		if err != nil {
			return nil, err
		}
		var w weight
		if field != mtxPattern && !opt.Unweighted {
			if w, err = lr.parseWeight(f[2], field == mtxInteger); err != nil {
				return nil, err
			}
			if field == mtxReal && !w.isFloat {
				// A real matrix gives a float graph even where values are integral.
				w = weight{f: float64(w.i), isFloat: true}
			}
		}
		if err := lr.addEdge(b, u, v, w, field == mtxPattern || opt.Unweighted); err != nil {
			return nil, err
		}
	}
	if entries != nnz {
		return nil, lr.errorf(sizeLine, "header says %d entries, file has %d", nnz, entries)
	}
	return b.Build(), nil
}

// parseMtxHeader checks that the current line, split into nf > 0 fields f,
// is "%%MatrixMarket matrix coordinate FIELD SYMMETRY" and returns the field
// and whether the graph is directed.
func parseMtxHeader(lr *lineReader, f *fields, nf int) (mtxField, bool, error) {
	const want = `want "%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric"`
	if !bytes.EqualFold(f[0], []byte("%%MatrixMarket")) {
		return 0, false, lr.errorf(lr.line, "missing %%%%MatrixMarket header, %s", want)
	}
	if nf != 5 {
		return 0, false, lr.errorf(lr.line, "header has %d fields, %s", nf, want)
	}
	if !bytes.EqualFold(f[1], []byte("matrix")) {
		return 0, false, lr.errorf(lr.line, "object %s is not supported, only matrix", quote(f[1]))
	}
	switch {
	case bytes.EqualFold(f[2], []byte("coordinate")):
	case bytes.EqualFold(f[2], []byte("array")):
		return 0, false, lr.errorf(lr.line, "array (dense) format is not supported, only coordinate")
	default:
		return 0, false, lr.errorf(lr.line, "unknown format %s, want coordinate", quote(f[2]))
	}
	var field mtxField
	switch {
	case bytes.EqualFold(f[3], []byte("pattern")):
		field = mtxPattern
	case bytes.EqualFold(f[3], []byte("integer")):
		field = mtxInteger
	case bytes.EqualFold(f[3], []byte("real")), bytes.EqualFold(f[3], []byte("double")):
		field = mtxReal
	case bytes.EqualFold(f[3], []byte("complex")):
		return 0, false, lr.errorf(lr.line, "complex matrices are not supported")
	default:
		return 0, false, lr.errorf(lr.line, "unknown field %s, want pattern, integer or real", quote(f[3]))
	}
	switch {
	case bytes.EqualFold(f[4], []byte("general")):
		return field, true, nil
	case bytes.EqualFold(f[4], []byte("symmetric")):
		return field, false, nil
	case bytes.EqualFold(f[4], []byte("hermitian")), bytes.EqualFold(f[4], []byte("skew-symmetric")):
		return 0, false, lr.errorf(lr.line, "%s matrices are not supported, only general or symmetric", bytes.ToLower(f[4]))
	}
	return 0, false, lr.errorf(lr.line, "unknown symmetry %s, want general or symmetric", quote(f[4]))
}
