package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryEngineRegistered: an engine or batch engine written in this
// package but left out of All or Batches would never be chosen, and no
// other test would notice. Every type with the methods that make an
// Engine (Estimate) or a BatchEngine (Stream) must be listed.
func TestEveryEngineRegistered(t *testing.T) {
	written := methodReceivers(t, map[string]string{"Estimate": "Engine", "Stream": "BatchEngine"})
	listed := map[string]bool{}
	for _, e := range All() {
		listed[typeName(e)] = true
	}
	for _, e := range Batches() {
		listed[typeName(e)] = true
	}
	if len(written) < 8 {
		t.Fatalf("found %d engine types: the scan is broken", len(written))
	}
	for typ, kind := range written {
		if !listed[typ] {
			t.Errorf("%s %s is written but not registered (add it to All or Batches)", kind, typ)
		}
	}
}

// typeName is the name of v's type without package or pointer.
func typeName(v any) string {
	s := strings.TrimPrefix(fmt.Sprintf("%T", v), "*")
	return s[strings.LastIndex(s, ".")+1:]
}

// methodReceivers returns the receiver type of every method of this
// package's non-test files whose name is a key of kinds, with its kind.
func methodReceivers(t *testing.T, kinds map[string]string) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || kinds[fn.Name.Name] == "" {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				found[id.Name] = kinds[fn.Name.Name]
			}
		}
	}
	return found
}
