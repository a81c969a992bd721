package pipeline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/profile"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// The corpus profile (Plan.FollowProfile) is followed alike by every
// strategy, so that a corpus gives one model whichever reads it:
//
//   - in memory, the first documents are held until the sample is full
//     (train.ProfiledFitStream), then the vocabulary is fitted with the
//     settings they choose; the class balance is read from the labels;
//   - streamed, round one of the counts (naive Bayes, centroid) or the
//     first pass (logreg, svm, nblr) holds the same first documents
//     (profiledRound) before it counts; the class balance is read from
//     round one's header, before a round two weights the rows;
//   - from counts, the counts fix the analyzer (they were counted with it)
//     and record neither the length nor the script of their documents: only
//     the class balance is followed (countsChoice).

// profileChoice returns the choice of the defaults of the plan's kind
// from the corpus profile, for settings (the kind's defaults with the
// user's flags), or nil where they do not follow it: FollowProfile off, a
// kind whose defaults do not follow it, settings fixed by a vocabulary
// file or a model to start from (--vocab, --init). Multi-label runs
// follow it too (their class balance is that of each document's first
// label), but keep the word analyzer on more than
// train.MultiLabelProfileLabels labels (r.labels, read before the
// analyzer is chosen) unless --follow-profile is given.
func (r *run) profileChoice(settings vectorize.Settings) *train.ProfileChoice {
	if !r.followsProfile() {
		return nil
	}
	fixed := anyChanged(r.changed, train.AnalyzerFlags) || r.multiLabelWords()
	pc := train.NewProfileChoice(r.Kind, settings, fixed)
	if r.MultiLabel {
		pc.ForMultiLabel()
	}
	return pc
}

// followsProfile reports whether the defaults of the plan's kind follow
// the corpus profile (profileChoice).
func (r *run) followsProfile() bool {
	return r.FollowProfile && train.ProfileFollows(r.Kind, r.MultiLabel) && r.VocabFile == "" && r.Init == ""
}

// multiLabelWords reports whether the profile leaves the analyzer alone:
// a multi-label run without --follow-profile given whose kind and labels
// (r.labels) keep words (train.MultiLabelFollowsAnalyzer), in train and
// in its search (search.ProfileDefaultsMultiLabel) alike.
func (r *run) multiLabelWords() bool {
	return r.MultiLabel && !r.changed("follow-profile") && !train.MultiLabelFollowsAnalyzer(r.Kind, r.labels)
}

// labelsChooseAnalyzer reports whether the number of labels of a
// multi-label corpus decides its analyzer (multiLabelWords): the profile
// may choose it, no flag has, and the kind follows it on few enough
// labels. Otherwise the corpus need not be read before it is tokenized.
func (r *run) labelsChooseAnalyzer() bool {
	return r.MultiLabel && r.followsProfile() &&
		!anyChanged(r.changed, train.AnalyzerFlags) && !r.changed("follow-profile") &&
		train.MultiLabelFollowsAnalyzer(r.Kind, train.MultiLabelProfileLabels)
}

// anyChanged reports whether changed holds for one of names.
func anyChanged(changed func(string) bool, names []string) bool {
	for _, name := range names {
		if changed(name) {
			return true
		}
	}
	return false
}

// countsChoice returns the choice of the defaults of a fit from the counts
// cs, or nil where they do not follow it, and makes cs's settings follow
// it: multinomial NB on imbalanced classes fits the occurrences (count
// weighting, no norm) of counts whose weighting is the kind's default.
// Round-two counts then give their occurrences with the round's
// vocabulary, as round one would: the vocabulary's pruning, applied again
// to the terms it kept, keeps them all.
func (r *run) countsChoice(cs *counts.Counts) *train.ProfileChoice {
	if !r.FollowProfile || !train.ProfileFollows(r.Kind, false) {
		return nil
	}
	pc := train.NewCountsChoice(r.Kind, classSizes(cs.ClassDocs))
	defs, _ := train.Defaults(r.Kind)
	s := cs.Settings
	if s.Weighting != defs.Weighting || s.Norm != defs.Norm || s.Sublinear != defs.Sublinear {
		return pc // counted with a weighting of the user's
	}
	if pc.WeightingSettings(&cs.Settings, nil, r.changed) {
		cs.Vocab = "" // the occurrences, not the round's weighted sums
	}
	return pc
}

// held is a document held until the profile's sample is full, with its
// ID for the errors of counting it (as Source.Each names it).
type held struct{ id, text, label string }

// profiledRound counts the documents of src as countRound does, with the
// settings pc chooses from the profile of their first documents (pc nil:
// settings): it holds those documents (profile.SampleDocs, at most
// profile.SampleBytes of text, the sample of an in-memory run), chooses,
// then counts them and every later one. It returns the settings counted
// with.
func profiledRound(src *Source, onDoc docFunc, settings vectorize.Settings, pc *train.ProfileChoice, opt counts.Options) (*counts.Counter, vectorize.Settings, error) {
	if pc == nil {
		ctr, err := countRound(src, onDoc, settings, nil, opt)
		return ctr, settings, err
	}
	if err := settings.Validate(); err != nil {
		return nil, settings, usage(err)
	}
	var (
		ctr     *counts.Counter
		sampler profile.Sampler
		hold    []held
	)
	start := func() error {
		settings = pc.Settings(sampler.Profile())
		var err error
		if ctr, err = counts.NewCounter(settings, nil, opt); err != nil {
			return usage(err)
		}
		for _, d := range hold {
			if err := ctr.Add(d.text, d.label); err != nil {
				if errors.Is(err, counts.ErrClasses) {
					return fmt.Errorf("%s: %w", d.id, err)
				}
				return err
			}
		}
		hold = nil
		return nil
	}
	var id string // of the document being added
	see := func(d corpus.Document) error {
		if ctr == nil {
			id = d.ID
		}
		if onDoc != nil {
			return onDoc(d)
		}
		return nil
	}
	add := func(text, label string) error {
		if ctr != nil {
			return ctr.Add(text, label)
		}
		sampler.Add(text)
		// The reader reuses the strings after the call.
		hold = append(hold, held{strings.Clone(id), strings.Clone(text), strings.Clone(label)})
		if sampler.Full() {
			return start()
		}
		return nil
	}
	err := src.Each(see, add)
	if err == nil && ctr == nil {
		err = start()
	}
	if err != nil {
		if ctr != nil {
			ctr.Close()
		}
		return nil, settings, err
	}
	return ctr, settings, nil
}

// ProfileDefaults makes the defaults of kind follow the corpus profile of
// texts (labels y of nClasses classes) for a command that holds the corpus
// and fits it several times, as train would fit it once: eval --cv, and
// each default candidate of --auto and compare, so that their figures
// describe the model train fits. settings are the kind's defaults with the
// user's flags applied, p its parameters resolved; changed says whether
// the user set a flag (which the profile then leaves alone; nil: none). It
// profiles the first texts as train does, sets the analyzer, multinomial's
// weighting and Bernoulli's α in settings and p, records the choice in
// p.Profile, and returns it (nil where kind's defaults do not follow the
// profile). It is train.ChooseDefaults.
func ProfileDefaults(kind model.Kind, settings *vectorize.Settings, p *model.Params, texts []string, y []int, nClasses int, changed func(string) bool) *train.ProfileChoice {
	return train.ChooseDefaults(kind, settings, p, texts, y, nClasses, changed)
}
