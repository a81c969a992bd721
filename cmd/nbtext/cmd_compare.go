package main

import (
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
	seed    uint64
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
	fs.StringSliceVar(&o.models, "models", []string{"bernoulli", "multinomial", "logreg"}, "estimators to compare, each with its defaults")
	fs.StringVar(&o.sizes, "sizes", "", "training sizes m (or vocabulary sizes with --vary vocab), comma-separated (default: log-spaced from 10 to the whole split)")
	fs.IntVar(&o.repeats, "repeats", eval.DefaultRepeats, "random stratified subsets per size")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the subsets (the same subsets for every model)")
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
		Use:   "compare [CORPUS]",
		Short: "Learning curves: Naive Bayes against logistic regression as the training set grows",
		Long: `Fit each model on random stratified subsets of the training split, of growing
size, and score it on the test split: the experiment of Ng & Jordan (2002).
Naive Bayes reaches its (higher) asymptotic error after few examples;
logistic regression wins with enough data. Each subset gets its own
vocabulary, as a model trained on it alone would.

CORPUS must have train and test splits (the bydate layout); without it the
cached 20 Newsgroups archive is used. The table gives mean ± std over the
repeats and says where the curves cross. --vary vocab instead varies the
vocabulary size (pruned by mutual information) on the whole training split,
as McCallum & Nigam (1998) did for Bernoulli against multinomial NB.`,
		Example: `  nbtext compare --classes sci.crypt,comp.graphics --plot curves.png
  nbtext compare --metric errors --csv runs.csv
  nbtext compare --vary vocab --models bernoulli,multinomial --plot vocab.svg`,
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate() },
		RunE:    func(cmd *cobra.Command, args []string) error { return runCompare(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func (o *compareOptions) validate() error {
	if len(o.models) == 0 {
		return usageErrorf("--models needs at least one estimator")
	}
	for _, m := range o.models {
		if _, err := model.ParseKind(m); err != nil {
			return usageErrorf("--models: %v", err)
		}
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
	start := time.Now()
	o.corpus.split = "train"
	trainSet, err := loadCorpusSplit(s, args, &o.corpus, "train", o.global.quiet)
	if err != nil {
		return err
	}
	testSet, err := loadCorpusSplit(s, args, &o.corpus, "test", o.global.quiet)
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
	cfg.Seed = o.seed
	cfg.Workers = o.workers
	cfg.Progress = progress(s.Err, o.global.quiet, "fitting")
	cfg.Corpus = corpusName(args)
	res, err := eval.LearningCurve(cfg)
	if err != nil {
		return err
	}
	if o.csv == "-" {
		if err := res.WriteCSV(s.Out); err != nil {
			return err
		}
	} else if err := res.WriteTable(s.Out); err != nil {
		return err
	}
	if o.csv != "" && o.csv != "-" {
		if err := fsutil.WriteFile(o.csv, res.WriteCSV); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := eval.PlotCurves(res, o.plot, eval.CurveTitle(res)); err != nil {
			return err
		}
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
	if len(args) == 0 {
		return "20 Newsgroups"
	}
	base := filepath.Base(strings.TrimRight(args[0], "/"))
	for _, ext := range []string{".tar.gz", ".tgz", ".tar"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}
