package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

func lrParams(solver, penalty string, C float64, epochs int) model.Params {
	_, p := Defaults(model.LogReg)
	p.Solver, p.Penalty, p.C, p.Epochs = solver, penalty, C, epochs
	return p
}

// TestGradient compares the analytic gradient of the objective with central
// finite differences, for both penalties, at a random point.
func TestGradient(t *testing.T) {
	s := makeSynthetic(t, 60, 30, 4, 0.7, 2)
	X, _ := s.weighted(t, "tfidf", true, "l2")
	for _, penalty := range []string{"l2", "l1", "elasticnet", "weighted"} {
		p := lrParams("lbfgs", penalty, 0.5, 10)
		switch penalty {
		case "elasticnet":
			p.L1Ratio = 0.3
		case "weighted":
			p.Penalty, p.ClassWeights = "l2", []float64{1, 2.5, 0.5, 1}
		}
		obj := newObjective(X, s.Y, len(s.Classes), p, 2)
		rng := rand.New(rand.NewPCG(3, 3))
		w := make([]float64, X.Cols*len(s.Classes)+len(s.Classes))
		for i := range w {
			w[i] = rng.NormFloat64() * 0.5
			if (penalty == "l1" || penalty == "elasticnet") && math.Abs(w[i]) < 2*huberEps {
				w[i] = 0.01 // stay away from the kinks of the Huber penalty
			}
		}
		g := make([]float64, len(w))
		obj.eval(w, g)
		scratch := make([]float64, len(w))
		const h = 1e-5
		worst := 0.0
		for i := range w {
			old := w[i]
			w[i] = old + h
			fp := obj.eval(w, scratch)
			w[i] = old - h
			fm := obj.eval(w, scratch)
			w[i] = old
			fd := (fp - fm) / (2 * h)
			worst = max(worst, math.Abs(fd-g[i])/max(1e-3, math.Abs(fd)+math.Abs(g[i])))
		}
		if worst > 1e-5 {
			t.Errorf("%s: gradient differs from finite differences by %.2g (relative)", penalty, worst)
		}
	}
}

// TestObjectiveValue checks F at W = 0: every document's loss is log C and
// the penalty is 0.
func TestObjectiveValue(t *testing.T) {
	s := makeSynthetic(t, 50, 20, 5, 0.7, 4)
	obj := newObjective(s.X, s.Y, 5, lrParams("lbfgs", "l2", 1, 10), 1)
	w := make([]float64, 20*5+5)
	if f := obj.eval(w, make([]float64, len(w))); math.Abs(f-math.Log(5)) > 1e-12 {
		t.Errorf("F(0) = %v, want log 5 = %v", f, math.Log(5))
	}
}

func TestLogRegSeparable(t *testing.T) {
	s := makeSynthetic(t, 300, 90, 3, 1, 5)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	for _, p := range []model.Params{
		lrParams("lbfgs", "l2", 100, 200),
		lrParams("lbfgs", "l1", 100, 200),
		lrParams("sgd", "l2", 100, 50),
		lrParams("sgd", "l1", 100, 50),
	} {
		m, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Workers: 2})
		if err != nil {
			t.Fatalf("%s %s: %v", p.Solver, p.Penalty, err)
		}
		if acc := Accuracy(m, X, s.Y, 2); acc != 1 {
			t.Errorf("%s %s: training accuracy %.4f on separable data, want 1", p.Solver, p.Penalty, acc)
		}
	}
}

// TestLogRegDeterministic fits the same problem on 1, 2 and 4 workers and
// requires bit-identical weights.
func TestLogRegDeterministic(t *testing.T) {
	s := makeSynthetic(t, 1000, 200, 5, 0.6, 6)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	for _, p := range []model.Params{
		lrParams("lbfgs", "l2", 10, 30),
		lrParams("lbfgs", "l1", 10, 30),
		func() model.Params { p := lrParams("sgd", "l2", 10, 5); p.BatchSize = 3 * sgdChunk; return p }(),
		func() model.Params { p := lrParams("sgd", "l1", 10, 5); p.BatchSize = 3 * sgdChunk; return p }(),
	} {
		var ref *model.Model
		for _, workers := range []int{1, 2, 4} {
			m, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Workers: workers, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = m
				continue
			}
			if !slices.Equal(m.W, ref.W) || !slices.Equal(m.B, ref.B) {
				t.Errorf("%s %s: weights with %d workers differ from 1 worker", p.Solver, p.Penalty, workers)
			}
		}
	}
}

// TestLogRegSeed checks that the SGD seed matters and is honoured.
func TestLogRegSeed(t *testing.T) {
	s := makeSynthetic(t, 300, 60, 3, 0.6, 7)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	p := lrParams("sgd", "l2", 10, 3)
	p.BatchSize = 8
	fit := func(seed int64) []float64 {
		p.Seed = seed
		m, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Tol: -1})
		if err != nil {
			t.Fatal(err)
		}
		return m.W
	}
	if a, b := fit(1), fit(1); !slices.Equal(a, b) {
		t.Error("sgd: the same seed gave different weights")
	}
	if a, b := fit(1), fit(2); slices.Equal(a, b) {
		t.Error("sgd: different seeds gave the same weights")
	}
}

// TestLogRegL1Sparse checks that L1 yields exact zeros where L2 does not,
// with both solvers.
func TestLogRegL1Sparse(t *testing.T) {
	s := makeSynthetic(t, 600, 300, 3, 0.5, 8)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	zeros := func(w []float64) float64 {
		n := 0
		for _, v := range w {
			if v == 0 {
				n++
			}
		}
		return float64(n) / float64(len(w))
	}
	for _, solver := range []string{"lbfgs", "sgd"} {
		epochs := 200
		if solver == "sgd" {
			epochs = 30
		}
		l1, err := FitLogReg(X, s.Y, s.Classes, vocab, lrParams(solver, "l1", 1, epochs), Options{})
		if err != nil {
			t.Fatal(err)
		}
		l2, err := FitLogReg(X, s.Y, s.Classes, vocab, lrParams(solver, "l2", 1, epochs), Options{})
		if err != nil {
			t.Fatal(err)
		}
		z1, z2 := zeros(l1.W), zeros(l2.W)
		t.Logf("%s: zero weights l1 %.2f, l2 %.2f; training accuracy l1 %.3f, l2 %.3f", solver, z1, z2, Accuracy(l1, X, s.Y, 1), Accuracy(l2, X, s.Y, 1))
		if z1 < 0.3 || z2 > 0.01 {
			t.Errorf("%s: fraction of zero weights l1 %.2f (want ≥ 0.3), l2 %.2f (want ≈ 0)", solver, z1, z2)
		}
		if acc := Accuracy(l1, X, s.Y, 1); acc < 0.8 {
			t.Errorf("%s l1: training accuracy %.3f, want ≥ 0.8", solver, acc)
		}
	}
}

// TestLogRegWarmStart checks that starting from a fitted model reaches the
// same objective faster.
func TestLogRegWarmStart(t *testing.T) {
	s := makeSynthetic(t, 500, 100, 4, 0.6, 9)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	p := lrParams("lbfgs", "l2", 3, 200)
	cold, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	iters := 0
	warm, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Init: cold, Progress: func(done, total int) {
		if done < total {
			iters = done
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if iters > 5 {
		t.Errorf("warm start from the optimum took %d iterations", iters)
	}
	if a, b := Accuracy(cold, X, s.Y, 1), Accuracy(warm, X, s.Y, 1); a != b {
		t.Errorf("warm start changed training accuracy: %v → %v", a, b)
	}
	bad := &model.Model{W: make([]float64, 3), B: make([]float64, 4)}
	if _, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Init: bad}); err == nil || !strings.Contains(err.Error(), "warm start") {
		t.Errorf("mismatched warm start: error %v", err)
	}
}

func TestValidateParams(t *testing.T) {
	_, ok := Defaults(model.LogReg)
	for _, tc := range []struct {
		name string
		edit func(p *model.Params)
		want string
	}{
		{"C zero", func(p *model.Params) { p.C = 0 }, "--C must be > 0, got 0"},
		{"C negative", func(p *model.Params) { p.C = -1 }, "--C must be > 0, got -1"},
		{"C NaN", func(p *model.Params) { p.C = math.NaN() }, "--C must be > 0, got NaN"},
		{"C inf", func(p *model.Params) { p.C = math.Inf(1) }, "--C must be > 0, got +Inf"},
		{"penalty", func(p *model.Params) { p.Penalty = "l3" }, `--penalty must be l2, l1 or elasticnet, got "l3"`},
		{"solver", func(p *model.Params) { p.Solver = "adam" }, `--solver must be lbfgs or sgd, got "adam"`},
		{"epochs", func(p *model.Params) { p.Epochs = 0 }, "--epochs must be ≥ 1, got 0"},
		{"batch", func(p *model.Params) { p.Solver, p.BatchSize = "sgd", 0 }, "--batch-size must be ≥ 1, got 0"},
		{"prior", func(p *model.Params) { p.Prior = "flat" }, "--prior must be"},
	} {
		p := ok
		p.Priors = nil
		tc.edit(&p)
		err := ValidateParams(model.LogReg, p, 3)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, kind := range []model.Kind{model.Bernoulli, model.Multinomial, model.Complement, model.LogReg, model.SVM, model.NBLR} {
		s, p := Defaults(kind)
		if err := ValidateParams(kind, p, 20); err != nil {
			t.Errorf("defaults of %s: %v", kind, err)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("vectorizer defaults of %s: %v", kind, err)
		}
	}
	s := makeSynthetic(t, 30, 10, 2, 1, 1)
	if _, err := FitLogReg(s.X, s.Y, s.Classes, s.Vocab, func() model.Params { p := ok; p.C = 0; return p }(), Options{}); err == nil || !strings.Contains(err.Error(), "--C must be > 0, got 0") {
		t.Errorf("FitLogReg with C = 0: error %v", err)
	}
}

// TestLogRegElasticNet checks the elastic net between its ends: ρ = 0 is
// the L2 fit and ρ = 1 the L1 fit, bit for bit, and ρ = 0.5 zeroes more
// weights than L2 and fewer than L1, with both solvers.
func TestLogRegElasticNet(t *testing.T) {
	s := makeSynthetic(t, 200, 60, 3, 0.5, 13)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	zeros := func(m *model.Model) int {
		n := 0
		for _, w := range m.W {
			if w == 0 {
				n++
			}
		}
		return n
	}
	for _, solver := range []string{"lbfgs", "sgd"} {
		fit := func(penalty string, rho float64) *model.Model {
			p := lrParams(solver, penalty, 0.3, 30)
			p.L1Ratio = rho
			m, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		l2, l1 := fit("l2", 0), fit("l1", 0)
		e0, e1, e5 := fit("elasticnet", 0), fit("elasticnet", 1), fit("elasticnet", 0.5)
		if !slices.Equal(e0.W, l2.W) || !slices.Equal(e1.W, l1.W) {
			t.Errorf("%s: elastic net at ρ = 0 / 1 differs from L2 / L1", solver)
		}
		z2, z5, z1 := zeros(l2), zeros(e5), zeros(l1)
		if !(z2 < z5 && z5 < z1) {
			t.Errorf("%s: zero weights L2 %d, elastic net ½ %d, L1 %d: want increasing", solver, z2, z5, z1)
		}
	}
}

// TestLogRegBinaryCIsScikitLearns checks that on two classes C means
// scikit-learn's binomial C: LogisticRegression(C) minimises C·Σ ℓ_i +
// ½‖v‖² over one weight vector v (and an unpenalized intercept), whose
// optimum satisfies v = C·Σ_i (y_i - σ(z_i))·x_i. The fitted model's v =
// W[·,1] - W[·,0] must satisfy it; with C acting as 2C (the penalty split
// between the softmax's two vectors), v would be twice too large.
func TestLogRegBinaryCIsScikitLearns(t *testing.T) {
	s := makeSynthetic(t, 200, 40, 2, 0.5, 11)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	for _, C := range []float64{0.5, 5} {
		p := lrParams("lbfgs", "l2", C, 500)
		m, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Workers: 1, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		v := make([]float64, X.Cols)
		for j := range v {
			v[j] = m.W[j*2+1] - m.W[j*2]
		}
		b := m.B[1] - m.B[0]
		grad := make([]float64, X.Cols) // C·Σ (y_i - σ(z_i)) x_i
		for i := range X.Rows() {
			ind, val := X.Row(i)
			z := b
			for k, j := range ind {
				z += float64(val[k]) * v[j]
			}
			r := float64(s.Y[i]) - 1/(1+math.Exp(-z))
			for k, j := range ind {
				grad[j] += C * r * float64(val[k])
			}
		}
		worst, norm := 0.0, 0.0
		for j := range v {
			worst = max(worst, math.Abs(v[j]-grad[j]))
			norm = max(norm, math.Abs(v[j]))
		}
		if worst > 1e-3*norm {
			t.Errorf("C = %g: |v - C·Σ(y-σ)x| = %.3g with |v| = %.3g: not scikit-learn's binomial optimum", C, worst, norm)
		}
	}
}
