//go:build amd64 && !purego

#include "textflag.h"

// One level of WholeHist (see wholeLevelGo). wholeLevelY is for rows of
// one block of four words (n ≤ 256) in a YMM register, wholeLevelZ for
// rows of blocks of eight words in ZMM registers: for each vertex v and
// each block of its row that is not all ones in vis, OR the same block
// of the frontier rows (cur) of v's out-neighbours, four arcs at a time
// into two accumulators, with a check after each chunk of arcs that
// stops once v's block is whole; the new bits (OR &^ vis) go to next and
// into vis, their popcount into a ZMM accumulator. A row is 1 << shift
// bytes. The rows are in L1 or L2 (n ≤ 1024): nothing is prefetched.
//
// Registers: SI vis, DI next, R8 cur (+ the block's offset in a row),
// R14 the end of R8, R9 off, R10 heads, R15 shift, AX v, BX the block's
// offset in the matrices, CX arc, R11 v's last arc, R12 chunk end, DX
// and R13 scratch; vector 15 all ones, 1 v's visited block, 0 and 3 the
// ORs, 2 the new bits, 7 their popcounts, 14 the sum of the popcounts.

// func wholeLevelY(vis, cur, next *uint64, off *int, heads *int32, n, shift, chunk int) (pairs int)
TEXT ·wholeLevelY(SB), NOSPLIT, $0-72
	MOVQ vis+0(FP), SI
	MOVQ cur+8(FP), R8
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ shift+48(FP), R15
	XORQ AX, AX
	XORQ BX, BX
	VPCMPEQQ Y15, Y15, Y15
	VPXORQ Z14, Z14, Z14

wy_vertex:
	CMPQ AX, n+40(FP)
	JGE  wy_done
	VMOVDQU (SI)(BX*1), Y1
	VPTEST Y15, Y1
	JCS  wy_next // every source has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), R11
	VPXOR Y0, Y0, Y0
	VPXOR Y3, Y3, Y3

wy_chunk:
	MOVQ chunk+56(FP), R12
	ADDQ CX, R12
	CMPQ R12, R11
	CMOVQGT R11, R12

wy_quad:
	LEAQ 3(CX), DX
	CMPQ DX, R12
	JGE  wy_single
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 4(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPOR (R8)(DX*1), Y0, Y0
	VPOR (R8)(R13*1), Y3, Y3
	MOVL 8(R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 12(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPOR (R8)(DX*1), Y0, Y0
	VPOR (R8)(R13*1), Y3, Y3
	ADDQ $4, CX
	JMP  wy_quad

wy_single:
	CMPQ CX, R12
	JGE  wy_chunkend
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	VPOR (R8)(DX*1), Y0, Y0
	INCQ CX
	JMP  wy_single

wy_chunkend:
	CMPQ CX, R11
	JGE  wy_arcsdone
	// More arcs: stop once v is whole.
	VPOR Y3, Y0, Y4
	VPOR Y1, Y4, Y4
	VPTEST Y15, Y4
	JCC  wy_chunk

wy_arcsdone:
	VPOR Y3, Y0, Y0
	VPANDN Y0, Y1, Y2 // new = or &^ visited
	VMOVDQU Y2, (DI)(BX*1)
	VPOR Y2, Y1, Y1
	VMOVDQU Y1, (SI)(BX*1)
	VPOPCNTQ Z2, Z7 // the upper half of Z2 is zero (VEX writes clear it)
	VPADDQ Z7, Z14, Z14

wy_next:
	ADDQ $32, BX
	INCQ AX
	JMP  wy_vertex

wy_done:
	VEXTRACTI64X4 $1, Z14, Y4
	VPADDQ Y4, Y14, Y14
	VEXTRACTI128 $1, Y14, X4
	VPADDQ X4, X14, X14
	VPSHUFD $0x4e, X14, X4
	VPADDQ X4, X14, X14
	VMOVQ X14, DX
	MOVQ DX, pairs+64(FP)
	VZEROUPPER
	RET

// func wholeLevelZ(vis, cur, next *uint64, off *int, heads *int32, n, shift, chunk int) (pairs int)
TEXT ·wholeLevelZ(SB), NOSPLIT, $0-72
	MOVQ vis+0(FP), SI
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ shift+48(FP), R15
	MOVQ $1, R14
	SHLXQ R15, R14, R14
	ADDQ cur+8(FP), R14
	XORQ AX, AX
	XORQ BX, BX
	VPTERNLOGQ $0xff, Z15, Z15, Z15
	VPXORQ Z14, Z14, Z14

wz_vertex:
	CMPQ AX, n+40(FP)
	JGE  wz_done
	MOVQ cur+8(FP), R8

wz_block:
	VMOVDQU64 (SI)(BX*1), Z1
	VPCMPEQQ Z15, Z1, K1
	KORTESTB K1, K1
	JCS  wz_next // every source of the block has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), R11
	VPXORQ Z0, Z0, Z0
	VPXORQ Z3, Z3, Z3

wz_chunk:
	MOVQ chunk+56(FP), R12
	ADDQ CX, R12
	CMPQ R12, R11
	CMOVQGT R11, R12

wz_quad:
	LEAQ 3(CX), DX
	CMPQ DX, R12
	JGE  wz_single
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 4(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPORQ (R8)(DX*1), Z0, Z0
	VPORQ (R8)(R13*1), Z3, Z3
	MOVL 8(R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 12(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPORQ (R8)(DX*1), Z0, Z0
	VPORQ (R8)(R13*1), Z3, Z3
	ADDQ $4, CX
	JMP  wz_quad

wz_single:
	CMPQ CX, R12
	JGE  wz_chunkend
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	VPORQ (R8)(DX*1), Z0, Z0
	INCQ CX
	JMP  wz_single

wz_chunkend:
	CMPQ CX, R11
	JGE  wz_arcsdone
	// More arcs: stop once the block is whole.
	VMOVDQA64 Z1, Z4
	VPTERNLOGQ $0xfe, Z3, Z0, Z4 // Z4 = Z1 | Z0 | Z3
	VPCMPEQQ Z15, Z4, K3
	KORTESTB K3, K3
	JCC  wz_chunk

wz_arcsdone:
	VPORQ Z3, Z0, Z0
	VPANDNQ Z0, Z1, Z2 // new = or &^ visited
	VMOVDQU64 Z2, (DI)(BX*1)
	VPORQ Z2, Z1, Z1
	VMOVDQU64 Z1, (SI)(BX*1)
	VPOPCNTQ Z2, Z7
	VPADDQ Z7, Z14, Z14

wz_next:
	ADDQ $64, BX
	ADDQ $64, R8
	CMPQ R8, R14
	JLT  wz_block
	INCQ AX
	JMP  wz_vertex

wz_done:
	VEXTRACTI64X4 $1, Z14, Y4
	VPADDQ Y4, Y14, Y14
	VEXTRACTI128 $1, Y14, X4
	VPADDQ X4, X14, X14
	VPSHUFD $0x4e, X14, X4
	VPADDQ X4, X14, X14
	VMOVQ X14, DX
	MOVQ DX, pairs+64(FP)
	VZEROUPPER
	RET


// wholeLevelYAll and wholeLevelZAll are wholeLevelY and wholeLevelZ for
// a level with every arc ORed (no chunks, no checks; the levels before
// half the pairs are found), with fewer instructions a vertex: v's
// block is not tested for being whole (few are, and a whole block just
// finds no new bit) and the arc loop runs four arcs a turn to v's last
// quad (R12 its end), then one at a time.

// func wholeLevelYAll(vis, cur, next *uint64, off *int, heads *int32, n, shift int) (pairs int)
TEXT ·wholeLevelYAll(SB), NOSPLIT, $0-64
	MOVQ vis+0(FP), SI
	MOVQ cur+8(FP), R8
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ n+40(FP), R14
	MOVQ shift+48(FP), R15
	XORQ AX, AX
	XORQ BX, BX
	VPXORQ Z14, Z14, Z14
	CMPQ AX, R14
	JGE  ya_done

ya_vertex:
	VMOVDQU (SI)(BX*1), Y1
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), R11
	LEAQ -3(R11), R12
	VPXOR Y0, Y0, Y0
	VPXOR Y3, Y3, Y3
	CMPQ CX, R12
	JGE  ya_single

ya_quad:
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 4(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPOR (R8)(DX*1), Y0, Y0
	VPOR (R8)(R13*1), Y3, Y3
	MOVL 8(R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 12(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPOR (R8)(DX*1), Y0, Y0
	VPOR (R8)(R13*1), Y3, Y3
	ADDQ $4, CX
	CMPQ CX, R12
	JLT  ya_quad

ya_single:
	CMPQ CX, R11
	JGE  ya_arcsdone
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	VPOR (R8)(DX*1), Y0, Y0
	INCQ CX
	JMP  ya_single

ya_arcsdone:
	VPOR Y3, Y0, Y0
	VPANDN Y0, Y1, Y2 // new = or &^ visited
	VMOVDQU Y2, (DI)(BX*1)
	VPOR Y2, Y1, Y1
	VMOVDQU Y1, (SI)(BX*1)
	VPOPCNTQ Z2, Z7 // the upper half of Z2 is zero (VEX writes clear it)
	VPADDQ Z7, Z14, Z14
	ADDQ $32, BX
	INCQ AX
	CMPQ AX, R14
	JLT  ya_vertex

ya_done:
	VEXTRACTI64X4 $1, Z14, Y4
	VPADDQ Y4, Y14, Y14
	VEXTRACTI128 $1, Y14, X4
	VPADDQ X4, X14, X14
	VPSHUFD $0x4e, X14, X4
	VPADDQ X4, X14, X14
	VMOVQ X14, DX
	MOVQ DX, pairs+56(FP)
	VZEROUPPER
	RET

// func wholeLevelZAll(vis, cur, next *uint64, off *int, heads *int32, n, shift int) (pairs int)
TEXT ·wholeLevelZAll(SB), NOSPLIT, $0-64
	MOVQ vis+0(FP), SI
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ shift+48(FP), R15
	MOVQ $1, R14
	SHLXQ R15, R14, R14
	ADDQ cur+8(FP), R14
	XORQ AX, AX
	XORQ BX, BX
	VPXORQ Z14, Z14, Z14
	CMPQ AX, n+40(FP)
	JGE  za_done

za_vertex:
	MOVQ cur+8(FP), R8
	MOVQ 8(R9)(AX*8), R11
	LEAQ -3(R11), R12

za_block:
	VMOVDQU64 (SI)(BX*1), Z1
	MOVQ (R9)(AX*8), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z3, Z3, Z3
	CMPQ CX, R12
	JGE  za_single

za_quad:
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 4(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPORQ (R8)(DX*1), Z0, Z0
	VPORQ (R8)(R13*1), Z3, Z3
	MOVL 8(R10)(CX*4), DX
	SHLXQ R15, DX, DX
	MOVL 12(R10)(CX*4), R13
	SHLXQ R15, R13, R13
	VPORQ (R8)(DX*1), Z0, Z0
	VPORQ (R8)(R13*1), Z3, Z3
	ADDQ $4, CX
	CMPQ CX, R12
	JLT  za_quad

za_single:
	CMPQ CX, R11
	JGE  za_arcsdone
	MOVL (R10)(CX*4), DX
	SHLXQ R15, DX, DX
	VPORQ (R8)(DX*1), Z0, Z0
	INCQ CX
	JMP  za_single

za_arcsdone:
	VPORQ Z3, Z0, Z0
	VPANDNQ Z0, Z1, Z2 // new = or &^ visited
	VMOVDQU64 Z2, (DI)(BX*1)
	VPORQ Z2, Z1, Z1
	VMOVDQU64 Z1, (SI)(BX*1)
	VPOPCNTQ Z2, Z7
	VPADDQ Z7, Z14, Z14
	ADDQ $64, BX
	ADDQ $64, R8
	CMPQ R8, R14
	JLT  za_block
	INCQ AX
	CMPQ AX, n+40(FP)
	JLT  za_vertex

za_done:
	VEXTRACTI64X4 $1, Z14, Y4
	VPADDQ Y4, Y14, Y14
	VEXTRACTI128 $1, Y14, X4
	VPADDQ X4, X14, X14
	VPSHUFD $0x4e, X14, X4
	VPADDQ X4, X14, X14
	VMOVQ X14, DX
	MOVQ DX, pairs+56(FP)
	VZEROUPPER
	RET
