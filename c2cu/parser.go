package c2cu

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxDepth bounds statement and expression nesting so that hostile input
// cannot exhaust the stack.
const maxDepth = 200

// maxElems bounds the elements of one global per input.
const maxElems = 1 << 26

// bailout carries a parse error through panic to Parse's recover.
type bailout struct{ err *Error }

type scope map[string]*Var

type parser struct {
	file    string
	toks    []token
	pos     int
	depth   int
	prog    *Program
	defines map[string]*Define
	globals map[string]*Global
	funcs   map[string]*Func // defined functions
	protos  map[string]int   // declared arities (prototypes and definitions)
	scopes  []scope
	fn      *Func // function being parsed
}

// Parse reads a C program in the supported subset (see the package
// documentation); errors are *Error.
func Parse(file string, src []byte) (prog *Program, err error) {
	toks, err := lex(file, src, 1)
	if err != nil {
		return nil, err
	}
	p := &parser{
		file: file, toks: toks,
		prog:    &Program{File: file, lastLn: toks[len(toks)-1].line},
		defines: map[string]*Define{}, globals: map[string]*Global{},
		funcs: map[string]*Func{}, protos: map[string]int{},
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			prog, err = nil, b.err
		}
	}()
	for p.peek().kind != tEOF {
		p.topLevel()
	}
	p.resolve()
	return p.prog, nil
}

func (p *parser) fail(line int, format string, a ...any) {
	panic(bailout{&Error{File: p.file, Line: line, Msg: fmt.Sprintf(format, a...)}})
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) peekN(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}
func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}
func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}
func (p *parser) expect(text string) token {
	t := p.peek()
	if !p.is(text) {
		p.fail(t.line, "expected %q, found %s", text, describe(t))
	}
	return p.next()
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tDirective:
		return "#" + strings.TrimSpace(t.text)
	}
	return strconv.Quote(t.text)
}

func (p *parser) enter(line int) {
	p.depth++
	if p.depth > maxDepth {
		p.fail(line, "not supported: nesting deeper than %d", maxDepth)
	}
}
func (p *parser) leave() { p.depth-- }

var typeWords = map[string]bool{"void": true, "int": true, "unsigned": true, "signed": true, "long": true, "float": true, "double": true, "short": true, "char": true}

// unsupportedWords name constructs outside the subset, reported as such.
var unsupportedWords = map[string]string{
	"struct": "struct", "union": "union", "enum": "enum", "typedef": "typedef", "goto": "goto",
	"switch": "switch", "case": "switch", "default": "switch", "do": "do-while", "sizeof": "sizeof",
	"static": "static", "extern": "extern", "const": "const", "volatile": "volatile", "register": "register",
	"auto": "auto", "inline": "inline", "restrict": "restrict", "_Bool": "_Bool", "bool": "bool",
}

// reserved names would clash in C++/CUDA or in the generated host code.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if else for while break continue return main
		class new delete this template typename namespace using virtual public private protected friend operator
		true false nullptr try catch throw explicit mutable export asm wchar_t char16_t char32_t decltype constexpr
		static_assert noexcept thread_local typeid dynamic_cast static_cast const_cast reinterpret_cast
		and or not xor bitand bitor compl and_eq or_eq xor_eq not_eq alignas alignof concept requires
		blockIdx blockDim threadIdx gridDim warpSize dim3
		printf fprintf sprintf snprintf puts fopen fclose fread fwrite malloc calloc realloc free memcpy memset
		exit abort atoi atol strtol rand srand abs labs clock_gettime timespec time clock
		stdin stdout stderr NULL EOF FILE size_t errno CLOCK_MONOTONIC`) {
		m[w] = true
	}
	return m
}()

func (p *parser) checkName(t token) string {
	if t.kind != tIdent {
		p.fail(t.line, "expected a name, found %s", describe(t))
	}
	n := t.text
	if what, ok := unsupportedWords[n]; ok {
		p.fail(t.line, "not supported: %s", what)
	}
	if typeWords[n] || reserved[n] {
		p.fail(t.line, "not supported: %q as a name", n)
	}
	if strings.HasPrefix(n, "__") || strings.HasSuffix(n, "__") || strings.HasPrefix(n, "c2cu_") {
		p.fail(t.line, "not supported: name %q (names starting with __ or c2cu_ or ending with __ are reserved for the generated code)", n)
	}
	if p.defines[n] != nil {
		p.fail(t.line, "not supported: %q is a #define", n)
	}
	return n
}

// parseType reads a type; ok is false if the next token does not start one.
func (p *parser) parseType() (Type, bool) {
	t := p.peek()
	if t.kind != tIdent {
		return "", false
	}
	if what, ok := unsupportedWords[t.text]; ok {
		p.fail(t.line, "not supported: %s", what)
	}
	if !typeWords[t.text] {
		return "", false
	}
	var words []string
	for p.peek().kind == tIdent && typeWords[p.peek().text] {
		words = append(words, p.next().text)
	}
	var ty Type
	switch strings.Join(words, " ") {
	case "void":
		ty = "void"
	case "int", "signed", "signed int":
		ty = "int"
	case "unsigned", "unsigned int":
		ty = "unsigned"
	case "long", "long int", "signed long", "signed long int", "long long", "long long int", "signed long long":
		ty = "long"
	case "unsigned long", "unsigned long int", "unsigned long long", "unsigned long long int":
		ty = "unsigned long"
	case "float":
		ty = "float"
	case "double":
		ty = "double"
	default:
		p.fail(t.line, "not supported: type %q", strings.Join(words, " "))
	}
	if p.is("*") {
		p.fail(p.peek().line, "not supported: pointer")
	}
	return ty, true
}

func (p *parser) topLevel() {
	t := p.peek()
	if t.kind == tDirective {
		p.next()
		p.directive(t)
		return
	}
	ty, ok := p.parseType()
	if !ok {
		if t.kind == tIdent {
			if what, bad := unsupportedWords[t.text]; bad {
				p.fail(t.line, "not supported: %s", what)
			}
		}
		p.fail(t.line, "not supported: %s at top level", describe(t))
	}
	nt := p.peek()
	if nt.kind == tIdent && nt.text == "main" {
		p.next()
		p.mainFunc(nt)
		return
	}
	name := p.checkName(p.next())
	if p.is("(") {
		p.function(ty, name, nt.line)
		return
	}
	if ty == "void" {
		p.fail(nt.line, "not supported: void variable %q", name)
	}
	for {
		p.global(ty, name, nt.line)
		if !p.accept(",") {
			break
		}
		nt = p.peek()
		if nt.kind == tPunct && nt.text == "*" {
			p.fail(nt.line, "not supported: pointer")
		}
		name = p.checkName(p.next())
	}
	p.expect(";")
}

func (p *parser) declared(name string, line int) {
	if p.globals[name] != nil || p.protos[name] != 0 || p.funcs[name] != nil {
		p.fail(line, "not supported: %q declared twice", name)
	}
}

func (p *parser) global(ty Type, name string, line int) {
	p.declared(name, line)
	g := &Global{Name: name, Type: ty, Line: line}
	total := 1
	for p.accept("[") {
		if p.is("]") {
			p.fail(line, "not supported: array %q without a size", name)
		}
		e := p.expr()
		v, err := constInt(e)
		if err != nil || v <= 0 || v > maxElems {
			p.fail(line, "not supported: dimension of %q must be a positive integer constant up to %d", name, maxElems)
		}
		p.expect("]")
		total *= int(v)
		if total > maxElems {
			p.fail(line, "not supported: array %q larger than %d elements", name, maxElems)
		}
		g.Dims = append(g.Dims, e)
		g.DimVals = append(g.DimVals, int(v))
	}
	if p.is("=") {
		p.fail(line, "not supported: initialiser of global %q (inputs come from the runner)", name)
	}
	p.globals[name] = g
	p.prog.Globals = append(p.prog.Globals, g)
}

func (p *parser) directive(t token) {
	text := strings.TrimSpace(t.text)
	word, rest, _ := strings.Cut(text, " ")
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		word, rest = text[:i], strings.TrimSpace(text[i:])
	}
	switch word {
	case "include":
		r := strings.TrimSpace(rest)
		if i := strings.Index(r, "//"); i >= 0 {
			r = strings.TrimSpace(r[:i])
		}
		if r == "<stdio.h>" || r == "<stdlib.h>" {
			return
		}
		p.fail(t.line, "not supported: #include %s", r)
	case "define":
		p.define(t)
	case "pragma":
		if strings.Fields(rest + " x")[0] == "kernel" {
			p.fail(t.line, "not supported: #pragma kernel outside main")
		}
		// Other pragmas (once, omp, ...) mean nothing for bulk execution.
	default:
		p.fail(t.line, "not supported: #%s", word)
	}
}

func (p *parser) define(t token) {
	// Lex the line after "#"; its first two tokens are "define" and the name.
	toks, err := lex(p.file, []byte(t.text), t.line)
	if err != nil {
		panic(bailout{err.(*Error)})
	}
	if len(toks) < 3 || toks[1].kind != tIdent {
		p.fail(t.line, "not supported: #define without a name")
	}
	nameTok := toks[1]
	if toks[2].kind == tPunct && toks[2].text == "(" && toks[2].pos == nameTok.end {
		p.fail(t.line, "not supported: function-like macro %s", nameTok.text)
	}
	name := p.checkName(nameTok)
	p.declared(name, t.line)
	if toks[2].kind == tEOF {
		p.fail(t.line, "not supported: #define %s without a value", name)
	}
	sub := &parser{file: p.file, toks: toks[2:], prog: p.prog, defines: p.defines, globals: map[string]*Global{}, funcs: map[string]*Func{}, protos: map[string]int{}}
	e := sub.expr()
	if sub.peek().kind != tEOF {
		p.fail(t.line, "not supported: #define %s value: unexpected %s", name, describe(sub.peek()))
	}
	if err := isConst(e); err != nil {
		p.fail(t.line, "not supported: #define %s value: %v", name, err)
	}
	d := &Define{Name: name, Value: e, Line: t.line}
	p.defines[name] = d
	p.prog.Defines = append(p.prog.Defines, d)
}

// isConst reports whether e is built from literals, #defines, operators and casts.
func isConst(e Expr) error {
	switch e := e.(type) {
	case *Lit:
		return nil
	case *Ident:
		if e.Define != nil {
			return nil
		}
		return fmt.Errorf("%s is not a constant", e.Name)
	case *Paren:
		return isConst(e.X)
	case *Cast:
		return isConst(e.X)
	case *Unary:
		if e.Op == "++" || e.Op == "--" {
			return errors.New("assignment in a constant")
		}
		return isConst(e.X)
	case *Binary:
		if e.Op == "," {
			return errors.New("comma in a constant")
		}
		if err := isConst(e.X); err != nil {
			return err
		}
		return isConst(e.Y)
	case *CondExpr:
		for _, x := range []Expr{e.C, e.A, e.B} {
			if err := isConst(x); err != nil {
				return err
			}
		}
		return nil
	}
	return errors.New("not a constant expression")
}

// constInt evaluates an integer constant expression (for array dimensions).
func constInt(e Expr) (int64, error) {
	switch e := e.(type) {
	case *Lit:
		if e.Float {
			return 0, errors.New("floating constant")
		}
		s := strings.TrimRight(strings.ToLower(e.Text), "ul")
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil || v > 1<<62 {
			return 0, errors.New("constant too large")
		}
		return int64(v), nil
	case *Ident:
		if e.Define == nil {
			return 0, errors.New("not constant")
		}
		return constInt(e.Define.Value)
	case *Paren:
		return constInt(e.X)
	case *Unary:
		v, err := constInt(e.X)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case "-":
			return -v, nil
		case "+":
			return v, nil
		}
	case *Binary:
		a, err := constInt(e.X)
		if err != nil {
			return 0, err
		}
		b, err := constInt(e.Y)
		if err != nil {
			return 0, err
		}
		const lim = 1 << 31
		if a > lim || b > lim || a < -lim || b < -lim {
			return 0, errors.New("constant too large")
		}
		switch e.Op {
		case "+":
			return a + b, nil
		case "-":
			return a - b, nil
		case "*":
			return a * b, nil
		case "/", "%":
			if b == 0 {
				return 0, errors.New("division by zero")
			}
			if e.Op == "/" {
				return a / b, nil
			}
			return a % b, nil
		case "<<":
			if b < 0 || b > 31 {
				return 0, errors.New("bad shift")
			}
			return a << b, nil
		case ">>":
			if b < 0 || b > 31 {
				return 0, errors.New("bad shift")
			}
			return a >> b, nil
		}
	}
	return 0, errors.New("not an integer constant expression")
}

// mainFunc skips main's body except for `#pragma kernel` and the call after it.
func (p *parser) mainFunc(nt token) {
	p.expect("(")
	for depth := 1; depth > 0; {
		t := p.next()
		switch {
		case t.kind == tEOF:
			p.fail(t.line, "unexpected end of file in main")
		case t.kind == tPunct && t.text == "(":
			depth++
		case t.kind == tPunct && t.text == ")":
			depth--
		}
	}
	if p.accept(";") {
		return
	}
	p.expect("{")
	for depth := 1; depth > 0; {
		t := p.next()
		switch {
		case t.kind == tEOF:
			p.fail(t.line, "unexpected end of file in main")
		case t.kind == tPunct && t.text == "{":
			depth++
		case t.kind == tPunct && t.text == "}":
			depth--
		case t.kind == tDirective && strings.Fields(t.text + " x")[0] == "pragma" && len(strings.Fields(t.text)) > 1 && strings.Fields(t.text)[1] == "kernel":
			p.kernelCall(t)
		}
	}
}

func (p *parser) kernelCall(pt token) {
	if p.prog.Kernel != nil {
		p.fail(pt.line, "not supported: a second #pragma kernel")
	}
	t := p.next()
	if t.kind != tIdent || !p.is("(") {
		p.fail(pt.line, "not supported: #pragma kernel must be followed by a call statement f(...);")
	}
	p.next()
	c := &Call{Name: t.text, Line: t.line}
	if !p.is(")") {
		for {
			a := p.assign()
			if err := isConst(a); err != nil {
				p.fail(t.line, "not supported: kernel call argument %s: %v", exprText(a), err)
			}
			c.Args = append(c.Args, a)
			if !p.accept(",") {
				break
			}
		}
	}
	p.expect(")")
	p.expect(";")
	p.prog.Kernel = c
}

func (p *parser) function(ret Type, name string, line int) {
	p.expect("(")
	var params []*Var
	p.scopes = []scope{{}}
	if p.is("void") && p.peekN(1).text == ")" {
		p.next()
	} else if !p.is(")") {
		for {
			pt := p.peek()
			ty, ok := p.parseType()
			if !ok {
				p.fail(pt.line, "not supported: parameter %s", describe(pt))
			}
			if ty == "void" {
				p.fail(pt.line, "not supported: void parameter")
			}
			nt := p.peek()
			pn := p.checkName(p.next())
			p.noShadow(pn, nt.line)
			if p.is("[") {
				p.fail(nt.line, "not supported: array parameter %q", pn)
			}
			if p.scopes[0][pn] != nil {
				p.fail(nt.line, "not supported: parameter %q declared twice", pn)
			}
			v := &Var{Name: pn, Type: ty, Line: nt.line}
			p.scopes[0][pn] = v
			params = append(params, v)
			if !p.accept(",") {
				break
			}
		}
	}
	p.expect(")")
	if n, ok := p.protos[name]; ok && n != len(params)+1 {
		p.fail(line, "not supported: %q declared with different parameters", name)
	}
	if p.globals[name] != nil || p.funcs[name] != nil {
		p.fail(line, "not supported: %q declared twice", name)
	}
	p.protos[name] = len(params) + 1
	if p.accept(";") { // prototype
		p.scopes = nil
		return
	}
	f := &Func{Name: name, Ret: ret, Params: params, Line: line}
	p.funcs[name] = f
	p.fn = f
	f.Body = p.block()
	p.fn = nil
	p.scopes = nil
	p.prog.Funcs = append(p.prog.Funcs, f)
}

func (p *parser) block() *Block {
	lb := p.expect("{")
	p.enter(lb.line)
	defer p.leave()
	b := &Block{Line: lb.line}
	p.scopes = append(p.scopes, scope{})
	for !p.is("}") {
		if p.peek().kind == tEOF {
			p.fail(p.peek().line, "unexpected end of file, missing }")
		}
		b.Stmts = append(b.Stmts, p.stmt())
	}
	p.next()
	p.scopes = p.scopes[:len(p.scopes)-1]
	return b
}

// subStmt parses the body of if/for/while in its own scope (C99).
func (p *parser) subStmt() Stmt {
	p.scopes = append(p.scopes, scope{})
	s := p.stmt()
	p.scopes = p.scopes[:len(p.scopes)-1]
	return s
}

func (p *parser) stmt() Stmt {
	t := p.peek()
	p.enter(t.line)
	defer p.leave()
	if t.kind == tDirective {
		p.fail(t.line, "not supported: preprocessor directive inside a function")
	}
	if t.kind == tPunct {
		switch t.text {
		case "{":
			return p.block()
		case ";":
			p.next()
			return &EmptyStmt{Line: t.line}
		}
	}
	if t.kind == tIdent {
		if what, ok := unsupportedWords[t.text]; ok {
			p.fail(t.line, "not supported: %s", what)
		}
		switch t.text {
		case "if":
			p.next()
			p.expect("(")
			s := &IfStmt{Cond: p.expr(), Line: t.line}
			p.expect(")")
			s.Then = p.subStmt()
			if p.accept("else") {
				s.Else = p.subStmt()
			}
			return s
		case "while":
			p.next()
			p.expect("(")
			s := &WhileStmt{Cond: p.expr(), Line: t.line}
			p.expect(")")
			s.Body = p.subStmt()
			return s
		case "for":
			p.next()
			p.expect("(")
			p.scopes = append(p.scopes, scope{})
			s := &ForStmt{Line: t.line}
			if !p.is(";") {
				if d := p.decl(); d != nil {
					s.Init = d
				} else {
					s.Init = &ExprStmt{X: p.expr(), Line: t.line}
					p.expect(";")
				}
			} else {
				p.next()
			}
			if !p.is(";") {
				s.Cond = p.expr()
			}
			p.expect(";")
			if !p.is(")") {
				s.Post = p.expr()
			}
			p.expect(")")
			s.Body = p.subStmt()
			p.scopes = p.scopes[:len(p.scopes)-1]
			return s
		case "break", "continue":
			p.next()
			p.expect(";")
			return &BranchStmt{Tok: t.text, Line: t.line}
		case "return":
			p.next()
			s := &ReturnStmt{Line: t.line}
			if !p.is(";") {
				s.X = p.expr()
			}
			p.expect(";")
			if (s.X == nil) != (p.fn.Ret == "void") {
				p.fail(t.line, "not supported: return value does not match %s's type %s", p.fn.Name, p.fn.Ret)
			}
			return s
		}
		if d := p.decl(); d != nil {
			return d
		}
	}
	s := &ExprStmt{X: p.expr(), Line: t.line}
	p.expect(";")
	return s
}

// decl parses a local declaration including its ';', or returns nil if the
// next tokens do not start one.
func (p *parser) decl() *DeclStmt {
	t := p.peek()
	ty, ok := p.parseType()
	if !ok {
		return nil
	}
	if ty == "void" {
		p.fail(t.line, "not supported: void variable")
	}
	d := &DeclStmt{Type: ty, Line: t.line}
	for {
		nt := p.peek()
		if nt.kind == tPunct && nt.text == "*" {
			p.fail(nt.line, "not supported: pointer")
		}
		name := p.checkName(p.next())
		p.noShadow(name, nt.line)
		if p.is("[") {
			p.fail(nt.line, "not supported: local array %q (declare it as a global)", name)
		}
		if p.is("(") {
			p.fail(nt.line, "not supported: local function declaration %q", name)
		}
		var init Expr
		if p.accept("=") {
			init = p.assign()
		}
		top := p.scopes[len(p.scopes)-1]
		if top[name] != nil {
			p.fail(nt.line, "not supported: %q declared twice", name)
		}
		v := &Var{Name: name, Type: ty, Line: nt.line}
		top[name] = v // declared after its initialiser, as in C
		d.Vars = append(d.Vars, v)
		d.Inits = append(d.Inits, init)
		if !p.accept(",") {
			break
		}
	}
	p.expect(";")
	return d
}

func (p *parser) expr() Expr {
	x := p.assign()
	for p.is(",") {
		t := p.next()
		x = &Binary{Op: ",", X: x, Y: p.assign(), Line: t.line}
	}
	return x
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

func (p *parser) assign() Expr {
	t := p.peek()
	p.enter(t.line)
	defer p.leave()
	x := p.cond()
	if nt := p.peek(); nt.kind == tPunct && assignOps[nt.text] {
		p.next()
		p.lvalue(x, nt)
		return &Assign{Op: nt.text, L: x, R: p.assign(), Line: nt.line}
	}
	return x
}

func (p *parser) lvalue(x Expr, t token) {
	switch x := x.(type) {
	case *Index:
		return
	case *Ident:
		if x.Define == nil {
			return
		}
	case *Paren:
		p.lvalue(x.X, t)
		return
	}
	p.fail(t.line, "not supported: %s applied to %s, which is not a variable", t.text, exprText(x))
}

func (p *parser) cond() Expr {
	c := p.binary(0)
	if p.is("?") {
		t := p.next()
		a := p.expr()
		p.expect(":")
		b := p.cond()
		return &CondExpr{C: c, A: a, B: b, Line: t.line}
	}
	return c
}

var binPrec = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

func (p *parser) binary(level int) Expr {
	if level == len(binPrec) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for {
		t := p.peek()
		found := false
		if t.kind == tPunct {
			for _, op := range binPrec[level] {
				if t.text == op {
					found = true
				}
			}
		}
		if !found {
			return x
		}
		p.next()
		x = &Binary{Op: t.text, X: x, Y: p.binary(level + 1), Line: t.line}
	}
}

func (p *parser) unary() Expr {
	t := p.peek()
	p.enter(t.line)
	defer p.leave()
	if t.kind == tPunct {
		switch t.text {
		case "-", "+", "!", "~":
			p.next()
			return &Unary{Op: t.text, X: p.unary(), Line: t.line}
		case "++", "--":
			p.next()
			x := p.unary()
			p.lvalue(x, t)
			return &Unary{Op: t.text, X: x, Line: t.line}
		case "*", "&":
			p.fail(t.line, "not supported: pointer operator %s", t.text)
		case "(":
			if nt := p.peekN(1); nt.kind == tIdent && (typeWords[nt.text] || unsupportedWords[nt.text] != "") {
				p.next()
				ty, _ := p.parseType()
				if ty == "void" {
					p.fail(t.line, "not supported: cast to void")
				}
				p.expect(")")
				return &Cast{Type: ty, X: p.unary(), Line: t.line}
			}
		}
	}
	return p.postfix()
}

func (p *parser) postfix() Expr {
	x := p.primary()
	for {
		t := p.peek()
		if t.kind != tPunct {
			return x
		}
		switch t.text {
		case "++", "--":
			p.next()
			p.lvalue(x, t)
			x = &Postfix{Op: t.text, X: x, Line: t.line}
		case "[":
			p.fail(t.line, "not supported: indexing %s, which is not a global array", exprText(x))
		case "(":
			p.fail(t.line, "not supported: calling %s", exprText(x))
		case ".", "->":
			p.fail(t.line, "not supported: struct member access")
		default:
			return x
		}
	}
}

func (p *parser) primary() Expr {
	t := p.next()
	switch t.kind {
	case tInt:
		return &Lit{Text: t.text, Line: t.line}
	case tFloat:
		return &Lit{Text: t.text, Float: true, Line: t.line}
	case tString:
		if strings.HasPrefix(t.text, "'") {
			return p.failExpr(t, "not supported: character literal")
		}
		return p.failExpr(t, "not supported: string literal")
	case tPunct:
		if t.text == "(" {
			x := p.expr()
			p.expect(")")
			return &Paren{X: x, Line: t.line}
		}
	case tIdent:
		if what, ok := unsupportedWords[t.text]; ok {
			return p.failExpr(t, "not supported: "+what)
		}
		if p.is("(") {
			return p.call(t)
		}
		for i := len(p.scopes) - 1; i >= 0; i-- {
			if v := p.scopes[i][t.text]; v != nil {
				return &Ident{Name: t.text, Var: v, Line: t.line}
			}
		}
		if g := p.globals[t.text]; g != nil {
			if len(g.Dims) == 0 {
				return &Ident{Name: t.text, Global: g, Line: t.line}
			}
			ix := &Index{Global: g, Line: t.line}
			for p.is("[") {
				p.next()
				ix.Idx = append(ix.Idx, p.expr())
				p.expect("]")
			}
			if len(ix.Idx) != len(g.Dims) {
				return p.failExpr(t, fmt.Sprintf("not supported: %s used with %d of its %d indices (pointers to arrays)", g.Name, len(ix.Idx), len(g.Dims)))
			}
			return ix
		}
		if d := p.defines[t.text]; d != nil {
			return &Ident{Name: t.text, Define: d, Line: t.line}
		}
		return p.failExpr(t, fmt.Sprintf("undeclared name %q", t.text))
	}
	return p.failExpr(t, "expected an expression, found "+describe(t))
}

func (p *parser) failExpr(t token, msg string) Expr {
	p.fail(t.line, "%s", msg)
	return nil
}

func (p *parser) call(t token) Expr {
	p.next() // (
	c := &Call{Name: t.text, Line: t.line}
	if !p.is(")") {
		for {
			c.Args = append(c.Args, p.assign())
			if !p.accept(",") {
				break
			}
		}
	}
	p.expect(")")
	if p.fn != nil {
		p.fn.calls = append(p.fn.calls, c)
	}
	return c
}

// resolve binds calls to functions and rejects what C would reject or what
// the generated code could not express: unknown functions, wrong arity,
// void values used, recursion.
func (p *parser) resolve() {
	k := p.prog.Kernel
	if k == nil {
		p.fail(p.prog.lastLn, "not supported: no `#pragma kernel` before a call in main()")
	}
	bind := func(c *Call) {
		f := p.funcs[c.Name]
		if f == nil {
			p.fail(c.Line, "not supported: call of %s, which is not a function defined in this file", c.Name)
		}
		if len(c.Args) != len(f.Params) {
			p.fail(c.Line, "%s called with %d arguments, it has %d parameters", c.Name, len(c.Args), len(f.Params))
		}
		c.Func = f
	}
	bind(k)
	if k.Func.Ret != "void" {
		p.fail(k.Line, "not supported: kernel function %s must return void", k.Name)
	}
	for _, f := range p.prog.Funcs {
		for _, c := range f.calls {
			bind(c)
		}
		walkStmt(f.Body, func(s Stmt) {}, func(e Expr, stmtTop bool) {
			if c, ok := e.(*Call); ok && c.Func.Ret == "void" && !stmtTop {
				p.fail(c.Line, "not supported: value of void function %s used", c.Name)
			}
		})
	}
	// Recursion: depth-first search with colours.
	state := map[*Func]int{}
	var visit func(f *Func)
	visit = func(f *Func) {
		state[f] = 1
		for _, c := range f.calls {
			switch state[c.Func] {
			case 1:
				p.fail(c.Line, "not supported: recursion (%s calls %s)", f.Name, c.Name)
			case 0:
				visit(c.Func)
			}
		}
		state[f] = 2
	}
	for _, f := range p.prog.Funcs {
		if state[f] == 0 {
			visit(f)
		}
	}
}

// walkStmt calls fs for every statement and fe for every expression under s;
// stmtTop is true for the whole expression of an expression statement.
func walkStmt(s Stmt, fs func(Stmt), fe func(e Expr, stmtTop bool)) {
	if s == nil {
		return
	}
	fs(s)
	ex := func(e Expr) { walkExpr(e, fe, false) }
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			walkStmt(x, fs, fe)
		}
	case *DeclStmt:
		for _, e := range s.Inits {
			if e != nil {
				ex(e)
			}
		}
	case *ExprStmt:
		walkExpr(s.X, fe, true)
	case *IfStmt:
		ex(s.Cond)
		walkStmt(s.Then, fs, fe)
		walkStmt(s.Else, fs, fe)
	case *ForStmt:
		walkStmt(s.Init, fs, fe)
		if s.Cond != nil {
			ex(s.Cond)
		}
		if s.Post != nil {
			walkExpr(s.Post, fe, true)
		}
		walkStmt(s.Body, fs, fe)
	case *WhileStmt:
		ex(s.Cond)
		walkStmt(s.Body, fs, fe)
	case *ReturnStmt:
		if s.X != nil {
			ex(s.X)
		}
	}
}

func walkExpr(e Expr, fe func(Expr, bool), top bool) {
	fe(e, top)
	sub := func(x Expr) { walkExpr(x, fe, false) }
	switch e := e.(type) {
	case *Unary:
		sub(e.X)
	case *Postfix:
		sub(e.X)
	case *Binary:
		if e.Op == "," { // both sides of a top-level comma are statements
			walkExpr(e.X, fe, top)
			walkExpr(e.Y, fe, top)
			return
		}
		sub(e.X)
		sub(e.Y)
	case *Assign:
		sub(e.L)
		sub(e.R)
	case *CondExpr:
		sub(e.C)
		sub(e.A)
		sub(e.B)
	case *Cast:
		sub(e.X)
	case *Paren:
		sub(e.X)
	case *Call:
		for _, a := range e.Args {
			sub(a)
		}
	case *Index:
		for _, a := range e.Idx {
			sub(a)
		}
	}
}

// noShadow rejects a local or parameter named like a global: the kernel form
// passes every global as a parameter under its own name.
func (p *parser) noShadow(name string, line int) {
	if p.globals[name] != nil {
		p.fail(line, "not supported: %q shadows a global", name)
	}
}
