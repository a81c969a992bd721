package train

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// synthetic is a seeded toy corpus: each class prefers its own block of
// terms, and a fraction of every document is uniform noise over all terms.
type synthetic struct {
	X       *vectorize.Matrix // counts
	Y       []int
	Texts   []string // the same documents as words "w0000 w0017 ..."
	Classes []string
	Vocab   *vectorize.Vocabulary
}

// makeSynthetic draws n documents of 20-40 tokens over v terms in c
// balanced classes; each token comes from the document's class block with
// probability signal, else uniformly from all v terms. signal = 1 makes the
// classes linearly separable.
func makeSynthetic(tb testing.TB, n, v, c int, signal float64, seed uint64) *synthetic {
	return makeSkewed(tb, n, v, c, 0, signal, seed)
}

// makeSkewed is makeSynthetic with skew+1 times as many documents in class
// 0 as in each other class.
func makeSkewed(tb testing.TB, n, v, c, skew int, signal float64, seed uint64) *synthetic {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	s := &synthetic{X: &vectorize.Matrix{Indptr: []int{0}, Cols: v}}
	for k := range c {
		s.Classes = append(s.Classes, fmt.Sprintf("class%02d", k))
	}
	terms := make([]string, v)
	for t := range terms {
		terms[t] = fmt.Sprintf("w%04d", t)
	}
	df := make([]int32, v)
	cf := make([]int64, v)
	block := v / c
	counts := map[int32]float32{}
	for i := range n {
		y := max(0, i%(c+skew)-skew)
		s.Y = append(s.Y, y)
		clear(counts)
		var words []string
		for range 20 + rng.IntN(21) {
			var t int
			if rng.Float64() < signal {
				t = y*block + rng.IntN(block)
			} else {
				t = rng.IntN(v)
			}
			counts[int32(t)]++
			words = append(words, terms[t])
		}
		s.Texts = append(s.Texts, strings.Join(words, " "))
		ids := make([]int32, 0, len(counts))
		for t := range counts {
			ids = append(ids, t)
		}
		slices.Sort(ids)
		for _, t := range ids {
			s.X.Indices = append(s.X.Indices, t)
			s.X.Values = append(s.X.Values, counts[t])
			df[t]++
			cf[t] += int64(counts[t])
		}
		s.X.Indptr = append(s.X.Indptr, len(s.X.Indices))
	}
	set := vectorize.DefaultSettings()
	var err error
	s.Vocab, err = vectorize.NewVocabulary(set, terms, df, cf, n)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// weighted returns a copy of the synthetic counts weighted by settings w
// (e.g. "tfidf" with l2 norm), with a vocabulary carrying those settings.
func (s *synthetic) weighted(tb testing.TB, weighting string, sublinear bool, norm string) (*vectorize.Matrix, *vectorize.Vocabulary) {
	tb.Helper()
	set := s.Vocab.Settings
	set.Weighting, set.Sublinear, set.Norm = weighting, sublinear, norm
	vocab, err := vectorize.NewVocabulary(set, s.Vocab.Terms, s.Vocab.DF, s.Vocab.CF, s.Vocab.NDocs)
	if err != nil {
		tb.Fatal(err)
	}
	X := &vectorize.Matrix{
		Indptr:  slices.Clone(s.X.Indptr),
		Indices: slices.Clone(s.X.Indices),
		Values:  slices.Clone(s.X.Values),
		Cols:    s.X.Cols,
	}
	vocab.Weight(X)
	return X, vocab
}
