package graph

import (
	"bytes"
	"fmt"
)

// readEdgeList reads lines "u v" or "u v w". Blank lines and lines whose
// first non-blank byte is '#' or '%' are skipped. Fields are separated by
// blanks or commas (tab- and comma-separated lists read alike). Either
// every edge has a weight or none has, so that a truncated column is caught
// rather than read as length 1; with opt.Unweighted the third column is
// ignored and may come and go. A line of another format (see foreignLine)
// is refused.
//
// NetworkX's write_edgelist writes each edge's attributes after it as a
// Python dict, "0 1 {}" or "0 1 {'weight': 4}": the entry named by
// opt.WeightKey gives the length and an edge without it has length 1, as
// NetworkX's own algorithms take it (see dictWeight).
//
// With opt.Labels (or a header "# labels: true") the vertex fields are
// names (see ReadOptions.Labels); without it they are ids, and a file
// whose ids leave most vertices without an edge is warned of (see
// warnSparseIDs).
//
// The header, the lines before the first edge, may hold the lines that
// WriteEdgeList writes so that its files read back the same (see
// headerLine): "# vertices: N", which every id must then be below,
// "# directed: true|false" and "# labels: true".
func readEdgeList(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	h := edgeListHeader{directed: opt.Directed, labels: opt.Labels}
	var b *Builder // made at the first edge, once the header is read
	// Before any line: the Peek may move the buffered lines.
	hint := lr.edgeHint()
	var f fields
	firstLine := 0 // the first edge line, which sets whether edges are weighted
	firstWeighted := false
	key := opt.weightKey()
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
			if err := lr.foreignLine(&f, nf); err != nil && !h.labels {
				return nil, err
			}
			if isDIMACSComment(&f, nf) && !h.labels {
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
		// NetworkX's attribute dict (after the delimiter it was written
		// with: "0 1 {}", "0,1,{}"), then comma-separated fields.
		var data []byte
		if i := bytes.IndexByte(line, '{'); i >= 0 {
			line, data = bytes.TrimRight(line[:i], " \t\r\v\f"), line[i:]
			if bytes.HasSuffix(line, []byte{','}) {
				line = line[:len(line)-1]
			}
			nf = f.split(line)
		}
		if bytes.IndexByte(line, ',') >= 0 {
			var ok bool
			if nf, ok = f.splitCommas(line); !ok {
				return nil, lr.errorf(lr.line, `comma-separated field %d is empty or holds a blank: want "u,v" or "u,v,w"`, nf)
			}
		}
		if h.labels && nf == 1 && data == nil { // a vertex alone
			if _, err := lr.namedVertex(b, f[0], lim); err != nil {
				return nil, err
			}
			continue
		}
		if nf < 2 || nf > 3 || data != nil && nf != 2 {
			return nil, lr.fieldCountError(nf, data != nil)
		}
		var w weight
		weighted := nf == 3
		if data != nil {
			raw, found, err := dictWeight(data, key)
			if err != nil {
				return nil, lr.errorf(lr.line, "edge attributes %s: %v", quote(data), err)
			}
			if found && !opt.Unweighted {
				if w, err = lr.parseWeight(raw, false); err != nil {
					return nil, err
				}
			}
			weighted = found
		} else if !opt.Unweighted {
			switch {
			case firstLine == 0:
				firstLine, firstWeighted = lr.line, weighted
			case weighted && !firstWeighted:
				return nil, lr.errorf(lr.line, "edge has a weight but the edge on line %d has none", firstLine)
			case !weighted && firstWeighted:
				return nil, lr.errorf(lr.line, "edge has no weight but the edge on line %d has one", firstLine)
			}
			if weighted {
				if w, err = lr.parseWeight(f[2], false); err != nil {
					return nil, err
				}
			}
		}
		u, v, err := lr.edgeEnds(b, &h, &f, opt, lim)
		if err != nil {
			return nil, err
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
	if h.labels {
		if err := lr.finishLabels(b, h, opt); err != nil {
			return nil, err
		}
	}
	g := b.Build()
	if !h.labels && h.verticesLine == 0 && opt.Vertices == 0 {
		warnSparseIDs(g, lr.name, opt)
	}
	return g, nil
}

// finishLabels checks a named edge list's vertex count against its header
// ("# vertices: N" counts the names, isolated ones included) and adds the
// isolated vertices ReadOptions.Vertices asks for, after the named ones.
func (lr *lineReader) finishLabels(b *Builder, h edgeListHeader, opt ReadOptions) error {
	if n := b.NamedVertices(); h.verticesLine > 0 && n != h.vertices {
		return lr.errorf(h.verticesLine, `header says "# vertices: %d", but the file names %d vertices`, h.vertices, n)
	}
	if err := b.SetVertices(opt.Vertices); err != nil {
		return fmt.Errorf("%s: %w", lr.name, err)
	}
	return nil
}

// edgeEnds returns the vertices of an edge line's first two fields: by
// name with labels, else by id (0- or 1-based), checked against the
// header's vertex count.
func (lr *lineReader) edgeEnds(b *Builder, h *edgeListHeader, f *fields, opt ReadOptions, lim limit) (u, v int, err error) {
	if h.labels {
		if u, err = lr.namedVertex(b, f[0], lim); err != nil {
			return 0, 0, err
		}
		if v, err = lr.namedVertex(b, f[1], lim); err != nil {
			return 0, 0, err
		}
		return u, v, nil
	}
	if u, err = lr.parseID(f[0], opt.OneBased, lim); err != nil {
		return 0, 0, err
	}
	if v, err = lr.parseID(f[1], opt.OneBased, lim); err != nil {
		return 0, 0, err
	}
	if h.verticesLine > 0 && max(u, v) >= h.vertices {
		id := f[0]
		if u < h.vertices {
			id = f[1]
		}
		return 0, 0, lr.errorf(lr.line, `vertex id %s is too large for the header "# vertices: %d" on line %d`,
			clip(id), h.vertices, h.verticesLine)
	}
	return u, v, nil
}

// warnSparseIDs warns, through opt.Warn, of a graph read by integer ids in
// which most vertices (and more than one) have no edge: ids such as a
// SNAP file's "1 5", "5 9" are names, and read as ids they make vertices
// 0..9, most of them isolated, and a graph that is not connected. The
// answer then differs from the file's meaning without any error, so the
// warning names --labels.
func warnSparseIDs(g *Graph, name string, opt ReadOptions) {
	if opt.Warn == nil || g.N() < 3 {
		return
	}
	isolated := 0
	for _, t := range g.touched() {
		if !t {
			isolated++
		}
	}
	if 2*isolated > g.N() {
		opt.warn("%s: %d of the %d vertices have no edge (vertex ids run to %d): if the ids are names rather than 0..N-1, read the file with --labels",
			name, isolated, g.N(), g.N()-1)
	}
}

// edgeListHeader is what the header lines of an edge list say.
type edgeListHeader struct {
	vertices     int  // N of "# vertices: N", or 0
	verticesLine int  // the line of "# vertices: N", or 0
	directed     bool // from "# directed: ...", else ReadOptions.Directed
	dirLine      int  // the line of "# directed: ...", or 0
	labels       bool // vertex fields are names: ReadOptions.Labels or "# labels: true"
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
	case "labels:":
		if string(f[2]) == "true" {
			h.labels = true
		}
	}
	return nil
}

// edgeListBuilder returns a Builder for the graph h and opt describe, with
// room for hint edges.
func (lr *lineReader) edgeListBuilder(h edgeListHeader, opt ReadOptions, hint int) (*Builder, error) {
	b := NewBuilder(h.directed)
	if h.labels { // the vertices are named as they come; finishLabels adds the rest
		b.Grow(hint)
		return b, nil
	}
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

// fieldCountError refuses an edge line of nf fields (before a NetworkX
// attribute dict, when it has one).
func (lr *lineReader) fieldCountError(nf int, dict bool) error {
	if dict {
		return lr.errorf(lr.line, `want "u v {attributes}", found %d fields before the attributes`, nf)
	}
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
		plain = lr.fieldCountError(nf, false)
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
