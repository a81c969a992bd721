package pipeline

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/update"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Updated is the result of an update of counts (Update).
type Updated struct {
	Model *model.Model
	// Counts are the new model's counts: the old plus (or minus) the
	// documents'.
	Counts *counts.Counts
	// Old and Delta are the documents of the old counts and of the
	// corpus.
	Old, Delta int64
	// Approx says the update was approximate (tf-idf, the l2 norm).
	Approx bool
}

// Update adds the documents of src to the model m, whose counts are old
// (read from countsName), or with forget removes them (update.Add,
// update.Remove; update.AddApprox and update.RemoveApprox for the
// weightings that make it approximate). src is read with m's --remove
// setting; srcName names it in errors.
func Update(m *model.Model, old *counts.Counts, src Source, forget bool, countsName, srcName string, opt update.Options, workers int) (*Updated, error) {
	approx := update.Exact(m) != nil && update.Approximate(m) == nil
	src, err := src.withRemove(m.Vocab.Settings.Remove)
	if err != nil {
		return nil, err
	}
	ctr, err := CountRound(&src, m.Vocab.Settings, nil, counts.Options{Workers: workers, Replay: approx})
	if err != nil {
		return nil, err
	}
	defer ctr.Close()
	delta, err := ctr.Counts()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", srcName, err)
	}
	if len(delta.Classes) == 0 {
		return nil, fmt.Errorf("%s: no documents", srcName)
	}
	roundTwo := func(v *vectorize.Vocabulary) (*counts.Counts, error) {
		c2, err := ctr.RoundTwo(v)
		if err != nil {
			return nil, err
		}
		defer c2.Close()
		return c2.Counts()
	}
	var (
		nm     *model.Model
		merged *counts.Counts
	)
	switch {
	case approx && forget:
		nm, merged, err = update.RemoveApprox(m, old, delta, roundTwo, countsName, srcName, opt)
	case approx:
		nm, merged, err = update.AddApprox(m, old, delta, roundTwo, countsName, srcName, opt)
	case forget:
		nm, merged, err = update.Remove(m, old, delta, countsName, srcName, opt)
	default:
		nm, merged, err = update.Add(m, old, delta, countsName, srcName, opt)
	}
	if err != nil {
		return nil, err
	}
	return &Updated{Model: nm, Counts: merged, Old: old.Documents(), Delta: delta.Documents(), Approx: approx}, nil
}

// UpdateLinear is the update of a linear model m (logreg, svm, nblr): a
// warm start on the documents of src and, when not nil, of replay, a
// sample of old documents (update.Linear), read with m's --remove
// setting. It returns the model and the documents of src and of replay.
func UpdateLinear(m *model.Model, src Source, replay *Source, epochs, workers int, srcName string, opt update.Options) (nm *model.Model, n, replayed int, err error) {
	var texts, labels []string
	read := func(s Source) error {
		s, err := s.withRemove(m.Vocab.Settings.Remove)
		if err != nil {
			return err
		}
		c, err := s.Load()
		if err != nil {
			return err
		}
		for _, d := range c.Docs {
			texts, labels = append(texts, d.Text), append(labels, d.Label)
		}
		return nil
	}
	if err := read(src); err != nil {
		return nil, 0, 0, err
	}
	n = len(texts)
	if replay != nil {
		if err := read(*replay); err != nil {
			return nil, 0, 0, err
		}
	}
	nm, err = update.Linear(m, texts, labels, n, epochs, workers, srcName, opt)
	return nm, n, len(texts) - n, err
}
