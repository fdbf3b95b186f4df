package dynlib

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCandidates(t *testing.T) {
	s := Spec{Env: "APSP_TEST_LIB", Names: []string{"liba.so.2", "liba.so"}, Dirs: []string{"/x", "/y/lib"}}
	want := []string{"/x/liba.so.2", "/y/lib/liba.so.2", "/x/liba.so", "/y/lib/liba.so"}
	if got := s.Candidates(); !slices.Equal(got, want) {
		t.Fatalf("Candidates() = %v, want %v: every directory for a name before the next name", got, want)
	}
}

func TestFind(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	touch := func(p string) string {
		t.Helper()
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lib2 := touch(filepath.Join(dir, "libfake.so.2"))
	lib := touch(filepath.Join(other, "libfake.so"))
	gone := filepath.Join(dir, "gone.so")
	tests := []struct {
		name    string
		env     string
		names   []string
		dirs    []string
		want    string
		wantErr []string
	}{
		{"found in a later dir", "", []string{"libfake.so.1", "libfake.so.2"}, []string{"/nonexistent", dir}, lib2, nil},
		{"the first name wins over the first dir", "", []string{"libfake.so.2", "libfake.so"}, []string{other, dir}, lib2, nil},
		{"a later name when the first is nowhere", "", []string{"libfake.so.3", "libfake.so"}, []string{dir, other}, lib, nil},
		{"missing", "", []string{"libnope.so"}, []string{dir}, "", []string{"libnope.so not found in " + dir + " (set APSP_TEST_LIB)"}},
		{"missing, every name and dir said", "", []string{"libnope.so.1", "libnope.so.0", "libnope.so"}, []string{dir, other},
			"", []string{"libnope.so.1, libnope.so.0 or libnope.so not found in " + dir + ", " + other + " (set APSP_TEST_LIB)"}},
		{"env names the file", lib, []string{"libfake.so.2"}, []string{dir}, lib, nil},
		{"env names a missing file", gone, []string{"libfake.so.2"}, []string{dir}, "", []string{"APSP_TEST_LIB=" + gone + ": ", "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("APSP_TEST_LIB", tt.env)
			s := Spec{Env: "APSP_TEST_LIB", Names: tt.names, Dirs: tt.dirs}
			got, err := s.Find()
			if tt.wantErr == nil {
				if err != nil || got != tt.want {
					t.Fatalf("got %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var nf *NotFoundError
			if !errors.As(err, &nf) || got != "" {
				t.Fatalf("got %q, %v; want a *NotFoundError", got, err)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if (tt.env != "") != errors.Is(err, fs.ErrNotExist) {
				t.Errorf("errors.Is(%v, fs.ErrNotExist) = %v", err, !(tt.env != ""))
			}
		})
	}
}

// libm finds the C maths library, a library that is on every Linux
// machine, or skips.
func libm(t *testing.T) string {
	t.Helper()
	p, err := Spec{Env: "APSP_TEST_LIBM", Names: []string{"libm.so.6"},
		Dirs: []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"}}.Find()
	if err != nil {
		t.Skip("no C maths library to stand in for a native library:", err)
	}
	return p
}

// TestOpen: a missing file and a file that is not a library are errors
// naming the path, never a panic.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	notELF := filepath.Join(dir, "libnot.so.1")
	if err := os.WriteFile(notELF, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "gone.so"), notELF} {
		if l, err := Open(p); l != nil || err == nil || !strings.HasPrefix(err.Error(), "dlopen "+p+": ") {
			t.Errorf("Open(%s) = %v, %v; want an error naming dlopen and the path", p, l, err)
		}
	}
	t.Setenv("APSP_TEST_LIB", notELF)
	if _, err := (Spec{Env: "APSP_TEST_LIB", Names: []string{"libnot.so.1"}}).Load(); err == nil || !strings.Contains(err.Error(), "dlopen") {
		t.Errorf("Spec.Load of a file that is not a library: %v", err)
	}
	t.Setenv("APSP_TEST_LIB", "")
	var nf *NotFoundError
	if _, err := (Spec{Env: "APSP_TEST_LIB", Names: []string{"libnot.so.1"}, Dirs: []string{"/nonexistent"}}).Load(); !errors.As(err, &nf) {
		t.Errorf("Spec.Load of no library: %v, want a *NotFoundError", err)
	}
}

// TestBind binds functions of the C maths library and calls them; a
// missing symbol and a Go type purego cannot call are errors naming the
// symbol and the library.
func TestBind(t *testing.T) {
	path := libm(t)
	t.Setenv("APSP_TEST_LIBM", path)
	var sqrt, floor func(float64) float64
	l, err := Spec{Env: "APSP_TEST_LIBM", Names: []string{"libm.so.6"}}.Load(Func(&sqrt, "sqrt"), Sym{Fn: &floor, Name: "floor"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Path != path {
		t.Errorf("Path %q, want %q", l.Path, path)
	}
	if sqrt(9) != 3 || floor(2.5) != 2 {
		t.Errorf("sqrt(9) = %v, floor(2.5) = %v", sqrt(9), floor(2.5))
	}
	if a, err := l.Addr("cos"); err != nil || a == 0 {
		t.Errorf("Addr(cos) = %#x, %v", a, err)
	}

	var missing func() int32
	var notFunc int
	var se *SymbolError
	for _, tt := range []struct {
		what string
		err  error
		name string
	}{
		{"a missing function", l.Bind(Func(&sqrt, "sqrt"), Func(&missing, "apsp_no_such_symbol"), Func(&floor, "floor")), "apsp_no_such_symbol"},
		{"a Go type that is no function", l.Bind(Func(&notFunc, "sqrt")), "sqrt"},
		{"a missing object", func() error { _, err := l.Addr("apsp_no_such_object"); return err }(), "apsp_no_such_object"},
	} {
		if !errors.As(tt.err, &se) || se.Name != tt.name || se.Path != path ||
			!strings.Contains(tt.err.Error(), tt.name) || !strings.Contains(tt.err.Error(), path) {
			t.Errorf("%s: %v, want a *SymbolError naming %s and %s", tt.what, tt.err, tt.name, path)
		}
	}
	if missing != nil {
		t.Error("a missing symbol left its variable bound")
	}
	if _, err := (Spec{Env: "APSP_TEST_LIBM"}).Load(Func(&missing, "apsp_no_such_symbol")); !errors.As(err, &se) {
		t.Errorf("Spec.Load with a missing symbol: %v", err)
	}
}

// TestSymbolErrorMessage: the message names the library and the symbol
// (a whole identifier), before the underlying message unless it says both.
func TestSymbolErrorMessage(t *testing.T) {
	for _, tt := range []struct{ msg, want string }{
		{"/l/libx.so: undefined symbol: f", "/l/libx.so: undefined symbol: f"},
		{"Symbol not found: f", "/l/libx.so: f: Symbol not found: f"},
		{"not a func", "/l/libx.so: f: not a func"},
		{"/l/libx.so: undefined symbol: f2", "/l/libx.so: f: /l/libx.so: undefined symbol: f2"},
		{"/l/libx.so: undefined symbol: _f", "/l/libx.so: f: /l/libx.so: undefined symbol: _f"},
		{"/l/libx.so: f(): no", "/l/libx.so: f(): no"},
	} {
		if got := (&SymbolError{Path: "/l/libx.so", Name: "f", Err: errors.New(tt.msg)}).Error(); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.msg, got, tt.want)
		}
	}
}
