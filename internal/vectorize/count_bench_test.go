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
