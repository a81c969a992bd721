package update

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// RoundTwo counts the documents of a step (those added or removed) over
// vocab, as round two of counts does: their weighted sums under vocab's
// document frequencies and pruning.
type RoundTwo func(vocab *vectorize.Vocabulary) (*counts.Counts, error)

// Approximate reports why m cannot be updated approximately (nil when it
// can): a multinomial or complement NB model whose weighting needs the
// whole corpus (tf-idf, the l2 norm; see Exact), with its counts and
// without class weights.
func Approximate(m *model.Model) error {
	switch {
	case !counts.NeedsVocab(m.Vocab.Settings) || m.Kind == model.Bernoulli:
		return errors.New("the model's weighting does not depend on the corpus: update it exactly")
	case m.Kind != model.Multinomial && m.Kind != model.Complement || m.MultiLabel || m.Fields != nil || m.Counts == nil:
		return Exact(m)
	case m.Params.ClassWeights != nil:
		return errors.New("a tf-idf model with class weights: its sums are weighed by class, retrain it")
	}
	return nil
}

// AddApprox is Add for a model whose weighting needs the whole corpus
// (Approximate): it cannot be exact, since the old documents' weighted
// sums under the new document frequencies need the old documents. What
// it does instead:
//
//   - the vocabulary is exact: the round-one counts of old and new
//     documents add (counts.Merge) and are pruned again, so document
//     frequencies, idf and the terms kept are those of training on the
//     union;
//   - the new documents are weighted exactly as training on the union
//     weighs them (roundTwo over the new vocabulary);
//   - the old documents' sums are the model's, each term's rescaled by
//     idf'(t)/idf(t) (exact without the l2 norm, as tf-idf is linear in
//     idf; with it, each document's norm changes too and is not
//     recomputed); a term the old vocabulary pruned gets, for each
//     class, its old occurrences times idf'(t) times the class's mean
//     weight per occurrence and unit of idf over the old vocabulary.
func AddApprox(m *model.Model, old, add *counts.Counts, roundTwo RoundTwo, countsName, corpusName string, opt Options) (*model.Model, *counts.Counts, error) {
	if err := Approximate(m); err != nil {
		return nil, nil, err
	}
	merged, err := counts.Merge([]*counts.Counts{old, add}, []string{countsName, corpusName})
	if err != nil {
		return nil, nil, err
	}
	vocab, _, err := merged.Vocabulary()
	if err != nil {
		return nil, nil, err
	}
	extra, err := roundTwo(vocab)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", corpusName, err)
	}
	nm, err := approxFit(m, m.Counts, old, merged, vocab, extra)
	if err != nil {
		return nil, nil, err
	}
	step := model.Step{Op: "update", Docs: add.Documents(), Total: merged.Documents(), Date: opt.Date, Source: opt.Source,
		Classes: minus(merged.Classes, old.Classes)}
	record(nm, m, old.Documents(), step, opt)
	return nm, merged, nil
}

// RemoveApprox is Remove for the models of AddApprox, with its
// approximation: the removed documents' sums under the model's own
// vocabulary (roundTwo over m.Vocab) are subtracted from the model's
// (exact when the model was trained on the documents from scratch), and
// the rest is rescaled to the vocabulary of the documents left as
// AddApprox rescales.
func RemoveApprox(m *model.Model, old, sub *counts.Counts, roundTwo RoundTwo, countsName, corpusName string, opt Options) (*model.Model, *counts.Counts, error) {
	if err := Approximate(m); err != nil {
		return nil, nil, err
	}
	rest, err := subtract(old, sub, countsName, corpusName)
	if err != nil {
		return nil, nil, err
	}
	removed, err := roundTwo(m.Vocab)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", corpusName, err)
	}
	base := slices.Clone(m.Counts)
	if err := addSums(base, m.Vocab, m.Classes, removed, -1); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", corpusName, err)
	}
	vocab, _, err := rest.Vocabulary()
	if err != nil {
		return nil, nil, err
	}
	nm, err := approxFit(m, base, rest, rest, vocab, nil)
	if err != nil {
		return nil, nil, err
	}
	step := model.Step{Op: "forget", Docs: sub.Documents(), Total: rest.Documents(), Date: opt.Date, Source: opt.Source,
		Classes: minus(old.Classes, rest.Classes)}
	record(nm, m, old.Documents(), step, opt)
	return nm, rest, nil
}

// addSums adds sign times the weighted sums of the round-two counts r to
// sums (feature-major over vocab and classes), by term and class name.
// Negative results of a subtraction (rounding) are set to 0.
func addSums(sums []float64, vocab *vectorize.Vocabulary, classes []string, r *counts.Counts, sign float64) error {
	all := make([]int32, r.Len())
	for i := range all {
		all[i] = int32(i)
	}
	_, st, err := r.NB(false, all)
	if err != nil {
		return err
	}
	C, Cr := len(classes), len(r.Classes)
	cmap := make([]int, Cr)
	for k, name := range r.Classes {
		if cmap[k] = slices.Index(classes, name); cmap[k] < 0 {
			return fmt.Errorf("class %q is not the model's", name)
		}
	}
	for i, term := range r.Terms {
		t, ok := vocab.Lookup(term)
		if !ok {
			return fmt.Errorf("term %q is not the model's", term)
		}
		for k := range Cr {
			v := &sums[int(t)*C+cmap[k]]
			*v = max(*v+sign*st[i*Cr+k], 0)
		}
	}
	return nil
}

// approxFit fits m's kind from: base, the weighted sums of the documents
// of base1 (their round-one counts) under m's vocabulary and classes;
// the round-one counts result of all the documents of the new model and
// its vocabulary; and extra, the round-two counts of further documents
// over vocab (nil: none). See AddApprox for how base is carried over to
// vocab.
func approxFit(m *model.Model, base []float64, base1, result *counts.Counts, vocab *vectorize.Vocabulary, extra *counts.Counts) (*model.Model, error) {
	C0, C := len(m.Classes), len(result.Classes)
	cmap := make([]int, C0) // m's class -> result's, -1 if gone
	for k, name := range m.Classes {
		cmap[k] = slices.Index(result.Classes, name)
	}
	g0, g := idfOrOne(m.Vocab), idfOrOne(vocab)
	// Each class's mean weight per occurrence and unit of idf, over the
	// old vocabulary: for terms the old vocabulary lacks.
	num, den := make([]float64, C0), make([]float64, C0)
	for i, term := range m.Vocab.Terms {
		r, ok := row(base1, term)
		if !ok {
			continue
		}
		for _, x := range base1.Row(r) {
			k := slices.Index(m.Classes, base1.Classes[x.Class])
			if k < 0 {
				continue
			}
			num[k] += base[i*C0+k]
			den[k] += float64(x.Occ) * g0[i]
		}
	}
	stats := make([]float64, vocab.Len()*C)
	for j, term := range vocab.Terms {
		if i, ok := m.Vocab.Lookup(term); ok {
			for k := range C0 {
				if c := cmap[k]; c >= 0 {
					stats[j*C+c] += base[int(i)*C0+k] * g[j] / g0[i]
				}
			}
			continue
		}
		r, ok := row(base1, term)
		if !ok {
			continue
		}
		for _, x := range base1.Row(r) {
			k := slices.Index(m.Classes, base1.Classes[x.Class])
			if k < 0 || cmap[k] < 0 || den[k] == 0 {
				continue
			}
			stats[j*C+cmap[k]] += float64(x.Occ) * g[j] * num[k] / den[k]
		}
	}
	if extra != nil {
		if err := addSums(stats, vocab, result.Classes, extra, 1); err != nil {
			return nil, err
		}
	}
	classDocs := make([]float64, C)
	for c, d := range result.ClassDocs {
		classDocs[c] = float64(d)
	}
	p := m.Params
	if p.Prior == "given" && !slices.Equal(result.Classes, m.Classes) {
		return nil, fmt.Errorf("the model has given class priors (--prior) for its classes %q, and the documents change them to %q: retrain with --prior for the new classes", m.Classes, result.Classes)
	}
	st := &counts.Stats{Header: result.Header, Vocab: vocab, ClassDocs: classDocs, Stats: stats, Counted: result.Len()}
	nm, err := train.FitNBStats(m.Kind, st, p)
	if err != nil {
		return nil, err
	}
	nm.Meta = m.Meta
	nm.Meta.History = nil
	return nm, nil
}

// idfOrOne returns each term's idf under vocab's tf-idf weighting, or 1
// for the other weightings.
func idfOrOne(v *vectorize.Vocabulary) []float64 {
	g := make([]float64, v.Len())
	if v.Settings.Weighting != "tfidf" {
		for i := range g {
			g[i] = 1
		}
		return g
	}
	for i, x := range v.IDF() {
		g[i] = float64(x)
	}
	return g
}

// row returns the index of term in c (whose terms ascend).
func row(c *counts.Counts, term string) (int, bool) {
	return slices.BinarySearch(c.Terms, term)
}
