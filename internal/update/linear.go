package update

import (
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// Linear returns the linear model m (logistic regression, SVM or NB-LR)
// warm-started on the documents texts with labels, over m's vocabulary and
// classes, with m's parameters. Logistic regression: the optimisation of
// train.Fit starts from m's weights (train.Options.Init) and, when
// epochs > 0, runs that many epochs (sgd) or iterations (lbfgs); the loss
// it minimises is that of texts alone, started from the old optimum. SVM
// and NB-LR: a proximal step from m (train.FitDualWarm), each problem
// minimising ½‖w - w_old‖² + C Σ loss over texts, by dual coordinate
// descent from α = 0 for at most epochs passes (m's when epochs ≤ 0); m's
// temperature is kept, and NB-LR's log-count ratios stay folded in the
// old weights (the step is taken on presence features). None of these is
// the model of the union of the documents: a linear model has no
// sufficient statistics (the caller adds a replay sample of old documents
// to texts to hold it near the old ones; the first newDocs of texts are
// new, the history counts them only). corpusName names the documents in
// errors. A label m does not have is a new class (withClasses): its
// weights and bias start at 0, so that logistic regression learns them
// from the documents as from a fresh start, and the SVM's and NB-LR's
// problem for it is the plain one (w₀ = 0) over the documents given.
func Linear(m *model.Model, texts, labels []string, newDocs, epochs, workers int, corpusName string, opt Options) (*model.Model, error) {
	linear := m.Kind == model.LogReg || m.Kind == model.SVM || m.Kind == model.NBLR
	if !linear || m.MultiLabel || m.Fields != nil {
		return nil, fmt.Errorf("a warm-start update takes a logistic regression, svm or nblr model of text only (one label per document), not this %s model", m.Kind)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("%s: no documents", corpusName)
	}
	var added []string
	for _, l := range labels {
		if !slices.Contains(m.Classes, l) && !slices.Contains(added, l) {
			added = append(added, l)
		}
	}
	slices.Sort(added)
	orig := m
	m = withClasses(m, added)
	y := make([]int, len(labels))
	for i, l := range labels {
		y[i] = slices.Index(m.Classes, l)
	}
	X := train.PrepareWith(m.Vocab, texts, workers)
	var nm *model.Model
	var err error
	if m.Kind == model.LogReg {
		p := m.Params
		if epochs > 0 {
			p.Epochs = epochs
		}
		nm, err = train.Fit(model.LogReg, X, y, m.Classes, m.Vocab, p, train.Options{Workers: workers, Init: m})
	} else {
		nm, err = train.FitDualWarm(m, X, y, epochs, train.Options{Workers: workers})
	}
	if err != nil {
		return nil, err
	}
	nm.Params.Epochs = m.Params.Epochs
	old := int64(m.Params.Docs)
	if m.Kind == model.LogReg {
		nm.Params.Docs = m.Params.Docs + newDocs
	} else {
		// The SVM and NB-LR record no Params.Docs: the documents so far
		// are the history's, or those the vocabulary was counted on.
		old = int64(m.Vocab.NDocs)
		if h := m.Meta.History; len(h) > 0 {
			old = h[len(h)-1].Total
		}
	}
	nm.Meta = m.Meta
	record(nm, orig, old, model.Step{Op: "update", Docs: int64(newDocs), Total: old + int64(newDocs), Date: opt.Date, Source: opt.Source, Classes: added}, opt)
	return nm, nil
}

// withClasses is m with the classes added after its own, their weights,
// biases (and document counts, where m keeps them) 0; m itself when none
// is added.
func withClasses(m *model.Model, added []string) *model.Model {
	if len(added) == 0 {
		return m
	}
	nc, nf := len(m.Classes), m.Vocab.Len()
	wc := nc + len(added)
	wm := *m
	wm.Classes = append(slices.Clone(m.Classes), added...)
	wm.W = make([]float64, nf*wc)
	for t := range nf {
		copy(wm.W[t*wc:t*wc+nc], m.W[t*nc:(t+1)*nc])
	}
	wm.B = append(slices.Clone(m.B), make([]float64, len(added))...)
	if len(m.ClassDocs) == nc {
		wm.ClassDocs = append(slices.Clone(m.ClassDocs), make([]float64, len(added))...)
	}
	return &wm
}
