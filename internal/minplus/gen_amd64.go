//go:build ignore

// gen_amd64.go writes minplus_amd64.s. The kernels are fully unrolled over a
// register block of C, so writing them by hand would be long and error-prone;
// this generator is the source of truth. Run with `go generate` (see
// minplus_amd64.go) and commit the output.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
)

// kernel describes one matrix min-plus kernel.
type kernel struct {
	name   string // Go function name
	goType string // element type, for the comment
	elem   int    // element size in bytes
	vec    string // "Y" (AVX2, 32 bytes) or "Z" (AVX-512, 64 bytes)
	load   string // aligned-agnostic vector load/store mnemonic
	bcast  string // scalar-to-vector broadcast from memory
	rb, nv int    // main register block: rb rows × nv vectors
	nvu    int    // vectors per column strip for the leftover columns
	add    string // vector add mnemonic
	// relax emits acc = min(acc, x + b) using scratch t (and m where needed).
	relax func(g *gen, acc, x, b, t, m string)
	// merge emits acc = min(mem, acc), mem (C) winning ties, for the C fold.
	merge func(g *gen, acc, mem, t, m string)
	// extra scratch registers relax needs besides t.
	scratch int
	// aType and aElem are A's element type and size when they differ from
	// C's and B's: the packed kernels' "Pre" forms take A with each value
	// repeated across an int32 (ExpandInt8), which a plain 32-bit
	// broadcast load fills a vector with, where a byte or word broadcast
	// from memory costs a shuffle as well (measured on an AVX-512 Xeon).
	aType string
	aElem int
}

func (k kernel) aSize() int {
	if k.aElem != 0 {
		return k.aElem
	}
	return k.elem
}

func (k kernel) aGoType() string {
	if k.aType != "" {
		return k.aType
	}
	return k.goType
}

func (k kernel) vbytes() int {
	if k.vec == "Y" {
		return 32
	}
	return 64
}

func (k kernel) nregs() int {
	if k.vec == "Y" {
		return 16
	}
	return 32
}

type gen struct{ buf bytes.Buffer }

func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.buf, "\t"+format+"\n", args...)
}

func (g *gen) lbl(name string) { fmt.Fprintf(&g.buf, "%s:\n", name) }

// aAddr returns the address of A[i+r][k] relative to AX = &A[i][k]: R8 holds
// lda in bytes, R9 3·lda, R10 5·lda and R11 7·lda, so rows 0..8 need no
// pointer of their own.
func aAddr(r int) string {
	switch r {
	case 0:
		return "(AX)"
	case 1:
		return "(AX)(R8*1)"
	case 2:
		return "(AX)(R8*2)"
	case 3:
		return "(AX)(R9*1)"
	case 4:
		return "(AX)(R8*4)"
	case 5:
		return "(AX)(R10*1)"
	case 6:
		return "(AX)(R9*2)"
	case 7:
		return "(AX)(R11*1)"
	case 8:
		return "(AX)(R8*8)"
	}
	log.Fatalf("row %d out of addressing range", r)
	return ""
}

// block emits the code for one register block of rows×nv vectors whose C
// corner is DI, A corner SI and B column offset DX.
func (g *gen) block(k kernel, rows, nv int, id string) {
	vb := k.vbytes()
	reg := func(n int) string { return fmt.Sprintf("%s%d", k.vec, n) }
	acc := func(r, v int) string { return reg(r*nv + v) }
	next := rows * nv
	breg := make([]string, nv)
	for v := range breg {
		breg[v] = reg(next)
		next++
	}
	x := reg(next)
	next++
	// Alternate scratch registers where there are spare ones so that
	// consecutive relaxations do not share a destination.
	var ts []string
	for next+1+k.scratch <= k.nregs() && len(ts) < 4 {
		ts = append(ts, reg(next))
		next++
	}
	m := ""
	if k.scratch > 0 {
		m = reg(k.nregs() - 1)
		if len(ts) > 0 && ts[len(ts)-1] == m {
			ts = ts[:len(ts)-1]
		}
	}
	if len(ts) == 0 {
		log.Fatalf("%s: block %dx%d does not fit in registers", k.name, rows, nv)
	}

	// C is only needed at the end, so rather than starting the min chain
	// from it (and stalling on a cache miss in every block of a big
	// matrix) the accumulators start from k = 0 and C is folded in last.
	// Prefetching this block's C rows and the next block's gives the
	// misses the whole k loop to complete (past the last block this
	// touches rows outside the tile, which is harmless for a prefetch).
	g.p("MOVQ DI, AX")
	for r := 0; r < 2*rows; r++ {
		for off := 0; off < nv*vb; off += 64 {
			g.p("PREFETCHT0 %d(AX)", off)
		}
		if r < 2*rows-1 {
			g.p("ADDQ R12, AX")
		}
	}
	g.p("MOVQ SI, AX")
	g.p("MOVQ b+32(FP), BX")
	g.p("ADDQ DX, BX")
	g.p("MOVQ depth+64(FP), CX")

	ti := 0
	step := func(first bool) {
		for v := 0; v < nv; v++ {
			g.p("%s %d(BX), %s", k.load, v*vb, breg[v])
		}
		for r := 0; r < rows; r++ {
			g.p("%s %s, %s", k.bcast, aAddr(r), x)
			for v := 0; v < nv; v++ {
				if first {
					g.p("%s %s, %s, %s", k.add, breg[v], x, acc(r, v))
					continue
				}
				t := ts[ti%len(ts)]
				ti++
				k.relax(g, acc(r, v), x, breg[v], t, m)
			}
		}
	}
	step(true)
	g.p("ADDQ $%d, AX", k.aSize())
	g.p("ADDQ R13, BX")
	g.p("DECQ CX")
	g.p("JZ %s_kdone", id)
	g.lbl(id + "_k")
	step(false)
	g.p("ADDQ $%d, AX", k.aSize())
	g.p("ADDQ R13, BX")
	g.p("DECQ CX")
	g.p("JNZ %s_k", id)
	g.lbl(id + "_kdone")

	// Fold in C and store the block back.
	g.p("MOVQ DI, AX")
	for r := 0; r < rows; r++ {
		for v := 0; v < nv; v++ {
			k.merge(g, acc(r, v), fmt.Sprintf("%d(AX)", v*vb), ts[0], m)
			g.p("%s %s, %d(AX)", k.load, acc(r, v), v*vb)
		}
		if r < rows-1 {
			g.p("ADDQ R12, AX")
		}
	}
}

// rbFor is the row-block height for a strip of nv vectors: the configured
// one for the main strip, and for the narrower leftover strip as many rows
// as the registers and A addressing allow (more rows mean fewer B loads per
// relaxation, which matters when B rows are a power-of-two stride apart and
// fight over the same L1 sets).
func (k kernel) rbFor(nv int) int {
	if nv == k.nv {
		return k.rb
	}
	rb := (k.nregs() - nv - 2 - k.scratch) / nv
	return min(rb, 9)
}

// strip emits the loop over all row blocks of one column strip of nv vectors.
func (g *gen) strip(k kernel, nv int, id string) {
	rb := k.rbFor(nv)
	g.p("MOVQ c+0(FP), DI")
	g.p("ADDQ DX, DI")
	g.p("MOVQ a+16(FP), SI")
	g.p("MOVQ rows+48(FP), R15")
	g.lbl(id + "_rows")
	g.p("CMPQ R15, $%d", rb)
	g.p("JLT %s_rem", id)
	g.block(k, rb, nv, id+"_full")
	g.p("MOVQ R12, AX")
	g.p("IMULQ $%d, AX", rb)
	g.p("ADDQ AX, DI")
	g.p("MOVQ R8, AX")
	g.p("IMULQ $%d, AX", rb)
	g.p("ADDQ AX, SI")
	g.p("SUBQ $%d, R15", rb)
	g.p("JMP %s_rows", id)
	g.lbl(id + "_rem")
	for r := 1; r < rb; r++ {
		g.p("CMPQ R15, $%d", r)
		g.p("JEQ %s_rem%d", id, r)
	}
	g.p("JMP %s_done", id)
	for r := 1; r < rb; r++ {
		g.lbl(fmt.Sprintf("%s_rem%d", id, r))
		g.block(k, r, nv, fmt.Sprintf("%s_rem%d", id, r))
		g.p("JMP %s_done", id)
	}
	g.lbl(id + "_done")
}

func (g *gen) matrix(k kernel) {
	vb := k.vbytes()
	shifts := map[int]int{1: 0, 2: 1, 4: 2, 8: 3}
	shift, ashift := shifts[k.elem], shifts[k.aSize()]
	fmt.Fprintf(&g.buf, "\n// func %s(c *%s, ldc int, a *%s, lda int, b *%s, ldb int, rows, cols, depth int)\n", k.name, k.goType, k.aGoType(), k.goType)
	fmt.Fprintf(&g.buf, "// Column strips of %d, register block %d rows × %d cols.\n", k.nv*vb/k.elem, k.rb, k.nv*vb/k.elem)
	fmt.Fprintf(&g.buf, "TEXT ·%s(SB), NOSPLIT, $0-72\n", k.name)
	shlBy := func(r string, by int) {
		if by > 0 {
			g.p("SHLQ $%d, %s", by, r)
		}
	}
	shl := func(r string) { shlBy(r, shift) }
	g.p("MOVQ lda+24(FP), R8")
	shlBy("R8", ashift)
	g.p("LEAQ (R8)(R8*2), R9")
	g.p("LEAQ (R8)(R8*4), R10")
	g.p("LEAQ (R9)(R8*4), R11")
	g.p("MOVQ ldc+8(FP), R12")
	shl("R12")
	g.p("MOVQ ldb+40(FP), R13")
	shl("R13")
	g.p("XORQ DX, DX") // byte offset of the current column strip
	id := k.name
	g.lbl(id + "_wide")
	g.p("MOVQ cols+56(FP), AX")
	shl("AX")
	g.p("SUBQ DX, AX")
	g.p("CMPQ AX, $%d", k.nv*vb)
	g.p("JLT %s_narrow", id)
	g.strip(k, k.nv, id+"_w")
	g.p("ADDQ $%d, DX", k.nv*vb)
	g.p("JMP %s_wide", id)
	// AX holds the bytes left, less than one main strip and a multiple of
	// nvu vectors: one narrower strip finishes the job.
	g.lbl(id + "_narrow")
	for nv := k.nv - k.nvu; nv >= k.nvu; nv -= k.nvu {
		g.p("CMPQ AX, $%d", nv*vb)
		g.p("JEQ %s_n%d", id, nv)
	}
	g.p("JMP %s_end", id)
	for nv := k.nv - k.nvu; nv >= k.nvu; nv -= k.nvu {
		g.lbl(fmt.Sprintf("%s_n%d", id, nv))
		g.strip(k, nv, fmt.Sprintf("%s_n%d", id, nv))
		g.p("JMP %s_end", id)
	}
	g.lbl(id + "_end")
	g.p("VZEROUPPER")
	g.p("RET")
}

// rowKernel describes a RelaxRow kernel: dst[j] = min(dst[j], x + src[j]).
type rowKernel struct {
	name    string
	goType  string
	elem    int
	vec     string
	load    string
	bcastX  func(g *gen, x string) // broadcast the argument x into register x
	relax   func(g *gen, acc, x, b, t, m string)
	scratch int
}

func (g *gen) row(k rowKernel) {
	vb := 32
	if k.vec == "Z" {
		vb = 64
	}
	const unroll = 4
	reg := func(n int) string { return fmt.Sprintf("%s%d", k.vec, n) }
	fmt.Fprintf(&g.buf, "\n// func %s(dst, src *%s, x %s, n int)\n", k.name, k.goType, k.goType)
	fmt.Fprintf(&g.buf, "// n must be a multiple of %d.\n", vb/k.elem)
	fmt.Fprintf(&g.buf, "TEXT ·%s(SB), NOSPLIT, $0-32\n", k.name)
	g.p("MOVQ dst+0(FP), DI")
	g.p("MOVQ src+8(FP), SI")
	g.p("MOVQ n+24(FP), CX")
	k.bcastX(g, reg(15))
	x := reg(15)
	m := reg(14)
	g.p("CMPQ CX, $%d", unroll*vb/k.elem)
	g.p("JLT %s_one", k.name)
	g.lbl(k.name + "_four")
	for u := 0; u < unroll; u++ {
		g.p("%s %d(DI), %s", k.load, u*vb, reg(u))
		g.p("%s %d(SI), %s", k.load, u*vb, reg(4+u))
	}
	for u := 0; u < unroll; u++ {
		k.relax(g, reg(u), x, reg(4+u), reg(8+u), m)
	}
	for u := 0; u < unroll; u++ {
		g.p("%s %s, %d(DI)", k.load, reg(u), u*vb)
	}
	g.p("ADDQ $%d, DI", unroll*vb)
	g.p("ADDQ $%d, SI", unroll*vb)
	g.p("SUBQ $%d, CX", unroll*vb/k.elem)
	g.p("CMPQ CX, $%d", unroll*vb/k.elem)
	g.p("JGE %s_four", k.name)
	g.lbl(k.name + "_one")
	g.p("TESTQ CX, CX")
	g.p("JZ %s_end", k.name)
	g.p("%s (DI), %s", k.load, reg(0))
	g.p("%s (SI), %s", k.load, reg(4))
	k.relax(g, reg(0), x, reg(4), reg(8), m)
	g.p("%s %s, (DI)", k.load, reg(0))
	g.p("ADDQ $%d, DI", vb)
	g.p("ADDQ $%d, SI", vb)
	g.p("SUBQ $%d, CX", vb/k.elem)
	g.p("JMP %s_one", k.name)
	g.lbl(k.name + "_end")
	g.p("VZEROUPPER")
	g.p("RET")
}

// bcastInt32Arg goes through a general register: vet's asmdecl
// misjudges the operand size of VPBROADCASTD from memory.
func bcastInt32Arg(g *gen, x string) {
	g.p("MOVL x+16(FP), AX")
	g.p("VMOVD AX, X15")
	g.p("VPBROADCASTD X15, %s", x)
}

// bcastArg returns a broadcast of the argument x of a narrow row kernel
// through a general register (load zero-extended, move, broadcast).
func bcastArg(mov, bcast string) func(g *gen, x string) {
	return func(g *gen, x string) {
		g.p("%s x+16(FP), AX", mov)
		g.p("VMOVD AX, X15")
		g.p("%s X15, %s", bcast, x)
	}
}

// Relaxation bodies. Go assembler operand order is the reverse of Intel's.
func relaxInt32(g *gen, acc, x, b, t, m string) {
	g.p("VPADDD %s, %s, %s", b, x, t)
	g.p("VPMINSD %s, %s, %s", t, acc, acc)
}

// The packed kernels use plain signed adds and mins, as the int32 one does:
// the lane kinds' infinities (63 for int8, 16383 for int16) leave room for
// the sum of two stored values, so nothing wraps and nothing saturates.
// (Unsigned saturating adds, VPADDUSB/VPMINUB, are as cheap (one uop each) but
// would need an infinity of 255 and unsigned lanes: another kind.)
func relaxInt8(g *gen, acc, x, b, t, m string) {
	g.p("VPADDB %s, %s, %s", b, x, t)
	g.p("VPMINSB %s, %s, %s", t, acc, acc)
}

func relaxInt16(g *gen, acc, x, b, t, m string) {
	g.p("VPADDW %s, %s, %s", b, x, t)
	g.p("VPMINSW %s, %s, %s", t, acc, acc)
}

func relaxInt64AVX512(g *gen, acc, x, b, t, m string) {
	g.p("VPADDQ %s, %s, %s", b, x, t)
	g.p("VPMINSQ %s, %s, %s", t, acc, acc)
}

// AVX2 has no 64-bit signed min: m = acc > t, then take t where m is set.
func relaxInt64AVX2(g *gen, acc, x, b, t, m string) {
	g.p("VPADDQ %s, %s, %s", b, x, t)
	g.p("VPCMPGTQ %s, %s, %s", t, acc, m)
	g.p("VPBLENDVB %s, %s, %s, %s", m, t, acc, acc)
}

// VMINPD returns its second Intel source when the first is not smaller, so
// with t first the accumulator only changes when t < acc, exactly like the
// reference's `if s < c`.
func relaxFloat64(g *gen, acc, x, b, t, m string) {
	g.p("VADDPD %s, %s, %s", b, x, t)
	g.p("VMINPD %s, %s, %s", acc, t, acc)
}

// mergeOp folds C into a finished accumulator with a memory-operand min.
// For VMINPD, Intel's "first source if smaller else second" keeps C on ties,
// as the reference does (C comes first in its order).
func mergeOp(op string) func(g *gen, acc, mem, t, m string) {
	return func(g *gen, acc, mem, t, m string) { g.p("%s %s, %s, %s", op, mem, acc, acc) }
}

func mergeInt64AVX2(g *gen, acc, mem, t, m string) {
	g.p("VMOVDQU %s, %s", mem, t)
	g.p("VPCMPGTQ %s, %s, %s", t, acc, m)
	g.p("VPBLENDVB %s, %s, %s, %s", m, t, acc, acc)
}

func main() {
	cfg := map[string][2]int{ // name -> rows, vectors of the main register block
		// Best measured on Zen 4 with bench_test.go. With contiguous
		// tiles every choice is ALU bound; the shape matters when B rows
		// are a power-of-two stride apart and share L1 sets.
		"int32AVX2":      {6, 2},
		"int32AVX512":    {4, 4},
		"int64AVX2":      {5, 2},
		"int64AVX512":    {6, 4},
		"float64AVX2":    {6, 2},
		"float64AVX512":  {6, 4},
		"int16AVX2":      {6, 2},
		"int16AVX512":    {8, 2},
		"int8AVX2":       {6, 2},
		"int8AVX512":     {8, 2},
		"int16PreAVX2":   {6, 2},
		"int16PreAVX512": {6, 4},
		"int8PreAVX2":    {6, 2},
		"int8PreAVX512":  {6, 4},
	}
	// MINPLUS_CFG="int32AVX2=6,2;..." overrides the blocks for
	// experiments only: the committed file is the output without it (CI
	// unsets it), and an overridden file says so in its header.
	override := os.Getenv("MINPLUS_CFG")
	if override != "" {
		for _, kv := range strings.Split(override, ";") {
			name, val, _ := strings.Cut(kv, "=")
			if _, ok := cfg[name]; !ok {
				log.Fatalf("MINPLUS_CFG: no kernel %q", name)
			}
			var rb, nv int
			if _, err := fmt.Sscanf(val, "%d,%d", &rb, &nv); err != nil {
				log.Fatalf("MINPLUS_CFG: %s: %v", kv, err)
			}
			cfg[name] = [2]int{rb, nv}
		}
		log.Printf("MINPLUS_CFG=%q: writing an experimental minplus_amd64.s, not the committed one", override)
	}
	type relaxFunc = func(*gen, string, string, string, string, string)
	type mergeFunc = func(*gen, string, string, string, string)
	mk := func(name, goType string, elem int, vec, load, bcast, add string, nvu int, relax relaxFunc, merge mergeFunc, scratch int) kernel {
		c := cfg[name]
		return kernel{name: name, goType: goType, elem: elem, vec: vec, load: load, bcast: bcast, add: add,
			rb: c[0], nv: c[1], nvu: nvu, relax: relax, merge: merge, scratch: scratch}
	}
	kernels := []kernel{
		mk("int32AVX2", "int32", 4, "Y", "VMOVDQU", "VPBROADCASTD", "VPADDD", 2, relaxInt32, mergeOp("VPMINSD"), 0),
		mk("int32AVX512", "int32", 4, "Z", "VMOVDQU32", "VPBROADCASTD", "VPADDD", 1, relaxInt32, mergeOp("VPMINSD"), 0),
		mk("int64AVX2", "int64", 8, "Y", "VMOVDQU", "VPBROADCASTQ", "VPADDQ", 2, relaxInt64AVX2, mergeInt64AVX2, 1),
		mk("int64AVX512", "int64", 8, "Z", "VMOVDQU64", "VPBROADCASTQ", "VPADDQ", 1, relaxInt64AVX512, mergeOp("VPMINSQ"), 0),
		mk("float64AVX2", "float64", 8, "Y", "VMOVUPD", "VBROADCASTSD", "VADDPD", 2, relaxFloat64, mergeOp("VMINPD"), 0),
		mk("float64AVX512", "float64", 8, "Z", "VMOVUPD", "VBROADCASTSD", "VADDPD", 1, relaxFloat64, mergeOp("VMINPD"), 0),
		// AVX-512BW: byte and word lanes.
		mk("int16AVX2", "int16", 2, "Y", "VMOVDQU", "VPBROADCASTW", "VPADDW", 1, relaxInt16, mergeOp("VPMINSW"), 0),
		mk("int16AVX512", "int16", 2, "Z", "VMOVDQU16", "VPBROADCASTW", "VPADDW", 1, relaxInt16, mergeOp("VPMINSW"), 0),
		mk("int8AVX2", "int8", 1, "Y", "VMOVDQU", "VPBROADCASTB", "VPADDB", 1, relaxInt8, mergeOp("VPMINSB"), 0),
		mk("int8AVX512", "int8", 1, "Z", "VMOVDQU8", "VPBROADCASTB", "VPADDB", 1, relaxInt8, mergeOp("VPMINSB"), 0),
	}
	for _, name := range []string{"int16AVX2", "int16AVX512", "int8AVX2", "int8AVX512"} {
		for _, k := range kernels {
			if k.name == name {
				pre := k
				pre.name = strings.Replace(name, "AVX", "PreAVX", 1)
				pre.aType, pre.aElem, pre.bcast = "int32", 4, "VPBROADCASTD"
				c := cfg[pre.name]
				pre.rb, pre.nv = c[0], c[1]
				kernels = append(kernels, pre)
			}
		}
	}
	rows := []rowKernel{
		{"relaxRowInt32AVX2", "int32", 4, "Y", "VMOVDQU", bcastInt32Arg, relaxInt32, 0},
		{"relaxRowInt32AVX512", "int32", 4, "Z", "VMOVDQU32", bcastInt32Arg, relaxInt32, 0},
		{"relaxRowInt64AVX2", "int64", 8, "Y", "VMOVDQU", func(g *gen, x string) { g.p("VPBROADCASTQ x+16(FP), %s", x) }, relaxInt64AVX2, 1},
		{"relaxRowInt64AVX512", "int64", 8, "Z", "VMOVDQU64", func(g *gen, x string) { g.p("VPBROADCASTQ x+16(FP), %s", x) }, relaxInt64AVX512, 0},
		{"relaxRowFloat64AVX2", "float64", 8, "Y", "VMOVUPD", func(g *gen, x string) { g.p("VBROADCASTSD x+16(FP), %s", x) }, relaxFloat64, 0},
		{"relaxRowFloat64AVX512", "float64", 8, "Z", "VMOVUPD", func(g *gen, x string) { g.p("VBROADCASTSD x+16(FP), %s", x) }, relaxFloat64, 0},
		{"relaxRowInt16AVX2", "int16", 2, "Y", "VMOVDQU", bcastArg("MOVWLZX", "VPBROADCASTW"), relaxInt16, 0},
		{"relaxRowInt16AVX512", "int16", 2, "Z", "VMOVDQU16", bcastArg("MOVWLZX", "VPBROADCASTW"), relaxInt16, 0},
		{"relaxRowInt8AVX2", "int8", 1, "Y", "VMOVDQU", bcastArg("MOVBLZX", "VPBROADCASTB"), relaxInt8, 0},
		{"relaxRowInt8AVX512", "int8", 1, "Z", "VMOVDQU8", bcastArg("MOVBLZX", "VPBROADCASTB"), relaxInt8, 0},
	}

	g := &gen{}
	g.buf.WriteString("// Code generated by gen_amd64.go; DO NOT EDIT.\n\n")
	if override != "" {
		fmt.Fprintf(&g.buf, "// Experimental blocks, MINPLUS_CFG=%q: not the committed file.\n\n", override)
	}
	g.buf.WriteString("//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	for _, k := range kernels {
		g.matrix(k)
	}
	for _, k := range rows {
		g.row(k)
	}
	if err := os.WriteFile("minplus_amd64.s", g.buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
