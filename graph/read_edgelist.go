package graph

import "fmt"

// readEdgeList reads lines "u v" or "u v w". Blank lines and lines whose
// first non-blank byte is '#' or '%' are skipped. Either every edge has a
// weight or none has, so that a truncated column is caught rather than read
// as length 1; with opt.Unweighted the third column is ignored and may come
// and go. A line of another format (see foreignLine) is refused.
func readEdgeList(lr *lineReader, opt ReadOptions, maxN int) (*Graph, error) {
	if opt.Vertices < 0 {
		return nil, fmt.Errorf("%s: negative vertex count %d", lr.name, opt.Vertices)
	}
	if opt.Vertices > maxN {
		return nil, fmt.Errorf("%s: %w", lr.name, tooLarge(fmt.Sprintf("%d vertices", opt.Vertices), maxN))
	}
	b := NewBuilder(opt.Directed)
	if err := b.SetVertices(opt.Vertices); err != nil {
		return nil, fmt.Errorf("%s: %w", lr.name, err)
	}
	b.Grow(lr.edgeHint())
	var f fields
	firstLine := 0 // the first edge line, which sets whether edges are weighted
	firstWeighted := false
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		nf := f.split(line)
		if nf == 0 {
			continue
		}
		if c := f[0][0]; c == '#' || c == '%' || c == 'p' || c == 'a' || c == 'c' {
			if err := lr.foreignLine(&f, nf); err != nil {
				return nil, err
			}
			if c == '#' || c == '%' {
				continue
			}
		}
		if nf < 2 || nf > 3 {
			return nil, lr.errorf(lr.line, `want "u v" or "u v w", found %d fields`, nf)
		}
		weighted := nf == 3
		if !opt.Unweighted {
			switch {
			case firstLine == 0:
				firstLine, firstWeighted = lr.line, weighted
			case weighted && !firstWeighted:
				return nil, lr.errorf(lr.line, "edge has a weight but the edge on line %d has none", firstLine)
			case !weighted && firstWeighted:
				return nil, lr.errorf(lr.line, "edge has no weight but the edge on line %d has one", firstLine)
			}
		}
		u, err := lr.parseID(f[0], opt.OneBased, maxN)
		if err != nil {
			return nil, err
		}
		v, err := lr.parseID(f[1], opt.OneBased, maxN)
		if err != nil {
			return nil, err
		}
		var w weight
		if weighted && !opt.Unweighted {
			if w, err = lr.parseWeight(f[2], false); err != nil {
				return nil, err
			}
		}
		if err := lr.addEdge(b, u, v, w, !weighted || opt.Unweighted); err != nil {
			return nil, err
		}
	}
	return b.Build(), nil
}

// foreignLine refuses a line of an edge list that belongs to another format,
// so that such a file is not misread (a Matrix Market banner would be a
// comment, and its size line an edge): a Matrix Market banner, or a DIMACS
// problem line "p sp ..." or arc line "a u v w". A line starting with the
// field "c", which no edge list can hold either, is refused with a hint
// that it may be a DIMACS comment.
func (lr *lineReader) foreignLine(f *fields, nf int) error {
	switch {
	case isMtxBanner(f[0]):
		return lr.errorf(lr.line, "this is a Matrix Market file, not an edge list (use --format mtx or a .mtx name)")
	case isDIMACSProblem(f, nf), nf == 4 && string(f[0]) == "a":
		return lr.errorf(lr.line, "this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)")
	case isDIMACSComment(f, nf):
		return lr.errorf(lr.line, `bad vertex id "c" (if this is a DIMACS comment line, use --format gr or a .gr name)`)
	}
	return nil
}
