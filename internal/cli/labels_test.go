package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLabelsEverywhere: a graph whose file names its vertices is answered
// in those names by every command that names vertices (issue 27), from an
// edge list read with --labels and from CSV alike.
func TestLabelsEverywhere(t *testing.T) {
	dir := t.TempDir()
	el := filepath.Join(dir, "p.txt")
	csv := filepath.Join(dir, "p.csv")
	// A path alice - bob - carol - dave with lengths 2, 3, 1.
	if err := os.WriteFile(el, []byte("alice bob 2\nbob carol 3\ncarol dave 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csv, []byte("source,target,weight\nalice,bob,2\nbob,carol,3\ncarol,dave,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]string{{"--labels", el}, {csv}} {
		runCases(t, []cliCase{
			{name: "stats", args: append([]string{"stats"}, in...), stdout: []string{"center           bob\n", "periphery        alice dave\n"}},
			{name: "ecc", args: append([]string{"ecc"}, in...), exactOut: "alice 6\nbob 4\ncarol 5\ndave 6\n"},
			{name: "closeness", args: append([]string{"closeness"}, in...), stdout: []string{"alice 0.23076923076923078\n", "bob 0.3333333333333333\n", "dave 0.2727272727272727\n"}},
			{name: "path", args: append([]string{"path"}, append(in, "alice", "dave")...), exactOut: "alice bob carol dave\nlength 6\n"},
			{name: "path json", args: append([]string{"path", "--json"}, append(in, "dave", "bob")...),
				stdout: []string{`"vertices": [`, `"dave",`, `"carol",`, `"bob"`}},
			{name: "path unknown", args: append([]string{"path"}, append(in, "alice", "zed")...), code: 1,
				stderr: []string{`no vertex is named "zed"`}},
			{name: "dist", args: append([]string{"dist"}, in...), stdout: []string{"\talice\tbob\tcarol\tdave\n", "alice\t0\t2\t5\t6\n", "dave\t6\t4\t1\t0\n"}},
		}, nil)
	}
	// stats --json gives center and periphery as names, and bulk does too
	// for a file that names its vertices.
	_, out, _ := run(t, "", "stats", "--json", csv)
	var s struct{ Center, Periphery []string }
	if err := json.Unmarshal([]byte(out), &s); err != nil || !slices.Equal(s.Center, []string{"bob"}) || !slices.Equal(s.Periphery, []string{"alice", "dave"}) {
		t.Errorf("stats --json: %v %+v\n%s", err, s, out)
	}
	_, out, _ = run(t, "", "bulk", csv)
	if !strings.Contains(out, `"center":["bob"],"periphery":["alice","dave"]`) {
		t.Errorf("bulk: %s", out)
	}
	// dist -o FILE.npy writes the names beside the matrix.
	npy := filepath.Join(dir, "d.npy")
	if code, _, errs := run(t, "", "dist", "-o", npy, csv); code != 0 {
		t.Fatal(errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "d.names.json"))
	if err != nil || string(b) != `["alice","bob","carol","dave"]`+"\n" {
		t.Errorf("names beside the .npy: %q, %v", b, err)
	}
	// The same matrix file of a graph without names: the names file of
	// the run before goes, as it would name these rows wrongly.
	ids := filepath.Join(dir, "ids.txt")
	if err := os.WriteFile(ids, []byte("0 1\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "dist", "-o", npy, ids); code != 0 {
		t.Fatal(errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "d.names.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a stale names file stays beside the .npy of a graph without names: %v", err)
	}
	// A negative cycle is named by a vertex's name.
	neg := filepath.Join(dir, "neg.csv")
	if err := os.WriteFile(neg, []byte("source,target,weight\nx,y,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "stats", neg); code == 0 || !strings.Contains(errs, "negative cycle through vertex x") && !strings.Contains(errs, "negative cycle through vertex y") {
		t.Errorf("negative cycle: exit %d, %s", code, errs)
	}
}

// TestSparseIDsWarning: ids that leave most vertices isolated are read
// as ids, as before, with a warning that names --labels.
func TestSparseIDsWarning(t *testing.T) {
	runCases(t, []cliCase{
		{name: "warns", stdin: "1 5\n5 9\n", args: []string{"diameter", "-"}, exactOut: "inf\n",
			stderr: []string{"apsp: warning: stdin: 7 of the 10 vertices have no edge", "--labels"}},
		{name: "labels", stdin: "1 5\n5 9\n", args: []string{"diameter", "--labels", "-"}, exactOut: "2\n"},
		{name: "networkx data", stdin: "0 1 {'weight': 4}\n1 2 {'weight': 3}\n", args: []string{"diameter", "-"}, exactOut: "7\n"},
		{name: "networkx weight key", stdin: "0 1 {'weight': 4, 'w': 1}\n1 2 {'w': 2}\n", args: []string{"diameter", "--weight-key", "w", "-"}, exactOut: "3\n"},
		{name: "csv columns", stdin: "a,b,c\nx,y,5\n", args: []string{"diameter", "--csv", "--source", "b", "--target", "a", "--weight", "c", "-"}, exactOut: "5\n"},
		{name: "csv and format", stdin: "", args: []string{"diameter", "--csv", "--format", "mtx", "-"}, code: 2, stderr: []string{"--csv and --format mtx"}},
	}, nil)
}

// TestHarmonicAndModes: apsp harmonic and --mode on a directed path
// a → b → c, by name.
func TestHarmonicAndModes(t *testing.T) {
	el := filepath.Join(t.TempDir(), "p.txt")
	if err := os.WriteFile(el, []byte("a b\nb c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := []string{"--labels", "--directed", el}
	with := func(args ...string) []string { return append(args, in...) }
	runCases(t, []cliCase{
		{name: "harmonic", args: with("harmonic"), exactOut: "a 0\nb 1\nc 1.5\n"},
		{name: "harmonic in", args: with("harmonic", "--mode", "in"), exactOut: "a 0\nb 1\nc 1.5\n"},
		{name: "harmonic out", args: with("harmonic", "--mode", "out"), exactOut: "a 1.5\nb 1\nc 0\n"},
		{name: "harmonic all", args: with("harmonic", "--mode", "all"), exactOut: "a 1.5\nb 2\nc 1.5\n"},
		{name: "harmonic json", args: with("harmonic", "--json"), stdout: []string{`"harmonic": 1.5`, `"vertex": "c"`}},
		{name: "closeness out", args: with("closeness", "--mode", "out", "--wf-improved=false"), exactOut: "a 0.6666666666666666\nb 1\nc 0\n"},
		{name: "ecc", args: with("ecc"), exactOut: "a 2\nb inf\nc inf\n"},
		{name: "ecc in", args: with("ecc", "--mode", "in"), exactOut: "a inf\nb inf\nc 2\n"},
		{name: "ecc all", args: with("ecc", "--mode", "all"), exactOut: "a 2\nb 1\nc 2\n"},
		{name: "stats all", args: with("stats", "--mode", "all"), stdout: []string{"center           b\n", "periphery        a c\n"}},
		{name: "stats in reachable", args: with("stats", "--mode", "in", "--reachable"), stdout: []string{"center              a\n", "periphery           c\n"}},
		{name: "bad mode", args: with("harmonic", "--mode", "both"), code: exitUsage, stderr: []string{"--mode"}},
		{name: "effective", args: with("stats", "--effective", "0.5"), stdout: []string{"effective diameter  1 (0.5 of the pairs with a path; interpolated as SNAP: 0)\n"}},
		{name: "effective json", args: with("stats", "--json", "--effective", "0.5"), stdout: []string{`"effective_diameter": 1,`, `"effective_diameter_interpolated": 0`}},
		{name: "effective no-aspl", args: with("stats", "--no-aspl", "--effective", "0.5"), code: exitUsage, stderr: []string{"--effective"}},
		{name: "dist no mode", args: with("dist", "--mode", "in"), code: exitUsage},
	}, nil)
}

// TestSources: --sources by name or from a file, for dist (a labelled
// table of the sources' rows), ecc, closeness and harmonic, in a mode;
// engines that search every source are refused.
func TestSources(t *testing.T) {
	dir := t.TempDir()
	el := filepath.Join(dir, "p.txt")
	if err := os.WriteFile(el, []byte("a b\nb c\nc d\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(list, []byte("d\n# a comment\na\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := []string{"--labels", "--directed", el}
	with := func(args ...string) []string { return append(args, in...) }
	runCases(t, []cliCase{
		{name: "dist", args: with("dist", "--sources", "c,a"), exactOut: "\ta\tb\tc\td\nc\tinf\tinf\t0\t1\na\t0\t1\t2\t3\n"},
		{name: "dist in", args: with("dist", "--sources", "c", "--mode", "in"), exactOut: "\ta\tb\tc\td\nc\t2\t1\t0\tinf\n"},
		{name: "dist targets", args: with("dist", "--targets", "d,a"), exactOut: "\td\ta\na\t3\t0\nb\t2\tinf\nc\t1\tinf\nd\t0\tinf\n"},
		{name: "dist sources targets", args: with("dist", "--sources", "b,a", "--targets", "d"), exactOut: "\td\nb\t2\na\t3\n"},
		{name: "dist more targets", args: with("dist", "--sources", "b", "--targets", "d,a,c"), exactOut: "\td\ta\tc\nb\t2\tinf\t1\n"},
		{name: "dist targets in", args: with("dist", "--targets", "a", "--mode", "in"), exactOut: "\ta\na\t0\nb\t1\nc\t2\nd\t3\n"},
		{name: "hist sources", args: with("hist", "--csv", "--sources", "a,b"), exactOut: "distance,pairs\n1,2\n2,2\n3,1\ninf,1\n"},
		{name: "hist sources targets", args: with("hist", "--csv", "--sources", "a,b", "--targets", "b,d"), exactOut: "distance,pairs\n1,1\n2,1\n3,1\ninf,0\n"},
		{name: "hist targets in", args: with("hist", "--csv", "--targets", "a", "--mode", "in"), exactOut: "distance,pairs\n1,1\n2,1\n3,1\ninf,0\n"},
		{name: "dist targets unknown", args: with("dist", "--targets", "z"), code: 1, stderr: []string{`--targets`, `no vertex is named "z"`}},
		{name: "dist targets no file", args: with("dist", "--targets", "@"+filepath.Join(dir, "none")), code: 1, stderr: []string{"--targets: open "}},
		{name: "sources no file", args: with("ecc", "--sources", "@"+filepath.Join(dir, "none")), code: 1, stderr: []string{"--sources: open "}},
		{name: "ecc", args: with("ecc", "--sources", "@"+list), exactOut: "d inf\na 3\n"},
		{name: "ecc in", args: with("ecc", "--sources", "d", "--mode", "in"), exactOut: "d 3\n"},
		{name: "harmonic", args: with("harmonic", "--sources", "d,b"), exactOut: "d 1.8333333333333333\nb 1\n"},
		{name: "closeness json", args: with("closeness", "--json", "--sources", "b"), stdout: []string{`"vertex": "b"`}},
		{name: "unknown", args: with("ecc", "--sources", "z"), code: 1, stderr: []string{`no vertex is named "z"`}},
		{name: "top", args: with("harmonic", "--top", "2"), exactOut: "d 1.8333333333333333\nc 1.5\n"},
		{name: "top of sources", args: with("harmonic", "--sources", "b,c,a", "--top", "5"), exactOut: "c 1.5\nb 1\na 0\n"},
		{name: "top ties", args: with("closeness", "--mode", "all", "--top", "2", "--wf-improved=false"), exactOut: "b 0.75\nc 0.75\n"},
		{name: "top negative", args: with("harmonic", "--top", "-1"), code: exitUsage},
		{name: "bitbfs", args: with("ecc", "--algo", "bitbfs", "--sources", "c,a,c"), exactOut: "c inf\na 3\nc inf\n"},
		{name: "bitbfs dist", args: with("dist", "--algo", "bitbfs", "--sources", "c,a", "--mode", "all"), exactOut: "\ta\tb\tc\td\nc\t2\t1\t0\t1\na\t0\t1\t2\t3\n"},
		{name: "blocked", args: with("ecc", "--algo", "blocked", "--sources", "a"), code: exitUsage, stderr: []string{"bfs, bitbfs, dijkstra, johnson or gpu-sssp"}},
		{name: "explain sources", args: with("ecc", "--explain", "--sources", "a,b"), exactOut: "a 3\nb inf\n", stderr: []string{"blocked", "not used: it searches every source, not chosen ones"}},
		{name: "explain dist sources", args: with("dist", "--explain", "--sources", "a"), stderr: []string{"not used: it searches every source, not chosen ones"}},
	}, nil)
	// An origin–destination .npy, its rows' and columns' vertices beside it.
	for _, tc := range []struct {
		args  []string
		shape string
		names string
		data  []byte
	}{
		{[]string{"--sources", "c"}, "(1, 4)", `{"sources":["c"],"targets":["a","b","c","d"]}`, []byte{255, 255, 0, 1}},
		{[]string{"--sources", "b,a", "--targets", "d"}, "(2, 1)", `{"sources":["b","a"],"targets":["d"]}`, []byte{2, 3}},
		{[]string{"--targets", "a"}, "(4, 1)", `{"sources":["a","b","c","d"],"targets":["a"]}`, []byte{0, 255, 255, 255}},
	} {
		npyPath := filepath.Join(dir, "od.npy")
		if code, _, errs := run(t, "", with(append([]string{"dist", "-o", npyPath}, tc.args...)...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		b, err := os.ReadFile(npyPath)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "'shape': "+tc.shape) || !strings.HasSuffix(string(b), string(tc.data)) {
			t.Fatalf("%v: .npy %q, want shape %s and data %v", tc.args, b, tc.shape, tc.data)
		}
		names, err := os.ReadFile(filepath.Join(dir, "od.names.json"))
		if err != nil || strings.TrimSpace(string(names)) != tc.names {
			t.Fatalf("%v: names %s (%v), want %s", tc.args, names, err, tc.names)
		}
	}
	// stats --sample: estimates marked ≈ and ≥ (exact infinities on a
	// graph that is not connected), every source the exact ASPL.
	runCases(t, []cliCase{
		{name: "sample", args: []string{"stats", "--sample", "5", "../../testdata/karate.txt"}, stdout: []string{"aspl       ≈ ", "5 of 34 sources sampled, seed 1)", "diameter   ≥ "}},
		{name: "sample all", args: []string{"stats", "--sample", "34", "--json", "../../testdata/karate.txt"}, stdout: []string{`"value": 2.408199643493761`, `"estimate": true`, `"diameter_lower_bound": 5`}},
		{name: "sample directed", args: with("stats", "--sample", "2"), stdout: []string{"inf (exact: not connected)"}},
		{name: "closeness sample", args: []string{"closeness", "--sample", "34", "../../testdata/karate.txt"}, stdout: []string{"0 ≈ 0.5689655172413793 (95 % 0.5689655172413793..0.5689655172413793)\n"}},
		{name: "closeness sample json", args: []string{"closeness", "--json", "--sample", "5", "--seed", "2", "../../testdata/karate.txt"}, stdout: []string{`"estimate": true`, `"ci95_low": `}},
		{name: "closeness sample top", args: []string{"closeness", "--sample", "5", "--top", "3", "../../testdata/karate.txt"}, code: exitUsage},
		{name: "sample effective", args: []string{"stats", "--sample", "5", "--effective", "0.9", "../../testdata/karate.txt"}, code: exitUsage},
		{name: "sample bitbfs", args: []string{"stats", "--sample", "34", "--algo", "bitbfs", "../../testdata/karate.txt"}, stdout: []string{"aspl       ≈ 2.408199643493761 ", "algorithm  bitbfs"}},
		{name: "sample blocked", args: []string{"stats", "--sample", "5", "--algo", "blocked", "../../testdata/karate.txt"}, code: exitUsage},
	}, nil)
	// Ids in the file's numbering: .mtx counts from 1.
	runCases(t, []cliCase{
		{name: "ids one-based", args: []string{"ecc", "--sources", "1", "../../testdata/small.mtx"}, stdout: []string{"1 "}},
		{name: "id zero", args: []string{"ecc", "--sources", "0", "../../testdata/small.mtx"}, code: exitUsage, stderr: []string{"out of range 1.."}},
	}, nil)
}
