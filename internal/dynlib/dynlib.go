package dynlib

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ebitengine/purego"
)

// Spec says where a library may be: the file the environment variable Env
// names, when it is set; else the first of Names found in Dirs, each name
// in every directory before the next name (Candidates).
type Spec struct {
	Env   string   // names the file directly, e.g. APSP_LIBCUDA
	Names []string // file names, the one wanted most first
	Dirs  []string // directories searched, in order
}

// Candidates returns the paths Find tries, in order, when Env is not set.
func (s Spec) Candidates() []string {
	var paths []string
	for _, n := range s.Names {
		for _, d := range s.Dirs {
			paths = append(paths, filepath.Join(d, n))
		}
	}
	return paths
}

// Find returns the path of the library: $Env when it is set (an error if
// no such file exists), else the first of Candidates that exists. The
// error is a *NotFoundError.
func (s Spec) Find() (string, error) {
	if p := os.Getenv(s.Env); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", &NotFoundError{Spec: s, Value: p, Err: err}
		}
		return p, nil
	}
	for _, p := range s.Candidates() {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", &NotFoundError{Spec: s}
}

// NotFoundError is Find's failure: the file $Env names is missing (Value
// is set, Err says why), or none of the candidates exists.
type NotFoundError struct {
	Spec  Spec
	Value string // $Env, when set
	Err   error  // why the file Value names is unusable
}

func (e *NotFoundError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("%s=%s: %v", e.Spec.Env, e.Value, e.Err)
	}
	names := "a library" // a Spec without names finds nothing
	switch n := len(e.Spec.Names); {
	case n == 1:
		names = e.Spec.Names[0]
	case n > 1:
		names = strings.Join(e.Spec.Names[:n-1], ", ") + " or " + e.Spec.Names[n-1]
	}
	return fmt.Sprintf("%s not found in %s (set %s)", names, strings.Join(e.Spec.Dirs, ", "), e.Spec.Env)
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// Lib is an open library. It stays open for the life of the process
// unless closed: the functions bound from it call into it.
type Lib struct {
	Path   string
	handle uintptr
}

// Open opens the library at path, resolving every symbol now and making
// them global (RTLD_NOW|RTLD_GLOBAL), as each binding always has.
func Open(path string) (*Lib, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("dlopen %s: %w", path, err)
	}
	return &Lib{Path: path, handle: h}, nil
}

// Open finds the library (Find) and opens it.
func (s Spec) Open() (*Lib, error) {
	path, err := s.Find()
	if err != nil {
		return nil, err
	}
	return Open(path)
}

// Load finds the library, opens it and binds syms. On a failure to bind,
// the library stays open (as a binding that fails leaves it).
func (s Spec) Load(syms ...Sym) (*Lib, error) {
	l, err := s.Open()
	if err != nil {
		return nil, err
	}
	if err := l.Bind(syms...); err != nil {
		return nil, err
	}
	return l, nil
}

// Close closes the library: nothing bound from it may be called after.
func (l *Lib) Close() error { return purego.Dlclose(l.handle) }

// Sym is a function to bind: Fn points to a variable of a Go func type
// that mirrors the C function (purego.RegisterFunc's rules), Name is the
// C symbol.
type Sym struct {
	Fn   any
	Name string
}

// Func is Sym{fn, name}, for tables of symbols.
func Func(fn any, name string) Sym { return Sym{Fn: fn, Name: name} }

// Bind binds syms in order and stops at the first that fails, with a
// *SymbolError: the library lacks it (an older version, another
// implementation), or Fn is not a function purego can call. Those bound
// before stay bound.
func (l *Lib) Bind(syms ...Sym) error {
	for _, s := range syms {
		if err := l.bind(s); err != nil {
			return err
		}
	}
	return nil
}

func (l *Lib) bind(s Sym) (err error) {
	addr, err := l.Addr(s.Name)
	if err != nil {
		return err
	}
	// RegisterFunc panics on a type it cannot call: an error naming the
	// symbol, not a crash.
	defer func() {
		if r := recover(); r != nil {
			err = &SymbolError{Path: l.Path, Name: s.Name, Err: fmt.Errorf("%v", r)}
		}
	}()
	purego.RegisterFunc(s.Fn, addr)
	return nil
}

// Addr returns the address of the symbol name (a function, or an object
// such as Open MPI's predefined handles); the error is a *SymbolError.
func (l *Lib) Addr(name string) (uintptr, error) {
	addr, err := purego.Dlsym(l.handle, name)
	if err != nil {
		return 0, &SymbolError{Path: l.Path, Name: name, Err: err}
	}
	return addr, nil
}

// SymbolError is a symbol that could not be bound.
type SymbolError struct {
	Path, Name string
	Err        error // dlsym's message, or why the function cannot be bound
}

// Error is the underlying message, itself when it names both the library
// and the symbol (glibc's dlerror: "PATH: undefined symbol: NAME"), else
// after them.
func (e *SymbolError) Error() string {
	msg := e.Err.Error()
	if strings.Contains(msg, e.Path) && hasWord(msg, e.Name) {
		return msg
	}
	return e.Path + ": " + e.Name + ": " + msg
}

func (e *SymbolError) Unwrap() error { return e.Err }

// hasWord reports whether s holds the identifier w, not as part of a
// longer one (cuInit is not in "cuInit2", nor f in "not a func").
func hasWord(s, w string) bool {
	ident := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for i := 0; w != ""; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !ident(s[j-1])) && (end == len(s) || !ident(s[end])) {
			return true
		}
		i = j + 1
	}
	return false
}
