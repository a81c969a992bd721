package train

import (
	"os"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// BenchmarkTrainCharIMDB times a training run end to end with character
// n-grams, as 'nbtext train --model svm --analyzer char_wb --char-ngram
// 1,3' does it once its input is read: Prepare (tokenize, count, prune,
// weight) then Fit, calibration included, on every fifth review of the
// IMDB train split (5,000 reviews, 6.8 MB), from NBTEXT_IMDB_TARBALL; it
// skips without it. cpu-s/op is the CPU seconds of one run, which a
// loaded machine distorts less than the wall time; "prepare" times
// Prepare alone.
func BenchmarkTrainCharIMDB(b *testing.B) {
	path := os.Getenv("NBTEXT_IMDB_TARBALL")
	if path == "" {
		b.Skip("NBTEXT_IMDB_TARBALL is not set: no IMDB corpus to benchmark on")
	}
	c, err := corpus.Read(path, corpus.Options{Split: "train"})
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	var y []int
	size, ids := 0, c.LabelIDs()
	for i, d := range c.Docs {
		if i%5 == 0 {
			texts = append(texts, d.Text)
			y = append(y, ids[i])
			size += len(d.Text)
		}
	}
	s, p := Defaults(model.SVM)
	s.NGramMin, s.NGramMax, s.StopWords, s.Fields = 1, 1, "", "" // as --analyzer does
	s.Analysis.Analyzer, s.Analysis.CharMin, s.Analysis.CharMax = "char_wb", 1, 3
	s.Analysis.CJKBigrams = false
	for _, whole := range []bool{false, true} {
		name := "prepare"
		if whole {
			name = "train"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				vocab, X, err := Prepare(texts, y, len(c.Labels), s, 0, nil)
				if err != nil {
					b.Fatal(err)
				}
				if whole {
					if _, err := Fit(model.SVM, X, y, c.Labels, vocab, p, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric((processCPU()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}
