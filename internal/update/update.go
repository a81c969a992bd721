package update

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// ErrNoCounts is the error of a model whose counts file is missing: it
// was trained without --keep-counts.
var ErrNoCounts = errors.New("no counts file")

// Options are what a step records: Date (RFC 3339, UTC) and Source (the
// corpus as the user named it), or with NoHistory, nothing.
type Options struct {
	Date      string
	Source    string
	NoHistory bool
}

// Exact reports why m cannot be updated exactly from counts, or nil when
// it can: naive Bayes and centroid models whose weighting gives each term
// a value of its own document (binary or count, without the l2 norm; any
// weighting for Bernoulli NB, which counts documents), without record
// fields or several labels per document.
func Exact(m *model.Model) error {
	switch {
	case m.Kind == model.Ensemble:
		return errors.New("an ensemble is updated member by member: update each model and build the ensemble again")
	case m.MultiLabel:
		return errors.New("a --multi-label model keeps one-vs-rest weights, not counts: retrain it")
	case m.Fields != nil:
		return errors.New("a model with record fields keeps their statistics in the model only: retrain it")
	case !m.Kind.IsNB() && m.Kind != model.Centroid:
		return fmt.Errorf("a %s model keeps no counts: only naive bayes and centroid models add or forget documents exactly (the update of logreg, svm and nblr is a warm start; forgetting needs a retrain without the documents)", m.Kind)
	case counts.NeedsVocab(m.Vocab.Settings) && m.Kind != model.Bernoulli:
		// Bernoulli NB counts documents, whatever the weighting.
		s := m.Vocab.Settings
		why := "weighs each document by the document frequencies of the whole corpus (and its norm by the terms kept): the old documents' weighted sums cannot be recomputed without them"
		if m.Kind.IsNB() && m.Counts != nil && m.Params.ClassWeights == nil {
			return fmt.Errorf("weighting %s (norm %s) %s; the update is approximate (see AddApprox), train with --weighting count or binary and --norm none to update exactly", s.Weighting, orNone(s.Norm), why)
		}
		return fmt.Errorf("weighting %s (norm %s) %s; train with --weighting count or binary and --norm none to update exactly, or retrain", s.Weighting, orNone(s.Norm), why)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// CheckCounts reports whether cs, read from countsName, are the counts m
// (read from modelName) was fitted from: the same settings, classes and
// documents of each class.
func CheckCounts(m *model.Model, cs *counts.Counts, modelName, countsName string) error {
	if cs.Weighted() {
		return fmt.Errorf("%s holds round-two counts (counted with --vocab): an update needs round one, every term met ('train --keep-counts', or 'nbtext count' without --vocab)", countsName)
	}
	if cs.Settings != m.Vocab.Settings {
		h := counts.Header{Settings: m.Vocab.Settings}
		return counts.Compatible(&h, &cs.Header, modelName, countsName)
	}
	if !slices.Equal(cs.Classes, m.Classes) {
		return fmt.Errorf("%s has classes %q, %s has %q: they are not the model's counts", countsName, cs.Classes, modelName, m.Classes)
	}
	for c, d := range cs.ClassDocs {
		if m.ClassDocs != nil && float64(d) != m.ClassDocs[c] && m.Params.ClassWeights == nil {
			return fmt.Errorf("%s has %d documents of class %q, %s %g: they are not the model's counts", countsName, d, m.Classes[c], modelName, m.ClassDocs[c])
		}
	}
	return nil
}

// Add returns m updated with the documents counted in add (counted with
// m's settings), whose counts old were checked with CheckCounts: the
// merged counts, and the model fitted from them with m's parameters
// (see Refit). Names name the files in errors: the model, the old
// counts, the new documents.
func Add(m *model.Model, old, add *counts.Counts, countsName, corpusName string, opt Options) (*model.Model, *counts.Counts, error) {
	if err := Exact(m); err != nil {
		return nil, nil, err
	}
	if err := counts.Compatible(&old.Header, &add.Header, countsName, corpusName); err != nil {
		return nil, nil, err
	}
	merged, err := counts.Merge([]*counts.Counts{old, add}, []string{countsName, corpusName})
	if err != nil {
		return nil, nil, err
	}
	nm, err := Refit(m, merged)
	if err != nil {
		return nil, nil, err
	}
	step := model.Step{Op: "update", Docs: add.Documents(), Total: merged.Documents(), Date: opt.Date, Source: opt.Source,
		Classes: minus(merged.Classes, old.Classes)}
	record(nm, m, old.Documents(), step, opt)
	return nm, merged, nil
}

// Remove returns m without the documents counted in sub, which must be
// documents m was fitted on (see counts.Subtract: documents it never
// counted are found only when they make a count negative), and the
// remaining counts. It is Add's inverse.
func Remove(m *model.Model, old, sub *counts.Counts, countsName, corpusName string, opt Options) (*model.Model, *counts.Counts, error) {
	if err := Exact(m); err != nil {
		return nil, nil, err
	}
	rest, err := subtract(old, sub, countsName, corpusName)
	if err != nil {
		return nil, nil, err
	}
	nm, err := Refit(m, rest)
	if err != nil {
		return nil, nil, err
	}
	step := model.Step{Op: "forget", Docs: sub.Documents(), Total: rest.Documents(), Date: opt.Date, Source: opt.Source,
		Classes: minus(old.Classes, rest.Classes)}
	record(nm, m, old.Documents(), step, opt)
	return nm, rest, nil
}

// Refit fits a model of m's kind and parameters from cs: pruning with
// m's settings over cs, class weights "balanced" recomputed from cs's
// class sizes, m's temperature kept.
func Refit(m *model.Model, cs *counts.Counts) (*model.Model, error) {
	p := m.Params
	if p.Prior == "given" && !slices.Equal(cs.Classes, m.Classes) {
		return nil, fmt.Errorf("the model has given class priors (--prior) for its classes %q, and the documents change them to %q: retrain with --prior for the new classes", m.Classes, cs.Classes)
	}
	if p.ClassWeight != "" {
		sizes := make([]int, len(cs.ClassDocs))
		for c, d := range cs.ClassDocs {
			sizes[c] = int(d)
		}
		cw, err := train.ClassWeights(p.ClassWeight, cs.Classes, sizes)
		if err != nil {
			return nil, err
		}
		p.ClassWeights = cw
	}
	st, err := cs.Stats(m.Kind == model.Bernoulli)
	if err != nil {
		return nil, err
	}
	var nm *model.Model
	if m.Kind == model.Centroid {
		nm, err = train.FitCentroidStats(st, p)
	} else {
		nm, err = train.FitNBStats(m.Kind, st, p)
	}
	if err != nil {
		return nil, err
	}
	nm.Meta = m.Meta
	nm.Meta.History = nil
	return nm, nil
}

// record sets nm's history: m's, starting with the train step of m's
// oldDocs documents when m has none, and step; none with opt.NoHistory.
func record(nm, m *model.Model, oldDocs int64, step model.Step, opt Options) {
	if opt.NoHistory {
		nm.Meta.History = nil
		return
	}
	h := slices.Clone(m.Meta.History)
	if len(h) == 0 {
		h = append(h, model.Step{Op: "train", Docs: oldDocs, Total: oldDocs})
	}
	nm.Meta.History = append(h, step)
}

// minus returns the names of a that b lacks (both ascending).
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if _, ok := slices.BinarySearch(b, s); !ok {
			out = append(out, s)
		}
	}
	return out
}

// subtract is the counts of old without those of sub (counts.Subtract),
// refused when the documents left are of fewer than two classes.
func subtract(old, sub *counts.Counts, countsName, corpusName string) (*counts.Counts, error) {
	rest, err := counts.Subtract(old, sub, countsName, corpusName)
	if err != nil {
		return nil, err
	}
	if len(rest.Classes) < 2 {
		return nil, fmt.Errorf("%s leaves documents of %d class only: a model needs two", corpusName, len(rest.Classes))
	}
	return rest, nil
}
