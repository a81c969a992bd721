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
	return blocks(false, z, W, 0, ind, val)
}

// subScaledBlocks does SubScaled for the classes [0, c) of r, the blocks
// of four it can, and returns c. val is as long as ind.
func subScaledBlocks(W, r []float64, a float64, ind []int32, val []float32) int {
	return blocks(true, r, W, a, ind, val)
}

// blocks runs axpy8 and axpy4 (sub false: sums into v) or sub8 and sub4
// (sub true: v the residuals, a the scale) over the blocks of eight and
// then four classes of v and returns the first class it left.
func blocks(sub bool, v, W []float64, a float64, ind []int32, val []float32) int {
	nc := len(v)
	if nc < 4 || len(ind) == 0 {
		return 0
	}
	n, nf := len(ind), len(W)/nc
	c := 0
	for c+4 <= nc {
		var k int
		wide := c+8 <= nc
		switch {
		case sub && wide:
			k = sub8(&W[c], &v[c], a, &ind[0], &val[0], n, nc, nf)
		case sub:
			k = sub4(&W[c], &v[c], a, &ind[0], &val[0], n, nc, nf)
		case wide:
			k = axpy8(&v[c], &W[c], &ind[0], &val[0], n, nc, nf)
		default:
			k = axpy4(&v[c], &W[c], &ind[0], &val[0], n, nc, nf)
		}
		checkTerm(k, ind, nf)
		if wide {
			c += 8
		} else {
			c += 4
		}
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
