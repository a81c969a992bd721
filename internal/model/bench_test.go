package model

import (
	"bytes"
	"fmt"
	"io"
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

// sparseStats returns NB statistics shaped like 20 Newsgroups' (C = 20): a
// term occurs in a few classes (Zipf), with tf-idf-like sums.
func sparseStats(V, C int) (classDocs, counts []float64) {
	rng := rand.New(rand.NewPCG(uint64(V), uint64(C)))
	z := rand.NewZipf(rng, 1.5, 1, uint64(C-1))
	classDocs = make([]float64, C)
	for c := range classDocs {
		classDocs[c] = float64(500 + rng.IntN(100))
	}
	counts = make([]float64, V*C)
	for t := 0; t < V; t++ {
		for k := int(z.Uint64()) + 1; k > 0; k-- {
			counts[t*C+rng.IntN(C)] += rng.Float64() * 3
		}
	}
	return classDocs, counts
}

// BenchmarkNewNB computes the weights of each NB kind from sparse
// statistics at the 20 Newsgroups sizes (train's pruned vocabulary, and
// the full one).
func BenchmarkNewNB(b *testing.B) {
	for _, V := range []int{56_000, 130_000} {
		classDocs, counts := sparseStats(V, 20)
		vocab := nTerms(b, V)
		for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
			if kind == Bernoulli {
				continue // its counts are document counts; sparseStats are sums
			}
			b.Run(fmt.Sprintf("%s/V=%d/C=20", kind, V), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := NewNB(kind, classNames(20), vocab, Params{Alpha: 0.03, Prior: "learned"}, classDocs, counts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEncodeDecode writes and reads a multinomial model from sparse
// statistics, and a logistic regression of the same shape (dense weights),
// in memory: encoding, SHA-256, decoding and (NB) the weights.
func BenchmarkEncodeDecode(b *testing.B) {
	const V, C = 56_000, 20
	classDocs, counts := sparseStats(V, C)
	vocab := nTerms(b, V)
	nb := mustNB(b, Multinomial, classNames(C), vocab, Params{Alpha: 0.03, Prior: "learned"}, classDocs, counts)
	lr, err := NewLinear(LogReg, classNames(C), vocab, Params{C: 1}, nb.W, nb.B)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []*Model{nb, lr} {
		data := encode(b, m)
		b.Run(fmt.Sprintf("encode/%s", m.Kind), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := Encode(io.Discard, m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("decode/%s", m.Kind), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Decode(bytes.NewReader(data), "m.nbm"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
