//go:build amd64 && !purego

#include "textflag.h"

// The column counters of a search from chosen sources (countColumns in
// bitfrom.go), for four words a vertex in YMM registers (AVX2) and for
// eight in ZMM registers (AVX-512). Planes 0–7 of every word (plane q at
// planes + q·8·W bytes) stay in registers 0–7 for the whole call; each
// group of sixteen vertices goes through a tree of carry-save adders into
// planes 0–3 (Harley and Seal), whose carry of weight 16 ripples through
// planes 4–7, and past them, where any lane carries on, through the
// planes in memory (at most fromPlanes).
//
// Registers: DI planes, SI next, R8 list, CX groups left, AX and DX
// scratch; 8, 9 the two words loaded, 10–14 the tree's carries, 15 a
// temporary.

// CSA256 adds b and c to a: a gets the sum, hi the carry (lane by lane).
#define CSA256(a, b, c, hi) \
	VPXOR  b, a, Y15 \
	VPAND  b, a, hi \
	VPXOR  c, Y15, a \
	VPAND  c, Y15, Y15 \
	VPOR   Y15, hi, hi

// LOAD4 loads the four words of vertex list[i] into y.
#define LOAD4(i, y) \
	MOVLQSX (i*4)(R8), AX \
	SHLQ    $5, AX \
	VMOVDQU (SI)(AX*1), y

// func count4AVX2(planes, next *uint64, list *int32, groups int)
TEXT ·count4AVX2(SB), NOSPLIT, $0-32
	MOVQ planes+0(FP), DI
	MOVQ next+8(FP), SI
	MOVQ list+16(FP), R8
	MOVQ groups+24(FP), CX
	VMOVDQU 0(DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VMOVDQU 128(DI), Y4
	VMOVDQU 160(DI), Y5
	VMOVDQU 192(DI), Y6
	VMOVDQU 224(DI), Y7

c4_group:
	TESTQ CX, CX
	JZ    c4_done
	LOAD4(0, Y8)
	LOAD4(1, Y9)
	CSA256(Y0, Y8, Y9, Y10)
	LOAD4(2, Y8)
	LOAD4(3, Y9)
	CSA256(Y0, Y8, Y9, Y11)
	CSA256(Y1, Y10, Y11, Y12)
	LOAD4(4, Y8)
	LOAD4(5, Y9)
	CSA256(Y0, Y8, Y9, Y10)
	LOAD4(6, Y8)
	LOAD4(7, Y9)
	CSA256(Y0, Y8, Y9, Y11)
	CSA256(Y1, Y10, Y11, Y13)
	CSA256(Y2, Y12, Y13, Y14)
	LOAD4(8, Y8)
	LOAD4(9, Y9)
	CSA256(Y0, Y8, Y9, Y10)
	LOAD4(10, Y8)
	LOAD4(11, Y9)
	CSA256(Y0, Y8, Y9, Y11)
	CSA256(Y1, Y10, Y11, Y12)
	LOAD4(12, Y8)
	LOAD4(13, Y9)
	CSA256(Y0, Y8, Y9, Y10)
	LOAD4(14, Y8)
	LOAD4(15, Y9)
	CSA256(Y0, Y8, Y9, Y11)
	CSA256(Y1, Y10, Y11, Y13)
	CSA256(Y2, Y12, Y13, Y10)
	CSA256(Y3, Y14, Y10, Y11)
	// The carry of weight 16 (Y11) through planes 4–7.
	VPAND Y11, Y4, Y15
	VPXOR Y11, Y4, Y4
	VPAND Y15, Y5, Y11
	VPXOR Y15, Y5, Y5
	VPAND Y11, Y6, Y15
	VPXOR Y11, Y6, Y6
	VPAND Y15, Y7, Y11
	VPXOR Y15, Y7, Y7
	VPTEST Y11, Y11
	JZ     c4_next
	LEAQ  256(DI), DX
	LEAQ  1024(DI), BX

c4_ripple:
	CMPQ    DX, BX
	JGE     c4_next
	VMOVDQU (DX), Y8
	VPAND   Y11, Y8, Y15
	VPXOR   Y11, Y8, Y8
	VMOVDQU Y8, (DX)
	VMOVDQA Y15, Y11
	ADDQ    $32, DX
	VPTEST  Y11, Y11
	JNZ     c4_ripple

c4_next:
	ADDQ $64, R8
	DECQ CX
	JMP  c4_group

c4_done:
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	VZEROUPPER
	RET

// CSA512 adds b and c to a: a gets the sum (three-way XOR), hi the carry
// (majority).
#define CSA512(a, b, c, hi) \
	VMOVDQA64  a, hi \
	VPTERNLOGQ $0xe8, c, b, hi \
	VPTERNLOGQ $0x96, c, b, a

// LOAD8 loads the eight words of vertex list[i] into z.
#define LOAD8(i, z) \
	MOVLQSX   (i*4)(R8), AX \
	SHLQ      $6, AX \
	VMOVDQU64 (SI)(AX*1), z

// func count8AVX512(planes, next *uint64, list *int32, groups int)
TEXT ·count8AVX512(SB), NOSPLIT, $0-32
	MOVQ planes+0(FP), DI
	MOVQ next+8(FP), SI
	MOVQ list+16(FP), R8
	MOVQ groups+24(FP), CX
	VMOVDQU64 0(DI), Z0
	VMOVDQU64 64(DI), Z1
	VMOVDQU64 128(DI), Z2
	VMOVDQU64 192(DI), Z3
	VMOVDQU64 256(DI), Z4
	VMOVDQU64 320(DI), Z5
	VMOVDQU64 384(DI), Z6
	VMOVDQU64 448(DI), Z7

c8_group:
	TESTQ CX, CX
	JZ    c8_done
	LOAD8(0, Z8)
	LOAD8(1, Z9)
	CSA512(Z0, Z8, Z9, Z10)
	LOAD8(2, Z8)
	LOAD8(3, Z9)
	CSA512(Z0, Z8, Z9, Z11)
	CSA512(Z1, Z10, Z11, Z12)
	LOAD8(4, Z8)
	LOAD8(5, Z9)
	CSA512(Z0, Z8, Z9, Z10)
	LOAD8(6, Z8)
	LOAD8(7, Z9)
	CSA512(Z0, Z8, Z9, Z11)
	CSA512(Z1, Z10, Z11, Z13)
	CSA512(Z2, Z12, Z13, Z14)
	LOAD8(8, Z8)
	LOAD8(9, Z9)
	CSA512(Z0, Z8, Z9, Z10)
	LOAD8(10, Z8)
	LOAD8(11, Z9)
	CSA512(Z0, Z8, Z9, Z11)
	CSA512(Z1, Z10, Z11, Z12)
	LOAD8(12, Z8)
	LOAD8(13, Z9)
	CSA512(Z0, Z8, Z9, Z10)
	LOAD8(14, Z8)
	LOAD8(15, Z9)
	CSA512(Z0, Z8, Z9, Z11)
	CSA512(Z1, Z10, Z11, Z13)
	CSA512(Z2, Z12, Z13, Z10)
	CSA512(Z3, Z14, Z10, Z11)
	// The carry of weight 16 (Z11) through planes 4–7.
	VPANDQ Z11, Z4, Z15
	VPXORQ Z11, Z4, Z4
	VPANDQ Z15, Z5, Z11
	VPXORQ Z15, Z5, Z5
	VPANDQ Z11, Z6, Z15
	VPXORQ Z11, Z6, Z6
	VPANDQ Z15, Z7, Z11
	VPXORQ Z15, Z7, Z7
	VPTESTMQ Z11, Z11, K1
	KORTESTB K1, K1
	JZ       c8_next
	LEAQ     512(DI), DX
	LEAQ     2048(DI), BX

c8_ripple:
	CMPQ      DX, BX
	JGE       c8_next
	VMOVDQU64 (DX), Z8
	VPANDQ    Z11, Z8, Z15
	VPXORQ    Z11, Z8, Z8
	VMOVDQU64 Z8, (DX)
	VMOVDQA64 Z15, Z11
	ADDQ      $64, DX
	VPTESTMQ  Z11, Z11, K1
	KORTESTB  K1, K1
	JNZ       c8_ripple

c8_next:
	ADDQ $64, R8
	DECQ CX
	JMP  c8_group

c8_done:
	VMOVDQU64 Z0, 0(DI)
	VMOVDQU64 Z1, 64(DI)
	VMOVDQU64 Z2, 128(DI)
	VMOVDQU64 Z3, 192(DI)
	VMOVDQU64 Z4, 256(DI)
	VMOVDQU64 Z5, 320(DI)
	VMOVDQU64 Z6, 384(DI)
	VMOVDQU64 Z7, 448(DI)
	VZEROUPPER
	RET
