#include "textflag.h"

// The kernels of kernel_amd64.go: packed SSE2 (two float64 lanes per
// register, baseline on amd64). Each lane does the operations of the
// loops in Go, a product rounded and then a sum or difference rounded,
// never a fused multiply-add, so the results are the same bits. Each
// returns n, or the index of the first term id not in [0, nf), where it
// stopped.
//
// axpy8 and axpy4 add Σ_j val[j]·w[ind[j]·stride + c] to z[c] for the
// classes c of their block (8 or 4); sub8 and sub4 subtract
// (a·val[j])·r[c] from w[ind[j]·stride + c].

// func axpy8(z *float64, w *float64, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·axpy8(SB), NOSPLIT, $0-64
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	SHLQ $3, R10
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	MOVUPD 32(DI), X2
	MOVUPD 48(DI), X3
	XORQ AX, AX

axpy8loop:
	CMPQ AX, CX
	JGE axpy8done
	MOVLQSX (R8)(AX*4), BX
	CMPQ BX, R11
	JAE axpy8bad
	IMULQ R10, BX
	MOVSS (R9)(AX*4), X4
	CVTSS2SD X4, X4
	UNPCKLPD X4, X4
	MOVUPD 0(SI)(BX*1), X5
	MULPD X4, X5
	ADDPD X5, X0
	MOVUPD 16(SI)(BX*1), X6
	MULPD X4, X6
	ADDPD X6, X1
	MOVUPD 32(SI)(BX*1), X7
	MULPD X4, X7
	ADDPD X7, X2
	MOVUPD 48(SI)(BX*1), X8
	MULPD X4, X8
	ADDPD X8, X3
	INCQ AX
	JMP axpy8loop

axpy8done:
	MOVUPD X0, 0(DI)
	MOVUPD X1, 16(DI)
	MOVUPD X2, 32(DI)
	MOVUPD X3, 48(DI)
	MOVQ CX, k+56(FP)
	RET

axpy8bad:
	MOVQ AX, k+56(FP)
	RET

// func axpy4(z *float64, w *float64, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·axpy4(SB), NOSPLIT, $0-64
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R10
	MOVQ nf+48(FP), R11
	SHLQ $3, R10
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	XORQ AX, AX

axpy4loop:
	CMPQ AX, CX
	JGE axpy4done
	MOVLQSX (R8)(AX*4), BX
	CMPQ BX, R11
	JAE axpy4bad
	IMULQ R10, BX
	MOVSS (R9)(AX*4), X4
	CVTSS2SD X4, X4
	UNPCKLPD X4, X4
	MOVUPD 0(SI)(BX*1), X5
	MULPD X4, X5
	ADDPD X5, X0
	MOVUPD 16(SI)(BX*1), X6
	MULPD X4, X6
	ADDPD X6, X1
	INCQ AX
	JMP axpy4loop

axpy4done:
	MOVUPD X0, 0(DI)
	MOVUPD X1, 16(DI)
	MOVQ CX, k+56(FP)
	RET

axpy4bad:
	MOVQ AX, k+56(FP)
	RET

// func sub8(w *float64, r *float64, a float64, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·sub8(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ r+8(FP), DI
	MOVSD a+16(FP), X9
	MOVQ ind+24(FP), R8
	MOVQ val+32(FP), R9
	MOVQ n+40(FP), CX
	MOVQ stride+48(FP), R10
	MOVQ nf+56(FP), R11
	SHLQ $3, R10
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	MOVUPD 32(DI), X2
	MOVUPD 48(DI), X3
	XORQ AX, AX

sub8loop:
	CMPQ AX, CX
	JGE sub8done
	MOVLQSX (R8)(AX*4), BX
	CMPQ BX, R11
	JAE sub8bad
	IMULQ R10, BX
	MOVSS (R9)(AX*4), X4
	CVTSS2SD X4, X4
	MULSD X9, X4
	UNPCKLPD X4, X4
	MOVAPD X0, X5
	MULPD X4, X5
	MOVUPD 0(SI)(BX*1), X6
	SUBPD X5, X6
	MOVUPD X6, 0(SI)(BX*1)
	MOVAPD X1, X5
	MULPD X4, X5
	MOVUPD 16(SI)(BX*1), X6
	SUBPD X5, X6
	MOVUPD X6, 16(SI)(BX*1)
	MOVAPD X2, X5
	MULPD X4, X5
	MOVUPD 32(SI)(BX*1), X6
	SUBPD X5, X6
	MOVUPD X6, 32(SI)(BX*1)
	MOVAPD X3, X5
	MULPD X4, X5
	MOVUPD 48(SI)(BX*1), X6
	SUBPD X5, X6
	MOVUPD X6, 48(SI)(BX*1)
	INCQ AX
	JMP sub8loop

sub8done:
	MOVQ CX, k+64(FP)
	RET

sub8bad:
	MOVQ AX, k+64(FP)
	RET

// func sub4(w *float64, r *float64, a float64, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·sub4(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ r+8(FP), DI
	MOVSD a+16(FP), X9
	MOVQ ind+24(FP), R8
	MOVQ val+32(FP), R9
	MOVQ n+40(FP), CX
	MOVQ stride+48(FP), R10
	MOVQ nf+56(FP), R11
	SHLQ $3, R10
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	XORQ AX, AX

sub4loop:
	CMPQ AX, CX
	JGE sub4done
	MOVLQSX (R8)(AX*4), BX
	CMPQ BX, R11
	JAE sub4bad
	IMULQ R10, BX
	MOVSS (R9)(AX*4), X4
	CVTSS2SD X4, X4
	MULSD X9, X4
	UNPCKLPD X4, X4
	MOVAPD X0, X5
	MULPD X4, X5
	MOVUPD 0(SI)(BX*1), X6
	SUBPD X5, X6
	MOVUPD X6, 0(SI)(BX*1)
	MOVAPD X1, X5
	MULPD X4, X5
	MOVUPD 16(SI)(BX*1), X6
	SUBPD X5, X6
	MOVUPD X6, 16(SI)(BX*1)
	INCQ AX
	JMP sub4loop

sub4done:
	MOVQ CX, k+64(FP)
	RET

sub4bad:
	MOVQ AX, k+64(FP)
	RET
