package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputCheckedBeforeComputing is issue 32 item 5: dist -o and hist -o
// into a directory that does not exist computed everything and then failed
// to open the file. The output is now created first: the error names it
// even when the graph does not exist (so nothing was read, let alone
// computed), a failed computation leaves no file (nor a temporary one)
// behind and an existing file as it was, and a success writes the file
// with the permissions os.Create gives.
func TestOutputCheckedBeforeComputing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir")
	karate := "../../testdata/karate.txt"
	negCycle := filepath.Join(dir, "neg.txt") // an undirected negative edge is a negative cycle
	floats := filepath.Join(dir, "float.txt")
	for file, text := range map[string]string{negCycle: "0 1 -1\n1 2 1\n", floats: "0 1 0.5\n"} {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		args   []string
		stderr []string
	}{
		{"dist npy, no graph either", []string{"dist", "-o", filepath.Join(missing, "d.npy"), filepath.Join(dir, "none.txt")},
			[]string{"-o " + filepath.Join(missing, "d.npy") + ": cannot create: no such file or directory"}},
		{"dist tsv", []string{"dist", "-o", filepath.Join(missing, "d.tsv"), karate}, []string{"-o " + filepath.Join(missing, "d.tsv") + ": cannot create"}},
		{"hist png, no graph either", []string{"hist", "-o", filepath.Join(missing, "x.png"), filepath.Join(dir, "none.txt")},
			[]string{"-o " + filepath.Join(missing, "x.png") + ": cannot create"}},
		{"gen", []string{"gen", "path", "n=5", "-o", filepath.Join(missing, "p.txt")}, []string{"cannot create"}},
		{"a directory", []string{"dist", "-o", dir, karate}, []string{"-o " + dir + ": is a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, "", tc.args...)
			if code != 1 {
				t.Fatalf("exit %d, want 1: %s", code, errs)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q: %s", want, errs)
				}
			}
		})
	}

	keep := filepath.Join(dir, "keep.npy")
	if err := os.WriteFile(keep, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
		args      []string
		stderr    string
	}{
		{"dist negative cycle", "d.npy", []string{"dist", negCycle}, "negative cycle"},
		{"dist tsv negative cycle", "d.tsv", []string{"dist", negCycle}, "negative cycle"},
		{"hist negative weights", "x.png", []string{"hist", negCycle}, "non-negative"},
		{"dist dtype refused", "f.npy", []string{"dist", "--dtype", "int32", floats}, "cannot write int32"},
		{"existing file kept", "keep.npy", []string{"dist", negCycle}, "negative cycle"},
	} {
		t.Run("failure leaves nothing: "+tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.out)
			code, _, errs := run(t, "", append(tc.args, "-o", out)...)
			if code != 1 || !strings.Contains(errs, tc.stderr) {
				t.Fatalf("exit %d, stderr %q, want 1 and %q", code, errs, tc.stderr)
			}
			b, err := os.ReadFile(out)
			switch {
			case tc.out == "keep.npy" && (err != nil || string(b) != "old"):
				t.Errorf("the existing file became %q (%v)", b, err)
			case tc.out != "keep.npy" && !os.IsNotExist(err):
				t.Errorf("%s left behind: %v", tc.out, err)
			}
			noTemporaries(t, dir)
		})
	}

	// Success: the file in place with os.Create's permissions, and an
	// existing file replaced keeping its own.
	ref := filepath.Join(dir, "ref")
	f, err := os.Create(ref)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, _ := os.Stat(ref)
	for _, tc := range []struct {
		out  string
		args []string
		perm os.FileMode
	}{
		{"karate.npy", []string{"dist", karate}, want.Mode().Perm()},
		{"karate.tsv", []string{"dist", karate}, want.Mode().Perm()},
		{"karate.png", []string{"hist", karate}, want.Mode().Perm()},
		{"keep.npy", []string{"dist", karate}, 0o600},
	} {
		t.Run("success "+tc.out, func(t *testing.T) {
			out := filepath.Join(dir, tc.out)
			if code, _, errs := run(t, "", append(tc.args, "-o", out)...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			fi, err := os.Stat(out)
			if err != nil || fi.Size() < 100 || fi.Mode().Perm() != tc.perm {
				t.Fatalf("%s: %v, %v, want a file of mode %v", tc.out, fi, err, tc.perm)
			}
			noTemporaries(t, dir)
		})
	}
	// A device is written as it is.
	if code, _, errs := run(t, "", "dist", "-o", os.DevNull, karate); code != 0 {
		t.Fatalf("-o %s: exit %d: %s", os.DevNull, code, errs)
	}
}

// noTemporaries fails when dir holds a temporary output file.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}
