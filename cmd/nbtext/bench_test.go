package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// End-to-end benchmarks of the commands on the real corpus, as a user runs
// them (in-process, so without the ~5 ms of process start). Each reports
// wall seconds per run; the targets are in the issues and the README.

func tarball(b *testing.B) string {
	p := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if p == "" {
		b.Skip("NBTEXT_20NEWS_TARBALL is not set: end-to-end benchmarks need the 20 Newsgroups archive")
	}
	return p
}

var (
	unpackOnce sync.Once
	unpackDir  string
	unpackErr  error
)

// unpacked extracts the archive once per test binary into a temporary
// folder, for the folder benchmarks.
func unpacked(b *testing.B) string {
	tb := tarball(b)
	unpackOnce.Do(func() {
		unpackDir, unpackErr = os.MkdirTemp("", "nbtext-bench-")
		if unpackErr != nil {
			return
		}
		unpackErr = extract(tb, unpackDir)
	})
	if unpackErr != nil {
		b.Fatal(unpackErr)
	}
	return unpackDir
}

func extract(archive, dir string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, "..") {
			continue
		}
		p := filepath.Join(dir, h.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
}

// benchRun runs one command line b.N times and reports seconds per run.
func benchRun(b *testing.B, stdin []byte, args ...string) {
	b.Helper()
	b.ReportAllocs()
	var out, errb bytes.Buffer
	start := time.Now()
	for i := 0; i < b.N; i++ {
		out.Reset()
		errb.Reset()
		if code := run(context.Background(), args, streams{In: bytes.NewReader(stdin), Out: &out, Err: &errb}); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/run")
}

// BenchmarkVocabArchive: nbtext vocab on the train split from the .tar.gz
// (target ≤ 0.6 s on 2 cores).
func BenchmarkVocabArchive(b *testing.B) {
	tb := tarball(b)
	benchRun(b, nil, "vocab", tb, "--split", "train", "-q", "-o", filepath.Join(b.TempDir(), "v.tsv"))
}

// BenchmarkVocabFolder: the same from an unpacked folder (target ≤ 0.3 s).
func BenchmarkVocabFolder(b *testing.B) {
	dir := unpacked(b)
	benchRun(b, nil, "vocab", dir, "--split", "train", "-q", "-o", filepath.Join(b.TempDir(), "v.tsv"))
}

// benchTrain times 'nbtext train --model kind' on the train split, archive
// to model file.
func benchTrain(b *testing.B, kind string) {
	tb := tarball(b)
	benchRun(b, nil, "train", tb, "--split", "train", "--model", kind, "-q", "-o", filepath.Join(b.TempDir(), "m.nbm"))
}

// BenchmarkTrainMultinomial: archive to model file (target ≤ 0.5 s).
func BenchmarkTrainMultinomial(b *testing.B) { benchTrain(b, "multinomial") }

// BenchmarkTrainLogReg: archive to model file (target ≤ 3 s).
func BenchmarkTrainLogReg(b *testing.B) { benchTrain(b, "logreg") }

// BenchmarkTrainSVM: the same with the SVM's defaults, word bigrams
// (target ≤ 1.5 s).
func BenchmarkTrainSVM(b *testing.B) { benchTrain(b, "svm") }

// BenchmarkTrainNBLR: the same for NB-LR (target ≤ 2 s).
func BenchmarkTrainNBLR(b *testing.B) { benchTrain(b, "nblr") }

// trainedModel trains a model of kind once per benchmark.
func trainedModel(b *testing.B, kind string) string {
	tb := tarball(b)
	p := filepath.Join(b.TempDir(), kind+".nbm")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"train", tb, "--split", "train", "--model", kind, "-q", "-o", p}, streams{In: strings.NewReader(""), Out: &out, Err: &errb}); code != 0 {
		b.Fatalf("train: exit %d: %s", code, errb.String())
	}
	return p
}

// BenchmarkPredictTestSplit: nbtext predict over the 7,532 test documents
// of the unpacked corpus, multinomial model (target ≤ 0.25 s).
func BenchmarkPredictTestSplit(b *testing.B) {
	dir := unpacked(b)
	m := trainedModel(b, "multinomial")
	b.ResetTimer()
	benchRun(b, nil, "predict", "-m", m, filepath.Join(dir, "20news-bydate-test"))
	b.ReportMetric(7532*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkEvalTestSplit: nbtext eval on the test split from the archive
// (target ≤ 0.4 s).
func BenchmarkEvalTestSplit(b *testing.B) {
	tb := tarball(b)
	m := trainedModel(b, "multinomial")
	b.ResetTimer()
	benchRun(b, nil, "eval", "-m", m, tb, "--split", "test")
}

// BenchmarkPredictShortLines: a Bernoulli model on stdin, one ~20-word
// document per line (target ≥ 200,000 documents/s).
func BenchmarkPredictShortLines(b *testing.B) {
	tb := tarball(b)
	m := trainedModel(b, "bernoulli")
	words := strings.Fields("the key escrow chip encryption government graphics polygons render game team season player windows drive disk car engine god jesus israel gun law space orbit launch doctor patient")
	var in bytes.Buffer
	const lines = 100000
	for i := 0; i < lines; i++ {
		for j := 0; j < 20; j++ {
			if j > 0 {
				in.WriteByte(' ')
			}
			in.WriteString(words[(i*7+j*13)%len(words)])
		}
		in.WriteByte('\n')
	}
	_ = tb
	b.ResetTimer()
	benchRun(b, in.Bytes(), "predict", "-m", m)
	b.ReportMetric(lines*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}
