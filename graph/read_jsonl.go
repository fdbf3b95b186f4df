package graph

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// JSON Lines: one graph a line, as apsp bulk reads them on stdin:
//
//	{"id": "g1", "n": 4, "edges": [[0,1],[1,2,5],[2,3]], "directed": false}

// DefaultMaxJSONLine is the longest line a JSONLineReader returns when its
// MaxLine is 0.
const DefaultMaxJSONLine = 256 << 20

// ErrLineTooLong is wrapped by the error JSONLineReader.Next returns for a
// line longer than its MaxLine.
var ErrLineTooLong = errors.New("line too long")

// ErrNotJSONLines is wrapped by the error JSONLineReader.Next returns when
// the input's first line that is not blank does not start with '{': the
// input is then not graphs in JSON Lines but most likely a graph file (an
// edge list, a Matrix Market or DIMACS file).
var ErrNotJSONLines = errors.New("not JSON Lines")

// JSONLineReader splits JSON Lines input into its lines, for ReadJSONLine,
// one line at a time: it does not parse them, so that a caller may parse
// the lines it has read on several goroutines. The zero
// value is not usable; call NewJSONLineReader.
type JSONLineReader struct {
	// MaxLine is the longest line Next returns, in bytes without its
	// newline (0: DefaultMaxJSONLine). A longer line is skipped to its
	// end and reported.
	MaxLine int

	br     *bufio.Reader
	name   string
	lineNo int
	seen   bool // a line that is not blank was returned
}

// NewJSONLineReader returns a reader of r's lines; name (such as "stdin"
// or a file's path) is the name its errors and ReadJSONLine's give the
// input.
func NewJSONLineReader(r io.Reader, name string) *JSONLineReader {
	return &JSONLineReader{br: bufio.NewReaderSize(r, 1<<20), name: name}
}

// Next returns the next line that is not blank (white space only), without
// its newline, and its number
// (counted from 1, blank lines included); size is the bytes of input it
// took, the blank lines before it and the newline included. The line is
// the caller's, not overwritten by later calls. At the end of the input it returns io.EOF
// (and no line).
//
// A line longer than MaxLine is skipped to its end and given as a
// *ParseError wrapping ErrLineTooLong, with its number and size but no
// line; the input's first line that is not blank, when it does not start
// with '{' (after spaces, tabs and carriage returns), is given as a *ParseError wrapping
// ErrNotJSONLines, with the line unless it is longer than MaxLine too.
// After either, Next may be called again
// for the following lines. An error reading r is returned wrapped.
func (r *JSONLineReader) Next() (line []byte, lineNo, size int, err error) {
	maxLine := r.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxJSONLine
	}
	for {
		line, n, long, head, err := r.readLine(maxLine)
		size += n
		if n == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return nil, r.lineNo, size, io.EOF
			}
			return nil, r.lineNo, size, fmt.Errorf("reading %s: %w", r.name, err)
		}
		r.lineNo++
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, r.lineNo, size, fmt.Errorf("reading %s: %w", r.name, err)
		}
		if (!long && len(bytes.TrimSpace(line)) == 0) || (long && len(head) == 0) {
			continue // blank
		}
		first := !r.seen
		r.seen = true
		if first && (len(head) == 0 || head[0] != '{') {
			return line, r.lineNo, size, &ParseError{File: r.name, Line: r.lineNo,
				Msg: fmt.Sprintf("%v: the first line starts with %q, not '{'", ErrNotJSONLines, head), err: ErrNotJSONLines}
		}
		if long {
			return nil, r.lineNo, size, &ParseError{File: r.name, Line: r.lineNo,
				Msg: fmt.Sprintf("%v (put a graph this large in a file): over %d bytes", ErrLineTooLong, maxLine), err: ErrLineTooLong}
		}
		return line, r.lineNo, size, nil
	}
}

// jsonLineHead is how many bytes of a line Next quotes when the input is
// not JSON Lines.
const jsonLineHead = 16

// readLine reads one line without its newline and returns it with the
// bytes it took and its first bytes after blanks (up to jsonLineHead, for
// the sniff); io.EOF at the end of the input (with the last line, if it
// had no newline). A line beyond maxLine is skipped to its end and
// reported as long, with no line.
func (r *JSONLineReader) readLine(maxLine int) (line []byte, n int, long bool, head []byte, err error) {
	for {
		part, err := r.br.ReadSlice('\n')
		n += len(part)
		if len(head) < jsonLineHead {
			rest := part
			if len(head) == 0 {
				rest = bytes.TrimLeft(part, " \t\r\n")
			}
			rest = bytes.TrimRight(rest, "\n")
			head = append(head, rest[:min(len(rest), jsonLineHead-len(head))]...)
		}
		if !long {
			// At most maxLine bytes, the newline aside.
			if k := len(line) + len(part); k > maxLine+1 || (k > maxLine && (len(part) == 0 || part[len(part)-1] != '\n')) {
				long, line = true, nil
			} else {
				line = append(line, part...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil && !long:
			return line[:len(line)-1], n, false, head, nil
		case err == nil:
			return nil, n, true, head, nil
		default:
			return line, n, long, head, err // io.EOF or a read error
		}
	}
}

// ReadJSONLine reads the graph of one line of JSON Lines, line number
// lineNo of the input called name, and returns it with the line's id: the
// id's JSON value as written (a string with its quotes, or a number), or
// nil when the line has none or its reading stops before it, also when the
// graph is refused. The line is an object of the fields
//
//   - "id": a string or a number (or null), echoed, never interpreted;
//   - "n": the vertex count (optional: else the largest vertex id + 1);
//   - "edges": an array of [u, v] or [u, v, w], every edge with a weight
//     or none (as in edge lists), integer weights exact in int64, others
//     float64 with the edge lists' rules (no overflow, no underflow to 0,
//     -0 is 0);
//   - "directed": true or false (optional: else opt.Directed; one that
//     contradicts opt.Directed when opt.DirectedSet is an error),
//
// each at most once and of its type, and nothing else. It is read strictly
// as JSON, in one pass: an invalid line is an error even where its graph
// could be told. Vertex ids count from 0 (from 1 with opt.OneBased) and
// are below "n" when it is given; opt.Unweighted ignores the weights and
// opt.Vertices asks for at least that many vertices; opt.Format is not
// used. The graph is built by a Builder, which refuses a vertex count or
// arcs that do not fit in memory. A line of no edges and no "n" is a graph
// of 0 vertices, as an empty file is for Read.
//
// Every error is a *ParseError naming name and lineNo; one about sizes
// wraps ErrTooLarge.
func ReadJSONLine(line []byte, name string, lineNo int, opt ReadOptions) (id json.RawMessage, g *Graph, err error) {
	sc := &jsonScanner{s: line}
	jg, err := sc.object()
	if err != nil {
		return jg.ID, nil, jsonLineError(name, lineNo, err)
	}
	g, err = jg.build(opt)
	if err != nil {
		return jg.ID, nil, jsonLineError(name, lineNo, err)
	}
	return jg.ID, g, nil
}

// jsonLineError is err at line lineNo of name, its cause kept for
// errors.Is.
func jsonLineError(name string, lineNo int, err error) *ParseError {
	return &ParseError{File: name, Line: lineNo, Msg: err.Error(), err: err}
}

// jsonGraph is one JSON line, its ID and Edges the values' bytes.
type jsonGraph struct {
	ID       json.RawMessage
	N        *int64
	Edges    []byte
	Directed *bool
}

// jsonScanner reads a JSON line in one pass: encoding/json validated and
// decoded each line's (large) edges array twice, which measured slower
// than the graph's computation.
type jsonScanner struct {
	s []byte
	i int
}

func (p *jsonScanner) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// next is the byte after blanks, 0 at the end (or a NUL byte: see atEnd).
func (p *jsonScanner) next() byte {
	p.ws()
	if p.i == len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// atEnd reports whether only blanks are left.
func (p *jsonScanner) atEnd() bool {
	p.ws()
	return p.i == len(p.s)
}

// syntax is a JSON syntax error at the scanner's position.
func (p *jsonScanner) syntax(what string) error {
	if p.i >= len(p.s) {
		return fmt.Errorf("bad JSON: %s, found the end of the line", what)
	}
	return fmt.Errorf("bad JSON at byte %d: %s, found %q", p.i+1, what, p.s[p.i])
}

// object reads the line's object into a jsonGraph whose ID and Edges are
// the values' bytes (Edges checked for brackets and number characters
// only; addJSONEdges reads it). The id is set as soon as it is read, for the
// error line.
func (p *jsonScanner) object() (jsonGraph, error) {
	var jg jsonGraph
	switch c := p.next(); {
	case p.atEnd():
		return jg, errors.New("no JSON object")
	case c != '{':
		return jg, fmt.Errorf("the line is not a JSON object (it starts with %q)", c)
	}
	p.i++
	seen := map[string]bool{}
	for first := true; ; first = false {
		c := p.next()
		if c == '}' && first {
			p.i++
			break
		}
		key, err := p.str()
		if err != nil {
			return jg, err
		}
		name := string(key[1 : len(key)-1])
		if bytes.IndexByte(key, '\\') >= 0 {
			_ = json.Unmarshal(key, &name) // valid: str checked it
		}
		if p.next() != ':' {
			return jg, p.syntax("':' after a field name")
		}
		p.i++
		p.ws()
		if seen[name] {
			return jg, fmt.Errorf("field %q given twice", name)
		}
		seen[name] = true
		if err := p.field(&jg, name); err != nil {
			return jg, err
		}
		switch p.next() {
		case ',':
			p.i++
			continue
		case '}':
			p.i++
		default:
			return jg, p.syntax("',' or '}' after a field")
		}
		break
	}
	if !p.atEnd() {
		return jg, p.syntax("the end of the line after the object")
	}
	return jg, nil
}

// field reads the value of the field name.
func (p *jsonScanner) field(jg *jsonGraph, name string) error {
	switch name {
	case "id":
		switch c := p.next(); {
		case c == '"':
			tok, err := p.str()
			jg.ID = tok
			return err
		case c == '-' || (c >= '0' && c <= '9'):
			tok, err := p.num()
			jg.ID = tok
			return err
		case p.lit("null"):
			return nil
		}
		return p.wrongType(name, "a string or a number")
	case "n":
		if p.lit("null") {
			return nil
		}
		if c := p.next(); c != '-' && (c < '0' || c > '9') {
			return p.wrongType(name, "an integer")
		}
		tok, err := p.num()
		if err != nil {
			return err
		}
		v, err := strconv.ParseInt(string(tok), 10, 64)
		if err != nil {
			return fmt.Errorf(`"n": %s is not a vertex count (0..%d)`, tok, MaxVertices)
		}
		jg.N = &v
		return nil
	case "directed":
		for _, b := range []bool{true, false} {
			if p.lit(strconv.FormatBool(b)) {
				jg.Directed = &b
				return nil
			}
		}
		if p.lit("null") {
			return nil
		}
		return p.wrongType(name, "true or false")
	case "edges":
		if p.lit("null") {
			return nil
		}
		if p.next() != '[' {
			return p.wrongType(name, "an array of [u, v] or [u, v, w]")
		}
		start, depth := p.i, 0
		for ; p.i < len(p.s); p.i++ {
			switch c := p.s[p.i]; c {
			case '[':
				depth++
			case ']':
				depth--
			case ',', ' ', '\t', '\n', '\r', '-', '+', '.', 'e', 'E':
			default:
				if c < '0' || c > '9' {
					return fmt.Errorf(`"edges": byte %d: %q in an array of [u, v] or [u, v, w] of numbers`, p.i+1, c)
				}
			}
			if depth == 0 {
				p.i++
				jg.Edges = p.s[start:p.i]
				return nil
			}
		}
		return p.syntax(`']' to close "edges"`)
	}
	return fmt.Errorf("unknown field %q (a line has id, n, edges and directed)", name)
}

// wrongType reports a field whose value is of another JSON type.
func (p *jsonScanner) wrongType(name, want string) error {
	what := "a value"
	switch c := p.next(); {
	case c == '"':
		what = "a string"
	case c == '{':
		what = "an object"
	case c == '[':
		what = "an array"
	case c == 't' || c == 'f':
		what = "a boolean"
	case c == 'n':
		what = "null"
	case c == '-' || (c >= '0' && c <= '9'):
		what = "a number"
	case p.atEnd():
		return p.syntax("a value")
	}
	return fmt.Errorf("%q: %s where %s was expected", name, what, want)
}

// lit consumes the literal word if it comes next.
func (p *jsonScanner) lit(word string) bool {
	p.ws()
	if bytes.HasPrefix(p.s[p.i:], []byte(word)) {
		p.i += len(word)
		return true
	}
	return false
}

// str reads a JSON string and returns it with its quotes.
func (p *jsonScanner) str() ([]byte, error) {
	if p.next() != '"' {
		return nil, p.syntax("a string")
	}
	start := p.i
	for p.i++; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			return p.s[start:p.i], nil
		case c < 0x20:
			return nil, p.syntax("a character of the string (control characters must be escaped)")
		case c == '\\':
			p.i++
			if p.i == len(p.s) {
				return nil, p.syntax("an escape")
			}
			switch p.s[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					p.i++
					if p.i == len(p.s) || !isHex(p.s[p.i]) {
						return nil, p.syntax("a hexadecimal digit of a \\u escape")
					}
				}
			default:
				return nil, p.syntax("an escape")
			}
		}
	}
	return nil, p.syntax("'\"' to close the string")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// num reads a JSON number.
func (p *jsonScanner) num() ([]byte, error) {
	p.ws()
	n := jsonNumber(p.s[p.i:])
	if n == 0 {
		return nil, p.syntax("a number")
	}
	tok := p.s[p.i : p.i+n]
	p.i += n
	return tok, nil
}

// jsonNumber returns the length of the JSON number b starts with
// (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or 0 when it does not
// start with one.
func jsonNumber(b []byte) int {
	i := 0
	digits := func() int {
		k := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i, k = i+1, k+1
		}
		return k
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return 0
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return 0
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0
		}
	}
	return i
}

// build builds a decoded line's graph.
func (jg *jsonGraph) build(opt ReadOptions) (*Graph, error) {
	directed := opt.Directed
	if jg.Directed != nil {
		if opt.DirectedSet && *jg.Directed != opt.Directed {
			return nil, fmt.Errorf(`"directed": %v contradicts --directed=%v`, *jg.Directed, opt.Directed)
		}
		directed = *jg.Directed
	}
	b := NewBuilder(directed)
	// Room for every edge first (the brackets bound the edges): the
	// builder then checks the memory once, for the vertices too, rather
	// than again as its buffer grows; each check reads the system's
	// limits, about 0.1 ms.
	// The shortest edge, "[0,1],", takes 6 bytes: a line of brackets alone
	// reserves no more than its edges could need.
	if m := min(bytes.Count(jg.Edges, []byte{'['})-1, len(jg.Edges)/6); m > 0 {
		b.Grow(m)
	}
	n := -1
	if jg.N != nil {
		if *jg.N < 0 || *jg.N > MaxVertices {
			return nil, fmt.Errorf(`"n": %d is not a vertex count (0..%d)`, *jg.N, MaxVertices)
		}
		n = int(*jg.N)
		if err := b.SetVertices(n); err != nil {
			return nil, err
		}
	}
	if opt.Vertices > 0 {
		if err := b.SetVertices(opt.Vertices); err != nil {
			return nil, err
		}
	}
	if len(jg.Edges) > 0 {
		if err := addJSONEdges(b, jg.Edges, n, opt); err != nil {
			return nil, err
		}
	}
	return b.Build(), nil
}

// addJSONEdges adds the edges of a JSON array of [u, v] or [u, v, w] to b;
// every edge has a weight or none does (unless opt.Unweighted, which
// ignores them). The array holds only brackets, commas, blanks and number
// characters (jsonScanner checked it); its shape and numbers are checked
// here.
func addJSONEdges(b *Builder, raw []byte, n int, opt ReadOptions) error {
	p := &edgeScanner{s: raw}
	if !p.take('[') {
		return errors.New(`"edges" must be an array of [u, v] or [u, v, w]`)
	}
	if p.take(']') {
		return nil
	}
	weighted := -1 // unknown until the first edge
	for k := 1; ; k++ {
		if !p.take('[') {
			return fmt.Errorf("edge %d: not an array [u, v] or [u, v, w]", k)
		}
		var nums [3][]byte
		count := 0
		for {
			num := p.number()
			if num == nil {
				return fmt.Errorf("edge %d: its entries must be JSON numbers", k)
			}
			if count == 3 {
				return fmt.Errorf("edge %d: more than 3 entries", k)
			}
			nums[count] = num
			count++
			if p.take(']') {
				break
			}
			if !p.take(',') {
				return fmt.Errorf("edge %d: not an array of numbers", k)
			}
		}
		if count < 2 {
			return fmt.Errorf("edge %d: want [u, v] or [u, v, w]", k)
		}
		u, err := jsonVertexID(nums[0], n, opt.OneBased)
		if err != nil {
			return fmt.Errorf("edge %d: %w", k, err)
		}
		v, err := jsonVertexID(nums[1], n, opt.OneBased)
		if err != nil {
			return fmt.Errorf("edge %d: %w", k, err)
		}
		if !opt.Unweighted {
			has := 0
			if count == 3 {
				has = 1
			}
			if weighted >= 0 && has != weighted {
				return fmt.Errorf("edge %d: every edge must have a weight or none (edge 1 has %d entries, this one %d; --unweighted ignores weights)", k, 2+weighted, count)
			}
			weighted = has
		}
		switch {
		case opt.Unweighted || count == 2:
			err = b.AddEdge(u, v)
		default:
			err = addJSONWeighted(b, u, v, nums[2])
		}
		if err != nil {
			return fmt.Errorf("edge %d: %w", k, err)
		}
		if p.take(']') {
			return nil
		}
		if !p.take(',') {
			return errors.New(`"edges" must be an array of [u, v] or [u, v, w]`)
		}
	}
}

// jsonVertexID reads a vertex id: an integer from 0 (1 when oneBased),
// below n when n >= 0.
func jsonVertexID(b []byte, n int, oneBased bool) (int, error) {
	var v int64
	if len(b) <= 18 && !bytes.ContainsAny(b, "-.eE") {
		// Plain digits (a JSON number without sign, point or exponent)
		// that cannot overflow: most ids, read without strconv's copy.
		for _, c := range b {
			v = v*10 + int64(c-'0')
		}
	} else {
		var err error
		if v, err = strconv.ParseInt(string(b), 10, 64); err != nil {
			return 0, fmt.Errorf("vertex id %s is not an integer", b)
		}
	}
	if oneBased {
		if v < 1 {
			return 0, fmt.Errorf("vertex id %d is below 1 (--one-based)", v)
		}
		v--
	}
	if v < 0 {
		return 0, fmt.Errorf("negative vertex id %d", v)
	}
	if n >= 0 && v >= int64(n) {
		return 0, fmt.Errorf(`vertex id %s is not below "n": %d`, b, n)
	}
	if v >= MaxVertices {
		return 0, fmt.Errorf("vertex id %d: %w", v, ErrTooLarge)
	}
	return int(v), nil
}

// addJSONWeighted adds an edge with the weight literal w: an integer
// literal is an exact int64, any other number a float64, with the edge
// lists' rules (no overflow, no underflow to 0, -0 is 0).
func addJSONWeighted(b *Builder, u, v int, w []byte) error {
	if !bytes.ContainsAny(w, ".eE") {
		x, err := strconv.ParseInt(string(w), 10, 64)
		if err != nil {
			return fmt.Errorf("weight %s does not fit in a 64-bit integer", w)
		}
		return b.AddIntEdge(u, v, x)
	}
	x, err := strconv.ParseFloat(string(w), 64)
	if err != nil {
		if math.IsInf(x, 0) {
			return fmt.Errorf("weight %s overflows float64 (largest is %.2g)", w, math.MaxFloat64)
		}
		return fmt.Errorf("bad weight %s", w)
	}
	if x == 0 {
		mant, _, _ := strings.Cut(strings.ToLower(string(w)), "e")
		if strings.Trim(mant, "-+0.") != "" {
			return fmt.Errorf("weight %s underflows to 0 in float64 (smallest positive is %.2g)", w, math.SmallestNonzeroFloat64)
		}
		x = 0 // -0 becomes +0
	}
	return b.AddFloatEdge(u, v, x)
}

// edgeScanner walks the edges array.
type edgeScanner struct {
	s []byte
	i int
}

func (p *edgeScanner) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// take consumes c (after blanks) if it comes next.
func (p *edgeScanner) take(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// number consumes a JSON number and returns its literal, or nil.
func (p *edgeScanner) number() []byte {
	p.skip()
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			break
		}
		p.i++
	}
	if p.i == start || jsonNumber(p.s[start:p.i]) != p.i-start {
		return nil
	}
	return p.s[start:p.i]
}
