package train

import (
	"math"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// proximalGradient returns the largest absolute component of the gradient
// of FitDualWarm's problem of class pos against the rest,
// ½‖(w, b) - (w0, b0)‖² + Σ_i C_i max(0, 1 - y_i(wᵀx_i + b))².
func proximalGradient(X *vectorize.Matrix, y []int, pos int, cost, w, w0 []float64, b, b0 float64) float64 {
	g := make([]float64, len(w)+1)
	for t := range w {
		g[t] = w[t] - w0[t]
	}
	g[len(w)] = b - b0
	for i := 0; i < X.Rows(); i++ {
		yi := -1.0
		if y[i] == pos {
			yi = 1
		}
		ind, val := X.Row(i)
		z := b
		for j, t := range ind {
			z += w[t] * float64(val[j])
		}
		if m := 1 - yi*z; m > 0 {
			c := -2 * cost[y[i]] * m * yi
			for j, t := range ind {
				g[t] += c * float64(val[j])
			}
			g[len(w)] += c
		}
	}
	worst := 0.0
	for _, v := range g {
		worst = max(worst, math.Abs(v))
	}
	return worst
}

// problemOf returns problem k's decision weights and bias of model m, as
// FitDualWarm reads them (W/τ; for two classes the second column minus
// the first).
func problemOf(m *model.Model, k int) ([]float64, float64) {
	nc := len(m.Classes)
	nf := len(m.W) / nc
	tau := m.Params.Temperature
	if tau <= 0 {
		tau = 1
	}
	w := make([]float64, nf)
	for t := range w {
		if nc == 2 {
			w[t] = (m.W[t*2+1] - m.W[t*2]) / tau
		} else {
			w[t] = m.W[t*nc+k] / tau
		}
	}
	if nc == 2 {
		return w, (m.B[1] - m.B[0]) / tau
	}
	return w, m.B[k] / tau
}

// TestFitDualWarm: the warm start of an SVM (two and four classes, a
// temperature) and of an NB-LR model reaches the optimum of the proximal
// problem on the new documents, ½‖w - w_old‖² + C Σ loss (its gradient
// vanishes), keeps the temperature, moves the model, and stops after
// --epochs passes when asked.
func TestFitDualWarm(t *testing.T) {
	for _, tc := range []struct {
		kind model.Kind
		nc   int
		tau  float64
	}{{model.SVM, 2, 0}, {model.SVM, 4, 1.7}, {model.NBLR, 3, 0}, {model.NBLR, 2, 2.5}} {
		old := makeSynthetic(t, 200, 60, tc.nc, 0.6, 3)
		X0, vocab := old.weighted(t, "tfidf", true, "l2")
		_, p := Defaults(tc.kind)
		p.C = 0.5
		var m *model.Model
		var err error
		if tc.kind == model.SVM {
			m, err = FitSVM(X0, old.Y, old.Classes, vocab, p, Options{Workers: 2})
		} else {
			m, err = FitNBLR(X0, old.Y, old.Classes, vocab, p, Options{Workers: 2})
		}
		if err != nil {
			t.Fatal(err)
		}
		if tc.tau > 0 {
			W, B := slices.Clone(m.W), slices.Clone(m.B)
			for i := range W {
				W[i] *= tc.tau
			}
			for i := range B {
				B[i] *= tc.tau
			}
			p.Temperature = tc.tau
			if m, err = model.NewLinear(tc.kind, m.Classes, vocab, p, W, B); err != nil {
				t.Fatal(err)
			}
		}
		// New documents of another draw, whose class blocks differ in
		// strength.
		nw := makeSynthetic(t, 150, 60, tc.nc, 0.8, 9)
		X, _ := nw.weighted(t, "tfidf", true, "l2")
		up, err := fitDualWarm(m, X, nw.Y, 0, Options{Workers: 2}, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if up.Params.Temperature != m.Params.Temperature || up.Kind != m.Kind || up.Binary != (tc.kind == model.NBLR) {
			t.Errorf("%s: temperature %v kind %s binary %v, want %v %s", tc.kind, up.Params.Temperature, up.Kind, up.Binary, m.Params.Temperature, m.Kind)
		}
		Xs := X
		if tc.kind == model.NBLR {
			Xs = presence(X)
		}
		cost := newSVC(X, nw.Y, tc.nc, p).cost
		probs, pos := tc.nc, func(k int) int { return k }
		if tc.nc == 2 {
			probs, pos = 1, func(int) int { return 1 }
		}
		for k := 0; k < probs; k++ {
			w0, b0 := problemOf(m, k)
			w, b := problemOf(up, k)
			if g := proximalGradient(Xs, nw.Y, pos(k), cost, w, w0, b, b0); g > 1e-3 {
				t.Errorf("%s %d classes, problem %d: proximal gradient %.3g at the solution", tc.kind, tc.nc, k, g)
			}
			if g := proximalGradient(Xs, nw.Y, pos(k), cost, w0, w0, b0, b0); g < 0.01 {
				t.Errorf("%s %d classes, problem %d: the old model is optimal already (gradient %.3g): the test proves nothing", tc.kind, tc.nc, k, g)
			}
		}
		// --epochs 1: one pass, which moves the model but not to the
		// optimum.
		one, err := fitDualWarm(m, X, nw.Y, 1, Options{Workers: 2}, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(one.W, m.W) || slices.Equal(one.W, up.W) {
			t.Errorf("%s: one pass gives the old model or the converged one", tc.kind)
		}
		worst := 0.0
		for k := 0; k < probs; k++ {
			w0, b0 := problemOf(m, k)
			w, b := problemOf(one, k)
			worst = max(worst, proximalGradient(Xs, nw.Y, pos(k), cost, w, w0, b, b0))
		}
		if worst <= 1e-3 {
			t.Errorf("%s: one pass reaches the optimum (gradient %.3g): --epochs is not seen", tc.kind, worst)
		}
	}
}
