package graph

import (
	"bytes"
	"fmt"
	"strconv"
)

// Pajek sections.
const (
	pajekNone = iota
	pajekVertices
	pajekArcs
	pajekEdges
	pajekArcsList
	pajekEdgesList
)

// readPajek reads a Pajek network: "*Vertices N", then vertex lines
// `k "label" ...` (k in 1..N; the label quoted, or one field; anything
// after it, coordinates and shapes, is ignored), then sections "*Arcs"
// (lines "u v [w ...]") and "*Edges" (the same, each line an edge both
// ways) and their list forms "*Arcslist" and "*Edgeslist" ("u v1 v2 ...",
// unweighted), in any number and order. Lines starting with '%' are
// comments; "*Network name" is skipped.
//
// Vertex k is vertex k-1 of the graph. A vertex's name is its label, or
// its number when it has no vertex line or no label; when every name is
// its number the graph has no names (its ids, counted from 1, say them).
// A vertex line given twice, or a name given to two vertices, is refused.
//
// A file with *Arcs or *Arcslist is directed, its edges being arcs both
// ways (Pajek's own reading of a mixed network); one with only *Edges
// sections is undirected; opt.Directed, or DirectedSet, must agree. One
// with no edge section at all is as the options say. As in an edge list,
// either every edge line has a weight (its third field; fields after it
// are attributes and ignored) or none does, unless opt.Unweighted. "*Matrix"
// sections and unknown sections are refused.
func readPajek(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	p := pajekReader{lr: lr, opt: opt}
	hint := lr.edgeHint() // before any line: the Peek may move the buffered lines
	var f fields
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
		if f[0][0] == '*' {
			if err := p.sectionLine(&f, nf, lim, hint); err != nil {
				return nil, err
			}
			continue
		}
		switch p.section {
		case pajekNone:
			return nil, lr.errorf(lr.line, `line before "*Vertices N"`)
		case pajekVertices:
			err = p.vertexLine(line, &f)
		case pajekArcs, pajekEdges:
			err = p.edgeLine(&f, nf)
		default:
			err = p.listLine(line)
		}
		if err != nil {
			return nil, err
		}
	}
	if p.b == nil {
		return nil, lr.errorf(max(lr.line, 1), `missing "*Vertices N" line`)
	}
	directed := p.arcsLine > 0 || p.edgesLine == 0 && opt.Directed
	if p.arcsLine == 0 && p.edgesLine > 0 {
		lr.line = p.edgesLine
		if err := lr.checkDirected(false, opt, "an *Edges section with no *Arcs says"); err != nil {
			return nil, err
		}
	}
	// Edges went in as arcs both ways, which is how an undirected graph
	// holds them.
	p.b.directed = directed
	g := p.b.Build()
	if p.labels != nil {
		names, err := p.nameAll(g.n)
		if err != nil {
			return nil, err
		}
		g.names = names
	}
	return g, nil
}

// States of a vertex in pajekReader.state.
const (
	pajekLined    = 1 // it has a vertex line
	pajekLabelled = 2 // with a label (in labels)
)

// pajekReader is the state of readPajek.
type pajekReader struct {
	lr        *lineReader
	opt       ReadOptions
	b         *Builder
	n         int // the vertex count of "*Vertices N"
	vLine     int
	section   int
	arcsLine  int // the first *Arcs or *Arcslist line, or 0
	edgesLine int // the first *Edges or *Edgeslist line, or 0

	labels map[int]string // labels by vertex, made at the first label
	state  []uint8        // by vertex: 0 (no line), pajekLined or pajekLabelled
	owners map[string]int // label → its line

	firstLine     int // the first edge line, which sets whether edges are weighted
	firstWeighted bool
}

func (p *pajekReader) sectionLine(f *fields, nf int, lim limit, hint int) error {
	lr := p.lr
	kw := bytes.ToLower(f[0])
	if string(kw) == "*network" {
		return nil
	}
	if string(kw) != "*vertices" && p.b == nil {
		return lr.errorf(lr.line, `%s before "*Vertices N"`, clip(f[0]))
	}
	switch string(kw) {
	case "*vertices":
		if p.b != nil {
			return lr.errorf(lr.line, "second *Vertices line (the first is on line %d)", p.vLine)
		}
		if nf < 2 || nf > 3 {
			return lr.errorf(lr.line, `want "*Vertices N", found %d fields`, nf)
		}
		n, err := lr.parseCount(f[1], "vertex count")
		if err != nil {
			return err
		}
		if nf == 3 { // a two-mode network: "*Vertices N N1"
			if _, err := lr.parseCount(f[2], "first-mode vertex count"); err != nil {
				return err
			}
		}
		if err := lr.checkVertices(n, lim); err != nil {
			return err
		}
		if err := lr.checkVerticesOption(n, p.opt, "the *Vertices line says"); err != nil {
			return err
		}
		// Directed until the end, where a file of *Edges alone becomes
		// undirected: the arcs are the same.
		p.b = NewBuilder(true)
		if err := p.b.SetVertices(max(n, p.opt.Vertices)); err != nil {
			return lr.wrap(lr.line, err)
		}
		p.b.Grow(hint)
		p.n, p.vLine, p.section = n, lr.line, pajekVertices
	case "*arcs", "*arcslist":
		if err := lr.checkDirected(true, p.opt, fmt.Sprintf("a %s section says", clip(f[0]))); err != nil {
			return err
		}
		if p.arcsLine == 0 {
			p.arcsLine = lr.line
		}
		p.section = pajekArcs
		if string(kw) == "*arcslist" {
			p.section = pajekArcsList
		}
	case "*edges", "*edgeslist":
		if p.edgesLine == 0 {
			p.edgesLine = lr.line
		}
		p.section = pajekEdges
		if string(kw) == "*edgeslist" {
			p.section = pajekEdgesList
		}
	case "*matrix":
		return lr.errorf(lr.line, "*Matrix sections are not supported (use *Arcs or *Edges)")
	default:
		return lr.errorf(lr.line, "unknown section %s, want *Vertices, *Arcs, *Edges, *Arcslist or *Edgeslist", quote(f[0]))
	}
	return nil
}

// vertexLine reads `k "label" ...` or `k label ...` or `k`.
func (p *pajekReader) vertexLine(line []byte, f *fields) error {
	lr := p.lr
	k, err := lr.parseRangedID(f[0], p.n)
	if err != nil {
		return err
	}
	if p.state == nil {
		p.state = make([]uint8, p.n)
	}
	if p.state[k] != 0 {
		return lr.errorf(lr.line, "second line of vertex %d", k+1)
	}
	p.state[k] = pajekLined
	_, i := nextField(line, 0)
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	if i == len(line) {
		return nil // no label
	}
	var label []byte
	if line[i] == '"' {
		end := bytes.IndexByte(line[i+1:], '"')
		if end < 0 {
			return lr.errorf(lr.line, "label %s has no closing quote", quote(line[i:]))
		}
		label = line[i+1 : i+1+end]
	} else {
		label, _ = nextField(line, i)
	}
	if p.labels == nil {
		// Sparse: a few labels in a file declaring many vertices cost little.
		p.labels = make(map[int]string)
		p.owners = make(map[string]int)
	}
	if other, ok := p.owners[string(label)]; ok {
		return lr.errorf(lr.line, "label %s is taken by the vertex on line %d", quote(label), other)
	}
	p.labels[k] = string(label)
	p.owners[p.labels[k]] = lr.line
	p.state[k] = pajekLabelled
	return nil
}

// nameAll returns the names of n vertices: labels, and the numbers of the
// vertices without one, which no label may be; nil when every name is its
// vertex's number. Names for every vertex of a file that labels a few of
// many must fit in memory, or the read is refused wrapping ErrTooLarge.
func (p *pajekReader) nameAll(n int) ([]string, error) {
	identity := true
	for k, s := range p.labels {
		identity = identity && s == strconv.Itoa(k+1)
	}
	if identity {
		return nil, nil // the numbers say it all
	}
	// A string header and a short number each.
	if !fits(uint64(n) * 40) {
		return nil, p.lr.wrap(p.vLine, fmt.Errorf("names for %d vertices: %w", n, ErrTooLarge))
	}
	names := make([]string, n)
	for v := range names {
		if s, ok := p.labels[v]; ok {
			names[v] = s
			continue
		}
		name := strconv.Itoa(v + 1)
		if line, ok := p.owners[name]; ok {
			return nil, p.lr.errorf(line, "label %q is the number of vertex %s, which has no label", name, name)
		}
		names[v] = name
	}
	return names, nil
}

// edgeLine reads "u v" or "u v w ..." of an *Arcs or *Edges section.
func (p *pajekReader) edgeLine(f *fields, nf int) error {
	lr := p.lr
	if nf < 2 {
		return lr.errorf(lr.line, `want "u v" or "u v w", found %d fields`, nf)
	}
	weighted := nf >= 3
	if err := p.weightedLine(weighted); err != nil {
		return err
	}
	u, err := lr.parseRangedID(f[0], p.n)
	if err != nil {
		return err
	}
	v, err := lr.parseRangedID(f[1], p.n)
	if err != nil {
		return err
	}
	var w weight
	if weighted && !p.opt.Unweighted {
		if w, err = lr.parseWeight(f[2], false); err != nil {
			return err
		}
	}
	return p.add(u, v, w, !weighted || p.opt.Unweighted)
}

// listLine reads "u v1 v2 ..." of an *Arcslist or *Edgeslist section.
func (p *pajekReader) listLine(line []byte) error {
	lr := p.lr
	if err := p.weightedLine(false); err != nil {
		return err
	}
	first, i := nextField(line, 0)
	u, err := lr.parseRangedID(first, p.n)
	if err != nil {
		return err
	}
	for {
		var fv []byte
		if fv, i = nextField(line, i); fv == nil {
			return nil
		}
		v, err := lr.parseRangedID(fv, p.n)
		if err != nil {
			return err
		}
		if err := p.add(u, v, weight{}, true); err != nil {
			return err
		}
	}
}

// weightedLine refuses an edge line with a weight when the first had none,
// or the other way round, as an edge list does.
func (p *pajekReader) weightedLine(weighted bool) error {
	lr := p.lr
	switch {
	case p.opt.Unweighted:
	case p.firstLine == 0:
		p.firstLine, p.firstWeighted = lr.line, weighted
	case weighted && !p.firstWeighted:
		return lr.errorf(lr.line, "edge has a weight but the edge on line %d has none", p.firstLine)
	case !weighted && p.firstWeighted:
		return lr.errorf(lr.line, "edge has no weight but the edge on line %d has one", p.firstLine)
	}
	return nil
}

// add adds an arc, or an edge as two arcs in an edge section.
func (p *pajekReader) add(u, v int, w weight, unweighted bool) error {
	if err := p.lr.addEdge(p.b, u, v, w, unweighted); err != nil {
		return err
	}
	if (p.section == pajekEdges || p.section == pajekEdgesList) && u != v {
		return p.lr.addEdge(p.b, v, u, w, unweighted)
	}
	return nil
}
