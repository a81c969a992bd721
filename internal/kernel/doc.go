// Package kernel owns the two hot loops every linear model of nbtext
// shares over its feature-major weights W[t*C + c] (C classes): adding a
// document's scores Σ_t v_t W[t*C + c] (scoring, and SGD's forward step)
// and subtracting a scaled residual from the weights of its terms (SGD's
// update), and the float32 loops of the dual coordinate descent of the
// SVM and NB-LR over weights W[t*S + k] of a group of problems k with a
// stride S (kernel32.go: Sums32, AddSteps32, AddScaledSteps32).
//
// # Conventions
//
//   - Same bits everywhere. Each score adds the document's terms in their
//     order, each product is rounded and then added (never a fused
//     multiply-add), so the result is the same bits as the plain loop
//     over the terms and then the classes, on every architecture.
//   - Speed. The loops run once over the terms per block of classes,
//     with the block's sums in registers; on amd64 packed SSE2 kernels
//     (kernel_amd64.s, baseline on amd64: no CPU feature check) take
//     blocks of eight and four classes, Go loops the rest; packed SSE
//     float32 kernels (kernel32_amd64.s) take blocks of eight problems.
//   - Term ids must lie in [0, len(W)/C): AddScores and SubScaled panic,
//     as an index out of range does, on one that does not (InRange checks
//     first where input may hold such ids). They allocate nothing.
//
// kernel imports no other package of nbtext.
package kernel
