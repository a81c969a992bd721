package eval

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// ModelSpec is one training configuration compared by a learning curve or
// cross-validated: an estimator with its vectorizer settings and training
// parameters.
type ModelSpec struct {
	Name     string // shown in tables, CSV and plots; "" means Kind.String()
	Kind     model.Kind
	Settings vectorize.Settings
	Params   model.Params
}

func (s ModelSpec) name() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Kind.String()
}

// DefaultRepeats is the number of random subsets drawn per training size.
const DefaultRepeats = 5

// CurveConfig describes a learning-curve experiment.
type CurveConfig struct {
	// TrainTexts and TrainLabels are the training split (label ids index
	// Classes); subsets are drawn from it.
	TrainTexts  []string
	TrainLabels []int
	// TestTexts and TestLabels are the test split every fit is scored on.
	TestTexts  []string
	TestLabels []int
	Classes    []string
	// Models are the configurations compared, each fitted on the same
	// subsets.
	Models []ModelSpec
	// Vary is VarySize (default) or VaryVocab.
	Vary Vary
	// Sizes are the x values: training sizes m for VarySize (default
	// DefaultSizes), vocabulary sizes K for VaryVocab (default
	// DefaultVocabSizes). They are clamped to the training split (or to the
	// largest full vocabulary), sorted and deduplicated.
	Sizes []int
	// Repeats is the number of random subsets per training size (default
	// DefaultRepeats). VaryVocab always trains on the whole split, so it
	// uses one.
	Repeats int
	// Seed seeds the subsets: the subset of size m and repeat r is drawn by
	// corpus.StratifiedSubset with a generator seeded from (Seed, m, r),
	// the same for every model and whatever Workers is.
	Seed uint64
	// Metric is what the result reports (default MetricError); every run
	// records all metrics anyway.
	Metric Metric
	// Workers is the number of fits run at once (0: GOMAXPROCS).
	Workers int
	// Progress, when not nil, is called after each fit with the number
	// done and the total, from one goroutine at a time.
	Progress func(done, total int)
	// Corpus describes the source, for titles ("20news-bydate").
	Corpus string
}

// SplitsConfig returns a CurveConfig holding the texts and labels of a
// training and a test corpus (label ids index the training corpus's
// labels, which become Classes), for the caller to add models and options.
// It fails when the test corpus has labels the training corpus lacks,
// naming them: no model trained on the split could ever predict them.
func SplitsConfig(trainSet, testSet *corpus.Corpus) (CurveConfig, error) {
	names := make([]string, len(testSet.Docs))
	for i, d := range testSet.Docs {
		names[i] = d.Label
	}
	truth, unknown := MapLabels(trainSet.Labels, names)
	if len(unknown) > 0 {
		return CurveConfig{}, fmt.Errorf("the test documents have labels the training documents lack: %s", strings.Join(unknown, ", "))
	}
	return CurveConfig{
		TrainTexts: trainSet.Texts(), TrainLabels: trainSet.LabelIDs(),
		TestTexts: testSet.Texts(), TestLabels: truth,
		Classes: trainSet.Labels,
	}, nil
}

// DefaultSizes returns the default training sizes for a split of n
// documents in nClasses classes: the 1-2-5 ladder 10, 20, 50, 100, ...
// below n, starting at the first step that gives every class a document,
// then n itself.
func DefaultSizes(n, nClasses int) []int {
	var out []int
	for _, m := range ladder(10, n) {
		if m >= nClasses {
			out = append(out, m)
		}
	}
	return append(out, n)
}

// DefaultVocabSizes returns the default vocabulary sizes for a vocabulary of
// V terms: the 1-2-5 ladder from 10 below V, then V (every term).
func DefaultVocabSizes(V int) []int { return append(ladder(10, V), V) }

// ladder returns the 1-2-5 sequence from start (a power of ten) while below
// limit.
func ladder(start, limit int) []int {
	var out []int
	for p := start; ; p *= 10 {
		for _, f := range []int{1, 2, 5} {
			if p*f >= limit {
				return out
			}
			out = append(out, p*f)
		}
	}
}

// subsetRNG returns the generator of the subset of size m and repeat r.
func subsetRNG(seed uint64, m, r int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(m)<<24^uint64(r)^0x9e3779b97f4a7c15))
}

// LearningCurve fits every model of cfg on training subsets of growing size
// (or, with VaryVocab, on the whole training split with growing
// vocabularies) and scores each fit on the test split.
//
// With VarySize it draws, for each size m, Repeats stratified random
// subsets of the training split, the same for every model, and fits each
// model with its vocabulary refitted on the subset, as Ng & Jordan (2002)
// compare naive Bayes and logistic regression: a vocabulary fixed from the
// whole split would give small subsets thousands of never-seen terms, which
// is harmless for multinomial NB but makes Bernoulli NB, which scores the
// absence of every term, look absurd. With VaryVocab the x values are K of
// "mi:K" selection by mutual information (McCallum & Nigam 1998:
// Bernoulli NB peaks at a small vocabulary, multinomial keeps improving).
//
// Speed: each tokenizer (models differing only in pruning and weighting
// share one) runs once over the training and test texts, against the full
// unpruned vocabulary; a refitted vocabulary is then a column restriction
// to the terms present in the subset, pruned by the model's settings (see
// restrict.go: the same vocabulary and matrices vectorize.Fit would give),
// computed once for all models with identical settings. Fits run on Workers
// goroutines, largest first; each run's subset depends
// only on (Seed, m, repeat) and its result is stored by index, so the
// result does not depend on Workers. At the full size every repeat trains
// on the same documents, so it is fitted once and copied.
func LearningCurve(cfg CurveConfig) (*CurveResult, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	nTrain, C := len(cfg.TrainTexts), len(cfg.Classes)
	vary := cfg.Vary
	if vary == "" {
		vary = VarySize
	}
	metric := cfg.Metric
	if metric == "" {
		metric = MetricError
	}
	repeats := cfg.Repeats
	if repeats <= 0 {
		repeats = DefaultRepeats
	}
	if vary == VaryVocab {
		repeats = 1
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	// Tokenize once per tokenizer.
	type tokData struct {
		tk   *tokenized
		test *vectorize.Matrix
	}
	toks := map[vectorize.Settings]*tokData{}
	var keys []vectorize.Settings
	for _, m := range cfg.Models {
		k := baseSettings(m.Settings)
		if toks[k] == nil {
			tk, test, err := tokenize(cfg.TrainTexts, m.Settings, workers, cfg.TestTexts)
			if err != nil {
				return nil, fmt.Errorf("tokenize the training split for %s: %w", m.name(), err)
			}
			toks[k] = &tokData{tk, test}
			keys = append(keys, k)
		}
	}
	// maxV is the largest full vocabulary (it sizes the scratch buffers);
	// prunedV the largest a model can have after its own df pruning on the
	// whole split, the top of the VaryVocab axis.
	maxV, prunedV := 0, 0
	for _, m := range cfg.Models {
		tk := toks[baseSettings(m.Settings)].tk
		maxV = max(maxV, len(tk.terms))
		prunedV = max(prunedV, prunedSize(tk, m.Settings))
	}

	sizes := slices.Clone(cfg.Sizes)
	if len(sizes) == 0 {
		if vary == VaryVocab {
			sizes = DefaultVocabSizes(prunedV)
		} else {
			sizes = DefaultSizes(nTrain, C)
		}
	}
	limit := nTrain // a larger size trains on the whole split
	if vary == VaryVocab {
		limit = prunedV // a larger K keeps every term
	}
	for i, s := range sizes {
		if s < 1 {
			return nil, fmt.Errorf("sizes must be ≥ 1, got %d", s)
		}
		sizes[i] = min(s, limit)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)

	// The subsets, shared by every model.
	all := make([]int, nTrain)
	for i := range all {
		all[i] = i
	}
	subsets := make([][][]int, len(sizes))
	for j, m := range sizes {
		subsets[j] = make([][]int, repeats)
		for r := range repeats {
			if vary == VaryVocab || m >= nTrain {
				subsets[j][r] = all
			} else {
				subsets[j][r] = corpus.StratifiedSubset(cfg.TrainLabels, m, subsetRNG(cfg.Seed, m, r))
			}
		}
	}

	res := &CurveResult{
		Vary: vary, Metric: metric, Sizes: sizes, Repeats: repeats,
		Runs:   make([]Run, len(cfg.Models)*len(sizes)*repeats),
		Corpus: cfg.Corpus, Classes: cfg.Classes, Seed: cfg.Seed, NTrain: nTrain,
	}
	for _, m := range cfg.Models {
		res.Models = append(res.Models, m.name())
	}

	// Models with identical settings see identical refitted vocabularies
	// and matrices: group them so that one restriction serves them all.
	var groups [][]int
	for mi, m := range cfg.Models {
		found := false
		for g, members := range groups {
			if cfg.Models[members[0]].Settings == m.Settings {
				groups[g] = append(members, mi)
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, []int{mi})
		}
	}
	// Jobs: one per group and distinct subset; copies (full size,
	// repeat > 0) are filled in afterwards.
	type job struct{ g, si, r, cost int }
	var jobs []job
	totalFits := 0
	for g, members := range groups {
		for si := range sizes {
			for r := range repeats {
				if r > 0 && len(subsets[si][r]) == nTrain {
					continue
				}
				c := 0
				for _, mi := range members {
					if cfg.Models[mi].Kind == model.LogReg {
						c += 8 // a rough guess: only the order depends on it
					} else {
						c++
					}
				}
				jobs = append(jobs, job{g, si, r, c * len(subsets[si][r])})
				totalFits += len(members)
			}
		}
	}
	// Largest first; the order only balances the load.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return jobs[b].cost - jobs[a].cost })

	var mu sync.Mutex
	fitsDone := 0
	err := runJobs(order, workers, maxV, nil, func(i int, sc *scratch) error {
		j := jobs[i]
		members := groups[j.g]
		s := cfg.Models[members[0]].Settings
		if vary == VaryVocab {
			s.Select = fmt.Sprintf("mi:%d", sizes[j.si])
		}
		td := toks[baseSettings(s)]
		rows := subsets[j.si][j.r]
		where := func(mi int) string {
			return fmt.Sprintf("%s, %s, repeat %d", cfg.Models[mi].name(), vary.at(sizes[j.si]), j.r)
		}
		rs, err := td.tk.restrict(rows, cfg.TrainLabels, C, s, sc)
		if err != nil {
			return fmt.Errorf("%s: %w", where(members[0]), err)
		}
		Xtr, Xte := rs.apply(td.tk.X, rows), rs.apply(td.test, nil)
		y := make([]int, len(rows))
		for k, r := range rows {
			y[k] = cfg.TrainLabels[r]
		}
		for _, mi := range members {
			spec := cfg.Models[mi]
			run, err := fitAndScore(Xtr, y, Xte, cfg.TestLabels, cfg.Classes, rs.vocab, spec, workers)
			if err != nil {
				return fmt.Errorf("%s: %w", where(mi), err)
			}
			run.Model, run.Size, run.Repeat = spec.name(), sizes[j.si], j.r
			res.Runs[(mi*len(sizes)+j.si)*repeats+j.r] = run
			if cfg.Progress != nil {
				mu.Lock()
				fitsDone++
				cfg.Progress(fitsDone, totalFits)
				mu.Unlock()
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range res.Runs {
		if r := i % repeats; r > 0 && res.Runs[i].Model == "" {
			res.Runs[i] = res.Runs[i-r]
			res.Runs[i].Repeat = r
		}
	}
	return res, nil
}

// check validates a CurveConfig.
func (cfg *CurveConfig) check() error {
	if len(cfg.TrainTexts) == 0 {
		return errors.New("no training documents")
	}
	if len(cfg.TestTexts) == 0 {
		return errors.New("no test documents")
	}
	if len(cfg.TrainLabels) != len(cfg.TrainTexts) || len(cfg.TestLabels) != len(cfg.TestTexts) {
		return fmt.Errorf("labels do not match texts: %d/%d training, %d/%d test", len(cfg.TrainLabels), len(cfg.TrainTexts), len(cfg.TestLabels), len(cfg.TestTexts))
	}
	if len(cfg.Classes) < 2 {
		return fmt.Errorf("need at least two classes, got %d", len(cfg.Classes))
	}
	for _, y := range [][]int{cfg.TrainLabels, cfg.TestLabels} {
		for i, c := range y {
			if c < 0 || c >= len(cfg.Classes) {
				return fmt.Errorf("document %d: label id %d out of range [0, %d)", i, c, len(cfg.Classes))
			}
		}
	}
	if len(cfg.Models) == 0 {
		return errors.New("no models to compare")
	}
	names := map[string]bool{}
	for _, m := range cfg.Models {
		if names[m.name()] {
			return fmt.Errorf("model %s given twice (give the specs distinct names)", m.name())
		}
		names[m.name()] = true
		if err := m.Settings.Validate(); err != nil {
			return fmt.Errorf("%s: %w", m.name(), err)
		}
		if err := train.ValidateParams(m.Kind, m.Params, len(cfg.Classes)); err != nil {
			return fmt.Errorf("%s: %w", m.name(), err)
		}
	}
	if cfg.Vary != "" && cfg.Vary != VarySize && cfg.Vary != VaryVocab {
		return fmt.Errorf("--vary must be size or vocab, got %q", cfg.Vary)
	}
	if cfg.Metric != "" {
		if _, err := ParseMetric(string(cfg.Metric)); err != nil {
			return err
		}
	}
	if cfg.Repeats < 0 {
		return fmt.Errorf("--repeats must be ≥ 1, got %d", cfg.Repeats)
	}
	return nil
}

// fitAndScore fits spec on the refitted training matrix and scores it on
// the test matrix over the same vocabulary.
func fitAndScore(Xtr *vectorize.Matrix, ytr []int, Xte *vectorize.Matrix, yte []int, classes []string, vocab *vectorize.Vocabulary, spec ModelSpec, workers int) (Run, error) {
	m, err := train.Fit(spec.Kind, Xtr, ytr, classes, vocab, spec.Params, train.Options{Workers: workers, NoCalibrate: true}) // curves use decisions only
	if err != nil {
		return Run{}, err
	}
	pred, _, _ := Score(m, Xte, 1, false)
	rep, err := Evaluate(Input{Classes: classes, Truth: yte, Pred: pred}, Options{})
	if err != nil {
		return Run{}, err
	}
	return Run{
		TrainDocs: len(ytr), Terms: vocab.Len(), NTest: rep.N,
		Errors: rep.N - rep.Correct, Accuracy: rep.Accuracy, MacroF1: rep.Macro.F1,
	}, nil
}
