package vectorize

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The benchmarks run on seeded synthetic text: Zipf-distributed words,
// some capitalised, with spaces, newlines and commas (see synthText). They
// report docs/s and MB/s; b.SetBytes gives MB/s where a benchmark
// processes text. Real-corpus counterparts are in corpus_test.go.

func textBytes(texts []string) int64 {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return int64(n)
}

func reportDocs(b *testing.B, docs int) {
	b.ReportMetric(float64(docs*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkTokenizer measures Terms on documents of 20, 300 and 5,000
// words (a predict line, a newsgroup post, a long article).
func BenchmarkTokenizer(b *testing.B) {
	for _, words := range []int{20, 300, 5000} {
		texts := synthText(11, 64, words)
		b.Run(fmt.Sprintf("words=%d", words), func(b *testing.B) {
			tok := NewTokenizer(DefaultSettings())
			b.SetBytes(textBytes(texts) / int64(len(texts)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				tok.Terms(texts[i%len(texts)])
				i++
			}
			reportDocs(b, 1)
		})
	}
}

// BenchmarkTokenizerNonASCII measures the rune path: Latin-1 accents and
// Greek in every word.
func BenchmarkTokenizerNonASCII(b *testing.B) {
	r := rand.New(rand.NewPCG(12, 0))
	words := []string{"Ñandú", "café", "ΟΔΟΣ", "naïve", "Straße", "x²", "résumé", "ÀÉÎ"}
	var sb strings.Builder
	for range 300 {
		sb.WriteString(words[r.IntN(len(words))])
		sb.WriteByte(' ')
	}
	text := sb.String()
	tok := NewTokenizer(DefaultSettings())
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		tok.Terms(text)
	}
}

// BenchmarkFit measures Fit (tokenize once, count, merge, sort, build the
// matrix) on 1,000 and 10,000 documents of 300 words, with all cores.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		texts := synthText(13, n, 300)
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			b.SetBytes(textBytes(texts))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Fit(texts, nil, 0, DefaultSettings(), 0, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportDocs(b, n)
		})
	}
}

// BenchmarkFitBigrams is BenchmarkFit with --ngram 1,2 and English stop
// words on 1,000 documents.
func BenchmarkFitBigrams(b *testing.B) {
	texts := synthText(14, 1000, 300)
	s := DefaultSettings()
	s.NGramMax = 2
	s.StopWords = "english"
	b.SetBytes(textBytes(texts))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Fit(texts, nil, 0, s, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportDocs(b, len(texts))
}

// BenchmarkVectorize measures the predict path on one core: Vectorize and
// tf-idf WeightRow of documents of 20, 300 and 5,000 words against a
// vocabulary fitted on 5,000 documents. Steady state allocates nothing.
func BenchmarkVectorize(b *testing.B) {
	s := DefaultSettings()
	s.Weighting, s.Norm = "tfidf", "l2"
	v, _, err := Fit(synthText(15, 5000, 200), nil, 0, s, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, words := range []int{20, 300, 5000} {
		texts := synthText(16, 256, words)
		b.Run(fmt.Sprintf("words=%d", words), func(b *testing.B) {
			z := v.NewVectorizer()
			for _, t := range texts {
				z.Vectorize(t)
			}
			b.SetBytes(textBytes(texts) / int64(len(texts)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				v.WeightRow(z.Vectorize(texts[i%len(texts)]))
				i++
			}
			reportDocs(b, 1)
		})
	}
}

// BenchmarkTransform measures Transform of 10,000 documents of 300 words
// with all cores.
func BenchmarkTransform(b *testing.B) {
	texts := synthText(17, 10000, 300)
	v, _, err := Fit(texts, nil, 0, DefaultSettings(), 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(textBytes(texts))
	b.ReportAllocs()
	for b.Loop() {
		v.Transform(texts, 0)
	}
	reportDocs(b, len(texts))
}
