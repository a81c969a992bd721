package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/model"
)

// compareOptions are the flags of 'nbtext compare'.
type compareOptions struct {
	global  *globalOptions
	corpus  corpusOptions
	models  []string
	sizes   string
	repeats int
	seed    int64
	test    string
	metric  string
	vary    string
	plot    string
	csv     string
	alpha   float64
	c       float64
	minDF   int
	workers int
}

func (o *compareOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddSubsetFlags(fs)
	o.corpus.AddFormatFlags(fs)
	fs.StringSliceVar(&o.models, "models", []string{"bernoulli", "multinomial", "logreg"}, "estimators to compare, each with its defaults")
	fs.StringVar(&o.sizes, "sizes", "", "training sizes m (or vocabulary sizes with --vary vocab), comma-separated (default: log-spaced from 10 to the whole split)")
	fs.IntVar(&o.repeats, "repeats", eval.DefaultRepeats, "random stratified subsets per size")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the subsets (the same subsets for every model), ≥ 0")
	fs.StringVar(&o.test, "test", "", "test corpus: CORPUS is then the training corpus, read whole (any format), instead of a corpus with train and test splits")
	fs.StringVar(&o.metric, "metric", "error", "what to report: error, errors, accuracy or macro_f1")
	fs.StringVar(&o.vary, "vary", "size", "x axis: size (training documents) or vocab (vocabulary size, pruned by mutual information)")
	fs.StringVar(&o.plot, "plot", "", "draw the curves to FILE.png or FILE.svg")
	fs.StringVar(&o.csv, "csv", "", "write one row per (model, size, repeat) to FILE.csv, or with - to stdout instead of the table")
	fs.Float64Var(&o.alpha, "alpha", 0, "NB smoothing for every NB model (α = β for Bernoulli) instead of each model's default (e.g. 1: Laplace, as McCallum & Nigam)")
	fs.Float64Var(&o.c, "C", 0, "logreg, svm, nblr: inverse regularisation strength instead of the default")
	fs.IntVar(&o.minDF, "min-df", 1, "every model keeps the terms in at least this many documents of its subset (the same rule for all, so the curves compare models, not pruning)")
	fs.IntVar(&o.workers, "workers", 0, "fits run at once (0: one per core); results do not depend on it")
}

func newCompareCmd(g *globalOptions) *cobra.Command {
	o := &compareOptions{global: g}
	cmd := &cobra.Command{
		Use:   "compare CORPUS | TRAIN --test TEST",
		Short: "Learning curves: Naive Bayes against logistic regression as the training set grows",
		Long: `Fit each model on random stratified subsets of the training split, of growing
size, and score it on the test split: the experiment of Ng & Jordan (2002).
Naive Bayes reaches its (higher) asymptotic error after few examples;
logistic regression wins with enough data. Each subset gets its own
vocabulary, as a model trained on it alone would.

CORPUS must have train and test splits (the bydate layout); 20news names
the cached 20 Newsgroups archive. For a pair of corpora of your own,
give the training one as TRAIN and the test one with --test TEST (each a
folder, archive, TSV, CSV, JSONL or fastText file, plain or compressed, read
whole; see --input-format). The table gives mean ± std over the repeats
and says where the curves cross. --vary vocab instead varies the
vocabulary size (pruned by mutual information) on the whole training split,
as McCallum & Nigam (1998) did for Bernoulli against multinomial NB.`,
		Example: `  nbtext compare 20news --classes sci.crypt,comp.graphics --plot curves.png
  nbtext compare 20news --metric errors --csv runs.csv
  nbtext compare 20news --vary vocab --models bernoulli,multinomial --plot vocab.svg
  nbtext compare train.tsv --test test.tsv --models multinomial,logreg`,
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(args) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runCompare(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func (o *compareOptions) validate(args []string) error {
	if len(o.models) == 0 {
		return usageErrorf("--models needs at least one estimator")
	}
	seen := map[string]bool{}
	for _, m := range o.models {
		if _, err := model.ParseKind(m); err != nil {
			return usageErrorf("--models: %v", err)
		}
		if seen[m] {
			return usageErrorf("--models names %s twice: each estimator is fitted once, with its defaults", m)
		}
		seen[m] = true
	}
	if o.test != "" {
		if len(args) == 0 {
			return usageErrorf("--test needs the training corpus as argument: nbtext compare TRAIN --test TEST")
		}
		if args[0] == "-" && o.test == "-" {
			return usageErrorf("TRAIN and --test cannot both be standard input ('-')")
		}
	}
	if o.seed < 0 {
		return usageErrorf("--seed must be ≥ 0, got %d", o.seed)
	}
	if o.alpha < 0 || o.alpha != o.alpha {
		return usageErrorf("--alpha must be ≥ 0, got %g", o.alpha)
	}
	if o.changed("C") && !(o.c > 0) {
		return usageErrorf("--C must be > 0, got %g", o.c)
	}
	if o.minDF < 1 {
		return usageErrorf("--min-df must be ≥ 1, got %d", o.minDF)
	}
	if o.repeats < 1 {
		return usageErrorf("--repeats must be ≥ 1, got %d", o.repeats)
	}
	if _, err := eval.ParseMetric(o.metric); err != nil {
		return withCode(exitUsage, err)
	}
	if _, err := eval.ParseVary(o.vary); err != nil {
		return withCode(exitUsage, err)
	}
	if _, err := parseSizes(o.sizes); err != nil {
		return err
	}
	if o.plot != "" {
		switch strings.ToLower(filepath.Ext(o.plot)) {
		case ".png", ".svg":
		default:
			return usageErrorf("--plot must end in .png or .svg, got %q", o.plot)
		}
	}
	return nil
}

func (o *compareOptions) changed(name string) bool { return o.corpus.fs.Changed(name) }

func parseSizes(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, usageErrorf("--sizes must be positive whole numbers, got %q", part)
		}
		out = append(out, n)
	}
	return out, nil
}

func runCompare(cmd *cobra.Command, args []string, o *compareOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	if err := checkOutputs(args, nil, o.csv, o.plot); err != nil {
		return err
	}
	start := time.Now()
	o.corpus.holds, o.corpus.mem = "compare", o.global.mem
	trainSet, testSet, err := o.loadSplits(s, args)
	if err != nil {
		return err
	}
	cfg, err := eval.SplitsConfig(trainSet, testSet)
	if err != nil {
		return err
	}
	for _, name := range o.models {
		kind, _ := model.ParseKind(name)
		spec := eval.DefaultModelSpec(kind)
		if o.corpus.remove != "" {
			rm, _ := corpus.ParseRemove(o.corpus.remove)
			spec.Settings.Remove = rm.String()
		}
		spec.Settings.MinDF = o.minDF
		if kind.IsNB() && o.changed("alpha") {
			spec.Params.Alpha = o.alpha
			if kind == model.Bernoulli {
				spec.Params.Beta = o.alpha
			}
		}
		if kind.IsLinear() && o.changed("C") {
			spec.Params.C = o.c
		}
		cfg.Models = append(cfg.Models, spec)
	}
	cfg.Sizes, _ = parseSizes(o.sizes)
	cfg.Vary, _ = eval.ParseVary(o.vary)
	cfg.Metric, _ = eval.ParseMetric(o.metric)
	cfg.Repeats = o.repeats
	cfg.Seed = uint64(o.seed)
	cfg.Workers = o.workers
	cfg.Progress = progressIn(s.Err, o.global.quiet, "fitting", "fits") // one per model, size and repeat
	cfg.Corpus = corpusName(args)
	res, err := eval.LearningCurve(cfg)
	if err != nil {
		return err
	}
	if over := clampedSizes(cfg.Sizes, res.Sizes); len(over) > 0 {
		top := res.Sizes[len(res.Sizes)-1]
		what := fmt.Sprintf("the %d training documents: these points train on all of them", top)
		if cfg.Vary == eval.VaryVocab {
			what = fmt.Sprintf("the %d terms the largest vocabulary keeps: these points keep every term", top)
		}
		note(s.Err, false, "nbtext: --sizes %s: more than %s", strings.Join(over, ","), what)
	}
	if o.csv == "-" {
		if err := res.WriteCSV(s.Out); err != nil {
			return err
		}
	} else if err := res.WriteTable(s.Out); err != nil {
		return err
	}
	// The CSV and the plot are committed together: a failure or a kill
	// while either is written leaves both old files.
	var files []fsutil.File
	if o.csv != "" && o.csv != "-" {
		files = append(files, fsutil.File{Path: o.csv, Write: res.WriteCSV})
	}
	if o.plot != "" {
		draw, err := eval.PlotWriter(res, o.plot, eval.CurveTitle(res))
		if err != nil {
			return err
		}
		files = append(files, fsutil.File{Path: o.plot, Write: draw})
	}
	if err := fsutil.WriteFiles(files...); err != nil {
		return err
	}
	var wrote []string
	for _, f := range []string{o.csv, o.plot} {
		if f != "" && f != "-" {
			wrote = append(wrote, f)
		}
	}
	msg := fmt.Sprintf("%d fits in %.1fs", len(res.Runs), time.Since(start).Seconds())
	if len(wrote) > 0 {
		msg += "; wrote " + strings.Join(wrote, ", ")
	}
	note(s.Err, o.global.quiet, "%s", msg)
	return nil
}

// loadSplits reads the training and test corpora: TRAIN and --test TEST,
// or the train and test splits of CORPUS (or of the cached archive).
func (o *compareOptions) loadSplits(s streams, args []string) (trainSet, testSet *corpus.Corpus, err error) {
	if o.test != "" {
		o.corpus.split = ""
		if trainSet, err = loadCorpus(s, args, &o.corpus, "", o.global.quiet); err != nil {
			return nil, nil, fmt.Errorf("reading the training corpus: %w", err)
		}
		if testSet, err = loadCorpus(s, []string{o.test}, &o.corpus, "", o.global.quiet); err != nil {
			return nil, nil, fmt.Errorf("reading the test corpus (--test): %w", err)
		}
		return trainSet, testSet, nil
	}
	if err := requireCorpus(args); err != nil {
		return nil, nil, err
	}
	if isCachedCorpus(args[0]) {
		path, err := corpus.FindDefault()
		if err != nil {
			return nil, nil, err
		}
		o.corpus.defaultNoticed = true
		note(s.Err, false, "nbtext: %s: reading the train and test splits of the cached 20 Newsgroups archive %s", cachedCorpus, path)
	}
	for _, split := range []string{"train", "test"} {
		c, err := loadCorpusSplit(s, args, &o.corpus, split, o.global.quiet)
		if err != nil {
			// The reader's advice to read a tree without --split is
			// not one compare can follow.
			var ns *corpus.NoSplitError
			if errors.As(err, &ns) {
				err = fmt.Errorf("%s: %s", ns.Src, ns.Found())
			}
			return nil, nil, fmt.Errorf("%w; compare reads CORPUS as a pair of train and test splits: for a corpus without them, give a test corpus with --test (nbtext compare TRAIN --test TEST)", err)
		}
		if split == "train" {
			trainSet = c
		} else {
			testSet = c
		}
	}
	return trainSet, testSet, nil
}

// clampedSizes returns, as text, the sizes of asked that are larger than
// the largest of used (the sizes LearningCurve kept after clamping them
// to the training split or vocabulary).
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

// loadCorpusSplit reads one split of CORPUS (or of the cached archive).
func loadCorpusSplit(s streams, args []string, o *corpusOptions, split string, quiet bool) (*corpus.Corpus, error) {
	o.split = split
	c, err := loadCorpus(s, args, o, split, quiet)
	if err != nil {
		return nil, fmt.Errorf("reading the %s split (compare needs both): %w", split, err)
	}
	return c, nil
}

// corpusName names the source for titles.
func corpusName(args []string) string {
	if len(args) == 0 || isCachedCorpus(args[0]) {
		return "20 Newsgroups"
	}
	base := filepath.Base(strings.TrimRight(args[0], "/"))
	for _, ext := range []string{".tar.gz", ".tgz", ".tar"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}
