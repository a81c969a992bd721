package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSGDMatchesLBFGSAcrossC is issue 12 item 12: with a small C the
// decaying SGD step froze the unpenalised biases (at C = 1e-6 every
// document got p = σ(1) = 0.7311 of a two-class problem whose prior is
// ½), so that SGD's log-loss was worse than the prior's. SGD's mean
// log-loss must be within 1% of L-BFGS's from C = 1e-6 to 1e3, on a small
// problem that is not separable and whose classes are unbalanced (so the
// biases matter).
func TestSGDMatchesLBFGSAcrossC(t *testing.T) {
	s := makeSkewed(t, 2000, 40, 2, 2, 0.1, 5)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	for _, C := range []float64{1e-6, 1e-4, 1e-2, 1, 1e2, 1e3} {
		lb, err := FitLogReg(X, s.Y, s.Classes, vocab, lrParams("lbfgs", "l2", C, 500), Options{Tol: -1})
		if err != nil {
			t.Fatal(err)
		}
		sg, err := FitLogReg(X, s.Y, s.Classes, vocab, lrParams("sgd", "l2", C, DefaultEpochs("sgd")), Options{})
		if err != nil {
			t.Fatal(err)
		}
		ll, _ := meanLogLoss(lb, X, s.Y)
		ls, _ := meanLogLoss(sg, X, s.Y)
		t.Logf("C = %g: log-loss L-BFGS %.5f, SGD %.5f", C, ll, ls)
		if math.Abs(ls-ll) > 0.01*ll {
			t.Errorf("C = %g: SGD log-loss %.5f is not within 1%% of L-BFGS's %.5f", C, ls, ll)
		}
	}
}

// TestBlockedLoopsMatchPlainLoops checks that addScores and subScaled,
// which run over a document's terms once per block of four classes, give
// the same bits as the plain loops over the terms and then the classes,
// for class counts with and without a remainder block.
func TestBlockedLoopsMatchPlainLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nf = 50
	ind := []int32{0, 3, 7, 8, 20, 31, 49}
	val := make([]float32, len(ind))
	for j := range val {
		val[j] = rng.Float32()*3 - 1
	}
	for nc := 1; nc <= 21; nc++ {
		W := make([]float64, nf*nc)
		for i := range W {
			W[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-6))
		}
		z, want := make([]float64, nc), make([]float64, nc)
		for c := range z {
			z[c] = rng.NormFloat64()
		}
		copy(want, z)
		for j, tm := range ind {
			for c := range want {
				want[c] += float64(val[j]) * W[int(tm)*nc+c]
			}
		}
		addScores(z, W, ind, val)
		for c := range z {
			if math.Float64bits(z[c]) != math.Float64bits(want[c]) {
				t.Fatalf("C = %d: addScores class %d = %v, the plain loop %v", nc, c, z[c], want[c])
			}
		}
		a := 0.37
		got, wantW := slices.Clone(W), slices.Clone(W)
		for j, tm := range ind {
			av := a * float64(val[j])
			for c := range z {
				wantW[int(tm)*nc+c] -= av * z[c]
			}
		}
		subScaled(got, z, a, ind, val)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(wantW[i]) {
				t.Fatalf("C = %d: subScaled weight %d = %v, the plain loop %v", nc, i, got[i], wantW[i])
			}
		}
	}
}

// TestBlockedLoopsCheckTermIDs: a term id outside the weights panics, as
// an index out of range does, instead of reading or writing past them.
func TestBlockedLoopsCheckTermIDs(t *testing.T) {
	const nf = 10
	for _, nc := range []int{2, 4, 8, 12, 20} {
		for _, bad := range []int32{nf, -1, 1 << 30} {
			W, z := make([]float64, nf*nc), make([]float64, nc)
			ind, val := []int32{1, 2, bad}, []float32{1, 1, 1}
			for name, f := range map[string]func(){
				"addScores": func() { addScores(z, W, ind, val) },
				"subScaled": func() { subScaled(W, z, 1, ind, val) },
			} {
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("C = %d: %s with term id %d did not panic", nc, name, bad)
						}
					}()
					f()
				}()
			}
		}
	}
}
