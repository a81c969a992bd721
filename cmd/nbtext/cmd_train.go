package main

import (
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/train"
)

// fitOptions are the estimator flags shared by train and eval --cv.
// Only flags the user set override the model's defaults
// (train.ParamSpecOf maps each flag to its parameter).
type fitOptions struct {
	fs       *pflag.FlagSet
	names    []string // the flags AddFlags added
	alpha, c string
	seed     int64
}

func (o *fitOptions) AddFlags(fs *pflag.FlagSet) {
	o.fs = fs
	o.names = addedFlags(fs, func(fs *pflag.FlagSet) {
		fs.StringVar(&o.alpha, "alpha", "", "NB smoothing α ≥ 0, or auto (cross-validated on the training data) (default: the model's)")
		fs.Float64("beta", 0, "Bernoulli NB: second Beta(α, β) prior parameter (default: equal to α)")
		fs.String("prior", "learned", "NB class prior: learned, uniform, or label=p,label=p,...")
		fs.StringVar(&o.c, "C", "", "logreg, svm, nblr: inverse regularisation strength C > 0, or auto (default: the model's)")
		fs.String("penalty", "", "logreg penalty: l2 (Gaussian prior), l1 (Laplace prior) or elasticnet (their mix, --l1-ratio) (default: the model's, l2)")
		fs.Float64("l1-ratio", train.DefaultL1Ratio, "logreg --penalty elasticnet: weight ρ ∈ [0, 1] of the L1 part, ρ‖W‖₁ + (1-ρ)‖W‖²/2")
		fs.String("class-weight", "", "weight of each class's documents: balanced (n / (classes × n_c)) or label=w,... (others 1) (default: all 1; not for centroid)")
		fs.Float64("interpolation", 0, "nblr: β ∈ [0, 1] of w' = (1-β)·mean|w| + β·w (default: the model's)")
		fs.String("solver", "", "logreg solver: lbfgs (gonum's L-BFGS) or sgd (mini-batch SGD) (default: the model's, sgd)")
		fs.Int("epochs", 0, "logreg: sgd epochs or lbfgs iterations; svm, nblr: most solver passes (default: the model's)")
		fs.Int("batch-size", 0, "logreg sgd: mini-batch size (default: the model's)")
		fs.Int64Var(&o.seed, "seed", 1, "random seed (sgd order, cross-validation folds)")
		fs.Bool("weight-norm", true, "complement: normalise each class's weights by their sum of magnitudes (Rennie et al. 2003); false is scikit-learn's ComplementNB(norm=False)")
		fs.String("centroid-offset", "", "centroid: per-class score offsets: none, prior (log of the class's share of documents) or fitted (on held-out leave-one-out scores, with the temperature) (default: the model's)")
		fs.Float64("temperature", 0, "NB: scale scores by τ so probabilities are calibrated; 1 turns calibration off (default: fitted by cross-validation for bernoulli and complement)")
	})
}

// trainOptions are the flags of 'nbtext train'.
type trainOptions struct {
	global  *globalOptions
	corpus  corpusOptions
	vec     vectorizeOptions
	fit     fitOptions
	rec     recordOptions
	ml      multiLabelOptions
	kind    string
	folds   int
	vocab   string
	output  string
	workers int
	// fromCounts is a counts file to fit from, stream counts in bounded
	// memory (cmd_count.go).
	fromCounts   string
	expectShards int // --from-counts: check the counts cover N shards
	stream       bool
	noStream     bool
	auto         autoOptions
	unl          unlabeledOptions // --per-class and semi-supervised EM (unlabeled.go)
	buffer       int              // rows --stream --model logreg shuffles together
	init         string
	// keepCounts writes the round-one counts beside the model
	// (cmd_update.go).
	keepCounts bool
	// followProfile lets defaults follow the corpus profile
	// (train.ProfileChoice).
	followProfile bool
	// fixed are the flags whose settings a --vocab file replaces.
	fixed []string
	// req is what the flags ask for, once validate checked it.
	req *pipeline.TrainRequest
}

func (o *trainOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	o.fixed = vocabFixedFlags(fs, addedFlags(fs, o.vec.AddModelFlags))
	o.fit.AddFlags(fs)
	o.rec.AddFlags(fs)
	o.ml.AddFlags(fs, false)
	fs.StringVar(&o.kind, "model", "multinomial", "estimator: "+strings.Join(model.KindNames(), ", "))
	fs.IntVar(&o.folds, "folds", train.DefaultFolds, "folds for --alpha auto and --C auto")
	fs.StringVar(&o.vocab, "vocab", "", "reuse a vocabulary file written by 'nbtext vocab': its settings replace the vectorizer flags and --remove, so giving those on the command line is a usage error (their NBTEXT_* and config-file values are ignored)")
	fs.StringVarP(&o.output, "output", "o", "", "model file to write (required)")
	fs.IntVar(&o.workers, "workers", 0, "goroutines for tokenizing and gradients (0: one per core)")
	fs.StringVar(&o.fromCounts, "from-counts", "", "fit a naive bayes or centroid model from a counts file ('nbtext count', 'nbtext merge') instead of a corpus")
	fs.IntVar(&o.expectShards, "expect-shards", 0, "with --from-counts: refuse counts that do not hold every document of their inputs once, as the merge of all N shards (count --shard i/N) does; names the missing shards")
	fs.IntVar(&o.buffer, "stream-buffer", train.DefaultStreamBuffer, "logreg, svm, nblr --stream: rows read (and shuffled, logreg) together per block (memory grows with it)")
	fs.StringVar(&o.init, "init", "", "logreg: start from this logistic regression model's weights (its vocabulary and classes; one shard-epoch of iterative parameter mixing with --epochs 1, see 'nbtext merge')")
	fs.BoolVar(&o.stream, "stream", false, "always train in bounded memory instead of holding the corpus (by default train streams where holding it would not fit, see --no-stream): naive bayes and centroid count it (tf-idf: two rounds, one with --vocab; record fields spool to disk; no probability calibration: give --temperature); logreg (--solver sgd) caches its rows on disk and reads them once per epoch; svm and nblr cache their rows and solve them block by block, their dual variables on disk (no calibration: give --temperature)")
	fs.BoolVar(&o.noStream, "no-stream", false, "hold the corpus in memory even where it would not fit the memory budget (--mem) or streaming gives the same model (default: stream when holding the corpus would take more than half the budget, or more than 512 MiB where streaming gives the same model: multinomial NB, logreg --solver sgd, the others with --temperature)")
	fs.BoolVar(&o.keepCounts, "keep-counts", false, "naive bayes, centroid: also write the counts of every term met (MODEL.nbc beside MODEL), which 'nbtext update' and 'nbtext forget' need to change the model exactly")
	fs.BoolVar(&o.followProfile, "follow-profile", true, "let the analyzer (char_wb 2,4 on short or unsegmented text), Bernoulli's α (short text) and multinomial's weighting (imbalanced classes) follow the corpus, from 1000 documents on, unless their flags are given; in memory, streamed and from counts (class balance only); multi-label takes the analyzer on at most 64 labels (not complement NB) or when the flag is given, and its multinomial and complement NB weigh by counts (complement with α 0.3); =false keeps the fixed defaults (docs/defaults.md)")
	o.auto.AddFlags(fs, true)
	o.unl.AddFlags(fs)
}

func newTrainCmd(g *globalOptions) *cobra.Command {
	o := &trainOptions{global: g}
	cmd := &cobra.Command{
		Use:     "train CORPUS --model KIND -o MODEL",
		Short:   "Fit a model (naive Bayes, logistic regression, SVM, NB-SVM, centroid) and save it",
		Long:    helpText("train"),
		Example: exampleText("train"),
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags()) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runTrain(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	helpWithKindDefaults(cmd, defaultKind, "", func() (model.Kind, bool) { k, err := model.ParseKind(o.kind); return k, err == nil })
	return cmd
}

// validate checks what the flags ask for (pipeline.TrainRequest.Check)
// and keeps it for the plan.
func (o *trainOptions) validate(fs *pflag.FlagSet) error {
	r := &pipeline.TrainRequest{
		Output: o.output, Kind: o.kind, Fields: o.rec.spec(), FieldParams: o.rec.p,
		MultiLabel: o.ml.multi, TuneThresholds: o.ml.tune, LabelSep: o.ml.sep,
		Stream: o.stream, NoStream: o.noStream, Auto: o.auto.on, Search: &o.auto.set, Leaderboard: o.auto.board,
		FromCounts: o.fromCounts, ExpectShards: o.expectShards, VocabFile: o.vocab, Init: o.init, KeepCounts: o.keepCounts,
		Folds: o.folds, Workers: o.workers, StreamBuffer: o.buffer,
		PerClass: o.unl.perClass, Unlabeled: o.unl.paths, UnlabeledSplit: o.unl.split, UnlabeledWeight: o.unl.weight, EM: &o.unl.em,
		Changed: fs.Changed, Given: givenOn(fs), VectorizerFlags: o.fixed,
	}
	o.req = r
	return r.Check()
}

// changed reports whether the user set the flag (command line, environment
// or config file).
func (o *fitOptions) changed(name string) bool { return o.fs.Changed(name) }

// params resolves the training parameters: the model's defaults,
// overridden by the flags that were set (train.ParamSpecOf, Resolve).
// auto reports --alpha auto or --C auto. sizes (documents per class,
// train.ClassSizes) gives the weights of --class-weight balanced.
func (o *fitOptions) params(kind model.Kind, classes []string, sizes []int) (model.Params, bool, error) {
	spec, err := train.ParamSpecOf(changedValues(o.fs, o.names))
	if err != nil {
		return model.Params{}, false, withCode(exitUsage, err)
	}
	p, auto, err := spec.Resolve(kind, classes, sizes)
	return p, auto, withCode(exitUsage, err)
}

func runTrain(cmd *cobra.Command, args []string, o *trainOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	keep := ""
	if o.keepCounts {
		keep = countsPath(o.output)
	}
	if err := checkOutputs(args, []string{o.vocab, o.init}, o.output, keep); err != nil {
		return err
	}
	if o.auto.on {
		// --auto prints its leaderboard, a result, even with -q.
		return runTrainAuto(s, args, o, time.Now())
	}
	plan, err := o.plan(s, args, keep)
	if err != nil {
		return err
	}
	rep, err := pipeline.Run(plan)
	if err != nil {
		return err
	}
	if !o.global.quiet {
		rep.Write(s.Out) // the summary is all train prints
	}
	return nil
}

// plan returns the training run the flags of o ask for on the corpora
// args, keeping the counts in keep when it is not empty.
func (o *trainOptions) plan(s streams, args []string, keep string) (*pipeline.Plan, error) {
	p := o.basePlan(s)
	var err error
	if p.Budget, err = membudget.Resolve(o.global.mem); err != nil {
		return nil, usageErrorf("%v", err)
	}
	if err := o.req.Apply(p, args); err != nil {
		return nil, err
	}
	kind := p.Kind
	p.Vectorizer, p.SoftMinDF = o.vec.apply, o.vec.softMinDF()
	p.Params = func(classes []string, sizes []int) (model.Params, bool, error) {
		p, auto, err := o.fit.params(kind, classes, sizes)
		if err == nil {
			o.rec.params(&p, kind)
		}
		return p, auto, err
	}
	p.Tune = o.fit.alpha == "auto" || o.fit.c == "auto"
	p.Changed, p.FollowProfile = o.fit.changed, o.followProfile
	p.KeepCounts, p.Seed = keep, o.fit.seed
	if o.fromCounts != "" {
		return p, checkOutputs([]string{o.fromCounts}, nil, o.output)
	}
	co := o.corpus
	o.rec.apply(&co, kind)
	o.ml.apply(&co)
	if p.Source, err = co.source(s, args, "train", o.global.quiet); err != nil {
		return nil, err
	}
	if o.unl.on() {
		if err := checkOutputs(nil, o.unl.paths, o.output); err != nil {
			return nil, err
		}
		if p.Unlabeled, err = o.unl.plan(s, &co, o.global.quiet); err != nil {
			return nil, err
		}
		p.Unlabeled.AlphaGiven, p.Unlabeled.BetaGiven = o.fit.changed("alpha"), o.fit.changed("beta")
	}
	return p, nil
}

// basePlan returns the plan's settings that every run of train shares:
// where the model goes and what it records, and how the run reports.
func (o *trainOptions) basePlan(s streams) *pipeline.Plan {
	quiet := o.global.quiet
	return &pipeline.Plan{
		Output:   o.output,
		Meta:     model.Meta{Version: buildVersion(), CreatedBy: "nbtext train", Input: o.corpus.inputNames()},
		Workers:  o.workers,
		Summary:  !quiet,
		Progress: func(phase string) func(done, total int) { return progress(s.Err, quiet, phase) },
		Note:     func(msg string) { note(s.Err, quiet, "%s", msg) },
		Warn:     func(msg string) { note(s.Err, false, "%s", msg) },
	}
}
