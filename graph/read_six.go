package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// graph6, sparse6 and digraph6 are nauty's formats, as geng and NetworkX
// write them (https://users.cecs.anu.edu.au/~bdm/data/formats.txt): one
// graph a line, every byte of a line in 63..126 but a leading ':' (sparse6)
// or '&' (digraph6), and optionally one of the headers ">>graph6<<",
// ">>sparse6<<", ">>digraph6<<" at the start of the file, with or without
// a newline after it. As nauty's readers do, each line says its own format
// by its first byte, whatever the header or the file's name: a .g6 file may
// hold sparse6 lines.
//
// What is refused, each a *ParseError at its line: a byte outside 63..126,
// a vertex count beyond what fits (wrapping ErrTooLarge, before anything
// proportional to it is allocated), a graph6 or digraph6 line longer or
// shorter than its vertex count says or with padding bits that are not 0
// (every writer pads with 0: other bits are a damaged line), a sparse6
// line whose pairs end (a vertex or a neighbour of n or more) or run out
// before its last byte (padding is less than a byte, so more left over is
// a damaged or cut line), and incremental sparse6 (';'), which this reader
// does not take. A vertex count N(n) in a longer form than needed is read
// as nauty reads it.

// The headers a file may start with.
const (
	graph6Header   = ">>graph6<<"
	sparse6Header  = ">>sparse6<<"
	digraph6Header = ">>digraph6<<"
)

// maxSixLine bounds a line of these formats: a graph is one line, so that
// edge lists' bound (maxLineLen) would cap graph6 at 14 000 vertices. It
// allows graph6 of 56 000 vertices and sparse6 of tens of millions of
// edges; the line is held while its graph is built.
const maxSixLine = 256 << 20

// sixBias is added to every 6-bit group.
const sixBias = 63

// isSix reports whether f is one of nauty's formats.
func (f Format) isSix() bool {
	return f == FormatGraph6 || f == FormatSparse6 || f == FormatDigraph6
}

// OneGraphALine reports whether files of the format hold any number of
// graphs, one a line (graph6, sparse6, digraph6): Read takes such a file
// when it holds one graph; NewSixReader reads every graph.
func (f Format) OneGraphALine() bool { return f.isSix() }

// sixHeader returns the format of the header line starts with, or
// FormatAuto, and the header's length.
func sixHeader(line []byte) (Format, int) {
	switch {
	case bytes.HasPrefix(line, []byte(graph6Header)):
		return FormatGraph6, len(graph6Header)
	case bytes.HasPrefix(line, []byte(sparse6Header)):
		return FormatSparse6, len(sparse6Header)
	case bytes.HasPrefix(line, []byte(digraph6Header)):
		return FormatDigraph6, len(digraph6Header)
	}
	return FormatAuto, 0
}

// sniffSix tells a first line (or the start of one) that is a header, or
// a sparse6 or digraph6 graph: ':' or '&' and then only bytes 63..126,
// blanks around it allowed. No edge list, Matrix Market or DIMACS file
// starts so. A bare graph6 line ("Bw") is left to the edge list, whose
// reader refuses it, pointing at --format g6: a word of letters is too
// weak a sign.
func sniffSix(line []byte) Format {
	line = bytes.TrimFunc(line, func(r rune) bool { return r < 0x80 && isBlank(byte(r)) })
	if f, _ := sixHeader(line); f != FormatAuto {
		return f
	}
	if len(line) < 2 || !sixBytes(line[1:]) {
		return FormatAuto
	}
	switch line[0] {
	case ':':
		return FormatSparse6
	case '&':
		return FormatDigraph6
	}
	return FormatAuto
}

// sixBytes reports whether every byte of b is in 63..126.
func sixBytes(b []byte) bool {
	for _, c := range b {
		if c < sixBias || c > 126 {
			return false
		}
	}
	return true
}

// trimBlanks trims blanks, '\r' included, from both ends of a line.
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// SixReader reads the graphs of a graph6, sparse6 or digraph6 file, one a
// line, in order: graph6 and sparse6 lines give undirected graphs,
// digraph6 lines directed ones, all unweighted, with vertices 0..n-1.
// Blank lines are skipped, and blanks around a line.
type SixReader struct {
	lr     *lineReader
	opt    ReadOptions
	format Format
}

// NewSixReader returns a reader of the graphs of r, gzip-compressed or
// not. opt.Format names the format; FormatAuto takes it from the name
// (.g6, .s6, .d6, before any .gz) or else from the first line (a header,
// or a sparse6 or digraph6 line), and another format is an error.
// ReadOptions apply to every graph: Directed (or DirectedSet) that
// contradicts a line is a *ParseError at the line, Vertices gives every
// graph at least that many vertices, Then is checked against every
// graph's vertex count.
func NewSixReader(r io.Reader, name string, opt ReadOptions) (*SixReader, error) {
	lr, err := newLineReader(r, name)
	if err != nil {
		return nil, err
	}
	format := opt.Format
	if format == FormatAuto {
		if format = FormatFromName(name); format == FormatEdgeList {
			if format, err = lr.sniff(); err != nil {
				return nil, err
			}
		}
	}
	if !format.isSix() {
		return nil, fmt.Errorf("%s: not a graph6, sparse6 or digraph6 file (read as %v; name it .g6, .s6 or .d6, or give the format)", name, format)
	}
	if opt.Vertices < 0 {
		return nil, fmt.Errorf("%s: negative vertex count %d", name, opt.Vertices)
	}
	lr.maxLine = maxSixLine
	return &SixReader{lr: lr, opt: opt, format: format}, nil
}

// Format returns the format the file is read as (named, from its name or
// sniffed); each line still says its own.
func (s *SixReader) Format() Format { return s.format }

// NextLine returns the next graph's line, blanks and a header trimmed, and
// its line number, or io.EOF after the last. The line is valid until the
// next call; ReadSixLine reads its graph. Errors other than io.EOF are
// I/O, gzip or too long a line, after which the reader is done.
func (s *SixReader) NextLine() ([]byte, int, error) {
	for {
		line, ok, err := s.lr.next()
		if err != nil {
			return nil, s.lr.line, err
		}
		if !ok {
			return nil, s.lr.line, io.EOF
		}
		if s.lr.line == 1 {
			if f, n := sixHeader(line); f != FormatAuto {
				line = line[n:]
			}
		}
		if line = trimBlanks(line); len(line) > 0 {
			return line, s.lr.line, nil
		}
	}
}

// Next reads the next graph and returns it with its line number, or
// io.EOF after the last. A malformed line is a *ParseError about that line
// alone: Next may be called again for the lines after it. Other errors
// (see NextLine) end the reading.
func (s *SixReader) Next() (*Graph, int, error) {
	line, no, err := s.NextLine()
	if err != nil {
		return nil, no, err
	}
	g, err := ReadSixLine(line, s.lr.name, no, s.opt)
	return g, no, err
}

// ReadSixLine reads the graph of one graph6, sparse6 or digraph6 line
// (without its newline; a header must have been removed), line lineNo of
// name, as SixReader.Next does.
func ReadSixLine(line []byte, name string, lineNo int, opt ReadOptions) (*Graph, error) {
	lr := &lineReader{name: name, line: lineNo}
	if opt.Vertices < 0 {
		return nil, fmt.Errorf("%s: negative vertex count %d", name, opt.Vertices)
	}
	return lr.sixLine(trimBlanks(line), opt, newLimit(opt.Then))
}

// readSixFile reads a file that must hold one graph; one of several is
// refused, pointing to apsp bulk.
func readSixFile(lr *lineReader, opt ReadOptions) (*Graph, error) {
	lr.maxLine = maxSixLine
	s := &SixReader{lr: lr, opt: opt}
	line, no, err := s.NextLine()
	if errors.Is(err, io.EOF) {
		return nil, lr.errorf(max(no, 1), "no graph: a graph6, sparse6 or digraph6 file holds one graph a line")
	}
	if err != nil {
		return nil, err
	}
	g, err := lr.sixLine(line, opt, newLimit(opt.Then))
	if err != nil {
		return nil, err
	}
	// Count the others, unread, for the message.
	more, second := 0, 0
	for {
		_, no, err := s.NextLine()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if more++; second == 0 {
			second = no
		}
	}
	if more > 0 {
		return nil, lr.errorf(second, "the file holds %d graphs, one a line, but this reads one: use apsp bulk FILE, which computes each", more+1)
	}
	return g, nil
}

// sixLine reads the graph of one line, blanks and header trimmed, at
// lr.line.
func (lr *lineReader) sixLine(line []byte, opt ReadOptions, lim limit) (*Graph, error) {
	if len(line) == 0 {
		return nil, lr.errorf(lr.line, "empty line, not a graph")
	}
	kind, body := FormatGraph6, line
	switch line[0] {
	case ':':
		kind, body = FormatSparse6, line[1:]
	case '&':
		kind, body = FormatDigraph6, line[1:]
	case ';':
		return nil, lr.errorf(lr.line, "incremental sparse6 (a line starting ';') is not supported: write each graph in full")
	}
	for i, c := range body {
		if c < sixBias || c > 126 {
			return nil, lr.errorf(lr.line, "byte %d of the %v line is %q, outside 63..126", i+len(line)-len(body)+1, kind, c)
		}
	}
	n, used, ok := sixSize(body)
	if !ok {
		return nil, lr.errorf(lr.line, "%v line cut short in its vertex count", kind)
	}
	if n > uint64(MaxVertices) {
		return nil, lr.wrap(lr.line, lim.refuse(fmt.Sprintf("%d vertices", n), n))
	}
	if err := lr.checkVertices(int(n), lim); err != nil {
		return nil, err
	}
	says := fmt.Sprintf("the %v line says", kind)
	if err := lr.checkVerticesOption(int(n), opt, says); err != nil {
		return nil, err
	}
	if err := lr.checkDirected(kind == FormatDigraph6, opt, says); err != nil {
		return nil, err
	}
	b := NewBuilder(kind == FormatDigraph6)
	if err := b.SetVertices(max(int(n), opt.Vertices)); err != nil {
		return nil, lr.wrap(lr.line, err)
	}
	data := body[used:]
	var err error
	switch kind {
	case FormatSparse6:
		err = lr.sparse6(b, int(n), data)
	default:
		err = lr.denseSix(b, int(n), data, kind)
	}
	if err != nil {
		return nil, err
	}
	return b.Build(), nil
}

// sixSize decodes N(n) at the start of data (bytes checked to be in
// 63..126): one byte for n <= 62, 126 and 3 bytes of 18 bits, or 126 126
// and 6 bytes of 36 bits. ok is false when data ends first.
func sixSize(data []byte) (n uint64, used int, ok bool) {
	switch {
	case len(data) == 0:
		return 0, 0, false
	case data[0] != 126:
		return uint64(data[0] - sixBias), 1, true
	case len(data) >= 2 && data[1] == 126:
		used = 8
	default:
		used = 4
	}
	if len(data) < used {
		return 0, 0, false
	}
	for _, c := range data[used/4 : used] { // past the one or two 126s
		n = n<<6 | uint64(c-sixBias)
	}
	return n, used, true
}

// denseSix reads graph6's upper triangle, column by column ((0,1), (0,2),
// (1,2), (0,3), ...), or digraph6's whole matrix, row by row, into b.
func (lr *lineReader) denseSix(b *Builder, n int, data []byte, kind Format) error {
	nbits := uint64(n) * uint64(n)
	if kind == FormatGraph6 {
		nbits = uint64(n) * uint64(max(n-1, 0)) / 2
	}
	want := (nbits + 5) / 6
	if uint64(len(data)) != want {
		how := "cut short"
		if uint64(len(data)) > want {
			how = "too long"
		}
		return lr.errorf(lr.line, "%v line %s: %d vertices take %d bytes of adjacency, found %d", kind, how, n, want, len(data))
	}
	if pad := want*6 - nbits; pad > 0 && (data[len(data)-1]-sixBias)&(1<<pad-1) != 0 {
		return lr.errorf(lr.line, "%v line's last %d bits (padding) are not 0: a damaged line", kind, pad)
	}
	ones := 0
	for _, c := range data {
		ones += bits.OnesCount8(c - sixBias)
	}
	b.Grow(ones)
	// (i, j) is the entry of the next bit: graph6 walks i < j down each
	// column j, digraph6 walks j along each row i.
	i, j := 0, 1
	if kind == FormatDigraph6 {
		j = 0
	}
	advance := func(k int) {
		if kind == FormatGraph6 {
			for i += k; i >= j; j++ {
				i -= j
			}
			return
		}
		for j += k; j >= n; i++ {
			j -= n
		}
	}
	for _, c := range data {
		x := c - sixBias
		if x == 0 {
			advance(6)
			continue
		}
		for bit := 5; bit >= 0; bit-- {
			if x>>bit&1 != 0 { // padding bits are 0: (i, j) is in the matrix
				if err := b.AddEdge(i, j); err != nil {
					return lr.wrap(lr.line, err)
				}
			}
			advance(1)
		}
	}
	return nil
}

// sparse6 reads sparse6's (b, x) pairs into b: each pair a bit and a
// k-bit vertex, k the bits of n-1. b = 1 moves the current vertex v on by
// one; then x > v makes x the current vertex, else x–v is an edge.
// Decoding ends, as nauty's, when v or x reaches n (the 1-bits padding
// the last byte) or when no whole pair is left.
func (lr *lineReader) sparse6(b *Builder, n int, data []byte) error {
	k := 0
	if n > 1 {
		k = bits.Len(uint(n - 1))
	}
	total := 6 * len(data)
	b.Grow(total / (k + 1))
	r := sixBits{data: data}
	v := 0
	for r.pos+1+k <= total {
		start := r.pos
		bit := r.read(1)
		x := int(r.read(k))
		if bit == 1 {
			v++
		}
		if x >= n || v >= n {
			r.pos = start // the padding starts here
			break
		}
		if x > v {
			v = x
			continue
		}
		if err := b.AddEdge(x, v); err != nil {
			return lr.wrap(lr.line, err)
		}
	}
	if left := total - r.pos; left >= 6 {
		return lr.errorf(lr.line, "sparse6 line has %d bits after its last edge, but padding is less than a byte: a damaged or cut line", left)
	}
	return nil
}

// sixBits reads big-endian bits from 6-bit groups (bytes less sixBias).
type sixBits struct {
	data []byte
	pos  int
}

// read returns the next k bits (k <= 36) as a number.
func (r *sixBits) read(k int) uint64 {
	var x uint64
	for k > 0 {
		c := uint64(r.data[r.pos/6] - sixBias)
		off := r.pos % 6
		take := min(6-off, k)
		x = x<<take | (c>>(6-off-take))&(1<<take-1)
		r.pos += take
		k -= take
	}
	return x
}
