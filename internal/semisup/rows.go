package semisup

import (
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Unlabeled writes unlabelled documents, tokenized and weighted over a
// vocabulary, to a row cache on disk (train.RowCache): the Rows FitEM
// reads once per iteration, so that memory does not grow with their
// number. Add every document, then read; Close removes the cache.
type Unlabeled struct {
	vocab *vectorize.Vocabulary
	z     *vectorize.Vectorizer
	rc    *train.RowCache
}

// NewUnlabeled returns an empty Unlabeled over vocab whose cache lives in
// dir ("" means os.TempDir).
func NewUnlabeled(vocab *vectorize.Vocabulary, dir string) (*Unlabeled, error) {
	rc, err := train.NewRowCache(dir)
	if err != nil {
		return nil, err
	}
	return &Unlabeled{vocab: vocab, z: vocab.NewVectorizer(), rc: rc}, nil
}

// Add vectorizes text over the vocabulary, weights it as the vocabulary's
// settings say and appends it. A document with no term of the vocabulary
// is kept: its posterior is the prior.
func (u *Unlabeled) Add(text string) error {
	ind, val := u.z.Vectorize(text)
	u.vocab.WeightRow(ind, val)
	return u.rc.Add(0, ind, val)
}

// Rows returns the number of documents added.
func (u *Unlabeled) Rows() int { return u.rc.Rows() }

// Each calls fn with every row, in the order added (see Rows).
func (u *Unlabeled) Each(fn func(y int, ind []int32, val []float32) error) error {
	return u.rc.Each(fn)
}

// Close closes and removes the cache.
func (u *Unlabeled) Close() error { return u.rc.Close() }
