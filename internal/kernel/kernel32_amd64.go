package kernel

// The packed SSE kernels of kernel32_amd64.s: blocks of eight problems in
// two four-lane registers, one pass over a document's terms per block,
// the same operations lane by lane as the loops of Sums32, AddSteps32 and
// AddScaledSteps32 in Go (so the same bits). They check the term ids, as
// Go's bounds checks would.

//go:noescape
func sum8f32(z *float32, w *float32, ind *int32, val *float32, n int, stride int, nf int) (k int)

//go:noescape
func sum8p32(z *float32, w *float32, ind *int32, n int, stride int, nf int) (k int)

//go:noescape
func add8f32(w *float32, d *float32, ind *int32, val *float32, n int, stride int, nf int) (k int)

//go:noescape
func add8s32(w *float32, s *float32, d *float32, ind *int32, n int, stride int, nf int) (k int)

// sums32Blocks does Sums32 for the problems [0, k) of z, the blocks of
// eight it can, and returns k. val is nil or as long as ind.
func sums32Blocks(z, W []float32, S int, ind []int32, val []float32) int {
	G, n, nf := len(z), len(ind), len(W)/S
	if n == 0 {
		return 0
	}
	k := 0
	for ; k+8 <= G; k += 8 {
		var j int
		if val == nil {
			j = sum8p32(&z[k], &W[k], &ind[0], n, S, nf)
		} else {
			j = sum8f32(&z[k], &W[k], &ind[0], &val[0], n, S, nf)
		}
		checkTerm(j, ind, nf)
	}
	return k
}

// addSteps32Blocks does AddSteps32 for the problems [0, k) of d, the
// blocks of eight it can, and returns k. val is as long as ind.
func addSteps32Blocks(W []float32, S int, d []float32, ind []int32, val []float32) int {
	G, n, nf := len(d), len(ind), len(W)/S
	if n == 0 {
		return 0
	}
	k := 0
	for ; k+8 <= G; k += 8 {
		checkTerm(add8f32(&W[k], &d[k], &ind[0], &val[0], n, S, nf), ind, nf)
	}
	return k
}

// addScaledSteps32Blocks does AddScaledSteps32 for the problems [0, k) of
// d, the blocks of eight it can, and returns k. Sc is as long as W.
func addScaledSteps32Blocks(W, Sc []float32, S int, d []float32, ind []int32) int {
	G, n, nf := len(d), len(ind), len(W)/S
	if n == 0 {
		return 0
	}
	k := 0
	for ; k+8 <= G; k += 8 {
		checkTerm(add8s32(&W[k], &Sc[k], &d[k], &ind[0], n, S, nf), ind, nf)
	}
	return k
}
