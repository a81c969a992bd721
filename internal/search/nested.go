package search

import (
	"fmt"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// NestedCV estimates how the whole search generalises, by stratified k-fold
// cross-validation (folds of corpus.StratifiedKFold(y, k, seed)) in which
// each outer fold runs the search (Run, with opt's inner folds) on its
// training part only, fits the chosen candidate there (or the ensemble it
// chose, when opt.EnsembleRounds asks for one: FitEnsemble), and evaluates it on
// its held-out part, which the search never saw. With a time budget, each
// outer fold's search may use an equal share of the time left; with an
// Evaluations budget, each fold's search has the whole budget, as the
// search it estimates would. It returns
// the outer folds' evaluation and each fold's search.
func NestedCV(texts []string, y []int, classes []string, space Space, remove string, k int, seed uint64, opt Options, topK int) (*eval.CVResult, []*Result, error) {
	folds, err := corpus.StratifiedKFold(y, k, seed)
	if err != nil {
		return nil, nil, fmt.Errorf("--cv: %w", err)
	}
	out := make([]eval.Fold, k)
	searches := make([]*Result, k)
	outer := &runner{opt: opt, splits: make([]Split, 1)}
	outer.setBudget(time.Now())
	for f, held := range folds {
		rows := corpus.Complement(len(y), held)
		inner := opt
		if outer.bounded() && outer.evals == nil {
			inner.Budget.Amount = (outer.limit - outer.m.now()) / float64(k-f)
			inner.Spent = 0
		}
		trTexts, trY := corpus.Pick(texts, rows), corpus.Pick(y, rows)
		res, err := Run(trTexts, trY, classes, space, remove, nil, inner)
		if err != nil {
			return nil, nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		searches[f] = res
		var m *model.Model
		if res.Ensemble != nil && res.Ensemble.Used {
			m, err = FitEnsemble(trTexts, trY, classes, res, opt.Workers)
		} else {
			m, _, _, err = Fit(trTexts, trY, classes, res.Best(), opt.Workers)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		var (
			pred     []int
			lp       []float64
			fallback int
		)
		if m.Kind == model.Ensemble {
			pred, lp, fallback = eval.ScoreEnsemble(m, corpus.Pick(texts, held), opt.Workers)
		} else {
			X := train.PrepareWith(m.Vocab, corpus.Pick(texts, held), opt.Workers)
			pred, lp, fallback = eval.Score(m, X, opt.Workers, true)
		}
		rep, err := eval.Evaluate(eval.Input{Classes: classes, Truth: corpus.Pick(y, held), Pred: pred, LogProb: lp, Fallback: fallback}, eval.Options{TopK: topK})
		if err != nil {
			return nil, nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		out[f] = eval.Fold{
			Fold: f + 1, TrainDocs: len(rows), TestDocs: len(held), Terms: terms(m),
			Accuracy: rep.Accuracy, MacroF1: rep.Macro.F1, WeightedF1: rep.Weighted.F1, LogLoss: rep.LogLoss,
			Fallback: fallback, Report: rep,
		}
	}
	return eval.NewCVResult("auto (nested)", k, seed, len(texts), out), searches, nil
}

// terms returns the vocabulary size of m, summed over an ensemble's members.
func terms(m *model.Model) int {
	if m.Kind != model.Ensemble {
		return m.Vocab.Len()
	}
	n := 0
	for _, mem := range m.Members {
		n += mem.Vocab.Len()
	}
	return n
}
