#include "textflag.h"

// scanBlocksSSE2 of scan_amd64.go: the masks of scanBlocksGo, 16 bytes a
// register. SSE2 compares bytes as signed, so each range test adds a bias
// that moves the range to the bottom of the signed bytes, [-128, -128+k),
// and tests c > biased with c = -128+k; no byte outside the range lands
// there (bytes ≥ 0x80 included):
//	digit  x + 0x50 in [0x80, 0x8a): '0'-'9'
//	letter (x | 0x20) + 0x1f in [0x80, 0x9a): A-Z and a-z
//	upper  x + 0x3f in [0x80, 0x9a): A-Z
//	under  x == '_'
// A word byte is any of these or a byte ≥ 0x80 (its sign bit); PMOVMSKB
// packs the 16 sign bits of a register into a mask.
//
// Registers: SI the bytes, CX the blocks left, DI/R8/R9 the word, upper
// and high masks, R12/R13/R14 a block's masks, R10/R11 the ORs of the
// high and upper masks, X8-X14 the constants, X0-X7 scratch.

// CHUNK ORs the masks of the 16 bytes at off(SI), shifted left by sh,
// into R12 (word), R13 (upper) and R14 (high).
#define CHUNK(off, sh) \
	MOVOU    off(SI), X0 \
	MOVO     X0, X1 \
	PADDB    X8, X1 \
	MOVO     X9, X2 \
	PCMPGTB  X1, X2 \
	MOVO     X0, X3 \
	POR      X10, X3 \
	PADDB    X11, X3 \
	MOVO     X12, X4 \
	PCMPGTB  X3, X4 \
	MOVO     X0, X5 \
	PADDB    X13, X5 \
	MOVO     X12, X6 \
	PCMPGTB  X5, X6 \
	MOVO     X0, X7 \
	PCMPEQB  X14, X7 \
	POR      X2, X4 \
	POR      X7, X4 \
	POR      X0, X4 \
	PMOVMSKB X4, BX \
	PMOVMSKB X6, DX \
	PMOVMSKB X0, AX \
	SHLQ     $sh, BX \
	SHLQ     $sh, DX \
	SHLQ     $sh, AX \
	ORQ      BX, R12 \
	ORQ      DX, R13 \
	ORQ      AX, R14

// BCAST sets every byte of x to the low byte of imm (a byte repeated).
#define BCAST(imm, x) \
	MOVQ       imm, AX \
	MOVQ       AX, x \
	PUNPCKLQDQ x, x

// func scanBlocksSSE2(b *byte, n int, word, upper, high *uint64) (anyHigh, anyUpper uint64)
TEXT ·scanBlocksSSE2(SB), NOSPLIT, $0-56
	MOVQ b+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ word+16(FP), DI
	MOVQ upper+24(FP), R8
	MOVQ high+32(FP), R9
	BCAST($0x5050505050505050, X8)  // digit bias
	BCAST($0x8a8a8a8a8a8a8a8a, X9)  // -118: below it, a digit
	BCAST($0x2020202020202020, X10) // folds A-Z onto a-z
	BCAST($0x1f1f1f1f1f1f1f1f, X11) // letter bias
	BCAST($0x9a9a9a9a9a9a9a9a, X12) // -102: below it, a letter
	BCAST($0x3f3f3f3f3f3f3f3f, X13) // upper bias
	BCAST($0x5f5f5f5f5f5f5f5f, X14) // '_'
	XORQ R10, R10
	XORQ R11, R11
	TESTQ CX, CX
	JEQ  done

loop:
	XORQ  R12, R12
	XORQ  R13, R13
	XORQ  R14, R14
	CHUNK(0, 0)
	CHUNK(16, 16)
	CHUNK(32, 32)
	CHUNK(48, 48)
	MOVQ  R12, (DI)
	MOVQ  R13, (R8)
	MOVQ  R14, (R9)
	ORQ   R14, R10
	ORQ   R13, R11
	ADDQ  $64, SI
	ADDQ  $8, DI
	ADDQ  $8, R8
	ADDQ  $8, R9
	DECQ  CX
	JNE   loop

done:
	MOVQ R10, anyHigh+40(FP)
	MOVQ R11, anyUpper+48(FP)
	RET
