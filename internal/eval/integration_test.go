package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// newsTarball returns the 20 Newsgroups archive named by
// NBTEXT_20NEWS_TARBALL, or skips the test.
func newsTarball(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if p == "" {
		tb.Skip("set NBTEXT_20NEWS_TARBALL to the 20news-bydate.tar.gz archive to run tests on the real corpus")
	}
	return p
}

// newsSplits reads the train and test splits of the given classes (all when
// nil) and returns them as a CurveConfig without models.
func newsSplits(tb testing.TB, classes []string) CurveConfig {
	tb.Helper()
	tr, te := newsCorpora(tb, classes)
	cfg, err := SplitsConfig(tr, te)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Corpus, cfg.Seed = "20news-bydate", 1
	return cfg
}

// newsCorpora reads the train and test splits of the given classes (all
// when nil).
func newsCorpora(tb testing.TB, classes []string) (tr, te *corpus.Corpus) {
	tb.Helper()
	p := newsTarball(tb)
	tr, err := corpus.Read(p, corpus.Options{Split: "train", Classes: classes})
	if err != nil {
		tb.Fatal(err)
	}
	te, err = corpus.Read(p, corpus.Options{Split: "test", Classes: classes})
	if err != nil {
		tb.Fatal(err)
	}
	return tr, te
}

func specs(kinds ...model.Kind) []ModelSpec {
	var out []ModelSpec
	for _, k := range kinds {
		out = append(out, DefaultModelSpec(k))
	}
	return out
}

// TestIntegrationCryptGraphics runs the lecture's experiment: sci.crypt
// against comp.graphics, default sizes, 5 repeats, Bernoulli, multinomial
// and logistic regression.
func TestIntegrationCryptGraphics(t *testing.T) {
	cfg := newsSplits(t, []string{"sci.crypt", "comp.graphics"})
	cfg.Models = specs(model.Bernoulli, model.Multinomial, model.LogReg)
	cfg.Metric = MetricErrors
	res := runCurve(t, cfg, "learning curve", "crypt_graphics.png", "crypt_graphics.svg")
	var csv bytes.Buffer
	res.WriteCSV(&csv)
	back, err := ReadCurveCSV(&csv)
	if err != nil || !reflect.DeepEqual(back.Runs, res.Runs) {
		t.Errorf("csv round trip: %v", err)
	}
	for i, name := range res.Models {
		lo, _ := res.MeanStd(i, 0)
		hi, _ := res.MeanStd(i, len(res.Sizes)-1)
		if !(hi < lo) {
			t.Errorf("%s makes %.1f errors at m=%d and %.1f at the full size", name, lo, res.Sizes[0], hi)
		}
	}
}

// TestIntegrationVocab: accuracy against vocabulary size for Bernoulli and
// multinomial NB on all 20 classes.
func TestIntegrationVocab(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	cfg := newsSplits(t, nil)
	cfg.Models = specs(model.Bernoulli, model.Multinomial)
	cfg.Vary, cfg.Metric = VaryVocab, MetricAccuracy
	runCurve(t, cfg, "vocabulary curve", "vocab.png")
}

// TestIntegrationEvalAndCV trains multinomial NB on the train split and
// evaluates it on the test split, then cross-validates it on four classes.
func TestIntegrationEvalAndCV(t *testing.T) {
	cfg := newsSplits(t, nil)
	spec := DefaultModelSpec(model.Multinomial)
	v, X, err := train.Prepare(cfg.TrainTexts, cfg.TrainLabels, len(cfg.Classes), spec.Settings, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.Fit(spec.Kind, X, cfg.TrainLabels, cfg.Classes, v, spec.Params, train.Options{})
	if err != nil {
		t.Fatal(err)
	}
	testLabels := make([]string, len(cfg.TestLabels))
	for i, c := range cfg.TestLabels {
		testLabels[i] = cfg.Classes[c]
	}
	start := time.Now()
	rep, err := EvaluateTexts(m, cfg.TestTexts, testLabels, Options{TopK: 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("evaluated %d test documents in %v", rep.N, time.Since(start))
	var tb bytes.Buffer
	WriteTable(&tb, rep, WriteOptions{Confusion: true})
	t.Logf("\n%s", tb.String())
	if rep.Accuracy < 0.8 {
		t.Errorf("test accuracy %.4f, want ≥ 0.8", rep.Accuracy)
	}

	// Cross-validation on four of the classes: its folds, vocabularies and
	// means are what is checked, and all twenty prove nothing more (five
	// fits on the whole train split are make test-full's, in
	// TestIntegrationAll20's learning curves).
	sub := newsSplits(t, []string{"alt.atheism", "comp.graphics", "sci.crypt", "rec.sport.hockey"})
	start = time.Now()
	cv, err := CrossValidate(sub.TrainTexts, sub.TrainLabels, sub.Classes, spec.Settings, spec.Kind, spec.Params, 5, 1, CVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("5-fold cv in %v", time.Since(start))
	var b bytes.Buffer
	cv.WriteTable(&b)
	t.Logf("\n%s", b.String())
	if cv.Mean.Accuracy < 0.8 {
		t.Errorf("cv accuracy %.4f, want ≥ 0.8", cv.Mean.Accuracy)
	}
}

// TestIntegrationAll20 is the large experiment of issue 5: all 20 classes,
// 8 sizes up to the whole training split, 5 repeats, three models.
func TestIntegrationAll20(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	cfg := newsSplits(t, nil)
	cfg.Models = specs(model.Bernoulli, model.Multinomial, model.LogReg)
	cfg.Sizes = []int{100, 200, 500, 1000, 2000, 5000, 10000, len(cfg.TrainTexts)}
	runCurve(t, cfg, "learning curve")
}

// BenchmarkLearningCurveCryptGraphics times the lecture's experiment
// (sci.crypt against comp.graphics, default sizes, 5 repeats, Bernoulli,
// multinomial and logistic regression), corpus reading excluded.
func BenchmarkLearningCurveCryptGraphics(b *testing.B) {
	cfg := newsSplits(b, []string{"sci.crypt", "comp.graphics"})
	cfg.Models = specs(model.Bernoulli, model.Multinomial, model.LogReg)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := LearningCurve(cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/curve")
}

// runCurve runs cfg, logs its time and table, and draws it to each of
// plots in $NBTEXT_PLOT_DIR (to keep the figures and look at them) or a
// temporary folder.
func runCurve(t *testing.T, cfg CurveConfig, what string, plots ...string) *CurveResult {
	t.Helper()
	start := time.Now()
	res, err := LearningCurve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s in %v", what, time.Since(start))
	var b bytes.Buffer
	res.WriteTable(&b)
	t.Logf("\n%s", b.String())
	dir := os.Getenv("NBTEXT_PLOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, f := range plots {
		if err := PlotCurves(res, filepath.Join(dir, f), ""); err != nil {
			t.Fatal(err)
		}
	}
	return res
}
