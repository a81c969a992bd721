package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
)

// evalFormats are the values of eval's --format.
var evalFormats = eval.Formats

// evalOptions are the flags of 'nbtext eval'.
type evalOptions struct {
	global                  *globalOptions
	corpus                  corpusOptions
	vec                     vectorizeOptions
	fit                     fitOptions
	rec                     recordOptions
	ml                      multiLabelOptions
	auto                    autoOptions
	model, format, baseline string
	topK, cv, workers       int
	confusion, normalize    bool
	followProfile           bool
	gates                   eval.Gates
	minRecall, minPrecision []string // LABEL=x values, parsed into gates by validate
	// trainingOnly are the vectorizer and estimator flags, which only
	// --cv uses: a model file fixes their settings.
	trainingOnly []string
}

func (o *evalOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	o.trainingOnly = addedFlags(fs, func(fs *pflag.FlagSet) {
		o.vec.AddModelFlags(fs)
		o.fit.AddFlags(fs)
		fs.BoolVar(&o.followProfile, "follow-profile", true, "with --cv: let the defaults follow the corpus as train's do (docs/defaults.md); =false keeps the fixed defaults")
	})
	o.rec.AddFlags(fs)
	o.ml.AddFlags(fs, true)
	fs.StringVarP(&o.model, "model", "m", "", "model file to evaluate; with --cv, the estimator to cross-validate (bernoulli, multinomial, complement, logreg)")
	fs.StringVar(&o.format, "format", "table", "output: table, tsv or json")
	fs.IntVar(&o.topK, "top-k", 0, "also report top-K accuracy")
	fs.BoolVar(&o.confusion, "confusion", false, "print the confusion matrix (counts)")
	fs.BoolVar(&o.normalize, "normalize", false, "print the confusion matrix as rates per true label (implies --confusion)")
	fs.Float64Var(&o.gates.MinAccuracy, "min-accuracy", 0, "exit with code 4 when accuracy is below this")
	fs.Float64Var(&o.gates.MinMacroF1, "min-macro-f1", 0, "exit with code 4 when macro-averaged F1 is below this")
	fs.Float64Var(&o.gates.MaxLogLoss, "max-log-loss", 0, "exit with code 4 when log-loss is above this (0: no gate)")
	fs.StringArrayVar(&o.minRecall, "min-recall", nil, "LABEL=x: exit with code 4 when the recall of LABEL is below x (repeatable)")
	fs.StringArrayVar(&o.minPrecision, "min-precision", nil, "LABEL=x: exit with code 4 when the precision of LABEL is below x (repeatable)")
	fs.StringVar(&o.baseline, "baseline", "", "OLD.nbm: also score this model on the same documents; exit with code 4 when the model's accuracy or macro F1 is below the baseline's by more than --tolerance")
	fs.Float64Var(&o.gates.Tolerance, "tolerance", 0, "with --baseline: how much lower than the baseline's the accuracy and macro F1 may be")
	fs.IntVar(&o.cv, "cv", 0, "instead of a model file, run stratified K-fold cross-validation of a training configuration")
	fs.IntVar(&o.workers, "workers", 0, "goroutines (0: one per core)")
	o.auto.AddFlags(fs, false)
}

func newEvalCmd(g *globalOptions) *cobra.Command {
	o := &evalOptions{global: g}
	cmd := &cobra.Command{
		Use:     "eval -m MODEL CORPUS",
		Short:   "Measure a model on a labelled corpus, or cross-validate a configuration",
		Long:    helpText("eval"),
		Example: exampleText("eval"),
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags()) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runEval(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	helpWithKindDefaults(cmd, 0, "with --cv, ", func() (model.Kind, bool) {
		k, err := model.ParseKind(o.model)
		return k, o.cv > 0 && err == nil
	})
	return cmd
}

// validate checks eval's flags (eval.Flags.Check).
func (o *evalOptions) validate(fs *pflag.FlagSet) error {
	return withCode(exitUsage, eval.Flags{
		Model: o.model, CV: o.cv, Auto: o.auto.on, Format: o.format, TopK: o.topK,
		MultiLabel: o.ml.multi, Fields: !o.rec.spec().Empty(), Baseline: o.baseline, ToleranceGiven: fs.Changed("tolerance"),
		MinRecall: o.minRecall, MinPrecision: o.minPrecision, TrainingOnly: givenOnCommandLine(fs, o.trainingOnly),
	}.Check(&o.gates, eval.Hooks{
		Search:     o.auto.validate,
		Fields:     o.rec.validate,
		MultiLabel: o.ml.validate,
	}))
}

func runEval(cmd *cobra.Command, args []string, o *evalOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	switch {
	case o.cv > 0 && o.auto.on:
		return runCVAuto(s, args, o)
	case o.cv > 0:
		return runCV(s, args, o)
	}
	verdict, err := eval.EvaluateFile(eval.FileOptions{
		Model: o.model, Baseline: o.baseline, MultiLabel: o.ml.multi, Fields: o.rec.spec(),
		RemoveGiven: o.corpus.changedRemove(), Threshold: o.ml.threshold, ThresholdGiven: o.ml.fs.Changed("threshold"),
		MinLabels: o.ml.minLabels, TopK: o.topK, Workers: o.workers, Format: o.format, Write: eval.WriteOptions{Confusion: o.confusion || o.normalize, Normalize: o.normalize},
		Gates: o.gates, Corpus: evalCorpus(args), Warn: func(msg string) { note(s.Err, false, "%s", msg) },
	}, o.loader(s, args), s.Out)
	return o.verdict(s, verdict, err)
}

// loader reads eval's corpus (the test split of 20news) as the model
// evaluated asks (eval.Reading).
func (o *evalOptions) loader(s streams, args []string) eval.Loader {
	return func(rd eval.Reading) (*corpus.Corpus, []int, error) {
		co := o.corpus
		co.useModelNames(rd.Model)
		if !co.changedRemove() {
			co.remove = rd.Remove
		}
		if rd.MultiLabel {
			co.multiLabel, co.labelSep = true, o.ml.sep
		}
		if !rd.Fields.Empty() {
			rec := o.rec
			rec.categorical, rec.numeric = rd.Fields.Categorical, rd.Fields.Numeric
			rec.apply(&co, rd.Kind)
		}
		if rd.Hold {
			co.holds, co.mem = "eval", o.global.mem
		}
		return loadCorpusStream(s, args, &co, "test", o.global.quiet, rd.Emit)
	}
}

// evalCorpus names the corpus args[0] in eval's messages.
func evalCorpus(args []string) string {
	if len(args) > 0 && isCachedCorpus(args[0]) {
		return "the cached 20 Newsgroups test split (" + cachedCorpus + ")"
	}
	return strings.Join(args, " ")
}

// verdict prints the gates' verdict on stderr and gives err its exit
// code: 4 for a gate not met, 2 for a gate that cannot apply or an option
// the model does not take, 3 for a model file that cannot be evaluated.
func (o *evalOptions) verdict(s streams, verdict string, err error) error {
	var (
		ue *eval.UsageError
		gu *eval.GateUnavailableError
		me *eval.ModelError
		ge *eval.GateError
	)
	switch {
	case errors.As(err, &ue), errors.As(err, &gu):
		return withCode(exitUsage, err)
	case errors.As(err, &me):
		return withCode(exitBadModel, err)
	case errors.As(err, &ge):
		return withCode(exitGate, err)
	case err == nil && verdict != "":
		note(s.Err, o.global.quiet, "nbtext: %s", verdict)
	}
	return err
}

// runCV is eval --cv: pipeline.CrossValidate of the training
// configuration the flags ask for on the corpus (20news: its train split).
func runCV(s streams, args []string, o *evalOptions) error {
	kind, _ := model.ParseKind(o.model)
	co := o.corpus
	o.rec.apply(&co, kind)
	src, err := co.source(s, args, "train", o.global.quiet)
	if err != nil {
		return err
	}
	budget, err := membudget.Resolve(o.global.mem)
	if err != nil {
		return usageErrorf("%v", err)
	}
	quiet := o.global.quiet
	res, err := pipeline.CrossValidate(&pipeline.Plan{
		Source: src, Kind: kind, Vectorizer: o.vec.apply, Fields: o.rec.spec(), Budget: budget, Workers: o.workers,
		FollowProfile: o.followProfile, Changed: o.fit.changed,
		Params: func(classes []string, sizes []int) (model.Params, bool, error) {
			p, auto, err := o.fit.params(kind, classes, sizes)
			if err == nil {
				o.rec.params(&p, kind)
			}
			return p, auto, err
		},
		Progress: func(phase string) func(done, total int) { return progress(s.Err, quiet, phase) },
		Warn:     func(msg string) { note(s.Err, false, "%s", msg) },
	}, o.cv, o.topK)
	if err != nil {
		return err
	}
	if err := res.Write(s.Out, o.format); err != nil {
		return err
	}
	verdict, err := o.gates.Check(res.Scores(), nil, o.baseline)
	return o.verdict(s, verdict, err)
}
