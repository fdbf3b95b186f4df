package cli

import (
	"bytes"
	"context"
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/encode"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/internal/par"
	"github.com/apsp/apsp/internal/sysmem"
)

// apsp bulk: many graphs, one result line each, in input order.
//
// The inputs are read and computed in chunks of at most chunkGraphs graphs
// and chunkBytes of input (files' sizes, JSON lines; less when memory is
// short, see readAhead): each chunk's graphs are read on every thread,
// then computed by apsp.StatsBatch, then written, so that memory stays
// bounded by a chunk however many graphs come and results appear as
// chunks finish. A graph refused for memory, when read or computed, is
// read and computed again alone, so that a graph stats can compute does
// not fail for what its neighbours hold.
var (
	chunkGraphs = 1024 // a GPU bulk search wants hundreds of graphs
	chunkBytes  = 64 << 20
	// maxLine is the longest JSON line read; a longer one is refused (its
	// graph belongs in a file).
	maxLine = graph.DefaultMaxJSONLine
)

const bulkLong = `Computes the stats of many graphs and writes one result a line, in input
order. The inputs are graph files (any format stats reads; the id is the
path; a graph6, sparse6 or digraph6 file gives a result for each of its
lines, in order, with the id FILE:LINE), directories (their files, sorted by name; hidden files and
subdirectories are skipped, and any other entry that cannot be read as a
graph file, such as a broken link or a named pipe, gives an error line), or
- for JSON Lines on stdin, one graph a line:
  {"id": "g1", "n": 4, "edges": [[0,1],[1,2,5],[2,3]], "directed": false}
where id (a string or number; default "stdin:LINE") is echoed, n (optional;
else the largest vertex id + 1) is the vertex count, edges are [u, v] or
[u, v, w] (every edge with a weight or none, as in edge lists; integer or
decimal weights) and directed (optional) defaults to --directed (a line
that contradicts a --directed given explicitly is an error). Vertex ids
count from 0 unless --one-based. Stdin whose first line is not a JSON
object (an edge list, say) is refused at once: name graph files as
arguments.

Output: JSON Lines with "id" and the fields of stats --json (vertices,
diameter, radius, aspl, connected, reachable_pairs, center, periphery,
algorithm, seconds, ...), or CSV with a header line (--csv; inf and nan as
text, center and periphery space-separated). A graph that cannot be read or
computed gives {"id": ..., "error": "why"} (a CSV row with only id and
error) in its place and the others still complete; the exit status is then
1. Small graphs run one per thread, large ones one at a time on every
thread (see apsp.StatsBatch); --threads caps the threads. On a GPU
(--device gpu) unweighted graphs of up to 16384 vertices are searched in
groups of --group graphs streamed through the GPU, and each group's lines
are written as soon as it is done: a small group answers sooner, a large
one gives more graphs a second (0 chooses; at most a chunk of 1024 graphs
is read at a time). Lines are written as soon as they and every line
before them are done. Flags: those of stats but --no-aspl and --explain,
--csv (JSON Lines is the default) and --group.`

// runBulk is apsp bulk.
func runBulk(e *env, args []string) error {
	f, _ := newFlags("bulk")
	pos, err := f.parse(e, mustCommand("bulk"), args, 1, math.MaxInt)
	if err != nil {
		if strings.Contains(err.Error(), "flag provided but not defined: -explain") {
			return usagef("--explain is per graph: run apsp stats --explain FILE")
		}
		return err
	}
	switch {
	case f.csv && f.json:
		return usagef("--csv and --json exclude each other (JSON Lines is the default)")
	case f.group < 0:
		return usagef("--group %d: want 0 (automatic) or a number of graphs", f.group)
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
	ropt.Warn = warner(e)
	b := &bulk{e: e, f: f, ropt: ropt, opt: opt, threads: par.Threads(f.threads), group: f.group}
	b.progress = opt.Progress
	b.opt.Progress = nil
	if f.csv {
		b.out = encode.NewStatsCSV(e.stdout)
	} else {
		b.out = encode.NewStatsJSONL(e.stdout)
	}
	src, err := newSource(e, pos, ropt)
	if err != nil {
		return err
	}
	defer src.close()
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

// readAhead is how many bytes of input, and of graphs read, bulk holds
// ahead of the computation: chunkBytes, or a quarter of the memory free
// when that is less, so that what is held leaves the computation the most.
func readAhead() int {
	if avail, ok := sysmem.Available(); ok && avail/4 < uint64(chunkBytes) {
		return max(int(avail/4), 1)
	}
	return chunkBytes
}

// bulk is one apsp bulk run.
type bulk struct {
	e        *env
	f        *flagSet
	ropt     graph.ReadOptions
	opt      apsp.Options
	threads  int
	group    int // apsp.BatchOptions.GroupSize
	out      encode.StatsWriter
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
	line   []byte // the JSON line, or the graph6, sparse6 or digraph6 line (six)
	lineNo int
	six    bool    // line is a graph of the file path, at line lineNo
	weight float64 // its share of the progress: 1 per file, its bytes for stdin
	g      *graph.Graph
	base   int      // 1 when its vertex ids count from 1
	names  []string // its graph's vertex names, or nil
	err    error
}

// run reads, computes and writes the inputs chunk by chunk.
func (b *bulk) run(src *source) error {
	defer b.out.Flush()
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
		if err := b.out.Flush(); err != nil {
			return err
		}
	}
}

// chunk reads the chunk's graphs on every thread, a window of one graph a
// thread at a time, and computes and writes them in order. The graphs held
// at once are bounded by their size in memory, not by their input's: a
// short JSON line or a Matrix Market header may claim a huge graph. When
// what is held passes readAhead the held graphs are computed and
// released; a graph refused for memory is read again once the others
// held are computed and released and what they left collected, so that it
// fails only if it cannot fit by itself (and compute reads one refused
// for its computation again the same way).
func (b *bulk) chunk(items []*item) error {
	ctx := b.e.ctx
	var held []*item
	var mem uint64
	budget := uint64(readAhead())
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
			if errors.Is(it.err, graph.ErrTooLarge) && it.path+string(it.line) != "" {
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
			if mem >= budget {
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
	// A graph the batch refused for memory is computed again alone,
	// after the batch: the memory it lacked may have been what the other
	// graphs held, or left for the collector.
	retry := make([]bool, len(items))
	next := 0 // the next item to write
	var werr error
	bctx, stop := context.WithCancel(ctx)
	defer stop()
	emit := func(graphs int) { // graphs [0, graphs) are final
		for werr == nil && next < len(items) {
			it := items[next]
			if graphOf[next] >= graphs || retry[next] {
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
			switch err := errs[k-lo]; {
			case err == nil:
			case errors.Is(err, graph.ErrTooLarge) && bctx.Err() == nil:
				retry[i] = true
			default:
				items[i].err = b.explain(err, items[i])
			}
		}
		emit(hi)
		if werr == nil {
			werr = b.out.Flush()
		}
		if werr != nil {
			stop() // nothing more can be written (a closed pipe): stop computing
		}
	}
	apsp.StatsBatchWith(bctx, gs, opt, apsp.BatchOptions{GroupSize: b.group, Ready: ready})
	emit(len(gs))
	released := false
	for _, i := range at {
		if !retry[i] || werr != nil {
			continue
		}
		if !released {
			// Release every graph, those to compute again too (read
			// again, one at a time): the results are kept.
			for k, j := range at {
				items[j].g, gs[k] = nil, nil
			}
			released = true
		}
		b.alone(items[i], &results[i])
		retry[i] = false
		emit(len(gs))
		if werr == nil {
			werr = b.out.Flush()
		}
	}
	return werr
}

// alone reads and computes an item again, alone: what was released counts
// against a Go memory limit until collected, so collect it first, and
// again after the reading.
func (b *bulk) alone(it *item, result **apsp.Stats) {
	ctx := b.e.ctx
	if err := ctx.Err(); err != nil {
		it.err = b.explain(err, it)
		return
	}
	runtime.GC()
	b.load(it)
	if it.err != nil {
		return
	}
	runtime.GC()
	stats, errs := apsp.StatsBatchWith(ctx, []*graph.Graph{it.g}, b.opt, apsp.BatchOptions{GroupSize: b.group})
	it.g = nil
	*result = stats[0]
	if errs[0] != nil {
		it.err = b.explain(errs[0], it)
	}
}

// write writes one item's result line.
func (b *bulk) write(it *item, s *apsp.Stats) error {
	b.count++
	if it.err != nil {
		b.failed++
		return b.out.Fail(it.id, it.err.Error())
	}
	out := *s
	if s.Names == nil {
		out.Center, out.Periphery = shift(s.Center, it.base), shift(s.Periphery, it.base)
	}
	return b.out.Stats(it.id, &out)
}

// explain restates a computation's error as stats does: after the
// input's name, with a negative cycle's vertex in the input's own
// numbering.
func (b *bulk) explain(err error, it *item) error {
	name := it.path
	switch {
	case it.six:
		name += ":" + strconv.Itoa(it.lineNo)
	case name == "":
		name = "stdin:" + strconv.Itoa(it.lineNo)
	}
	var nc *apsp.NegativeCycleError
	if errors.As(err, &nc) {
		return &renamed{fmt.Sprintf("%s: negative cycle through vertex %s", name, encode.Vertices{Names: it.names, Base: it.base}.Text(nc.Vertex)), err}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// load reads an item's graph: a file, or a JSON line.
func (b *bulk) load(it *item) {
	if it.err != nil {
		return
	}
	if it.path == "" {
		id, g, err := graph.ReadJSONLine(it.line, "stdin", it.lineNo, b.ropt)
		if id != nil {
			it.id = id
		}
		switch {
		case err != nil:
			it.err = err
		case g.N() == 0:
			it.err = fmt.Errorf(`stdin:%d: %w (no edges and no "n")`, it.lineNo, apsp.ErrEmptyGraph)
		default:
			it.g = g
		}
		if b.ropt.OneBased {
			it.base = 1
		}
		return
	}
	if it.six {
		g, err := graph.ReadSixLine(it.line, it.path, it.lineNo, b.ropt)
		switch {
		case err != nil:
			it.err = err
		case g.N() == 0:
			it.err = fmt.Errorf("%s:%d: %w (the line says 0 vertices)", it.path, it.lineNo, apsp.ErrEmptyGraph)
		default:
			it.g = g
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
		it.g, it.names = g, g.Names()
		if b.ropt.OneBased || format.CountsFromOne() {
			it.base = 1
		}
	}
}

// source hands out the inputs in chunks: the files named or found in the
// directories, and stdin's lines where "-" stands.
type source struct {
	e      *env
	ropt   graph.ReadOptions
	inputs []input
	six    *sixFile // the graph6, sparse6 or digraph6 file being read, or nil
	stdin  *graph.JSONLineReader
	first  *stdinLine // stdin's first line, read ahead to tell JSON Lines
	total  float64    // the inputs' total weight, or 0 when unknown
	// lines are stdin's lines after the first, read by their own
	// goroutine (readStdin) so that a chunk can end where the input
	// pauses: a caller that writes one line and waits for its answer gets
	// it at once. stop ends that goroutine early. queued counts the bytes
	// read but not yet taken, which the reader keeps under the chunks'
	// read-ahead budget (room wakes it when lines are taken).
	lines    chan stdinLine
	stop     chan struct{}
	stopOnce sync.Once
	queued   atomic.Int64
	room     chan struct{}
}

// stdinPause is how long a chunk waits for stdin's next line before it is
// computed without it: long next to reading a line from a pipe that is
// being filled, short next to an answer a caller waits for.
const stdinPause = 2 * time.Millisecond

// readStdin sends stdin's lines to s.lines until its end, a read error or
// s.stop.
func (s *source) readStdin() {
	defer close(s.lines)
	limit := int64(readAhead())
	for {
		var l stdinLine
		l.line, l.lineNo, l.n, l.err = s.stdin.Next()
		s.queued.Add(int64(l.n))
		select {
		case s.lines <- l:
		case <-s.stop:
			return
		}
		if l.err != nil && !errors.Is(l.err, graph.ErrLineTooLong) {
			return // the end (io.EOF) or a read error, which next reports
		}
		for s.queued.Load() > limit {
			select {
			case <-s.room:
			case <-s.stop:
				return
			}
		}
	}
}

// close stops reading stdin (once a read in progress returns) and closes
// a graph6 file being read.
func (s *source) close() {
	s.closeSix()
	if s.stop != nil {
		s.stopOnce.Do(func() { close(s.stop) })
	}
}

// took records that line l was taken from s.lines, which frees its bytes
// of the read-ahead budget.
func (s *source) took(l stdinLine) {
	s.queued.Add(-int64(l.n))
	select {
	case s.room <- struct{}{}:
	default:
	}
}

// stdinNext is stdin's next line; wait says whether to wait for it, else
// ok is false when none has been read by the time a short pause ends.
func (s *source) stdinNext(wait bool) (l stdinLine, ok bool) {
	if s.first != nil {
		l, s.first = *s.first, nil
		return l, true
	}
	if wait {
		l, ok = <-s.lines
	} else {
		select {
		case l, ok = <-s.lines:
		default:
			t := time.NewTimer(stdinPause)
			defer t.Stop()
			select {
			case l, ok = <-s.lines:
			case <-t.C:
				return l, false
			}
		}
	}
	if !ok {
		l.err = io.EOF
		return l, true
	}
	s.took(l)
	return l, true
}

// stdinLine is what JSONLineReader.Next returned.
type stdinLine struct {
	line      []byte
	lineNo, n int
	err       error
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
func newSource(e *env, args []string, ropt graph.ReadOptions) (*source, error) {
	s := &source{e: e, ropt: ropt}
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
			if strings.HasPrefix(d.Name(), ".") {
				continue // hidden
			}
			p := filepath.Join(a, d.Name())
			in := input{path: p}
			st, err := os.Stat(p) // through links
			switch {
			case err != nil:
				// A broken link or a loop: reading it says what is wrong,
				// as for a file named as an argument.
			case st.IsDir():
				continue // a subdirectory
			case !st.Mode().IsRegular():
				// A named pipe or a device: opening one could block.
				in.err = fmt.Errorf("%s: %s, not a graph file (name it as an argument to read it)", p, fileKind(st.Mode()))
			default:
				in.size = st.Size()
			}
			s.inputs = append(s.inputs, in)
			found++
		}
		if found == 0 {
			s.inputs = append(s.inputs, input{path: a, err: fmt.Errorf("%s: no graph files in this directory", a)})
			found++
		}
		files += found
	}
	if stdin {
		// Stdin must be JSON Lines: an edge list piped in would be an
		// error line per line. Tell it by the first line, before any
		// graph is computed.
		s.stdin = graph.NewJSONLineReader(e.stdin, "stdin")
		s.stdin.MaxLine = maxLine
		first := &stdinLine{}
		first.line, first.lineNo, first.n, first.err = s.stdin.Next()
		if errors.Is(first.err, graph.ErrNotJSONLines) {
			return nil, notJSONLines(first)
		}
		s.first = first
		s.lines, s.stop, s.room = make(chan stdinLine, 256), make(chan struct{}), make(chan struct{}, 1)
		go s.readStdin()
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

// notJSONLines is the error for stdin whose first line is not a JSON
// object.
func notJSONLines(first *stdinLine) error {
	start := "does not start with '{'"
	if first.line != nil {
		head := bytes.TrimLeft(first.line, " \t\r")
		start = fmt.Sprintf("starts with %q, not '{'", head[:min(len(head), 16)])
	}
	return &renamed{fmt.Sprintf("stdin is not JSON Lines (line %d %s): bulk - reads one graph a line, "+
		`such as {"edges": [[0,1],[1,2]]}; to compute a graph file (an edge list, .mtx, .gr), pass it as a file argument (apsp bulk FILE)`,
		first.lineNo, start), first.err}
}

// fileKind names the type of a file that is neither regular nor a
// directory.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// next returns the next chunk of items, empty at the end.
func (s *source) next() ([]*item, error) {
	var chunk []*item
	bytes, budget := 0, readAhead()
	for len(chunk) < chunkGraphs && bytes < budget && len(s.inputs) > 0 {
		in := s.inputs[0]
		if !in.stdin && in.err == nil && (s.six != nil || s.openSix(in)) {
			if it := s.sixNext(); it != nil {
				chunk = append(chunk, it)
				bytes += len(it.line) + 1
			}
			continue
		}
		if !in.stdin {
			chunk = append(chunk, &item{id: jsonString(in.path), path: in.path, weight: 1, err: in.err})
			s.inputs = s.inputs[1:]
			bytes += int(min(in.size, int64(budget)))
			continue
		}
		l, ok := s.stdinNext(len(chunk) == 0)
		if !ok {
			break // stdin paused: compute what came, answer, then read on
		}
		line, lineNo, n, err := l.line, l.lineNo, l.n, l.err
		bytes += n
		switch {
		case errors.Is(err, io.EOF):
			s.inputs = s.inputs[1:]
		case errors.Is(err, graph.ErrLineTooLong):
			chunk = append(chunk, &item{id: lineID(lineNo), lineNo: lineNo, weight: float64(n), err: err})
		case err != nil:
			return nil, err
		default:
			chunk = append(chunk, &item{id: lineID(lineNo), line: line, lineNo: lineNo, weight: float64(n)})
		}
	}
	return chunk, nil
}

// closeSix closes the graph6, sparse6 or digraph6 file being read, if any.
func (s *source) closeSix() {
	if s.six != nil {
		s.six.file.Close() // read-only: a close error loses nothing
		s.six = nil
	}
}

// sixFile is a graph6, sparse6 or digraph6 file that bulk reads a line at
// a time, each line a graph and an item.
type sixFile struct {
	path   string
	file   *os.File
	r      *graph.SixReader
	size   int64 // the file's size, or 0 when unknown
	graphs int   // lines handed out
}

// openSix opens in as a graph6, sparse6 or digraph6 file when it is one
// (--format, its name, or its first line), and reports whether it did.
// Any other file, or one that cannot be opened or read, is left to load,
// which reads it whole (and says what is wrong).
func (s *source) openSix(in input) bool {
	byName := graph.FormatFromName(in.path)
	switch {
	case s.ropt.Format.OneGraphALine():
	case s.ropt.Format == graph.FormatAuto && (byName.OneGraphALine() || byName == graph.FormatEdgeList):
		// Named so, or named nothing: sniff it.
	default:
		return false
	}
	file, err := os.Open(in.path)
	if err != nil {
		return false
	}
	r, err := graph.NewSixReader(file, in.path, s.ropt)
	if err != nil {
		file.Close() // read-only: a close error loses nothing
		return false
	}
	s.six = &sixFile{path: in.path, file: file, r: r, size: in.size}
	return true
}

// sixNext returns the item of the open sixFile's next line, or, at its
// end, an item for an error or a file of no graph, or nil; there and at
// an error it closes the file and moves to the next input.
func (s *source) sixNext() *item {
	f := s.six
	line, no, err := f.r.NextLine()
	if err == nil {
		f.graphs++
		w := 0.0
		if f.size > 0 {
			w = float64(len(line)+1) / float64(f.size)
		}
		return &item{id: jsonString(f.path + ":" + strconv.Itoa(no)), path: f.path, six: true,
			line: slices.Clone(line), lineNo: no, weight: w}
	}
	s.closeSix()
	s.inputs = s.inputs[1:]
	switch {
	case !errors.Is(err, io.EOF):
		return &item{id: jsonString(f.path), path: f.path, err: err}
	case f.graphs == 0:
		return &item{id: jsonString(f.path), path: f.path, weight: 1,
			err: fmt.Errorf("%s: %w (no graph: a graph6, sparse6 or digraph6 file holds one a line)", f.path, apsp.ErrEmptyGraph)}
	}
	return nil
}

// lineID is the id of a line that names none.
func lineID(line int) []byte { return jsonString("stdin:" + strconv.Itoa(line)) }

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
