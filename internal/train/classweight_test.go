package train

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

func TestClassWeights(t *testing.T) {
	classes := []string{"a", "b", "c"}
	y := []int{0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2}
	w, err := ClassWeights("balanced", classes, ClassSizes(y, len(classes)))
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 2, 2.0 / 3}; !slices.Equal(w, want) {
		t.Errorf("balanced: %v, want %v", w, want)
	}
	if w, err = ClassWeights("b=3, c = 0.5", classes, nil); err != nil || !slices.Equal(w, []float64{1, 3, 0.5}) {
		t.Errorf("b=3,c=0.5: %v, %v", w, err)
	}
	if w, err = ClassWeights("", classes, nil); err != nil || w != nil {
		t.Errorf("empty spec: %v, %v", w, err)
	}
	for spec, want := range map[string]string{
		"d=1":   `unknown class "d"`,
		"a=0":   "finite number > 0",
		"a=-1":  "finite number > 0",
		"a=NaN": "finite number > 0",
		"a=Inf": "finite number > 0",
		"a":     "must be balanced or label=w",
	} {
		if _, err := ClassWeights(spec, classes, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", spec, err, want)
		}
	}
}

// duplicated returns the rows and labels of s with every document of
// class c given k times.
func duplicated(y []int, c, k int) []int {
	var rows []int
	for i, l := range y {
		rows = append(rows, i)
		if l == c {
			for range k - 1 {
				rows = append(rows, i)
			}
		}
	}
	return rows
}

// TestClassWeightsNB checks that NB with a class weight of 3 counts as if
// every document of the class were there three times.
func TestClassWeightsNB(t *testing.T) {
	s := makeSynthetic(t, 90, 30, 3, 0.6, 11)
	rows := duplicated(s.Y, 2, 3)
	for _, kind := range []model.Kind{model.Bernoulli, model.Multinomial, model.Complement} {
		_, p := Defaults(kind)
		p.Temperature = 1
		pw := p
		pw.ClassWeights = []float64{1, 1, 3}
		mw, err := Fit(kind, s.X, s.Y, s.Classes, s.Vocab, pw, Options{})
		if err != nil {
			t.Fatal(err)
		}
		md, err := Fit(kind, s.X.Subset(rows), corpus.Pick(s.Y, rows), s.Classes, s.Vocab, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range mw.W {
			if math.Abs(mw.W[i]-md.W[i]) > 1e-9 {
				t.Fatalf("%s: W[%d] weighted %v, duplicated %v", kind, i, mw.W[i], md.W[i])
			}
		}
		// The calibration subtracts weighted folds.
		if _, err := Fit(kind, s.X, s.Y, s.Classes, s.Vocab, func() model.Params { q := pw; q.Temperature = 0; return q }(), Options{}); err != nil {
			t.Errorf("%s: calibrated fit with class weights: %v", kind, err)
		}
	}
}

// TestClassWeightsLogReg checks that logistic regression with a class
// weight of 2 has the optimum of the corpus with that class's documents
// twice at the same C (scikit-learn's sample weights), and that
// SGD with weights gets there too.
func TestClassWeightsLogReg(t *testing.T) {
	s := makeSynthetic(t, 150, 30, 3, 0.3, 12)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	rows := duplicated(s.Y, 1, 2)
	pw := lrParams("lbfgs", "l2", 10, 500)
	pw.ClassWeights = []float64{1, 2, 1}
	pd := lrParams("lbfgs", "l2", 10, 500)
	mw, err := FitLogReg(X, s.Y, s.Classes, vocab, pw, Options{Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	md, err := FitLogReg(X.Subset(rows), corpus.Pick(s.Y, rows), s.Classes, vocab, pd, Options{Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range mw.W {
		if math.Abs(mw.W[i]-md.W[i]) > 1e-3 {
			t.Fatalf("W[%d]: weighted %v, duplicated %v", i, mw.W[i], md.W[i])
		}
	}
	ps := pw
	ps.Solver, ps.Epochs = "sgd", 30
	ms, err := FitLogReg(X, s.Y, s.Classes, vocab, ps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	obj := newObjective(X, s.Y, 3, pw, 1)
	fl := obj.value(append(append([]float64(nil), mw.W...), mw.B...))
	fs := obj.value(append(append([]float64(nil), ms.W...), ms.B...))
	if fs > fl*1.01 {
		t.Errorf("weighted objective: SGD %.5f, L-BFGS %.5f", fs, fl)
	}
}
