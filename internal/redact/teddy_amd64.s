//go:build amd64 && !purego

#include "textflag.h"

DATA nibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// func teddyFind(t *teddy, src []byte, i int) (at int, mask uint32)
//
// Y0..Y7: the lo and hi nibble tables of offsets 0..3, in both lanes.
// Y8: 0x0f in every byte. Y14: zero. Every instruction is VEX-encoded:
// one legacy SSE instruction among them costs more than the loop.
TEXT ·teddyFind(SB), NOSPLIT, $0-52
	MOVQ t+0(FP), AX
	MOVQ src_base+8(FP), SI
	MOVQ src_len+16(FP), DX
	MOVQ i+32(FP), CX
	VBROADCASTI128 0(AX), Y0
	VBROADCASTI128 16(AX), Y1
	VBROADCASTI128 32(AX), Y2
	VBROADCASTI128 48(AX), Y3
	VBROADCASTI128 64(AX), Y4
	VBROADCASTI128 80(AX), Y5
	VBROADCASTI128 96(AX), Y6
	VBROADCASTI128 112(AX), Y7
	VMOVDQU nibbles<>(SB), Y8
	VPXOR   Y14, Y14, Y14
	// A block at CX reads src[CX : CX+35].
	SUBQ $35, DX

loop:
	CMPQ CX, DX
	JGT  none

	VMOVDQU (SI)(CX*1), Y9
	VPSRLW  $4, Y9, Y10
	VPAND   Y8, Y9, Y9
	VPAND   Y8, Y10, Y10
	VPSHUFB Y9, Y0, Y9
	VPSHUFB Y10, Y1, Y10
	VPAND   Y9, Y10, Y11

	VMOVDQU 1(SI)(CX*1), Y9
	VPSRLW  $4, Y9, Y10
	VPAND   Y8, Y9, Y9
	VPAND   Y8, Y10, Y10
	VPSHUFB Y9, Y2, Y9
	VPSHUFB Y10, Y3, Y10
	VPAND   Y9, Y10, Y12
	VPAND   Y12, Y11, Y11

	VMOVDQU 2(SI)(CX*1), Y9
	VPSRLW  $4, Y9, Y10
	VPAND   Y8, Y9, Y9
	VPAND   Y8, Y10, Y10
	VPSHUFB Y9, Y4, Y9
	VPSHUFB Y10, Y5, Y10
	VPAND   Y9, Y10, Y12
	VPAND   Y12, Y11, Y11

	VMOVDQU 3(SI)(CX*1), Y9
	VPSRLW  $4, Y9, Y10
	VPAND   Y8, Y9, Y9
	VPAND   Y8, Y10, Y10
	VPSHUFB Y9, Y6, Y9
	VPSHUFB Y10, Y7, Y10
	VPAND   Y9, Y10, Y12
	VPAND   Y12, Y11, Y11

	// A byte of Y11 is zero where no bucket passes.
	VPCMPEQB  Y14, Y11, Y11
	VPMOVMSKB Y11, BX
	NOTL      BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, CX
	JMP       loop

found:
	VZEROUPPER
	MOVQ CX, at+40(FP)
	MOVL BX, mask+48(FP)
	RET

none:
	VZEROUPPER
	MOVQ CX, at+40(FP)
	MOVL $0, mask+48(FP)
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
