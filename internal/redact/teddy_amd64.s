//go:build amd64 && !purego

#include "textflag.h"

DATA nibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// func teddyFind(t *teddy, src []byte, i int) (at int, mask uint32)
//
// Y0..Y7: the low and high nibbles of the 32 bytes at offsets 0..3 of the
// block, in the byte order PSHUFB indexes with. Y8: 0x0f in every byte.
// Y14: zero. Y12 collects, over the bucket groups, the buckets that pass.
// The tables of each group (128 bytes, t.groups[g]) are loaded from memory
// every block: there are not registers for more than one group, and the
// loads (L1 hits) go to ports the shuffles do not use. Every instruction is
// VEX-encoded: one legacy SSE instruction among them costs more than the
// loop.
TEXT ·teddyFind(SB), NOSPLIT, $0-52
	MOVQ t+0(FP), AX
	MOVQ 0(AX), R10 // t.groups base
	MOVQ 8(AX), R11 // len(t.groups)
	MOVQ src_base+8(FP), SI
	MOVQ src_len+16(FP), DX
	MOVQ i+32(FP), CX
	VMOVDQU nibbles<>(SB), Y8
	VPXOR   Y14, Y14, Y14
	// A block at CX reads src[CX : CX+35].
	SUBQ $35, DX

loop:
	CMPQ CX, DX
	JGT  none

	VMOVDQU (SI)(CX*1), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y8, Y0, Y0
	VPAND   Y8, Y1, Y1
	VMOVDQU 1(SI)(CX*1), Y2
	VPSRLW  $4, Y2, Y3
	VPAND   Y8, Y2, Y2
	VPAND   Y8, Y3, Y3
	VMOVDQU 2(SI)(CX*1), Y4
	VPSRLW  $4, Y4, Y5
	VPAND   Y8, Y4, Y4
	VPAND   Y8, Y5, Y5
	VMOVDQU 3(SI)(CX*1), Y6
	VPSRLW  $4, Y6, Y7
	VPAND   Y8, Y6, Y6
	VPAND   Y8, Y7, Y7

	VPXOR Y12, Y12, Y12
	MOVQ  R10, R8
	MOVQ  R11, R9

group:
	VBROADCASTI128 0(R8), Y9
	VPSHUFB        Y0, Y9, Y9
	VBROADCASTI128 16(R8), Y10
	VPSHUFB        Y1, Y10, Y10
	VPAND          Y9, Y10, Y11
	VBROADCASTI128 32(R8), Y9
	VPSHUFB        Y2, Y9, Y9
	VBROADCASTI128 48(R8), Y10
	VPSHUFB        Y3, Y10, Y10
	VPAND          Y9, Y10, Y13
	VPAND          Y13, Y11, Y11
	VBROADCASTI128 64(R8), Y9
	VPSHUFB        Y4, Y9, Y9
	VBROADCASTI128 80(R8), Y10
	VPSHUFB        Y5, Y10, Y10
	VPAND          Y9, Y10, Y13
	VPAND          Y13, Y11, Y11
	VBROADCASTI128 96(R8), Y9
	VPSHUFB        Y6, Y9, Y9
	VBROADCASTI128 112(R8), Y10
	VPSHUFB        Y7, Y10, Y10
	VPAND          Y9, Y10, Y13
	VPAND          Y13, Y11, Y11
	VPOR           Y11, Y12, Y12
	ADDQ           $128, R8
	DECQ           R9
	JNZ            group

	// A byte of Y12 is zero where no bucket passes.
	VPCMPEQB  Y14, Y12, Y12
	VPMOVMSKB Y12, BX
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

// func teddyFind64(t *teddy, src []byte, i int) (at int, mask uint64)
//
// teddyFind over the exact tables (t.exact), 64 positions a round:
// Z0..Z3 hold the 64 bytes at offsets 0..3 of the block; for each group a
// two-table byte permute (VPERMI2B, which overwrites its index, hence the
// copies) looks each byte up in its offset's 128-byte table, and Z12
// collects the buckets that pass all four offsets. A group costs four
// permutes a round where the nibble tables cost sixteen shuffles for the
// same 64 positions.
TEXT ·teddyFind64(SB), NOSPLIT, $0-56
	MOVQ t+0(FP), AX
	MOVQ 24(AX), R10 // t.exact base
	MOVQ 32(AX), R11 // len(t.exact)
	MOVQ src_base+8(FP), SI
	MOVQ src_len+16(FP), DX
	MOVQ i+32(FP), CX
	// A block at CX reads src[CX : CX+67].
	SUBQ $67, DX

loop64:
	CMPQ CX, DX
	JGT  none64

	VMOVDQU64 (SI)(CX*1), Z0
	VMOVDQU64 1(SI)(CX*1), Z1
	VMOVDQU64 2(SI)(CX*1), Z2
	VMOVDQU64 3(SI)(CX*1), Z3
	VPXORQ    Z12, Z12, Z12
	MOVQ      R10, R8
	MOVQ      R11, R9

group64:
	VMOVDQU64  Z0, Z4
	VMOVDQU64  0(R8), Z8
	VPERMI2B   64(R8), Z8, Z4
	VMOVDQU64  Z1, Z5
	VMOVDQU64  128(R8), Z9
	VPERMI2B   192(R8), Z9, Z5
	VMOVDQU64  Z2, Z6
	VMOVDQU64  256(R8), Z10
	VPERMI2B   320(R8), Z10, Z6
	VMOVDQU64  Z3, Z7
	VMOVDQU64  384(R8), Z11
	VPERMI2B   448(R8), Z11, Z7
	// Z4 = Z4 & Z5 & Z6; Z12 |= Z4 & Z7
	VPTERNLOGD $0x80, Z6, Z5, Z4
	VPTERNLOGD $0xf8, Z7, Z4, Z12
	ADDQ       $512, R8
	DECQ       R9
	JNZ        group64

	// A bit of K1 is set where some bucket passes.
	VPTESTMB Z12, Z12, K1
	KMOVQ    K1, BX
	TESTQ    BX, BX
	JNZ      found64
	ADDQ     $64, CX
	JMP      loop64

found64:
	VZEROUPPER
	MOVQ CX, at+40(FP)
	MOVQ BX, mask+48(FP)
	RET

none64:
	VZEROUPPER
	MOVQ CX, at+40(FP)
	MOVQ $0, mask+48(FP)
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
