package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/par"
)

// apsp bulk: many graphs, one result line each, in input order.
//
// The inputs are read and computed in chunks of at most chunkGraphs graphs
// and chunkBytes of input (files' sizes, JSON lines): each chunk's graphs
// are read on every
// thread, then computed by apsp.StatsBatch, then written, so that memory
// stays bounded by a chunk however many graphs come and results appear as
// chunks finish.
var (
	chunkGraphs = 1024 // a GPU bulk search wants hundreds of graphs
	chunkBytes  = 64 << 20
	// maxLine is the longest JSON line read; a longer one is refused (its
	// graph belongs in a file).
	maxLine = 256 << 20
)

const bulkLong = `Computes the stats of many graphs and writes one result a line, in input
order. The inputs are graph files (any format stats reads; the id is the
path), directories (their files, sorted by name; hidden files and
subdirectories are skipped), or - for JSON Lines on stdin, one graph a line:
  {"id": "g1", "n": 4, "edges": [[0,1],[1,2,5],[2,3]], "directed": false}
where id (a string or number; default "stdin:LINE") is echoed, n (optional;
else the largest vertex id + 1) is the vertex count, edges are [u, v] or
[u, v, w] (every edge with a weight or none, as in edge lists; integer or
decimal weights) and directed (optional) defaults to --directed (a line
that contradicts a --directed given explicitly is an error). Vertex ids
count from 0 unless --one-based.

Output: JSON Lines with "id" and the fields of stats --json (vertices,
diameter, radius, aspl, connected, reachable_pairs, center, periphery,
algorithm, seconds, ...), or CSV with a header line (--csv; inf and nan as
text, center and periphery space-separated). A graph that cannot be read or
computed gives {"id": ..., "error": "why"} (a CSV row with only id and
error) in its place and the others still complete; the exit status is then
1. Small graphs run one per thread, large ones one at a time on every
thread (see apsp.StatsBatch); --threads caps the threads. On a GPU
(--device gpu) unweighted graphs of up to 1024 vertices are searched in
groups of --group graphs streamed through the GPU, and each group's lines
are written as soon as it is done: a small group answers sooner, a large
one gives more graphs a second (0 chooses; at most a chunk of 1024 graphs
is read at a time). Lines are written as soon as they and every line
before them are done. Flags: those of stats but --no-aspl and --explain,
--csv (JSON Lines is the default) and --group.`

// runBulk is apsp bulk.
func runBulk(e *env, args []string) error {
	f, _ := newFlags("bulk")
	var csvOut bool
	var group int
	f.fs.BoolVar(&csvOut, "csv", false, "write CSV (a header line, then a row per graph) instead of JSON Lines")
	f.fs.IntVar(&group, "group", 0, "graphs a group of the GPU bulk search, each group written when done (0: automatic)")
	pos, err := f.parse(e, mustCommand("bulk"), args, 1, math.MaxInt)
	if err != nil {
		return err
	}
	switch {
	case f.showPlan:
		return usagef("--explain is per graph: run apsp stats --explain FILE")
	case csvOut && f.json:
		return usagef("--csv and --json exclude each other (JSON Lines is the default)")
	case group < 0:
		return usagef("--group %d: want 0 (automatic) or a number of graphs", group)
	}
	if stdins := len(slices.DeleteFunc(slices.Clone(pos), func(a string) bool { return a != "-" })); stdins > 1 {
		return usagef("stdin (-) given %d times", stdins)
	}
	opt, bar, err := f.options(e, "bulk")
	if err != nil {
		return err
	}
	defer bar.Done()
	ropt, err := f.readOptions()
	if err != nil {
		return err
	}
	b := &bulk{e: e, f: f, ropt: ropt, opt: opt, threads: par.Threads(f.threads), group: group}
	b.progress = opt.Progress
	b.opt.Progress = nil
	if csvOut {
		b.out = newCSVOut(e.stdout)
	} else {
		b.out = &jsonOut{w: bufio.NewWriter(e.stdout)}
	}
	src, err := newSource(e, pos)
	if err != nil {
		return err
	}
	if src.total > 0 && b.progress != nil {
		b.total = src.total
	}
	if err := b.run(src); err != nil {
		return err
	}
	if b.failed > 0 {
		return fmt.Errorf("%d of %d graphs failed", b.failed, b.count)
	}
	return nil
}

// bulk is one apsp bulk run.
type bulk struct {
	e        *env
	f        *flagSet
	ropt     graph.ReadOptions
	opt      apsp.Options
	threads  int
	group    int // apsp.BatchOptions.GroupSize
	out      output
	progress func(float64) // the bar, or nil
	total    float64       // the inputs' total weight (0: unknown, no bar)
	done     float64       // the weight of the items written
	count    int           // items written
	failed   int           // of them, errors
}

// item is one graph of the input: where it comes from and, once loaded,
// the graph or why there is none.
type item struct {
	id     []byte // its id as a JSON value
	path   string // a file to read, or "" for a JSON line
	line   []byte // the JSON line
	lineNo int
	weight float64 // its share of the progress: 1 per file, its bytes for stdin
	g      *graph.Graph
	base   int // 1 when its vertex ids count from 1
	err    error
}

// run reads, computes and writes the inputs chunk by chunk.
func (b *bulk) run(src *source) error {
	defer b.out.flush()
	for {
		chunk, err := src.next()
		if err != nil {
			return err
		}
		if len(chunk) == 0 {
			return nil
		}
		if err := b.chunk(chunk); err != nil {
			return err
		}
		if err := b.out.flush(); err != nil {
			return err
		}
	}
}

// chunk reads the chunk's graphs on every thread, a window of one graph a
// thread at a time, and computes and writes them in order. The graphs held
// at once are bounded by their size in memory, not by their input's: a
// short JSON line or a Matrix Market header may claim a huge graph. When
// what is held passes chunkBytes the held graphs are computed and
// released; a graph refused for memory while others were held is read
// again alone, so that it fails only if it cannot fit by itself.
func (b *bulk) chunk(items []*item) error {
	ctx := b.e.ctx
	var held []*item
	var mem uint64
	flush := func() error {
		err := b.compute(held)
		held, mem = nil, 0
		return err
	}
	for lo := 0; lo < len(items); lo += b.threads {
		win := items[lo:min(lo+b.threads, len(items))]
		if err := par.For(ctx, b.threads, len(win), func(i int) { b.load(win[i]) }); err != nil {
			return err
		}
		for i, it := range win {
			if errors.Is(it.err, graph.ErrTooLarge) && it.path+string(it.line) != "" && (len(held) > 0 || len(win) > 1) {
				if err := flush(); err != nil {
					return err
				}
				// Release the rest of the window too, and read it again after.
				var again []*item
				for _, other := range win[i+1:] {
					if other.g != nil || errors.Is(other.err, graph.ErrTooLarge) {
						other.g, other.err = nil, nil
						again = append(again, other)
					}
				}
				// What was released counts against a Go memory limit until
				// collected: collect it before reading again (rare: only
				// after a refusal).
				runtime.GC()
				it.err = nil
				b.load(it)
				for _, other := range again {
					b.load(other)
				}
			}
			held = append(held, it)
			if it.g != nil {
				mem += graph.MemoryNeeded(it.g.N(), it.g.Arcs(), it.g.Weighted())
			}
			if mem >= uint64(chunkBytes) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// compute computes the loaded items with StatsBatch and writes their
// results (or errors) in order.
func (b *bulk) compute(items []*item) error {
	if len(items) == 0 {
		return nil
	}
	ctx := b.e.ctx
	var gs []*graph.Graph
	var at []int
	var weight float64
	for i, it := range items {
		weight += it.weight
		if it.err == nil {
			gs, at = append(gs, it.g), append(at, i)
		}
	}
	opt := b.opt
	if b.total > 0 {
		before := b.done
		opt.Progress = func(f float64) { b.progress((before + f*weight) / b.total) }
	}
	// Items are written in order as soon as they and those before them
	// are final: Ready hands the graphs' results over in order (on the
	// batch's goroutines, one call at a time, while this one waits).
	results := make([]*apsp.Stats, len(items))
	graphOf := make([]int, len(items)) // the item's graph in gs, or -1
	for i := range graphOf {
		graphOf[i] = -1
	}
	for k, i := range at {
		graphOf[i] = k
	}
	next := 0 // the next item to write
	var werr error
	bctx, stop := context.WithCancel(ctx)
	defer stop()
	emit := func(graphs int) { // graphs [0, graphs) are final
		for werr == nil && next < len(items) {
			it := items[next]
			if graphOf[next] >= graphs {
				return // its graph is not final yet
			}
			if it.err != nil && ctx.Err() != nil && errors.Is(it.err, ctx.Err()) {
				werr = ctx.Err() // interrupted: stop after the results before it
				return
			}
			if werr = b.write(it, results[next]); werr != nil {
				return
			}
			it.g = nil
			b.done += it.weight
			next++
		}
	}
	ready := func(lo, hi int, stats []*apsp.Stats, errs []error) {
		for k := lo; k < hi; k++ {
			i := at[k]
			results[i] = stats[k-lo]
			if errs[k-lo] != nil {
				items[i].err = b.explain(errs[k-lo], items[i])
			}
		}
		emit(hi)
		if werr == nil {
			werr = b.out.flush()
		}
		if werr != nil {
			stop() // nothing more can be written (a closed pipe): stop computing
		}
	}
	apsp.StatsBatchWith(bctx, gs, opt, apsp.BatchOptions{GroupSize: b.group, Ready: ready})
	emit(len(gs))
	return werr
}

// write writes one item's result line.
func (b *bulk) write(it *item, s *apsp.Stats) error {
	b.count++
	if it.err != nil {
		b.failed++
		return b.out.fail(it.id, it.err.Error())
	}
	out := *s
	out.Center, out.Periphery = shift(s.Center, it.base), shift(s.Periphery, it.base)
	return b.out.stats(it.id, &out)
}

// explain restates a computation's error as stats does: after the
// input's name, with a negative cycle's vertex in the input's own
// numbering.
func (b *bulk) explain(err error, it *item) error {
	name := it.path
	if name == "" {
		name = "stdin:" + strconv.Itoa(it.lineNo)
	}
	var nc *apsp.NegativeCycleError
	if errors.As(err, &nc) {
		return &renamed{fmt.Sprintf("%s: negative cycle through vertex %d", name, nc.Vertex+it.base), err}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// load reads an item's graph: a file, or a JSON line.
func (b *bulk) load(it *item) {
	if it.err != nil {
		return
	}
	if it.path == "" {
		var id []byte
		id, it.g, it.err = parseLine(it.line, it.lineNo, b.ropt)
		if id != nil {
			it.id = id
		}
		if b.ropt.OneBased {
			it.base = 1
		}
		return
	}
	file, err := os.Open(it.path)
	if err != nil {
		it.err = fmt.Errorf("reading graph: %w", err)
		return
	}
	defer file.Close() // read-only: a close error loses nothing
	g, format, err := graph.ReadFormat(file, it.path, b.ropt)
	switch {
	case err != nil:
		it.err = err
	case g.N() == 0:
		it.err = fmt.Errorf("%s: %w (no edges and no vertex count; an edge list may say '# vertices: N')", it.path, apsp.ErrEmptyGraph)
	default:
		it.g = g
		if b.ropt.OneBased || format == graph.FormatMatrixMarket || format == graph.FormatDIMACS {
			it.base = 1
		}
	}
}

// source hands out the inputs in chunks: the files named or found in the
// directories, and stdin's lines where "-" stands.
type source struct {
	e      *env
	inputs []input
	stdin  *bufio.Reader
	lineNo int
	total  float64 // the inputs' total weight, or 0 when unknown
}

// input is a file (path), a directory that holds no file (err), or stdin.
type input struct {
	path  string
	size  int64 // the file's size, as far as known
	stdin bool
	err   error
}

// newSource expands the command line's arguments: a directory into its
// files, sorted by name.
func newSource(e *env, args []string) (*source, error) {
	s := &source{e: e}
	files, stdin := 0, false
	for _, a := range args {
		if a == "-" {
			s.inputs = append(s.inputs, input{stdin: true})
			stdin = true
			continue
		}
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			in := input{path: a} // reading it says what is wrong
			if err == nil {
				in.size = st.Size()
			}
			s.inputs = append(s.inputs, in)
			files++
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			s.inputs = append(s.inputs, input{path: a, err: err})
			files++
			continue
		}
		found := 0
		for _, d := range entries {
			p := filepath.Join(a, d.Name())
			if strings.HasPrefix(d.Name(), ".") {
				continue
			}
			st, err := os.Stat(p)
			if err != nil || !st.Mode().IsRegular() {
				continue // a subdirectory, a broken link, a FIFO or device (opening one could block)
			}
			s.inputs = append(s.inputs, input{path: p, size: st.Size()})
			found++
		}
		if found == 0 {
			s.inputs = append(s.inputs, input{path: a, err: fmt.Errorf("%s: no graph files in this directory", a)})
			found++
		}
		files += found
	}
	switch {
	case !stdin:
		s.total = float64(files)
	case files == 0:
		// Stdin alone, from a regular file: progress by bytes.
		if f, ok := e.stdin.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
				s.total = float64(st.Size())
			}
		}
	}
	return s, nil
}

// next returns the next chunk of items, empty at the end.
func (s *source) next() ([]*item, error) {
	var chunk []*item
	bytes := 0
	for len(chunk) < chunkGraphs && bytes < chunkBytes && len(s.inputs) > 0 {
		in := s.inputs[0]
		if !in.stdin {
			chunk = append(chunk, &item{id: jsonString(in.path), path: in.path, weight: 1, err: in.err})
			s.inputs = s.inputs[1:]
			bytes += int(min(in.size, int64(chunkBytes)))
			continue
		}
		if s.stdin == nil {
			s.stdin = bufio.NewReaderSize(s.e.stdin, 1<<20)
		}
		line, n, err := readLine(s.stdin)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, errLongLine) {
			return nil, fmt.Errorf("reading stdin: %w", err)
		}
		if n > 0 || err == nil {
			s.lineNo++
		}
		bytes += len(line)
		switch {
		case errors.Is(err, errLongLine):
			chunk = append(chunk, &item{id: lineID(s.lineNo), lineNo: s.lineNo, weight: float64(n),
				err: fmt.Errorf("stdin:%d: %w: over %d bytes", s.lineNo, err, maxLine)})
		case len(bytesTrim(line)) > 0:
			chunk = append(chunk, &item{id: lineID(s.lineNo), line: line, lineNo: s.lineNo, weight: float64(n)})
		}
		if errors.Is(err, io.EOF) {
			s.inputs = s.inputs[1:]
		}
	}
	return chunk, nil
}

// errLongLine is a JSON line beyond maxLine bytes.
var errLongLine = errors.New("line too long (put a graph this large in a file)")

// readLine reads one line without its newline and returns it with the
// bytes it took; io.EOF at the end of the input (with the last line, if it
// had no newline). A line beyond maxLine is skipped to its end and
// reported as errLongLine.
func readLine(r *bufio.Reader) ([]byte, int, error) {
	var line []byte
	n := 0
	long := false
	for {
		part, err := r.ReadSlice('\n')
		n += len(part)
		if !long {
			if len(line)+len(part) > maxLine {
				long, line = true, nil
			} else {
				line = append(line, part...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil && long:
			return nil, n, errLongLine
		case err == nil:
			return line[:len(line)-1], n, nil
		case long:
			return nil, n, errLongLine
		default:
			return line, n, err // io.EOF or a read error
		}
	}
}

func bytesTrim(b []byte) []byte { return bytes.TrimSpace(b) }

// lineID is the id of a line that names none.
func lineID(line int) []byte { return jsonString("stdin:" + strconv.Itoa(line)) }

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// jsonGraph is one line of stdin.
type jsonGraph struct {
	ID       json.RawMessage `json:"id"`
	N        *int64          `json:"n"`
	Edges    json.RawMessage `json:"edges"`
	Directed *bool           `json:"directed"`
}

// lineError is an error in the JSON line lineNo.
func lineError(lineNo int, format string, args ...any) error {
	return fmt.Errorf("stdin:%d: %s", lineNo, fmt.Sprintf(format, args...))
}

// parseLine builds the graph of a JSON line and returns it with the line's
// id (nil when it has none or the line does not get as far), also when the
// graph is refused. The line is read strictly (valid JSON; an object of
// the fields id, n, edges and directed only, each of its type; ids below
// n) and the graph built by graph.Builder, which refuses a vertex count or
// arcs that do not fit in memory. Errors name the line.
func parseLine(line []byte, lineNo int, opt graph.ReadOptions) ([]byte, *graph.Graph, error) {
	sc := &lineScanner{s: line}
	jg, err := sc.object()
	if err != nil {
		return jg.ID, nil, lineError(lineNo, "%v", err)
	}
	g, err := buildLine(&jg, lineNo, opt)
	return jg.ID, g, err
}

// lineScanner reads a JSON line in one pass: encoding/json validated and
// decoded each line's (large) edges array twice, which measured slower
// than the graph's computation.
type lineScanner struct {
	s []byte
	i int
}

func (p *lineScanner) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// next is the byte after blanks, 0 at the end.
func (p *lineScanner) next() byte {
	p.ws()
	if p.i == len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// syntax is a JSON syntax error at the scanner's position.
func (p *lineScanner) syntax(what string) error {
	if p.i >= len(p.s) {
		return fmt.Errorf("bad JSON: %s, found the end of the line", what)
	}
	return fmt.Errorf("bad JSON at byte %d: %s, found %q", p.i+1, what, p.s[p.i])
}

// object reads the line's object into a jsonGraph whose ID and Edges are
// the values' bytes (Edges checked for brackets and number characters
// only; addEdges reads it). The id is set as soon as it is read, for the
// error line.
func (p *lineScanner) object() (jsonGraph, error) {
	var jg jsonGraph
	switch c := p.next(); {
	case c == 0:
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
	if p.next() != 0 {
		return jg, p.syntax("the end of the line after the object")
	}
	return jg, nil
}

// field reads the value of the field name.
func (p *lineScanner) field(jg *jsonGraph, name string) error {
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
			return fmt.Errorf(`"n": %s is not a vertex count (0..%d)`, tok, graph.MaxVertices)
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
func (p *lineScanner) wrongType(name, want string) error {
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
	case c == 0:
		return p.syntax("a value")
	}
	return fmt.Errorf("%q: %s where %s was expected", name, what, want)
}

// lit consumes the literal word if it comes next.
func (p *lineScanner) lit(word string) bool {
	p.ws()
	if bytes.HasPrefix(p.s[p.i:], []byte(word)) {
		p.i += len(word)
		return true
	}
	return false
}

// str reads a JSON string and returns it with its quotes.
func (p *lineScanner) str() ([]byte, error) {
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
func (p *lineScanner) num() ([]byte, error) {
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

// buildLine builds a decoded line's graph.
func buildLine(jg *jsonGraph, lineNo int, opt graph.ReadOptions) (*graph.Graph, error) {
	directed := opt.Directed
	if jg.Directed != nil {
		if opt.DirectedSet && *jg.Directed != opt.Directed {
			return nil, lineError(lineNo, `"directed": %v contradicts --directed=%v`, *jg.Directed, opt.Directed)
		}
		directed = *jg.Directed
	}
	b := graph.NewBuilder(directed)
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
		if *jg.N < 0 || *jg.N > graph.MaxVertices {
			return nil, lineError(lineNo, `"n": %d is not a vertex count (0..%d)`, *jg.N, graph.MaxVertices)
		}
		n = int(*jg.N)
		if err := b.SetVertices(n); err != nil {
			return nil, lineError(lineNo, "%v", err)
		}
	}
	if opt.Vertices > 0 {
		if err := b.SetVertices(opt.Vertices); err != nil {
			return nil, lineError(lineNo, "%v", err)
		}
	}
	if len(jg.Edges) > 0 && string(jg.Edges) != "null" {
		if err := addEdges(b, jg.Edges, n, opt); err != nil {
			return nil, lineError(lineNo, "%v", err)
		}
	}
	g := b.Build()
	if g.N() == 0 {
		return nil, lineError(lineNo, `%v (no edges and no "n")`, apsp.ErrEmptyGraph)
	}
	return g, nil
}

// addEdges adds the edges of a JSON array of [u, v] or [u, v, w] to b;
// every edge has a weight or none does (unless opt.Unweighted, which
// ignores them). The array holds only brackets, commas, blanks and number
// characters (lineScanner checked it); its shape and numbers are checked
// here.
func addEdges(b *graph.Builder, raw []byte, n int, opt graph.ReadOptions) error {
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
		u, err := vertexID(nums[0], n, opt.OneBased)
		if err != nil {
			return fmt.Errorf("edge %d: %v", k, err)
		}
		v, err := vertexID(nums[1], n, opt.OneBased)
		if err != nil {
			return fmt.Errorf("edge %d: %v", k, err)
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
			err = addWeighted(b, u, v, nums[2])
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

// vertexID reads a vertex id: an integer from 0 (1 when oneBased), below
// n when n >= 0.
func vertexID(b []byte, n int, oneBased bool) (int, error) {
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
	if v >= graph.MaxVertices {
		return 0, fmt.Errorf("vertex id %d: %w", v, graph.ErrTooLarge)
	}
	return int(v), nil
}

// addWeighted adds an edge with the weight literal w: an integer literal
// is an exact int64, any other number a float64, with the edge lists' rules
// (no overflow, no underflow to 0, -0 is 0).
func addWeighted(b *graph.Builder, u, v int, w []byte) error {
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

// output writes result lines.
type output interface {
	stats(id []byte, s *apsp.Stats) error
	fail(id []byte, why string) error
	flush() error
}

// jsonOut writes JSON Lines: the stats --json fields after "id".
type jsonOut struct {
	w   *bufio.Writer
	buf bytes.Buffer
}

func (o *jsonOut) encode(v any) ([]byte, error) {
	o.buf.Reset()
	enc := json.NewEncoder(&o.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return o.buf.Bytes(), nil
}

func (o *jsonOut) stats(id []byte, s *apsp.Stats) error {
	b, err := o.encode(s)
	if err != nil {
		return err
	}
	o.w.WriteString(`{"id":`)
	o.w.Write(id)
	o.w.WriteByte(',')
	_, err = o.w.Write(b[1:]) // the object's fields after its '{', and the newline
	return err
}

func (o *jsonOut) fail(id []byte, why string) error {
	b, err := o.encode(struct {
		ID    json.RawMessage `json:"id"`
		Error string          `json:"error"`
	}{id, why})
	if err != nil {
		return err
	}
	_, err = o.w.Write(b)
	return err
}

func (o *jsonOut) flush() error { return o.w.Flush() }

// csvColumns are the CSV header: "id", the stats --json field names bulk
// writes (TestBulkCSVColumns keeps them in step with Stats), and "error".
var csvColumns = []string{"id", "vertices", "arcs", "edges", "directed", "weighted", "connected", "reachable_only",
	"diameter", "radius", "aspl", "reachable_pairs", "center", "periphery", "algorithm", "device", "lanes", "threads",
	"seconds", "error"}

// csvOut writes CSV under a header line.
type csvOut struct {
	w      *csv.Writer
	header bool
}

func newCSVOut(w io.Writer) *csvOut { return &csvOut{w: csv.NewWriter(w)} }

// idText is an id as a CSV field: a JSON string unquoted, a number as is.
func idText(id []byte) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

func (o *csvOut) row(r []string) error {
	if !o.header {
		o.header = true
		if err := o.w.Write(csvColumns); err != nil {
			return err
		}
	}
	return o.w.Write(r)
}

func (o *csvOut) stats(id []byte, s *apsp.Stats) error {
	list := func(vs []int) string {
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = strconv.Itoa(v)
		}
		return strings.Join(parts, " ")
	}
	return o.row([]string{idText(id), strconv.Itoa(s.Vertices), strconv.Itoa(s.Arcs), strconv.Itoa(s.Edges),
		strconv.FormatBool(s.Directed), strconv.FormatBool(s.Weighted), strconv.FormatBool(s.Connected),
		strconv.FormatBool(s.Reachable), s.Diameter.String(), s.Radius.String(), s.ASPL.String(),
		strconv.FormatInt(s.ReachablePairs, 10), list(s.Center), list(s.Periphery), s.Algorithm, s.Device, s.Lanes,
		strconv.Itoa(s.Threads), strconv.FormatFloat(s.Seconds, 'g', -1, 64), ""})
}

func (o *csvOut) fail(id []byte, why string) error {
	r := make([]string, len(csvColumns))
	r[0], r[len(r)-1] = idText(id), why
	return o.row(r)
}

func (o *csvOut) flush() error {
	if !o.header { // no graph at all: the header still says what would come
		o.header = true
		if err := o.w.Write(csvColumns); err != nil {
			return err
		}
	}
	o.w.Flush()
	return o.w.Error()
}
