package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Fit fits an estimator of kind on X, which must already be weighted as the
// vocabulary's settings say (Prepare and PrepareWith do that): FitNB for
// the Naive Bayes kinds, FitLogReg for model.LogReg. opt is used by
// logistic regression only.
func Fit(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	switch {
	case kind.IsNB():
		return FitNB(kind, X, y, classes, vocab, p)
	case kind == model.LogReg:
		return FitLogReg(X, y, classes, vocab, p, opt)
	}
	return nil, fmt.Errorf("unknown model kind %s", kind)
}

// Prepare builds a vocabulary from texts with settings s (label ids y and
// nClasses are used only by supervised selection, s.Select = "mi:K") and
// returns it with the training matrix, weighted as s.Weighting, s.Sublinear
// and s.Norm say: the input Fit expects.
func Prepare(texts []string, y []int, nClasses int, s vectorize.Settings, workers int, progress func(done, total int)) (*vectorize.Vocabulary, *vectorize.Matrix, error) {
	vocab, X, err := vectorize.Fit(texts, y, nClasses, s, workers, progress)
	if err != nil {
		return nil, nil, err
	}
	vocab.Weight(X)
	return vocab, X, nil
}

// PrepareWith turns texts into rows over an existing vocabulary (loaded from
// a file, or built on other documents) and weights them as its settings
// say.
func PrepareWith(vocab *vectorize.Vocabulary, texts []string, workers int) *vectorize.Matrix {
	X := vocab.Transform(texts, workers)
	vocab.Weight(X)
	return X
}
