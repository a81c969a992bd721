package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// evalFormats are the values of eval's --format.
var evalFormats = []string{"table", "tsv", "json"}

// evalOptions are the flags of 'nbtext eval'.
type evalOptions struct {
	global    *globalOptions
	corpus    corpusOptions
	vec       vectorizeOptions
	fit       fitOptions
	rec       recordOptions
	ml        multiLabelOptions
	model     string
	format    string
	topK      int
	confusion bool
	normalize bool
	gates     eval.Gates
	// minRecall and minPrecision are the LABEL=x values of --min-recall
	// and --min-precision, parsed into gates by validate.
	minRecall, minPrecision []string
	baseline                string
	cv                      int
	workers                 int
	// trainingOnly are the vectorizer and estimator flags, which only
	// --cv uses: a model file fixes their settings.
	trainingOnly []string
	auto         autoOptions
}

func (o *evalOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	o.trainingOnly = addedFlags(fs, func(fs *pflag.FlagSet) {
		o.vec.AddModelFlags(fs)
		o.fit.AddFlags(fs)
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
		Use:   "eval -m MODEL CORPUS",
		Short: "Measure a model on a labelled corpus, or cross-validate a configuration",
		Long: `Score a model on a labelled corpus and report accuracy, per-class precision,
recall, F1 and support, macro/micro/weighted averages, log-loss, top-k accuracy
and, with --confusion, the confusion matrix.

CORPUS 20news reads the test split of the cached 20 Newsgroups archive.
The model's own --remove setting applies unless --remove is given. Labels the
model does not know are reported by name and counted as errors.

CI gates, in every mode (a model file, --multi-label, record fields, --cv,
--cv --auto): --min-accuracy, --min-macro-f1, --max-log-loss, --min-recall
LABEL=x and --min-precision LABEL=x make the exit code 4 when a score is on
the wrong side of its threshold; --baseline OLD.nbm scores an older model on
the same documents and fails when the accuracy or macro F1 falls more than
--tolerance below the old one's. One line on stderr gives the verdict. A gate
that cannot apply (a log-loss without probabilities, a label the evaluation
does not have, a baseline for --cv) is a usage error (exit 2). With
--multi-label, accuracy is the subset accuracy; with --cv, the scores are
the means over the folds.

A model trained on records or with --multi-label is evaluated as such: the
field names and the multi-label reading come from the model file, unless
--multi-label, --categorical-field or --numeric-field are given.

With --cv K, --model names an estimator instead of a file, and eval runs
stratified K-fold cross-validation of that training configuration (with the
vectorizer and estimator flags of 'nbtext train') on CORPUS (20news: its
train split), reporting the mean and standard deviation of each metric.`,
		Example: `  nbtext eval -m news.nbm 20news
  nbtext eval -m news.nbm 20news --format json --top-k 3
  nbtext eval -m news.nbm 20news --min-accuracy 0.85      # CI gate
  nbtext eval -m new.nbm test.tsv --baseline old.nbm --tolerance 0.005
  nbtext eval -m spam.nbm test.tsv --min-recall spam=0.9 --max-log-loss 0.3
  nbtext eval -m news.nbm 20news --confusion --normalize
  nbtext eval 20news --cv 5 --model bernoulli --alpha 0.1
  nbtext eval 20news --cv 5 --auto --budget 5m         # nested CV of train --auto`,
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

func (o *evalOptions) validate(fs *pflag.FlagSet) error {
	if o.auto.on {
		if o.cv == 0 {
			return usageErrorf("--auto needs --cv K: eval --cv K --auto cross-validates the whole search (nested)")
		}
		if err := o.auto.validate(); err != nil {
			return err
		}
	}
	if o.model == "" && !o.auto.on {
		return usageErrorf("-m MODEL is required (with --cv: --model KIND)")
	}
	if o.cv == 0 {
		if err := checkTrainingOnly(fs, o.trainingOnly); err != nil {
			return err
		}
	}
	if !slices.Contains(evalFormats, o.format) {
		return usageErrorf("--format must be table, tsv or json, got %q", o.format)
	}
	if o.topK < 0 {
		return usageErrorf("--top-k must be ≥ 0, got %d", o.topK)
	}
	if o.cv == 1 || o.cv < 0 {
		return usageErrorf("--cv must be ≥ 2, got %d", o.cv)
	}
	kind := model.Multinomial // without --cv, the field flags only name fields
	if o.cv > 0 && o.model != "" {
		var err error
		if kind, err = model.ParseKind(o.model); err != nil {
			return usageErrorf("with --cv, --model names an estimator: %v", err)
		}
	}
	if err := o.rec.validate(kind); err != nil {
		return err
	}
	if err := o.ml.validate(); err != nil {
		return err
	}
	if o.ml.multi && (o.cv > 0 || !o.rec.spec().Empty()) {
		return usageErrorf("--multi-label evaluates a multi-label model file, without --cv or record fields")
	}
	if err := o.gates.Validate(); err != nil {
		return withCode(exitUsage, err)
	}
	var err error
	if o.gates.MinRecall, err = eval.ParseLabelThresholds("--min-recall", o.minRecall); err != nil {
		return withCode(exitUsage, err)
	}
	if o.gates.MinPrecision, err = eval.ParseLabelThresholds("--min-precision", o.minPrecision); err != nil {
		return withCode(exitUsage, err)
	}
	if o.baseline != "" && o.cv > 0 {
		return usageErrorf("--baseline compares two model files on one corpus; eval --cv has no model file")
	}
	if fs.Changed("tolerance") && o.baseline == "" {
		return usageErrorf("--tolerance needs --baseline OLD.nbm")
	}
	if o.gates.MaxLogLoss > 0 && o.ml.multi {
		return usageErrorf("--max-log-loss: a multi-label evaluation has no log-loss")
	}
	return nil
}

func runEval(cmd *cobra.Command, args []string, o *evalOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	if o.cv > 0 && o.auto.on {
		return runCVAuto(s, args, o)
	}
	if o.cv > 0 {
		return runCV(s, args, o)
	}
	if !o.rec.spec().Empty() {
		return runEvalRecords(s, args, o, nil)
	}
	if o.ml.multi {
		return runEvalMultiLabel(s, args, o, nil)
	}
	// The model decides how the corpus is read: a multi-label model reads
	// label sets, a model with record fields reads its fields.
	m, err := model.Load(o.model)
	if err != nil {
		return withCode(exitBadModel, err)
	}
	if m.MultiLabel {
		return runEvalMultiLabel(s, args, o, m)
	}
	if m.Fields != nil {
		return runEvalRecords(s, args, o, m)
	}
	// Unless --remove is given, the corpus is read as is and the scorer
	// strips as the model says.
	co := o.corpus
	co.useModelNames(m)
	strip := !co.changedRemove()
	if strip {
		co.remove = ""
	}
	ls := eval.StartStreamScorer(m, o.model, o.workers, strip)
	defer ls.Close()
	emit := ls.Add
	var lb *eval.LoadingScorer
	if o.baseline != "" {
		lb = eval.LoadStreamScorer(o.baseline, o.workers, strip)
		defer lb.Close()
		emit = func(text string) { ls.Add(text); lb.Add(text) }
	}
	if _, err := ls.Wait(); err != nil {
		return modelError(err)
	}
	co.holds, co.mem = "eval", o.global.mem
	c, seq, readErr := loadCorpusStream(s, args, &co, "test", o.global.quiet, emit)
	if readErr != nil {
		return readErr
	}
	ss, _ := ls.Wait()
	labels := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		labels[i] = d.Label
	}
	r, err := ss.Finish(seq, labels, eval.Options{TopK: o.topK})
	if err != nil {
		return err
	}
	if err := checkSomeKnown(r, args); err != nil {
		return err
	}
	var old *eval.Scores
	if lb != nil {
		bs, err := lb.Wait()
		if err != nil {
			return modelError(err)
		}
		if bm := bs.Model(); bm.MultiLabel || bm.Fields != nil {
			return usageErrorf("--baseline %s is a multi-label model or one with record fields; %s is neither", o.baseline, o.model)
		}
		br, err := bs.Finish(seq, labels, eval.Options{})
		if err != nil {
			return err
		}
		sc := br.Scores()
		old = &sc
	}
	return finishEval(s, o, r, old)
}

// finishEval writes the report of an eval, warns of unknown labels and
// applies the quality gates (old: the baseline's scores, or nil).
func finishEval(s streams, o *evalOptions, r *eval.Report, old *eval.Scores) error {
	wo := eval.WriteOptions{Confusion: o.confusion || o.normalize, Normalize: o.normalize}
	if err := writeReport(s.Out, o.format, r, wo); err != nil {
		return err
	}
	if len(r.Unknown) > 0 {
		note(s.Err, false, "nbtext: warning: %d documents have labels the model does not know (counted as errors): %s", r.UnknownN(), unknownList(r.Unknown))
	}
	return applyGates(s, o, r.Scores(), old)
}

// applyGates applies o's gates to sc (and the baseline's scores old, when
// not nil) and prints the verdict on stderr: exit 4 for a gate not met,
// 2 for a gate that cannot apply to this evaluation.
func applyGates(s streams, o *evalOptions, sc eval.Scores, old *eval.Scores) error {
	verdict, err := o.gates.Check(sc, old, o.baseline)
	var gu *eval.GateUnavailableError
	if errors.As(err, &gu) {
		return withCode(exitUsage, err)
	}
	if err != nil {
		return gateCode(err)
	}
	if verdict != "" {
		note(s.Err, o.global.quiet, "nbtext: %s", verdict)
	}
	return nil
}

// checkTrainingOnly fails with a usage error naming each of names given
// on the command line: eval without --cv scores a model file, whose
// settings those flags cannot change. NBTEXT_* and config-file values are
// meant for train and eval --cv, and are ignored.
func checkTrainingOnly(fs *pflag.FlagSet, names []string) error {
	set := givenOnCommandLine(fs, names)
	if len(set) == 0 {
		return nil
	}
	return usageErrorf("%s: %s, used only with --cv; a model file (-m) keeps the settings it was trained with", strings.Join(set, ", "), plural(len(set), "a training setting", "training settings"))
}

// checkSomeKnown fails when no document of the corpus has a label the
// model knows: such a report measures the wrong corpus (a pos/neg model
// on 20 Newsgroups, for want of a corpus argument), not the model.
func checkSomeKnown(r *eval.Report, args []string) error {
	if r.N == 0 || r.UnknownN() < r.N {
		return nil
	}
	var known []string
	for _, m := range r.PerClass {
		if !m.Unknown {
			known = append(known, m.Label)
		}
	}
	unknown := sortedKeys(r.Unknown)
	where := args[0]
	if isCachedCorpus(where) {
		where = "the cached 20 Newsgroups test split (" + cachedCorpus + ")"
	}
	return fmt.Errorf("none of the %d documents of %s has a label the model knows (labels %s; the model predicted %s): give the corpus the model was trained for", r.N, where, firstFew(unknown), firstFew(known))
}

// firstFew joins up to five names, and says how many more there are.
func firstFew(names []string) string {
	const few = 5
	if len(names) <= few {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:few], ", "), len(names)-few)
}

// modelError gives a failure of eval.LoadStreamScorer its exit code: a
// bad model file, or a usage error for a Remove setting that does not
// parse (as --remove would not).
func modelError(err error) error {
	var re *eval.RemoveSettingError
	if errors.As(err, &re) {
		return usageErrorf("--remove: %v", re.Err)
	}
	return withCode(exitBadModel, err)
}

func writeReport(w io.Writer, format string, r *eval.Report, wo eval.WriteOptions) error {
	switch format {
	case "json":
		return eval.WriteJSON(w, r, wo)
	case "tsv":
		return eval.WriteTSV(w, r, wo)
	default:
		return eval.WriteTable(w, r, wo)
	}
}

// gateCode gives a failed quality gate its own exit code.
func gateCode(err error) error {
	var ge *eval.GateError
	if errors.As(err, &ge) {
		return withCode(exitGate, err)
	}
	return err
}

func unknownList(u map[string]int) string {
	out := ""
	for _, l := range sortedKeys(u) {
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s (%d)", l, u[l])
	}
	return out
}

func runCV(s streams, args []string, o *evalOptions) error {
	kind, _ := model.ParseKind(o.model)
	settings, _ := train.Defaults(kind)
	if err := o.vec.apply(&settings); err != nil {
		return err
	}
	o.rec.apply(&o.corpus, kind)
	o.corpus.holds, o.corpus.mem = "eval --cv", o.global.mem
	c, err := loadCorpus(s, args, &o.corpus, "train", o.global.quiet)
	if err != nil {
		return err
	}
	if settings.Remove, err = o.corpus.removeSetting(); err != nil {
		return err
	}
	p, auto, err := o.fit.params(kind, c.Labels, train.ClassSizes(c.LabelIDs(), len(c.Labels)))
	if err != nil {
		return err
	}
	if auto {
		return usageErrorf("--alpha auto and --C auto belong to train; eval --cv measures one configuration")
	}
	if w := train.DegenerateWarning(kind, p); w != "" {
		fmt.Fprintf(s.Err, "nbtext: warning: %s\n", w)
	}
	res, err := crossValidate(s, c, settings, kind, p, o)
	if err != nil {
		return err
	}
	if err := writeCV(s.Out, o.format, res); err != nil {
		return err
	}
	return applyGates(s, o, res.Scores(), nil)
}

// crossValidate runs eval --cv on c: CrossValidate, or CrossValidateRecords
// when record fields are named.
func crossValidate(s streams, c *corpus.Corpus, settings vectorize.Settings, kind model.Kind, p model.Params, o *evalOptions) (*eval.CVResult, error) {
	if spec := o.rec.spec(); !spec.Empty() {
		r, err := records(c, spec)
		if err != nil {
			return nil, err
		}
		o.rec.params(&p, kind)
		return eval.CrossValidateRecords(c.Texts(), c.LabelIDs(), c.Labels, settings, kind, p, r, o.cv, uint64(p.Seed), eval.CVOptions{
			Workers: o.workers, TopK: o.topK, Progress: progress(s.Err, o.global.quiet, "cross-validating"),
		})
	}
	return eval.CrossValidate(c.Texts(), c.LabelIDs(), c.Labels, settings, kind, p, o.cv, uint64(p.Seed), eval.CVOptions{
		Workers: o.workers, TopK: o.topK, Progress: progress(s.Err, o.global.quiet, "cross-validating"),
	})
}

// writeCV writes a cross-validation result in format.
func writeCV(w io.Writer, format string, res *eval.CVResult) error {
	switch format {
	case "json":
		return res.WriteJSON(w)
	case "tsv":
		return res.WriteTSV(w)
	default:
		return res.WriteTable(w)
	}
}
