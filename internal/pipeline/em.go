package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/semisup"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Unlabeled are the unlabelled documents of a semi-supervised run and the
// settings of its EM (semisup.FitEM).
type Unlabeled struct {
	// Source reads the unlabelled corpora (labels ignored); Rest adds the
	// documents PerClass leaves out of the sample.
	Source Source
	Rest   bool
	// Weight is λ, the weight of an unlabelled document; WeightAuto
	// chooses it by cross-validation (semisup.ChooseWeight).
	Weight     float64
	WeightAuto bool
	MaxIter    int
	Tol        float64
	// AlphaGiven and BetaGiven say that the user set α and β, which
	// otherwise take EM's defaults (semisup.Defaults).
	AlphaGiven, BetaGiven bool
}

// em is the semi-supervised run: the labelled corpus (or its PerClass
// sample) in memory; a vocabulary counted over the labelled and the
// unlabelled documents (or read from a vocabulary file); the unlabelled
// documents streamed a second time into a row cache on disk
// (semisup.Unlabeled); then semisup.FitEM, with λ chosen by
// semisup.ChooseWeight when WeightAuto.
func (r *run) em() error {
	u := r.Unlabeled
	kind := r.Kind
	settings, defs := semisup.Defaults(kind)
	src := r.Source
	var vocab *vectorize.Vocabulary
	var err error
	if r.VocabFile != "" {
		if vocab, err = ReadVocabFile(r.VocabFile); err != nil {
			return err
		}
		if settings, src, err = r.fixedSettings(vocab.Settings); err != nil {
			return err
		}
		settings.Remove = src.Options.Remove.String()
	} else if settings, err = r.settings(settings); err != nil {
		return err
	}
	if vocab == nil && settings.Select != "" {
		return usagef("--select chooses terms by their labels, which unlabelled documents lack: drop it with --unlabeled, or give --vocab")
	}
	c, err := src.Load()
	if err != nil {
		return err
	}
	rest := r.sample(c)
	if !u.Rest {
		rest = nil
	}
	usrc := u.Source
	usrc.Options.Remove = src.Options.Remove
	// each calls fn with the text of every unlabelled document: those
	// left out of the sample, then the unlabelled corpora, streamed.
	each := func(fn func(text string) error) error {
		for _, d := range rest {
			if err := fn(d.Text); err != nil {
				return err
			}
		}
		if len(usrc.Paths) == 0 {
			return nil
		}
		return usrc.Each(nil, func(text, _ string) error { return fn(text) })
	}
	fromUnlabeled := vocab == nil
	if vocab == nil {
		if vocab, err = emVocabulary(c, settings, r.Workers, each); err != nil {
			return err
		}
	}
	y := c.LabelIDs()
	X := train.PrepareWith(vocab, c.Texts(), r.Workers)
	U, err := semisup.NewUnlabeled(vocab, "")
	if err != nil {
		return err
	}
	defer U.Close()
	if err := each(U.Add); err != nil {
		return err
	}
	if U.Rows() == 0 {
		return fmt.Errorf("--unlabeled: no unlabelled documents in %s", strings.Join(usrc.Paths, ", "))
	}
	r.note("nbtext: %d labelled and %d unlabelled documents, vocabulary of %d terms", len(c.Docs), U.Rows(), vocab.Len())
	p, auto, err := r.params(c.Labels, train.ClassSizes(y, len(c.Labels)))
	if err != nil {
		return err
	}
	if !auto && !u.AlphaGiven {
		p.Alpha = defs.Alpha // (the same for bernoulli)
	}
	if kind == model.Bernoulli && !u.BetaGiven && !u.AlphaGiven {
		p.Beta = defs.Beta
	}
	if auto {
		t, err := train.TuneMatrix(kind, X, y, c.Labels, vocab, p, train.TuneOptions{
			Folds: r.Folds, Seed: uint64(p.Seed), Fit: train.Options{Workers: r.Workers},
			Progress: r.progress("cross-validating α"),
		})
		if err != nil {
			return err
		}
		r.rep.Tuning = t
		p = t.Apply(p)
	}
	opt := semisup.Options{MaxIter: u.MaxIter, Tol: u.Tol}
	var lab *semisup.Labelled // λ = 0: the labelled documents over their own vocabulary
	if fromUnlabeled {
		lab = &semisup.Labelled{Texts: c.Texts(), Settings: settings, Workers: r.Workers}
	}
	lambda := u.Weight
	if u.WeightAuto {
		ch, err := semisup.ChooseWeight(kind, X, y, c.Labels, vocab, p, U, opt, r.Folds, uint64(p.Seed), nil, lab, r.Workers,
			r.progress("cross-validating λ"))
		if err != nil {
			return err
		}
		r.rep.WeightChoice = ch
		lambda = ch.Weight()
	}
	opt.Weight = lambda
	if lambda == 0 && lab != nil {
		m, Xl, err := lab.Fit(kind, nil, y, c.Labels, p)
		if err != nil {
			return err
		}
		m.Params.EM = &model.EM{Unlabeled: U.Rows(), WeightAuto: u.WeightAuto, MaxIterations: opt.MaxIter, Tol: opt.Tol, LogLikelihood: []float64{}}
		if u.WeightAuto {
			m.Params.EM.WeightGrid = slices.Clone(semisup.DefaultWeightGrid)
		}
		r.note("nbtext: λ = 0: naive bayes on the labelled documents alone, over their own vocabulary")
		return r.saveFitted(m, Xl, nil, y, len(c.Docs), m.Params, nil)
	}
	opt.Progress = r.progress("EM")
	opt.Iteration = func(it semisup.Iteration) {
		r.note("nbtext: EM iteration %d: log-likelihood %.8g (relative change %.3g)", it.N, it.LogLik, it.Change)
	}
	res, err := semisup.FitEM(kind, X, y, c.Labels, vocab, p, U, opt)
	if err != nil {
		return err
	}
	m := res.Model
	m.Params.EM.WeightAuto = u.WeightAuto
	if u.WeightAuto {
		m.Params.EM.WeightGrid = slices.Clone(semisup.DefaultWeightGrid)
	}
	m.Params.EM.VocabularyFromUnlabeled = fromUnlabeled
	return r.saveFitted(m, X, nil, y, len(c.Docs), m.Params, nil)
}

// emVocabulary counts a vocabulary with settings over the labelled
// documents of c and the unlabelled documents each gives (Nigam et al.
// fit theirs on all documents): a term seen only in unlabelled documents
// gets its class weights from EM. The count streams, its tables bounded
// as a streamed run's (membudget.CountTables).
func emVocabulary(c *corpus.Corpus, settings vectorize.Settings, workers int, each func(fn func(text string) error) error) (*vectorize.Vocabulary, error) {
	ctr, err := counts.NewCounter(settings, nil, counts.Options{Workers: workers, VocabOnly: true, Mem: membudget.CountTables()})
	if err != nil {
		return nil, usage(err)
	}
	defer ctr.Close()
	for _, d := range c.Docs {
		if err := ctr.Add(d.Text, d.Label); err != nil {
			return nil, err
		}
	}
	if err := each(func(text string) error { return ctr.Add(text, "") }); err != nil {
		return nil, err
	}
	vocab, _, err := ctr.Vocabulary()
	return vocab, err
}
