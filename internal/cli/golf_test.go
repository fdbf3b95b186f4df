package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apsp/apsp/golf"
)

func TestGolfCLI(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.edges")
	if err := os.WriteFile(long, []byte("0,0 0,1\n0,1 3,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The sample graphs and figures of ODP (sample/graph/*/ASPL.txt).
	runCases(t, []cliCase{
		{name: "bound", args: []string{"golf", "bound", "n=256", "d=8"}, exactOut: "diameter bound 3\nASPL bound     2.7176470588\n"},
		{name: "grid bound", args: []string{"golf", "bound", "w=10", "h=10", "d=4", "r=4", "--json"}, stdout: []string{`"diameter": 5`, `"aspl": 3.2747474747474747`}},
		{name: "eval", args: []string{"golf", "eval", "../../golf/testdata/n16d4.edges"},
			stdout: []string{"Diameter     = 3", "Diameter Gap = 1 (3 - 2)", "ASPL         = 1.9166666667 (230/120)", "ASPL Gap     = 0.1833333333 (1.9166666667 - 1.7333333333)"}},
		{name: "eval grid", args: []string{"golf", "eval", "../../golf/testdata/w10h10d4r4g4.edges", "r=4"},
			stdout: []string{"Grid = 10x10, Length = 4", "Diameter Gap = 0 (5 - 5)", "ASPL         = 3.3737373737 (16700/4950)"}},
		{name: "eval r violated", args: []string{"golf", "eval", long, "r=2"}, code: exitFail, stderr: []string{"long.edges:2: edge 0,1 3,3 has length 5 > r=2"}},
		{name: "eval r of a non-grid graph", args: []string{"golf", "eval", "../../golf/testdata/n16d4.edges", "r=2"}, code: exitUsage, stderr: []string{"r= limits the edges of a grid graph", "n16d4.edges is not one"}},
		{name: "bound r without w, h", args: []string{"golf", "bound", "n=16", "d=3", "r=2"}, code: exitUsage, stderr: []string{"give w= and h= too"}},
		{name: "search r without w, h", args: []string{"golf", "search", "n=16", "d=3", "r=2"}, code: exitUsage, stderr: []string{"give w= and h= too"}},
		{name: "search r from a non-grid graph", args: []string{"golf", "search", "d=4", "r=2", "--from", "../../golf/testdata/n16d4.edges"}, code: exitUsage, stderr: []string{"n16d4.edges is not one"}},
		{name: "bound wants d", args: []string{"golf", "bound", "n=10"}, code: exitUsage},
		{name: "unknown sub", args: []string{"golf", "play"}, code: exitUsage},
		{name: "bad param", args: []string{"golf", "bound", "n=10", "k=3"}, code: exitUsage},
		{name: "search odd", args: []string{"golf", "search", "n=9", "d=3", "--evals", "10"}, code: exitUsage},
		{name: "help", args: []string{"golf", "-h"}, stdout: []string{"usage: apsp golf", "-batch"}},
	}, nil)
}

func TestGolfSearchCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "best.edges")
	code, stdout, stderr := run(t, "", "golf", "search", "n=32", "d=4", "--evals", "300", "--seed", "7", "-o", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res golf.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Report == nil || res.Report.Checked != "bfs" || res.Evals < 300 || res.Seed != 7 {
		t.Fatalf("result %s", stdout)
	}
	code, evalOut, stderr := run(t, "", "golf", "eval", out, "--json")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var rep golf.Report
	if err := json.Unmarshal([]byte(evalOut), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Diameter != res.Report.Diameter || rep.Sum != res.Report.Sum {
		t.Fatalf("the written graph measures %d %d, the search said %d %d", rep.Diameter, rep.Sum, res.Report.Diameter, res.Report.Sum)
	}
	// From the written file, hill climbing.
	code, stdout, stderr = run(t, "", "golf", "search", "--from", out, "--method", "hc", "--evals", "50")
	if code != 0 || !strings.Contains(stdout, "Method = hc") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// A symmetric search; its graph taken back as a symmetric start; a
	// symmetry that does not divide n refused as a usage error.
	code, stdout, stderr = run(t, "", "golf", "search", "n=32", "d=4", "--symmetry", "4", "--evals", "300", "-o", out, "--json")
	if code != 0 || !strings.Contains(stdout, `"symmetry": 4`) {
		t.Fatalf("symmetric: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr = run(t, "", "golf", "search", "--from", out, "--symmetry", "4", "--evals", "50"); code != 0 {
		t.Fatalf("symmetric from its file: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = run(t, "", "golf", "search", "n=30", "d=4", "--symmetry", "4"); code == 0 || !strings.Contains(stderr, "does not divide") {
		t.Fatalf("symmetry 4 of n=30: exit %d\n%s", code, stderr)
	}
}

// A grid search from a grid file takes w and h from the file, as eval
// does, and needs r.
func TestGolfSearchFromGrid(t *testing.T) {
	out := filepath.Join(t.TempDir(), "grid.edges")
	if code, _, stderr := run(t, "", "golf", "search", "w=4", "h=4", "d=3", "r=2", "--evals", "200", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, stdout, stderr := run(t, "", "golf", "search", "d=4", "r=2", "--from", out, "--evals", "200", "--json")
	if code != 0 {
		t.Fatalf("from the grid: exit %d: %s", code, stderr)
	}
	var res golf.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if g := res.Report.Grid; g == nil || g.W != 4 || g.H != 4 || g.R != 2 {
		t.Fatalf("grid %+v, want 4×4, r=2", res.Report.Grid)
	}
	if code, _, stderr := run(t, "", "golf", "search", "d=3", "--from", out, "--evals", "20"); code != exitUsage || !strings.Contains(stderr, "give its r=") {
		t.Fatalf("without r: exit %d: %s", code, stderr)
	}
}
