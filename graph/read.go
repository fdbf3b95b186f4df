package graph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"strconv"
)

// ReadOptions controls how a graph file is read.
type ReadOptions struct {
	Format     Format // FormatAuto: from the file name (FormatFromName)
	Directed   bool   // arcs are one-way (edge lists default to undirected); see DirectedSet
	OneBased   bool   // edge lists only: ids start at 1
	Unweighted bool   // ignore weights: every edge has length 1
	Vertices   int    // at least this many vertices (0 = the count the file declares, or largest id + 1); fewer than declared is refused

	// Labels reads an edge list's vertex fields as names, not ids: any
	// token names a vertex, vertices are numbered 0.. in the order their
	// names first appear, and the graph keeps the names (Graph.Names). A
	// line of one field names a vertex that may have no edge. An edge list
	// whose header says "# labels: true" (WriteEdgeList of a named graph)
	// is read so without it. CSV and the structured formats carry names
	// whatever Labels says.
	Labels bool

	// WeightKey names the edge attribute that holds lengths where a format
	// names attributes: the key of NetworkX's write_edgelist data
	// ("0 1 {'weight': 4}"), a GraphML key's attr.name, a GML edge
	// field. Empty means "weight".
	WeightKey string

	// CSV names the columns of a CSV edge list (FormatCSV); empty names
	// take the defaults of NetworkX's from_pandas_edgelist: "source",
	// "target" and "weight" (which may be absent: then the graph is
	// unweighted).
	CSV CSVColumns

	// Warn, when set, is told of what was read but may not be what the
	// file meant, such as integer ids that leave most vertices without an
	// edge (names read as ids: see Labels). The read goes on.
	Warn func(msg string)

	// DirectedSet says that Directed was asked for, false included (a
	// command line sets it when --directed is given, =false too): what a
	// file says of its directedness (an edge list's "# directed:" header, a
	// Matrix Market banner's symmetry, DIMACS, which is directed) must then
	// agree with Directed, or the read is refused. Directed true is asked
	// for whatever DirectedSet says. Without it, Directed false is only the
	// default, and the file decides.
	DirectedSet bool

	// Then is the work the caller does with the graph once it is read. A
	// vertex count the input declares (a Matrix Market size line, a
	// DIMACS problem line, an edge list's "# vertices: N", Vertices) or an
	// id implies is refused at once, wrapping ErrTooLarge, when the graph
	// and Then cannot both fit in the memory the process may still take
	// (see Work.Bytes and sysmem.Bounds), before anything proportional to
	// it is allocated: a 71-byte file declaring 700 million vertices
	// is refused in milliseconds rather than read for half a minute first.
	// The zero value checks what reading needs alone.
	Then Work
}

// weightKey returns the attribute name that holds lengths.
func (o ReadOptions) weightKey() string {
	if o.WeightKey == "" {
		return "weight"
	}
	return o.WeightKey
}

// warn tells o.Warn of msg, when there is one to tell.
func (o ReadOptions) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// ParseError is a malformed input at a known line.
type ParseError struct {
	File string
	Line int
	Msg  string
	err  error // the cause, when there is one (for errors.Is)
}

// Error returns "FILE:LINE: MSG".
func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Unwrap returns the underlying error, such as ErrTooLarge, or nil.
func (e *ParseError) Unwrap() error { return e.err }

// ReadFile reads a graph from a file; path "-" reads os.Stdin under the name
// "stdin".
func ReadFile(path string, opt ReadOptions) (*Graph, error) {
	if path == "-" {
		return Read(os.Stdin, "stdin", opt)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading graph: %w", err)
	}
	defer f.Close() // read-only: a close error loses nothing
	return Read(f, path, opt)
}

// Read reads a graph from r. The name appears in errors and, with
// FormatAuto, picks the format. Gzip input (magic bytes 1f 8b) is
// decompressed whatever the name.
//
// With FormatAuto, a name ending in .mtx, .gr, .graphml, .gml, .net or
// .graph (before any .gz) gives that format, whatever the content. Any
// other name (stdin, a .txt name, no extension) leaves the format to the
// content, after gzip decompression, as told by its first non-blank line: a
// "%%MatrixMarket" banner is Matrix Market; "p sp ...", or "c" comment lines
// ("c" alone or "c text") followed by "p sp ...", is DIMACS; a line
// starting with "<" is GraphML; "graph [" (or `Creator "...`) is GML; a
// Pajek section line ("*Vertices N") is Pajek; anything else, empty input
// included, is an edge list (METIS is never sniffed). Only the first lines
// are looked at and none is consumed.
//
// A graph6, sparse6 or digraph6 file (.g6, .s6, .d6; sniffed from a
// first line that is a ">>graph6<<"-style header or a sparse6 ':' or
// digraph6 '&' line; a bare graph6 line is not sniffed) may hold many
// graphs, one a line: Read takes one that holds exactly one, and refuses
// more with a *ParseError at the second that points to apsp bulk (see
// NewSixReader, which reads them all, and read_six.go for what is
// accepted).
//
// An edge list, named or sniffed, may not contain a line that belongs to
// another format: a "%%MatrixMarket" banner, a DIMACS line "p sp ..." or
// "a u v w", an XML declaration or <graphml> element, a GML "graph [" or a
// Pajek section line is a *ParseError that says which format the file looks
// like and how to name it.
//
// GraphML, GML and Pajek files name their vertices (see Graph.Names):
// GraphML by node id, GML by label (else id), Pajek by label (else its
// number), in the order the nodes come; names that are only the vertex
// ids (counted from 0, from 1 in Pajek) are no names. GraphML and GML take
// lengths from the edge attribute ReadOptions.WeightKey ("weight"), an
// edge without it having length 1; Pajek from the third column, METIS
// from the adjacency lists when its fmt says so. A Pajek file with *Arcs
// is directed, its *Edges being arcs both ways. METIS files are
// undirected, and must list every edge from both ends with one weight.
//
// A Matrix Market file may start with blank lines: its banner is its first
// non-blank line, as for recognition.
//
// An edge list's header, the comment lines before its first edge, is read
// for two lines that WriteEdgeList writes, each exactly as shown but for
// blanks. "# vertices: N" says the graph has N vertices, ids 0..N-1 (1..N
// with OneBased): an id beyond them, or a second such line with another N,
// is a *ParseError, as the header was not written for this body; Vertices
// may still ask for more vertices. "# directed: true" or
// "# directed: false" decides directedness, as a Matrix Market banner
// does, unless Directed is asked for (Directed true, or DirectedSet), and
// then the two must agree: a header that contradicts Directed, or another
// "# directed:" line, is a *ParseError. Other comments are ignored. An
// empty or comment-only input is a graph of 0 vertices, or of N with
// "# vertices: N".
//
// Matrix Market files say themselves whether they are directed (general)
// or not (symmetric), and DIMACS files are directed: Directed (or
// DirectedSet) that says otherwise is a *ParseError at the banner or the
// problem line, as it is against an edge list's header. Vertices below the
// count a file declares (a size line, a problem line, "# vertices: N") is
// a *ParseError at that line; above it, the graph has Vertices vertices,
// the last ones isolated, in every format, while ids must still lie within
// the count declared. OneBased applies to edge lists only: Matrix Market
// and DIMACS files are 1-based. With Unweighted, weight columns must still be
// present where the format requires them but their contents are ignored.
// In every format a zero weight, "-0.0" included, is +0; a float weight
// with a nonzero digit that underflows to 0 in float64 (1e-400), one that
// overflows it (1e400) and NaN or infinite literals are refused.
//
// A malformed line gives a *ParseError naming the line; a vertex count or id
// beyond what can be held (see vertexLimit), or beyond what fits with the
// work that follows (ReadOptions.Then), wraps ErrTooLarge; I/O and gzip
// errors are wrapped with %w.
//
// A gzip stream, and a stream whose size is unknown (a pipe, a network
// body), are read ahead on another goroutine, so that reading overlaps
// parsing. When Read returns before the end of such a stream (a malformed
// line), that goroutine starts no further read of r, but a read already in
// progress finishes first: a caller that must know r is no longer read
// (a request body it answers next) reads the input into memory first, or
// closes r, which ends a pipe's or a file's read in progress.
func Read(r io.Reader, name string, opt ReadOptions) (*Graph, error) {
	g, _, err := ReadFormat(r, name, opt)
	return g, err
}

// ReadFormat is Read that also returns the format the input was read as
// (named, from the name, or sniffed), which tells how its vertex ids count
// (1-based for Matrix Market and DIMACS).
func ReadFormat(r io.Reader, name string, opt ReadOptions) (*Graph, Format, error) {
	lr, err := newLineReader(r, name)
	if err != nil {
		return nil, FormatAuto, err
	}
	defer lr.stop()
	format := opt.Format
	if format == FormatAuto {
		format = FormatFromName(name)
		if format == FormatEdgeList { // the name names no format
			if format, err = lr.sniff(); err != nil {
				return nil, FormatAuto, err
			}
		}
	}
	lim := newLimit(opt.Then)
	if opt.Vertices < 0 {
		return nil, format, fmt.Errorf("%s: negative vertex count %d", name, opt.Vertices)
	}
	if opt.Vertices > lim.max() {
		return nil, format, fmt.Errorf("%s: %w", name, lim.refuse(fmt.Sprintf("%d vertices", opt.Vertices), uint64(opt.Vertices)))
	}
	var g *Graph
	switch format {
	case FormatEdgeList:
		g, err = readEdgeList(lr, opt, lim)
	case FormatMatrixMarket:
		g, err = readMatrixMarket(lr, opt, lim)
	case FormatDIMACS:
		g, err = readDIMACS(lr, opt, lim)
	case FormatCSV:
		g, err = readCSV(lr, opt, lim)
	case FormatGraph6, FormatSparse6, FormatDigraph6:
		g, err = readSixFile(lr, opt)
	case FormatGraphML:
		g, err = readGraphML(lr, opt, lim)
	case FormatGML:
		g, err = readGML(lr, opt, lim)
	case FormatPajek:
		g, err = readPajek(lr, opt, lim)
	case FormatMETIS:
		g, err = readMETIS(lr, opt, lim)
	default:
		err = fmt.Errorf("%s: unknown graph format %v", name, format)
	}
	return g, format, err
}

// readBufSize is large so that ReadSlice rarely refills, and so that almost
// every line fits and is returned without copying.
const readBufSize = 256 << 10

// maxLineLen bounds a single line so that a file without newlines cannot
// exhaust memory.
const maxLineLen = 16 << 20

// gzipMagic starts every gzip stream.
const gzipMagic = "\x1f\x8b"

// lineReader hands out the lines of a file as byte slices that stay valid
// until the next call, and numbers them.
type lineReader struct {
	br   *bufio.Reader
	ra   *readAhead // reads the input ahead on its own goroutine, or nil
	name string
	gz   bool
	size int64  // bytes of input, or -1 when unknown (a stream or gzip)
	line int    // number of the last line returned
	long []byte // holds a line longer than the buffer
	// maxLine bounds a line: maxLineLen, more for formats whose graph is
	// one line (maxSixLine).
	maxLine int
}

func newLineReader(r io.Reader, name string) (*lineReader, error) {
	br := bufio.NewReaderSize(r, readBufSize)
	lr := &lineReader{br: br, name: name, size: inputSize(r), maxLine: maxLineLen}
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case string(magic) == gzipMagic:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: bad gzip stream: %w", name, err)
		}
		// Inflating on its own goroutine overlaps it with parsing: on two
		// cores a .gz file then reads almost as fast as the plain one.
		lr.ra = newReadAhead(zr, true)
		lr.br = bufio.NewReaderSize(lr.ra, readBufSize)
		lr.gz, lr.size = true, -1
	case lr.size < 0:
		// A pipe or other stream: its reads (system calls, copies, the
		// writer's pace) overlap with parsing too. What a read returns is
		// handed on at once, as bufio would, so that a writer that pauses
		// (or stops, after a bad line) is not waited on for a full buffer.
		lr.ra = newReadAhead(br, false)
		lr.br = bufio.NewReaderSize(lr.ra, readBufSize)
	}
	return lr, nil
}

// stop ends the read-ahead, if any, once the reader is done with the input.
func (lr *lineReader) stop() {
	if lr.ra != nil {
		lr.ra.stop()
	}
}

// readAhead reads its source on its own goroutine into a few large
// buffers, ahead of the reader, which copies them out in order: memory
// stays bounded (aheadBufs of at most aheadBufSize) whatever the input's
// size.
type readAhead struct {
	whole bool            // fill each buffer before handing it on
	full  chan aheadChunk // filled buffers, in order
	free  chan []byte     // buffers handed back for filling
	done  chan struct{}   // closed by stop
	buf   []byte          // the buffer being read out, to hand back
	cur   []byte          // what is left of buf
	err   error           // the source's error (io.EOF at its end), after cur
}

// aheadChunk is a filled buffer and the error that ended it, if any.
type aheadChunk struct {
	b   []byte
	err error
}

// Large buffers make the hand-offs rare; a few let the goroutine run ahead
// while the reader is busy with one. They are made as needed, the first
// small (64 KiB, then 256 KiB, then 1 MiB), so that a small input (bulk
// reads many) costs little.
const (
	aheadBufSize  = 1 << 20
	aheadFirstBuf = 64 << 10
	aheadBufs     = 4
)

// newReadAhead starts reading src ahead. With whole, a buffer is handed on
// when full (or at the end): for a source that computes its bytes, gzip,
// whose reads return little each; otherwise after each read that returns
// something.
func newReadAhead(src io.Reader, whole bool) *readAhead {
	ra := &readAhead{
		whole: whole,
		full:  make(chan aheadChunk, aheadBufs),
		free:  make(chan []byte, aheadBufs),
		done:  make(chan struct{}),
	}
	go ra.run(src)
	return ra
}

// run fills buffers from src until its end, an error, or stop.
func (ra *readAhead) run(src io.Reader) {
	made, size := 0, aheadFirstBuf
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		default:
		}
		if buf == nil && made < aheadBufs {
			buf, made, size = make([]byte, size), made+1, min(4*size, aheadBufSize)
		}
		if buf == nil {
			select {
			case buf = <-ra.free:
			case <-ra.done:
				return
			}
		}
		select {
		case <-ra.done: // stopped: start no further read of src
			return
		default:
		}
		n, err := fill(src, buf, ra.whole)
		select {
		case ra.full <- aheadChunk{buf[:n], err}:
		case <-ra.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// fill reads src into buf until it has read something, or with whole
// until buf is full, or src fails (io.EOF at its end). Unlike io.ReadFull
// it keeps src's own error: a truncated gzip stream's io.ErrUnexpectedEOF
// must not read as the end.
func fill(src io.Reader, buf []byte, whole bool) (int, error) {
	n, empty := 0, 0
	for n < len(buf) && (whole || n == 0) {
		m, err := src.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m > 0 {
			empty = 0
		} else if empty++; empty == 100 { // as bufio gives up on a reader that returns nothing
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// Read copies out what the goroutine has read, in order, then its error.
func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.buf != nil {
			ra.free <- ra.buf[:cap(ra.buf)] // never blocks: free has room for every buffer
			ra.buf = nil
		}
		c := <-ra.full
		ra.buf, ra.cur, ra.err = c.b, c.b, c.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// stop lets the goroutine end: at once when it waits on the reader, after
// the read in progress otherwise (which a stream that never ends may hold
// until the process exits).
func (ra *readAhead) stop() { close(ra.done) }

// inputSize returns how many bytes r holds, or -1 when that is unknown.
func inputSize(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		return int64(r.Len())
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return -1
}

// minLineLen is the length of the shortest edge line, "0 1\n".
const minLineLen = 4

// edgeHint guesses how many edge lines the input has, from its size and
// the line density of the first buffer, so that the Builder can allocate
// once instead of growing by doubling (which costs copies and a transient
// 1.5x peak on large files). It returns 0 when the size is unknown.
func (lr *lineReader) edgeHint() int {
	if lr.size <= 0 {
		return 0
	}
	buf, _ := lr.br.Peek(readBufSize) // fewer bytes at the end of input are fine
	if len(buf) == 0 {
		return 0
	}
	lines := float64(bytes.Count(buf, []byte{'\n'}) + 1)
	// A little slack: falling short by one edge would copy the whole slice.
	est := float64(lr.size)*lines/float64(len(buf))*1.05 + 16
	return int(min(est, float64(lr.size/minLineLen)))
}

// countHint bounds a header's edge count m by what the input can hold, so
// that a lying header cannot make the Builder allocate a lot up front.
func (lr *lineReader) countHint(m int) int {
	if lr.size < 0 {
		return min(m, 1<<16)
	}
	return int(min(int64(m), lr.size/minLineLen))
}

// utf8BOM is a UTF-8 byte order mark, skipped at the start of the input.
const utf8BOM = "\xef\xbb\xbf"

// sniffWindow is how many bytes sniff looks at first; it doubles the window
// up to readBufSize while the lines seen leave the format open.
const sniffWindow = 4 << 10

// sniff tells the format from the first lines of the input without
// consuming them (see sniffFormat).
func (lr *lineReader) sniff() (Format, error) {
	for n := sniffWindow; ; n = min(2*n, readBufSize) {
		buf, err := lr.br.Peek(n)
		atEOF := err == io.EOF
		if err != nil && !atEOF {
			return FormatAuto, lr.readError(err)
		}
		if format, ok := sniffFormat(buf, atEOF || n == readBufSize, atEOF); ok {
			return format, nil
		}
	}
}

// readError wraps an error from reading the input.
func (lr *lineReader) readError(err error) error {
	if lr.gz {
		return fmt.Errorf("%s: bad gzip stream: %w", lr.name, err)
	}
	return fmt.Errorf("%s: %w", lr.name, err)
}

// next returns the next line without its line terminator, or nil, false at
// the end of the input.
func (lr *lineReader) next() ([]byte, bool, error) {
	b, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if len(lr.long) > lr.maxLine {
				return nil, false, lr.errorf(lr.line+1, "line longer than %d bytes", lr.maxLine)
			}
			b, err = lr.br.ReadSlice('\n')
			lr.long = append(lr.long, b...)
		}
		b = lr.long
	}
	if err != nil && err != io.EOF {
		return nil, false, lr.readError(err)
	}
	if len(b) == 0 {
		return nil, false, nil
	}
	lr.line++
	if b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if lr.line == 1 {
		b = bytes.TrimPrefix(b, []byte(utf8BOM))
	}
	return b, true, nil
}

func (lr *lineReader) errorf(line int, format string, args ...any) *ParseError {
	return &ParseError{File: lr.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// wrap turns err (from the Builder or a size check) into a ParseError at line.
func (lr *lineReader) wrap(line int, err error) *ParseError {
	return &ParseError{File: lr.name, Line: line, Msg: err.Error(), err: err}
}

// maxFields is one more than any format needs, so "too many" can be told.
const maxFields = 5

// fields holds the fields of one line as subslices of it.
type fields [maxFields][]byte

// quote quotes a field for an error message, shortened so that a garbage
// line cannot make a huge message.
func quote(b []byte) string {
	if len(b) > maxShown {
		return strconv.Quote(string(b[:maxShown])) + "..."
	}
	return strconv.Quote(string(b))
}

// clip shortens a field for an error message.
func clip(b []byte) string {
	if len(b) > maxShown {
		return string(b[:maxShown]) + "..."
	}
	return string(b)
}

// maxShown is the most bytes of a field an error message shows.
const maxShown = 40

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// split stores the first maxFields blank-separated fields of line in f and
// returns how many fields the line has in all. It does not allocate.
func (f *fields) split(line []byte) int {
	n := 0
	i := 0
	for {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return n
		}
		j := i
		for j < len(line) && !isBlank(line[j]) {
			j++
		}
		if n < maxFields {
			f[n] = line[i:j:j]
		}
		n++
		i = j
	}
}

// splitCommas stores the comma-separated fields of an edge line in f,
// blanks around each trimmed ("0,1", "0, 1, 2.5"), and returns how many
// the line has. ok is false when a field is empty ("0,,5": a missing
// value is not skipped) or holds a blank ("0 1,2"): such a line is
// refused rather than guessed at.
func (f *fields) splitCommas(line []byte) (n int, ok bool) {
	for {
		field, rest, more := bytes.Cut(line, []byte{','})
		field = bytes.Trim(field, " \t\r\v\f")
		if len(field) == 0 || bytes.ContainsAny(field, " \t\r\v\f") {
			return n + 1, false
		}
		if n < maxFields {
			f[n] = field[:len(field):len(field)]
		}
		n++
		if !more {
			return n, true
		}
		line = rest
	}
}

// parseUint parses a non-empty run of decimal digits. ok is false on any
// other byte; overflow is true when the value does not fit in int64.
func parseUint(b []byte) (v int64, ok, overflow bool) {
	if len(b) == 0 {
		return 0, false, false
	}
	for _, c := range b {
		d := int64(c) - '0'
		if d < 0 || d > 9 {
			return 0, false, false
		}
		if v > (math.MaxInt64-d)/10 {
			overflow = true
			continue // keep checking the syntax
		}
		v = v*10 + d
	}
	return v, true, overflow
}

// parseCount parses a non-negative count from a header line.
func (lr *lineReader) parseCount(b []byte, what string) (int, error) {
	v, ok, overflow := parseUint(b)
	switch {
	case len(b) > 1 && b[0] == '-' && isIntLiteral(b):
		return 0, lr.errorf(lr.line, "negative %s %s", what, quote(b))
	case !ok:
		return 0, lr.errorf(lr.line, "bad %s %s", what, quote(b))
	case overflow || v > math.MaxInt:
		return 0, lr.wrap(lr.line, fmt.Errorf("%s %s: %w", what, clip(b), ErrTooLarge))
	}
	return int(v), nil
}

// checkVertices refuses a vertex count above lim.max() (see limit).
func (lr *lineReader) checkVertices(n int, lim limit) error {
	if n > lim.max() {
		return lr.wrap(lr.line, lim.refuse(fmt.Sprintf("%d vertices", n), uint64(n)))
	}
	return nil
}

// checkDirected refuses a directedness asked for (ReadOptions.Directed, or
// DirectedSet) that contradicts what the file says, directed or not; says
// names what says it ("header says"), at the current line.
func (lr *lineReader) checkDirected(directed bool, opt ReadOptions, says string) error {
	switch {
	case !directed && opt.Directed:
		return lr.errorf(lr.line, "%s the graph is undirected, but it is read as directed (--directed); drop one or the other", says)
	case directed && opt.DirectedSet && !opt.Directed:
		return lr.errorf(lr.line, "%s the graph is directed, but it is read as undirected (--directed=false); drop one or the other", says)
	}
	return nil
}

// checkVerticesOption refuses ReadOptions.Vertices below n, the vertex
// count the file declares at the current line; says names what declares
// it ("the size line says").
func (lr *lineReader) checkVerticesOption(n int, opt ReadOptions, says string) error {
	if opt.Vertices > 0 && opt.Vertices < n {
		return lr.errorf(lr.line, "%s %d vertices, but it is read with %d (--vertices); drop one or the other", says, n, opt.Vertices)
	}
	return nil
}

// parseID parses a vertex id from an edge list: 0-based, or 1-based when
// oneBased. It returns the 0-based id, which is below lim.max().
func (lr *lineReader) parseID(b []byte, oneBased bool, lim limit) (int, error) {
	v, ok, overflow := parseUint(b)
	switch {
	case len(b) > 1 && b[0] == '-' && isIntLiteral(b):
		return 0, lr.errorf(lr.line, "negative vertex id %s", quote(b))
	case !ok:
		return 0, lr.errorf(lr.line, "bad vertex id %s (vertex names that are not ids need --labels, ReadOptions.Labels)", quote(b))
	case oneBased && v == 0 && !overflow:
		return 0, lr.errorf(lr.line, "vertex id 0 in a 1-based edge list")
	}
	if oneBased {
		v--
	}
	switch {
	case overflow:
		return 0, lr.wrap(lr.line, lim.refuse("vertex id "+clip(b), 0))
	case v >= int64(lim.max()):
		// v is 0-based: the graph needs v+1 vertices.
		return 0, lr.wrap(lr.line, lim.refuse("vertex id "+clip(b), uint64(v)+1))
	}
	return int(v), nil
}

// parseRangedID parses a 1-based vertex id that must lie in 1..n (Matrix
// Market and DIMACS) and returns it 0-based.
func (lr *lineReader) parseRangedID(b []byte, n int) (int, error) {
	v, ok, overflow := parseUint(b)
	switch {
	case len(b) > 1 && b[0] == '-' && isIntLiteral(b):
		return 0, lr.errorf(lr.line, "negative vertex id %s", quote(b))
	case !ok:
		return 0, lr.errorf(lr.line, "bad vertex id %s", quote(b))
	case overflow || v < 1 || v > int64(n):
		return 0, lr.errorf(lr.line, "vertex %s out of range 1..%d", clip(b), n)
	}
	return int(v - 1), nil
}

// weight is a parsed edge length.
type weight struct {
	i       int64
	f       float64
	isFloat bool
}

// isIntLiteral reports whether b is an optional sign followed by digits.
func isIntLiteral(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseWeight parses an integer literal as an int64 and anything else
// strconv.ParseFloat accepts as a float, which must be finite: a NaN or
// infinite literal is refused as not finite, one beyond MaxFloat64 (1e400)
// as overflowing. Underscores
// are refused although ParseFloat takes them: in a data file they are a
// mistake, not digit grouping. It is the one weight parser of every format.
//
// A float zero, "-0.0" included, is +0: the sign of a zero length would
// otherwise survive into distances ("-0"). A literal with a nonzero digit
// that rounds to zero (1e-400) is refused rather than read as 0; one that
// rounds to a subnormal (5e-324) is kept.
func (lr *lineReader) parseWeight(b []byte, intOnly bool) (weight, error) {
	if isIntLiteral(b) {
		neg := b[0] == '-'
		digits := b
		if b[0] == '+' || b[0] == '-' {
			digits = b[1:]
		}
		v, _, overflow := parseUint(digits)
		if overflow {
			// -9223372036854775808 is the one value whose magnitude overflows.
			if neg && string(digits) == "9223372036854775808" {
				return weight{i: math.MinInt64}, nil
			}
			return weight{}, lr.errorf(lr.line, "weight %s does not fit in a 64-bit integer", quote(b))
		}
		if neg {
			v = -v
		}
		return weight{i: v}, nil
	}
	if intOnly {
		return weight{}, lr.errorf(lr.line, "bad integer weight %s", quote(b))
	}
	if bytes.IndexByte(b, '_') >= 0 {
		return weight{}, lr.errorf(lr.line, "bad weight %s", quote(b))
	}
	f, err := strconv.ParseFloat(string(b), 64)
	rangeErr := errors.Is(err, strconv.ErrRange)
	if err != nil && !rangeErr {
		return weight{}, lr.errorf(lr.line, "bad weight %s", quote(b))
	}
	if math.IsInf(f, 0) && rangeErr { // a finite literal beyond MaxFloat64, not "inf"
		return weight{}, lr.errorf(lr.line, "weight %s overflows float64 (largest is %.2g)", quote(b), math.MaxFloat64)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return weight{}, lr.errorf(lr.line, "weight %s is not a finite number", quote(b))
	}
	if f == 0 {
		if nonzeroMantissa(b) {
			return weight{}, lr.errorf(lr.line, "weight %s underflows to 0 in float64 (smallest positive is %.2g)",
				quote(b), math.SmallestNonzeroFloat64)
		}
		f = 0 // -0 becomes +0
	}
	return weight{f: f, isFloat: true}, nil
}

// nonzeroMantissa reports whether a float literal that ParseFloat accepted
// has a nonzero digit before its exponent, decimal ("1e-400") or
// hexadecimal ("0x1p-1080"): whether it denotes a number other than zero.
func nonzeroMantissa(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	hex := len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
	if hex {
		b = b[2:]
	}
	for _, c := range b {
		switch {
		case c == '.' || c == '0':
		case hex && (c == 'p' || c == 'P'), !hex && (c == 'e' || c == 'E'):
			return false // the exponent
		default:
			return true // a nonzero digit, or letters of inf/nan (not zero either)
		}
	}
	return false
}

// addEdge adds u→v (or u–v) with weight w, or length 1 when unweighted, and
// turns a Builder error into a ParseError at the current line.
func (lr *lineReader) addEdge(b *Builder, u, v int, w weight, unweighted bool) error {
	var err error
	switch {
	case unweighted:
		err = b.AddEdge(u, v)
	case w.isFloat:
		err = b.AddFloatEdge(u, v, w.f)
	default:
		err = b.AddIntEdge(u, v, w.i)
	}
	if err != nil {
		return lr.wrap(lr.line, err)
	}
	return nil
}

// namedVertex returns the vertex called name, adding it when new; a vertex
// beyond lim.max() is refused at the current line, wrapping ErrTooLarge.
func (lr *lineReader) namedVertex(b *Builder, name []byte, lim limit) (int, error) {
	n := b.n
	v, err := b.VertexBytes(name)
	if err != nil {
		return 0, lr.wrap(lr.line, err)
	}
	if v == n && v >= lim.max() {
		return 0, lr.wrap(lr.line, lim.refuse(fmt.Sprintf("%d vertices", v+1), uint64(v)+1))
	}
	return v, nil
}

// dropIdentityNames removes g's names when each is its vertex's id counted
// from base (0, or 1 for Pajek): such names say nothing the ids do not,
// and a graph written without names (its ids as labels) reads back the same.
func dropIdentityNames(g *Graph, base int) {
	for v, s := range g.names {
		if s != strconv.Itoa(v+base) {
			return
		}
	}
	g.names = nil
}

// nextField returns the first blank-separated field of line at or after
// i and the index after it, or nil at the end of the line: for lines of
// any number of fields (an adjacency list), which fields.split stops
// counting.
func nextField(line []byte, i int) ([]byte, int) {
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	j := i
	for j < len(line) && !isBlank(line[j]) {
		j++
	}
	if i == j {
		return nil, j
	}
	return line[i:j:j], j
}
