//go:build amd64 && !purego

#include "textflag.h"

// func narrowAVX2(dst *uint32, heads *int32, blocks int)
// Writes blocks·16 heads (each in [0, 65535]) as 16-bit values, two a
// word: VPACKUSDW packs two registers of eight 32-bit heads into sixteen
// 16-bit ones (in the order 0-3, 8-11, 4-7, 12-15: it packs each 128-bit
// half apart), VPERMQ restores the order.
TEXT ·narrowAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ heads+8(FP), SI
	MOVQ blocks+16(FP), CX
	TESTQ CX, CX
	JZ   done

loop:
	VMOVDQU   (SI), Y0
	VMOVDQU   32(SI), Y1
	VPACKUSDW Y1, Y0, Y2
	VPERMQ    $0xD8, Y2, Y2
	VMOVDQU   Y2, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       loop
	VZEROUPPER

done:
	RET
