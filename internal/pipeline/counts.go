package pipeline

import (
	"errors"
	"fmt"
	"time"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitsCounts reports whether a model of kind is fitted from counts: the
// naive bayes models, and centroid, whose class sums are multinomial NB's
// statistics (train.FitCentroidStats).
func FitsCounts(kind model.Kind) bool { return kind.IsNB() || kind == model.Centroid }

// fromCounts is the run of FromCounts: an NB or centroid model fitted
// from merged counts (train.FitNBStats).
func (r *run) fromCounts() error {
	kind := r.Kind
	if !FitsCounts(kind) {
		return usagef("--from-counts fits naive bayes models (bernoulli, multinomial, complement) and centroid, not %s", kind)
	}
	cs, err := counts.ReadFile(r.FromCounts)
	if err != nil {
		return err
	}
	if r.ExpectShards > 0 {
		if err := cs.CheckShards(r.ExpectShards); err != nil {
			return fmt.Errorf("%s: %w", r.FromCounts, err)
		}
	}
	if err := r.fitCountsFile(cs); err != nil {
		return fmt.Errorf("%s: %w", r.FromCounts, err)
	}
	return nil
}

// fitCountsFile fits the plan's kind from the counts of a file, cs, as
// train --from-counts does: the profile's class-balance rule, Params.
func (r *run) fitCountsFile(cs *counts.Counts) error {
	pc := r.countsChoice(cs)
	stats := func() (*counts.Stats, error) { return cs.Stats(r.Kind == model.Bernoulli) }
	return r.fitCounts(cs.Classes, stats, nil, pc, "counts do not hold")
}

// FitCounts is the run from counts (Run with FromCounts) on counts cs
// read already, returning the model, with the plan's Meta, instead of
// writing it: for a caller that writes it elsewhere (the Beam module, to
// a remote file), so that its model is train --from-counts's. Output,
// FromCounts and ExpectShards are not used.
func FitCounts(p *Plan, cs *counts.Counts) (*model.Model, error) {
	if !FitsCounts(p.Kind) {
		return nil, usagef("--from-counts fits naive bayes models (bernoulli, multinomial, complement) and centroid, not %s", p.Kind)
	}
	r := &run{Plan: p, start: time.Now(), rep: &Report{Strategy: FromCounts}, keep: true}
	if err := r.fitCountsFile(cs); err != nil {
		return nil, err
	}
	return r.rep.Model, nil
}

// fitCounts fits an NB or centroid model from the statistics that stats
// returns (of counts of classes), and the record fields of fields when
// not nil (mixed naive Bayes), saves it and fills the report; pc, when
// not nil, is the choice of the defaults the fit follows. why says why
// --alpha auto cannot be (what does not keep the documents).
func (r *run) fitCounts(classes []string, stats func() (*counts.Stats, error), fields *train.FieldSpool, pc *train.ProfileChoice, why string) error {
	kind := r.Kind
	p, auto, err := r.params(classes, nil)
	if err != nil {
		return err
	}
	if auto {
		return usagef("--alpha auto cross-validates on documents, which %s: give --alpha", why)
	}
	st, err := stats()
	if err != nil {
		return err
	}
	if pc != nil {
		pc.Classes(classSizes(st.Header.ClassDocs))
		pc.Params(&p, r.changed)
		p.Profile = pc.Note()
	}
	// --class-weight balanced needs the class sizes: the documents the
	// counts' header records.
	if p.ClassWeights, err = train.ClassWeights(p.ClassWeight, classes, classSizes(st.Header.ClassDocs)); err != nil {
		return usage(err)
	}
	var m *model.Model
	if kind == model.Centroid {
		m, err = train.FitCentroidStats(st, p)
	} else {
		m, err = train.FitNBStats(kind, st, p)
	}
	if err != nil {
		return err
	}
	if fields != nil { // mixed naive Bayes, as train.FitWithFields fits it
		f, err := train.FitFieldsStream(fields, m.Classes, m.Params)
		if err != nil {
			return err
		}
		if err := train.SetMixedFields(m, f); err != nil {
			return err
		}
	}
	m.Meta = model.Meta{}
	// A streamed model records the names its corpus gave its label and
	// text, as one fitted in memory does; counts do not know them.
	if err := r.save(m, r.FromCounts == ""); err != nil {
		return err
	}
	r.rep.Model, r.rep.Documents, r.rep.Params, r.rep.Counted = m, int(st.Documents()), p, st.Counted
	return nil
}

// classSizes returns the documents of each class of counts as the class
// sizes of train.ClassWeights.
func classSizes(classDocs []int64) []int {
	n := make([]int, len(classDocs))
	for c, d := range classDocs {
		n[c] = int(d)
	}
	return n
}

// streamNB is the streamed run of an NB or centroid model: counted in
// bounded memory, in-process, as count, merge and train --from-counts
// would: one pass over the corpus; the weightings that need the document
// frequencies of the whole corpus count their second round from a row
// cache written during the first (streamCounts).
func (r *run) streamNB() error {
	kind := r.Kind
	if kind == model.Categorical || kind == model.Gaussian {
		return r.streamRecords()
	}
	if !FitsCounts(kind) {
		return usagef("--stream trains naive bayes models (bernoulli, multinomial, complement, categorical, gaussian), centroid, logreg, svm and nblr, not %s: train it without --stream", kind)
	}
	if _, err := LoadInit(r.Init, kind, nil, ""); err != nil {
		return err
	}
	src := r.Source
	// Mixed naive Bayes: the record fields go to a spool on disk as the
	// text is counted.
	fields, onDoc, err := r.spoolFields()
	if err != nil {
		return err
	}
	if fields != nil {
		defer fields.Close()
	}
	if r.VocabFile != "" {
		// The vocabulary file gives the vocabulary and document
		// frequencies: one round, counted over it.
		vocab, err := ReadVocabFile(r.VocabFile)
		if err != nil {
			return err
		}
		if _, src, err = r.fixedSettings(vocab.Settings); err != nil {
			return err
		}
		ctr, err := countRound(&src, onDoc, vocab.Settings, vocab, counts.Options{Workers: r.Workers})
		if err != nil {
			return err
		}
		defer ctr.Close()
		return r.fitCounter(ctr, fields, nil)
	}
	defs, _ := train.Defaults(kind)
	settings, err := r.settings(defs)
	if err != nil {
		return err
	}
	opt := counts.Options{Workers: r.Workers}
	if settings.HashBits > 0 {
		// The terms that name the buckets grow with the corpus: bound
		// them as logreg's first pass does (spilled, they let the terms
		// go; counts.Options.Replay). Unhashed, the tables and the
		// model grow with the vocabulary: past the term tables' budget
		// the count falls back to hashing (boundTerms, hashFallback).
		opt.Mem = membudget.CountTables()
	} else {
		boundTerms(&opt)
	}
	runs := 0
	count := func() error {
		pc := r.profileChoice(settings)
		ctr, n, err := r.streamCounts(&src, onDoc, settings, pc, opt)
		if err != nil {
			return err
		}
		defer ctr.Close()
		runs = n
		return r.fitCounter(ctr, fields, pc)
	}
	err = count()
	if full := tableFull(err); full != nil {
		if settings, opt, err = r.hashFallback(&src, fields != nil, settings, full); err == nil {
			err = count()
		}
	}
	if errors.Is(err, vectorize.ErrPrunedAll) && r.SoftMinDF && settings.MinDF > 1 && fields == nil && !src.readsStdin() {
		// As the in-memory run relaxes a default min_df that keeps no
		// term (a corpus of numbers, of unique ids): count again with
		// min_df 1. Stdin cannot be read twice, nor the spooled fields.
		r.warn("nbtext: the default --min-df %d would keep no term of these documents: using --min-df 1", settings.MinDF)
		settings.MinDF = 1
		err = count()
	}
	if err != nil {
		return err
	}
	r.rep.Runs, r.rep.RunsBound = runs, opt.Mem
	return nil
}

// fitCounter fits the model from the statistics of the streamed count
// ctr, and the record fields of fields when not nil, following the choice
// pc when not nil (fitCounts).
func (r *run) fitCounter(ctr *counts.Counter, fields *train.FieldSpool, pc *train.ProfileChoice) error {
	st, err := ctr.Stats(r.Kind == model.Bernoulli)
	if err != nil {
		return err
	}
	stats := func() (*counts.Stats, error) { return st, nil }
	return r.fitCounts(st.Classes, stats, fields, pc, "--stream does not keep")
}

// streamCounts counts the documents of src for a model with settings, in
// one pass: the returned Counter holds round one, or when the weighting
// NeedsVocab, round two, counted from round one's row cache on disk over
// the vocabulary of round one (so stdin needs no spooling). With pc, the
// settings follow the corpus profile (profiledRound), and the weighting
// its class balance, read from round one, before round two weights the
// rows (a weighting that then needs no vocabulary is summed in round two
// all the same, to the same bits). It also returns the runs round one
// spilled under opt.Mem.
func (r *run) streamCounts(src *Source, onDoc docFunc, settings vectorize.Settings, pc *train.ProfileChoice, opt counts.Options) (*counts.Counter, int, error) {
	if !counts.NeedsVocab(settings) {
		ctr, _, err := profiledRound(src, onDoc, settings, pc, opt)
		if err != nil {
			return nil, 0, err
		}
		return ctr, ctr.Runs(), nil
	}
	opt.Replay, opt.VocabOnly = true, true // round one gives the vocabulary only
	r1, _, err := profiledRound(src, onDoc, settings, pc, opt)
	if err != nil {
		return nil, 0, err
	}
	defer r1.Close()
	vocab, h, err := r1.Vocabulary()
	if err != nil {
		return nil, 0, err
	}
	pc.Weighting(vocab, classSizes(h.ClassDocs), r.changed)
	ctr, err := r1.RoundTwo(vocab)
	return ctr, r1.Runs(), err
}

// CountRound counts the documents of src with settings (over vocab, for
// a round two) in a new Counter and returns it, to be read (Stats,
// Vocabulary, Counts) and closed.
func CountRound(src *Source, settings vectorize.Settings, vocab *vectorize.Vocabulary, opt counts.Options) (*counts.Counter, error) {
	return countRound(src, nil, settings, vocab, opt)
}

func countRound(src *Source, onDoc docFunc, settings vectorize.Settings, vocab *vectorize.Vocabulary, opt counts.Options) (*counts.Counter, error) {
	ctr, err := counts.NewCounter(settings, vocab, opt)
	if err != nil {
		return nil, usage(err)
	}
	if err := src.Each(onDoc, ctr.Add); err != nil {
		ctr.Close()
		return nil, err
	}
	return ctr, nil
}
