package cli

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/apsp/apsp"
)

// TestNegativeVertexIDs is issue 32 item 7: "apsp path FILE -1 3" said
// "flag provided but not defined: -1". After the file a negative integer
// is a vertex id, refused as out of range; a flag's negative value stays
// the flag's.
func TestNegativeVertexIDs(t *testing.T) {
	karate, mtx := "../../testdata/karate.txt", "../../testdata/small.mtx"
	runCases(t, []cliCase{
		{name: "source", args: []string{"path", karate, "-1", "3"}, code: 1, stderr: []string{"vertex -1 out of range 0..33"}},
		{name: "target", args: []string{"path", karate, "0", "-5"}, code: 1, stderr: []string{"vertex -5 out of range 0..33"}},
		{name: "one-based file", args: []string{"path", mtx, "-1", "3"}, code: 1, stderr: []string{"vertex -1 out of range 1..6"}},
		{name: "flags after", args: []string{"path", karate, "-1", "3", "--json"}, code: 1, stderr: []string{"vertex -1 out of range"}},
		{name: "a flag's value", args: []string{"path", karate, "--threads", "-1", "0", "3"}, code: 2, stderr: []string{"--threads must be >= 0"}},
		{name: "a flag's value with =", args: []string{"path", karate, "--threads=-1", "0", "3"}, code: 2, stderr: []string{"--threads must be >= 0"}},
		{name: "bool flag before", args: []string{"path", karate, "--json", "-1", "3"}, code: 1, stderr: []string{"vertex -1 out of range"}},
		{name: "unknown flag", args: []string{"path", karate, "-x", "3"}, code: 2, stderr: []string{"flag provided but not defined: -x"}},
		{name: "positive ids", args: []string{"path", karate, "0", "33", "--json"}, stdout: []string{`"length": 2`}},
	}, nil)
}

// TestThreadsLimit is issue 32 item 7: --threads 100000 was reported as
// 100 000 threads on a 2-core machine. A count above the CPUs the process
// may run on is refused with the limit (exit status 2); up to it runs and
// is reported as asked.
func TestThreadsLimit(t *testing.T) {
	karate := "../../testdata/karate.txt"
	cpus := max(runtime.NumCPU(), runtime.GOMAXPROCS(0))
	most, over := strconv.Itoa(cpus), strconv.Itoa(cpus+1)
	runCases(t, []cliCase{
		{name: "100000", args: []string{"stats", "--threads", "100000", karate}, code: 2, stderr: []string{"--threads 100000: at most " + most + ", the CPUs this process may run on"}},
		{name: "one over", args: []string{"ecc", "--threads", over, karate}, code: 2, stderr: []string{"--threads " + over + ": at most " + most}},
		{name: "bulk", args: []string{"bulk", "--threads", "100000", karate}, code: 2, stderr: []string{"at most " + most}},
		{name: "the limit", args: []string{"stats", "--algo", "blocked", "--threads", most, karate}, stdout: []string{most + " threads)"}},
	}, squeeze)
}

// TestFileContradictions is issue 32 item 7: --directed and --vertices
// were ignored silently for .mtx (and .gr). A contradiction is refused at
// the line that says otherwise, as an edge list's header is; agreement
// and more vertices than declared are taken.
func TestFileContradictions(t *testing.T) {
	mtx, gr := "../../testdata/small.mtx", "../../testdata/small.gr"
	runCases(t, []cliCase{
		{name: "mtx symmetric --directed", args: []string{"stats", "--directed", mtx}, code: 1,
			stderr: []string{"small.mtx:1: a \"symmetric\" banner says the graph is undirected, but it is read as directed (--directed)"}},
		{name: "mtx --vertices below", args: []string{"info", "--vertices", "2", mtx}, code: 1,
			stderr: []string{"the size line says 6 vertices, but it is read with 2 (--vertices)"}},
		{name: "mtx --vertices above", args: []string{"info", "--vertices", "20", mtx}, stdout: []string{"vertices 20", "components 15"}},
		{name: "mtx --directed=false agrees", args: []string{"info", "--directed=false", mtx}, stdout: []string{"directed no"}},
		{name: "gr --directed=false", args: []string{"info", "--directed=false", gr}, code: 1,
			stderr: []string{"a DIMACS file says the graph is directed, but it is read as undirected (--directed=false)"}},
		{name: "gr --directed agrees", args: []string{"info", "--directed", gr}, stdout: []string{"directed yes"}},
		{name: "gr --vertices below", args: []string{"info", "--vertices", "1", gr}, code: 1, stderr: []string{"the problem line says"}},
		{name: "edge list header --vertices below", stdin: "# vertices: 5\n0 1\n", args: []string{"info", "--vertices", "3", "-"}, code: 1,
			stderr: []string{"stdin:1: header says 5 vertices, but it is read with 3 (--vertices)"}},
	}, squeeze)
}

// TestQuietHasNoNotice is issue 32 item 7: the notice that no GPU was used
// printed under --quiet. Without --quiet it still prints where there is no
// GPU (auto estimates a GPU faster on this weighted graph of 4096
// vertices).
func TestQuietHasNoNotice(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.txt")
	if code, _, errs := run(t, "", "gen", "regular", "n=4096", "d=8", "seed=1", "weights=1..9", "-o", file); code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{
		{"aspl", "--quiet", file},
		{"stats", "--quiet", "--json", file},
		{"bench", "fw", "--quiet", "--sizes", "64", "--reps", "1"},
	} {
		code, _, errs := run(t, "", args...)
		if code != 0 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, code, errs)
		}
	}
	if _, err := apsp.Devices(); err == nil {
		return // a GPU: no notice to see
	}
	for _, args := range [][]string{{"aspl", file}, {"bench", "fw", "--sizes", "64", "--reps", "1"}} {
		if _, _, errs := run(t, "", args...); !strings.Contains(errs, "apsp: no GPU") {
			t.Errorf("%v: stderr %q lacks the no-GPU notice", args, errs)
		}
	}
}

// TestInfoJSONWeights is issue 32 item 7: info --json wrote the weight
// range as strings ("1", "7"), unlike every other number apsp writes.
// They are JSON numbers now, exact for int64 weights, and null without
// weights.
func TestInfoJSONWeights(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		min, max    any // json.Number text, or nil
	}{
		{"integer", "0 1 3\n1 2 -2\n", "-2", "3"},
		{"int64 extremes", "0 1 9223372036854775807\n1 2 -9223372036854775808\n", "-9223372036854775808", "9223372036854775807"},
		{"float", "0 1 0.1\n1 2 2.5e-7\n", "2.5e-07", "0.1"},
		{"unweighted", "0 1\n", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.stdin, "info", "--json", "--directed", "-")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			dec := json.NewDecoder(strings.NewReader(out))
			dec.UseNumber()
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			for key, want := range map[string]any{"min_weight": tc.min, "max_weight": tc.max} {
				got, ok := m[key]
				if !ok {
					t.Fatalf("no %s in %s", key, out)
				}
				if want == nil {
					if got != nil {
						t.Errorf("%s = %#v, want null", key, got)
					}
					continue
				}
				if n, isNum := got.(json.Number); !isNum || string(n) != want {
					t.Errorf("%s = %#v, want the number %s", key, got, want)
				}
			}
		})
	}
}
