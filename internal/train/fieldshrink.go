package train

import "math"

// Bounds of the shrinkage strength FieldShrink searches, in documents.
const (
	shrinkMin = 1e-3
	shrinkMax = 1e9
)

// FieldShrink returns the empirical-Bayes strength m of the shrinkage of a
// categorical field's per-class distributions towards its pooled one
// (model.Fields): with counts N_vc (value-major, C classes), α the
// Dirichlet smoothing and P̂_v = (N_v + α)/(N + αK) the smoothed pooled
// distribution, the class distributions are taken as drawn from
// Dirichlet(α + m·P̂), and m maximises the evidence
//
//	Σ_c [ log Γ(A) − log Γ(N_c + A) + Σ_v (log Γ(N_vc + a_v) − log Γ(a_v)) ],
//	a_v = α + m·P̂_v, A = Σ_v a_v = αK + m
//
// (the Dirichlet-multinomial likelihood of the counts; MacKay & Peto
// 1995, Minka 2000). A field whose values do not depend on the class
// gets a large m, so that its likelihoods hardly differ between classes
// and it adds little noise to the decision; a field that tells the
// classes apart gets a small one, and m → 0 is plain Dirichlet(α)
// smoothing. The search is a golden-section search over log m in [1e-3,
// 1e9], and the larger bound when the evidence still grows there.
func FieldShrink(counts []float64, C int, alpha float64) float64 {
	K := len(counts) / C
	if K < 2 || C < 2 {
		return 0
	}
	nv := make([]float64, K)
	nc := make([]float64, C)
	N := 0.0
	for i, x := range counts {
		nv[i/C] += x
		nc[i%C] += x
		N += x
	}
	pool := N + alpha*float64(K)
	evidence := func(t float64) float64 {
		m := math.Exp(t)
		A := alpha*float64(K) + m
		la, _ := math.Lgamma(A)
		L := 0.0
		for c := 0; c < C; c++ {
			lg, _ := math.Lgamma(nc[c] + A)
			L += la - lg
		}
		for v := 0; v < K; v++ {
			a := alpha + m*(nv[v]+alpha)/pool
			lga, _ := math.Lgamma(a)
			for c := 0; c < C; c++ {
				lg, _ := math.Lgamma(counts[v*C+c] + a)
				L += lg - lga
			}
		}
		return L
	}
	lo, hi := math.Log(shrinkMin), math.Log(shrinkMax)
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := evidence(a), evidence(b)
	for range 100 {
		if fa < fb {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = evidence(b)
		} else {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = evidence(a)
		}
		if hi-lo < 1e-6 {
			break
		}
	}
	t := (lo + hi) / 2
	if e := evidence(math.Log(shrinkMax)); e > evidence(t) {
		t = math.Log(shrinkMax)
	}
	if e := evidence(math.Log(shrinkMin)); e >= evidence(t) {
		return 0
	}
	return math.Exp(t)
}
