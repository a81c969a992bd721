package kernel

// The packed SSE kernels of kernel32_amd64.s: blocks of eight problems in
// two four-lane registers, the last block with a tail of up to six more
// (tail8), one pass over a document's terms per block,
// the same operations lane by lane as the loops of Sums32, AddSteps32 and
// AddScaledSteps32 in Go (so the same bits). They check the term ids, as
// Go's bounds checks would.

//go:noescape
func sum8f32(z *float32, w *float32, ind *int32, val *float32, n int, stride int, nf int, tail int) (k int)

//go:noescape
func sum8p32(z *float32, w *float32, ind *int32, n int, stride int, nf int, tail int) (k int)

//go:noescape
func add8f32(w *float32, d *float32, ind *int32, val *float32, n int, stride int, nf int, tail int) (k int)

//go:noescape
func add8s32(w *float32, s *float32, d *float32, ind *int32, n int, stride int, nf int, tail int) (k int)

//go:noescape
func sq8f32(q *float64, s *float32, ind *int32, n int, stride int, nf int, tail int) (k int)

// blocks8 runs kernel, for a group of G problems and the n terms ind of a
// document over nf terms, on each block of eight problems from k with
// its tail (tail8), and returns the first problem it left. kernel returns
// where it stopped (checkTerm).
func blocks8(G, nf int, ind []int32, kernel func(k, n, tail int) int) int {
	n := len(ind)
	if n == 0 {
		return 0
	}
	k := 0
	for k+8 <= G {
		tail := tail8(k, G)
		checkTerm(kernel(k, n, tail), ind, nf)
		k += 8 + tail
	}
	return k
}

// tail8 returns the tail of the block of eight problems from k of a group
// of G: 0 when another block of eight follows, else the even number of
// problems left after it, up to 6 (an odd last one is left to Go).
func tail8(k, G int) int {
	rest := G - k - 8
	if rest >= 8 {
		return 0
	}
	return min(rest, 6) &^ 1
}

// sums32Blocks does Sums32 for the problems [0, k) of z, the blocks of
// eight (with their tails) it can, and returns k. val is nil or as long
// as ind.
func sums32Blocks(z, W []float32, S int, ind []int32, val []float32) int {
	nf := len(W) / S
	return blocks8(len(z), nf, ind, func(k, n, tail int) int {
		if val == nil {
			return sum8p32(&z[k], &W[k], &ind[0], n, S, nf, tail)
		}
		return sum8f32(&z[k], &W[k], &ind[0], &val[0], n, S, nf, tail)
	})
}

// addSteps32Blocks does AddSteps32 for the problems [0, k) of d, the
// blocks of eight (with their tails) it can, and returns k. val is as
// long as ind.
func addSteps32Blocks(W []float32, S int, d []float32, ind []int32, val []float32) int {
	nf := len(W) / S
	return blocks8(len(d), nf, ind, func(k, n, tail int) int {
		return add8f32(&W[k], &d[k], &ind[0], &val[0], n, S, nf, tail)
	})
}

// addScaledSteps32Blocks does AddScaledSteps32 for the problems [0, k) of
// d, the blocks of eight (with their tails) it can, and returns k. Sc is
// as long as W.
func addScaledSteps32Blocks(W, Sc []float32, S int, d []float32, ind []int32) int {
	nf := len(W) / S
	return blocks8(len(d), nf, ind, func(k, n, tail int) int {
		return add8s32(&W[k], &Sc[k], &d[k], &ind[0], n, S, nf, tail)
	})
}

// addSquares32Blocks does AddSquares32 for the problems [0, k) of q, the
// blocks of eight (with their tails) it can, and returns k.
func addSquares32Blocks(q []float64, Sc []float32, S int, ind []int32) int {
	nf := len(Sc) / S
	return blocks8(len(q), nf, ind, func(k, n, tail int) int {
		return sq8f32(&q[k], &Sc[k], &ind[0], n, S, nf, tail)
	})
}
