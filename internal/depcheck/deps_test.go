package depcheck

import (
	"bufio"
	"errors"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The rules. A pattern names packages by their path inside the module:
// "." is the root package (github.com/apsp/apsp), "graph" is
// github.com/apsp/apsp/graph, "x/..." is x and every package below it, and
// "..." is every package. A rule says that no package of From (but those of
// Except) depends on a package of Never, directly or through other
// packages of the module. Only the imports of non-test files count, on
// every platform and build tag (tests may import whatever they compare
// against); a file tagged ignore (a generator) is a program of its own
// and does not count.
type rule struct {
	Why    string
	From   []string
	Except []string
	Never  []string
	// Direct counts only the imports of From's own files: the package
	// may reach Never through others (the facade through plan, run and
	// engine), never by naming it.
	Direct bool
}

// The package groups the rules speak of.
var (
	// cpuEngines compute on the CPU.
	cpuEngines = []string{
		"internal/cpu/...", "internal/bfs/...", "internal/bounds/...",
		"internal/dijkstra/...", "internal/minplus/...", "internal/engine/cpu...",
	}
	// gpuPackages drive a GPU: the CUDA binding, the GPU runtime and
	// kernels, and the C2CU runner.
	gpuPackages = []string{"internal/cuda/...", "internal/gpu/...", "internal/c2curun/..."}
	// programs are what is not the library: the command line and the
	// commands and tools built on it.
	programs = []string{"internal/cli/...", "cmd/...", "tools/...", "examples/..."}
	// engineFamilies are the code that answers, below internal/engine:
	// the CPU and GPU engines, the bindings and the distributed runs.
	engineFamilies = append(append([]string{"internal/comm/mpi", "internal/comm/nccl", "internal/distributed/..."},
		cpuEngines...), gpuPackages...)
	// gpuFamilies are the GPU algorithms, each a package over the shared
	// base internal/gpu (devices, placements, kernel loading and sources)
	// and the runtime internal/gpu/runtime.
	gpuFamilies = []string{"internal/gpu/fw", "internal/gpu/bitbfs", "internal/gpu/sssp", "internal/gpu/bulk", "internal/gpu/minplus"}
)

// otherFamilies is gpuFamilies but family.
func otherFamilies(family string) []string {
	return slices.DeleteFunc(slices.Clone(gpuFamilies), func(f string) bool { return f == family })
}

// gpuFamilyWhy is the reason of the rules between GPU families.
const gpuFamilyWhy = "a GPU family never depends on another: what two families share goes to the base internal/gpu"

var rules = []rule{
	{
		Why: "the root package is the facade and decides nothing: it reaches the engines, the GPU, the bounds method " +
			"and the distributed runs only through internal/plan, internal/run and internal/engine",
		From:   []string{"."},
		Never:  append([]string{"internal/comm"}, engineFamilies...),
		Direct: true,
	},
	{
		Why:    "the executor follows plans and engine capabilities: it reaches engine code only through internal/engine",
		From:   []string{"internal/run"},
		Never:  engineFamilies,
		Direct: true,
	},
	{
		Why:    "internal packages serve the root package, never the reverse: only the CLI and the service use the public API",
		From:   []string{"internal/..."},
		Except: []string{"internal/cli/...", "internal/serve/..."},
		Never:  []string{"."},
	},
	{
		Why:   "CPU engines never depend on GPU packages (what both need goes below both, e.g. internal/reduce, internal/lanes)",
		From:  cpuEngines,
		Never: gpuPackages,
	},
	{
		Why:   "GPU packages never depend on CPU engines (what both need goes below both, e.g. internal/reduce, internal/lanes)",
		From:  gpuPackages,
		Never: cpuEngines,
	},
	{
		Why:   "the GPU base (devices, placements, kernel loading and sources) and the GPU runtime sit below the GPU families and never reach up into one",
		From:  []string{"internal/gpu", "internal/gpu/runtime"},
		Never: gpuFamilies,
	},
	{Why: gpuFamilyWhy, From: []string{"internal/gpu/fw"}, Never: otherFamilies("internal/gpu/fw")},
	{Why: gpuFamilyWhy, From: []string{"internal/gpu/bitbfs"}, Never: otherFamilies("internal/gpu/bitbfs")},
	{Why: gpuFamilyWhy, From: []string{"internal/gpu/sssp"}, Never: otherFamilies("internal/gpu/sssp")},
	{Why: gpuFamilyWhy, From: []string{"internal/gpu/bulk"}, Never: otherFamilies("internal/gpu/bulk")},
	{Why: gpuFamilyWhy, From: []string{"internal/gpu/minplus"}, Never: otherFamilies("internal/gpu/minplus")},
	{
		Why:   "the distribution, its schedule and the communicator interface sit below both CPU and GPU engines (the GPU executor and the MPI/NCCL bindings import them, not the reverse)",
		From:  []string{"internal/distributed/...", "internal/comm"},
		Never: append(append([]string{"internal/comm/nccl", "internal/comm/mpi"}, cpuEngines...), gpuPackages...),
	},
	{
		Why:   "the native loader (libcuda, NVRTC, Open MPI, NCCL) imports nothing of the module, so that every binding can use it",
		From:  []string{"internal/dynlib"},
		Never: []string{"..."},
	},
	{
		Why:   "the CUDA binding knows nothing of graphs",
		From:  []string{"internal/cuda/..."},
		Never: []string{"graph/..."},
	},
	{
		Why:   "C2CU stands apart from the graph code (GUIDE.md): it translates C, whatever the C computes",
		From:  []string{"c2cu/...", "internal/c2curun/..."},
		Never: []string{".", "graph/..."},
	},
	{
		Why:    "the shared test graphs and their known answers are for tests only (internal/testgraphs)",
		From:   []string{"..."},
		Except: []string{"internal/testgraphs"},
		Never:  []string{"internal/testgraphs"},
	},
	{
		Why:    "the Graph Golf toolkit is a user of the public API: it names the root package, graph and graph/gen, never an engine, plan or run",
		From:   []string{"golf/..."},
		Never:  []string{"internal/..."},
		Direct: true,
	},
	{
		Why:    "the library never depends on the command line",
		From:   []string{"..."},
		Except: programs,
		Never:  []string{"internal/cli/..."},
	},
}

// allowedModules are the only modules besides the standard library that
// any file of apsp, tests included, may import, and the only ones go.mod
// may require.
var allowedModules = []string{
	"github.com/ebitengine/purego", // the CUDA driver without cgo
	"golang.org/x/sys",             // CPU features, system calls
	"gonum.org/v1/plot",            // the hop plot (apsp hist -o), BSD-3
	// What gonum/plot needs, required by go.mod only (never imported):
	"golang.org/x/image",               // fonts and raster images, BSD-3
	"golang.org/x/text",                // BSD-3
	"codeberg.org/go-fonts/liberation", // the plot's fonts: BSD-3, the fonts SIL OFL 1.1
	"codeberg.org/go-latex/latex",      // text layout, BSD-3
	"codeberg.org/go-pdf/fpdf",         // PDF, MIT
	"git.sr.ht/~sbinet/gg",             // PNG drawing, MIT
	"github.com/ajstarks/svgo",         // SVG, CC-BY-4.0
	"github.com/golang/freetype",       // glyph rasterizing, FreeType licence (or GPLv2)
	// The HTTP service's metrics (apsp serve --http), Apache-2.0, and
	// what it needs, required by go.mod only (never imported):
	"github.com/prometheus/client_golang",
	"github.com/prometheus/client_model", // Apache-2.0
	"github.com/prometheus/common",       // Apache-2.0
	"github.com/prometheus/procfs",       // Apache-2.0
	"github.com/beorn7/perks",            // MIT
	"github.com/cespare/xxhash/v2",       // MIT
	"github.com/munnerz/goautoneg",       // BSD-3
	"github.com/kr/text",                 // MIT
	"go.yaml.in/yaml/v2",                 // Apache-2.0, MIT
	"google.golang.org/protobuf",         // BSD-3
}

// moduleUsers names, for an allowed module that only one corner of apsp
// needs, the packages that may import it, so that the dependency stays
// there.
var moduleUsers = map[string][]string{
	"gonum.org/v1/plot":                   {"internal/hopplot"},
	"github.com/prometheus/client_golang": {"internal/serve"},
}

// exception is one import edge a rule tolerates for now: From imports To
// (paths inside the module, as in the rules) until the issue named in Why
// is done. An exception whose import no longer exists fails the test, so
// that it is deleted when the work lands.
type exception struct {
	From, To string
	Why      string
}

var exceptions = []exception{
	// None today. For example:
	// {From: "internal/gpu", To: "internal/cpu", Why: "issue 9: lanes move to internal/lanes"},
}

// pkgInfo is a package of the module: its imports from non-test files and
// from test files, each with the file that first imports it. Imports of
// the module's own packages are written as in the rules.
type pkgInfo struct {
	imports, testImports map[string]string
}

// tree is the module as scanned: its directory, path and packages.
type tree struct {
	root, mod string
	pkgs      map[string]*pkgInfo
}

// load scans the module once for all the tests.
var load = sync.OnceValues(func() (*tree, error) {
	root, mod, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	pkgs, err := scan(root, mod)
	if err != nil {
		return nil, err
	}
	if len(pkgs) < 10 || pkgs["."] == nil || pkgs["graph"] == nil {
		return nil, fmt.Errorf("found %d packages under %s: the scan is broken", len(pkgs), root)
	}
	return &tree{root, mod, pkgs}, nil
})

func loadTree(t *testing.T) *tree {
	t.Helper()
	tr, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestRules checks every rule and exception against the module's import
// graph and reports each import that breaks a rule, with the chain of
// imports that leads to it.
func TestRules(t *testing.T) {
	tr := loadTree(t)
	for _, msg := range check(tr.pkgs, rules, exceptions, tr.show) {
		t.Error(msg)
	}
}

// check returns a message for each import that breaks one of rules (each
// import into a forbidden package, once, with the packages of the rule's
// From that come to depend on the forbidden one through it) and for each
// exception whose import no longer exists.
func check(pkgs map[string]*pkgInfo, rules []rule, exceptions []exception, show func(string) string) []string {
	var msgs []string
	excepted := map[[2]string]bool{}
	for _, e := range exceptions {
		if p := pkgs[e.From]; p == nil || p.imports[e.To] == "" {
			msgs = append(msgs, fmt.Sprintf("stale exception: %s no longer imports %s (%s): delete it", show(e.From), show(e.To), e.Why))
		}
		excepted[[2]string{e.From, e.To}] = true
	}
	// The module's own import edges, the exceptions left out.
	edges := map[string][]string{}
	for _, name := range sortedKeys(pkgs) {
		for _, imp := range sortedKeys(pkgs[name].imports) {
			if pkgs[imp] != nil && !excepted[[2]string{name, imp}] {
				edges[name] = append(edges[name], imp)
			}
		}
	}
	type edge struct{ from, to string }
	for _, r := range rules {
		broken := map[edge][]string{}
		chains := map[edge][]string{}
		for _, src := range sortedKeys(pkgs) {
			if !matchAny(r.From, src) || matchAny(r.Except, src) {
				continue
			}
			// Breadth first through the imports, so each chain is a
			// shortest one; a search stops at a forbidden package, which
			// is where it is reported.
			parent := map[string]string{src: ""}
			queue := []string{src}
			for len(queue) > 0 {
				u := queue[0]
				queue = queue[1:]
				for _, v := range edges[u] {
					if _, seen := parent[v]; seen {
						continue
					}
					parent[v] = u
					if !matchAny(r.Never, v) {
						if !r.Direct {
							queue = append(queue, v)
						}
						continue
					}
					e := edge{u, v}
					if broken[e] == nil {
						chains[e] = chain(parent, v)
					}
					broken[e] = append(broken[e], src)
				}
			}
		}
		for _, e := range sortedEdges(broken, func(e edge) string { return e.from + " " + e.to }) {
			msgs = append(msgs, fmt.Sprintf("import %s -> %s (in %s) breaks the rule: %s\n\tchain: %s\n\tpackages that depend on %s through it: %s",
				show(e.from), show(e.to), pkgs[e.from].imports[e.to], r.Why,
				strings.Join(mapSlice(chains[e], show), " -> "), show(e.to), strings.Join(mapSlice(broken[e], show), ", ")))
		}
	}
	return msgs
}

// TestModules checks that only the standard library, the module itself
// and allowedModules are imported, by any file, and that go.mod requires
// no other module.
func TestModules(t *testing.T) {
	tr := loadTree(t)
	pkgs := tr.pkgs
	for _, name := range sortedKeys(pkgs) {
		p := pkgs[name]
		for _, set := range []map[string]string{p.imports, p.testImports} {
			for _, imp := range sortedKeys(set) {
				if mod, users := moduleOf(imp); users != nil && !matchAny(users, name) {
					t.Errorf("%s imports %s (%s): only %v may use %s", tr.show(name), imp, set[imp], users, mod)
				}
				if pkgs[imp] != nil || isStd(imp) || allowedModule(imp) {
					continue
				}
				if strings.HasPrefix(imp, tr.mod+"/") {
					continue // a package of the module the scan skipped, such as testdata
				}
				t.Errorf("%s imports %s (%s), which is neither the standard library nor an allowed module %v",
					tr.show(name), imp, set[imp], allowedModules)
			}
		}
	}
	reqs, err := requires(filepath.Join(tr.root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range reqs {
		if !slices.Contains(allowedModules, req) {
			t.Errorf("go.mod requires %s, which is not an allowed module %v", req, allowedModules)
		}
	}
}

// moduleOf returns the module of moduleUsers that imp belongs to, and the
// packages that may import it; nil when imp is of no such module.
func moduleOf(imp string) (string, []string) {
	for mod, users := range moduleUsers {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			return mod, users
		}
	}
	return "", nil
}

// TestPatterns checks that every pattern of the rules names some package
// today or is one of the places the architecture reserves, so that a
// renamed package cannot leave a rule guarding nothing.
func TestPatterns(t *testing.T) {
	pkgs := loadTree(t).pkgs
	reserved := []string{"internal/service/...", "internal/engine/cpu...", "tools/...", "examples/..."}
	for _, r := range rules {
		for _, list := range [][]string{r.From, r.Except, r.Never} {
			for _, p := range list {
				if slices.Contains(reserved, p) {
					continue
				}
				found := false
				for name := range pkgs {
					found = found || match(p, name)
				}
				if !found {
					t.Errorf("rule %q: pattern %q names no package", r.Why, p)
				}
			}
		}
	}
}

// moduleRoot returns the directory of the go.mod above the working
// directory and the module path it declares.
func moduleRoot() (dir, mod string, err error) {
	if dir, err = filepath.Abs("."); err != nil {
		return "", "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for line := range strings.Lines(string(data)) {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					return dir, f[1], nil
				}
			}
			return "", "", fmt.Errorf("%s/go.mod has no module line", dir)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", "", errors.New("no go.mod above the test")
		}
		dir = up
	}
}

// scan parses the imports of every Go file below root, skipping what the
// go command skips (testdata, vendor, and names starting with . or _) and
// files tagged ignore. Packages are keyed by their path inside the module
// ("." for the root).
func scan(root, mod string) (map[string]*pkgInfo, error) {
	pkgs := map[string]*pkgInfo{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			if cg.Pos() >= f.Package {
				break
			}
			for _, c := range cg.List {
				if x, err := constraint.Parse(c.Text); err == nil && ignored(x) {
					return nil
				}
			}
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		pkg := pkgs[key]
		if pkg == nil {
			pkg = &pkgInfo{imports: map[string]string{}, testImports: map[string]string{}}
			pkgs[key] = pkg
		}
		set := pkg.imports
		if strings.HasSuffix(name, "_test.go") {
			set = pkg.testImports
		}
		fileRel := filepath.ToSlash(filepath.Join(rel, name))
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if imp == mod {
				imp = "."
			} else if strings.HasPrefix(imp, mod+"/") {
				imp = strings.TrimPrefix(imp, mod+"/")
			}
			if set[imp] == "" {
				set[imp] = fileRel
			}
		}
		return nil
	})
	return pkgs, err
}

// ignored reports whether a build constraint can hold only with the ignore
// tag, as on the generators' "//go:build ignore".
func ignored(x constraint.Expr) bool {
	return !x.Eval(func(tag string) bool { return tag != "ignore" })
}

// requires lists the modules go.mod requires, in either form of the
// require directive.
func requires(gomod string) ([]string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var mods []string
	block := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case block && fields[0] == ")":
			block = false
		case block:
			mods = append(mods, fields[0])
		case fields[0] == "require" && len(fields) >= 2 && fields[1] == "(":
			block = true
		case fields[0] == "require" && len(fields) >= 3:
			mods = append(mods, fields[1])
		}
	}
	return mods, sc.Err()
}

// match reports whether pattern names the package at path name (both
// inside the module): "x/..." matches x and below, a trailing "..."
// any continuation, anything else the one package.
func match(pattern, name string) bool {
	switch {
	case pattern == "...":
		return true
	case strings.HasSuffix(pattern, "/..."):
		dir := strings.TrimSuffix(pattern, "/...")
		return name == dir || strings.HasPrefix(name, dir+"/")
	case strings.HasSuffix(pattern, "..."):
		return strings.HasPrefix(name, strings.TrimSuffix(pattern, "..."))
	}
	return pattern == name
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if match(p, name) {
			return true
		}
	}
	return false
}

// isStd reports whether an import path is the standard library's: its
// first element has no dot, as the go command decides.
func isStd(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

func allowedModule(imp string) bool {
	for _, m := range allowedModules {
		if imp == m || strings.HasPrefix(imp, m+"/") {
			return true
		}
	}
	return false
}

// chain lists the imports from the search's source to v.
func chain(parent map[string]string, v string) []string {
	var c []string
	for ; v != ""; v = parent[v] {
		c = append(c, v)
	}
	slices.Reverse(c)
	return c
}

// show names a package of the module by its import path, for messages.
func (tr *tree) show(name string) string {
	if name == "." {
		return tr.mod
	}
	return path.Join(tr.mod, name)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedEdges[E comparable, V any](m map[E]V, key func(E) string) []E {
	es := make([]E, 0, len(m))
	for e := range m {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b E) int { return strings.Compare(key(a), key(b)) })
	return es
}

func mapSlice(s []string, f func(string) string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = f(x)
	}
	return out
}

// TestCheck runs check on a made-up module: a direct and an indirect
// dependency of a CPU engine on a GPU package, a package the facade names
// (but not one it reaches through the planner), one tolerated by an
// exception, a stale exception, and imports that break nothing (tests,
// the CLI).
func TestCheck(t *testing.T) {
	pkg := func(imports ...string) *pkgInfo {
		p := &pkgInfo{imports: map[string]string{}, testImports: map[string]string{}}
		for _, imp := range imports {
			p.imports[imp] = "f.go"
		}
		return p
	}
	pkgs := map[string]*pkgInfo{
		".":               pkg("internal/plan", "internal/gpu"), // the GPU named by the facade: broken
		"internal/plan":   pkg("internal/bfs"),                  // the facade reaches bfs through it: fine
		"graph":           pkg(),
		"internal/bfs":    pkg("graph", "internal/shared"),
		"internal/shared": pkg("internal/gpu"), // bfs reaches the GPU through it
		"internal/bounds": pkg("internal/gpu"), // tolerated for now
		"internal/cpu":    pkg("internal/cuda"),
		"internal/gpu":    pkg("internal/cuda", "graph"),
		"internal/cuda":   pkg(),
		"internal/cli":    pkg(".", "internal/cpu"),
	}
	pkgs["internal/gpu"].testImports["internal/cpu"] = "gpu_test.go"
	exceptions := []exception{
		{From: "internal/bounds", To: "internal/gpu", Why: "issue 0: for the test"},
		{From: "internal/dijkstra", To: "internal/gpu", Why: "issue 0: gone"},
	}
	show := func(s string) string { return s }
	got := check(pkgs, rules, exceptions, show)
	want := []string{
		"stale exception: internal/dijkstra no longer imports internal/gpu",
		"import internal/cpu -> internal/cuda (in f.go) breaks the rule: CPU engines",
		"import internal/shared -> internal/gpu (in f.go) breaks the rule: CPU engines",
		"chain: internal/bfs -> internal/shared -> internal/gpu",
		"packages that depend on internal/gpu through it: internal/bfs",
		"import . -> internal/gpu (in f.go) breaks the rule: the root package is the facade",
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no %q in:\n%s", w, all)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d messages, want 4:\n%s", len(got), all)
	}
}

// TestCheckGPUFamilies runs check on a made-up module: a family that
// imports another, one that reaches another through a helper package, and
// imports that break nothing (a family's test importing another to
// compare, families importing the base); then on one whose base imports a
// family.
func TestCheckGPUFamilies(t *testing.T) {
	pkg := func(imports ...string) *pkgInfo {
		p := &pkgInfo{imports: map[string]string{}, testImports: map[string]string{}}
		for _, imp := range imports {
			p.imports[imp] = "f.go"
		}
		return p
	}
	pkgs := map[string]*pkgInfo{
		"graph":                pkg(),
		"internal/cuda":        pkg(),
		"internal/gpu/runtime": pkg("internal/cuda"),
		"internal/gpu":         pkg("internal/gpu/runtime", "graph"),
		"internal/gpu/fw":      pkg("internal/gpu"),
		"internal/gpu/bulk":    pkg("internal/gpu", "internal/gpu/fw"), // a family imports another: broken
		"internal/gpu/bitbfs":  pkg("internal/gpu", "internal/gpu/helper"),
		"internal/gpu/helper":  pkg("internal/gpu/sssp"), // bitbfs reaches sssp through it: broken
		"internal/gpu/sssp":    pkg("internal/gpu", "graph"),
		"internal/gpu/minplus": pkg("internal/gpu/runtime"),
	}
	pkgs["internal/gpu/sssp"].testImports["internal/gpu/minplus"] = "sssp_test.go"
	show := func(s string) string { return s }
	got := check(pkgs, rules, nil, show)
	want := []string{
		"import internal/gpu/bulk -> internal/gpu/fw (in f.go) breaks the rule: a GPU family never depends on another",
		"import internal/gpu/helper -> internal/gpu/sssp (in f.go) breaks the rule: a GPU family never depends on another",
		"chain: internal/gpu/bitbfs -> internal/gpu/helper -> internal/gpu/sssp",
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no %q in:\n%s", w, all)
		}
	}
	if len(got) != 2 {
		t.Errorf("%d messages, want 2:\n%s", len(got), all)
	}

	// The base reaching up into a family breaks the base's rule (and, through
	// the base, every other family's).
	pkgs["internal/gpu"] = pkg("internal/gpu/runtime", "internal/gpu/minplus")
	all = strings.Join(check(pkgs, rules, nil, show), "\n")
	if w := "import internal/gpu -> internal/gpu/minplus (in f.go) breaks the rule: the GPU base"; !strings.Contains(all, w) {
		t.Errorf("no %q in:\n%s", w, all)
	}
}
