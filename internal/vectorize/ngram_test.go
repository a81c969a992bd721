package vectorize

import (
	"fmt"
	"strings"
	"testing"
)

// TestFitNGramsMatchTerms checks the n-gram path of Fit (n-grams counted
// by id pairs, their text built once) against a plain count of the terms
// Tokenizer.Terms lists, per document: ranges that start at 1, 2 and 3,
// stop words, and header field terms.
func TestFitNGramsMatchTerms(t *testing.T) {
	texts := synthText(21, 300, 40)
	texts = append(texts, "Subject: the big cat\nFrom: a b\n\nthe big cat sat on the big mat", "", "x", "aa", "aa bb aa bb aa bb")
	for _, c := range []struct{ nmin, nmax int }{{1, 2}, {2, 2}, {1, 3}, {2, 3}, {3, 4}} {
		for _, stop := range []string{"", "english"} {
			s := DefaultSettings()
			s.NGramMin, s.NGramMax, s.StopWords, s.Fields = c.nmin, c.nmax, stop, "subject"
			t.Run(fmt.Sprintf("ngram=%d,%d/stop=%q", c.nmin, c.nmax, stop), func(t *testing.T) {
				for _, workers := range []int{1, 3} {
					v, m, err := Fit(texts, nil, 0, s, workers, nil)
					if err != nil {
						t.Fatal(err)
					}
					tok := NewTokenizer(s)
					df := map[string]int32{}
					for i, text := range texts {
						want := map[string]float32{}
						for _, term := range tok.Terms(text) {
							want[strings.Clone(term)]++
						}
						for term := range want {
							df[term]++
						}
						got := row(v, m, i)
						if len(got) != len(want) {
							t.Fatalf("workers %d, document %d: %d terms, want %d", workers, i, len(got), len(want))
						}
						for term, n := range want {
							if got[term] != n {
								t.Fatalf("workers %d, document %d: %q counted %g, want %g", workers, i, term, got[term], n)
							}
						}
					}
					if v.Len() != len(df) {
						t.Fatalf("workers %d: %d terms, want %d", workers, v.Len(), len(df))
					}
					for id, term := range v.Terms {
						if v.DF[id] != df[term] {
							t.Fatalf("workers %d: %q df %d, want %d", workers, term, v.DF[id], df[term])
						}
					}
				}
			})
		}
	}
}
