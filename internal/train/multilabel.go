package train

import (
	"fmt"
	"math"
	"slices"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitMultiLabel fits a one-vs-rest multi-label model of kind on the rows
// of X (weighted as Prepare weights them) with label sets Y: Y[i] holds
// the ids (into labels) of document i's labels. For each label l it fits,
// with Fit, a binary model of kind on the same rows and vocabulary with
// the classes "absent" and "present" (document i is present when l ∈
// Y[i]), and keeps present − absent of its weights and biases: the
// log-odds that model.NewMultiLabel scores. Every label must occur in at
// least one document and be absent from another.
func FitMultiLabel(kind model.Kind, X *vectorize.Matrix, Y [][]int, labels []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	if X == nil || X.Rows() != len(Y) {
		return nil, fmt.Errorf("%d label sets for the documents", len(Y))
	}
	if err := model.CheckSize(kind, true, vocab.Len(), len(labels)); err != nil {
		return nil, err
	}
	if len(labels) < 1 {
		return nil, fmt.Errorf("no labels")
	}
	L, V := len(labels), X.Cols
	present := make([][]bool, L)
	count := make([]int, L)
	for l := range present {
		present[l] = make([]bool, len(Y))
	}
	for i, ls := range Y {
		for _, l := range ls {
			if l < 0 || l >= L {
				return nil, fmt.Errorf("document %d: label id %d out of range [0, %d)", i, l, L)
			}
			if !present[l][i] {
				present[l][i] = true
				count[l]++
			}
		}
	}
	W, B := make([]float64, V*L), make([]float64, L)
	y := make([]int, len(Y))
	binary := []string{"absent", "present"}
	var bp model.Params
	for l := range labels {
		if count[l] == 0 || count[l] == len(Y) {
			return nil, fmt.Errorf("label %q is on %d of %d documents: one-vs-rest needs documents with and without it", labels[l], count[l], len(Y))
		}
		for i := range y {
			y[i] = 0
			if present[l][i] {
				y[i] = 1
			}
		}
		bp = p
		if p.Prior == "given" {
			bp.Prior, bp.Priors = "learned", nil
		}
		m, err := Fit(kind, X, y, binary, vocab, bp, Options{Workers: opt.Workers, Tol: opt.Tol, Eta0: opt.Eta0})
		if err != nil {
			return nil, fmt.Errorf("label %q: %w", labels[l], err)
		}
		for t := 0; t < V; t++ {
			W[t*L+l] = m.W[t*2+1] - m.W[t*2]
		}
		B[l] = m.B[1] - m.B[0]
		if opt.Progress != nil {
			opt.Progress(l+1, L)
		}
	}
	bp.Temperature = 0 // each label has its own; they are in the weights
	return model.NewMultiLabel(kind, labels, vocab, bp, W, B)
}

// TuneThresholds chooses a probability threshold for each label of the
// one-vs-rest model FitMultiLabel fits on X and Y: the documents are split
// into DefaultFolds folds (stratified by each document's lowest label id,
// seeded with p.Seed), a model is fitted on the other folds of each and
// scores its held-out documents, and each label gets the threshold among
// 0.01, 0.02, ..., 0.99 that maximizes its F1 over these out-of-fold
// probabilities (ties: the one nearest 0.5). The result is what
// model.Params.LabelThresholds stores. Every label must be on documents of
// at least two folds.
func TuneThresholds(kind model.Kind, X *vectorize.Matrix, Y [][]int, labels []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) ([]float64, error) {
	if X == nil || X.Rows() != len(Y) {
		return nil, fmt.Errorf("%d label sets for the documents", len(Y))
	}
	L, n := len(labels), len(Y)
	strata := make([]int, n)
	for i, ls := range Y {
		strata[i] = L // no label
		if len(ls) > 0 {
			strata[i] = slices.Min(ls)
		}
	}
	folds, err := corpus.StratifiedKFold(strata, DefaultFolds, uint64(p.Seed))
	if err != nil {
		return nil, fmt.Errorf("tuning thresholds: %w", err)
	}
	probs := make([]float64, n*L)
	for f, held := range folds {
		rows := corpus.Complement(n, held)
		m, err := FitMultiLabel(kind, X.Subset(rows), corpus.Pick(Y, rows), labels, vocab, p, Options{Workers: opt.Workers, Tol: opt.Tol, Eta0: opt.Eta0})
		if err != nil {
			return nil, fmt.Errorf("tuning thresholds: fold %d of %d: %w", f+1, len(folds), err)
		}
		s := m.NewScorer()
		for _, i := range held {
			copy(probs[i*L:(i+1)*L], s.LabelProbs(X.Row(i)))
		}
		if opt.Progress != nil {
			opt.Progress(f+1, len(folds))
		}
	}
	truth := make([]bool, n*L)
	for i, ls := range Y {
		for _, l := range ls {
			truth[i*L+l] = true
		}
	}
	out := make([]float64, L)
	for l := range out {
		best, bestF1 := 0.5, -1.0
		for k := 1; k <= 99; k++ {
			t := float64(k) / 100
			var tp, fp, fn float64
			for i := 0; i < n; i++ {
				switch pred, yes := probs[i*L+l] >= t, truth[i*L+l]; {
				case pred && yes:
					tp++
				case pred:
					fp++
				case yes:
					fn++
				}
			}
			f1 := 0.0
			if tp > 0 {
				f1 = 2 * tp / (2*tp + fp + fn)
			}
			if f1 > bestF1+1e-12 || (math.Abs(f1-bestF1) <= 1e-12 && math.Abs(t-0.5) < math.Abs(best-0.5)) {
				best, bestF1 = t, f1
			}
		}
		out[l] = best
	}
	return out, nil
}
