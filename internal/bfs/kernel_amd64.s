//go:build amd64 && !purego

#include "textflag.h"

// The pull kernels, one for four words per vertex in a YMM register (AVX2)
// and one for eight in a ZMM register (AVX-512); they differ only in the
// vector instructions. See pull4AVX2 in kernel_amd64.go for the contract.
// For each vertex v in [lo, hi) not yet reached by every
// source, OR the frontier words of its out-neighbours (two accumulators, so
// two loads are in flight per vertex), keep the bits v did not have, and if
// any: store them to next, add them to vis, append v to list and their
// popcount to cnts. Arcs go in chunks (of 16, or of 2 on levels where most
// vertices are nearly covered) with a check between chunks that stops
// early once v is covered.
// Each arc prefetches the frontier words of the arc 32 ahead (heads is
// padded so those reads stay inside it): the loads are random, mostly miss
// L2, and no hardware prefetcher can guess them.
//
// Registers: SI vis, R8 cur, DI next, R9 off, R10 heads, R11 list, AX v,
// CX arc, BX v's last arc, R12 chunk end, R13 count, DX scratch, R14
// (w = 8) the next line to take for writing; vector
// 15 all ones, 1 visited words of v, 0 and 3 the ORs, 2 the new bits.

// func pull4AVX2(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)
TEXT ·pull4AVX2(SB), NOSPLIT, $0-96
	MOVQ vis+0(FP), SI
	MOVQ cur+8(FP), R8
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ lo+40(FP), AX
	MOVQ list+56(FP), R11
	XORQ R13, R13
	MOVQ $0, full+88(FP)
	VPCMPEQQ Y15, Y15, Y15

w4_vertex:
	CMPQ AX, hi+48(FP)
	JGE  w4_done
	MOVQ AX, DX
	SHLQ $5, DX
	VMOVDQU (SI)(DX*1), Y1
	VPTEST Y15, Y1
	JCS  w4_skip // every source has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), BX
	VPXOR Y0, Y0, Y0
	VPXOR Y3, Y3, Y3

w4_chunk:
	// R12 = end of this chunk of at most chunk arcs.
	MOVQ chunk+72(FP), R12
	ADDQ CX, R12
	CMPQ R12, BX
	CMOVQGT BX, R12

w4_pair:
	LEAQ 1(CX), DX
	CMPQ DX, R12
	JGE  w4_single
	MOVLQSX 128(R10)(CX*4), DX
	SHLQ $5, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX 132(R10)(CX*4), DX
	SHLQ $5, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX (R10)(CX*4), DX
	SHLQ $5, DX
	VPOR (R8)(DX*1), Y0, Y0
	MOVLQSX 4(R10)(CX*4), DX
	SHLQ $5, DX
	VPOR (R8)(DX*1), Y3, Y3
	ADDQ $2, CX
	JMP  w4_pair

w4_single:
	CMPQ CX, R12
	JGE  w4_chunkend
	MOVLQSX 128(R10)(CX*4), DX
	SHLQ $5, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX (R10)(CX*4), DX
	SHLQ $5, DX
	VPOR (R8)(DX*1), Y0, Y0
	INCQ CX

w4_chunkend:
	CMPQ CX, BX
	JGE  w4_arcsdone
	// More arcs: stop once every source has reached v or reaches it now.
	VPOR Y3, Y0, Y4
	VPOR Y1, Y4, Y4
	VPTEST Y15, Y4
	JCC  w4_chunk

w4_arcsdone:
	VPOR Y3, Y0, Y0
	VPANDN Y0, Y1, Y2 // new = or &^ visited
	VPTEST Y2, Y2
	JEQ  w4_skip
	MOVQ AX, DX
	SHLQ $5, DX
	VMOVDQU Y2, (DI)(DX*1)
	VPOR Y2, Y1, Y1
	VMOVDQU Y1, (SI)(DX*1)
	VPTEST Y15, Y1
	JCC  w4_counted
	INCQ full+88(FP)

w4_counted:
	VMOVQ X2, CX
	POPCNTQ CX, CX
	VPEXTRQ $1, X2, BX
	POPCNTQ BX, BX
	ADDQ BX, CX
	VEXTRACTI128 $1, Y2, X2
	VMOVQ X2, BX
	POPCNTQ BX, BX
	ADDQ BX, CX
	VPEXTRQ $1, X2, BX
	POPCNTQ BX, BX
	ADDQ BX, CX
	MOVL AX, (R11)(R13*4)
	MOVQ cnts+64(FP), DX
	MOVL CX, (DX)(R13*4)
	INCQ R13

w4_skip:
	INCQ AX
	JMP  w4_vertex

w4_done:
	VZEROUPPER
	MOVQ R13, count+80(FP)
	RET

// func pull8AVX512(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)
TEXT ·pull8AVX512(SB), NOSPLIT, $0-96
	MOVQ vis+0(FP), SI
	MOVQ cur+8(FP), R8
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ lo+40(FP), AX
	MOVQ list+56(FP), R11
	XORQ R13, R13
	MOVQ $0, full+88(FP)
	VPTERNLOGQ $0xff, Z15, Z15, Z15

w8_vertex:
	CMPQ AX, hi+48(FP)
	JGE  w8_done
	MOVQ AX, DX
	SHLQ $6, DX
	// Take the next line of the vertex four ahead for writing: at the
	// previous level next was the frontier, read by the group's other
	// cores (lockstep), so a store would wait for their copies to be
	// invalidated. On the 16-core host this took a 1024-vertex loop
	// from 78–79 to 73–76 µs. (PREFETCHW (R14): the Go assembler does not
	// name it; every AVX-512 CPU has it, and a hint does not fault.)
	LEAQ 256(DI)(DX*1), R14
	BYTE $0x41; BYTE $0x0F; BYTE $0x0D; BYTE $0x0E
	VMOVDQU64 (SI)(DX*1), Z1
	VPCMPEQQ Z15, Z1, K1
	KORTESTB K1, K1
	JCS  w8_skip // every source has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), BX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z3, Z3, Z3

w8_chunk:
	// R12 = end of this chunk of at most chunk arcs.
	MOVQ chunk+72(FP), R12
	ADDQ CX, R12
	CMPQ R12, BX
	CMOVQGT BX, R12

w8_pair:
	LEAQ 1(CX), DX
	CMPQ DX, R12
	JGE  w8_single
	MOVLQSX 128(R10)(CX*4), DX
	SHLQ $6, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX 132(R10)(CX*4), DX
	SHLQ $6, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX (R10)(CX*4), DX
	SHLQ $6, DX
	VPORQ (R8)(DX*1), Z0, Z0
	MOVLQSX 4(R10)(CX*4), DX
	SHLQ $6, DX
	VPORQ (R8)(DX*1), Z3, Z3
	ADDQ $2, CX
	JMP  w8_pair

w8_single:
	CMPQ CX, R12
	JGE  w8_chunkend
	MOVLQSX 128(R10)(CX*4), DX
	SHLQ $6, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX (R10)(CX*4), DX
	SHLQ $6, DX
	VPORQ (R8)(DX*1), Z0, Z0
	INCQ CX

w8_chunkend:
	CMPQ CX, BX
	JGE  w8_arcsdone
	// More arcs: stop once every source has reached v or reaches it now.
	VMOVDQA64 Z1, Z4
	VPTERNLOGQ $0xfe, Z3, Z0, Z4 // Z4 = Z0|Z3|Z1 (Z4 starts as Z1)
	VPCMPEQQ Z15, Z4, K3
	KORTESTB K3, K3
	JCC  w8_chunk

w8_arcsdone:
	VPORQ Z3, Z0, Z0
	VPANDNQ Z0, Z1, Z2 // new = or &^ visited
	VPTESTMQ Z2, Z2, K2
	KORTESTB K2, K2
	JEQ  w8_skip
	MOVQ AX, DX
	SHLQ $6, DX
	VMOVDQU64 Z2, (DI)(DX*1)
	VPORQ Z2, Z1, Z1
	VMOVDQU64 Z1, (SI)(DX*1)
	VPCMPEQQ Z15, Z1, K1
	KORTESTB K1, K1
	JCC  w8_counted
	INCQ full+88(FP)

w8_counted:
	VPOPCNTQ Z2, Z3
	VEXTRACTI64X4 $1, Z3, Y4
	VPADDQ Y4, Y3, Y3
	VEXTRACTI128 $1, Y3, X4
	VPADDQ X4, X3, X3
	VPSHUFD $0x4e, X3, X4
	VPADDQ X4, X3, X3
	VMOVQ X3, CX
	MOVL AX, (R11)(R13*4)
	MOVQ cnts+64(FP), DX
	MOVL CX, (DX)(R13*4)
	INCQ R13

w8_skip:
	INCQ AX
	JMP  w8_vertex

w8_done:
	VZEROUPPER
	MOVQ R13, count+80(FP)
	RET

// func pull1(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)
//
// pull4AVX2 for one word a vertex, in general registers: four arcs between
// checks whether v is covered (chunk is not used). Registers: SI vis, R8
// cur, DI next, R9 off, R10 heads, R11 list, AX v, CX arc, BX v's last
// arc, R12 the OR of the arcs' words, R13 count, DX scratch.
TEXT ·pull1(SB), NOSPLIT, $0-96
	MOVQ vis+0(FP), SI
	MOVQ cur+8(FP), R8
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ lo+40(FP), AX
	MOVQ list+56(FP), R11
	XORQ R13, R13
	MOVQ $0, full+88(FP)

w1_vertex:
	CMPQ AX, hi+48(FP)
	JGE  w1_done
	MOVQ (SI)(AX*8), DX
	CMPQ DX, $-1
	JEQ  w1_skip // every source has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), BX
	XORQ R12, R12

w1_quad:
	LEAQ 4(CX), DX
	CMPQ DX, BX
	JGT  w1_tail
	MOVLQSX (R10)(CX*4), DX
	ORQ  (R8)(DX*8), R12
	MOVLQSX 4(R10)(CX*4), DX
	ORQ  (R8)(DX*8), R12
	MOVLQSX 8(R10)(CX*4), DX
	ORQ  (R8)(DX*8), R12
	MOVLQSX 12(R10)(CX*4), DX
	ORQ  (R8)(DX*8), R12
	ADDQ $4, CX
	CMPQ CX, BX
	JGE  w1_arcsdone
	// More arcs: stop once every source has reached v or reaches it now.
	MOVQ (SI)(AX*8), DX
	ORQ  R12, DX
	CMPQ DX, $-1
	JNE  w1_quad
	JMP  w1_arcsdone

w1_tail:
	CMPQ CX, BX
	JGE  w1_arcsdone
	MOVLQSX (R10)(CX*4), DX
	ORQ  (R8)(DX*8), R12
	INCQ CX
	JMP  w1_tail

w1_arcsdone:
	MOVQ (SI)(AX*8), DX
	NOTQ DX
	ANDQ DX, R12 // new = or &^ visited
	JEQ  w1_skip
	MOVQ R12, (DI)(AX*8)
	NOTQ DX
	ORQ  R12, DX
	MOVQ DX, (SI)(AX*8)
	CMPQ DX, $-1
	JNE  w1_counted
	INCQ full+88(FP)

w1_counted:
	POPCNTQ R12, DX
	MOVL AX, (R11)(R13*4)
	MOVQ cnts+64(FP), CX
	MOVL DX, (CX)(R13*4)
	INCQ R13

w1_skip:
	INCQ AX
	JMP  w1_vertex

w1_done:
	MOVQ R13, count+80(FP)
	RET

// func pull2AVX(vis, cur, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, chunk int) (count, full int)
// pull4AVX2 for two words a vertex, in XMM registers (VEX encoded, so
// the loads need no alignment).
TEXT ·pull2AVX(SB), NOSPLIT, $0-96
	MOVQ vis+0(FP), SI
	MOVQ cur+8(FP), R8
	MOVQ next+16(FP), DI
	MOVQ off+24(FP), R9
	MOVQ heads+32(FP), R10
	MOVQ lo+40(FP), AX
	MOVQ list+56(FP), R11
	XORQ R13, R13
	MOVQ $0, full+88(FP)
	VPCMPEQQ X15, X15, X15

w2_vertex:
	CMPQ AX, hi+48(FP)
	JGE  w2_done
	MOVQ AX, DX
	SHLQ $4, DX
	VMOVDQU (SI)(DX*1), X1
	VPTEST X15, X1
	JCS  w2_skip // every source has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), BX
	VPXOR X0, X0, X0
	VPXOR X3, X3, X3

w2_chunk:
	// R12 = end of this chunk of at most chunk arcs.
	MOVQ chunk+72(FP), R12
	ADDQ CX, R12
	CMPQ R12, BX
	CMOVQGT BX, R12

w2_pair:
	LEAQ 1(CX), DX
	CMPQ DX, R12
	JGE  w2_single
	MOVLQSX 128(R10)(CX*4), DX
	SHLQ $4, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX 132(R10)(CX*4), DX
	SHLQ $4, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX (R10)(CX*4), DX
	SHLQ $4, DX
	VPOR (R8)(DX*1), X0, X0
	MOVLQSX 4(R10)(CX*4), DX
	SHLQ $4, DX
	VPOR (R8)(DX*1), X3, X3
	ADDQ $2, CX
	JMP  w2_pair

w2_single:
	CMPQ CX, R12
	JGE  w2_chunkend
	MOVLQSX 128(R10)(CX*4), DX
	SHLQ $4, DX
	PREFETCHT0 (R8)(DX*1)
	MOVLQSX (R10)(CX*4), DX
	SHLQ $4, DX
	VPOR (R8)(DX*1), X0, X0
	INCQ CX

w2_chunkend:
	CMPQ CX, BX
	JGE  w2_arcsdone
	// More arcs: stop once every source has reached v or reaches it now.
	VPOR X3, X0, X4
	VPOR X1, X4, X4
	VPTEST X15, X4
	JCC  w2_chunk

w2_arcsdone:
	VPOR X3, X0, X0
	VPANDN X0, X1, X2 // new = or &^ visited
	VPTEST X2, X2
	JEQ  w2_skip
	MOVQ AX, DX
	SHLQ $4, DX
	VMOVDQU X2, (DI)(DX*1)
	VPOR X2, X1, X1
	VMOVDQU X1, (SI)(DX*1)
	VPTEST X15, X1
	JCC  w2_counted
	INCQ full+88(FP)

w2_counted:
	VMOVQ X2, CX
	POPCNTQ CX, CX
	VPEXTRQ $1, X2, BX
	POPCNTQ BX, BX
	ADDQ BX, CX
	MOVL AX, (R11)(R13*4)
	MOVQ cnts+64(FP), DX
	MOVL CX, (DX)(R13*4)
	INCQ R13

w2_skip:
	INCQ AX
	JMP  w2_vertex

w2_done:
	VZEROUPPER
	MOVQ R13, count+80(FP)
	RET


// func first8AVX512(vis, next *uint64, off *int, heads *int32, lo, hi int, list, cnts *int32, first int) (count, full int)
//
// Level 1 of a batch for w = 8 (see batcher.pullFirst): the frontier is
// the sources first..first+511, so v's new bits are its out-neighbours in
// that range, set from the heads alone, with no frontier line read. Each
// arc sets bit d = head−first of the accumulator's word d/64 by a masked
// OR of a broadcast; a head outside the range gives word 8 and an empty
// mask. The rest is pull8AVX512's.
//
// Registers: SI vis, DI next, R9 off, R10 heads, R11 list, R8 first, AX
// v, CX arc, BX v's last arc, R13 count, R15 the constant 8, DX d, R12 the
// word, R14 the bit; vector 15 all ones, 1 visited words of v, 0 the OR,
// 2 a broadcast bit, then the new bits.
TEXT ·first8AVX512(SB), NOSPLIT, $0-88
	MOVQ vis+0(FP), SI
	MOVQ next+8(FP), DI
	MOVQ off+16(FP), R9
	MOVQ heads+24(FP), R10
	MOVQ lo+32(FP), AX
	MOVQ list+48(FP), R11
	MOVQ first+64(FP), R8
	XORQ R13, R13
	MOVQ $8, R15
	MOVQ $0, full+80(FP)
	VPTERNLOGQ $0xff, Z15, Z15, Z15

f8_vertex:
	CMPQ AX, hi+40(FP)
	JGE  f8_done
	MOVQ AX, DX
	SHLQ $6, DX
	VMOVDQU64 (SI)(DX*1), Z1
	VPCMPEQQ Z15, Z1, K1
	KORTESTB K1, K1
	JCS  f8_skip // every source has reached v
	MOVQ (R9)(AX*8), CX
	MOVQ 8(R9)(AX*8), BX
	VPXORQ Z0, Z0, Z0

f8_arc:
	CMPQ CX, BX
	JGE  f8_arcsdone
	MOVL (R10)(CX*4), DX
	SUBL R8, DX      // d, unsigned: past 511 when the head is not a source
	MOVL DX, R12
	SHRL $6, R12
	CMPL R12, $8
	CMOVLCC R15, R12 // the word, 8 for none
	XORL R14, R14
	BTSL R12, R14
	KMOVB R14, K2    // lane of the word; none for 8
	XORQ R14, R14
	BTSQ DX, R14     // 1 << (d mod 64)
	VPBROADCASTQ R14, Z2
	VPORQ Z2, Z0, K2, Z0
	INCQ CX
	JMP  f8_arc

f8_arcsdone:
	VPANDNQ Z0, Z1, Z2 // new = or &^ visited
	VPTESTMQ Z2, Z2, K2
	KORTESTB K2, K2
	JEQ  f8_skip
	MOVQ AX, DX
	SHLQ $6, DX
	VMOVDQU64 Z2, (DI)(DX*1)
	VPORQ Z2, Z1, Z1
	VMOVDQU64 Z1, (SI)(DX*1)
	VPCMPEQQ Z15, Z1, K1
	KORTESTB K1, K1
	JCC  f8_counted
	INCQ full+80(FP)

f8_counted:
	VPOPCNTQ Z2, Z3
	VEXTRACTI64X4 $1, Z3, Y4
	VPADDQ Y4, Y3, Y3
	VEXTRACTI128 $1, Y3, X4
	VPADDQ X4, X3, X3
	VPSHUFD $0x4e, X3, X4
	VPADDQ X4, X3, X3
	VMOVQ X3, CX
	MOVL AX, (R11)(R13*4)
	MOVQ cnts+56(FP), DX
	MOVL CX, (DX)(R13*4)
	INCQ R13

f8_skip:
	INCQ AX
	JMP  f8_vertex

f8_done:
	VZEROUPPER
	MOVQ R13, count+72(FP)
	RET
