package c2cu

import (
	"fmt"
	"path/filepath"
	"strings"
)

// mode selects how globals are printed.
type mode int

const (
	modeC          mode = iota // the original program (host driver)
	modeStandalone             // Fig. 4.7: __a[i][j][__id__] through a pointer to arrays with a last dimension __P__
	modeKernel                 // NVRTC: a[(long long)(flat index) * __P__ + __id__] on a kernel argument
)

type printer struct {
	b      strings.Builder
	mode   mode
	prog   *Program
	indent int
}

// exprText prints e as C, for error messages.
func exprText(e Expr) string {
	pr := &printer{mode: modeC}
	return pr.expr(e)
}

func (pr *printer) line(format string, a ...any) {
	if format == "" {
		pr.b.WriteString("\n")
		return
	}
	pr.b.WriteString(strings.Repeat("    ", pr.indent))
	fmt.Fprintf(&pr.b, format, a...)
	pr.b.WriteString("\n")
}

// typ prints t for the target: on the device long is long long so that it
// is 64-bit whatever the host ABI.
func (pr *printer) typ(t Type) string {
	if pr.mode != modeC {
		switch t {
		case "long":
			return "long long"
		case "unsigned long":
			return "unsigned long long"
		}
	}
	return string(t)
}

// simple reports whether e needs no parentheses when embedded in an index product.
func simple(e Expr) bool {
	switch e.(type) {
	case *Ident, *Lit, *Paren, *Index, *Call:
		return true
	}
	return false
}

func (pr *printer) par(e Expr) string {
	s := pr.expr(e)
	if simple(e) {
		return s
	}
	return "(" + s + ")"
}

func (pr *printer) expr(e Expr) string {
	switch e := e.(type) {
	case *Lit:
		return e.Text
	case *Ident:
		if e.Global != nil {
			switch pr.mode {
			case modeStandalone:
				return "__" + e.Name + "[__id__]"
			case modeKernel:
				return e.Name + "[__id__]"
			}
		}
		return e.Name
	case *Paren:
		return "(" + pr.expr(e.X) + ")"
	case *Unary:
		x := pr.expr(e.X)
		if x != "" && strings.ContainsRune("+-&", rune(x[0])) {
			return e.Op + " " + x // keep "- -x" from becoming "--x"
		}
		return e.Op + x
	case *Postfix:
		return pr.expr(e.X) + e.Op
	case *Binary:
		if e.Op == "," {
			return pr.expr(e.X) + ", " + pr.expr(e.Y)
		}
		return pr.expr(e.X) + " " + e.Op + " " + pr.expr(e.Y)
	case *Assign:
		return pr.expr(e.L) + " " + e.Op + " " + pr.expr(e.R)
	case *CondExpr:
		return pr.expr(e.C) + " ? " + pr.expr(e.A) + " : " + pr.expr(e.B)
	case *Cast:
		return "(" + pr.typ(e.Type) + ")" + pr.expr(e.X)
	case *Call:
		args := make([]string, 0, len(e.Args)+2)
		for _, a := range e.Args {
			args = append(args, pr.expr(a))
		}
		args = append(args, pr.extraArgs()...)
		return e.Name + "(" + strings.Join(args, ", ") + ")"
	case *Index:
		g := e.Global
		switch pr.mode {
		case modeStandalone:
			s := "__" + g.Name
			for _, x := range e.Idx {
				s += "[" + pr.expr(x) + "]"
			}
			return s + "[__id__]"
		case modeKernel:
			flat := pr.par(e.Idx[0])
			for k := 1; k < len(e.Idx); k++ {
				if k > 1 {
					flat = "(" + flat + ")"
				}
				flat += " * " + pr.par(g.Dims[k]) + " + " + pr.par(e.Idx[k])
			}
			if len(e.Idx) > 1 {
				flat = "(" + flat + ")"
			}
			return g.Name + "[(long long)" + flat + " * __P__ + __id__]"
		}
		s := g.Name
		for _, x := range e.Idx {
			s += "[" + pr.expr(x) + "]"
		}
		return s
	}
	return "/*?*/"
}

// extraArgs are the arguments every device function gains.
func (pr *printer) extraArgs() []string {
	switch pr.mode {
	case modeStandalone:
		return []string{"__id__"}
	case modeKernel:
		var a []string
		for _, g := range pr.prog.Globals {
			a = append(a, g.Name)
		}
		return append(a, "__P__", "__id__")
	}
	return nil
}

// extraParams are the matching parameters.
func (pr *printer) extraParams() []string {
	switch pr.mode {
	case modeStandalone:
		return []string{"int __id__"}
	case modeKernel:
		return append(pr.globalParams(), "int __P__", "int __id__")
	}
	return nil
}

func (pr *printer) globalParams() []string {
	var a []string
	for _, g := range pr.prog.Globals {
		a = append(a, pr.typ(g.Type)+" *"+g.Name)
	}
	return a
}

func (pr *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		pr.line("{")
		pr.indent++
		for _, x := range s.Stmts {
			pr.stmt(x)
		}
		pr.indent--
		pr.line("}")
	case *DeclStmt:
		pr.line("%s;", pr.decl(s))
	case *ExprStmt:
		pr.line("%s;", pr.expr(s.X))
	case *IfStmt:
		pr.ifStmt(s, "")
	case *ForStmt:
		init := ""
		switch in := s.Init.(type) {
		case *ExprStmt:
			init = pr.expr(in.X)
		case *DeclStmt:
			init = pr.decl(in)
		}
		cond, post := "", ""
		if s.Cond != nil {
			cond = " " + pr.expr(s.Cond)
		}
		if s.Post != nil {
			post = " " + pr.expr(s.Post)
		}
		pr.line("for (%s;%s;%s)", init, cond, post)
		pr.body(s.Body)
	case *WhileStmt:
		pr.line("while (%s)", pr.expr(s.Cond))
		pr.body(s.Body)
	case *BranchStmt:
		pr.line("%s;", s.Tok)
	case *ReturnStmt:
		if s.X == nil {
			pr.line("return;")
		} else {
			pr.line("return %s;", pr.expr(s.X))
		}
	case *EmptyStmt:
		pr.line(";")
	}
}

// ifStmt prints s, flattening else-if chains.
func (pr *printer) ifStmt(s *IfStmt, prefix string) {
	pr.line("%sif (%s)", prefix, pr.expr(s.Cond))
	pr.body(s.Then)
	if s.Else == nil {
		return
	}
	if elif, ok := s.Else.(*IfStmt); ok {
		pr.ifStmt(elif, "else ")
		return
	}
	pr.line("else")
	pr.body(s.Else)
}

func (pr *printer) body(s Stmt) {
	if _, ok := s.(*Block); ok {
		pr.stmt(s)
		return
	}
	pr.indent++
	pr.stmt(s)
	pr.indent--
}

func (pr *printer) decl(d *DeclStmt) string {
	parts := make([]string, len(d.Vars))
	for i, v := range d.Vars {
		parts[i] = v.Name
		if d.Inits[i] != nil {
			parts[i] += " = " + pr.expr(d.Inits[i])
		}
	}
	return pr.typ(d.Type) + " " + strings.Join(parts, ", ")
}

func (pr *printer) params(f *Func, extra bool) string {
	var ps []string
	for _, v := range f.Params {
		ps = append(ps, pr.typ(v.Type)+" "+v.Name)
	}
	if extra {
		ps = append(ps, pr.extraParams()...)
	}
	if len(ps) == 0 {
		return "void"
	}
	return strings.Join(ps, ", ")
}

func (pr *printer) defines() {
	for _, d := range pr.prog.Defines {
		pr.line("#define %s %s", d.Name, pr.expr(d.Value))
	}
}

// order returns the functions reached from root (all functions if root is
// nil) with callees before callers, so that no prototypes are needed.
func order(p *Program, root *Func) []*Func {
	seen := map[*Func]bool{}
	var out []*Func
	var visit func(f *Func)
	visit = func(f *Func) {
		if seen[f] {
			return
		}
		seen[f] = true
		for _, c := range f.calls {
			visit(c.Func)
		}
		out = append(out, f)
	}
	if root != nil {
		visit(root)
		return out
	}
	for _, f := range p.Funcs {
		visit(f)
	}
	return out
}

func dimsText(pr *printer, g *Global) string {
	var s []string
	for _, d := range g.Dims {
		s = append(s, pr.par(d))
	}
	return strings.Join(s, " * ")
}

func declText(g *Global, pr *printer) string {
	s := pr.typ(g.Type) + " " + g.Name
	for _, d := range g.Dims {
		s += "[" + pr.expr(d) + "]"
	}
	return s
}

// GenerateKernel returns NVRTC-compilable source whose one entry point is
//
//	extern "C" __global__ void c2cu_kernel(T0 *g0, T1 *g1, ..., int __P__)
//
// with one device pointer per global of Arrays() (scalars too), each laid out
// column-wise [dims...][P], then the number of inputs P. Threads with id >= P
// return. long globals are long long (int64) on the device, unsigned long
// are unsigned long long (uint64).
func GenerateKernel(p *Program) (string, error) {
	if err := p.Check(); err != nil {
		return "", err
	}
	pr := &printer{mode: modeKernel, prog: p}
	pr.line("/* Generated by c2cu from %s for NVRTC: bulk execution of %s() for P inputs.", filepath.Base(p.File), p.Kernel.Name)
	pr.line(" *")
	pr.line(" * Entry point c2cu_kernel(one device pointer per global, P). Every global")
	pr.line(" * gains a last dimension of size P (column-wise): element [i0]..[ik] of")
	pr.line(" * input p lives at ((i0*D1 + i1)*D2 + ...)*P + p, so that the threads of a")
	pr.line(" * warp, one input each, touch consecutive addresses (coalesced).")
	pr.line(" * Thread __id__ works on input __id__; long is long long here (64-bit). */")
	pr.line("")
	pr.defines()
	if len(p.Defines) > 0 {
		pr.line("")
	}
	for _, g := range p.Globals {
		pr.line("/* c2cu: global %s; is argument %s, laid out %s */", declText(g, &printer{mode: modeC}), g.Name, layout(g))
	}
	if len(p.Globals) > 0 {
		pr.line("")
	}
	for _, f := range order(p, p.Kernel.Func) {
		pr.line("/* c2cu: %s gains the globals, the number of inputs __P__ and the thread's input __id__ */", f.Name)
		pr.line("__device__ %s %s(%s)", pr.typ(f.Ret), f.Name, pr.params(f, true))
		pr.stmt(f.Body)
		pr.line("")
	}
	params := append(pr.globalParams(), "int __P__")
	pr.line("/* c2cu: one thread per input; the last block may be partial */")
	pr.line(`extern "C" __global__ void c2cu_kernel(%s)`, strings.Join(params, ", "))
	pr.line("{")
	pr.indent++
	pr.line("int __id__ = blockIdx.x * blockDim.x + threadIdx.x;")
	pr.line("if (__id__ >= __P__)")
	pr.line("    return;")
	pr.line("%s;", pr.expr(p.Kernel))
	pr.indent--
	pr.line("}")
	return pr.b.String(), nil
}

// layout describes a global's device layout, e.g. "[N][N][P]".
func layout(g *Global) string {
	pr := &printer{mode: modeC}
	s := ""
	for _, d := range g.Dims {
		s += "[" + pr.expr(d) + "]"
	}
	return s + "[P]"
}

// fillExpr draws a random input element of type t in the standalone host code.
func fillExpr(t Type) string {
	switch t {
	case "unsigned":
		return "((unsigned)rand() << 16) ^ (unsigned)rand()"
	case "unsigned long":
		return "((unsigned long long)rand() << 33) ^ ((unsigned long long)rand() << 11) ^ (unsigned long long)rand()"
	case "long":
		return "(long long)(rand() % 1000)"
	case "float":
		return "(float)(rand() % 1000)"
	case "double":
		return "(double)(rand() % 1000)"
	}
	return "rand() % 1000"
}

// GenerateStandalone returns a complete CUDA C program in the form of the
// seeds' Fig. 4.7, for nvcc: each global gains a last dimension of size __P__
// (column-wise) and is reached through a __device__ pointer to a cudaMalloc'd
// buffer, so that P is not limited by static device arrays; the functions
// reached from the kernel become __device__ functions taking __id__; the
// pragma'd function becomes the __global__ kernel launched with ceil(P/T)
// blocks of T threads. main fills the inputs with rand() (srand(1): values in
// [0, 1000) for signed and floating types, full range for unsigned ones),
// copies them in, launches, copies the results out and prints the kernel time
// and a checksum of every global.
func GenerateStandalone(p *Program, P, T int) (string, error) {
	if P <= 0 || T <= 0 || T > 1024 {
		return "", fmt.Errorf("c2cu: need P > 0 and 0 < T <= 1024, got P=%d T=%d", P, T)
	}
	if err := p.Check(); err != nil {
		return "", err
	}
	pr := &printer{mode: modeStandalone, prog: p}
	pr.line("/* Generated by c2cu from %s: bulk execution of %s() for __P__ inputs,", filepath.Base(p.File), p.Kernel.Name)
	pr.line(" * one CUDA thread per input (the seeds' Fig. 4.7 form). Build: nvcc -O2 x.cu */")
	pr.line("#include <stdio.h>")
	pr.line("#include <stdlib.h>")
	pr.line("#include <cuda_runtime.h>")
	pr.line("")
	pr.defines()
	pr.line("")
	pr.line("/* c2cu: number of inputs (= threads), threads per block, blocks */")
	pr.line("#define __P__ %d", P)
	pr.line("#define __T__ %d", T)
	pr.line("#define __B__ ((__P__ + __T__ - 1) / __T__)")
	pr.line("")
	pr.line("#define C2CU_CHECK(c2cu_call) do { cudaError_t c2cu_err = (c2cu_call); if (c2cu_err != cudaSuccess) { \\")
	pr.line("    fprintf(stderr, \"%%s:%%d: %%s\\n\", __FILE__, __LINE__, cudaGetErrorString(c2cu_err)); exit(1); } } while (0)")
	pr.line("")
	for _, g := range p.Globals {
		pr.line("/* c2cu: %s gains a last dimension of size __P__ (column-wise): thread __id__ uses __%s[...][__id__] */", declText(g, &printer{mode: modeC}), g.Name)
		rest := ""
		for _, d := range g.Dims[min(1, len(g.Dims)):] {
			rest += "[" + pr.expr(d) + "]"
		}
		if len(g.Dims) == 0 {
			pr.line("__device__ %s *__%s;", pr.typ(g.Type), g.Name)
		} else {
			pr.line("__device__ %s (*__%s)%s[__P__];", pr.typ(g.Type), g.Name, rest)
		}
	}
	pr.line("")
	for _, f := range order(p, p.Kernel.Func) {
		if f == p.Kernel.Func {
			pr.line("/* c2cu: the function called after #pragma kernel, run by every thread on its own input */")
			pr.line("__global__ void %s(%s)", f.Name, pr.params(f, false))
			pr.line("{")
			pr.indent++
			pr.line("int __id__ = blockIdx.x * blockDim.x + threadIdx.x; /* c2cu: this thread's input */")
			pr.line("if (__id__ >= __P__) /* c2cu: the last block may be partial */")
			pr.line("    return;")
			for _, s := range f.Body.Stmts {
				pr.stmt(s)
			}
			pr.indent--
			pr.line("}")
		} else {
			pr.line("/* c2cu: %s gains __id__, the thread's input */", f.Name)
			pr.line("__device__ %s %s(%s)", pr.typ(f.Ret), f.Name, pr.params(f, true))
			pr.stmt(f.Body)
		}
		pr.line("")
	}
	pr.line("int main(void)")
	pr.line("{")
	pr.indent++
	pr.line("cudaEvent_t c2cu_start, c2cu_stop;")
	pr.line("float c2cu_ms;")
	pr.line("size_t c2cu_e;")
	pr.line("")
	pr.line("/* c2cu: random inputs, column-wise: element e of input p is at e * __P__ + p */")
	pr.line("srand(1);")
	for _, g := range p.Globals {
		ty, count, size := hostSizes(pr, g)
		pr.line("%s *%s = (%s *)malloc(%s);", ty, g.Name, ty, size)
		pr.line("void *c2cu_buf_%s;", g.Name)
		pr.line("for (c2cu_e = 0; c2cu_e < %s; c2cu_e++)", count)
		pr.line("    %s[c2cu_e] = %s;", g.Name, fillExpr(g.Type))
		pr.line("C2CU_CHECK(cudaMalloc(&c2cu_buf_%s, %s));", g.Name, size)
		pr.line("C2CU_CHECK(cudaMemcpy(c2cu_buf_%s, %s, %s, cudaMemcpyHostToDevice));", g.Name, g.Name, size)
		pr.line("C2CU_CHECK(cudaMemcpyToSymbol(__%s, &c2cu_buf_%s, sizeof(void *)));", g.Name, g.Name)
	}
	pr.line("")
	pr.line("C2CU_CHECK(cudaEventCreate(&c2cu_start));")
	pr.line("C2CU_CHECK(cudaEventCreate(&c2cu_stop));")
	pr.line("C2CU_CHECK(cudaEventRecord(c2cu_start));")
	pr.line("#pragma kernel")
	args := []string{}
	for _, a := range p.Kernel.Args {
		args = append(args, pr.expr(a))
	}
	pr.line("%s<<<__B__, __T__>>>(%s);", p.Kernel.Name, strings.Join(args, ", "))
	pr.line("C2CU_CHECK(cudaGetLastError());")
	pr.line("C2CU_CHECK(cudaEventRecord(c2cu_stop));")
	pr.line("C2CU_CHECK(cudaEventSynchronize(c2cu_stop));")
	pr.line("C2CU_CHECK(cudaEventElapsedTime(&c2cu_ms, c2cu_start, c2cu_stop));")
	pr.line("printf(\"%s: %%d inputs, %%d blocks of %%d threads, kernel %%.3f ms\\n\", __P__, __B__, __T__, c2cu_ms);", p.Kernel.Name)
	pr.line("")
	pr.line("/* c2cu: results back to the host */")
	for _, g := range p.Globals {
		_, count, size := hostSizes(pr, g)
		pr.line("C2CU_CHECK(cudaMemcpy(%s, c2cu_buf_%s, %s, cudaMemcpyDeviceToHost));", g.Name, g.Name, size)
		pr.line("{")
		pr.line("    double c2cu_sum = 0;")
		pr.line("    for (c2cu_e = 0; c2cu_e < %s; c2cu_e++)", count)
		pr.line("        c2cu_sum += (double)%s[c2cu_e];", g.Name)
		pr.line("    printf(\"%s checksum %%.17g\\n\", c2cu_sum);", g.Name)
		pr.line("}")
		pr.line("C2CU_CHECK(cudaFree(c2cu_buf_%s));", g.Name)
		pr.line("free(%s);", g.Name)
	}
	pr.line("return 0;")
	pr.indent--
	pr.line("}")
	return pr.b.String(), nil
}

// hostSizes returns the device type of g, its element count for __P__ inputs
// and its size in bytes, as C expressions.
func hostSizes(pr *printer, g *Global) (ty, count, size string) {
	ty = pr.typ(g.Type)
	count = "(size_t)__P__"
	if len(g.Dims) > 0 {
		count = "(size_t)" + dimsText(pr, g) + " * __P__"
	}
	return ty, count, "sizeof(" + ty + ") * " + count
}
