package pipeline

import (
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// DefaultLabelThreshold is the probability a label of a multi-label model
// without stored thresholds (a file written before
// train.DefaultLabelThreshold) needs to be predicted, unless the user
// says otherwise.
const DefaultLabelThreshold = 0.5

// LabelSets returns each document's labels (its Label when the reader
// gave no Labels) and the sorted set of all of them.
func LabelSets(c *corpus.Corpus) (sets [][]string, labels []string) { return c.LabelSets() }

// multiLabel is the end of a multi-label run: one binary model per label
// over the shared vocabulary (train.FitMultiLabel), saved in one file,
// with each label's tuned threshold when TuneThresholds says so
// (train.TuneThresholds).
func (r *run) multiLabel(c *corpus.Corpus, X *vectorize.Matrix, vocab *vectorize.Vocabulary, p model.Params) error {
	sets, labels := LabelSets(c)
	if len(labels) < 2 {
		return fmt.Errorf("--multi-label needs at least two labels, got %d", len(labels))
	}
	Y, _ := eval.MapLabelSets(labels, sets)
	if c, ok := train.MultiLabelC(r.Kind); ok && !r.changed("C") {
		p.C = c
	}
	m, err := train.FitMultiLabel(r.Kind, X, Y, labels, vocab, p, train.Options{
		Workers: r.Workers, Progress: r.progress("fitting labels"),
	})
	if err != nil {
		return err
	}
	if r.TuneThresholds {
		t, err := train.TuneThresholds(r.Kind, X, Y, labels, vocab, p, train.Options{
			Workers: r.Workers, Progress: r.progress("tuning thresholds (folds)"),
		})
		if err != nil {
			return err
		}
		m.Params.LabelThresholds = t
	} else {
		m.Params.LabelThresholds = slices.Repeat([]float64{train.DefaultLabelThreshold}, len(labels))
	}
	return r.saveMultiLabel(m, X, Y, labels, len(c.Docs), p)
}

// saveMultiLabel writes the multi-label model m, fitted on the rows X with
// label sets Y of docs documents, and reports it with its training micro
// F1.
func (r *run) saveMultiLabel(m *model.Model, X *vectorize.Matrix, Y [][]int, labels []string, docs int, p model.Params) error {
	m.Meta = model.Meta{}
	if err := r.save(m, true); err != nil {
		return err
	}
	pred, probs := eval.PredictLabels(m, X, m.Thresholds(DefaultLabelThreshold, false), 0, r.Workers)
	rep, err := eval.EvaluateMultiLabel(labels, Y, pred, probs, 1, nil)
	if err != nil {
		return err
	}
	r.rep.Model, r.rep.Documents, r.rep.Params = m, docs, p
	r.rep.MultiLabel = &MultiLabelReport{Labels: len(labels), Tuned: r.TuneThresholds, RareLabels: rareLabels(Y, len(labels)), MicroF1: rep.MicroF1}
	return nil
}

// rareLabels counts the labels of ids [0, L) on fewer than
// train.MinTunePositives of the label sets Y.
func rareLabels(Y [][]int, L int) int {
	count := make([]int, L)
	for _, ls := range Y {
		for _, l := range ls {
			count[l]++
		}
	}
	n := 0
	for _, c := range count {
		if c < train.MinTunePositives {
			n++
		}
	}
	return n
}
