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
//
// Registers: SI the weights, DI z or r, R8 ind, R9 val, CX n, R10 the
// stride in bytes, R11 nf, AX the term index j, BX the byte offset of
// term j's row, X4 its value (times a for sub) in both lanes, X0-X3 the
// block's sums (axpy) or residuals (sub), X9 a.

// AXPYARGS and SUBARGS load the arguments of axpy8/axpy4 and sub8/sub4
// (the frame offsets are those of their Go declarations).
#define AXPYARGS \
	MOVQ z+0(FP), DI \
	MOVQ w+8(FP), SI \
	MOVQ ind+16(FP), R8 \
	MOVQ val+24(FP), R9 \
	MOVQ n+32(FP), CX \
	MOVQ stride+40(FP), R10 \
	MOVQ nf+48(FP), R11 \
	SHLQ $3, R10

#define SUBARGS \
	MOVQ w+0(FP), SI \
	MOVQ r+8(FP), DI \
	MOVSD a+16(FP), X9 \
	MOVQ ind+24(FP), R8 \
	MOVQ val+32(FP), R9 \
	MOVQ n+40(FP), CX \
	MOVQ stride+48(FP), R10 \
	MOVQ nf+56(FP), R11 \
	SHLQ $3, R10

// TERM loads term j's row offset into BX and its value into X4, or jumps
// to bad when the term id is out of range.
#define TERM(bad) \
	MOVLQSX (R8)(AX*4), BX \
	CMPQ    BX, R11 \
	JAE     bad \
	IMULQ   R10, BX \
	MOVSS   (R9)(AX*4), X4 \
	CVTSS2SD X4, X4

// AXPY2 adds X4 times the two weights at off of the row to acc.
#define AXPY2(off, acc, tmp) \
	MOVUPD off(SI)(BX*1), tmp \
	MULPD  X4, tmp \
	ADDPD  tmp, acc

// SUB2 subtracts X4 times the residuals r from the two weights at off.
#define SUB2(off, r) \
	MOVAPD r, X5 \
	MULPD  X4, X5 \
	MOVUPD off(SI)(BX*1), X6 \
	SUBPD  X5, X6 \
	MOVUPD X6, off(SI)(BX*1)

// func axpy8(z *float64, w *float64, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·axpy8(SB), NOSPLIT, $0-64
	AXPYARGS
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	MOVUPD 32(DI), X2
	MOVUPD 48(DI), X3
	XORQ AX, AX

axpy8loop:
	CMPQ AX, CX
	JGE  axpy8done
	TERM(axpy8bad)
	UNPCKLPD X4, X4
	AXPY2(0, X0, X5)
	AXPY2(16, X1, X6)
	AXPY2(32, X2, X7)
	AXPY2(48, X3, X8)
	INCQ AX
	JMP  axpy8loop

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
	AXPYARGS
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	XORQ AX, AX

axpy4loop:
	CMPQ AX, CX
	JGE  axpy4done
	TERM(axpy4bad)
	UNPCKLPD X4, X4
	AXPY2(0, X0, X5)
	AXPY2(16, X1, X6)
	INCQ AX
	JMP  axpy4loop

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
	SUBARGS
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	MOVUPD 32(DI), X2
	MOVUPD 48(DI), X3
	XORQ AX, AX

sub8loop:
	CMPQ AX, CX
	JGE  sub8done
	TERM(sub8bad)
	MULSD X9, X4
	UNPCKLPD X4, X4
	SUB2(0, X0)
	SUB2(16, X1)
	SUB2(32, X2)
	SUB2(48, X3)
	INCQ AX
	JMP  sub8loop

sub8done:
	MOVQ CX, k+64(FP)
	RET

sub8bad:
	MOVQ AX, k+64(FP)
	RET

// func sub4(w *float64, r *float64, a float64, ind *int32, val *float32, n int, stride int, nf int) (k int)
TEXT ·sub4(SB), NOSPLIT, $0-72
	SUBARGS
	MOVUPD 0(DI), X0
	MOVUPD 16(DI), X1
	XORQ AX, AX

sub4loop:
	CMPQ AX, CX
	JGE  sub4done
	TERM(sub4bad)
	MULSD X9, X4
	UNPCKLPD X4, X4
	SUB2(0, X0)
	SUB2(16, X1)
	INCQ AX
	JMP  sub4loop

sub4done:
	MOVQ CX, k+64(FP)
	RET

sub4bad:
	MOVQ AX, k+64(FP)
	RET
