package train

import (
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestTuneAlpha: on noisy data with a large vocabulary, α → 0 lets any
// term unseen in a class veto it, and a huge α flattens the weights until
// the prior of the big class wins, so cross-validation must pick something
// in between.
func TestTuneAlpha(t *testing.T) {
	s := makeSkewed(t, 400, 2000, 4, 3, 0.5, 11)
	grid := []float64{1e-9, 0.01, 0.1, 1, 10, 1e4}
	calls := 0
	_, p := Defaults(model.Multinomial)
	res, err := TuneMatrix(model.Multinomial, s.X, s.Y, s.Classes, s.Vocab, p, TuneOptions{Seed: 1, Grid: grid, Progress: func(done, total int) {
		calls++
		if total != 5*len(grid) || done != calls {
			t.Errorf("progress(%d, %d) at call %d", done, total, calls)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		t.Logf("α = %g: %.4f ± %.4f", c.Value, c.Mean, c.Std)
	}
	if res.Param != "alpha" || res.Folds != 5 || len(res.Candidates) != len(grid) {
		t.Fatalf("tuning %+v", res)
	}
	if v := res.Value(); v == 1e-9 || v == 1e4 {
		t.Errorf("chose α = %g, an extreme of the grid", v)
	}
	for _, c := range res.Candidates {
		if c.Mean > res.Candidates[res.Best].Mean {
			t.Errorf("α = %g has a better mean (%.4f) than the chosen %g", c.Value, c.Mean, res.Value())
		}
	}
	if got := res.Apply(p).Alpha; got != res.Value() {
		t.Errorf("Apply set α = %g, want %g", got, res.Value())
	}
}

func TestTuneBernoulliSymmetricBeta(t *testing.T) {
	s := makeSynthetic(t, 200, 100, 2, 0.6, 12)
	_, p := Defaults(model.Bernoulli)
	p.Alpha, p.Beta = 0.5, 0.5
	res, err := TuneMatrix(model.Bernoulli, s.X, s.Y, s.Classes, s.Vocab, p, TuneOptions{Folds: 3, Grid: []float64{0.1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if q := res.Apply(p); q.Alpha != res.Value() || q.Beta != res.Value() {
		t.Errorf("symmetric prior: Apply gave α = %g, β = %g, want both %g", q.Alpha, q.Beta, res.Value())
	}
	p.Beta = 2
	res, err = TuneMatrix(model.Bernoulli, s.X, s.Y, s.Classes, s.Vocab, p, TuneOptions{Folds: 3, Grid: []float64{0.1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if q := res.Apply(p); q.Beta != 2 {
		t.Errorf("given β = 2: Apply changed it to %g", q.Beta)
	}
}

func TestTuneC(t *testing.T) {
	s := makeSynthetic(t, 400, 200, 4, 0.4, 13)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	_, p := Defaults(model.LogReg)
	grid := []float64{1e-4, 1, 100}
	res, err := TuneMatrix(model.LogReg, X, s.Y, s.Classes, vocab, p, TuneOptions{Folds: 3, Seed: 2, Grid: grid})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		t.Logf("C = %g: %.4f ± %.4f", c.Value, c.Mean, c.Std)
	}
	if res.Param != "C" {
		t.Errorf("param %q, want C", res.Param)
	}
	if res.Value() == 1e-4 {
		t.Errorf("chose C = 1e-4, which predicts the majority class")
	}
	if got := res.Apply(p).C; got != res.Value() {
		t.Errorf("Apply set C = %g, want %g", got, res.Value())
	}
}

// TestTuneSelect runs the per-fold vocabulary path (supervised selection).
func TestTuneSelect(t *testing.T) {
	s := makeSynthetic(t, 300, 200, 3, 0.5, 14)
	set, p := Defaults(model.Bernoulli)
	set.Select = "mi:50"
	res, err := Tune(model.Bernoulli, s.Texts, s.Y, s.Classes, set, p, TuneOptions{Folds: 3, Grid: []float64{0.01, 1}, Fit: Options{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		if c.Mean < 0.8 {
			t.Errorf("α = %g: cross-validated accuracy %.3f with 50 selected terms, want ≥ 0.8", c.Value, c.Mean)
		}
	}
	set.Select = ""
	if _, err := Tune(model.Multinomial, s.Texts, s.Y, s.Classes, set, p, TuneOptions{Folds: 3, Grid: []float64{0.1}}); err != nil {
		t.Fatal(err)
	}
}

func TestTuneTies(t *testing.T) {
	for _, tc := range []struct {
		param string
		vals  []float64
		means []float64
		want  float64
	}{
		{"alpha", []float64{0.01, 0.1, 1}, []float64{0.8, 0.9, 0.9}, 1},
		{"alpha", []float64{1, 0.1, 0.01}, []float64{0.9, 0.9, 0.8}, 1},
		{"C", []float64{1, 10, 100}, []float64{0.7, 0.9, 0.9}, 10},
		{"C", []float64{100, 10, 1}, []float64{0.9, 0.9, 0.95}, 1},
	} {
		tu := &Tuning{Param: tc.param}
		for i, v := range tc.vals {
			tu.Candidates = append(tu.Candidates, Candidate{Value: v, Folds: []float64{tc.means[i], tc.means[i]}})
		}
		tu.summarize()
		if tu.Value() != tc.want {
			t.Errorf("%s %v with means %v: chose %g, want %g", tc.param, tc.vals, tc.means, tu.Value(), tc.want)
		}
	}
}

func TestTuneErrors(t *testing.T) {
	s := makeSynthetic(t, 40, 20, 2, 1, 15)
	_, nb := Defaults(model.Multinomial)
	_, lr := Defaults(model.LogReg)
	for _, tc := range []struct {
		name string
		kind model.Kind
		p    model.Params
		opt  TuneOptions
		want string
	}{
		{"one fold", model.Multinomial, nb, TuneOptions{Folds: 1}, "--folds must be ≥ 2, got 1"},
		{"too many folds", model.Multinomial, nb, TuneOptions{Folds: 41}, "exceed the number of documents"},
		{"empty grid", model.Multinomial, nb, TuneOptions{Grid: []float64{}}, "empty grid"},
		{"bad alpha", model.Multinomial, nb, TuneOptions{Grid: []float64{1, -1}}, "--alpha must be ≥ 0, got -1"},
		{"bad C", model.LogReg, lr, TuneOptions{Grid: []float64{0}}, "--C must be > 0, got 0"},
	} {
		_, err := TuneMatrix(tc.kind, s.X, s.Y, s.Classes, s.Vocab, tc.p, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
