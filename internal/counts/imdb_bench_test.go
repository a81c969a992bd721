package counts

import (
	"os"
	"sync"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// imdbTrain reads the train split of the IMDB archive named by
// NBTEXT_IMDB_TARBALL once per process (25,000 reviews, 33 MB of text),
// skipping when the variable is not set.
func imdbTrain(b *testing.B) (texts, labels []string, size int64) {
	path := os.Getenv("NBTEXT_IMDB_TARBALL")
	if path == "" {
		b.Skip("NBTEXT_IMDB_TARBALL is not set: no IMDB corpus to benchmark on")
	}
	imdbOnce.Do(func() {
		c, err := corpus.Read(path, corpus.Options{Split: "train"})
		if err != nil {
			imdbErr = err
			return
		}
		for _, d := range c.Docs {
			imdbTexts = append(imdbTexts, d.Text)
			imdbLabels = append(imdbLabels, d.Label)
			imdbSize += int64(len(d.Text))
		}
	})
	if imdbErr != nil {
		b.Fatal(imdbErr)
	}
	return imdbTexts, imdbLabels, imdbSize
}

var (
	imdbOnce              sync.Once
	imdbErr               error
	imdbTexts, imdbLabels []string
	imdbSize              int64
)

// BenchmarkVocabIMDB measures what 'nbtext vocab' does after reading its
// input, on the IMDB train split: a Counter pooling the classes
// (Options.VocabOnly) counts every review, then prunes its tables into
// the vocabulary. One worker, so the figures are per core; MB/cpu-s is MB
// of text per second of CPU the process used, which stays meaningful on a
// loaded machine. The character analyzers are scikit-learn's
// TfidfVectorizer(analyzer='char_wb', ngram_range=(1, 3)) and
// analyzer='char' (see docs/languages.md, "Speed", for scikit-learn's
// figures on the same texts); "word" is the default analyzer, for scale.
func BenchmarkVocabIMDB(b *testing.B) {
	texts, labels, size := imdbTrain(b)
	word := vectorize.DefaultSettings()
	chars := func(analyzer string, lo, hi int) vectorize.Settings {
		s := vectorize.DefaultSettings()
		s.Fields = ""
		s.Analysis = vectorize.Analysis{Analyzer: analyzer, CharMin: lo, CharMax: hi}
		return s
	}
	for _, bench := range []struct {
		name string
		s    vectorize.Settings
	}{
		{"word", word},
		{"char_wb=1,3", chars("char_wb", 1, 3)},
		{"char=1,3", chars("char", 1, 3)},
		{"char_wb=2,5", chars("char_wb", 2, 5)},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu0 := cpuTime()
			terms := 0
			for b.Loop() {
				c, err := NewCounter(bench.s, nil, Options{Workers: 1, VocabOnly: true})
				if err != nil {
					b.Fatal(err)
				}
				for i := range texts {
					if err := c.Add(texts[i], labels[i]); err != nil {
						b.Fatal(err)
					}
				}
				v, _, err := c.Vocabulary()
				if err != nil {
					b.Fatal(err)
				}
				terms = v.Len()
				c.Close()
			}
			b.ReportMetric(float64(size)*float64(b.N)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
			b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric(float64(terms), "terms")
		})
	}
}
