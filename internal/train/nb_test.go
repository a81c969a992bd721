package train

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// handMade is a 4-document, 4-term, 2-class count matrix:
//
//	doc  class  t0  t1  t2  t3
//	0    0      2   .   1   .
//	1    0      .   .   3   .
//	2    1      1   4   .   .
//	3    1      .   1   .   1
func handMade(t *testing.T) (*vectorize.Matrix, []int, []string, *vectorize.Vocabulary) {
	t.Helper()
	X := &vectorize.Matrix{
		Indptr:  []int{0, 2, 3, 5, 7},
		Indices: []int32{0, 2, 2, 0, 1, 1, 3},
		Values:  []float32{2, 1, 3, 1, 4, 1, 1},
		Cols:    4,
	}
	vocab, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), []string{"a", "b", "c", "d"}, []int32{2, 2, 2, 1}, []int64{3, 5, 4, 1}, 4)
	if err != nil {
		t.Fatal(err)
	}
	return X, []int{0, 0, 1, 1}, []string{"x", "y"}, vocab
}

func TestNBCounts(t *testing.T) {
	X, y, classes, vocab := handMade(t)
	for _, tc := range []struct {
		kind   model.Kind
		counts []float64 // feature-major: t0c0 t0c1 t1c0 t1c1 ...
	}{
		{model.Multinomial, []float64{2, 1, 0, 5, 4, 0, 0, 1}},
		{model.Complement, []float64{2, 1, 0, 5, 4, 0, 0, 1}},
		{model.Bernoulli, []float64{1, 1, 0, 2, 2, 0, 0, 1}},
	} {
		m, err := FitNB(tc.kind, X, y, classes, vocab, model.Params{Alpha: 1, Beta: 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		if !slices.Equal(m.ClassDocs, []float64{2, 2}) {
			t.Errorf("%s: class docs %v, want [2 2]", tc.kind, m.ClassDocs)
		}
		if !slices.Equal(m.Counts, tc.counts) {
			t.Errorf("%s: counts %v, want %v", tc.kind, m.Counts, tc.counts)
		}
		if got := Accuracy(m, X, y, 1); got != 1 {
			t.Errorf("%s: training accuracy %v, want 1", tc.kind, got)
		}
	}
}

func TestFitNBErrors(t *testing.T) {
	X, y, classes, vocab := handMade(t)
	neg := *X
	neg.Values = slices.Clone(X.Values)
	neg.Values[3] = -1
	unsorted := *X
	unsorted.Indices = []int32{2, 0, 2, 0, 1, 1, 3}
	for _, tc := range []struct {
		name    string
		kind    model.Kind
		X       *vectorize.Matrix
		y       []int
		classes []string
		p       model.Params
		want    string
	}{
		{"negative alpha", model.Multinomial, X, y, classes, model.Params{Alpha: -1}, "--alpha must be ≥ 0"},
		{"negative beta", model.Bernoulli, X, y, classes, model.Params{Alpha: 1, Beta: -1}, "--beta must be ≥ 0"},
		{"bad prior", model.Multinomial, X, y, classes, model.Params{Alpha: 1, Prior: "flat"}, "--prior must be"},
		{"negative value", model.Multinomial, &neg, y, classes, model.Params{Alpha: 1}, "not a finite non-negative number"},
		{"label out of range", model.Multinomial, X, []int{0, 0, 1, 2}, classes, model.Params{Alpha: 1}, "label id 2 out of range"},
		{"labels missing", model.Multinomial, X, y[:3], classes, model.Params{Alpha: 1}, "4 documents but 3 labels"},
		{"one class", model.Multinomial, X, []int{0, 0, 0, 0}, classes[:1], model.Params{Alpha: 1}, "at least two classes"},
		{"unsorted row", model.Multinomial, &unsorted, y, classes, model.Params{Alpha: 1}, "not strictly ascending"},
		{"not nb", model.LogReg, X, y, classes, model.Params{Alpha: 1}, "needs a naive bayes model"},
	} {
		_, err := FitNB(tc.kind, tc.X, tc.y, tc.classes, vocab, tc.p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestFitDispatch(t *testing.T) {
	s := makeSynthetic(t, 200, 60, 3, 0.8, 1)
	Xt, vt := s.weighted(t, "tfidf", true, "l2")
	for _, kind := range []model.Kind{model.Bernoulli, model.Multinomial, model.Complement, model.LogReg} {
		_, p := Defaults(kind)
		X, vocab := s.X, s.Vocab
		if kind != model.Bernoulli {
			X, vocab = Xt, vt
		}
		m, err := Fit(kind, X, s.Y, s.Classes, vocab, p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if m.Kind != kind {
			t.Errorf("Fit(%s) returned a %s model", kind, m.Kind)
		}
		if acc := Accuracy(m, X, s.Y, 2); acc < 0.9 {
			t.Errorf("%s: training accuracy %.3f, want ≥ 0.9", kind, acc)
		}
	}
}
