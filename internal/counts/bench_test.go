package counts

import (
	"syscall"
	"testing"
	"time"

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

// cpuTime returns the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCounter measures tokenize + count throughput (MB/s of text) of
// a Counter with one worker, so per core: round one, round two from the
// documents, and "stream", what train --stream --model multinomial does
// (round one with its row cache, the vocabulary, round two from the cache
// and the model's statistics), whose MB/s is of the text, both rounds
// included. MB/cpu-s is MB of text per second of CPU the process used,
// which stays meaningful on a loaded machine.
func BenchmarkCounter(b *testing.B) {
	texts, labels, size := synthDocs(b, 20000)
	s := vectorize.DefaultSettings() // train.Defaults(model.Multinomial)
	s.MinDF, s.Fields = 2, "subject:2"
	s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2"
	opt := Options{Workers: 1}
	r1 := countAll(b, s, nil, texts, labels, opt)
	vocab, _, err := r1.Vocabulary()
	if err != nil {
		b.Fatal(err)
	}
	r1 = nil
	run := func(b *testing.B, f func()) {
		b.SetBytes(size)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			f()
		}
		b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
		b.ReportMetric(float64(size)*float64(b.N)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
	}
	b.Run("round=one", func(b *testing.B) { run(b, func() { countAll(b, s, nil, texts, labels, opt) }) })
	// pooled counts round one as train --stream does (classes pooled,
	// rows cached), and returns the Counter and its vocabulary.
	pooled := func(b *testing.B, opt Options) (*Counter, *vectorize.Vocabulary) {
		c, err := NewCounter(s, nil, opt)
		if err != nil {
			b.Fatal(err)
		}
		for i := range texts {
			if err := c.Add(texts[i], labels[i]); err != nil {
				c.Close()
				b.Fatal(err)
			}
		}
		v, _, err := c.Vocabulary()
		if err != nil {
			c.Close()
			b.Fatal(err)
		}
		return c, v
	}
	b.Run("round=one-pooled", func(b *testing.B) {
		opt := Options{Workers: 1, Replay: true, VocabOnly: true, TempDir: b.TempDir()}
		run(b, func() {
			c, _ := pooled(b, opt)
			c.Close()
		})
	})
	b.Run("round=two", func(b *testing.B) { run(b, func() { countAll(b, s, vocab, texts, labels, opt) }) })
	b.Run("stream", func(b *testing.B) {
		opt := Options{Workers: 1, Replay: true, VocabOnly: true, TempDir: b.TempDir()}
		run(b, func() {
			c, v := pooled(b, opt)
			defer c.Close()
			c2, err := c.RoundTwo(v)
			if err != nil {
				b.Fatal(err)
			}
			defer c2.Close()
			if _, err := c2.Stats(false); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkMergeTables measures the serial-looking steps of train
// --stream around the rounds' per-row work, on tables counted by 2
// workers (the counting is not timed): "vocabulary", round one's
// Vocabulary (sort and merge the workers' term tables, prune), and
// "stats", round two's Stats (the workers' tables summed into the model's
// statistics).
func BenchmarkMergeTables(b *testing.B) {
	texts, labels, _ := synthDocs(b, 20000)
	s := vectorize.DefaultSettings() // train.Defaults(model.Multinomial)
	s.MinDF, s.Fields = 2, "subject:2"
	s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2"
	opt := Options{Workers: 2, Replay: true, VocabOnly: true, TempDir: b.TempDir()}
	roundOne := func(b *testing.B) *Counter {
		c, err := NewCounter(s, nil, opt)
		if err != nil {
			b.Fatal(err)
		}
		for i := range texts {
			if err := c.Add(texts[i], labels[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := c.drain(); err != nil { // counted, before the timer starts
			b.Fatal(err)
		}
		return c
	}
	vocabulary := func(b *testing.B, c *Counter) *vectorize.Vocabulary {
		v, _, err := c.Vocabulary()
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	roundTwo := func(b *testing.B, c *Counter, v *vectorize.Vocabulary) *Counter {
		c2, err := c.RoundTwo(v)
		if err != nil {
			b.Fatal(err)
		}
		return c2
	}
	b.Run("vocabulary", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			c := roundOne(b)
			b.StartTimer()
			vocabulary(b, c)
			b.StopTimer()
			c.Close()
			b.StartTimer()
		}
	})
	b.Run("stats", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			c := roundOne(b)
			c2 := roundTwo(b, c, vocabulary(b, c))
			c.Close()
			b.StartTimer()
			if _, err := c2.Stats(false); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			c2.Close()
			b.StartTimer()
		}
	})
}
