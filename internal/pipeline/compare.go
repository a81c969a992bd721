// Learning curves (nbtext compare): the training and test corpora read
// whole, the models with their defaults, and eval.LearningCurve's fits of
// each model on growing subsets of the training corpus.

package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
)

// Compare is a learning-curve experiment: each of Models, with its
// defaults (eval.DefaultModelSpec) but for MinDF and, when given, Alpha
// and C, fitted on subsets of the training corpus and scored on the test
// corpus (eval.LearningCurve). Its fields are the options of 'nbtext
// compare', as given: Check validates them.
type Compare struct {
	// Source returns the corpus of "train" and of "test": the train and
	// test splits of one corpus, or with OwnTest a training corpus and a
	// test corpus (--test), each read whole.
	Source  func(split string) (Source, error)
	OwnTest bool
	// Budget is the memory the corpora may take held in memory
	// (Source.CheckHold).
	Budget membudget.Budget
	// Models are names of model kinds (model.ParseKind), each once.
	Models []string
	MinDF  int
	// Alpha, when AlphaGiven, replaces the smoothing of the naive Bayes
	// models (α = β for Bernoulli); C, when CGiven, the inverse
	// regularisation of the linear ones.
	Alpha, C           float64
	AlphaGiven, CGiven bool
	// Sizes are the x values, comma-separated ("": eval's defaults);
	// Vary and Metric are eval.ParseVary's and eval.ParseMetric's names.
	Sizes, Vary, Metric string
	// Repeats, Seed (≥ 0), Workers and Progress are those of
	// eval.CurveConfig.
	Repeats  int
	Seed     int64
	Workers  int
	Progress func(done, total int)
	// Corpus is the corpus as given, which titles name by its base name
	// without an archive extension ("": the cached 20 Newsgroups archive).
	Corpus string
	// Warn says which Sizes were larger than the training corpus (or the
	// vocabulary) allows (nil: nothing is said).
	Warn func(msg string)
}

// Check returns a UsageError naming the first option of cp out of range.
func (cp *Compare) Check() error {
	if len(cp.Models) == 0 {
		return usagef("--models needs at least one estimator")
	}
	seen := map[string]bool{}
	for _, m := range cp.Models {
		if _, err := model.ParseKind(m); err != nil {
			return usagef("--models: %v", err)
		}
		if seen[m] {
			return usagef("--models names %s twice: each estimator is fitted once, with its defaults", m)
		}
		seen[m] = true
	}
	switch {
	case cp.Seed < 0:
		return usagef("--seed must be ≥ 0, got %d", cp.Seed)
	case cp.Alpha < 0 || cp.Alpha != cp.Alpha:
		return usagef("--alpha must be ≥ 0, got %g", cp.Alpha)
	case cp.CGiven && !(cp.C > 0):
		return usagef("--C must be > 0, got %g", cp.C)
	case cp.MinDF < 1:
		return usagef("--min-df must be ≥ 1, got %d", cp.MinDF)
	case cp.Repeats < 1:
		return usagef("--repeats must be ≥ 1, got %d", cp.Repeats)
	}
	if _, err := eval.ParseMetric(cp.Metric); err != nil {
		return usage(err)
	}
	if _, err := eval.ParseVary(cp.Vary); err != nil {
		return usage(err)
	}
	_, err := parseSizes(cp.Sizes)
	return err
}

// parseSizes parses comma-separated positive sizes ("": none).
func parseSizes(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, usagef("--sizes must be positive whole numbers, got %q", part)
		}
		out = append(out, n)
	}
	return out, nil
}

// RunCompare reads the corpora of cp and returns the learning curves of
// its models.
func RunCompare(cp *Compare) (*eval.CurveResult, error) {
	if err := cp.Check(); err != nil {
		return nil, err
	}
	trainSet, remove, err := cp.load("train")
	if err != nil {
		return nil, err
	}
	testSet, _, err := cp.load("test")
	if err != nil {
		return nil, err
	}
	cfg, err := eval.SplitsConfig(trainSet, testSet)
	if err != nil {
		return nil, err
	}
	for _, name := range cp.Models {
		kind, _ := model.ParseKind(name)
		spec := eval.DefaultModelSpec(kind)
		if remove != 0 {
			spec.Settings.Remove = remove.String()
		}
		spec.Settings.MinDF = cp.MinDF
		if kind.IsNB() && cp.AlphaGiven {
			spec.Params.Alpha = cp.Alpha
			if kind == model.Bernoulli {
				spec.Params.Beta = cp.Alpha
			}
		}
		if kind.IsLinear() && cp.CGiven {
			spec.Params.C = cp.C
		}
		cfg.Models = append(cfg.Models, spec)
	}
	cfg.Sizes, _ = parseSizes(cp.Sizes)
	cfg.Vary, _ = eval.ParseVary(cp.Vary)
	cfg.Metric, _ = eval.ParseMetric(cp.Metric)
	cfg.Repeats, cfg.Seed = cp.Repeats, uint64(cp.Seed)
	cfg.Workers, cfg.Progress, cfg.Corpus = cp.Workers, cp.Progress, corpusTitle(cp.Corpus)
	res, err := eval.LearningCurve(cfg)
	if err != nil {
		return nil, err
	}
	if over := clampedSizes(cfg.Sizes, res.Sizes); len(over) > 0 && cp.Warn != nil {
		top := res.Sizes[len(res.Sizes)-1]
		what := fmt.Sprintf("the %d training documents: these points train on all of them", top)
		if cfg.Vary == eval.VaryVocab {
			what = fmt.Sprintf("the %d terms the largest vocabulary keeps: these points keep every term", top)
		}
		cp.Warn(fmt.Sprintf("nbtext: --sizes %s: more than %s", strings.Join(over, ","), what))
	}
	return res, nil
}

// load reads the corpus of split ("train" or "test"), saying which one
// failed, and returns it with what its reader stripped (--remove).
func (cp *Compare) load(split string) (*corpus.Corpus, corpus.Remove, error) {
	src, err := cp.Source(split)
	if err == nil {
		err = src.CheckHold(cp.Budget, "compare")
	}
	var c *corpus.Corpus
	if err == nil {
		c, err = src.Load()
	}
	switch {
	case err == nil:
		return c, src.Options.Remove, nil
	case cp.OwnTest && split == "train":
		return nil, 0, fmt.Errorf("reading the training corpus: %w", err)
	case cp.OwnTest:
		return nil, 0, fmt.Errorf("reading the test corpus (--test): %w", err)
	}
	err = fmt.Errorf("reading the %s split (compare needs both): %w", split, err)
	// The reader's advice to read a tree without --split is not one
	// compare can follow.
	var ns *corpus.NoSplitError
	if errors.As(err, &ns) {
		err = fmt.Errorf("%s: %s", ns.Src, ns.Found())
	}
	return nil, 0, fmt.Errorf("%w; compare reads CORPUS as a pair of train and test splits: for a corpus without them, give a test corpus with --test (nbtext compare TRAIN --test TEST)", err)
}

// clampedSizes returns, as text, the sizes of asked that are larger than
// the largest of used (the sizes eval.LearningCurve kept after clamping
// them to the training split or vocabulary).
func clampedSizes(asked, used []int) []string {
	if len(used) == 0 {
		return nil
	}
	top := used[len(used)-1]
	var over []string
	for _, n := range asked {
		if n > top {
			over = append(over, strconv.Itoa(n))
		}
	}
	return over
}

// corpusTitle names the corpus at path for titles.
func corpusTitle(path string) string {
	if path == "" {
		return "20 Newsgroups"
	}
	base := filepath.Base(strings.TrimRight(path, "/"))
	for _, ext := range []string{".tar.gz", ".tgz", ".tar"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}
