#include "textflag.h"

// The float32 kernels of kernel32_amd64.go: packed SSE (four float32
// lanes per register, baseline on amd64), blocks of eight weights of a
// term, the same operations lane by lane as the loops in Go (a product
// rounded, then a sum rounded; never a fused multiply-add), so the same
// bits. Each returns n, or the index of the first term id not in [0, nf),
// where it stopped.
//
// Registers: SI the weights, DI z or d, DX the scales (add8s32), R8 ind,
// R9 val, CX n, R10 the stride in bytes, R11 nf, AX the term index j, BX
// the byte offset of term j's weights, X4 its value in every lane, X0-X1
// the block's sums (sum) or steps d (add).

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

// func sum8f32(z *float32, w *float32, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·sum8f32(SB), NOSPLIT, $0-64
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	SHLQ $2, R10
	XORPS X0, X0
	XORPS X1, X1
	XORQ AX, AX

sum8f32loop:
	CMPQ AX, CX
	JGE  sum8f32done
	TERM32(sum8f32bad)
	VAL32
	MOVUPS 0(SI)(BX*1), X5
	MOVUPS 16(SI)(BX*1), X6
	MULPS  X4, X5
	MULPS  X4, X6
	ADDPS  X5, X0
	ADDPS  X6, X1
	INCQ AX
	JMP  sum8f32loop

sum8f32done:
	MOVUPS X0, 0(DI)
	MOVUPS X1, 16(DI)
	MOVQ CX, k+56(FP)
	RET

sum8f32bad:
	MOVQ AX, k+56(FP)
	RET

// func sum8p32(z *float32, w *float32, ind *int32, n int, stride int, nf int) (k int)
TEXT ·sum8p32(SB), NOSPLIT, $0-56
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), R10
	MOVQ nf+40(FP), R11
	SHLQ $2, R10
	XORPS X0, X0
	XORPS X1, X1
	XORQ AX, AX

sum8p32loop:
	CMPQ AX, CX
	JGE  sum8p32done
	TERM32(sum8p32bad)
	MOVUPS 0(SI)(BX*1), X5
	MOVUPS 16(SI)(BX*1), X6
	ADDPS  X5, X0
	ADDPS  X6, X1
	INCQ AX
	JMP  sum8p32loop

sum8p32done:
	MOVUPS X0, 0(DI)
	MOVUPS X1, 16(DI)
	MOVQ CX, k+48(FP)
	RET

sum8p32bad:
	MOVQ AX, k+48(FP)
	RET

// func add8f32(w *float32, d *float32, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·add8f32(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ d+8(FP), DI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	SHLQ $2, R10
	MOVUPS 0(DI), X0
	MOVUPS 16(DI), X1
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
	INCQ AX
	JMP  add8f32loop

add8f32done:
	MOVQ CX, k+56(FP)
	RET

add8f32bad:
	MOVQ AX, k+56(FP)
	RET

// func add8s32(w *float32, s *float32, d *float32, ind *int32, n int, stride int, nf int) (k int)
TEXT ·add8s32(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ s+8(FP), DX
	MOVQ d+16(FP), DI
	MOVQ ind+24(FP), R8
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	SHLQ $2, R10
	MOVUPS 0(DI), X0
	MOVUPS 16(DI), X1
	XORQ AX, AX

add8s32loop:
	CMPQ AX, CX
	JGE  add8s32done
	TERM32(add8s32bad)
	MOVUPS 0(DX)(BX*1), X2
	MOVUPS 16(DX)(BX*1), X3
	MOVAPS X0, X5
	MOVAPS X1, X6
	MULPS  X2, X5
	MULPS  X3, X6
	MULPS  X2, X5
	MULPS  X3, X6
	MOVUPS 0(SI)(BX*1), X7
	MOVUPS 16(SI)(BX*1), X8
	ADDPS  X5, X7
	ADDPS  X6, X8
	MOVUPS X7, 0(SI)(BX*1)
	MOVUPS X8, 16(SI)(BX*1)
	INCQ AX
	JMP  add8s32loop

add8s32done:
	MOVQ CX, k+56(FP)
	RET

add8s32bad:
	MOVQ AX, k+56(FP)
	RET
