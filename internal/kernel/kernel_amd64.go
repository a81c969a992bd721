package kernel

import "fmt"

// The packed SSE2 kernels of kernel_amd64.s: blocks of eight or four
// classes in two-lane registers, one pass over a document's terms per
// block, the same operations lane by lane as AddScores' and SubScaled's
// loops in Go (so the same bits), with about half the instructions.
// The kernels check the term ids, as Go's bounds checks would.

//go:noescape
func axpy8(z *float64, w *float64, ind *int32, val *float32, n int, stride int, nf int) (k int)

//go:noescape
func axpy4(z *float64, w *float64, ind *int32, val *float32, n int, stride int, nf int) (k int)

//go:noescape
func sub8(w *float64, r *float64, a float64, ind *int32, val *float32, n int, stride int, nf int) (k int)

//go:noescape
func sub4(w *float64, r *float64, a float64, ind *int32, val *float32, n int, stride int, nf int) (k int)

// addScoresBlocks does AddScores for the classes [0, c) of z, the blocks
// of four it can, and returns c. val is as long as ind.
func addScoresBlocks(z, W []float64, ind []int32, val []float32) int {
	nc := len(z)
	if nc < 4 || len(ind) == 0 {
		return 0
	}
	n, nf := len(ind), len(W)/nc
	c := 0
	for ; c+8 <= nc; c += 8 {
		checkTerm(axpy8(&z[c], &W[c], &ind[0], &val[0], n, nc, nf), ind, nf)
	}
	if c+4 <= nc {
		checkTerm(axpy4(&z[c], &W[c], &ind[0], &val[0], n, nc, nf), ind, nf)
		c += 4
	}
	return c
}

// subScaledBlocks does SubScaled for the classes [0, c) of r, the blocks
// of four it can, and returns c. val is as long as ind.
func subScaledBlocks(W, r []float64, a float64, ind []int32, val []float32) int {
	nc := len(r)
	if nc < 4 || len(ind) == 0 {
		return 0
	}
	n, nf := len(ind), len(W)/nc
	c := 0
	for ; c+8 <= nc; c += 8 {
		checkTerm(sub8(&W[c], &r[c], a, &ind[0], &val[0], n, nc, nf), ind, nf)
	}
	if c+4 <= nc {
		checkTerm(sub4(&W[c], &r[c], a, &ind[0], &val[0], n, nc, nf), ind, nf)
		c += 4
	}
	return c
}

// checkTerm panics, as Go's bounds check would, when a kernel stopped at
// term k of ind (out of [0, nf)) before the end.
func checkTerm(k int, ind []int32, nf int) {
	if k < len(ind) {
		panic(fmt.Sprintf("kernel: term id %d out of range [0, %d)", ind[k], nf))
	}
}
