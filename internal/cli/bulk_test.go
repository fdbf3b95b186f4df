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
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// jsonLines decodes JSON Lines output into objects.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		objs = append(objs, m)
	}
	return objs
}

// statsObject is `apsp stats --json args...` decoded, without the fields a
// run may change (seconds, threads).
func statsObject(t *testing.T, stdin string, args ...string) map[string]any {
	t.Helper()
	code, out, errs := run(t, stdin, append([]string{"stats", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("stats %v: exit %d: %s", args, code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "seconds")
	delete(m, "threads")
	return m
}

// sameAsStats checks that a bulk result holds what stats --json prints
// for its graph, plus the id.
func sameAsStats(t *testing.T, got map[string]any, id any, want map[string]any) {
	t.Helper()
	if got["id"] != id {
		t.Fatalf("id %v, want %v", got["id"], id)
	}
	for _, k := range []string{"id", "seconds", "threads"} {
		if _, ok := got[k]; !ok {
			t.Fatalf("no %q in %v", k, got)
		}
	}
	c := map[string]any{}
	for k, v := range got {
		c[k] = v
	}
	delete(c, "id")
	delete(c, "seconds")
	delete(c, "threads")
	a, _ := json.Marshal(c)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Fatalf("%v:\n bulk  %s\n stats %s", id, a, b)
	}
}

// TestBulkFiles: files in input order, each line what stats --json says
// (plus the id), a malformed file and a negative cycle as error lines in
// their places, exit status 1.
func TestBulkFiles(t *testing.T) {
	files := []string{"../../testdata/karate.txt", "../../testdata/bad.txt", "../../testdata/small.mtx",
		"../../testdata/negcycle.gr", "../../testdata/disconnected.txt", "../../testdata/small.gr"}
	for _, flags := range [][]string{nil, {"--reachable"}, {"--algo", "blocked", "--threads", "1"}} {
		code, out, errs := run(t, "", append(append([]string{"bulk"}, flags...), files...)...)
		if code != exitFail || !strings.Contains(errs, "2 of 6 graphs failed") {
			t.Fatalf("%v: exit %d, stderr %q", flags, code, errs)
		}
		objs := jsonLines(t, out)
		if len(objs) != len(files) {
			t.Fatalf("%v: %d lines for %d files:\n%s", flags, len(objs), len(files), out)
		}
		for i, f := range files {
			switch filepath.Base(f) {
			case "bad.txt":
				if objs[i]["id"] != f || !strings.Contains(fmt.Sprint(objs[i]["error"]), "bad.txt:3:") || len(objs[i]) != 2 {
					t.Fatalf("malformed file: %v", objs[i])
				}
			case "negcycle.gr":
				if e := fmt.Sprint(objs[i]["error"]); e != f+": negative cycle through vertex 4" {
					t.Fatalf("negative cycle: %v", objs[i])
				}
			default:
				sameAsStats(t, objs[i], f, statsObject(t, "", append(slices.Clone(flags), f)...))
			}
		}
	}
}

// TestBulkDirectory: a directory's files sorted by name (hidden files and
// subdirectories skipped), many random graphs across several chunks, each
// as stats computes it; an empty directory is an error line.
func TestBulkDirectory(t *testing.T) {
	defer func(c int) { chunkGraphs = c }(chunkGraphs)
	chunkGraphs = 7
	dir := t.TempDir()
	var names []string
	for i := range 40 {
		n, seed := fmt.Sprintf("n=%d", 30+i*7%60), fmt.Sprintf("seed=%d", i+1)
		kind, args := "gnp", []string{n, "r=15", seed}
		switch i % 5 {
		case 1:
			args = append(args, "weights=1..9")
		case 2:
			args = append(args, "directed", "weights=0..1.0")
		case 3:
			kind, args = "regular", []string{fmt.Sprintf("n=%d", 20+2*i), "d=3", seed}
		case 4:
			kind, args = "geometric", []string{n, "d=2", seed} // mostly disconnected
		}
		g, err := gen.Make(kind, args...)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("g%02d.txt", i)
		writeEdgeList(t, filepath.Join(dir, name), g)
		names = append(names, name)
	}
	if err := os.WriteFile(filepath.Join(dir, ".hidden"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	code, out, errs := run(t, "", "bulk", "--reachable", dir, empty)
	if code != exitFail || !strings.Contains(errs, "1 of 41 graphs failed") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	objs := jsonLines(t, out)
	if len(objs) != len(names)+1 {
		t.Fatalf("%d lines for %d files", len(objs), len(names)+1)
	}
	for i, name := range names {
		p := filepath.Join(dir, name)
		sameAsStats(t, objs[i], p, statsObject(t, "", "--reachable", p))
	}
	if last := objs[len(names)]; last["id"] != empty || last["error"] != empty+": no graph files in this directory" {
		t.Fatalf("empty directory: %v", last)
	}
	code, _, _ = run(t, "", "bulk", dir)
	if code != exitOK {
		t.Fatalf("every graph fine: exit %d", code)
	}
}

// TestBulkDirectoryEntries: every entry of a directory but hidden files
// and subdirectories gets a line, in name order: a broken link and a link
// loop an error line each, as when named as arguments, a named pipe an
// error line without being opened (which would block), a link to a file
// its result; a link to a directory is a subdirectory. Before, the broken
// link, the loop and the pipe were dropped without a word and the exit
// status was 0.
func TestBulkDirectoryEntries(t *testing.T) {
	dir := t.TempDir()
	karate, err := filepath.Abs("../../testdata/karate.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ target, name string }{
		{karate, "a.txt"},
		{filepath.Join(dir, "missing.txt"), "b-broken"},
		{filepath.Join(dir, "c-loop"), "c-loop"},
		{t.TempDir(), "e-dirlink"},
		{karate, "f-filelink"},
		{filepath.Join(dir, "missing.txt"), ".hidden-broken"},
	} {
		if err := os.Symlink(l.target, filepath.Join(dir, l.name)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := exec.Command("mkfifo", filepath.Join(dir, "d-fifo")).Run() == nil
	want := []struct{ name, err string }{
		{"a.txt", ""},
		{"b-broken", "reading graph: open " + filepath.Join(dir, "b-broken") + ": no such file or directory"},
		{"c-loop", "reading graph: open " + filepath.Join(dir, "c-loop") + ": too many levels of symbolic links"},
		{"d-fifo", filepath.Join(dir, "d-fifo") + ": a named pipe, not a graph file (name it as an argument to read it)"},
		{"f-filelink", ""},
	}
	if !fifo {
		t.Log("no named pipes here")
		want = slices.Delete(want, 3, 4)
	}
	code, out, errs := run(t, "", "bulk", dir)
	objs := jsonLines(t, out)
	if code != exitFail || len(objs) != len(want) {
		t.Fatalf("exit %d (%s), %d lines for %d entries:\n%s", code, errs, len(objs), len(want), out)
	}
	for i, w := range want {
		o := objs[i]
		if o["id"] != filepath.Join(dir, w.name) {
			t.Errorf("line %d: id %v, want %s", i+1, o["id"], w.name)
		}
		if e, _ := o["error"].(string); e != w.err || (w.err == "" && o["vertices"] != float64(34)) {
			t.Errorf("%s: %v, want error %q", w.name, o, w.err)
		}
	}
	// Named as arguments, the broken link and the loop give the same lines.
	code, out, _ = run(t, "", "bulk", filepath.Join(dir, "b-broken"), filepath.Join(dir, "c-loop"))
	if objs := jsonLines(t, out); code != exitFail || len(objs) != 2 || objs[0]["error"] != want[1].err || objs[1]["error"] != want[2].err {
		t.Fatalf("as arguments: exit %d\n%s", code, out)
	}
}

func writeEdgeList(t *testing.T, path string, g *graph.Graph) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := graph.WriteEdgeList(f, g); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBulkStdin: JSON Lines on stdin — the results in order with their
// ids, blank lines skipped, and every bad line an error line naming it
// while the others complete.
func TestBulkStdin(t *testing.T) {
	defer func(c, m int) { chunkGraphs, maxLine = c, m }(chunkGraphs, maxLine)
	chunkGraphs, maxLine = 3, 200
	long := `{"id":"long","edges":[` + strings.Repeat("[0,1],", 40) + `[0,1]]}`
	lines := []struct {
		line, id string
		err      string // "" for a result
	}{
		{`{"id":"path","edges":[[0,1],[1,2],[2,3]]}`, "path", ""},
		{`{"id": 7, "n": 5, "edges": [[0,1,2.5],[1,2,1],[2,0,4]], "directed": true}`, "7", ""},
		{``, "", ""}, // skipped
		{`{"edges":[[0,1],[1,2,3]]}`, "stdin:4", "stdin:4: edge 2: every edge must have a weight or none"},
		{`{"id":"malformed","edges":[[0,1]`, "malformed", "stdin:5: bad JSON"}, // the id read before the error
		{`{"id":"neg","directed":true,"edges":[[0,1,-2],[1,0,1]]}`, "neg", "stdin:6: negative cycle through vertex"},
		{`{"id":"empty","n":0}`, "empty", "stdin:7: graph has no vertices"},
		{`{"id":"range","n":2,"edges":[[0,2]]}`, "range", `stdin:8: edge 1: vertex id 2 is not below "n": 2`},
		{`{"id":"unknown","nodes":3}`, "unknown", `stdin:9: unknown field "nodes"`},
		{`{"id":"type","n":"3"}`, "type", `stdin:10: "n": a string where an integer was expected`},
		{`{"id":"weight","edges":[[0,1,1e400]]}`, "weight", "stdin:11: edge 1: weight 1e400 overflows"},
		{`{"id":"frac","edges":[[0.5,1]]}`, "frac", "stdin:12: edge 1: vertex id 0.5 is not an integer"},
		{`[1,2]`, "stdin:13", "stdin:13: the line is not a JSON object"},
		{long, "stdin:14", "stdin:14: line too long"},
		{`{"id":"last","n":3}`, "last", ""},
	}
	var in strings.Builder
	for _, l := range lines {
		in.WriteString(l.line + "\n")
	}
	code, out, errs := run(t, in.String(), "bulk", "-")
	if code != exitFail || !strings.Contains(errs, "11 of 14 graphs failed") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	objs := jsonLines(t, out)
	k := 0
	for _, l := range lines {
		if l.line == "" {
			continue
		}
		o := objs[k]
		k++
		if fmt.Sprint(o["id"]) != l.id {
			t.Fatalf("line %q: id %v, want %s", l.line, o["id"], l.id)
		}
		if l.err == "" {
			if o["error"] != nil || o["vertices"] == nil {
				t.Fatalf("line %q: %v", l.line, o)
			}
			continue
		}
		if e, _ := o["error"].(string); !strings.HasPrefix(e, l.err) {
			t.Fatalf("line %q: error %q, want %q...", l.line, e, l.err)
		}
	}
	if k != len(objs) {
		t.Fatalf("%d lines, want %d", len(objs), k)
	}
	// The results are those of stats on the same graphs.
	sameAsStats(t, objs[0], "path", statsObject(t, "0 1\n1 2\n2 3\n", "-"))
	sameAsStats(t, objs[1], float64(7), statsObject(t, "# vertices: 5\n0 1 2.5\n1 2 1\n2 0 4\n", "--directed", "-"))
	if objs[len(objs)-1]["vertices"] != float64(3) || objs[len(objs)-1]["connected"] != false {
		t.Fatalf("n without edges: %v", objs[len(objs)-1])
	}
}

// TestBulkStdinNotJSONLines: stdin whose first line that is not blank
// does not start with '{' (an edge list, a Matrix Market file) fails once,
// before any graph is computed, with one sentence saying that bulk -
// reads JSON Lines and how to pass a graph file; before, each of its lines
// was an error line of its own.
func TestBulkStdinNotJSONLines(t *testing.T) {
	mtx, err := os.ReadFile("../../testdata/small.mtx")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, stdin, start string
		args               []string
	}{
		{"edge list", "0 1\n1 2\n2 3\n", `line 1 starts with "0 1"`, nil},
		{"blank lines first", "\n  \n0 1 5\n", `line 3 starts with "0 1 5"`, nil},
		{"matrix market", string(mtx), `line 1 starts with "%%MatrixMarket m"`, nil},
		{"after a file", "0 1\n", `line 1 starts with "0 1"`, []string{"../../testdata/karate.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.stdin, append(append([]string{"bulk"}, tc.args...), "-")...)
			want := "apsp bulk: stdin is not JSON Lines (" + tc.start + ", not '{'): bulk - reads one graph a line, " +
				`such as {"edges": [[0,1],[1,2]]}; to compute a graph file (an edge list, .mtx, .gr), pass it as a file argument (apsp bulk FILE)` + "\n"
			if code != exitFail || out != "" || errs != want {
				t.Fatalf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, errs, want)
			}
		})
	}
}

// TestBulkHelp: bulk -h lists its own flags and not --explain, which it
// refuses (per graph: stats --explain).
func TestBulkHelp(t *testing.T) {
	code, out, _ := run(t, "", "bulk", "-h")
	_, flags, _ := strings.Cut(out, "\nflags:\n")
	for _, f := range []string{"-csv", "-group", "-reachable", "-device"} {
		if !strings.Contains(flags, "  "+f+" ") && !strings.Contains(flags, "  "+f+"\n") {
			t.Errorf("bulk -h does not list %s", f)
		}
	}
	if code != exitOK || strings.Contains(flags, "-explain") || strings.Contains(flags, "-no-aspl") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, _, errs := run(t, "", "bulk", "--explain", "x")
	if code != exitUsage || !strings.Contains(errs, "--explain is per graph: run apsp stats --explain FILE") {
		t.Fatalf("bulk --explain: exit %d: %s", code, errs)
	}
	// apsp help bulk prints the same page, from the same flags.
	if code, help, _ := run(t, "", "help", "bulk"); code != exitOK || help != out {
		t.Fatalf("apsp help bulk (exit %d) differs from bulk -h:\n%s", code, help)
	}
}

// TestBulkStdinFlags: --one-based, --unweighted, --vertices and
// --directed apply to JSON lines; a line's "directed" may not contradict
// --directed given on the command line.
func TestBulkStdinFlags(t *testing.T) {
	code, out, _ := run(t, `{"id":"a","edges":[[1,2,5],[2,3,7]]}`+"\n", "bulk", "--one-based", "--unweighted", "--vertices", "4", "-")
	o := jsonLines(t, out)
	if code != exitOK || len(o) != 1 || o[0]["vertices"] != float64(4) || o[0]["weighted"] != false ||
		fmt.Sprint(o[0]["periphery"]) != "[1 2 3 4]" {
		t.Fatalf("exit %d: %v", code, o)
	}
	code, out, _ = run(t, `{"id":"b","edges":[[0,1]],"directed":false}`+"\n", "bulk", "--directed", "-")
	o = jsonLines(t, out)
	if code != exitFail || !strings.Contains(fmt.Sprint(o[0]["error"]), `"directed": false contradicts --directed=true`) {
		t.Fatalf("exit %d: %v", code, o)
	}
	code, out, _ = run(t, `{"id":"c","edges":[[0,1]]}`+"\n", "bulk", "--directed", "-")
	o = jsonLines(t, out)
	if code != exitOK || o[0]["directed"] != true || o[0]["connected"] != false {
		t.Fatalf("exit %d: %v", code, o)
	}
	// A file given with stdin: in argument order.
	code, out, _ = run(t, `{"id":"d","edges":[[0,1]]}`+"\n", "bulk", "../../testdata/karate.txt", "-", "../../testdata/small.mtx")
	o = jsonLines(t, out)
	if code != exitOK || len(o) != 3 || o[0]["vertices"] != float64(34) || o[1]["id"] != "d" || o[2]["vertices"] != float64(6) {
		t.Fatalf("exit %d: %v", code, o)
	}
}

// bulkCSVHeader is the header bulk --csv writes (encode.StatsCSVHeader,
// spelled out: the command's output must not change with the encoder).
var bulkCSVHeader = []string{"id", "vertices", "arcs", "edges", "directed", "weighted", "connected", "reachable_only",
	"diameter", "radius", "aspl", "reachable_pairs", "center", "periphery", "algorithm", "device", "lanes", "threads",
	"seconds", "error"}

// TestBulkCSV: a header of id, the stats --json field names and error,
// then a row per graph in order; an error row holds only id and error.
func TestBulkCSV(t *testing.T) {
	code, out, _ := run(t, "", "bulk", "--csv", "../../testdata/karate.txt", "../../testdata/bad.txt", "../../testdata/disconnected.txt")
	if code != exitFail {
		t.Fatalf("exit %d", code)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || !slices.Equal(rows[0], bulkCSVHeader) {
		t.Fatalf("rows %q", rows)
	}
	col := func(row []string, name string) string { return row[slices.Index(bulkCSVHeader, name)] }
	karate, bad, disc := rows[1], rows[2], rows[3]
	if col(karate, "id") != "../../testdata/karate.txt" || col(karate, "diameter") != "5" || col(karate, "aspl") != "2.408199643493761" ||
		col(karate, "center") != "0 1 2 3 8 13 19 31" || col(karate, "error") != "" || col(karate, "algorithm") != "bitbfs" {
		t.Fatalf("karate %q", karate)
	}
	if !strings.Contains(col(bad, "error"), "bad.txt:3:") || col(bad, "vertices") != "" {
		t.Fatalf("malformed %q", bad)
	}
	if col(disc, "diameter") != "inf" || col(disc, "aspl") != "inf" || col(disc, "connected") != "false" {
		t.Fatalf("disconnected %q", disc)
	}
	// No graph at all still writes the header.
	code, out, _ = run(t, "", "bulk", "--csv", "-")
	if code != exitOK || out != strings.Join(bulkCSVHeader, ",")+"\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
}

// TestBulkUsage: bad command lines exit 2.
func TestBulkUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bulk"},
		{"bulk", "--csv", "--json", "x"},
		{"bulk", "-", "-"},
		{"bulk", "--explain", "x"},
		{"bulk", "--algo", "nope", "x"},
		{"bulk", "--threads", "-1", "x"},
		{"bulk", "--group", "-1", "x"},
		{"bulk", "--group", "x", "y"},
	} {
		if code, _, errs := run(t, "", args...); code != exitUsage {
			t.Fatalf("%v: exit %d (%s)", args, code, errs)
		}
	}
	code, out, _ := run(t, "", "bulk", "-h")
	if code != exitOK || !strings.Contains(out, "--csv") || !strings.Contains(out, "JSON Lines") {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
	// A missing file is a failed graph, not a usage error.
	code, out, _ = run(t, "", "bulk", "no-such-file.txt")
	if o := jsonLines(t, out); code != exitFail || !strings.Contains(fmt.Sprint(o[0]["error"]), "no such file") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// bulkMemoryEnv names, in the child process of TestBulkUnderMemoryLimit,
// the directory of its graphs.
const bulkMemoryEnv = "APSP_TEST_BULK_MEMORY_DIR"

// bulkMemoryLimit is the child's GOMEMLIMIT: stats computes one of the
// test's graphs (40 000 vertices, 4-regular: bitbfs needs 21.4 MiB of
// working memory) within it with room to spare, but not two at once.
const bulkMemoryLimit = "44MiB"

// TestBulkUnderMemoryLimit: a graph that stats computes alone under
// GOMEMLIMIT does not fail in bulk for want of memory its neighbours hold
// or held. Before, the second and third of three copies failed with
// "graph too large": the previous graph's working memory, released but not
// yet collected, still counted against the limit. Run in a child process,
// whose only memory is the test's.
func TestBulkUnderMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("computes four graphs of 40 000 vertices")
	}
	dir := t.TempDir()
	g, err := gen.Make("regular", "n=40000", "d=4", "seed=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r1.txt", "r2.txt", "r3.txt"} {
		writeEdgeList(t, filepath.Join(dir, name), g)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBulkMemoryChild$", "-test.v")
	cmd.Env = append(os.Environ(), bulkMemoryEnv+"="+dir, "GOMEMLIMIT="+bulkMemoryLimit)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestBulkMemoryChild") {
		t.Fatalf("under GOMEMLIMIT=%s: %v\n%s", bulkMemoryLimit, err, out)
	}
}

// TestBulkMemoryChild is TestBulkUnderMemoryLimit's child: stats on one
// graph, then bulk on three copies, every one computed.
func TestBulkMemoryChild(t *testing.T) {
	dir := os.Getenv(bulkMemoryEnv)
	if dir == "" {
		t.Skip("run by TestBulkUnderMemoryLimit")
	}
	files := []string{filepath.Join(dir, "r1.txt"), filepath.Join(dir, "r2.txt"), filepath.Join(dir, "r3.txt")}
	// The limit leaves stats room for one graph, else the test proves
	// nothing.
	want := statsObject(t, "", "--quiet", "--threads", "2", files[0])["aspl"]
	runtime.GC() // as in a process of its own
	code, out, errs := run(t, "", "bulk", "--quiet", "--threads", "2", files[0], files[1], files[2])
	objs := jsonLines(t, out)
	if code != exitOK || len(objs) != len(files) {
		t.Fatalf("bulk: exit %d (%s), %d lines:\n%s", code, errs, len(objs), out)
	}
	for i, o := range objs {
		if o["id"] != files[i] || o["error"] != nil || o["aspl"] != want {
			t.Errorf("%s: %v", files[i], o["error"])
		}
	}
}

// writes records what each Write call wrote.
type writes struct{ calls []string }

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

// TestBulkGroup: --group gives the same lines as without it (on a GPU the
// bulk search in groups of 1, 3 and more than the batch against the CPU),
// and lines are written as they become final, not once at the end of a
// chunk.
func TestBulkGroup(t *testing.T) {
	var in strings.Builder
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 40 {
		n := 2 + rng.IntN(60)
		var edges []string
		for range 2 * n {
			edges = append(edges, fmt.Sprintf("[%d,%d]", rng.IntN(n), rng.IntN(n)))
		}
		if i == 11 {
			edges = append(edges, "[0,1,5]") // a weight among unweighted edges: an error line
		}
		fmt.Fprintf(&in, `{"id":%d,"n":%d,"edges":[%s]}`+"\n", i, n, strings.Join(edges, ","))
	}
	norm := func(out string) []string {
		var lines []string
		for _, o := range jsonLines(t, out) {
			for _, k := range []string{"seconds", "threads", "algorithm", "device", "lanes"} {
				delete(o, k)
			}
			b, _ := json.Marshal(o)
			lines = append(lines, string(b))
		}
		return lines
	}
	code, out, _ := run(t, in.String(), "bulk", "--device", "cpu", "-")
	want := norm(out)
	if code != exitFail || len(want) != 40 {
		t.Fatalf("cpu: exit %d, %d lines", code, len(want))
	}
	devices := []string{"cpu"}
	if _, err := apsp.Devices(); err == nil {
		devices = append(devices, "gpu")
	}
	for _, device := range devices {
		for _, group := range []string{"1", "3", "100", "0"} {
			var stdout writes
			var stderr strings.Builder
			code := Run(context.Background(), []string{"bulk", "--device", device, "--group", group, "-"}, strings.NewReader(in.String()), &stdout, &stderr)
			out := strings.Join(stdout.calls, "")
			if got := norm(out); code != exitFail || !slices.Equal(got, want) {
				t.Fatalf("%s, --group %s: exit %d (%s)\n%s\nwant\n%s", device, group, code, stderr.String(), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if device == "gpu" && !strings.Contains(out, `"gpu-bulk"`) {
				t.Fatalf("gpu, --group %s: no graph by the bulk search", group)
			}
			// Written as they became final: the first write holds fewer
			// lines than the batch.
			if len(stdout.calls) < 2 || strings.Count(stdout.calls[0], "\n") >= 40 {
				t.Fatalf("%s, --group %s: %d writes, the first of %d lines", device, group, len(stdout.calls), strings.Count(stdout.calls[0], "\n"))
			}
			t.Logf("%s, --group %s: %d writes", device, group, len(stdout.calls))
		}
	}
}

// failAfter is a writer that takes n bytes, then fails every write, as a
// closed pipe does.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("broken pipe")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestBulkWriteError: when stdout fails (apsp bulk … | head), the
// command reports the write error and exits 1. (It also cancels the rest
// of the batch; this test cannot tell that from finishing it.)
func TestBulkWriteError(t *testing.T) {
	var in strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&in, `{"id":%d,"n":300,"edges":[[0,1],[1,2],[2,3]]}`+"\n", i)
	}
	var errb bytes.Buffer
	code := Run(context.Background(), []string{"bulk", "-"}, strings.NewReader(in.String()), &failAfter{n: 100}, &errb)
	if code != 1 || !strings.Contains(errb.String(), "broken pipe") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// TestBulkStdinAnswersWhenInputPauses: bulk - answers the lines it has
// when its input pauses, so a caller can write a graph and wait for its
// line (before, nothing came until 1 024 lines or the end of input).
func TestBulkStdinAnswersWhenInputPauses(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), []string{"bulk", "-"}, inR, outW, io.Discard)
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	for i := range 3 {
		go fmt.Fprintf(inW, `{"id": %d, "edges": [[0,1],[1,2]]}`+"\n", i)
		got := make(chan string, 1)
		go func() { l, _ := out.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if !strings.HasPrefix(l, fmt.Sprintf(`{"id":%d,`, i)) || !strings.Contains(l, `"diameter":2`) {
				t.Fatalf("line %d: %s", i, l)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to line %d within 10 s while the input waits", i)
		}
	}
	inW.Close()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d", code)
	}
}
