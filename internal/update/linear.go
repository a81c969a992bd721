package update

import (
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// Linear returns the logistic regression model m warm-started on the
// documents texts with labels: the optimisation of train.Fit starts from
// m's weights (train.Options.Init) over m's vocabulary and classes, with
// m's parameters and, when epochs > 0, that many epochs (sgd) or
// iterations (lbfgs). It is not the model of the union of the documents:
// logistic regression has no sufficient statistics, and the loss it
// minimises is that of texts alone, started from the old optimum (the
// caller adds a replay sample of old documents to texts to hold it
// there; the first newDocs of texts are new, the history counts them
// only). corpusName names the documents in errors. A label m does not
// have is an error: a linear model's classes are fixed by its weights.
// SVM and NB-LR models are refused: their dual solvers do not start from
// given weights.
func Linear(m *model.Model, texts, labels []string, newDocs, epochs, workers int, corpusName string, opt Options) (*model.Model, error) {
	if m.Kind != model.LogReg || m.MultiLabel || m.Fields != nil {
		if m.Kind == model.SVM || m.Kind == model.NBLR {
			return nil, fmt.Errorf("a %s model cannot be updated: its dual solver does not start from given weights; retrain it on all the documents", m.Kind)
		}
		return nil, fmt.Errorf("a warm-start update takes a logistic regression model of text only, not this %s model", m.Kind)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("%s: no documents", corpusName)
	}
	y := make([]int, len(labels))
	for i, l := range labels {
		c := slices.Index(m.Classes, l)
		if c < 0 {
			return nil, fmt.Errorf("%s: class %q is not one of the model's %d: a logistic regression model's classes are fixed by its weights, retrain it to add one", corpusName, l, len(m.Classes))
		}
		y[i] = c
	}
	p := m.Params
	if epochs > 0 {
		p.Epochs = epochs
	}
	X := train.PrepareWith(m.Vocab, texts, workers)
	nm, err := train.Fit(model.LogReg, X, y, m.Classes, m.Vocab, p, train.Options{Workers: workers, Init: m})
	if err != nil {
		return nil, err
	}
	nm.Params.Epochs = m.Params.Epochs
	old := int64(m.Params.Docs)
	nm.Params.Docs = m.Params.Docs + newDocs
	nm.Meta = m.Meta
	record(nm, m, old, model.Step{Op: "update", Docs: int64(newDocs), Total: old + int64(newDocs), Date: opt.Date, Source: opt.Source}, opt)
	return nm, nil
}
