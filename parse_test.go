package apsp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionsParsedOnce: an entry point parses its Options once (one call
// of Options.parse), an Evaluator's calls never (NewEvaluator did), and
// below the facade nothing reads an option string again: the parsers of
// device, lane and engine names are called only by plan.Parse and by the
// public ParseDevice, and by the command line for its own flags.
func TestOptionsParsedOnce(t *testing.T) {
	fset := token.NewFileSet()
	parsers := map[string]bool{"ParseDevice": true, "ParseKind": true, "ByName": true, "Parse": true}
	allowed := map[string]bool{
		"internal/plan/options.go:Parse":    true, // the one parser
		"devices.go:ParseDevice":            true, // the public device parser, for callers
		"devices.go:WarmUp":                 true, // the device alone
		"api.go:parse":                      true, // Options.parse is plan.Parse
		"api.go:parseFor":                   true, // parse after the graph's check
		"internal/plan/options.go:Validate": true, // Parse for a caller that only checks
	}
	entryPoints := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch path {
			case "internal/cli", "cmd", "tools", "examples", "testdata", "c2cu", "internal/c2curun", "graph":
				return filepath.SkipDir // programs, and parsers of other things
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		root := filepath.Dir(path) == "."
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			where := path + ":" + fn.Name.Name
			parses := 0
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name := ""
				switch f := call.Fun.(type) {
				case *ast.SelectorExpr:
					name = f.Sel.Name
				case *ast.Ident:
					name = f.Name
				}
				if strings.HasPrefix(name, "parse") && root { // parse, parseFor
					parses++
				}
				if parsers[name] && !allowed[where] {
					t.Errorf("%s calls %s: options are parsed once, by plan.Parse", where, name)
				}
				return true
			})
			if !root {
				continue
			}
			if parses > 1 {
				t.Errorf("%s parses its options %d times", where, parses)
			}
			if parses == 1 {
				entryPoints++
			}
			if recv := receiver(fn); recv == "Evaluator" && fn.Name.Name != "NewEvaluator" && parses > 0 {
				t.Errorf("%s parses options an Evaluator parsed when it was made", where)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if entryPoints < 10 {
		t.Fatalf("found %d entry points that parse: the scan is broken", entryPoints)
	}
}

// receiver is the name of fn's receiver type, or "".
func receiver(fn *ast.FuncDecl) string {
	if fn.Recv == nil {
		return ""
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
