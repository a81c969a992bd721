package eval

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Tokenized is a set of labelled documents tokenized once, for fitting and
// scoring many configurations that share its tokenization (SameTokenization)
// on train/held-out splits of it: the search behind 'train --auto' and
// cross-validation. Split refits the vocabulary on a split's training rows
// by restriction (see restrict.go), so it costs a pass over those rows, not
// a tokenization. A Tokenized is safe for concurrent use.
type Tokenized struct {
	tk       *tokenized
	y        []int
	nClasses int
	minDF    int       // the terms kept are in at least minDF documents
	scratch  sync.Pool // *scratch over the full vocabulary
}

// Tokenize tokenizes texts (label ids y, with nClasses classes) with the
// tokenizer of s on workers goroutines (0: GOMAXPROCS). It keeps only the
// terms in at least s.MinDF of texts (all when s.MinDF ≤ 1): no split can
// keep the others with a min_df of s.MinDF or more, since a split counts
// its document frequencies over fewer documents, so Split gives the same
// result for such settings while the rare n-grams, most of them, take no
// memory. Split refuses settings with a lower MinDF.
func Tokenize(texts []string, y []int, nClasses int, s vectorize.Settings, workers int) (*Tokenized, error) {
	if len(y) != len(texts) {
		return nil, fmt.Errorf("%d labels for %d documents", len(y), len(texts))
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	base := baseSettings(s)
	base.MinDF = max(s.MinDF, 1)
	v, X, err := vectorize.Fit(texts, nil, 0, base, workers, nil)
	if err != nil {
		return nil, err
	}
	tk := &tokenized{terms: v.Terms, X: X}
	t := &Tokenized{tk: tk, y: y, nClasses: nClasses, minDF: base.MinDF}
	t.scratch.New = func() any { return newScratch(len(tk.terms)) }
	return t, nil
}

// SameTokenization reports whether settings a and b tokenize alike, so that
// one Tokenized serves both.
func SameTokenization(a, b vectorize.Settings) bool { return baseSettings(a) == baseSettings(b) }

// Split returns what fitting settings s on the documents train would give
// (the vocabulary vectorize.Fit would build from them, and their rows,
// weighted as s says) and the rows of the documents held over that
// vocabulary, weighted alike: what train.Prepare on the training texts and
// train.PrepareWith on the held-out ones would return. s must tokenize as
// the settings t was built with, with a MinDF at least theirs.
func (t *Tokenized) Split(train, held []int, s vectorize.Settings) (*vectorize.Vocabulary, *vectorize.Matrix, *vectorize.Matrix, error) {
	if s.MinDF < t.minDF {
		return nil, nil, nil, fmt.Errorf("min_df %d: the documents were tokenized keeping only the terms of min_df %d", s.MinDF, t.minDF)
	}
	sc := t.scratch.Get().(*scratch)
	defer t.scratch.Put(sc)
	return t.tk.split(train, held, t.y, t.nClasses, s, sc)
}

// split is Split with the caller's scratch.
func (tk *tokenized) split(train, held, y []int, nClasses int, s vectorize.Settings, sc *scratch) (*vectorize.Vocabulary, *vectorize.Matrix, *vectorize.Matrix, error) {
	rs, err := tk.restrict(train, y, nClasses, s, sc)
	if err != nil {
		return nil, nil, nil, err
	}
	return rs.vocab, rs.apply(tk.X, train), rs.apply(tk.X, held), nil
}
