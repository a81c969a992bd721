package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"

	"gonum.org/v1/gonum/stat"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// DefaultModelSpec returns the spec of kind with the package defaults of
// train.Defaults.
func DefaultModelSpec(kind model.Kind) ModelSpec {
	s, p := train.Defaults(kind)
	return ModelSpec{Kind: kind, Settings: s, Params: p}
}

// CVOptions are the run-time knobs of CrossValidate.
type CVOptions struct {
	// Name labels the configuration in the output ("" means the kind).
	Name string
	// Workers is the number of folds fitted at once, and of goroutines per
	// logistic-regression gradient (0: GOMAXPROCS). Results do not depend
	// on it.
	Workers int
	// Progress, when not nil, is called after each fold with the number
	// done and k.
	Progress func(done, total int)
	// TopK, when > 0, adds top-k accuracy to each fold's report.
	TopK int
	// Fit, when not nil, fits each fold's model on its training rows X
	// (labels y, vocabulary vocab) and record fields recs (nil without
	// fields), with the configuration's kind, classes and parameters: a
	// training run's own fit (pipeline.CrossValidate), so that a fold is
	// fitted as train fits. Nil: train.Fit, or train.FitWithFields for
	// CrossValidateRecords.
	Fit func(X *vectorize.Matrix, y []int, vocab *vectorize.Vocabulary, recs *train.Records) (*model.Model, error)
}

// fit fits a fold's model: opt.Fit, else train.FitWithFields (for a
// model without fields, recs nil, train.Fit's model).
func (opt CVOptions) fit(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, recs *train.Records, workers int) (*model.Model, error) {
	if opt.Fit != nil {
		return opt.Fit(X, y, vocab, recs)
	}
	if recs == nil {
		return train.Fit(kind, X, y, classes, vocab, p, train.Options{Workers: workers})
	}
	m, _, err := train.FitWithFields(kind, X, y, classes, vocab, p, train.Options{Workers: workers}, recs)
	return m, err
}

// Fold is the outcome of one cross-validation fold.
type Fold struct {
	Fold       int     `json:"fold"`       // 1-based
	TrainDocs  int     `json:"train_docs"` // documents fitted on
	TestDocs   int     `json:"test_docs"`  // documents held out
	Terms      int     `json:"terms"`      // vocabulary fitted on the training part
	Accuracy   float64 `json:"accuracy"`
	MacroF1    float64 `json:"macro_f1"`
	WeightedF1 float64 `json:"weighted_f1"`
	LogLoss    float64 `json:"log_loss"`
	// Fallback counts the held-out documents predicted from the prior
	// alone (model.Prediction.Fallback; α = 0 Naive Bayes).
	Fallback int `json:"fallback,omitempty"`
	// Report is the full evaluation of the held-out part.
	Report *Report `json:"-"`
}

// CVStats are summary statistics of the per-fold metrics.
type CVStats struct {
	Accuracy   float64 `json:"accuracy"`
	MacroF1    float64 `json:"macro_f1"`
	WeightedF1 float64 `json:"weighted_f1"`
	LogLoss    float64 `json:"log_loss"`
}

// CVResult is a stratified k-fold cross-validation of one configuration.
type CVResult struct {
	Model string  `json:"model"`
	K     int     `json:"k"`
	Seed  uint64  `json:"seed"`
	N     int     `json:"n"`
	Folds []Fold  `json:"folds"`
	Mean  CVStats `json:"mean"`
	// Std holds sample standard deviations over the folds.
	Std CVStats `json:"std"`
	// Fallback is the folds' Fallback summed: each document is held out
	// once, so it is a count out of N.
	Fallback int `json:"fallback,omitempty"`
}

// CrossValidate estimates how a training configuration (settings s, kind,
// parameters p) generalises, by stratified k-fold cross-validation of the
// documents texts with label ids y (indices into classes): the folds are
// corpus.StratifiedKFold(y, k, seed); for each fold the vocabulary is
// fitted on the training part only (as vectorize.Fit would, by restricting
// one tokenization of all texts; see LearningCurve), the model is fitted on
// the training part and evaluated on the held-out part. The result holds
// each fold's accuracy, macro and weighted F1 and log-loss, with their mean
// and standard deviation. Folds run in parallel; the result depends only on
// the inputs and seed.
func CrossValidate(texts []string, y []int, classes []string, s vectorize.Settings, kind model.Kind, p model.Params, k int, seed uint64, opt CVOptions) (*CVResult, error) {
	n := len(texts)
	if n == 0 {
		return nil, errors.New("no documents to cross-validate")
	}
	if len(y) != n {
		return nil, fmt.Errorf("%d labels for %d documents", len(y), n)
	}
	if len(classes) < 2 {
		return nil, fmt.Errorf("need at least two classes, got %d", len(classes))
	}
	for i, c := range y {
		if c < 0 || c >= len(classes) {
			return nil, fmt.Errorf("document %d: label id %d out of range [0, %d)", i, c, len(classes))
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := train.ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	folds, err := corpus.StratifiedKFold(y, k, seed)
	if err != nil {
		return nil, fmt.Errorf("--cv: %w", err)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	tk, _, err := tokenize(texts, s, workers, nil)
	if err != nil {
		return nil, err
	}
	name := opt.Name
	if name == "" {
		name = kind.String()
	}
	res := &CVResult{Model: name, K: k, Seed: seed, N: n, Folds: make([]Fold, k)}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	err = runJobs(order, workers, len(tk.terms), opt.Progress, func(f int, sc *scratch) error {
		held := folds[f]
		rows := corpus.Complement(n, held)
		vocab, Xtr, Xho, err := tk.split(rows, held, y, len(classes), s, sc)
		if err != nil {
			return fmt.Errorf("fold %d: %w", f+1, err)
		}
		ytr := corpus.Pick(y, rows)
		m, err := opt.fit(kind, Xtr, ytr, classes, vocab, p, nil, workers)
		if err != nil {
			return fmt.Errorf("fold %d: %w", f+1, err)
		}
		pred, lp, fallback := Score(m, Xho, 1, true)
		truth := corpus.Pick(y, held)
		fold, err := evaluateFold(f, len(rows), vocab.Len(), Input{Classes: classes, Truth: truth, Pred: pred, LogProb: lp, Fallback: fallback}, opt)
		res.Folds[f] = fold
		return err
	})
	if err != nil {
		return nil, err
	}
	res.summarize()
	return res, nil
}

// evaluateFold evaluates the held-out part of fold f (0-based), fitted on
// trainDocs documents with a vocabulary of terms terms.
func evaluateFold(f, trainDocs, terms int, in Input, opt CVOptions) (Fold, error) {
	rep, err := Evaluate(in, Options{TopK: opt.TopK})
	if err != nil {
		return Fold{}, fmt.Errorf("fold %d: %w", f+1, err)
	}
	return Fold{
		Fold: f + 1, TrainDocs: trainDocs, TestDocs: len(in.Truth), Terms: terms,
		Accuracy: rep.Accuracy, MacroF1: rep.Macro.F1, WeightedF1: rep.Weighted.F1, LogLoss: rep.LogLoss,
		Fallback: in.Fallback, Report: rep,
	}, nil
}

// NewCVResult returns the cross-validation result of folds run by the
// caller (the nested cross-validation of a model search), with Mean, Std
// and Fallback computed from them.
func NewCVResult(name string, k int, seed uint64, n int, folds []Fold) *CVResult {
	r := &CVResult{Model: name, K: k, Seed: seed, N: n, Folds: folds}
	r.summarize()
	return r
}

// summarize fills Mean, Std and Fallback from Folds.
func (r *CVResult) summarize() {
	r.Fallback = 0
	for _, f := range r.Folds {
		r.Fallback += f.Fallback
	}
	col := func(get func(Fold) float64) (float64, float64) {
		v := make([]float64, len(r.Folds))
		for i, f := range r.Folds {
			v[i] = get(f)
		}
		if len(v) == 1 {
			return v[0], 0
		}
		return stat.MeanStdDev(v, nil)
	}
	r.Mean.Accuracy, r.Std.Accuracy = col(func(f Fold) float64 { return f.Accuracy })
	r.Mean.MacroF1, r.Std.MacroF1 = col(func(f Fold) float64 { return f.MacroF1 })
	r.Mean.WeightedF1, r.Std.WeightedF1 = col(func(f Fold) float64 { return f.WeightedF1 })
	r.Mean.LogLoss, r.Std.LogLoss = col(func(f Fold) float64 { return f.LogLoss })
}

// WriteTable writes r for people: a heading, one row per fold, then the
// mean ± standard deviation of each metric.
func (r *CVResult) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d-fold stratified cross-validation of %s (%d documents, seed %d)\n\n", r.K, r.Model, r.N, r.Seed)
	fmt.Fprintf(bw, "%4s %9s %9s %8s %9s %9s %11s %9s\n", "fold", "train", "held-out", "terms", "accuracy", "macro F1", "weighted F1", "log-loss")
	for _, f := range r.Folds {
		fmt.Fprintf(bw, "%4d %9d %9d %8d %9.4f %9.4f %11.4f %9.4f\n", f.Fold, f.TrainDocs, f.TestDocs, f.Terms, f.Accuracy, f.MacroF1, f.WeightedF1, f.LogLoss)
	}
	bw.WriteByte('\n')
	for _, m := range []struct {
		name      string
		mean, std float64
	}{
		{"accuracy", r.Mean.Accuracy, r.Std.Accuracy},
		{"macro F1", r.Mean.MacroF1, r.Std.MacroF1},
		{"weighted F1", r.Mean.WeightedF1, r.Std.WeightedF1},
		{"log-loss", r.Mean.LogLoss, r.Std.LogLoss},
	} {
		fmt.Fprintf(bw, "%-11s  %.4f ± %.4f\n", m.name, m.mean, m.std)
	}
	if r.Fallback > 0 {
		fmt.Fprintf(bw, "\nfallback  %d of %d held-out documents (%.2f%%) predicted from the prior: the model gave them nothing to go on\n",
			r.Fallback, r.N, 100*float64(r.Fallback)/float64(r.N))
	}
	return bw.Flush()
}

// WriteTSV writes r as tab-separated values under the header
//
//	fold	train_docs	test_docs	terms	accuracy	macro_f1	weighted_f1	log_loss
//
// one row per fold (fold = 1..k), then a row with fold "mean" and one with
// fold "std" (sample standard deviation), whose three count columns are
// empty. Metrics have six decimals.
func (r *CVResult) WriteTSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("fold\ttrain_docs\ttest_docs\tterms\taccuracy\tmacro_f1\tweighted_f1\tlog_loss\n")
	f6 := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for _, f := range r.Folds {
		fmt.Fprintf(bw, "%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", f.Fold, f.TrainDocs, f.TestDocs, f.Terms, f6(f.Accuracy), f6(f.MacroF1), f6(f.WeightedF1), f6(f.LogLoss))
	}
	for _, s := range []struct {
		name string
		v    CVStats
	}{{"mean", r.Mean}, {"std", r.Std}} {
		fmt.Fprintf(bw, "%s\t\t\t\t%s\t%s\t%s\t%s\n", s.name, f6(s.v.Accuracy), f6(s.v.MacroF1), f6(s.v.WeightedF1), f6(s.v.LogLoss))
	}
	return bw.Flush()
}

// WriteJSON writes r as one indented JSON object with the keys model, k,
// seed, n, folds (a list of {fold, train_docs, test_docs, terms, accuracy,
// macro_f1, weighted_f1, log_loss}), mean and std (each {accuracy,
// macro_f1, weighted_f1, log_loss}).
func (r *CVResult) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
