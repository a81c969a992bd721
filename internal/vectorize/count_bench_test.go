package vectorize

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
)

// cpuTime returns the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCount20Newsgroups measures tokenize + count, the per-token
// loop of Fit and of a counts.Counter, on one core over the 20 Newsgroups
// train split (headers kept, default settings): one worker tokenizes
// every document and counts its terms into its table and rows. Besides
// MB/s of wall time it reports MB/cpu-s, MB of text per second of CPU the
// process used, which stays meaningful on a loaded machine.
func BenchmarkCount20Newsgroups(b *testing.B) {
	path := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if path == "" {
		b.Skip("NBTEXT_20NEWS_TARBALL is not set: no 20 Newsgroups corpus to benchmark on")
	}
	c, err := corpus.Read(path, corpus.Options{Split: "train"})
	if err != nil {
		b.Fatal(err)
	}
	texts := c.Texts()
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	for _, bench := range []struct {
		name string
		s    func() Settings
	}{
		{"default", DefaultSettings},
		{"ngram=1,2", func() Settings { s := DefaultSettings(); s.NGramMax = 2; return s }},
		{"char_wb=1,3", func() Settings { return charSettings("char_wb", 1, 3) }},
		{"char=1,3", func() Settings { return charSettings("char", 1, 3) }},
	} {
		b.Run(bench.name, func(b *testing.B) {
			s := bench.s()
			b.SetBytes(int64(size))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				w := newFitWorker(s, 0)
				for lo := 0; lo < len(texts); lo += batchSize {
					w.process(&batch{first: lo}, texts[lo:min(lo+batchSize, len(texts))])
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
		})
	}
}

// charSettings are DefaultSettings with a character analyzer.
func charSettings(analyzer string, lo, hi int) Settings {
	s := DefaultSettings()
	s.Analysis = Analysis{Analyzer: analyzer, CharMin: lo, CharMax: hi}
	return s
}

// BenchmarkCountChars measures tokenize + count with the character
// analyzers on one core over seeded synthetic text (300-word documents),
// as BenchmarkCount20Newsgroups does on the corpus.
func BenchmarkCountChars(b *testing.B) {
	texts := synthText(13, 512, 300)
	size := textBytes(texts)
	for _, bench := range []struct {
		name string
		s    Settings
	}{
		{"word", DefaultSettings()},
		{"char_wb=1,3", charSettings("char_wb", 1, 3)},
		{"char=1,3", charSettings("char", 1, 3)},
		{"char_wb=2,5", charSettings("char_wb", 2, 5)},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				w := newFitWorker(bench.s, 0)
				for lo := 0; lo < len(texts); lo += batchSize {
					w.process(&batch{first: lo}, texts[lo:min(lo+batchSize, len(texts))])
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
			reportDocs(b, len(texts))
		})
	}
}

// BenchmarkCountIMDB measures tokenize + count on one core over the IMDB
// train split (25,000 reviews, 33.9 MB), as BenchmarkCount20Newsgroups
// does on 20 Newsgroups: "word" is the default analyzer;
// "/every-gram" is the counting of character n-grams before gramTable
// (each n-gram counted in w.seen as it is met, refCountChars), beside its
// replacement, so that one run compares them under the same load.
func BenchmarkCountIMDB(b *testing.B) {
	path := os.Getenv("NBTEXT_IMDB_TARBALL")
	if path == "" {
		b.Skip("NBTEXT_IMDB_TARBALL is not set: no IMDB corpus to benchmark on")
	}
	c, err := corpus.Read(path, corpus.Options{Split: "train"})
	if err != nil {
		b.Fatal(err)
	}
	texts := c.Texts()
	size := textBytes(texts)
	for _, bench := range []struct {
		name string
		s    Settings
		ref  bool
	}{
		{"word", DefaultSettings(), false},
		{"char_wb=1,3", charSettings("char_wb", 1, 3), false},
		{"char_wb=1,3/every-gram", charSettings("char_wb", 1, 3), true},
		{"char=1,3", charSettings("char", 1, 3), false},
		{"char=1,3/every-gram", charSettings("char", 1, 3), true},
		{"char_wb=2,5", charSettings("char_wb", 2, 5), false},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				w := &refWorker{fitWorker: newFitWorker(bench.s, 0)}
				for lo := 0; lo < len(texts); lo += batchSize {
					docs := texts[lo:min(lo+batchSize, len(texts))]
					if !bench.ref {
						w.process(&batch{first: lo}, docs)
						continue
					}
					w.refProcess(&batch{first: lo}, docs)
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
			reportDocs(b, len(texts))
		})
	}
}

// refProcess is process through refCountChars.
func (w *refWorker) refProcess(b *batch, texts []string) {
	size := 16 + 10*int(textBytes(texts))/10 // as process sizes a batch for a character analyzer
	b.ids = make([]int32, 0, size)
	b.vals = make([]float32, 0, size)
	w.cur = b
	w.batches = append(w.batches, b)
	for _, text := range texts {
		start := len(b.ids)
		w.refCountChars(text)
		w.tok.forget()
		for _, i := range b.ids[start:] {
			b.vals = append(b.vals, float32(w.seen[i]))
			w.seen[i] = 0
		}
		b.end = append(b.end, int32(len(b.ids)))
	}
}
