package c2cu

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the generators")

var examples = []string{"floyd", "bitonic", "montgomery", "prefix"}

func loadExample(t testing.TB, name string) *Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "examples", "c2cu", name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(name+".c", src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

func TestLex(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"a+=b>>=2;", []string{"a", "+=", "b", ">>=", "2", ";"}},
		{"x = 0x1Fu + 1.5e-3f + 07UL; // c", []string{"x", "=", "0x1Fu", "+", "1.5e-3f", "+", "07UL", ";"}},
		{"/* a\n b */ i++ --j", []string{"i", "++", "--", "j"}},
		{"#define N 16\nint", []string{"#define N 16", "int"}},
		{"a<<b<=c", []string{"a", "<<", "b", "<=", "c"}},
	}
	for _, tt := range tests {
		toks, err := lex("t.c", []byte(tt.src), 1)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		var got []string
		for _, tk := range toks[:len(toks)-1] {
			if tk.kind == tDirective {
				got = append(got, "#"+tk.text)
			} else {
				got = append(got, tk.text)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
	if toks, _ := lex("t.c", []byte("a\n/*\n*/\nb"), 1); toks[1].line != 4 {
		t.Errorf("line of b = %d, want 4", toks[1].line)
	}
}

const kernelMain = "\nint main(void) {\n#pragma kernel\n f();\n}\n"

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		arrays    []Array
		want      string // the printed body of f
	}{
		{"precedence", "int a[4];\nvoid f() { int x = 1 + 2 * 3 - (4 - 5); a[x & 3] = x << 1 | 1; }",
			[]Array{{"a", "int", []int{4}, 4}},
			"{\n    int x = 1 + 2 * 3 - (4 - 5);\n    a[x & 3] = x << 1 | 1;\n}\n"},
		{"types", "#define N (2 * 4)\nlong l[N][3]; unsigned long u; double d; float g[2]; unsigned w;\nvoid f() { u = (unsigned long)l[1][2]; }",
			[]Array{{"l", "long", []int{8, 3}, 8}, {"u", "unsigned long", nil, 8}, {"d", "double", nil, 8}, {"g", "float", []int{2}, 4}, {"w", "unsigned", nil, 4}},
			"{\n    u = (unsigned long)l[1][2];\n}\n"},
		{"control", "int a[8];\nvoid f() { int i; for (i = 0; i < 8; i++) { if (i > 5) continue; if (a[i] > 0) a[i] = -a[i]; else if (a[i] < -9) a[i] = 1; else a[i] = 0; } while (0) break; }",
			[]Array{{"a", "int", []int{8}, 4}},
			"{\n    int i;\n    for (i = 0; i < 8; i++)\n    {\n        if (i > 5)\n            continue;\n        if (a[i] > 0)\n            a[i] = -a[i];\n        else if (a[i] < -9)\n            a[i] = 1;\n        else\n            a[i] = 0;\n    }\n    while (0)\n        break;\n}\n"},
		{"c99 for and ternary", "int a[8];\nint g(int x) { return x > 3 ? x : -x; }\nvoid f() { for (int i = 0, j = 7; i < j; i++, j--) a[i] = g(a[j]); }",
			[]Array{{"a", "int", []int{8}, 4}},
			"{\n    for (int i = 0, j = 7; i < j; i++, j--)\n        a[i] = g(a[j]);\n}\n"},
	}
	for _, tt := range tests {
		p, err := Parse("t.c", []byte(tt.src+kernelMain))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := p.Arrays(); !reflect.DeepEqual(got, tt.arrays) {
			for i := range got {
				if len(got[i].Dims) == 0 {
					got[i].Dims = nil
				}
			}
			if !reflect.DeepEqual(got, tt.arrays) {
				t.Errorf("%s: arrays %+v, want %+v", tt.name, got, tt.arrays)
			}
		}
		if p.KernelCall() != "f" {
			t.Errorf("%s: kernel %q", tt.name, p.KernelCall())
		}
		var f *Func
		for _, fn := range p.Funcs {
			if fn.Name == "f" {
				f = fn
			}
		}
		pr := &printer{mode: modeC, prog: p}
		pr.stmt(f.Body)
		if got := pr.b.String(); got != tt.want {
			t.Errorf("%s: printed\n%s\nwant\n%s", tt.name, got, tt.want)
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s: Check: %v", tt.name, err)
		}
	}
}

func TestReject(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"index of data", "int a[8];\nvoid f() {\n  int i;\n  for (i = 0; i < 8; i++)\n    a[a[i]] = 0;\n}",
			"t.c:5: not oblivious: index a[i] of a[a[i]] depends on input data"},
		{"data loop bound", "int a[8];\nvoid f() {\n  int i;\n  for (i = 0; i < a[0]; i++)\n    a[i] = 0;\n}",
			"t.c:4: not oblivious: loop condition i < a[0] depends on input data"},
		{"data while", "int a[8];\nvoid f() {\n  int i = 0;\n  while (a[i] != 0)\n    i++;\n}",
			"t.c:4: not oblivious: loop condition a[i] != 0 depends on input data"},
		{"tainted local", "int a[8];\nvoid f() {\n  int m = 0, i;\n  for (i = 0; i < 8; i++)\n    if (a[i] > a[m])\n      m = i;\n  a[m] = 0;\n}",
			"t.c:5: not oblivious: index m of a[m] depends on input data"},
		{"tainted param", "int a[8];\nvoid g(int k) { a[k] = 1; }\nvoid f() {\n  g(a[0] & 7);\n}",
			"t.c:2: not oblivious: index k of a[k] depends on input data"},
		{"data break", "int a[8];\nvoid f() {\n  int i;\n  for (i = 0; i < 8; i++)\n    if (a[i] == 0)\n      break;\n}",
			"t.c:6: not oblivious: break under a condition that depends on input data"},
		{"pointer", "int a[8];\nvoid f() {\n  int *p;\n}", "t.c:3: not supported: pointer"},
		{"pointer global", "int *p;", "t.c:1: not supported: pointer"},
		{"struct", "struct s { int x; };", "t.c:1: not supported: struct"},
		{"local array", "void f() {\n  int b[4];\n}", "t.c:2: not supported: local array \"b\" (declare it as a global)"},
		{"goto", "void f() {\n  goto x;\n}", "t.c:2: not supported: goto"},
		{"switch", "void f() {\n  int x = 0;\n  switch (x) {}\n}", "t.c:3: not supported: switch"},
		{"string", "void f() {\n  int x = \"s\";\n}", "t.c:2: not supported: string literal"},
		{"include", "#include <math.h>\n", "t.c:1: not supported: #include <math.h>"},
		{"recursion", "void f() {\n  f();\n}", "t.c:2: not supported: recursion (f calls f)"},
		{"char", "char c;", "t.c:1: not supported: type \"char\""},
		{"address of", "int a[2];\nvoid f() {\n  int x = &a[0];\n}", "t.c:3: not supported: pointer operator &"},
		{"no pragma", "void f() {}\nint main() { f(); }", "t.c:2: not supported: no `#pragma kernel` before a call in main()"},
	}
	for _, tt := range tests {
		src := tt.src
		if !strings.Contains(src, "main") {
			src += kernelMain
		}
		p, err := Parse("t.c", []byte(src))
		if err == nil {
			err = p.Check()
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want *Error %q", tt.name, err, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, err.Error(), tt.want)
		}
	}
}

func TestGenerateRejectsNonOblivious(t *testing.T) {
	p, err := Parse("t.c", []byte("int a[8];\nvoid f() {\n  a[a[0] & 7] = 1;\n}"+kernelMain))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateKernel(p); err == nil {
		t.Error("GenerateKernel accepted a non-oblivious program")
	}
	if _, err := GenerateStandalone(p, 64, 32); err == nil {
		t.Error("GenerateStandalone accepted a non-oblivious program")
	}
}

func TestGolden(t *testing.T) {
	for _, name := range examples {
		p := loadExample(t, name)
		if err := p.Check(); err != nil {
			t.Fatalf("%s: Check: %v", name, err)
		}
		kern, err := GenerateKernel(p)
		if err != nil {
			t.Fatal(err)
		}
		std, err := GenerateStandalone(p, 2048, 64)
		if err != nil {
			t.Fatal(err)
		}
		drv, err := GenerateDriver(p)
		if err != nil {
			t.Fatal(err)
		}
		for suffix, got := range map[string]string{".kernel.cu": kern, ".standalone.cu": std, ".driver.c": drv} {
			path := filepath.Join("testdata", "golden", name+suffix)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./c2cu -run TestGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the generator; run go test ./c2cu -run TestGolden -update and review the diff", path)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range examples {
		src, err := os.ReadFile(filepath.Join("..", "examples", "c2cu", name+".c"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("int a[4];\nvoid f() { a[a[0]] = 1; }" + kernelMain))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("fuzz.c", src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not *Error", err)
			}
			return
		}
		if p.Check() == nil {
			if _, err := GenerateKernel(p); err != nil {
				t.Fatal(err)
			}
			if _, err := GenerateStandalone(p, 100, 32); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := GenerateDriver(p); err != nil {
			t.Fatal(err)
		}
	})
}
