package vectorize

import (
	"testing"

	"github.com/nbtext/nbtext/internal/synth"
)

// BenchmarkTermCounterSynth measures TermCounter.Row in its steady state
// on synthetic documents (internal/synth: Zipf words over 200,000, about
// 300 a document): the term table already holds the corpus's terms, so a
// row is lookups only, most rare terms' slots cache misses. Besides MB/s
// of wall time it reports MB/cpu-s (see BenchmarkCount20Newsgroups).
func BenchmarkTermCounterSynth(b *testing.B) {
	g, err := synth.New(synth.Config{Seed: 1, Docs: 20000})
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	var size int64
	for {
		_, text, ok := g.Next()
		if !ok {
			break
		}
		texts = append(texts, string(text))
		size += int64(len(text))
	}
	tc := NewTermCounter(DefaultSettings())
	for _, t := range texts {
		tc.Row(t)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, t := range texts {
			tc.Row(t)
		}
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
}
