package pipeline

import (
	"errors"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// VocabCount is the vocabulary CountVocabulary counted, with the
// documents and classes it saw and the sorted runs its tables spilled.
type VocabCount struct {
	Vocab               *vectorize.Vocabulary
	Docs, Classes, Runs int
}

// CountVocabulary counts the documents of src as 'nbtext count' does (a
// counts.Counter that pools the classes: nothing is kept per document, and
// past half of opt.Mem the tables spill to sorted runs on disk, in
// opt.TempDir) and returns the vocabulary that settings prune from the
// counts. It is the vocabulary an in-memory fit of the same documents
// gives (vectorize.Fit). With softMinDF, a default min_df that keeps no
// term is relaxed to 1, with a call of warn, when the corpus can be read
// again (not stdin).
func CountVocabulary(src *Source, settings vectorize.Settings, opt counts.Options, softMinDF bool, warn func(minDF int)) (*VocabCount, error) {
	opt.VocabOnly = true
	count := func(settings vectorize.Settings) (*VocabCount, error) {
		ctr, err := counts.NewCounter(settings, nil, opt)
		if err != nil {
			return nil, usage(err)
		}
		defer ctr.Close()
		_, docs, err := src.Count(ctr, 1, 1)
		if err != nil {
			return nil, err
		}
		if docs == 0 {
			return nil, errors.New("no training documents")
		}
		v, h, err := ctr.Vocabulary()
		if err != nil {
			return nil, err
		}
		return &VocabCount{Vocab: v, Docs: docs, Classes: len(h.Classes), Runs: ctr.Runs()}, nil
	}
	vc, err := count(settings)
	if errors.Is(err, vectorize.ErrPrunedAll) && softMinDF && settings.MinDF > 1 && !src.readsStdin() {
		if warn != nil {
			warn(settings.MinDF)
		}
		settings.MinDF = 1
		vc, err = count(settings)
	}
	return vc, err
}
