package kernel

// AddScores adds Σ_t v_t W[t*C + c] over a document's terms ind and values
// val to z[c] (C = len(z)). Each sum adds the terms in order, so the
// result is the same bits as a loop over the terms that adds to all of z;
// the loop instead runs over the terms once per block of classes (packed
// kernels on amd64, blocks of four in registers in Go) without loading
// and storing z at every term. It panics if a term id is not in
// [0, len(W)/C) or val is shorter than ind.
func AddScores(z, W []float64, ind []int32, val []float32) {
	nc := len(z)
	val = val[:len(ind)]
	c := addScoresBlocks(z, W, ind, val)
	for ; c+4 <= nc; c += 4 {
		z0, z1, z2, z3 := z[c], z[c+1], z[c+2], z[c+3]
		for j, t := range ind {
			v := float64(val[j])
			o := int(t)*nc + c
			w := W[o : o+4 : o+4]
			z0 += v * w[0]
			z1 += v * w[1]
			z2 += v * w[2]
			z3 += v * w[3]
		}
		z[c], z[c+1], z[c+2], z[c+3] = z0, z1, z2, z3
	}
	if c == nc {
		return
	}
	rest := z[c:]
	for j, t := range ind {
		v := float64(val[j])
		o := int(t)*nc + c
		wt := W[o : o+len(rest)]
		for k := range rest {
			rest[k] += v * wt[k]
		}
	}
}

// SubScaled subtracts (a·v_t)·r[c] from W[t*C + c] for every term t of a
// document (terms ind, values val; C = len(r)): the same operations on
// each weight as a loop over the terms and then the classes, run per block
// of classes whose residuals stay in registers. It panics as AddScores.
func SubScaled(W, r []float64, a float64, ind []int32, val []float32) {
	nc := len(r)
	val = val[:len(ind)]
	c := subScaledBlocks(W, r, a, ind, val)
	for ; c+4 <= nc; c += 4 {
		r0, r1, r2, r3 := r[c], r[c+1], r[c+2], r[c+3]
		for j, t := range ind {
			av := a * float64(val[j])
			o := int(t)*nc + c
			w := W[o : o+4 : o+4]
			w[0] -= av * r0
			w[1] -= av * r1
			w[2] -= av * r2
			w[3] -= av * r3
		}
	}
	if c == nc {
		return
	}
	rest := r[c:]
	for j, t := range ind {
		av := a * float64(val[j])
		o := int(t)*nc + c
		wt := W[o : o+len(rest)]
		for k := range rest {
			wt[k] -= av * rest[k]
		}
	}
}

// InRange reports whether every term id of ind lies in [0, nf).
func InRange(ind []int32, nf int) bool {
	for _, t := range ind {
		if uint(t) >= uint(nf) {
			return false
		}
	}
	return true
}
