package graph

import "fmt"

// readEdgeList reads lines "u v" or "u v w". Blank lines and lines whose
// first non-blank byte is '#' or '%' are skipped. Either every edge has a
// weight or none has, so that a truncated column is caught rather than read
// as length 1; with opt.Unweighted the third column is ignored and may come
// and go. A line of another format (see foreignLine) is refused.
//
// The header, the lines before the first edge, may hold the lines that
// WriteEdgeList writes so that its files read back the same (see
// headerLine): "# vertices: N", which every id must then be below, and
// "# directed: true|false".
func readEdgeList(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	h := edgeListHeader{directed: opt.Directed}
	var b *Builder // made at the first edge, once the header is read
	// Before any line: the Peek may move the buffered lines.
	hint := lr.edgeHint()
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
		if c := f[0][0]; c == '#' || c == '%' || c == 'p' || c == 'a' || c == 'c' || c == '<' || c == '*' || c == 'g' {
			if err := lr.foreignLine(&f, nf); err != nil {
				return nil, err
			}
			if isDIMACSComment(&f, nf) {
				return nil, lr.commentLine(nf)
			}
			if c == '#' && b == nil {
				if err := lr.headerLine(&h, &f, nf, opt, lim); err != nil {
					return nil, err
				}
			}
			if c == '#' || c == '%' {
				continue
			}
		}
		if b == nil {
			if b, err = lr.edgeListBuilder(h, opt, hint); err != nil {
				return nil, err
			}
		}
		if nf < 2 || nf > 3 {
			return nil, lr.fieldCountError(nf)
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
		u, err := lr.parseID(f[0], opt.OneBased, lim)
		if err != nil {
			return nil, err
		}
		v, err := lr.parseID(f[1], opt.OneBased, lim)
		if err != nil {
			return nil, err
		}
		if h.verticesLine > 0 && max(u, v) >= h.vertices {
			id := f[0]
			if u < h.vertices {
				id = f[1]
			}
			return nil, lr.errorf(lr.line, `vertex id %s is too large for the header "# vertices: %d" on line %d`,
				clip(id), h.vertices, h.verticesLine)
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
	if b == nil { // no edges: the header and the options give the graph
		var err error
		if b, err = lr.edgeListBuilder(h, opt, 0); err != nil {
			return nil, err
		}
	}
	return b.Build(), nil
}

// edgeListHeader is what the header lines of an edge list say.
type edgeListHeader struct {
	vertices     int  // N of "# vertices: N", or 0
	verticesLine int  // the line of "# vertices: N", or 0
	directed     bool // from "# directed: ...", else ReadOptions.Directed
	dirLine      int  // the line of "# directed: ...", or 0
}

// headerLine reads a comment line of an edge list's header into h. Two
// lines, of exactly three fields each, mean something:
//
//   - "# vertices: N", N decimal digits: the graph has N vertices, or
//     ReadOptions.Vertices if that is more (less is refused as a
//     contradiction), and every id must be below N
//     (readEdgeList checks them): WriteEdgeList never writes a smaller N, so
//     a file whose ids need more was edited, and is refused rather than
//     guessed at. A second such line with another N is refused. N above the
//     vertex limit wraps ErrTooLarge.
//   - "# directed: true" or "# directed: false": the file says whether the
//     graph is directed, and that decides, as a Matrix Market banner does,
//     unless ReadOptions asks for directedness (Directed true, or
//     DirectedSet): then a header that says otherwise is refused. Two such
//     lines that disagree are refused too.
//
// Any other comment line, "# Vertices: 3" or "# vertices: many" included, is
// only a comment.
func (lr *lineReader) headerLine(h *edgeListHeader, f *fields, nf int, opt ReadOptions, lim limit) error {
	if nf != 3 || string(f[0]) != "#" {
		return nil
	}
	switch string(f[1]) {
	case "vertices:":
		n, ok, overflow := parseUint(f[2])
		switch {
		case !ok:
			return nil
		case overflow:
			return lr.wrap(lr.line, lim.refuse(clip(f[2])+" vertices", 0))
		case n > int64(lim.max()):
			return lr.wrap(lr.line, lim.refuse(clip(f[2])+" vertices", uint64(n)))
		case h.verticesLine > 0 && int(n) != h.vertices:
			return lr.errorf(lr.line, "header says vertices: %d, but line %d says vertices: %d", n, h.verticesLine, h.vertices)
		}
		if err := lr.checkVerticesOption(int(n), opt, "header says"); err != nil {
			return err
		}
		h.vertices, h.verticesLine = int(n), lr.line
	case "directed:":
		var d bool
		switch string(f[2]) {
		case "true":
			d = true
		case "false":
		default:
			return nil
		}
		switch {
		case h.dirLine > 0 && d != h.directed:
			return lr.errorf(lr.line, "header says directed: %t, but line %d says directed: %t", d, h.dirLine, h.directed)
		}
		if err := lr.checkDirected(d, opt, "header says"); err != nil {
			return err
		}
		h.directed, h.dirLine = d, lr.line
	}
	return nil
}

// edgeListBuilder returns a Builder for the graph h and opt describe, with
// room for hint edges.
func (lr *lineReader) edgeListBuilder(h edgeListHeader, opt ReadOptions, hint int) (*Builder, error) {
	b := NewBuilder(h.directed)
	if err := b.SetVertices(max(opt.Vertices, h.vertices)); err != nil {
		return nil, fmt.Errorf("%s: %w", lr.name, err)
	}
	b.Grow(hint)
	return b, nil
}

// foreignLine refuses a line of an edge list that belongs to another format,
// so that such a file is not misread (a Matrix Market banner would be a
// comment, and its size line an edge): a Matrix Market banner, a DIMACS
// problem line "p sp ..." or arc line "a u v w" (see isDIMACSLine), an XML
// declaration or <graphml> element, a GML "graph [" or a Pajek section
// line ("*Vertices 3").
func (lr *lineReader) foreignLine(f *fields, nf int) error {
	switch {
	case isMtxBanner(f[0]):
		return lr.errorf(lr.line, "this is a Matrix Market file, not an edge list (use --format mtx or a .mtx name)")
	case isDIMACSLine(f, nf):
		return lr.errorf(lr.line, dimacsNotEdgeList)
	case isGraphMLLine(f[0]):
		return lr.errorf(lr.line, "this is a GraphML file, not an edge list (use --format graphml or a .graphml name)")
	case isGMLGraph(f, nf):
		return lr.errorf(lr.line, "this is a GML file, not an edge list (use --format gml or a .gml name)")
	case isPajekSection(f[0]):
		return lr.errorf(lr.line, "this is a Pajek file, not an edge list (use --format pajek or a .net name)")
	}
	return nil
}

const dimacsNotEdgeList = "this is a DIMACS shortest-path file, not an edge list (use --format gr or a .gr name)"

// isDIMACSLine reports whether a line is a DIMACS problem line "p sp ..."
// or arc line "a u v w", which no edge list can hold.
func isDIMACSLine(f *fields, nf int) bool {
	return isDIMACSProblem(f, nf) || nf == 4 && string(f[0]) == "a"
}

// fieldCountError refuses an edge line of nf fields.
func (lr *lineReader) fieldCountError(nf int) error {
	return lr.errorf(lr.line, `want "u v" or "u v w", found %d fields`, nf)
}

// commentLine refuses a line of nf fields whose first is "c", which no edge
// list can hold. When it starts a run of "c" lines (blank lines between)
// that ends at a DIMACS problem or arc line (isDIMACSLine), the file is a
// DIMACS file and the error says so, with the option to read it; otherwise
// the error is the one any bad edge line gets, a wrong field count or a bad
// vertex id "c", as the file is not DIMACS either. Either way it names this
// line; the lines looked at after it are consumed.
func (lr *lineReader) commentLine(nf int) error {
	line := lr.line
	var plain error
	if nf < 2 || nf > 3 {
		plain = lr.fieldCountError(nf)
	} else {
		plain = lr.errorf(line, `bad vertex id "c"`)
	}
	var f fields
	for {
		next, ok, err := lr.next()
		if err != nil {
			return err
		}
		if !ok {
			return plain
		}
		nf := f.split(next)
		switch {
		case nf == 0, isDIMACSComment(&f, nf):
		case isDIMACSLine(&f, nf):
			return lr.errorf(line, dimacsNotEdgeList)
		default:
			return plain
		}
	}
}
