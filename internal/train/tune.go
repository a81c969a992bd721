package train

import (
	"fmt"
	"math"
	"slices"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TuneOptions control a hyperparameter search.
type TuneOptions struct {
	// Folds is k of the stratified k-fold split (0: DefaultFolds).
	Folds int
	// Seed shuffles the fold assignment (corpus.StratifiedKFold).
	Seed uint64
	// Grid is the list of candidate values (nil: AlphaGrid for Naive Bayes,
	// CGrid for logistic regression, SVMCGrid and NBLRCGrid).
	Grid []float64
	// Fit holds the run-time options of every logistic regression fit
	// (Workers, Tol, Eta0; Progress and Init are ignored). Fit.Workers also
	// parallelizes vectorizing and scoring.
	Fit Options
	// Progress, when non-nil, is called after each (fold, candidate) with
	// the number done and Folds·len(Grid).
	Progress func(done, total int)
}

// Candidate is the cross-validated accuracy of one grid value.
type Candidate struct {
	Value float64   // α or C
	Mean  float64   // mean held-out accuracy over the folds
	Std   float64   // sample standard deviation over the folds
	Folds []float64 // held-out accuracy of each fold
}

// Tuning is the outcome of a hyperparameter search: every candidate's
// figures, in grid order, and the chosen one.
type Tuning struct {
	Param      string // "alpha" (Naive Bayes) or "C" (logistic regression)
	Folds      int
	Candidates []Candidate
	Best       int // index of the chosen candidate

	symBeta bool // Bernoulli with β = α: β follows α
}

// Value returns the chosen α or C.
func (t *Tuning) Value() float64 { return t.Candidates[t.Best].Value }

// Apply returns p with the tuned parameter set to the chosen value. For
// Bernoulli NB searched with β = α (the symmetric Beta(α, α) prior, as
// scikit-learn's BernoulliNB), β is set to the chosen α too.
func (t *Tuning) Apply(p model.Params) model.Params { return t.with(p, t.Value()) }

// Tune chooses α (Naive Bayes) or C (logistic regression) for kind by
// stratified k-fold cross-validation on the training documents only: each
// candidate is fitted on k-1 folds and scored by accuracy on the held-out
// fold, and the candidate with the best mean accuracy wins, ties going to
// the stronger smoothing (larger α) or regularization (smaller C).
//
// The vocabulary: when s.Select is empty, vocabulary building is
// unsupervised (document frequencies, stop words, n-grams), so it is built
// once on all of texts and shared by the folds; the held-out folds then
// take part in the document frequencies and idf, never in anything that
// sees a label. When s.Select is "mi:K", selection uses the labels, so the
// vocabulary is rebuilt on each fold's training part and the held-out fold
// is transformed with it.
//
// For Bernoulli NB searched with p.Beta = p.Alpha (the symmetric Beta(α, α)
// prior, --beta's default) β moves with α; otherwise β stays as given.
// Naive Bayes counts each fold once and only recomputes the weights per α,
// so an α search costs little more than k fits.
//
// With s.Select empty, Tune is Prepare followed by TuneMatrix: a caller
// that has prepared the training matrix anyway (to fit the final model)
// should call TuneMatrix itself and vectorize once.
func Tune(kind model.Kind, texts []string, y []int, classes []string, s vectorize.Settings, p model.Params, opt TuneOptions) (*Tuning, error) {
	if len(texts) != len(y) {
		return nil, fmt.Errorf("%d texts but %d labels", len(texts), len(y))
	}
	workers := opt.Fit.workers()
	if s.Select == "" {
		vocab, X, err := Prepare(texts, y, len(classes), s, workers, nil)
		if err != nil {
			return nil, err
		}
		return TuneMatrix(kind, X, y, classes, vocab, p, opt)
	}
	t, folds, grid, err := newTuning(kind, y, len(classes), p, opt)
	if err != nil {
		return nil, err
	}
	progress := progressCounter(opt.Progress, len(folds)*len(grid))
	for f, held := range folds {
		train := corpus.Complement(len(y), held)
		vocab, Xtr, err := Prepare(corpus.Pick(texts, train), corpus.Pick(y, train), len(classes), s, workers, nil)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		Xte := PrepareWith(vocab, corpus.Pick(texts, held), workers)
		if err := t.evalFold(kind, f, Xtr, corpus.Pick(y, train), Xte, corpus.Pick(y, held), classes, vocab, p, opt, progress); err != nil {
			return nil, err
		}
	}
	t.summarize()
	return t, nil
}

// TuneMatrix is Tune over a fixed vocabulary and its weighted training
// matrix X (for example a vocabulary loaded with --vocab): the folds are
// row subsets of X.
func TuneMatrix(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt TuneOptions) (*Tuning, error) {
	if err := checkData(X, y, classes, vocab); err != nil {
		return nil, err
	}
	if err := model.CheckSize(kind, false, vocab.Len(), len(classes)); err != nil {
		return nil, err
	}
	t, folds, grid, err := newTuning(kind, y, len(classes), p, opt)
	if err != nil {
		return nil, err
	}
	progress := progressCounter(opt.Progress, len(folds)*len(grid))
	for f, held := range folds {
		train := corpus.Complement(len(y), held)
		if err := t.evalFold(kind, f, X.Subset(train), corpus.Pick(y, train), X.Subset(held), corpus.Pick(y, held), classes, vocab, p, opt, progress); err != nil {
			return nil, err
		}
	}
	t.summarize()
	return t, nil
}

// newTuning validates the search and returns an empty Tuning, the folds and
// the grid.
func newTuning(kind model.Kind, y []int, nClasses int, p model.Params, opt TuneOptions) (*Tuning, [][]int, []float64, error) {
	k := opt.Folds
	if k == 0 {
		k = DefaultFolds
	}
	if k < 2 {
		return nil, nil, nil, fmt.Errorf("--folds must be ≥ 2, got %d", k)
	}
	t := &Tuning{Param: "alpha", Folds: k, symBeta: kind == model.Bernoulli && p.Beta == p.Alpha}
	grid := opt.Grid
	switch {
	case kind.IsNB():
		if grid == nil {
			grid = AlphaGrid
		}
	case kind.IsLinear():
		t.Param = "C"
		if grid == nil {
			grid = CGrid
			if g := linearCGrid(kind); g != nil {
				grid = g
			}
		}
	default:
		return nil, nil, nil, fmt.Errorf("unknown model kind %s", kind)
	}
	if len(grid) == 0 {
		return nil, nil, nil, fmt.Errorf("empty grid for %s", t.Param)
	}
	for _, v := range grid {
		if err := ValidateParams(kind, t.with(p, v), nClasses); err != nil {
			return nil, nil, nil, err
		}
	}
	folds, err := corpus.StratifiedKFold(y, k, opt.Seed)
	if err != nil {
		return nil, nil, nil, err
	}
	t.Candidates = make([]Candidate, len(grid))
	for i, v := range grid {
		t.Candidates[i] = Candidate{Value: v, Folds: make([]float64, k)}
	}
	return t, folds, grid, nil
}

// with returns p with the tuned parameter set to v (and β too for a
// symmetric Bernoulli prior).
func (t *Tuning) with(p model.Params, v float64) model.Params {
	switch {
	case t.Param == "C":
		p.C = v
	case t.symBeta:
		p.Alpha, p.Beta = v, v
	default:
		p.Alpha = v
	}
	return p
}

// evalFold fits every candidate on one fold's training part and records its
// held-out accuracy. Naive Bayes counts once and varies only α in the
// weights. Logistic regression with L-BFGS walks the grid from the
// strongest to the weakest regularization, warm-starting each fit from the
// previous one, which changes only where the optimizer starts; SGD starts
// every candidate from zero, since for a fixed number of epochs the start
// changes the result.
func (t *Tuning) evalFold(kind model.Kind, f int, Xtr *vectorize.Matrix, ytr []int, Xte *vectorize.Matrix, yte []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt TuneOptions, progress func()) error {
	workers := opt.Fit.workers()
	if kind.IsNB() {
		classDocs, counts, err := nbCounts(kind, Xtr, ytr, len(classes), p.ClassWeights)
		if err != nil {
			return err
		}
		for i := range t.Candidates {
			m, err := model.NewNB(kind, classes, vocab, t.with(p, t.Candidates[i].Value), classDocs, counts)
			if err != nil {
				return fmt.Errorf("fold %d, %s = %g: %w", f+1, t.Param, t.Candidates[i].Value, err)
			}
			t.Candidates[i].Folds[f] = Accuracy(m, Xte, yte, workers)
			progress()
		}
		return nil
	}
	order := make([]int, len(t.Candidates))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		va, vb := t.Candidates[a].Value, t.Candidates[b].Value
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	fitOpt := opt.Fit
	fitOpt.Progress, fitOpt.Init = nil, nil
	fitOpt.NoCalibrate = true // calibration never changes a decision
	for _, i := range order {
		m, err := Fit(kind, Xtr, ytr, classes, vocab, t.with(p, t.Candidates[i].Value), fitOpt)
		if err != nil {
			return fmt.Errorf("fold %d, C = %g: %w", f+1, t.Candidates[i].Value, err)
		}
		t.Candidates[i].Folds[f] = Accuracy(m, Xte, yte, workers)
		if kind == model.LogReg && p.Solver == "lbfgs" {
			fitOpt.Init = m
		}
		progress()
	}
	return nil
}

// summarize computes each candidate's mean and standard deviation and picks
// the best: highest mean accuracy, ties to larger α or smaller C.
func (t *Tuning) summarize() {
	const eps = 1e-12
	for i := range t.Candidates {
		c := &t.Candidates[i]
		c.Mean, c.Std = meanStd(c.Folds)
	}
	best := 0
	for i := 1; i < len(t.Candidates); i++ {
		c, b := t.Candidates[i], t.Candidates[best]
		stronger := c.Value > b.Value
		if t.Param == "C" {
			stronger = c.Value < b.Value
		}
		if c.Mean > b.Mean+eps || (math.Abs(c.Mean-b.Mean) <= eps && stronger) {
			best = i
		}
	}
	t.Best = best
}

// meanStd returns the mean and the sample standard deviation (n-1) of xs.
func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)-1))
}

// Accuracy returns the fraction of rows of X that m assigns to their label
// in y (argmax of the scores, ties to the lower class id), scoring on up to
// workers goroutines.
func Accuracy(m *model.Model, X *vectorize.Matrix, y []int, workers int) float64 {
	return accuracyOf(m, X.Rows(), workers, func(s *model.Scorer, i int) bool {
		return argmax(s.Scores(X.Row(i))) == y[i]
	})
}

// accuracyOf returns the fraction of rows 0..n-1 for which right holds,
// testing them on up to workers goroutines, each with its own
// model.Scorer.
func accuracyOf(m *model.Model, n, workers int, right func(s *model.Scorer, i int) bool) float64 {
	if n == 0 {
		return 0
	}
	const chunk = 256
	correct := make([]int, ceilDiv(n, chunk))
	parallel(workers, len(correct), func(k int) {
		s := m.NewScorer()
		for i := k * chunk; i < min(n, (k+1)*chunk); i++ {
			if right(s, i) {
				correct[k]++
			}
		}
	})
	total := 0
	for _, c := range correct {
		total += c
	}
	return float64(total) / float64(n)
}

// argmax returns the index of the largest score, the lowest on ties.
func argmax(s []float64) int {
	best := 0
	for c, v := range s {
		if v > s[best] {
			best = c
		}
	}
	return best
}

// progressCounter returns a function that counts finished steps and reports
// them to fn (which may be nil).
func progressCounter(fn func(done, total int), total int) func() {
	done := 0
	return func() {
		done++
		if fn != nil {
			fn(done, total)
		}
	}
}
