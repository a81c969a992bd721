package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestRunCompare: the curves of two models on a training and a test
// corpus, with a size past the training corpus clamped and said; Alpha
// reaches the naive Bayes models; the errors say which corpus failed.
func TestRunCompare(t *testing.T) {
	labels := []string{"ham", "spam"}
	trainPath := writeCorpus(t, "train.tsv", labels, 30)
	testPath := writeCorpus(t, "test.tsv", labels, 10)
	sources := map[string]string{"train": trainPath, "test": testPath}
	var warned []string
	cp := &Compare{
		Source: func(split string) (Source, error) {
			return Source{Paths: []string{sources[split]}, Splits: []string{""}}, nil
		},
		OwnTest: true,
		Models:  []string{"multinomial", "logreg"}, Metric: "error", Vary: "size",
		MinDF: 1, Alpha: 1, AlphaGiven: true, Sizes: "10,20,1000", Repeats: 2, Seed: 3, Workers: 1,
		Warn: func(msg string) { warned = append(warned, msg) },
	}
	res, err := RunCompare(cp)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Sizes, []int{10, 20, 60}) || !slices.Equal(res.Models, []string{"multinomial", "logreg"}) || len(res.Runs) != 2*3*2 {
		t.Errorf("sizes %v, models %v, %d runs", res.Sizes, res.Models, len(res.Runs))
	}
	if len(warned) != 1 || warned[0] != "nbtext: --sizes 1000: more than the 60 training documents: these points train on all of them" {
		t.Errorf("warnings %q", warned)
	}
	for _, r := range res.Runs {
		if r.Size == 60 && r.Errors != 0 {
			t.Errorf("%s on the whole (separable) training corpus: %d errors", r.Model, r.Errors)
		}
	}

	cp.Budget = membudget.Budget{Bytes: 100, Source: "--mem"}
	if _, err := RunCompare(cp); err == nil || !strings.HasPrefix(err.Error(), "reading the training corpus: compare holds every document in memory") {
		t.Errorf("over budget: %v", err)
	}
	cp.Budget = membudget.Budget{}
	sources["test"] = filepath.Join(t.TempDir(), "missing.tsv")
	if _, err := RunCompare(cp); err == nil || !strings.HasPrefix(err.Error(), "reading the test corpus (--test): ") {
		t.Errorf("missing test corpus: %v", err)
	}
	cp.OwnTest = false
	cp.Source = func(split string) (Source, error) { return Source{}, errors.New("no " + split) }
	if _, err := RunCompare(cp); err == nil || !strings.HasPrefix(err.Error(), "reading the train split (compare needs both): no train; compare reads CORPUS as a pair") {
		t.Errorf("no splits: %v", err)
	}
}

// TestRunCompareVocab: with eval.VaryVocab a vocabulary size past the
// largest vocabulary is clamped and said in terms of terms.
func TestRunCompareVocab(t *testing.T) {
	dir := t.TempDir()
	for _, split := range []string{"train", "test"} {
		if err := os.WriteFile(filepath.Join(dir, split+".tsv"), []byte(strings.Repeat("a\tapple pear plum\nb\tcar bus van\n", 5)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var warned []string
	cp := &Compare{
		Source: func(split string) (Source, error) {
			return Source{Paths: []string{filepath.Join(dir, split+".tsv")}, Splits: []string{""}}, nil
		},
		OwnTest: true, Models: []string{"bernoulli"}, MinDF: 1, Repeats: 1, Metric: "error", Vary: "vocab", Sizes: "2,100",
		Warn: func(msg string) { warned = append(warned, msg) },
	}
	if _, err := RunCompare(cp); err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "--sizes 100: more than the 6 terms the largest vocabulary keeps") {
		t.Errorf("warnings %q", warned)
	}
}

func TestClampedSizes(t *testing.T) {
	if got := clampedSizes([]int{5, 50, 500, 70}, []int{5, 50, 60}); !slices.Equal(got, []string{"500", "70"}) {
		t.Errorf("got %q", got)
	}
	if got := clampedSizes([]int{5}, nil); got != nil {
		t.Errorf("no sizes used: got %q", got)
	}
}

// TestCompareCheck: each option out of range is a UsageError naming it.
func TestCompareCheck(t *testing.T) {
	ok := func() Compare {
		return Compare{Models: []string{"multinomial", "logreg"}, MinDF: 1, Repeats: 1, Metric: "error", Vary: "size", Sizes: "10, 20"}
	}
	base := ok()
	if err := base.Check(); err != nil {
		t.Fatalf("valid options: %v", err)
	}
	for _, tc := range []struct {
		set  func(*Compare)
		want string
	}{
		{func(c *Compare) { c.Models = nil }, "--models needs at least one estimator"},
		{func(c *Compare) { c.Models = []string{"nb"} }, "--models: unknown model"},
		{func(c *Compare) { c.Models = []string{"svm", "svm"} }, "--models names svm twice"},
		{func(c *Compare) { c.Seed = -1 }, "--seed must be ≥ 0"},
		{func(c *Compare) { c.Alpha = -0.5 }, "--alpha must be ≥ 0"},
		{func(c *Compare) { c.CGiven = true }, "--C must be > 0, got 0"},
		{func(c *Compare) { c.MinDF = 0 }, "--min-df must be ≥ 1"},
		{func(c *Compare) { c.Repeats = 0 }, "--repeats must be ≥ 1"},
		{func(c *Compare) { c.Metric = "auc" }, "--metric must be"},
		{func(c *Compare) { c.Vary = "time" }, "--vary must be size or vocab"},
		{func(c *Compare) { c.Sizes = "10,-3" }, `--sizes must be positive whole numbers, got "-3"`},
	} {
		c := ok()
		tc.set(&c)
		err := c.Check()
		var ue *UsageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v", tc.want, err)
		}
	}
	if got, _ := parseSizes(" 5 ,50"); !slices.Equal(got, []int{5, 50}) {
		t.Errorf("parseSizes: %v", got)
	}
}

func TestCorpusTitle(t *testing.T) {
	for in, want := range map[string]string{
		"": "20 Newsgroups", "data/20news-bydate.tar.gz": "20news-bydate", "imdb.tgz": "imdb",
		"corpora/reviews/": "reviews", "train.tsv": "train.tsv", "x.tar": "x",
	} {
		if got := corpusTitle(in); got != want {
			t.Errorf("corpusTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCompareFitsAsTrain: a curve's point on the whole training corpus is
// the model a run of train fits in memory with the same settings: the
// same vocabulary size and the same errors on the test corpus.
func TestCompareFitsAsTrain(t *testing.T) {
	dir := t.TempDir()
	var trainText, testText strings.Builder
	words := [][]string{{"cipher", "pgp", "keys", "secret", "encryption"}, {"opengl", "gpu", "polygons", "jpeg", "render"}, {"goal", "match", "league", "coach", "score"}}
	for i := range 90 {
		c := i % 3
		doc := fmt.Sprintf("%s %s %s shared%d", words[c][i%5], words[c][(i/3)%5], words[(c+i/7)%3][(i/5)%5], i%11)
		fmt.Fprintf(&trainText, "c%d\t%s\n", c, doc)
		if i%3 == 0 {
			fmt.Fprintf(&testText, "c%d\t%s %s\n", c, words[c][(i/2)%5], words[(c+i/9)%3][i%5])
		}
	}
	paths := map[string]string{"train": filepath.Join(dir, "train.tsv"), "test": filepath.Join(dir, "test.tsv")}
	for split, text := range map[string]string{"train": trainText.String(), "test": testText.String()} {
		if err := os.WriteFile(paths[split], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	source := func(split string) (Source, error) {
		return Source{Paths: []string{paths[split]}, Splits: []string{""}}, nil
	}
	res, err := RunCompare(&Compare{
		Source: source, OwnTest: true, Models: []string{"multinomial", "bernoulli", "logreg"},
		MinDF: 2, Repeats: 1, Metric: "errors", Vary: "size", Sizes: "90", Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	testSrc, _ := source("test")
	test, err := testSrc.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range res.Runs {
		kind, _ := model.ParseKind(run.Model)
		src, _ := source("train")
		p := &Plan{
			Source: src, Kind: kind, Output: filepath.Join(dir, run.Model+".nbm"), Workers: 1, Stream: StreamNever,
			Vectorizer: func(s *vectorize.Settings) error { s.MinDF = 2; return nil },
		}
		rep, err := Run(p)
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Model
		pred, _, _ := eval.Score(m, train.PrepareWith(m.Vocab, test.Texts(), 1), 1, false)
		errs := 0
		for i, d := range test.Docs {
			if m.Classes[pred[i]] != d.Label {
				errs++
			}
		}
		if run.Terms != m.Vocab.Len() || run.Errors != errs {
			t.Errorf("%s: compare %d terms, %d errors; train %d terms, %d errors", run.Model, run.Terms, run.Errors, m.Vocab.Len(), errs)
		}
	}
}
