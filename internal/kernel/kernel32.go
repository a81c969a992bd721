package kernel

import "fmt"

// The float32 loops of the dual solvers of the SVM and NB-LR, whose
// weights are feature-major with a stride S: W[t*S + k] for problem k of
// a group (k < len(z) ≤ S). Products are rounded and then added, in the
// order of the terms, as in the plain loop over the terms and then the
// problems, so the results are the same bits on every architecture.

// Sums32 sets z[k] = Σ_j val[j]·W[ind[j]*S + k] for every k < len(z): a
// document's decision values in the len(z) problems of a group. With val
// nil the features are presences, z[k] = Σ_j W[ind[j]*S + k]. The sums
// run once over the terms per block of problems, kept in registers
// (packed kernels on amd64 for blocks of eight, blocks of 8, 4, 2 and 1 in
// Go), rather than loading and storing every z[k] at every term. It panics
// if S < len(z), a term id is not in [0, len(W)/S) or val is shorter than
// ind.
func Sums32(z, W []float32, S int, ind []int32, val []float32) {
	G := len(z)
	checkStride(G, S)
	if val != nil {
		val = val[:len(ind)]
	}
	k := sums32Blocks(z, W, S, ind, val)
	for ; k+8 <= G; k += 8 {
		var z0, z1, z2, z3, z4, z5, z6, z7 float32
		if val == nil {
			for _, t := range ind {
				o := int(t)*S + k
				v := W[o : o+8 : o+8]
				z0 += v[0]
				z1 += v[1]
				z2 += v[2]
				z3 += v[3]
				z4 += v[4]
				z5 += v[5]
				z6 += v[6]
				z7 += v[7]
			}
		} else {
			for j, t := range ind {
				o := int(t)*S + k
				v, x := W[o:o+8:o+8], val[j]
				z0 += v[0] * x
				z1 += v[1] * x
				z2 += v[2] * x
				z3 += v[3] * x
				z4 += v[4] * x
				z5 += v[5] * x
				z6 += v[6] * x
				z7 += v[7] * x
			}
		}
		z[k], z[k+1], z[k+2], z[k+3] = z0, z1, z2, z3
		z[k+4], z[k+5], z[k+6], z[k+7] = z4, z5, z6, z7
	}
	for ; k+4 <= G; k += 4 {
		var z0, z1, z2, z3 float32
		if val == nil {
			for _, t := range ind {
				o := int(t)*S + k
				v := W[o : o+4 : o+4]
				z0 += v[0]
				z1 += v[1]
				z2 += v[2]
				z3 += v[3]
			}
		} else {
			for j, t := range ind {
				o := int(t)*S + k
				v, x := W[o:o+4:o+4], val[j]
				z0 += v[0] * x
				z1 += v[1] * x
				z2 += v[2] * x
				z3 += v[3] * x
			}
		}
		z[k], z[k+1], z[k+2], z[k+3] = z0, z1, z2, z3
	}
	for ; k+2 <= G; k += 2 {
		var z0, z1 float32
		if val == nil {
			for _, t := range ind {
				o := int(t)*S + k
				v := W[o : o+2 : o+2]
				z0 += v[0]
				z1 += v[1]
			}
		} else {
			for j, t := range ind {
				o := int(t)*S + k
				v, x := W[o:o+2:o+2], val[j]
				z0 += v[0] * x
				z1 += v[1] * x
			}
		}
		z[k], z[k+1] = z0, z1
	}
	if k < G {
		var z0 float32
		if val == nil {
			for _, t := range ind {
				z0 += W[int(t)*S+k]
			}
		} else {
			for j, t := range ind {
				z0 += W[int(t)*S+k] * val[j]
			}
		}
		z[k] = z0
	}
}

// AddSteps32 adds d[k]·val[j] to W[ind[j]*S + k] for every term j of a
// document and every k < len(d): a dual step of d[k] in each problem of a
// group (the weights of the SVM). It panics as Sums32.
func AddSteps32(W []float32, S int, d []float32, ind []int32, val []float32) {
	G := len(d)
	checkStride(G, S)
	val = val[:len(ind)]
	k := addSteps32Blocks(W, S, d, ind, val)
	if k == G {
		return
	}
	d = d[k:G]
	for j, t := range ind {
		o := int(t)*S + k
		wt, x := W[o:o+len(d):o+len(d)], val[j]
		for k, dk := range d {
			wt[k] += dk * x
		}
	}
}

// AddScaledSteps32 adds (d[k]·Sc[o+k])·Sc[o+k] to W[o + k], o =
// ind[j]*S, for every term j of a document (a presence) and every k <
// len(d): a dual step in each problem of a group whose features are
// scaled by Sc (NB-LR, whose solver keeps the weights of presence). Sc
// has the layout of W. It panics as Sums32, or if Sc is shorter than W.
func AddScaledSteps32(W, Sc []float32, S int, d []float32, ind []int32) {
	G := len(d)
	checkStride(G, S)
	Sc = Sc[:len(W)]
	k := addScaledSteps32Blocks(W, Sc, S, d, ind)
	if k == G {
		return
	}
	d = d[k:G]
	for _, t := range ind {
		o := int(t)*S + k
		wt, st := W[o:o+len(d):o+len(d)], Sc[o:o+len(d):o+len(d)]
		for k, dk := range d {
			wt[k] += dk * st[k] * st[k]
		}
	}
}

// AddSquares32 adds Σ_j float64(Sc[ind[j]*S + k])² to q[k] for every k <
// len(q), in the order of the terms: the squared norms, in each problem
// of a group, of a document whose features are scaled by Sc (NB-LR's
// presences). A float32 widens exactly and its square is exact in
// float64, so only the sums round. It panics as Sums32.
func AddSquares32(q []float64, Sc []float32, S int, ind []int32) {
	G := len(q)
	checkStride(G, S)
	k := addSquares32Blocks(q, Sc, S, ind)
	if k == G {
		return
	}
	q = q[k:G]
	for _, t := range ind {
		o := int(t)*S + k
		st := Sc[o : o+len(q) : o+len(q)]
		for k, v := range st {
			q[k] += float64(v) * float64(v)
		}
	}
}

// checkStride panics when a group of G problems does not fit stride S.
func checkStride(G, S int) {
	if S < G {
		panic(fmt.Sprintf("kernel: stride %d below the group's %d problems", S, G))
	}
}
