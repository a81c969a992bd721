package eval

import (
	"errors"
	"fmt"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Model returns the model s scores with.
func (s *StreamScorer) Model() *model.Model { return s.m }

// ScoreRecords predicts documents given as text rows X (weighted as m's
// vocabulary says; nil for a model without terms) and record fields recs
// (model.Scorer.PredictRecord), on workers goroutines. It returns each
// document's class, its class log-probabilities, row-major n×C, and how
// many documents were predicted from the prior (as Score).
func ScoreRecords(m *model.Model, X *vectorize.Matrix, recs []model.Record, workers int) (pred []int, logProb []float64, fallback int) {
	return scoreRows(m, len(recs), workers, true, func(s *model.Scorer, i int) model.Prediction {
		var ind []int32
		var val []float32
		if X != nil {
			ind, val = X.Row(i)
		}
		return s.PredictRecord(ind, val, recs[i])
	})
}

// EvaluateRecords evaluates m, a model with record fields, on documents
// given as texts and record fields recs (in m.Fields' order) with label
// names labels, as EvaluateTexts does for text models.
func EvaluateRecords(m *model.Model, texts []string, recs []model.Record, labels []string, opt Options, workers int) (*Report, error) {
	if err := checkLabels(len(recs), labels); err != nil {
		return nil, err
	}
	if len(texts) != len(recs) {
		return nil, fmt.Errorf("%d texts for %d records", len(texts), len(recs))
	}
	var X *vectorize.Matrix
	if m.NumTerms() > 0 {
		X = train.PrepareWith(m.Vocab, texts, workers)
	}
	pred, lp, fallback := ScoreRecords(m, X, recs, workers)
	r, err := evaluateScored(m, labels, pred, lp, fallback, opt)
	if r != nil {
		r.Empty = emptyRows(X)
	}
	return r, err
}

// CrossValidateRecords is CrossValidate for documents with record fields
// r (train.FitWithFields fits each fold): a categorical or Gaussian model
// reads the fields only, a text model with fields both. For a text model
// each fold fits its vocabulary on its training part (train.Prepare).
// Folds run one after the other; the result depends only on the inputs
// and seed.
func CrossValidateRecords(texts []string, y []int, classes []string, s vectorize.Settings, kind model.Kind, p model.Params, r *train.Records, k int, seed uint64, opt CVOptions) (*CVResult, error) {
	n := len(y)
	if n == 0 {
		return nil, errors.New("no documents to cross-validate")
	}
	if len(texts) != n || r == nil || len(r.Recs) != n {
		return nil, fmt.Errorf("%d labels for %d texts and records", n, len(texts))
	}
	if len(classes) < 2 {
		return nil, fmt.Errorf("need at least two classes, got %d", len(classes))
	}
	folds, err := corpus.StratifiedKFold(y, k, seed)
	if err != nil {
		return nil, fmt.Errorf("--cv: %w", err)
	}
	name := opt.Name
	if name == "" {
		name = kind.String()
	}
	recordOnly := kind.RecordOnly()
	res := &CVResult{Model: name, K: k, Seed: seed, N: n, Folds: make([]Fold, k)}
	for f, held := range folds {
		rows := corpus.Complement(n, held)
		ytr, truth := corpus.Pick(y, rows), corpus.Pick(y, held)
		var (
			vocab    *vectorize.Vocabulary
			Xtr, Xho *vectorize.Matrix
		)
		if !recordOnly {
			if vocab, Xtr, err = train.Prepare(corpus.Pick(texts, rows), ytr, len(classes), s, opt.Workers, nil); err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
			Xho = train.PrepareWith(vocab, corpus.Pick(texts, held), opt.Workers)
		}
		m, err := opt.fit(kind, Xtr, ytr, classes, vocab, p, r.Subset(rows), opt.Workers)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		pred, lp, fallback := ScoreRecords(m, Xho, r.Subset(held).Recs, opt.Workers)
		if res.Folds[f], err = evaluateFold(f, len(rows), m.NumTerms(), Input{Classes: classes, Truth: truth, Pred: pred, LogProb: lp, Fallback: fallback}, opt); err != nil {
			return nil, err
		}
		if opt.Progress != nil {
			opt.Progress(f+1, k)
		}
	}
	res.summarize()
	return res, nil
}
