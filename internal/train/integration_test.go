package train

import (
	"slices"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// TestDefaultsOnNews trains every model with its defaults on the 20
// Newsgroups train split and checks its test accuracy against a floor:
// what the defaults reached when they were chosen (see defaults.go), so
// that a change that loses accuracy fails here. The targets are
// logged beside them; where a floor is below its target, defaults.go says
// why.
func TestDefaultsOnNews(t *testing.T) {
	tr, te := loadNews(t)
	y, yte := tr.LabelIDs(), te.LabelIDs()
	for _, tc := range []struct {
		kind          model.Kind
		floor, target float64
	}{
		{model.Bernoulli, 0.785, 0.78},
		{model.Multinomial, 0.845, 0.85},
		{model.Complement, 0.855, 0.86},
		{model.LogReg, 0.862, 0.87},
		{model.Centroid, 0.815, 0.80},
	} {
		start := time.Now()
		s, p := Defaults(tc.kind)
		vocab, X, err := Prepare(tr.Texts(), y, len(tr.Labels), s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Fit(tc.kind, X, y, tr.Labels, vocab, p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		acc := Accuracy(m, PrepareWith(vocab, te.Texts(), 0), yte, 0)
		t.Logf("%-11s test accuracy %.4f (floor %.3f, issue target %.2f), vectorize+fit %v", tc.kind, acc, tc.floor, tc.target, time.Since(start).Round(time.Millisecond))
		if acc < tc.floor {
			t.Errorf("%s: test accuracy %.4f with the defaults, below its floor %.3f", tc.kind, acc, tc.floor)
		}
	}
}

// TestDefaultsOnNewsStripped checks the best model on posts without
// headers, signatures and quotes (scikit-learn's remove=(...) setting).
func TestDefaultsOnNewsStripped(t *testing.T) {
	tr, te := loadNews(t)
	strip := corpus.RemoveHeaders | corpus.RemoveFooters | corpus.RemoveQuotes
	texts := func(c *corpus.Corpus) []string {
		out := c.Texts()
		for i := range out {
			out[i] = corpus.Strip(out[i], strip)
		}
		return out
	}
	s, p := Defaults(model.Complement)
	s.Remove = strip.String()
	y := tr.LabelIDs()
	vocab, X, err := Prepare(texts(tr), y, len(tr.Labels), s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FitNB(model.Complement, X, y, tr.Labels, vocab, p)
	if err != nil {
		t.Fatal(err)
	}
	acc := Accuracy(m, PrepareWith(vocab, texts(te), 0), te.LabelIDs(), 0)
	t.Logf("complement, headers/footers/quotes removed: test accuracy %.4f (floor 0.705, issue target 0.72, scikit-learn 0.694)", acc)
	if acc < 0.705 {
		t.Errorf("complement on stripped posts: test accuracy %.4f, below its floor 0.705", acc)
	}
}

// TestCalibrationOnNews checks the temperature calibration of the default
// complement and Bernoulli models (see defaults.go): the same decisions on
// the test split as the counted models, a test log-loss far below theirs
// (complement: ln 20, uniform probabilities; Bernoulli: 5.5,
// overconfident) under a ceiling, and the time it adds to the fit.
func TestCalibrationOnNews(t *testing.T) {
	tr, te := loadNews(t)
	y, yte := tr.LabelIDs(), te.LabelIDs()
	for _, tc := range []struct {
		kind    model.Kind
		ceiling float64 // test log-loss, calibrated
	}{
		{model.Complement, 0.75},
		{model.Bernoulli, 0.95},
	} {
		s, p := Defaults(tc.kind)
		vocab, X, err := Prepare(tr.Texts(), y, len(tr.Labels), s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		raw, err := Fit(tc.kind, X, y, tr.Labels, vocab, p, Options{NoCalibrate: true})
		if err != nil {
			t.Fatal(err)
		}
		fit := time.Since(start)
		start = time.Now()
		m, cal, err := FitCalibrated(tc.kind, X, y, tr.Labels, vocab, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		both := time.Since(start)
		Xte := PrepareWith(vocab, te.Texts(), 0)
		llRaw, predRaw := meanLogLoss(raw, Xte, yte)
		ll, pred := meanLogLoss(m, Xte, yte)
		t.Logf("%-10s τ = %.4g (%d of %d folds, %d held-out documents, log-loss %.4f → %.4f); test log-loss %.4f → %.4f; fit %v, calibrated fit %v",
			tc.kind, cal.Temperature, cal.FoldsUsed, cal.Folds, cal.Docs, cal.LogLoss1, cal.LogLoss, llRaw, ll, fit.Round(time.Millisecond), both.Round(time.Millisecond))
		if !slices.Equal(pred, predRaw) {
			t.Errorf("%s: calibration changed test decisions", tc.kind)
		}
		if !(ll <= tc.ceiling) || !(ll < llRaw) {
			t.Errorf("%s: test log-loss %.4f calibrated, %.4f not (ceiling %.2f)", tc.kind, ll, llRaw, tc.ceiling)
		}
	}
}
