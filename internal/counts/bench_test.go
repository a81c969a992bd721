package counts

import (
	"testing"

	"github.com/nbtext/nbtext/internal/synth"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// synthDocs returns n seeded synthetic documents (internal/synth: Zipf
// words over 200,000, 20 classes, about 300 words each) and their bytes.
func synthDocs(b *testing.B, n int) (texts, labels []string, size int64) {
	g, err := synth.New(synth.Config{Seed: 1, Docs: n})
	if err != nil {
		b.Fatal(err)
	}
	for {
		c, text, ok := g.Next()
		if !ok {
			return texts, labels, size
		}
		texts = append(texts, string(text))
		labels = append(labels, synth.Label(c))
		size += int64(len(text))
	}
}

// BenchmarkCounter measures tokenize + count throughput (MB/s of text) of
// a Counter in both rounds, on all cores.
func BenchmarkCounter(b *testing.B) {
	texts, labels, size := synthDocs(b, 5000)
	s := vectorize.DefaultSettings()
	s.StopWords = "english"
	var vocab *vectorize.Vocabulary
	for _, round := range []string{"one", "two"} {
		b.Run("round="+round, func(b *testing.B) {
			if round == "two" {
				r1 := countAll(b, s, nil, texts, labels, Options{})
				var err error
				if vocab, _, err = r1.Vocabulary(); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				countAll(b, s, vocab, texts, labels, Options{})
			}
			b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}
