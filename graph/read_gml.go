package graph

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// readGML reads a GML file: keys and values, a value being a number, a
// "string" or a [ list ], with '#' comments. It reads the one
// graph [ ... ] at the top level; other top-level keys (Creator, Version)
// are skipped, a second graph is refused.
//
//   - "directed 1" makes the graph directed, "directed 0" undirected
//     (opt.Directed, or DirectedSet, must agree); without it the options
//     decide. It must come before the first edge.
//   - node [ id N label "name" ]: id is an integer, which edges refer to;
//     label is the vertex's name, or the id in decimal when there is none.
//     Vertices are numbered in the order the nodes come. A second node with
//     an id or a name already taken is refused.
//   - edge [ source N target M weight W ]: source and target are ids of
//     nodes declared before the edge; the length is the value of the key
//     opt.WeightKey ("weight"), or 1 when the edge has none (NetworkX's
//     convention), parsed as every format's weights are.
//
// Strings may hold character references (&#233; &#x4e2d; and &amp; &quot;
// &lt; &gt; &apos;), as NetworkX writes them; they may not span lines.
// Lists nested in nodes and edges (graphics [ ... ]) are skipped.
func readGML(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	p := &gmlParser{x: gmlLexer{lr: lr}, opt: opt, lim: lim, weightKey: []byte(opt.weightKey())}
	for {
		key, _, kind, _, done, err := p.pair(0)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
		switch {
		case string(key) == "graph" && kind == gmlOpen:
			if p.graphLine > 0 {
				return nil, lr.errorf(lr.line, "second graph (the first is on line %d): one graph a file", p.graphLine)
			}
			if err := p.graph(); err != nil {
				return nil, err
			}
		case kind == gmlOpen:
			if err := p.skip(); err != nil {
				return nil, err
			}
		}
	}
	if p.graphLine == 0 {
		return nil, lr.errorf(max(lr.line, 1), "no graph [ ... ] in the file")
	}
	b := p.builder()
	if err := b.SetVertices(max(b.n, opt.Vertices)); err != nil {
		return nil, lr.wrap(p.graphLine, err)
	}
	g := b.Build()
	dropIdentityNames(g, 0)
	return g, nil
}

// Kinds of GML tokens.
const (
	gmlEOF    = iota
	gmlOpen   // [
	gmlClose  // ]
	gmlString // "..." (the text without its quotes)
	gmlAtom   // a key or a number: a run of other bytes
)

// gmlLexer splits the input into GML tokens; a token's text stays valid
// until the next token is asked for.
type gmlLexer struct {
	lr   *lineReader
	line []byte
	pos  int
}

func (x *gmlLexer) next() (int, []byte, error) {
	for {
		for x.pos < len(x.line) && isBlank(x.line[x.pos]) {
			x.pos++
		}
		if x.pos < len(x.line) && x.line[x.pos] != '#' {
			break
		}
		line, ok, err := x.lr.next()
		if err != nil || !ok {
			return gmlEOF, nil, err
		}
		x.line, x.pos = line, 0
	}
	start := x.pos
	switch x.line[start] {
	case '[':
		x.pos++
		return gmlOpen, x.line[start:x.pos], nil
	case ']':
		x.pos++
		return gmlClose, x.line[start:x.pos], nil
	case '"':
		end := bytes.IndexByte(x.line[start+1:], '"')
		if end < 0 {
			return 0, nil, x.lr.errorf(x.lr.line, "string %s does not end on its line", quote(x.line[start:]))
		}
		x.pos = start + 1 + end + 1
		return gmlString, x.line[start+1 : start+1+end], nil
	}
	for x.pos < len(x.line) {
		c := x.line[x.pos]
		if isBlank(c) || c == '[' || c == ']' || c == '"' {
			break
		}
		x.pos++
	}
	return gmlAtom, x.line[start:x.pos], nil
}

// gmlParser is the state of readGML.
type gmlParser struct {
	x         gmlLexer
	opt       ReadOptions
	lim       limit
	weightKey []byte
	key       []byte // the key of the pair being read (a copy)

	graphLine int
	b         *Builder
	directed  bool
	dirLine   int
	ids       map[int64]int // node id → vertex
	edges     int
	edgeLine  int // the first edge's line
}

// isGMLKey reports whether an atom is a key: a letter or '_', then letters,
// digits and '_'.
func isGMLKey(b []byte) bool {
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return len(b) > 0
}

// pair reads a key and the first token of its value, the key being copied
// to p.key. depth is how many lists are open: done is true at the ']' that
// closes the innermost (depth > 0) or at the end of the input (depth 0).
func (p *gmlParser) pair(depth int) (key []byte, keyLine, kind int, val []byte, done bool, err error) {
	lr := p.x.lr
	kind, text, err := p.x.next()
	switch {
	case err != nil:
		return nil, 0, 0, nil, false, err
	case kind == gmlEOF && depth == 0:
		return nil, 0, 0, nil, true, nil
	case kind == gmlEOF:
		return nil, 0, 0, nil, false, lr.errorf(max(lr.line, 1), "the file ends inside a list (graph [ on line %d)", p.graphLine)
	case kind == gmlClose && depth > 0:
		return nil, 0, 0, nil, true, nil
	case kind != gmlAtom || !isGMLKey(text):
		return nil, 0, 0, nil, false, lr.errorf(lr.line, "want a key, found %s", quote(text))
	}
	p.key = append(p.key[:0], text...)
	keyLine = lr.line
	kind, val, err = p.x.next()
	switch {
	case err != nil:
		return nil, 0, 0, nil, false, err
	case kind == gmlEOF:
		return nil, 0, 0, nil, false, lr.errorf(keyLine, "key %s has no value", quote(p.key))
	case kind == gmlClose:
		return nil, 0, 0, nil, false, lr.errorf(lr.line, "key %s has no value", quote(p.key))
	}
	return p.key, keyLine, kind, val, false, nil
}

// skip reads past the list whose '[' was just read.
func (p *gmlParser) skip() error {
	lr := p.x.lr
	open := lr.line
	for depth := 1; depth > 0; {
		kind, _, err := p.x.next()
		switch {
		case err != nil:
			return err
		case kind == gmlEOF:
			return lr.errorf(max(lr.line, 1), "the file ends inside the list opened on line %d", open)
		case kind == gmlOpen:
			depth++
		case kind == gmlClose:
			depth--
		}
	}
	return nil
}

// builder returns the graph's builder, made at the first node or edge.
func (p *gmlParser) builder() *Builder {
	if p.b == nil {
		p.b = NewBuilder(p.directed)
		p.ids = make(map[int64]int)
	}
	return p.b
}

// graph reads the graph list whose '[' was just read.
func (p *gmlParser) graph() error {
	lr := p.x.lr
	p.graphLine = lr.line
	p.directed = p.opt.Directed
	for {
		key, keyLine, kind, val, done, err := p.pair(1)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		switch {
		case string(key) == "node" && kind == gmlOpen:
			err = p.node(keyLine)
		case string(key) == "edge" && kind == gmlOpen:
			err = p.edge(keyLine)
		case string(key) == "directed":
			err = p.directedKey(kind, val)
		case kind == gmlOpen:
			err = p.skip()
		}
		if err != nil {
			return err
		}
	}
}

func (p *gmlParser) directedKey(kind int, val []byte) error {
	lr := p.x.lr
	var d bool
	switch {
	case kind == gmlAtom && string(val) == "1":
		d = true
	case kind == gmlAtom && string(val) == "0":
	default:
		return lr.errorf(lr.line, "directed %s, want 0 or 1", quote(val))
	}
	switch {
	case p.dirLine > 0 && d != p.directed:
		return lr.errorf(lr.line, "directed %s, but line %d says otherwise", val, p.dirLine)
	case p.edges > 0 && d != p.directed:
		return lr.errorf(lr.line, "directed %s comes after the first edge (line %d)", val, p.edgeLine)
	}
	if err := lr.checkDirected(d, p.opt, fmt.Sprintf("directed %s says", val)); err != nil {
		return err
	}
	p.directed, p.dirLine = d, lr.line
	if p.b != nil {
		p.b.directed = d // no arcs yet: only nodes came before
	}
	return nil
}

// parseGMLID parses an integer node id.
func (p *gmlParser) parseID(kind int, val []byte, what string) (int64, error) {
	id, err := strconv.ParseInt(string(val), 10, 64)
	if kind != gmlAtom || err != nil {
		return 0, p.x.lr.errorf(p.x.lr.line, "%s %s is not an integer", what, quote(val))
	}
	return id, nil
}

// node reads a node list whose '[' was just read, on line open.
func (p *gmlParser) node(open int) error {
	lr := p.x.lr
	var (
		id            int64
		idLine        int
		label         []byte
		labelLine     int
		labelAssigned bool
	)
	for {
		key, _, kind, val, done, err := p.pair(2)
		if err != nil {
			return err
		}
		if done {
			break
		}
		switch {
		case kind == gmlOpen:
			if err := p.skip(); err != nil {
				return err
			}
		case string(key) == "id":
			if idLine > 0 {
				return lr.errorf(lr.line, "second id of the node (the first is on line %d)", idLine)
			}
			if id, err = p.parseID(kind, val, "node id"); err != nil {
				return err
			}
			idLine = lr.line
		case string(key) == "label":
			if labelAssigned {
				return lr.errorf(lr.line, "second label of the node (the first is on line %d)", labelLine)
			}
			if kind == gmlString {
				label = gmlUnescape(label[:0], val)
			} else {
				label = append(label[:0], val...)
			}
			labelLine, labelAssigned = lr.line, true
		}
	}
	if idLine == 0 {
		return lr.errorf(open, "node without an id")
	}
	b := p.builder()
	if v, ok := p.ids[id]; ok {
		return lr.errorf(idLine, "node id %d is taken (vertex %s)", id, quote([]byte(b.index.names[v])))
	}
	if !labelAssigned {
		label = strconv.AppendInt(label[:0], id, 10)
		labelLine = idLine
	}
	n := b.n
	lr.line = labelLine
	v, err := lr.namedVertex(b, label, p.lim)
	if err != nil {
		return err
	}
	if v != n {
		return lr.errorf(labelLine, "the name %s is taken by another node", quote(label))
	}
	p.ids[id] = v
	return nil
}

// edge reads an edge list whose '[' was just read, on line open.
func (p *gmlParser) edge(open int) error {
	lr := p.x.lr
	var (
		ends        [2]int64
		endLines    [2]int
		w           weight
		weightLine  int
		weightFound bool
	)
	for {
		key, _, kind, val, done, err := p.pair(2)
		if err != nil {
			return err
		}
		if done {
			break
		}
		switch {
		case kind == gmlOpen:
			if err := p.skip(); err != nil {
				return err
			}
		case string(key) == "source" || string(key) == "target":
			i := 0
			if string(key) == "target" {
				i = 1
			}
			if endLines[i] > 0 {
				return lr.errorf(lr.line, "second %s of the edge (the first is on line %d)", key, endLines[i])
			}
			if ends[i], err = p.parseID(kind, val, string(key)); err != nil {
				return err
			}
			endLines[i] = lr.line
		case bytes.Equal(key, p.weightKey):
			if weightFound {
				return lr.errorf(lr.line, "second %s of the edge (the first is on line %d)", p.weightKey, weightLine)
			}
			weightFound, weightLine = true, lr.line
			if p.opt.Unweighted {
				continue
			}
			if kind != gmlAtom {
				return lr.errorf(lr.line, "%s %s is a string, want a number", p.weightKey, quote(val))
			}
			if w, err = lr.parseWeight(val, false); err != nil {
				return err
			}
		}
	}
	b := p.builder()
	var uv [2]int
	for i, what := range []string{"source", "target"} {
		if endLines[i] == 0 {
			return lr.errorf(open, "edge without a %s", what)
		}
		v, ok := p.ids[ends[i]]
		if !ok {
			return lr.errorf(endLines[i], "edge %s %d: no node with that id comes before it", what, ends[i])
		}
		uv[i] = v
	}
	if p.edges == 0 {
		p.edgeLine = open
	}
	p.edges++
	lr.line = open
	return lr.addEdge(b, uv[0], uv[1], w, !weightFound || p.opt.Unweighted)
}

// gmlUnescape appends s to dst with its character references replaced:
// numeric ones (&#233; &#xE9;) and the five of XML. Anything else that
// starts with '&' is kept as it is.
func gmlUnescape(dst, s []byte) []byte {
	for len(s) > 0 {
		i := bytes.IndexByte(s, '&')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		s = s[i:]
		end := bytes.IndexByte(s, ';')
		if end < 0 {
			return append(dst, s...)
		}
		ref := string(s[1:end])
		r, ok := rune(-1), true
		switch {
		case ref == "amp":
			r = '&'
		case ref == "quot":
			r = '"'
		case ref == "lt":
			r = '<'
		case ref == "gt":
			r = '>'
		case ref == "apos":
			r = '\''
		case len(ref) > 2 && (ref[:2] == "#x" || ref[:2] == "#X"):
			v, err := strconv.ParseUint(ref[2:], 16, 32)
			r, ok = rune(v), err == nil
		case len(ref) > 1 && ref[0] == '#' && ref[1] >= '0' && ref[1] <= '9':
			v, err := strconv.ParseUint(ref[1:], 10, 32)
			r, ok = rune(v), err == nil
		default:
			ok = false
		}
		if !ok || !utf8.ValidRune(r) {
			dst = append(dst, '&')
			s = s[1:]
			continue
		}
		dst = utf8.AppendRune(dst, r)
		s = s[end+1:]
	}
	return dst
}
