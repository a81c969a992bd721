package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// benchModel returns a Bernoulli model with V terms and C classes fitted
// on random counts, and nDocs random documents of n distinct terms.
func benchModel(b *testing.B, kind Kind, V, C, n, nDocs int) (*Model, []doc) {
	rng := rand.New(rand.NewPCG(uint64(V), uint64(n)))
	classDocs := make([]float64, C)
	for c := range classDocs {
		classDocs[c] = float64(500 + rng.IntN(100))
	}
	counts := make([]float64, V*C)
	for i := range counts {
		counts[i] = float64(rng.IntN(int(classDocs[i%C]) / 10))
	}
	m := mustNB(b, kind, classNames(C), nTerms(b, V), Params{Alpha: 1, Beta: 1}, classDocs, counts)
	docs := make([]doc, nDocs)
	for i := range docs {
		seen := make(map[int32]bool, n)
		var d doc
		for len(d.ind) < n {
			t := int32(rng.IntN(V))
			if !seen[t] {
				seen[t] = true
				d.ind = append(d.ind, t)
			}
		}
		slices.Sort(d.ind)
		d.val = make([]float32, n)
		for j := range d.val {
			d.val[j] = float32(1 + rng.IntN(3))
		}
		docs[i] = d
	}
	return m, docs
}

// BenchmarkBernoulliScore is the hot path of predict: the scores of C = 20
// classes for documents of 20 (a line) and 200 (a post) present terms, in
// vocabularies of 10,000 and 130,000 terms (20 Newsgroups unpruned).
func BenchmarkBernoulliScore(b *testing.B) {
	for _, V := range []int{10_000, 130_000} {
		for _, n := range []int{20, 200} {
			b.Run(fmt.Sprintf("V=%d/C=20/terms=%d", V, n), func(b *testing.B) {
				m, docs := benchModel(b, Bernoulli, V, 20, n, 1024)
				s := m.NewScorer()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					d := docs[i&1023]
					s.Scores(d.ind, d.val)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
			})
		}
	}
}

// BenchmarkPredict adds the log-softmax and the decision to the scores,
// for each kind, at the 20 Newsgroups size.
func BenchmarkPredict(b *testing.B) {
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		b.Run(fmt.Sprintf("%s/V=130000/C=20/terms=200", kind), func(b *testing.B) {
			m, docs := benchModel(b, kind, 130_000, 20, 200, 1024)
			s := m.NewScorer()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d := docs[i&1023]
				s.Predict(d.ind, d.val)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}
