package train

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// benchData returns a training matrix weighted as kind's defaults say: the
// 20 Newsgroups train split when NBTEXT_20NEWS_TARBALL is set, else a
// seeded synthetic corpus of 11314 documents over 50000 terms in 20 classes
// (the shape of the real one).
func benchData(b *testing.B, kind model.Kind) (*vectorize.Matrix, []int, []string, *vectorize.Vocabulary, model.Params) {
	b.Helper()
	s, p := Defaults(kind)
	return benchDataWith(b, s, p)
}

// benchDataWith is benchData with the settings s and parameters p.
func benchDataWith(b *testing.B, s vectorize.Settings, p model.Params) (*vectorize.Matrix, []int, []string, *vectorize.Vocabulary, model.Params) {
	b.Helper()
	if os.Getenv(tarballEnv) == "" {
		syn := makeSynthetic(b, 11314, 50000, 20, 0.5, 1)
		X, vocab := syn.weighted(b, s.Weighting, s.Sublinear, s.Norm)
		return X, syn.Y, syn.Classes, vocab, p
	}
	tr, _ := loadNews(b)
	vocab, X, err := Prepare(tr.Texts(), tr.LabelIDs(), len(tr.Labels), s, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	return X, tr.LabelIDs(), tr.Labels, vocab, p
}

func benchFit(b *testing.B, kind model.Kind, edit func(p *model.Params)) {
	X, y, classes, vocab, p := benchData(b, kind)
	if edit != nil {
		edit(&p)
	}
	benchFitData(b, kind, X, y, classes, vocab, p)
}

func benchFitData(b *testing.B, kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		if _, err := Fit(kind, X, y, classes, vocab, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportFit(b, X, cpu)
}

// reportFit reports the documents fitted per second and the CPU seconds
// per fit since cpu (processCPU), which a loaded machine distorts less
// than the wall time.
func reportFit(b *testing.B, X *vectorize.Matrix, cpu float64) {
	b.ReportMetric(float64(X.Rows()*b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric((processCPU()-cpu)/float64(b.N), "cpu-s/op")
}

// BenchmarkFitMultinomial times counting and model.NewNB on the default
// multinomial features (the fit part of the ≤ 0.5 s train target).
func BenchmarkFitMultinomial(b *testing.B) { benchFit(b, model.Multinomial, nil) }

// BenchmarkFitBernoulli times the Bernoulli fit: counting, model.NewNB and
// the temperature calibration (BenchmarkCalibrateBernoulli).
func BenchmarkFitBernoulli(b *testing.B) { benchFit(b, model.Bernoulli, nil) }

// BenchmarkCalibrateComplement times the temperature calibration of the
// default complement model: what Fit adds to counting (FitNB).
func BenchmarkCalibrateComplement(b *testing.B) { benchCalibrate(b, model.Complement) }

// BenchmarkCalibrateBernoulli times it for the default Bernoulli model.
func BenchmarkCalibrateBernoulli(b *testing.B) { benchCalibrate(b, model.Bernoulli) }

func benchCalibrate(b *testing.B, kind model.Kind) {
	X, y, classes, vocab, p := benchData(b, kind)
	m, err := FitNB(kind, X, y, classes, vocab, p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := calibrate(m, X, y, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(X.Rows()*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkFitLogReg times the default logistic regression (SGD, 10 epochs;
// the fit part of the ≤ 3 s train target).
func BenchmarkFitLogReg(b *testing.B) { benchFit(b, model.LogReg, nil) }

// BenchmarkFitLogRegLBFGS times 10 L-BFGS iterations.
func BenchmarkFitLogRegLBFGS(b *testing.B) {
	benchFit(b, model.LogReg, func(p *model.Params) { p.Solver, p.Epochs = "lbfgs", 10 })
}

// BenchmarkObjective times one value and gradient of the logistic
// regression objective on synthetic corpora of growing size, on all cores.
func BenchmarkObjective(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			syn := makeSynthetic(b, n, 20000, 20, 0.5, 2)
			X, _ := syn.weighted(b, "tfidf", true, "l2")
			_, p := Defaults(model.LogReg)
			obj := newObjective(X, syn.Y, 20, p, Options{}.workers())
			w := make([]float64, X.Cols*20+20)
			g := make([]float64, len(w))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				obj.eval(w, g)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// BenchmarkFitSVM times the default linear SVM fit without calibration
// (the fit part of the ≤ 1.5 s train target).
func BenchmarkFitSVM(b *testing.B) { benchFitNoCal(b, model.SVM) }

// BenchmarkFitNBLR times the default NB-LR fit without calibration.
func BenchmarkFitNBLR(b *testing.B) { benchFitNoCal(b, model.NBLR) }

// BenchmarkFitSVMCalibrated times what 'nbtext train --model svm' does
// after vectorizing: the fit and the fold fit that calibrates it.
func BenchmarkFitSVMCalibrated(b *testing.B) { benchFit(b, model.SVM, nil) }

// BenchmarkFitNBLRCalibrated times it for NB-LR.
func BenchmarkFitNBLRCalibrated(b *testing.B) { benchFit(b, model.NBLR, nil) }

func benchFitNoCal(b *testing.B, kind model.Kind) {
	X, y, classes, vocab, p := benchData(b, kind)
	benchFitNoCalData(b, kind, X, y, classes, vocab, p)
}

func benchFitNoCalData(b *testing.B, kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		if _, err := Fit(kind, X, y, classes, vocab, p, Options{NoCalibrate: true}); err != nil {
			b.Fatal(err)
		}
	}
	reportFit(b, X, cpu)
}

// bigramSettings returns kind's defaults, word bigrams since the held-out
// comparison of defaults.go chose them: --ngram 1,2 with min_df 2 (svm) or
// 3 and β = 0.5 (nblr). It checks that they are, so that the benchmark
// below keeps timing what 'nbtext train --model svm|nblr' fits.
func bigramSettings(b *testing.B, kind model.Kind) (vectorize.Settings, model.Params) {
	s, p := Defaults(kind)
	if s.NGramMax != 2 {
		b.Fatalf("%s: defaults with n-grams up to %d, want word bigrams", kind, s.NGramMax)
	}
	return s, p
}

// BenchmarkFitBigrams times the SVM and NB-LR fits on word bigrams, without
// and with calibration (on the 20NG train split, 390,039 terms for the SVM
// and 219,656 for NB-LR).
func BenchmarkFitBigrams(b *testing.B) {
	for _, kind := range []model.Kind{model.SVM, model.NBLR} {
		s, p := bigramSettings(b, kind)
		X, y, classes, vocab, p := benchDataWith(b, s, p)
		b.Run(kind.String(), func(b *testing.B) { benchFitNoCalData(b, kind, X, y, classes, vocab, p) })
		b.Run(kind.String()+"-calibrated", func(b *testing.B) { benchFitData(b, kind, X, y, classes, vocab, p) })
	}
}

// BenchmarkRowCacheChunks reads a row cache of 20000 synthetic rows (about
// 150 terms each) chunk by chunk in a shuffled order, as each epoch of
// FitLogRegStream does with a buffer smaller than the corpus, and reports
// MB/s of cache read and the bytes read from the file per byte of cache.
func BenchmarkRowCacheChunks(b *testing.B) {
	syn := makeSynthetic(b, 20000, 200000, 20, 0.5, 3)
	X, _ := syn.weighted(b, "tfidf", true, "l2")
	rc := cacheOf(b, X, syn.Y)
	order := make([]int, rc.Chunks())
	for i := range order {
		order[i] = i
	}
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	read := func() int64 {
		b, _ := os.ReadFile("/proc/self/io")
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "rchar: "); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		return 0
	}
	before := read()
	b.ReportAllocs()
	for b.Loop() {
		rows := 0
		if err := rc.EachChunk(order, func(int, []int32, []float32) error { rows++; return nil }); err != nil || rows != len(syn.Y) {
			b.Fatalf("%d rows, %v", rows, err)
		}
	}
	size := float64(rc.off)
	b.ReportMetric(size*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
	if r := read(); r > before {
		b.ReportMetric(float64(r-before)/size/float64(b.N), "read/byte")
	}
}
