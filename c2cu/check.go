package c2cu

import "fmt"

// checker decides which values may depend on the input data ("tainted").
// Globals are the per-input memory, so reading one is tainted; a local is
// tainted if any assignment to it is, or happens under a tainted condition;
// a parameter if any call passes a tainted argument; a call if its function
// may return a tainted value. Taints only grow, so iterating to a fixpoint
// terminates.
type checker struct {
	prog    *Program
	taint   map[*Var]bool
	ret     map[*Func]bool
	changed bool
	report  bool // second pass: taints are final, look for violations
	err     *Error
}

// Check verifies that the program is oblivious, i.e. that the addresses it
// accesses do not depend on the input data: every array index, loop
// condition and while condition may depend only on constants, #defines,
// loop counters and parameters that are themselves oblivious. A
// data-dependent if may choose whether to access memory, not where; break and
// continue under a data-dependent condition are rejected because they make
// the trip count data-dependent. Only functions reached from the kernel call
// are checked. The error is an *Error naming the line and the expression.
func (p *Program) Check() error {
	c := &checker{prog: p, taint: map[*Var]bool{}, ret: map[*Func]bool{}}
	funcs := order(p, p.Kernel.Func)
	for {
		c.changed = false
		for _, f := range funcs {
			c.stmt(f, f.Body, 0, 0)
		}
		if !c.changed {
			break
		}
	}
	c.report = true
	for _, f := range funcs {
		c.stmt(f, f.Body, 0, 0)
		if c.err != nil {
			return c.err
		}
	}
	return nil
}

func (c *checker) fail(line int, format string, a ...any) {
	if c.report && c.err == nil {
		c.err = &Error{File: c.prog.File, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
}

func (c *checker) mark(v *Var) {
	if !c.taint[v] {
		c.taint[v] = true
		c.changed = true
	}
}

// stmt walks s; ctx counts enclosing tainted conditions, loop is ctx at the
// entry of the innermost loop.
func (c *checker) stmt(f *Func, s Stmt, ctx, loop int) {
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			c.stmt(f, x, ctx, loop)
		}
	case *DeclStmt:
		for i, v := range s.Vars {
			if s.Inits[i] != nil && (c.expr(s.Inits[i], ctx) || ctx > 0) {
				c.mark(v)
			}
		}
	case *ExprStmt:
		c.expr(s.X, ctx)
	case *IfStmt:
		in := ctx
		if c.expr(s.Cond, ctx) {
			in++
		}
		c.stmt(f, s.Then, in, loop)
		if s.Else != nil {
			c.stmt(f, s.Else, in, loop)
		}
	case *ForStmt:
		if s.Init != nil {
			c.stmt(f, s.Init, ctx, loop)
		}
		in := ctx
		if s.Cond != nil && c.loopCond(s.Cond, ctx) {
			c.fail(s.Line, "not oblivious: loop condition %s depends on input data", exprText(s.Cond))
			in++
		}
		c.stmt(f, s.Body, in, in)
		if s.Post != nil {
			c.expr(s.Post, in)
		}
	case *WhileStmt:
		in := ctx
		if c.loopCond(s.Cond, ctx) {
			c.fail(s.Line, "not oblivious: loop condition %s depends on input data", exprText(s.Cond))
			in++
		}
		c.stmt(f, s.Body, in, in)
	case *BranchStmt:
		if ctx > loop {
			c.fail(s.Line, "not oblivious: %s under a condition that depends on input data", s.Tok)
		}
	case *ReturnStmt:
		if s.X != nil && (c.expr(s.X, ctx) || ctx > 0) && !c.ret[f] {
			c.ret[f] = true
			c.changed = true
		}
	}
}

// expr reports whether e may depend on the input data, marking the locals
// that its assignments taint.
func (c *checker) expr(e Expr, ctx int) bool {
	switch e := e.(type) {
	case *Lit:
		return false
	case *Ident:
		if e.Global != nil {
			return true
		}
		if e.Var != nil {
			return c.taint[e.Var]
		}
		return false // #define
	case *Paren:
		return c.expr(e.X, ctx)
	case *Cast:
		return c.expr(e.X, ctx)
	case *Unary:
		t := c.expr(e.X, ctx)
		if e.Op == "++" || e.Op == "--" {
			c.assignTo(e.X, t, ctx)
		}
		return t
	case *Postfix:
		t := c.expr(e.X, ctx)
		c.assignTo(e.X, t, ctx)
		return t
	case *Binary:
		l := c.expr(e.X, ctx)
		in := ctx
		if (e.Op == "&&" || e.Op == "||") && l {
			in++ // the right side runs or not depending on data
		}
		r := c.expr(e.Y, in)
		if e.Op == "," {
			return r
		}
		return l || r
	case *CondExpr:
		t := c.expr(e.C, ctx)
		in := ctx
		if t {
			in++
		}
		a := c.expr(e.A, in)
		b := c.expr(e.B, in)
		return t || a || b
	case *Assign:
		r := c.expr(e.R, ctx)
		l := c.expr(e.L, ctx)
		if e.Op != "=" {
			r = r || l
		}
		c.assignTo(e.L, r, ctx)
		return r || isMem(e.L)
	case *Call:
		for i, a := range e.Args {
			if c.expr(a, ctx) {
				c.mark(e.Func.Params[i])
			}
		}
		return c.ret[e.Func]
	case *Index:
		for _, x := range e.Idx {
			if c.expr(x, ctx) {
				c.fail(e.Line, "not oblivious: index %s of %s depends on input data", exprText(x), exprText(e))
			}
		}
		return true
	}
	return true
}

func isMem(e Expr) bool {
	switch e := e.(type) {
	case *Paren:
		return isMem(e.X)
	case *Index:
		return true
	case *Ident:
		return e.Global != nil
	}
	return false
}

// assignTo taints a local assigned a tainted value or under a tainted condition.
func (c *checker) assignTo(l Expr, t bool, ctx int) {
	switch l := l.(type) {
	case *Paren:
		c.assignTo(l.X, t, ctx)
	case *Ident:
		if l.Var != nil && (t || ctx > 0) {
			c.mark(l.Var)
		}
	}
}

// loopCond evaluates a loop condition; if it is tainted, an error about an
// index inside it gives way to the clearer one about the condition.
func (c *checker) loopCond(e Expr, ctx int) bool {
	before := c.err
	t := c.expr(e, ctx)
	if t && before == nil {
		c.err = nil
	}
	return t
}
