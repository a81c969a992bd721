package vectorize_test

import (
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// BenchmarkFitHashed20Newsgroups is BenchmarkFit20Newsgroups with
// --hash-bits 18: the cost of hashing each term and keeping its bucket's
// names.
func BenchmarkFitHashed20Newsgroups(b *testing.B) {
	texts := trainTexts(b).Texts()
	s := vectorize.DefaultSettings()
	s.HashBits = 18
	b.SetBytes(corpusBytes(texts))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := vectorize.Fit(texts, nil, 0, s, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkVectorizeHashed20Newsgroups is BenchmarkVectorize20Newsgroups
// with --hash-bits 18: the predict path of a hashed model.
func BenchmarkVectorizeHashed20Newsgroups(b *testing.B) { benchVectorize(b, 18) }

// BenchmarkHashTerm measures the term hash on a typical word.
func BenchmarkHashTerm(b *testing.B) {
	var sink uint64
	for b.Loop() {
		sink += vectorize.HashTerm("encryption")
	}
	_ = sink
}
