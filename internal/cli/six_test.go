package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// TestBulkSix: apsp bulk reads a graph6, sparse6 or digraph6 file a graph
// a line, in order, across chunks, each with the id FILE:LINE and what
// stats says of that line alone; a bad line is an error line in its place.
// The same file gzipped, and one named nothing (sniffed), read alike; stats
// refuses a file of several graphs, pointing to bulk.
func TestBulkSix(t *testing.T) {
	defer func(c int) { chunkGraphs = c }(chunkGraphs)
	chunkGraphs = 3
	dir := t.TempDir()
	var lines []string
	for i := range 7 {
		g, err := gen.Generate(gen.Spec{Kind: "regular", Params: map[string]string{"n": fmt.Sprint(10 + 10*i), "d": "3", "seed": fmt.Sprint(i)}})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		write := []func(*bytes.Buffer, *graph.Graph) error{
			func(b *bytes.Buffer, g *graph.Graph) error { return graph.WriteGraph6(b, g) },
			func(b *bytes.Buffer, g *graph.Graph) error { return graph.WriteSparse6(b, g) },
			func(b *bytes.Buffer, g *graph.Graph) error { return graph.WriteDigraph6(b, g) },
		}[i%3]
		if err := write(&buf, g); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.TrimSuffix(buf.String(), "\n"))
	}
	lines = append(lines[:3], append([]string{"B x"}, lines[3:]...)...)
	content := ">>graph6<<" + strings.Join(lines, "\n") + "\n"
	plain := filepath.Join(dir, "many.g6")
	if err := os.WriteFile(plain, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(content))
	zw.Close()
	zipped := filepath.Join(dir, "many.g6.gz")
	if err := os.WriteFile(zipped, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// Sniffed: the first line is sparse6.
	sniffed := filepath.Join(dir, "many.txt")
	if err := os.WriteFile(sniffed, []byte(strings.Join(lines[1:], "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	// What stats says of each line alone.
	want := make([]map[string]any, len(lines))
	for i, l := range lines {
		if l == "B x" {
			continue
		}
		one := filepath.Join(dir, fmt.Sprintf("one%d.g6", i))
		if err := os.WriteFile(one, []byte(l+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[i] = statsObject(t, "", one)
	}
	code, out, errs := run(t, "", "bulk", plain, zipped, sniffed)
	if code != exitFail || !strings.Contains(errs, "3 of 23 graphs failed") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	objs := jsonLines(t, out)
	k := 0
	for _, f := range []struct {
		path string
		skip int
	}{{plain, 0}, {zipped, 0}, {sniffed, 1}} {
		for i := f.skip; i < len(lines); i++ {
			id := fmt.Sprintf("%s:%d", f.path, i+1-f.skip)
			if lines[i] == "B x" {
				if objs[k]["id"] != id || !strings.Contains(fmt.Sprint(objs[k]["error"]), id+": byte 2 of the graph6 line") {
					t.Fatalf("bad line: %v", objs[k])
				}
			} else {
				sameAsStats(t, objs[k], id, want[i])
			}
			k++
		}
	}
	if k != len(objs) {
		t.Fatalf("%d lines, want %d:\n%s", len(objs), k, out)
	}
	code, _, errs = run(t, "", "stats", plain)
	if code == 0 || !strings.Contains(errs, "many.g6:2: the file holds 8 graphs, one a line, but this reads one: use apsp bulk") {
		t.Fatalf("stats of many: exit %d, %q", code, errs)
	}
}

// TestGenSix: apsp gen writes graph6, sparse6 and digraph6 by extension,
// and refuses weights.
func TestGenSix(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".g6", ".s6", ".d6", ".s6.gz"} {
		p := filepath.Join(dir, "r"+ext)
		if code, _, errs := run(t, "", "gen", "regular", "n=64", "d=4", "seed=1", "-o", p); code != 0 {
			t.Fatalf("%s: exit %d: %s", ext, code, errs)
		}
		g, err := graph.ReadFile(p, graph.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.N() != 64 || g.Arcs() != 256 || g.Directed() != (ext == ".d6") {
			t.Fatalf("%s: n=%d arcs=%d directed=%v", ext, g.N(), g.Arcs(), g.Directed())
		}
	}
	code, _, errs := run(t, "", "gen", "grid", "a=3", "b=3", "weights=1..9", "-o", filepath.Join(dir, "w.g6"))
	if code == 0 || !strings.Contains(errs, "would be lost") {
		t.Fatalf("weighted: exit %d, %q", code, errs)
	}
}
