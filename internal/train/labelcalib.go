package train

import (
	"math"

	"github.com/nbtext/nbtext/internal/model"
)

// Knobs of the per-label Platt scaling.
const (
	plattMaxIter = 100   // Newton steps at most
	plattMinStep = 1e-10 // the line search gives up below this step
	plattSigma   = 1e-12 // added to the Hessian's diagonal, as in Lin et al.
	plattEps     = 1e-5  // stop when the gradient is this small
)

// PlattScale fits the sigmoid σ(a·s + b) to the scores s of n documents
// of which pos[i] says whether document i carries the label, with the
// prior-aware targets of Platt (1999):
//
//	t_i = (N₊ + 1)/(N₊ + 2) when pos[i],  1/(N₋ + 2) otherwise
//
// minimizing the cross-entropy −Σ t_i log p_i + (1 − t_i) log(1 − p_i) by
// Newton's method with a backtracking line search (Lin, Lin & Weng 2007,
// "A note on Platt's probabilistic outputs for support vector machines").
// The targets never reach 0 or 1, so the minimum is finite even when the
// scores separate the documents, and they shrink a label seen on few
// documents toward its base rate: a label on one document of n keeps a
// probability near 1/n on documents that do not resemble it, whatever its
// raw scores. A slope a < 0 (scores that rank the label backwards) is
// refused: a is then 0 and b the log-odds of the mean target, the
// smoothed base rate, which is also the answer when every score is equal.
func PlattScale(s []float64, pos []bool) (a, b float64) {
	var np, nn float64
	for _, p := range pos {
		if p {
			np++
		} else {
			nn++
		}
	}
	hi, lo := (np+1)/(np+2), 1/(nn+2)
	t := func(i int) float64 {
		if pos[i] {
			return hi
		}
		return lo
	}
	prior := (np*hi + nn*lo) / (np + nn)
	a, b = 0, math.Log(prior/(1-prior))
	obj := func(a, b float64) float64 {
		var f float64
		for i, si := range s {
			z := a*si + b
			// −t·log σ(z) − (1−t)·log(1−σ(z)) = log(1+e^z) − t·z
			f += softplus(z) - t(i)*z
		}
		return f
	}
	f := obj(a, b)
	for it := 0; it < plattMaxIter; it++ {
		var g1, g2, h11, h22, h21 float64
		for i, si := range s {
			p := model.Sigmoid(a*si + b)
			d1 := p - t(i)
			d2 := p * (1 - p)
			g1 += si * d1
			g2 += d1
			h11 += si * si * d2
			h22 += d2
			h21 += si * d2
		}
		if math.Abs(g1) < plattEps && math.Abs(g2) < plattEps {
			break
		}
		h11 += plattSigma
		h22 += plattSigma
		det := h11*h22 - h21*h21
		if det <= 0 {
			break
		}
		da := -(h22*g1 - h21*g2) / det
		db := -(-h21*g1 + h11*g2) / det
		gd := g1*da + g2*db
		step := 1.0
		for step >= plattMinStep {
			na, nb := a+step*da, b+step*db
			if nf := obj(na, nb); nf < f+1e-4*step*gd {
				a, b, f = na, nb, nf
				break
			}
			step /= 2
		}
		if step < plattMinStep {
			break
		}
	}
	if a < 0 || math.IsNaN(a) || math.IsNaN(b) {
		return 0, math.Log(prior / (1 - prior))
	}
	return a, b
}

func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}
