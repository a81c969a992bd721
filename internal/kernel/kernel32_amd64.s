#include "textflag.h"

// The float32 kernels of kernel32_amd64.go: packed SSE (four float32
// lanes per register, baseline on amd64), a block of eight weights of a
// term and a tail of 0, 2, 4 or 6 more, the same operations lane by lane
// as the loops in Go (a product rounded, then a sum rounded; never a
// fused multiply-add), so the same bits. A group of up to 14 problems, or
// the last block of a larger one, is thus done in one pass over the
// terms. Each returns n, or the index of the first term id not in
// [0, nf), where it stopped.
//
// Registers: SI the weights, DI z or d, DX the scales (add8s32), R8 ind,
// R9 val (add8s32: scratch), CX n, R10 the stride in bytes, R11 nf, R12
// the tail, R13 the byte offset of its two-lane part (32 or 48), R14
// scratch, AX the term index j, BX the byte offset of term j's weights,
// X4 its value in every lane, X0-X1 the block's sums (sum) or steps d
// (add), X2 the tail's four-lane part, the low half of X3 its two-lane
// part.

// TERM32 loads term j's byte offset into BX, or jumps to bad when the
// term id is out of range.
#define TERM32(bad) \
	MOVLQSX (R8)(AX*4), BX \
	CMPQ    BX, R11 \
	JAE     bad \
	IMULQ   R10, BX

// VAL32 loads val[j] into every lane of X4.
#define VAL32 \
	MOVSS  (R9)(AX*4), X4 \
	SHUFPS $0, X4, X4

// TAILOFF sets R13 to the byte offset of the tail's two-lane part: 32,
// or 48 after a four-lane part.
#define TAILOFF \
	MOVQ R12, R13 \
	ANDQ $4, R13 \
	SHLQ $2, R13 \
	ADDQ $32, R13

// ZEROSUMS clears the sums of a block and its tail (X0-X3).
#define ZEROSUMS \
	XORPS X0, X0 \
	XORPS X1, X1 \
	XORPS X2, X2 \
	XORPS X3, X3

// STORESUMS stores the sums of a block (X0-X1) and of its tail (X2-X3) to
// z (DI).
#define STORESUMS \
	MOVUPS X0, 0(DI) \
	MOVUPS X1, 16(DI) \
	TESTQ  $4, R12 \
	JZ     2(PC) \
	MOVUPS X2, 32(DI) \
	TESTQ  $2, R12 \
	JZ     2(PC) \
	MOVQ   X3, (DI)(R13*1)

// LOADSTEPS loads the steps d (DI) of a block into X0-X1 and of its tail
// into X2-X3 (0 in the lanes past the tail).
#define LOADSTEPS \
	MOVUPS 0(DI), X0 \
	MOVUPS 16(DI), X1 \
	XORPS  X2, X2 \
	XORPS  X3, X3 \
	TESTQ  $4, R12 \
	JZ     2(PC) \
	MOVUPS 32(DI), X2 \
	TESTQ  $2, R12 \
	JZ     2(PC) \
	MOVQ   (DI)(R13*1), X3

// PREFETCH32(base, skip) asks for the cache line at base (the weights,
// or add8s32's scales) of the term
// PFDIST terms ahead of j, if there is one (a prefetch never faults, so
// an id out of range does no harm; it is checked when its turn comes).
#define PFDIST 8
#define PREFETCH32(base, skip) \
	LEAQ    PFDIST(AX), R14 \
	CMPQ    R14, CX \
	JGE     skip \
	MOVLQSX (R8)(R14*4), R14 \
	IMULQ   R10, R14 \
	PREFETCHT0 (base)(R14*1)

// func sum8f32(z *float32, w *float32, ind *int32, val *float32, n int, stride int, nf int, tail int) (k int)
TEXT ·sum8f32(SB), NOSPLIT, $0-72
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	MOVQ tail+56(FP), R12
	SHLQ $2, R10
	TAILOFF
	ZEROSUMS
	XORQ AX, AX

sum8f32loop:
	CMPQ AX, CX
	JGE  sum8f32done
	PREFETCH32(SI, sum8f32pf)

sum8f32pf:
	TERM32(sum8f32bad)
	VAL32
	MOVUPS 0(SI)(BX*1), X5
	MOVUPS 16(SI)(BX*1), X6
	MULPS  X4, X5
	MULPS  X4, X6
	ADDPS  X5, X0
	ADDPS  X6, X1
	TESTQ  $4, R12
	JZ     sum8f32t2
	MOVUPS 32(SI)(BX*1), X7
	MULPS  X4, X7
	ADDPS  X7, X2

sum8f32t2:
	TESTQ $2, R12
	JZ    sum8f32next
	LEAQ  (SI)(BX*1), R14
	MOVQ  (R14)(R13*1), X7
	MULPS X4, X7
	ADDPS X7, X3

sum8f32next:
	INCQ AX
	JMP  sum8f32loop

sum8f32done:
	STORESUMS
	MOVQ   CX, k+64(FP)
	RET

sum8f32bad:
	MOVQ AX, k+64(FP)
	RET

// func sum8p32(z *float32, w *float32, ind *int32, n int, stride int, nf int, tail int) (k int)
TEXT ·sum8p32(SB), NOSPLIT, $0-64
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), R10
	MOVQ nf+40(FP), R11
	MOVQ tail+48(FP), R12
	SHLQ $2, R10
	TAILOFF
	ZEROSUMS
	XORQ AX, AX

sum8p32loop:
	CMPQ AX, CX
	JGE  sum8p32done
	PREFETCH32(SI, sum8p32pf)

sum8p32pf:
	TERM32(sum8p32bad)
	MOVUPS 0(SI)(BX*1), X5
	MOVUPS 16(SI)(BX*1), X6
	ADDPS  X5, X0
	ADDPS  X6, X1
	TESTQ  $4, R12
	JZ     sum8p32t2
	MOVUPS 32(SI)(BX*1), X7
	ADDPS  X7, X2

sum8p32t2:
	TESTQ $2, R12
	JZ    sum8p32next
	LEAQ  (SI)(BX*1), R14
	MOVQ  (R14)(R13*1), X7
	ADDPS X7, X3

sum8p32next:
	INCQ AX
	JMP  sum8p32loop

sum8p32done:
	STORESUMS
	MOVQ   CX, k+56(FP)
	RET

sum8p32bad:
	MOVQ AX, k+56(FP)
	RET

// func add8f32(w *float32, d *float32, ind *int32, val *float32, n int, stride int, nf int, tail int) (k int)
TEXT ·add8f32(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ d+8(FP), DI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	MOVQ tail+56(FP), R12
	SHLQ $2, R10
	TAILOFF
	LOADSTEPS
	XORQ AX, AX

add8f32loop:
	CMPQ AX, CX
	JGE  add8f32done
	TERM32(add8f32bad)
	VAL32
	MOVAPS X0, X5
	MOVAPS X1, X6
	MULPS  X4, X5
	MULPS  X4, X6
	MOVUPS 0(SI)(BX*1), X7
	MOVUPS 16(SI)(BX*1), X8
	ADDPS  X5, X7
	ADDPS  X6, X8
	MOVUPS X7, 0(SI)(BX*1)
	MOVUPS X8, 16(SI)(BX*1)
	TESTQ  $4, R12
	JZ     add8f32t2
	MOVAPS X2, X5
	MULPS  X4, X5
	MOVUPS 32(SI)(BX*1), X7
	ADDPS  X5, X7
	MOVUPS X7, 32(SI)(BX*1)

add8f32t2:
	TESTQ  $2, R12
	JZ     add8f32next
	LEAQ   (SI)(BX*1), R14
	MOVAPS X3, X5
	MULPS  X4, X5
	MOVQ   (R14)(R13*1), X7
	ADDPS  X5, X7
	MOVQ   X7, (R14)(R13*1)

add8f32next:
	INCQ AX
	JMP  add8f32loop

add8f32done:
	MOVQ CX, k+64(FP)
	RET

add8f32bad:
	MOVQ AX, k+64(FP)
	RET

// func add8s32(w *float32, s *float32, d *float32, ind *int32, n int, stride int, nf int, tail int) (k int)
TEXT ·add8s32(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ s+8(FP), DX
	MOVQ d+16(FP), DI
	MOVQ ind+24(FP), R8
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	MOVQ tail+56(FP), R12
	SHLQ $2, R10
	TAILOFF
	LOADSTEPS
	XORQ AX, AX

add8s32loop:
	CMPQ AX, CX
	JGE  add8s32done
	PREFETCH32(DX, add8s32pf)

add8s32pf:
	TERM32(add8s32bad)
	MOVUPS 0(DX)(BX*1), X9
	MOVUPS 16(DX)(BX*1), X10
	MOVAPS X0, X5
	MOVAPS X1, X6
	MULPS  X9, X5
	MULPS  X10, X6
	MULPS  X9, X5
	MULPS  X10, X6
	MOVUPS 0(SI)(BX*1), X7
	MOVUPS 16(SI)(BX*1), X8
	ADDPS  X5, X7
	ADDPS  X6, X8
	MOVUPS X7, 0(SI)(BX*1)
	MOVUPS X8, 16(SI)(BX*1)
	TESTQ  $4, R12
	JZ     add8s32t2
	MOVUPS 32(DX)(BX*1), X9
	MOVAPS X2, X5
	MULPS  X9, X5
	MULPS  X9, X5
	MOVUPS 32(SI)(BX*1), X7
	ADDPS  X5, X7
	MOVUPS X7, 32(SI)(BX*1)

add8s32t2:
	TESTQ  $2, R12
	JZ     add8s32next
	LEAQ   (DX)(BX*1), R9
	LEAQ   (SI)(BX*1), R14
	MOVQ   (R9)(R13*1), X9
	MOVAPS X3, X5
	MULPS  X9, X5
	MULPS  X9, X5
	MOVQ   (R14)(R13*1), X7
	ADDPS  X5, X7
	MOVQ   X7, (R14)(R13*1)

add8s32next:
	INCQ AX
	JMP  add8s32loop

add8s32done:
	MOVQ CX, k+64(FP)
	RET

add8s32bad:
	MOVQ AX, k+64(FP)
	RET

// func sq8f32(q *float64, s *float32, ind *int32, n int, stride int, nf int, tail int) (k int)
//
// sq8f32 adds Σ_j float64(s[ind[j]·stride + c])² to q[c] for the eight
// problems c of its block and its tail (0, 2, 4 or 6 more): each float32
// widened exactly (CVTPS2PD), squared and added in float64, in the order
// of the terms. X0-X3 the block's sums, X4-X6 the tail's.
TEXT ·sq8f32(SB), NOSPLIT, $0-64
	MOVQ q+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), R10
	MOVQ nf+40(FP), R11
	MOVQ tail+48(FP), R12
	SHLQ $2, R10
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	MOVUPD 32(DI), X2
	MOVUPD 48(DI), X3
	CMPQ   R12, $2
	JLT    sq8f32start
	MOVUPD 64(DI), X4
	CMPQ   R12, $4
	JLT    sq8f32start
	MOVUPD 80(DI), X5
	CMPQ   R12, $6
	JLT    sq8f32start
	MOVUPD 96(DI), X6

sq8f32start:
	XORQ AX, AX

sq8f32loop:
	CMPQ AX, CX
	JGE  sq8f32done
	TERM32(sq8f32bad)
	CVTPS2PD 0(SI)(BX*1), X7
	CVTPS2PD 8(SI)(BX*1), X8
	CVTPS2PD 16(SI)(BX*1), X9
	CVTPS2PD 24(SI)(BX*1), X10
	MULPD    X7, X7
	MULPD    X8, X8
	MULPD    X9, X9
	MULPD    X10, X10
	ADDPD    X7, X0
	ADDPD    X8, X1
	ADDPD    X9, X2
	ADDPD    X10, X3
	CMPQ     R12, $2
	JLT      sq8f32next
	CVTPS2PD 32(SI)(BX*1), X7
	MULPD    X7, X7
	ADDPD    X7, X4
	CMPQ     R12, $4
	JLT      sq8f32next
	CVTPS2PD 40(SI)(BX*1), X8
	MULPD    X8, X8
	ADDPD    X8, X5
	CMPQ     R12, $6
	JLT      sq8f32next
	CVTPS2PD 48(SI)(BX*1), X9
	MULPD    X9, X9
	ADDPD    X9, X6

sq8f32next:
	INCQ AX
	JMP  sq8f32loop

sq8f32done:
	MOVQ CX, k+56(FP)

sq8f32store:
	MOVUPD X0, 0(DI)
	MOVUPD X1, 16(DI)
	MOVUPD X2, 32(DI)
	MOVUPD X3, 48(DI)
	CMPQ   R12, $2
	JLT    sq8f32ret
	MOVUPD X4, 64(DI)
	CMPQ   R12, $4
	JLT    sq8f32ret
	MOVUPD X5, 80(DI)
	CMPQ   R12, $6
	JLT    sq8f32ret
	MOVUPD X6, 96(DI)

sq8f32ret:
	RET

sq8f32bad:
	MOVQ AX, k+56(FP)
	RET
