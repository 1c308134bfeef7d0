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

// func teddyFind64(t *teddy, src []byte, i int) (at int, lo, hi uint64)
//
// teddyFind over the exact tables (t.exact), 128 positions a round, as two
// blocks of 64: Z0..Z3 hold the 64 bytes at offsets 0..3 of the first
// block, Z16..Z19 those of the second. For each group and offset the two
// halves of the offset's 128-byte table are loaded once (Z8, Z9) and a
// two-table byte permute (VPERMI2B, which overwrites its index, hence the
// copies) looks up each block's bytes in them; Z12 and Z13 collect the
// buckets that pass all four offsets in each block. Where fewer than 131
// bytes are left, one block of 64 is tried on its own (Z0..Z3 and Z12).
// A group costs four permutes a block where the nibble tables cost sixteen
// shuffles for the same 64 positions, and the table loads are shared by
// the two blocks: with one block a round they were the bottleneck.
TEXT ·teddyFind64(SB), NOSPLIT, $0-64
	MOVQ t+0(FP), AX
	MOVQ 24(AX), R10 // t.exact base
	MOVQ 32(AX), R11 // len(t.exact)
	MOVQ src_base+8(FP), SI
	MOVQ src_len+16(FP), DX
	MOVQ i+32(FP), CX
	// A round at CX reads src[CX : CX+131]; a lone block src[CX : CX+67].
	MOVQ DX, R13
	SUBQ $131, DX
	SUBQ $67, R13

pair:
	CMPQ CX, DX
	JGT  single

	VMOVDQU64 (SI)(CX*1), Z0
	VMOVDQU64 1(SI)(CX*1), Z1
	VMOVDQU64 2(SI)(CX*1), Z2
	VMOVDQU64 3(SI)(CX*1), Z3
	VMOVDQU64 64(SI)(CX*1), Z16
	VMOVDQU64 65(SI)(CX*1), Z17
	VMOVDQU64 66(SI)(CX*1), Z18
	VMOVDQU64 67(SI)(CX*1), Z19
	VPXORQ    Z12, Z12, Z12
	VPXORQ    Z13, Z13, Z13
	MOVQ      R10, R8
	MOVQ      R11, R9

pairgroup:
	VMOVDQU64  0(R8), Z8
	VMOVDQU64  64(R8), Z9
	VMOVDQU64  Z0, Z4
	VPERMI2B   Z9, Z8, Z4
	VMOVDQU64  Z16, Z20
	VPERMI2B   Z9, Z8, Z20
	VMOVDQU64  128(R8), Z8
	VMOVDQU64  192(R8), Z9
	VMOVDQU64  Z1, Z5
	VPERMI2B   Z9, Z8, Z5
	VMOVDQU64  Z17, Z21
	VPERMI2B   Z9, Z8, Z21
	VMOVDQU64  256(R8), Z8
	VMOVDQU64  320(R8), Z9
	VMOVDQU64  Z2, Z6
	VPERMI2B   Z9, Z8, Z6
	VMOVDQU64  Z18, Z22
	VPERMI2B   Z9, Z8, Z22
	VMOVDQU64  384(R8), Z8
	VMOVDQU64  448(R8), Z9
	VMOVDQU64  Z3, Z7
	VPERMI2B   Z9, Z8, Z7
	VMOVDQU64  Z19, Z23
	VPERMI2B   Z9, Z8, Z23
	// Z4 = Z4 & Z5 & Z6; Z12 |= Z4 & Z7; the same for the second block
	VPTERNLOGD $0x80, Z6, Z5, Z4
	VPTERNLOGD $0xf8, Z7, Z4, Z12
	VPTERNLOGD $0x80, Z22, Z21, Z20
	VPTERNLOGD $0xf8, Z23, Z20, Z13
	ADDQ       $512, R8
	DECQ       R9
	JNZ        pairgroup

	// A bit of K1 (K2) is set where some bucket passes in the first
	// (second) block.
	VPTESTMB Z12, Z12, K1
	VPTESTMB Z13, Z13, K2
	KMOVQ    K1, BX
	KMOVQ    K2, R12
	MOVQ     BX, R14
	ORQ      R12, R14
	JNZ      found
	ADDQ     $128, CX
	JMP      pair

single:
	CMPQ CX, R13
	JGT  none

	VMOVDQU64 (SI)(CX*1), Z0
	VMOVDQU64 1(SI)(CX*1), Z1
	VMOVDQU64 2(SI)(CX*1), Z2
	VMOVDQU64 3(SI)(CX*1), Z3
	VPXORQ    Z12, Z12, Z12
	MOVQ      R10, R8
	MOVQ      R11, R9

singlegroup:
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
	VPTERNLOGD $0x80, Z6, Z5, Z4
	VPTERNLOGD $0xf8, Z7, Z4, Z12
	ADDQ       $512, R8
	DECQ       R9
	JNZ        singlegroup

	VPTESTMB Z12, Z12, K1
	KMOVQ    K1, BX
	MOVQ     $0, R12
	TESTQ    BX, BX
	JNZ      found
	ADDQ     $64, CX

none:
	MOVQ $0, BX
	MOVQ $0, R12

found:
	VZEROUPPER
	MOVQ CX, at+40(FP)
	MOVQ BX, lo+48(FP)
	MOVQ R12, hi+56(FP)
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
