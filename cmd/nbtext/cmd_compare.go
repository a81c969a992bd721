package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/pipeline"
)

// compareOptions are the flags of 'nbtext compare': the experiment's
// (pipeline.Compare) and its outputs.
type compareOptions struct {
	global *globalOptions
	corpus corpusOptions
	cp     pipeline.Compare
	test   string
	plot   string
	csv    string
}

func (o *compareOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddSubsetFlags(fs)
	o.corpus.AddFormatFlags(fs)
	fs.StringSliceVar(&o.cp.Models, "models", []string{"bernoulli", "multinomial", "logreg"}, "estimators to compare, each with its defaults")
	fs.StringVar(&o.cp.Sizes, "sizes", "", "training sizes m (or vocabulary sizes with --vary vocab), comma-separated (default: log-spaced from 10 to the whole split)")
	fs.IntVar(&o.cp.Repeats, "repeats", eval.DefaultRepeats, "random stratified subsets per size")
	fs.Int64Var(&o.cp.Seed, "seed", 1, "seed of the subsets (the same subsets for every model), ≥ 0")
	fs.StringVar(&o.test, "test", "", "test corpus: CORPUS is then the training corpus, read whole (any format), instead of a corpus with train and test splits")
	fs.StringVar(&o.cp.Metric, "metric", "error", "what to report: error, errors, accuracy or macro_f1")
	fs.StringVar(&o.cp.Vary, "vary", "size", "x axis: size (training documents) or vocab (vocabulary size, pruned by mutual information)")
	fs.StringVar(&o.plot, "plot", "", "draw the curves to FILE.png or FILE.svg")
	fs.StringVar(&o.csv, "csv", "", "write one row per (model, size, repeat) to FILE.csv, or with - to stdout instead of the table")
	fs.Float64Var(&o.cp.Alpha, "alpha", 0, "NB smoothing for every NB model (α = β for Bernoulli) instead of each model's default (e.g. 1: Laplace, as McCallum & Nigam)")
	fs.Float64Var(&o.cp.C, "C", 0, "logreg, svm, nblr: inverse regularisation strength instead of the default")
	fs.IntVar(&o.cp.MinDF, "min-df", 1, "every model keeps the terms in at least this many documents of its subset (the same rule for all, so the curves compare models, not pruning)")
	fs.IntVar(&o.cp.Workers, "workers", 0, "fits run at once (0: one per core); results do not depend on it")
}

func newCompareCmd(g *globalOptions) *cobra.Command {
	o := &compareOptions{global: g}
	cmd := &cobra.Command{
		Use:     "compare CORPUS | TRAIN --test TEST",
		Short:   "Learning curves: Naive Bayes against logistic regression as the training set grows",
		Long:    helpText("compare"),
		Example: exampleText("compare"),
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(args) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runCompare(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func (o *compareOptions) validate(args []string) error {
	o.cp.AlphaGiven, o.cp.CGiven = o.corpus.fs.Changed("alpha"), o.corpus.fs.Changed("C")
	return o.cp.CheckFlags(args, o.test, o.plot)
}

func runCompare(cmd *cobra.Command, args []string, o *compareOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	if err := checkOutputs(args, nil, o.csv, o.plot); err != nil {
		return err
	}
	start, quiet := time.Now(), o.global.quiet
	cp := &o.cp
	cp.OwnTest, cp.Corpus = o.test != "", ""
	if len(args) > 0 && !isCachedCorpus(args[0]) {
		cp.Corpus = args[0]
	}
	cp.Progress = progressIn(s.Err, quiet, "fitting", "fits") // one per model, size and repeat
	cp.Warn = func(msg string) { note(s.Err, false, "%s", msg) }
	cp.Source = func(split string) (pipeline.Source, error) {
		if o.test != "" {
			o.corpus.split = ""
			if split == "test" {
				return o.corpus.source(s, []string{o.test}, "", quiet)
			}
			return o.corpus.source(s, args, "", quiet)
		}
		o.corpus.split = split
		return o.corpus.source(s, args, split, quiet)
	}
	var err error
	if cp.Budget, err = membudget.Resolve(o.global.mem); err != nil {
		return usageErrorf("%v", err)
	}
	if o.test == "" {
		if err := requireCorpus(args); err != nil {
			return err
		}
		if isCachedCorpus(args[0]) {
			path, err := corpus.FindDefault()
			if err != nil {
				return err
			}
			o.corpus.defaultNoticed = true
			note(s.Err, false, "nbtext: %s: reading the train and test splits of the cached 20 Newsgroups archive %s", cachedCorpus, path)
		}
	}
	res, err := pipeline.RunCompare(cp)
	if err != nil {
		return err
	}
	wrote, err := res.WriteOutputs(s.Out, o.csv, o.plot)
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("%d fits in %.1fs", len(res.Runs), time.Since(start).Seconds())
	if len(wrote) > 0 {
		msg += "; wrote " + strings.Join(wrote, ", ")
	}
	note(s.Err, quiet, "%s", msg)
	return nil
}
