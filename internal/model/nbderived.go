package model

import (
	"math"
	"sync/atomic"
)

// complementRefitBytes is the size of a complement model's weights below
// which derivedNB refits them whole: two passes of logarithms cost more
// than one, and memory of that size is cheap.
var complementRefitBytes = 32 << 20

// derivedNB reports whether fitNB(m.Kind, m.Params, m.ClassDocs, m.Counts,
// C) gives m.W and m.B, bit for bit: then the file can leave the weights
// out and Decode computes them again. It is the comparison of a full
// refit made one term at a time (but for small complement models), so that
// saving a model does not need a second V×C matrix: it computes every weight with the same
// operations on the same operands, in the same order where a sum depends
// on it, as fitNB. Should the two ever part (a change to one and not the
// other), derivedNB answers false and the file stores the weights: it
// costs space, never correctness. m holds valid NB statistics (m.validate).
func derivedNB(m *Model) bool {
	C := len(m.Classes)
	p, counts, classDocs := m.Params, m.Counts, m.ClassDocs
	if C == 0 || len(counts)%C != 0 || len(m.W) != len(counts) || len(m.B) != C || len(classDocs) != C {
		return false
	}
	V := len(counts) / C
	t := p.Temperature
	scale := func(x float64) float64 {
		if t > 0 && t != 1 {
			return x * t
		}
		return x
	}
	lp := logPrior(p, classDocs, C)
	B := make([]float64, C)
	switch m.Kind {
	case Bernoulli:
		// fitNB's loop is sequential (B sums over the terms in order); so
		// is this one.
		copy(B, lp)
		z := bernoulliZero(p, classDocs)
		sum1m := make([]float64, C)
		const block = 1024 // terms
		out := make([]float64, min(V, block)*C)
		for d := 0; d < V; d += block {
			e := min(d+block, V)
			w := out[:(e-d)*C]
			bernoulliRows(p, classDocs, counts[d*C:e*C], z, w, sum1m)
			for i, x := range w {
				if !sameBit(scale(x), m.W[d*C+i]) {
					return false
				}
			}
		}
		for c := range B {
			B[c] += sum1m[c]
		}
	case Multinomial:
		copy(B, lp)
		logDen, zero, limit := multinomialDen(p, counts, C, V)
		if !rowsMatch(V, C, m.W, func(d int, out []float64) {
			multinomialRow(counts[d*C:d*C+C], p.Alpha, logDen, zero, limit, out)
			for c, w := range out {
				out[c] = scale(w)
			}
		}) {
			return false
		}
	case Complement:
		if 8*len(counts) < complementRefitBytes {
			// The normaliser needs every weight before the first can be
			// compared: a small model is refitted whole, once.
			W, B := fitNB(m.Kind, p, classDocs, counts, C)
			return sameBits(W, m.W) && sameBits(B, m.B)
		}
		// B is 0. The normaliser sums every weight in term order first: a
		// first pass of logarithms, where fitNB keeps them in W.
		comp := make([]float64, C)
		tot, logTot := complementTotals(p.Alpha, counts, C, comp, 0)
		norm := complementNorm(p, C, V, func(d int) []float64 {
			complementRow(counts[d*C:d*C+C], p.Alpha, comp)
			complementLogs(comp, tot, logTot, V)
			return comp
		})
		if !rowsMatch(V, C, m.W, func(d int, out []float64) {
			complementRow(counts[d*C:d*C+C], p.Alpha, out)
			complementLogs(out, tot, logTot, V)
			for c, w := range out {
				out[c] = scale(-w / norm[c])
			}
		}) {
			return false
		}
	}
	for c := range B {
		B[c] = scale(B[c])
	}
	return sameBits(B, m.B)
}

// multinomialDen returns, for multinomial NB, log(Σ_d count_cd + α|V|) of
// each class, the weight of a zero count, and whether the class takes the
// limit α → 0 of an empty class; see fitNB.
func multinomialDen(p Params, counts []float64, C, V int) (logDen, zero []float64, limit []bool) {
	tot := make([]float64, C)
	for d := 0; d < V; d++ {
		for c := 0; c < C; c++ {
			tot[c] += counts[d*C+c]
		}
	}
	logDen, zero = make([]float64, C), make([]float64, C)
	limit = make([]bool, C)
	for c := range C {
		den := tot[c] + p.Alpha*float64(V)
		if den > 0 {
			logDen[c] = math.Log(den)
			zero[c] = math.Log(0+p.Alpha) - logDen[c]
		} else {
			limit[c] = true
			zero[c] = -math.Log(float64(V)) // limit α → 0 of α/(α|V|)
		}
	}
	return logDen, zero, limit
}

// multinomialRow sets out to the multinomial weights of one term with
// counts r; see fitNB.
func multinomialRow(r []float64, alpha float64, logDen, zero []float64, limit []bool, out []float64) {
	for c, x := range r {
		if x == 0 || limit[c] {
			out[c] = zero[c]
		} else {
			out[c] = math.Log(x+alpha) - logDen[c]
		}
	}
}

// rowsMatch computes the weights of every term d < V with row (into a
// C-long slice), the terms in parallel, and reports whether they are W's,
// bit for bit.
func rowsMatch(V, C int, W []float64, row func(d int, out []float64)) bool {
	var differ atomic.Bool
	parallelRange(V, func(lo, hi int) {
		out := make([]float64, C)
		for d := lo; d < hi; d++ {
			if row(d, out); !sameBits(out, W[d*C:d*C+C]) {
				differ.Store(true)
				return
			}
			if d%4096 == 0 && differ.Load() {
				return
			}
		}
	})
	return !differ.Load()
}

// complementRow sets out[c] = Σ_{c'≠c} r[c'] + α, the complement count of
// one term, as fitComplement computes it: a prefix plus a suffix sum.
func complementRow(r []float64, alpha float64, out []float64) {
	pre := 0.0
	for c, x := range r {
		out[c] = pre
		pre += x
	}
	suf := 0.0
	for c := len(r) - 1; c >= 0; c-- {
		out[c] = out[c] + suf + alpha
		suf += r[c]
	}
}

// sameBit reports whether a and b have the same float64 bit pattern.
func sameBit(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
