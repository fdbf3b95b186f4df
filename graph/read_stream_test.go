package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// streamOnly hides what its reader is (a *os.File, a bytes.Reader), so
// that Read takes it for a stream of unknown size, as a pipe is.
type streamOnly struct{ r io.Reader }

func (s streamOnly) Read(p []byte) (int, error) { return s.r.Read(p) }

// shortReads returns 1 to 7 bytes a call, cycling, to cut lines and gzip
// blocks at every place.
type shortReads struct {
	r io.Reader
	i int
}

func (s *shortReads) Read(p []byte) (int, error) {
	s.i++
	return s.r.Read(p[:min(len(p), 1+s.i%7)])
}

// manyEdges returns k lines "i i+1 w", far beyond the read buffers (the
// lineReader's and the read-ahead's), so that what follows them lies in a
// later chunk.
func manyEdges(k int, weighted bool) string {
	var sb strings.Builder
	for i := range k {
		if weighted {
			fmt.Fprintf(&sb, "%d %d %d\n", i, i+1, i%9+1)
		} else {
			fmt.Fprintf(&sb, "%d %d\n", i, i+1)
		}
	}
	return sb.String()
}

// TestReadStreams checks that a stream (a reader that is not a file, one
// that returns a few bytes a call, a pipe) and gzip, compressed or both,
// read as the file does: the same graph, or the same error at the same
// line, late lines included.
func TestReadStreams(t *testing.T) {
	const k = 200_000 // over 2 MiB: beyond readBufSize and aheadBufSize
	big := manyEdges(k, true)
	bigU := manyEdges(k, false)
	var mtx, gr strings.Builder
	for i := range k {
		fmt.Fprintf(&mtx, "%d %d %d\n", i+1, i+2, i%9+1)
		fmt.Fprintf(&gr, "a %d %d %d\n", i+1, i+2, i%9+1)
	}
	// The headers of m entries or arcs, and the k lines.
	mtxHead := func(m int) string {
		return fmt.Sprintf("%%%%MatrixMarket matrix coordinate integer general\n%d %d %d\n", k+1, k+1, m)
	}
	grHead := func(m int) string { return fmt.Sprintf("c big\np sp %d %d\n", k+1, m) }
	mtxBig, grBig := mtxHead(k)+mtx.String(), grHead(k)+gr.String()
	for _, tc := range []struct {
		name, in string
		opt      ReadOptions
	}{
		{"empty", "", ReadOptions{}},
		{"small", "0 1 2\n1 2 3\n", ReadOptions{}},
		{"no final newline", "0 1\n1 2", ReadOptions{}},
		{"crlf and bom", utf8BOM + "0 1\r\n1 2\r\n", ReadOptions{}},
		{"header", "# vertices: 5\n# directed: true\n0 1\n", ReadOptions{}},
		{"mtx sniffed", "\n%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", ReadOptions{}},
		{"dimacs sniffed", "c x\np sp 2 1\na 2 1 3\n", ReadOptions{}},
		{"error early", "0 1\n0 x\n", ReadOptions{}},
		{"big", big, ReadOptions{}},
		{"big unweighted", bigU, ReadOptions{Directed: true}},
		{"big mtx", mtxBig, ReadOptions{}},
		{"big dimacs", grBig, ReadOptions{}},
		{"late bad id", big + "7 y 1\n", ReadOptions{}},
		{"late weight missing", big + "1 2\n", ReadOptions{}},
		{"late foreign line", bigU + "p sp 3 3\n", ReadOptions{}},
		{"late long line", bigU + strings.Repeat("1", maxLineLen+2*readBufSize) + "\n0 1\n", ReadOptions{}},
		{"late id beyond header", "# vertices: 200001\n" + bigU + "200001 0\n", ReadOptions{}},
		{"late mtx out of range", mtxHead(k+1) + mtx.String() + fmt.Sprintf("%d 1 1\n", k+2), ReadOptions{}},
		{"late dimacs extra arc", grBig + "a 1 2 3\n", ReadOptions{}},
		{"late dimacs bad weight", grHead(k+1) + gr.String() + "a 1 2 x\n", ReadOptions{}},
		{"late dimacs comment", bigU + "c 1\n\nc\n", ReadOptions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && len(tc.in) > 1<<20 {
				t.Skip("a large input")
			}
			file := filepath.Join(t.TempDir(), "in")
			if err := os.WriteFile(file, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			want := readResult(t, file, func(f *os.File) io.Reader { return f }, tc.opt)
			gz := filepath.Join(t.TempDir(), "in")
			if err := os.WriteFile(gz, gzipBytes(t, tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, r := range []struct {
				name, file string
				wrap       func(*os.File) io.Reader
			}{
				{"stream", file, func(f *os.File) io.Reader { return streamOnly{f} }},
				{"short reads", file, func(f *os.File) io.Reader { return &shortReads{r: f} }},
				{"pipe", file, pipeFrom(t)},
				{"gzip file", gz, func(f *os.File) io.Reader { return f }},
				{"gzip stream", gz, func(f *os.File) io.Reader { return streamOnly{f} }},
				{"gzip short reads", gz, func(f *os.File) io.Reader { return &shortReads{r: f} }},
			} {
				if got := readResult(t, r.file, r.wrap, tc.opt); got != want {
					t.Errorf("%s:\n got %.300s\nwant %.300s", r.name, got, want)
				}
			}
		})
	}
}

// readResult reads path through wrap, named "in", and returns the graph
// (vertices and arcs) or the error with its line.
func readResult(t *testing.T, path string, wrap func(*os.File) io.Reader, opt ReadOptions) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, format, err := ReadFormat(wrap(f), "in", opt)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return fmt.Sprintf("%v: line %d: %v", format, pe.Line, err)
		}
		return fmt.Sprintf("%v: %v", format, err)
	}
	return fmt.Sprintf("%v: n=%d directed=%v %s", format, g.N(), g.Directed(), dump(g))
}

// pipeFrom returns a wrap that copies a file into an os.Pipe, as
// `cat FILE | apsp info -` does, and reads from the pipe.
func pipeFrom(t *testing.T) func(*os.File) io.Reader {
	return func(f *os.File) io.Reader {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			io.Copy(pw, f) // fails once the reader stops early and closes the pipe
			pw.Close()
		}()
		t.Cleanup(func() {
			pr.Close()
			<-done
		})
		return pr
	}
}

// TestReadAheadPause checks that a stream whose writer pauses after a
// bad line, the pipe still open, is not waited on for a full buffer: the
// error comes at once. (Sniffing, which peeks at the first 4 KiB, would
// wait: the format is named.)
func TestReadAheadPause(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close() // the writer ends only once the read has
	if _, err := pw.Write([]byte("0 1\n0 x\n")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Read(pr, "p", ReadOptions{Format: FormatEdgeList})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), `p:2: bad vertex id "x"`) {
			t.Fatalf("got %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the read waited for more input")
	}
}

// benchEdgeList writes the edge list of BenchmarkReadEdgeList to a file,
// and its gzip copy, and returns their paths.
func benchEdgeList(b *testing.B) (plain, gz string) {
	data := genEdgeList(100_000, 1_000_000)
	dir := b.TempDir()
	plain, gz = filepath.Join(dir, "g.txt"), filepath.Join(dir, "g.txt.gz")
	if err := os.WriteFile(plain, data, 0o644); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return plain, gz
}

// benchRead reads path through wrap until the benchmark is done.
func benchRead(b *testing.B, path string, wrap func(*os.File) io.Reader) {
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		g, err := Read(wrap(f), "bench", ReadOptions{})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		if g.N() != 100_000 {
			b.Fatalf("N=%d", g.N())
		}
	}
}

// The three benchmarks read the same graph from a file, from a stream of
// unknown size (as a pipe is) and from a gzip file: compare their times.
func BenchmarkReadEdgeListFile(b *testing.B) {
	plain, _ := benchEdgeList(b)
	benchRead(b, plain, func(f *os.File) io.Reader { return f })
}

func BenchmarkReadEdgeListStream(b *testing.B) {
	plain, _ := benchEdgeList(b)
	benchRead(b, plain, func(f *os.File) io.Reader { return streamOnly{f} })
}

func BenchmarkReadEdgeListGzip(b *testing.B) {
	_, gz := benchEdgeList(b)
	benchRead(b, gz, func(f *os.File) io.Reader { return f })
}
