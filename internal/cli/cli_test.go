package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// cliCase is one command line and what it must print and return.
type cliCase struct {
	name     string
	stdin    string
	args     []string
	code     int
	stdout   []string // substrings that must appear
	stderr   []string
	exactOut string // when set, the whole stdout
}

// runCases runs each case in-process; norm, when set, rewrites stdout
// before the substring checks (not before exactOut).
func runCases(t *testing.T, cases []cliCase, norm func(string) string) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errs)
			}
			if tt.exactOut != "" && out != tt.exactOut {
				t.Fatalf("stdout %q, want %q", out, tt.exactOut)
			}
			checked := out
			if norm != nil {
				checked = norm(out)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(checked, s) {
					t.Fatalf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errs, s) {
					t.Fatalf("stderr lacks %q:\n%s", s, errs)
				}
			}
		})
	}
}

func TestCLI(t *testing.T) {
	tests := []cliCase{
		{name: "karate diameter", args: []string{"diameter", "../../testdata/karate.txt"}, exactOut: "5\n"},
		{name: "karate aspl", args: []string{"aspl", "../../testdata/karate.txt"}, stdout: []string{"2.40819964"}},
		{name: "karate stats", args: []string{"stats", "../../testdata/karate.txt"},
			stdout: []string{"vertices         34", "diameter         5", "radius           3", "connected        yes"}},
		{name: "flags after file", args: []string{"diameter", "../../testdata/karate.txt", "--algo", "fw"}, exactOut: "5\n"},
		{name: "weighted path", args: []string{"path", "../../testdata/weighted.txt", "0", "4"}, exactOut: "0 1 2 3 4\nlength 7\n"},
		{name: "dimacs path is one-based", args: []string{"path", "../../testdata/small.gr", "1", "5"}, exactOut: "1 3 2 4 5\nlength 7\n"},
		{name: "dimacs ecc", args: []string{"ecc", "../../testdata/small.gr"}, stdout: []string{"1 7\n"}},
		{name: "no path", args: []string{"path", "../../testdata/disconnected.txt", "0", "4"}, code: 1, stderr: []string{"no path from 0 to 4"}},
		{name: "disconnected", args: []string{"diameter", "../../testdata/disconnected.txt"}, exactOut: "inf\n"},
		{name: "disconnected reachable", args: []string{"diameter", "--reachable", "../../testdata/disconnected.txt"}, exactOut: "2\n"},
		{name: "disconnected aspl reachable", args: []string{"aspl", "--reachable", "../../testdata/disconnected.txt"},
			// triangle: 6 pairs of 1; path 3-4-5: 4 pairs of 1 and 2 of 2 -> 14/12
			exactOut: "1.1666666666666667\n"},
		{name: "negative cycle", args: []string{"stats", "../../testdata/negcycle.gr"}, code: 1, stderr: []string{"negative cycle through vertex"}},
		{name: "negative cycle fw", args: []string{"stats", "--algo", "fw", "../../testdata/negcycle.gr"}, code: 1, stderr: []string{"negative cycle"}},
		{name: "parse error", args: []string{"stats", "../../testdata/bad.txt"}, code: 1, stderr: []string{"bad.txt:3:"}},
		{name: "missing file", args: []string{"stats", "nope.txt"}, code: 1, stderr: []string{"nope.txt"}},
		{name: "stdin", stdin: "0 1\n1 2\n2 3\n", args: []string{"diameter", "-"}, exactOut: "3\n"},
		{name: "directed stdin", stdin: "0 1\n1 2\n2 0\n", args: []string{"diameter", "--directed", "-"}, exactOut: "2\n"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: []string{"unknown command"}},
		{name: "no args", args: nil, code: 2, stderr: []string{"usage"}},
		{name: "bad flag", args: []string{"stats", "--nope", "x"}, code: 2, stderr: []string{"flag provided but not defined"}},
		{name: "bad algo", args: []string{"stats", "--algo", "magic", "../../testdata/karate.txt"}, code: 2, stderr: []string{`--algo: unknown: "magic"`, "have auto"}},
		{name: "too many args", args: []string{"diameter", "a", "b"}, code: 2},
		{name: "help", args: []string{"help"}, stdout: []string{"stats", "diameter", "gen"}},
		{name: "command help", args: []string{"stats", "-h"}, stdout: []string{"example:", "--reachable"}},
		{name: "gen help", args: []string{"gen", "-h"}, stdout: []string{"petersen", "regular"}},
		{name: "gen petersen", args: []string{"gen", "petersen"}, stdout: []string{"0 1"}},
		{name: "gen bad", args: []string{"gen", "regular", "n=5", "d=3"}, code: 2},
		{name: "info", args: []string{"info", "../../testdata/disconnected.txt"}, stdout: []string{"components  2"}},
		{name: "info directed", args: []string{"info", "../../testdata/small.gr"}, stdout: []string{"strong components  1"}},
		{name: "dist tsv", args: []string{"dist", "../../testdata/disconnected.txt"}, stdout: []string{"0\t1\t1\tinf\tinf\tinf\n"}},
		{name: "bad device", args: []string{"stats", "--device", "tpu", "../../testdata/karate.txt"}, code: 2, stderr: []string{`--device: "tpu"`}},
		{name: "one-based", stdin: "1 2\n2 3\n", args: []string{"path", "--one-based", "-", "1", "3"}, exactOut: "1 2 3\nlength 2\n"},
		{name: "no-aspl", args: []string{"stats", "--no-aspl", "../../testdata/karate.txt"},
			stdout: []string{"diameter    5", "radius      3", "traversals", "bounds"}},
		{name: "diameter by bounds json", args: []string{"diameter", "--json", "../../testdata/karate.txt"}, stdout: []string{`"algorithm": "bounds"`, `"diameter": 5`}},
		{name: "hist", args: []string{"hist", "../../testdata/karate.txt"}, stdout: []string{"2                    530", "inf                    0"}},
		{name: "hist weighted float", args: []string{"hist", "-"}, stdin: "0 1 0.5\n", code: 1, stderr: []string{"integer distances"}},
		{name: "hist zero-length arc", args: []string{"hist", "--directed", "-"}, stdin: "0 1 0\n1 2 3\n", stdout: []string{"0                      1  0.166667  0.166667\n", "inf                    3  0.500000"}},
		{name: "hist bad output", args: []string{"hist", "../../testdata/karate.txt", "-o", "x.jpg"}, code: 2},
		{name: "hist eps refused", args: []string{"hist", "../../testdata/karate.txt", "-o", "x.eps"}, code: 2, stderr: []string{".svg, .pdf or .png"}},
		{name: "hist log needs -o", args: []string{"hist", "--log", "../../testdata/karate.txt"}, code: 2, stderr: []string{"give -o FILE"}},
		{name: "hist cumulative needs -o", args: []string{"hist", "--cumulative", "../../testdata/karate.txt"}, code: 2, stderr: []string{"give -o FILE"}},
		{name: "hist json and csv", args: []string{"hist", "--json", "--csv", "../../testdata/karate.txt"}, code: 2, stderr: []string{"choose one"}},
		{name: "hist csv", args: []string{"hist", "--csv", "../../testdata/karate.txt"},
			exactOut: "distance,pairs\n1,156\n2,530\n3,274\n4,146\n5,16\ninf,0\n"},
		// Unreachable pairs are the last row, at distance inf.
		{name: "hist csv disconnected", args: []string{"hist", "--csv", "../../testdata/disconnected.txt"},
			exactOut: "distance,pairs\n1,10\n2,2\ninf,18\n"},
		// A distance no pair has is a row of 0; distance 0 is a row only
		// when zero-length arcs join distinct vertices.
		{name: "hist csv gap", args: []string{"hist", "--csv", "--directed", "-"}, stdin: "0 1 2\n",
			exactOut: "distance,pairs\n1,0\n2,1\ninf,1\n"},
		{name: "hist csv zero length", args: []string{"hist", "--csv", "--directed", "-"}, stdin: "0 1 0\n1 2 1\n",
			exactOut: "distance,pairs\n0,1\n1,2\ninf,3\n"},
		{name: "hist csv one vertex", args: []string{"hist", "--csv", "-"}, stdin: "0 0\n",
			exactOut: "distance,pairs\ninf,0\n"},
		{name: "bitbfs stats", args: []string{"aspl", "--algo", "bitbfs", "../../testdata/karate.txt"}, stdout: []string{"2.40819964"}},
		{name: "dijkstra on negative", args: []string{"stats", "--algo", "dijkstra", "../../testdata/small.gr"}, stdout: []string{"diameter"}},
		{name: "johnson negative cycle", args: []string{"stats", "--algo", "johnson", "../../testdata/negcycle.gr"}, code: 1, stderr: []string{"negative cycle"}},
		{name: "c2cu check", args: []string{"c2cu", "check", "../../examples/c2cu/floyd.c"}, stdout: []string{"kernel call  floyd", "int d[16][16]", "oblivious: yes"}},
		{name: "c2cu gen", args: []string{"c2cu", "gen", "-p", "100", "-t", "32", "../../examples/c2cu/prefix.c"}, stdout: []string{"__global__", "#define __P__ 100"}},
		{name: "c2cu not oblivious", args: []string{"c2cu", "check", "-"}, code: 1, stderr: []string{"open -"}},
		{name: "c2cu usage", args: []string{"c2cu"}, code: 2},
		{name: "c2cu bad sub", args: []string{"c2cu", "frob", "../../examples/c2cu/floyd.c"}, code: 2, stderr: []string{"unknown c2cu subcommand"}},
		{name: "negative cycle one-based", stdin: "p sp 3 1\na 3 3 -1\n", args: []string{"stats", "--format", "gr", "-"}, code: 1, stderr: []string{"negative cycle through vertex 3"}},
		{name: "bad tile", args: []string{"stats", "--tile", "17", "../../testdata/karate.txt"}, code: 2, stderr: []string{"--tile: tile size 17"}},
		{name: "gpu algo on cpu", args: []string{"stats", "--algo", "gpu-multi", "--device", "cpu", "../../testdata/karate.txt"}, code: 2},
		{name: "bounds for aspl", args: []string{"aspl", "--algo", "bounds", "../../testdata/karate.txt"}, code: 2, stderr: []string{"bounds"}},
		{name: "bad gpu number", args: []string{"stats", "--device", "gpu:99999999999999999999", "../../testdata/karate.txt"}, code: 2},
		{name: "directed not strongly connected", stdin: "0 1\n1 2\n", args: []string{"stats", "--directed", "--json", "-"}, stdout: []string{`"radius": 2`, `"center": [
    0
  ]`, `"periphery": [
    1,
    2
  ]`}},
		{name: "reachable aspl of no pairs", stdin: "# nothing\n", args: []string{"aspl", "--reachable", "--vertices", "3", "-"}, exactOut: "nan\n"},
		{name: "bench reps", args: []string{"bench", "fw", "--reps", "0", "--device", "cpu"}, code: 2},
		{name: "bench float with packed lanes", args: []string{"bench", "fw", "--float", "--lanes", "int16", "--device", "cpu"}, code: 2, stderr: []string{"--float"}},
		{name: "bench unknown lanes", args: []string{"bench", "fw", "--lanes", "int9", "--device", "cpu"}, code: 2},
		{name: "bounds in int8 lanes", args: []string{"diameter", "--algo", "bounds", "--lanes", "int8", "../../testdata/karate.txt"}, code: 2, stderr: []string{"bounds computes in int32 lanes"}},
		{name: "c2cu unknown sub first", args: []string{"c2cu", "foo", "missing.c"}, code: 2},
		{name: "vertex out of range", args: []string{"path", "../../testdata/karate.txt", "0", "34"}, code: 1, stderr: []string{"out of range"}},
	}
	runCases(t, tests, nil)
}

func TestStatsJSON(t *testing.T) {
	code, out, errs := run(t, "", "stats", "--json", "../../testdata/disconnected.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"vertices", "arcs", "directed", "weighted", "connected", "diameter", "radius", "aspl", "reachable_pairs", "algorithm", "device", "seconds"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["diameter"] != nil || m["aspl"] != nil || m["connected"] != false {
		t.Errorf("disconnected graph: diameter %v aspl %v connected %v", m["diameter"], m["aspl"], m["connected"])
	}
	if m["reachable_pairs"] != 12.0 {
		t.Errorf("reachable_pairs = %v, want 12", m["reachable_pairs"])
	}
}

func TestGenRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"g.txt", "g.mtx", "g.gr", "g.txt.gz", "g.graphml", "g.graphml.gz", "g.gml", "g.net", "g.graph"} {
		p := filepath.Join(dir, name)
		if code, _, errs := run(t, "", "gen", "grid", "a=4", "b=6", "weights=1..1", "-o", p); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		// A 4×6 grid has diameter 4+6-2 = 8 (as a .gr it is directed with both arcs).
		code, out, errs := run(t, "", "diameter", p)
		if code != 0 || out != "8\n" {
			t.Fatalf("%s: diameter %q exit %d: %s", name, out, code, errs)
		}
	}
}

// apsp hist -o draws the plot in the format the extension names, valid in
// each, and --log and --cumulative change the drawing.
func TestHistPlot(t *testing.T) {
	dir := t.TempDir()
	drawn := map[string]string{}
	for _, tc := range []struct {
		file  string
		flags []string
	}{
		{"h.png", nil}, {"h.svg", nil}, {"h.pdf", nil}, {"H.SVG", nil},
		{"log.svg", []string{"--log"}}, {"cum.svg", []string{"--cumulative"}},
		{"cumlog.svg", []string{"--cumulative", "--log"}}, {"cumlog.png", []string{"--cumulative", "--log"}},
	} {
		out := filepath.Join(dir, tc.file)
		args := append(append([]string{"hist"}, tc.flags...), "../../testdata/karate.txt", "-o", out)
		code, stdout, errs := run(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "2                    530") {
			t.Fatalf("%v: exit %d: %s\n%s", tc.flags, code, errs, stdout)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		switch strings.ToLower(filepath.Ext(out)) {
		case ".png":
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: not a PNG: %v", tc.file, err)
			}
			if r := img.Bounds(); r.Dx() < 400 || r.Dy() < 200 {
				t.Fatalf("%s: image only %v", tc.file, r)
			}
		case ".pdf":
			if !bytes.HasPrefix(b, []byte("%PDF-")) {
				t.Fatalf("%s: not a PDF: %q", tc.file, b[:8])
			}
		case ".svg":
			dec := xml.NewDecoder(bytes.NewReader(b))
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: not XML: %v", tc.file, err)
				}
			}
			if !bytes.Contains(b, []byte("../../testdata/karate.txt")) || !bytes.Contains(b, []byte("distance (hops)")) {
				t.Fatalf("%s: no title naming the graph, or no x label", tc.file)
			}
			drawn[tc.file] = string(b)
		}
	}
	if drawn["h.svg"] != drawn["H.SVG"] {
		t.Error("the same plot drew differently")
	}
	for _, f := range []string{"log.svg", "cum.svg", "cumlog.svg"} {
		if drawn[f] == drawn["h.svg"] {
			t.Errorf("%s draws the same as the default", f)
		}
	}
	if drawn["cum.svg"] == drawn["cumlog.svg"] {
		t.Error("--log does not change the cumulative plot")
	}
}

func TestC2CURejects(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.c")
	src := "int a[4];\nvoid f(int i) { a[a[i]] = 1; }\nint main() {\n#pragma kernel\n  f(0);\n}\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "c2cu", "check", bad)
	if code != 1 || !strings.Contains(out, "oblivious: no") || !strings.Contains(errs, "bad.c:2: not oblivious") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	// run and bench need a GPU: without one they fail with a clear error.
	if code, _, errs := run(t, "", "c2cu", "run", "-p", "10", "../../examples/c2cu/prefix.c"); code == 0 {
		t.Logf("a GPU is present: run succeeded")
	} else if !strings.Contains(errs, "CUDA") && !strings.Contains(errs, "GPU") {
		t.Fatalf("run without a GPU: exit %d, %s", code, errs)
	}
}

// TestStatsDistributedWithoutMPI: --distributed without an Open MPI
// library fails with a message naming it; with --no-aspl it is a usage
// error.
func TestStatsDistributedWithoutMPI(t *testing.T) {
	t.Setenv("APSP_LIBMPI", "/nonexistent/libmpi.so")
	code, _, stderr := run(t, "", "stats", "--distributed", "../../testdata/karate.txt")
	if code != 1 || !strings.Contains(stderr, "MPI") {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	code, _, stderr = run(t, "", "stats", "--distributed", "--no-aspl", "../../testdata/karate.txt")
	if code != 2 || !strings.Contains(stderr, "--distributed") {
		t.Fatalf("--no-aspl: code %d, stderr %q", code, stderr)
	}
}

// TestBenchCPUDefaults is issue 32 item 6: apsp bench fw without a GPU ran
// the GPU's sizes (up to 32768) on the CPU for 12 minutes printing
// nothing. The CPU now gets sizes that finish in seconds and a line on
// stderr for each as it completes. (Without the fix, the context's limit
// cancels the run at the larger sizes.)
func TestBenchCPUDefaults(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	start := time.Now()
	code := Run(ctx, []string{"bench", "fw", "--device", "cpu", "--reps", "1"}, strings.NewReader(""), &out, &errb)
	t.Logf("%v:\n%s", time.Since(start).Round(time.Millisecond), errb.String())
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, out.String(), errb.String())
	}
	for _, n := range []int{256, 512, 1024, 2048} {
		if !strings.Contains(errb.String(), fmt.Sprintf("cpu-blocked int32 n=%d ", n)) {
			t.Errorf("no line for n=%d on stderr", n)
		}
	}
	if strings.Contains(out.String(), "4096") {
		t.Errorf("the CPU ran at 4096 or more:\n%s", out.String())
	}
	for _, tc := range []struct {
		flag     string
		kinds    []string
		sizes    []int
		cpuSizes []int
	}{
		{"", []string{"cpu"}, []int{256, 512, 1024, 2048}, nil},
		{"", []string{"multi", "single", "cpu"}, []int{256, 512, 1024, 2048, 4096, 8192, 16384, 32768}, []int{256, 512, 1024, 2048}},
		{"64,8192", []string{"cpu"}, []int{64, 8192}, nil},
	} {
		sizes, cpuSizes, err := benchSizes(tc.flag, tc.kinds)
		if err != nil || !slices.Equal(sizes, tc.sizes) || !slices.Equal(cpuSizes, tc.cpuSizes) {
			t.Errorf("benchSizes(%q, %v) = %v, %v, %v; want %v, %v", tc.flag, tc.kinds, sizes, cpuSizes, err, tc.sizes, tc.cpuSizes)
		}
	}
}

// TestServe: apsp serve --stdio answers each line in order, bad lines
// included, and exits 0 at the end of input; without --stdio it is a
// usage error.
func TestServe(t *testing.T) {
	in := `{"id":1,"op":"stats","n":3,"edges":[[0,1],[1,2]]}` + "\nnot json\n" + `{"id":3,"op":"ping"}` + "\n"
	code, out, errs := run(t, in, "serve", "--stdio")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || errs != "" || len(lines) != 3 || !strings.HasPrefix(lines[0], `{"id":1,"result":{"vertices":3,`) ||
		!strings.Contains(lines[1], `"kind":"request"`) || !strings.HasPrefix(lines[2], `{"id":3,"result":{"version":`) {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	if code, _, errs := run(t, "", "serve"); code != exitUsage || !strings.Contains(errs, "--stdio") {
		t.Fatalf("serve without --stdio: exit %d: %s", code, errs)
	}
}

// TestCloseness: apsp closeness prints the library's values, a line a
// vertex or JSON, in the file's numbering.
func TestCloseness(t *testing.T) {
	code, out, errs := run(t, "", "closeness", "../../testdata/karate.txt")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 34 || lines[0] != "0 0.5689655172413793" {
		t.Fatalf("exit %d (%s): %q", code, errs, lines[:min(len(lines), 3)])
	}
	code, out, _ = run(t, "", "closeness", "--json", "--wf-improved=false", "../../testdata/small.mtx")
	var rows []struct {
		Vertex    int     `json:"vertex"`
		Closeness float64 `json:"closeness"`
	}
	if err := json.Unmarshal([]byte(out), &rows); code != exitOK || err != nil || len(rows) == 0 || rows[0].Vertex != 1 {
		t.Fatalf("exit %d: %v: %s", code, err, out)
	}
}
