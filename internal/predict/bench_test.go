package predict

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// BenchmarkStreamShortLines measures 'nbtext predict' on stdin in its
// pipeline use: short lines (about 20 words each) through a Bernoulli
// model of 50,000 terms and 20 classes, from a seeded synthetic language,
// written as text to a discarded buffered writer. The target is
// 200,000 docs/s on 2 cores.
func BenchmarkStreamShortLines(b *testing.B) {
	const (
		V     = 50_000
		C     = 20
		nDocs = 20_000
	)
	s := newSynth(1, V+V/10) // some words outside the vocabulary
	m := synthModel(b, s, model.Bernoulli, V, C)
	var input []byte
	for range nDocs {
		input = s.line(input, 20)
	}
	p := newPredictor(b, m, Options{})
	w := NewWriter(io.Discard)
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		st, err := p.Stream(context.Background(), bytes.NewReader(input), "stdin", w)
		if err != nil || st.Docs != nDocs {
			b.Fatalf("Stream: %d docs, %v", st.Docs, err)
		}
	}
	reportRate(b, b.N*nDocs, b.Elapsed(), cpuTime()-cpu)
}

// reportRate reports docs/s over wall time and, where it can be measured,
// docs/cpu-s over the process's CPU time: on a shared machine the first
// depends on the load, the second much less.
func reportRate(b *testing.B, docs int, wall, cpu time.Duration) {
	b.ReportMetric(float64(docs)/wall.Seconds(), "docs/s")
	if cpu > 0 {
		b.ReportMetric(float64(docs)/cpu.Seconds(), "docs/cpu-s")
	}
}

// BenchmarkPredict20NewsTest measures 'nbtext predict DIR' on the 7,532
// test documents of 20 Newsgroups with a multinomial model (the default
// settings of train.Defaults) fitted on the train split, outside the
// timer. Reading the archive is outside the timer too: the documents are
// written to a temporary folder first and Files reads, tokenizes and
// scores them from there, as the command does. The target is 0.25
// s (30,000 docs/s). It needs the archive: set NBTEXT_20NEWS_TARBALL.
func BenchmarkPredict20NewsTest(b *testing.B) {
	path := os.Getenv(corpus.TarballEnv)
	if path == "" {
		b.Skip("set " + corpus.TarballEnv + " to the 20 Newsgroups bydate archive to run this benchmark")
	}
	tr, err := corpus.Read(path, corpus.Options{Split: "train"})
	if err != nil {
		b.Fatal(err)
	}
	te, err := corpus.Read(path, corpus.Options{Split: "test"})
	if err != nil {
		b.Fatal(err)
	}
	settings, params := train.Defaults(model.Multinomial)
	vocab, X, err := train.Prepare(tr.Texts(), tr.LabelIDs(), len(tr.Labels), settings, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	m, err := train.FitNB(model.Multinomial, X, tr.LabelIDs(), tr.Labels, vocab, params)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for i, d := range te.Docs {
		p := dir + "/" + d.Label
		if err := os.MkdirAll(p, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p+"/"+strconv.Itoa(i), []byte(d.Text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	p := newPredictor(b, m, Options{})
	w := NewWriter(io.Discard)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		st, err := p.Files(context.Background(), []string{dir}, nil, w)
		if err != nil || st.Docs != len(te.Docs) {
			b.Fatalf("Files: %d of %d docs, %v", st.Docs, len(te.Docs), err)
		}
	}
	reportRate(b, b.N*len(te.Docs), b.Elapsed(), cpuTime()-cpu)
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/split")
}
