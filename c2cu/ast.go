package c2cu

// Type is a scalar C type of the subset: "void", "int", "unsigned", "long",
// "unsigned long", "float" or "double".
type Type string

// elemBytes is the size of t on the LP64 host and on the device (where long
// is printed as long long so that both are 64-bit).
func elemBytes(t Type) int {
	switch t {
	case "long", "unsigned long", "double":
		return 8
	}
	return 4
}

// Program is a parsed C program of the subset.
type Program struct {
	File    string
	Defines []*Define
	Globals []*Global
	Funcs   []*Func // functions with a body, in source order (main excluded)
	Kernel  *Call   // the call after #pragma kernel
	lastLn  int
}

// Define is a kept `#define NAME value`.
type Define struct {
	Name  string
	Value Expr
	Line  int
}

// Global is a global array (Dims non-empty) or scalar.
type Global struct {
	Name    string
	Type    Type
	Dims    []Expr // as written, printed back into the generated code
	DimVals []int
	Line    int
}

// Func is a function definition.
type Func struct {
	Name   string
	Ret    Type
	Params []*Var
	Body   *Block
	Line   int
	calls  []*Call // calls made by the body, for reachability
}

// Var is a parameter or local scalar; pointers identify it in the checker.
type Var struct {
	Name string
	Type Type
	Line int
}

// Stmt is a statement.
type Stmt interface{ stmtLine() int }

// Block is { ... }.
type Block struct {
	Stmts []Stmt
	Line  int
}

// DeclStmt declares local scalars, Inits[i] may be nil.
type DeclStmt struct {
	Type  Type
	Vars  []*Var
	Inits []Expr
	Line  int
}

// ExprStmt is an expression followed by ';'.
type ExprStmt struct {
	X    Expr
	Line int
}

// IfStmt is if/else; Else may be nil.
type IfStmt struct {
	Cond       Expr
	Then, Else Stmt
	Line       int
}

// ForStmt is a for loop; Init is nil, *ExprStmt or *DeclStmt; Cond and Post may be nil.
type ForStmt struct {
	Init Stmt
	Cond Expr
	Post Expr
	Body Stmt
	Line int
}

// WhileStmt is a while loop.
type WhileStmt struct {
	Cond Expr
	Body Stmt
	Line int
}

// BranchStmt is break or continue.
type BranchStmt struct {
	Tok  string
	Line int
}

// ReturnStmt is return with an optional value.
type ReturnStmt struct {
	X    Expr
	Line int
}

// EmptyStmt is a lone ';'.
type EmptyStmt struct{ Line int }

func (s *Block) stmtLine() int      { return s.Line }
func (s *DeclStmt) stmtLine() int   { return s.Line }
func (s *ExprStmt) stmtLine() int   { return s.Line }
func (s *IfStmt) stmtLine() int     { return s.Line }
func (s *ForStmt) stmtLine() int    { return s.Line }
func (s *WhileStmt) stmtLine() int  { return s.Line }
func (s *BranchStmt) stmtLine() int { return s.Line }
func (s *ReturnStmt) stmtLine() int { return s.Line }
func (s *EmptyStmt) stmtLine() int  { return s.Line }

// Expr is an expression.
type Expr interface{ exprLine() int }

// Ident is a resolved name: exactly one of Var, Global (a scalar global) and Define is set.
type Ident struct {
	Name   string
	Var    *Var
	Global *Global
	Define *Define
	Line   int
}

// Lit is a numeric literal, kept as written.
type Lit struct {
	Text  string
	Float bool
	Line  int
}

// Unary is a prefix operator: - + ! ~ ++ --.
type Unary struct {
	Op   string
	X    Expr
	Line int
}

// Postfix is x++ or x--.
type Postfix struct {
	Op   string
	X    Expr
	Line int
}

// Binary is a binary operator, including ',' && ||.
type Binary struct {
	Op   string
	X, Y Expr
	Line int
}

// Assign is = or a compound assignment.
type Assign struct {
	Op   string
	L, R Expr
	Line int
}

// CondExpr is c ? a : b.
type CondExpr struct {
	C, A, B Expr
	Line    int
}

// Cast is (type)x.
type Cast struct {
	Type Type
	X    Expr
	Line int
}

// Call calls one of the program's functions.
type Call struct {
	Name string
	Args []Expr
	Func *Func
	Line int
}

// Index is a fully indexed global array element.
type Index struct {
	Global *Global
	Idx    []Expr
	Line   int
}

// Paren keeps the user's parentheses so printed code reads like the input.
type Paren struct {
	X    Expr
	Line int
}

func (e *Ident) exprLine() int    { return e.Line }
func (e *Lit) exprLine() int      { return e.Line }
func (e *Unary) exprLine() int    { return e.Line }
func (e *Postfix) exprLine() int  { return e.Line }
func (e *Binary) exprLine() int   { return e.Line }
func (e *Assign) exprLine() int   { return e.Line }
func (e *CondExpr) exprLine() int { return e.Line }
func (e *Cast) exprLine() int     { return e.Line }
func (e *Call) exprLine() int     { return e.Line }
func (e *Index) exprLine() int    { return e.Line }
func (e *Paren) exprLine() int    { return e.Line }

// Array describes one global of the program as seen by a runner.
type Array struct {
	Name      string
	Type      string // "int", "unsigned", "long", "unsigned long", "float", "double"
	Dims      []int  // empty for a scalar global
	ElemBytes int
}

// Elems is the number of elements of one input (1 for a scalar).
func (a Array) Elems() int {
	n := 1
	for _, d := range a.Dims {
		n *= d
	}
	return n
}

// Arrays returns every global (arrays and scalars) in declaration order.
func (p *Program) Arrays() []Array {
	out := make([]Array, 0, len(p.Globals))
	for _, g := range p.Globals {
		out = append(out, Array{Name: g.Name, Type: string(g.Type), Dims: append([]int(nil), g.DimVals...), ElemBytes: elemBytes(g.Type)})
	}
	return out
}

// KernelCall returns the name of the function called after #pragma kernel.
func (p *Program) KernelCall() string {
	if p.Kernel == nil {
		return ""
	}
	return p.Kernel.Name
}
