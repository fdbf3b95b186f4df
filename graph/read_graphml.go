package graph

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
)

// maxWeightText bounds the text of the element that holds an edge's
// weight (one number), so that a huge <data> is refused, not kept.
const maxWeightText = 1 << 10

// readGraphML reads a GraphML document as a stream of XML tokens
// (encoding/xml's Decoder.Token), so that memory follows the graph, not
// the file. It reads the one <graph> of the document:
//
//   - <graph edgedefault="directed|undirected"> says whether the graph is
//     directed (opt.Directed, or DirectedSet, must agree); without it, the
//     options decide. An <edge directed="..."> that says otherwise is
//     refused: a graph of directed and undirected edges is not supported.
//   - <node id="..."> names a vertex, numbered in the order of first
//     appearance; an edge may name a node no <node> declares (GraphML
//     allows it), which it then adds. A node declared twice is refused.
//   - An edge's length is its <data> for the <key for="edge|all"> whose
//     attr.name is opt.WeightKey ("weight"), or that key's <default>, or 1
//     when there is neither (NetworkX's convention for a missing weight).
//     A key of attr.type int or long holds integers, float or double
//     floats, string (or none) either, as an edge list's column does.
//
// Nested graphs, hyperedges and a second <graph> are refused; other
// elements (ports, descriptions, yFiles data) are skipped.
func readGraphML(lr *lineReader, opt ReadOptions, lim limit) (*Graph, error) {
	// A byte order mark is not XML to encoding/xml; sniffing skipped it too.
	if bom, _ := lr.br.Peek(len(utf8BOM)); string(bom) == utf8BOM {
		lr.br.Discard(len(utf8BOM))
	}
	src := &recordingReader{br: lr.br}
	r := &graphmlReader{lr: lr, dec: xml.NewDecoder(src), src: src, opt: opt, lim: lim, key: opt.weightKey()}
	return r.read()
}

// recordingReader passes the input to the XML decoder and keeps its read
// error, so that an I/O or gzip error is told from malformed XML.
type recordingReader struct {
	br  io.ByteReader
	err error
}

func (r *recordingReader) ReadByte() (byte, error) {
	c, err := r.br.ReadByte()
	if err != nil && err != io.EOF {
		r.err = err
	}
	return c, err
}

func (r *recordingReader) Read(p []byte) (int, error) {
	for i := range p {
		c, err := r.ReadByte()
		if err != nil {
			return i, err
		}
		p[i] = c
	}
	return len(p), nil
}

// graphmlReader is the state of readGraphML.
type graphmlReader struct {
	lr  *lineReader
	dec *xml.Decoder
	src *recordingReader
	opt ReadOptions
	lim limit
	key string // the weight key's attr.name

	// The weight key, once declared.
	keyID      string // its id, "" when there is none
	keyLine    int
	keyType    string // its attr.type
	keyDefault *weight

	b         *Builder
	graphLine int
	graphSays string // what decides directedness, for errors
	directed  bool
	declared  []bool // vertices a <node> declared

	// The edge being read.
	inEdge      bool
	edgeLine    int
	u, v        int
	edgeWeight  *weight
	weightLine  int // the line of its weight's <data>
	inKey       bool
	text        []byte // the weight text being collected
	collecting  int    // the depth of the element whose text is collected, or 0
	collectLine int
}

func (r *graphmlReader) read() (*Graph, error) {
	lr := r.lr
	depth := 0
	rootSeen := false
	for {
		tok, err := r.dec.Token()
		lr.line, _ = r.dec.InputPos()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, r.xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if err := r.start(t, depth, &rootSeen); err != nil {
				return nil, err
			}
		case xml.EndElement:
			if err := r.end(depth); err != nil {
				return nil, err
			}
			depth--
		case xml.CharData:
			if r.collecting == depth {
				if len(r.text)+len(t) > maxWeightText {
					return nil, lr.errorf(r.collectLine, "weight text longer than %d bytes", maxWeightText)
				}
				r.text = append(r.text, t...)
			}
		}
	}
	switch {
	case !rootSeen:
		return nil, lr.errorf(max(lr.line, 1), "no <graphml> element: not a GraphML file")
	case r.b == nil:
		return nil, lr.errorf(max(lr.line, 1), "no <graph> element")
	}
	if err := r.b.SetVertices(max(r.b.n, r.opt.Vertices)); err != nil {
		return nil, lr.wrap(r.graphLine, err)
	}
	g := r.b.Build()
	dropIdentityNames(g, 0)
	return g, nil
}

// xmlError turns an error of the decoder into a ParseError at its line, or
// a read error (I/O, gzip) wrapped as the other readers wrap them.
func (r *graphmlReader) xmlError(err error) error {
	if r.src.err != nil {
		return r.lr.readError(r.src.err)
	}
	line := r.lr.line
	if se, ok := err.(*xml.SyntaxError); ok {
		line = se.Line
	}
	return &ParseError{File: r.lr.name, Line: max(line, 1), Msg: "bad XML: " + err.Error(), err: err}
}

// attr returns the value of a start element's attribute of no namespace.
func attr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func (r *graphmlReader) start(t xml.StartElement, depth int, rootSeen *bool) error {
	lr := r.lr
	local := t.Name.Local
	switch {
	case depth == 1:
		if local != "graphml" {
			return lr.errorf(lr.line, "root element <%s> is not <graphml>: not a GraphML file", clip([]byte(local)))
		}
		*rootSeen = true
	case local == "graph" && depth == 2:
		return r.graph(t)
	case local == "graph":
		return lr.errorf(lr.line, "nested graphs are not supported")
	case local == "hyperedge":
		return lr.errorf(lr.line, "hyperedges are not supported")
	case local == "key":
		return r.keyStart(t, depth)
	case local == "default" && depth == 3 && r.inKey:
		r.collect(depth)
	case local == "node" && depth == 3 && r.b != nil:
		return r.node(t)
	case local == "edge" && depth == 3 && r.b != nil:
		return r.edgeStart(t)
	case local == "data" && depth == 4 && r.inEdge && r.keyID != "":
		if k, _ := attr(t, "key"); k == r.keyID {
			if r.weightLine > 0 {
				return lr.errorf(lr.line, "second weight of the edge (the first is on line %d)", r.weightLine)
			}
			r.weightLine = lr.line
			r.collect(depth)
		}
	}
	return nil
}

func (r *graphmlReader) collect(depth int) {
	r.collecting, r.text, r.collectLine = depth, r.text[:0], r.lr.line
}

func (r *graphmlReader) end(depth int) error {
	lr := r.lr
	if r.collecting == depth {
		r.collecting = 0
		if r.opt.Unweighted {
			return nil // what the weights say is ignored
		}
		text := bytes.TrimSpace(r.text)
		lr.line = r.collectLine
		w, err := r.parseWeight(text)
		if err != nil {
			return err
		}
		if r.inEdge {
			r.edgeWeight = &w
		} else {
			r.keyDefault = &w
		}
		return nil
	}
	switch {
	case depth == 2 && r.inKey:
		r.inKey = false
	case depth == 3 && r.inEdge:
		r.inEdge = false
		w := r.keyDefault
		if r.edgeWeight != nil {
			w = r.edgeWeight
		}
		unweighted := w == nil || r.opt.Unweighted
		if w == nil {
			w = &weight{}
		}
		lr.line = r.edgeLine
		return lr.addEdge(r.b, r.u, r.v, *w, unweighted)
	}
	return nil
}

// parseWeight parses a weight's text as the weight key's attr.type says.
func (r *graphmlReader) parseWeight(text []byte) (weight, error) {
	if len(text) == 0 {
		return weight{}, r.lr.errorf(r.lr.line, "empty weight")
	}
	switch r.keyType {
	case "int", "long":
		return r.lr.parseWeight(text, true)
	case "float", "double":
		w, err := r.lr.parseWeight(text, false)
		if err == nil && !w.isFloat {
			w = weight{f: float64(w.i), isFloat: true} // a double key gives a float graph
		}
		return w, err
	}
	return r.lr.parseWeight(text, false)
}

// keyStart reads a <key>: the one for edges named as the weight key gives
// the id that edges' <data> use.
func (r *graphmlReader) keyStart(t xml.StartElement, depth int) error {
	lr := r.lr
	name, _ := attr(t, "attr.name")
	domain, ok := attr(t, "for")
	if name != r.key || ok && domain != "edge" && domain != "all" {
		return nil
	}
	id, ok := attr(t, "id")
	if !ok {
		return lr.errorf(lr.line, "<key> without an id")
	}
	switch {
	case depth != 2:
		return lr.errorf(lr.line, "the key for the edges' %q is not a child of <graphml>", r.key)
	case r.keyID != "":
		return lr.errorf(lr.line, "second key for the edges' %q (the first is on line %d)", r.key, r.keyLine)
	case r.b != nil:
		return lr.errorf(lr.line, "the key for the edges' %q comes after <graph> (line %d)", r.key, r.graphLine)
	}
	typ, _ := attr(t, "attr.type")
	switch typ {
	case "", "int", "long", "float", "double", "string":
	default:
		return lr.errorf(lr.line, "the key for the edges' %q has attr.type %q, want int, long, float, double or string",
			r.key, clip([]byte(typ)))
	}
	r.keyID, r.keyLine, r.keyType, r.inKey = id, lr.line, typ, true
	return nil
}

// graph reads the <graph> element: directedness, and the builder.
func (r *graphmlReader) graph(t xml.StartElement) error {
	lr := r.lr
	if r.b != nil {
		return lr.errorf(lr.line, "second <graph> (the first is on line %d): one graph a file", r.graphLine)
	}
	r.directed = r.opt.Directed
	r.graphSays = "the options decide, as <graph> has no edgedefault"
	if ed, ok := attr(t, "edgedefault"); ok {
		switch ed {
		case "directed":
			r.directed = true
		case "undirected":
			r.directed = false
		default:
			return lr.errorf(lr.line, `edgedefault %q, want "directed" or "undirected"`, clip([]byte(ed)))
		}
		if err := lr.checkDirected(r.directed, r.opt, fmt.Sprintf("edgedefault=%q says", ed)); err != nil {
			return err
		}
		r.graphSays = fmt.Sprintf("edgedefault=%q", ed)
	}
	r.b = NewBuilder(r.directed)
	r.graphLine = lr.line
	return nil
}

func (r *graphmlReader) node(t xml.StartElement) error {
	lr := r.lr
	id, ok := attr(t, "id")
	if !ok {
		return lr.errorf(lr.line, "<node> without an id")
	}
	v, err := lr.namedVertex(r.b, []byte(id), r.lim)
	if err != nil {
		return err
	}
	for len(r.declared) <= v {
		r.declared = append(r.declared, false)
	}
	if r.declared[v] {
		return lr.errorf(lr.line, "node %s declared twice", quote([]byte(id)))
	}
	r.declared[v] = true
	return nil
}

func (r *graphmlReader) edgeStart(t xml.StartElement) error {
	lr := r.lr
	src, ok1 := attr(t, "source")
	dst, ok2 := attr(t, "target")
	if !ok1 || !ok2 {
		return lr.errorf(lr.line, "<edge> without a source and a target")
	}
	if d, ok := attr(t, "directed"); ok {
		var directed bool
		switch d {
		case "true":
			directed = true
		case "false":
		default:
			return lr.errorf(lr.line, `edge attribute directed=%q, want "true" or "false"`, clip([]byte(d)))
		}
		if directed != r.directed {
			return lr.errorf(lr.line, "edge says directed=%q, but the graph is %s (%s): graphs of directed and undirected edges are not supported",
				d, map[bool]string{true: "directed", false: "undirected"}[r.directed], r.graphSays)
		}
	}
	u, err := lr.namedVertex(r.b, []byte(src), r.lim)
	if err != nil {
		return err
	}
	v, err := lr.namedVertex(r.b, []byte(dst), r.lim)
	if err != nil {
		return err
	}
	r.inEdge, r.edgeLine, r.u, r.v, r.edgeWeight, r.weightLine = true, lr.line, u, v, nil, 0
	return nil
}
