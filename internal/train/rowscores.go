package train

// rowScores32 sets z[k] = Σ_j val[j]·w[ind[j]*G + k] for every k < G =
// len(z): one document's decision values in the G problems of solveGroup,
// whose weights are feature-major (G per term). With val nil the features
// are presences (NB-LR), z[k] = Σ_j w[ind[j]*G + k].
//
// It gives the same bits as the plain loop over the terms and then the
// problems (each sum adds its terms in their order, each product rounded
// before it is added), but keeps blocks of 8, 4, 2 and 1 sums in locals,
// which the compiler holds in registers, running once over the terms per
// block: the plain loop loads and stores every z[k] for every term. A
// block's later reads of a term's weights find its cache line already
// loaded by the first.
func rowScores32(z, w []float32, ind []int32, val []float32) {
	G := len(z)
	k := 0
	for ; k+8 <= G; k += 8 {
		var z0, z1, z2, z3, z4, z5, z6, z7 float32
		if val == nil {
			for _, t := range ind {
				o := int(t)*G + k
				v := w[o : o+8 : o+8]
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
			val := val[:len(ind)]
			for j, t := range ind {
				o := int(t)*G + k
				v, x := w[o:o+8:o+8], val[j]
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
				o := int(t)*G + k
				v := w[o : o+4 : o+4]
				z0 += v[0]
				z1 += v[1]
				z2 += v[2]
				z3 += v[3]
			}
		} else {
			val := val[:len(ind)]
			for j, t := range ind {
				o := int(t)*G + k
				v, x := w[o:o+4:o+4], val[j]
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
				o := int(t)*G + k
				v := w[o : o+2 : o+2]
				z0 += v[0]
				z1 += v[1]
			}
		} else {
			val := val[:len(ind)]
			for j, t := range ind {
				o := int(t)*G + k
				v, x := w[o:o+2:o+2], val[j]
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
				z0 += w[int(t)*G+k]
			}
		} else {
			val := val[:len(ind)]
			for j, t := range ind {
				z0 += w[int(t)*G+k] * val[j]
			}
		}
		z[k] = z0
	}
}
