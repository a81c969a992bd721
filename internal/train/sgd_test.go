package train

import (
	"math"
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
