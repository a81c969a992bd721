package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// fitOptions are the estimator flags shared by train and eval --cv.
type fitOptions struct {
	fs      *pflag.FlagSet
	alpha   string
	beta    float64
	prior   string
	c       string
	penalty string
	solver  string
	epochs  int
	batch   int
	seed    int64
	// l1Ratio, classWeight and interp: --l1-ratio, --class-weight and
	// --interpolation.
	l1Ratio     float64
	classWeight string
	interp      float64
	// temperature is NB's probability calibration τ; unset means auto.
	temperature float64
	// weightNorm is complement NB's second weight normalisation
	// (model.Params.NoWeightNorm is its negation).
	weightNorm bool
	// centroidOffset is the nearest centroid's class offsets.
	centroidOffset string
}

func (o *fitOptions) AddFlags(fs *pflag.FlagSet) {
	o.fs = fs
	fs.StringVar(&o.alpha, "alpha", "", "NB smoothing α ≥ 0, or auto (cross-validated on the training data) (default: the model's)")
	fs.Float64Var(&o.beta, "beta", 0, "Bernoulli NB: second Beta(α, β) prior parameter (default: equal to α)")
	fs.StringVar(&o.prior, "prior", "learned", "NB class prior: learned, uniform, or label=p,label=p,...")
	fs.StringVar(&o.c, "C", "", "logreg, svm, nblr: inverse regularisation strength C > 0, or auto (default: the model's)")
	fs.StringVar(&o.penalty, "penalty", "", "logreg penalty: l2 (Gaussian prior), l1 (Laplace prior) or elasticnet (their mix, --l1-ratio) (default: the model's, l2)")
	fs.Float64Var(&o.l1Ratio, "l1-ratio", 0.5, "logreg --penalty elasticnet: weight ρ ∈ [0, 1] of the L1 part, ρ‖W‖₁ + (1-ρ)‖W‖²/2")
	fs.StringVar(&o.classWeight, "class-weight", "", "weight of each class's documents: balanced (n / (classes × n_c)) or label=w,... (others 1) (default: all 1; not for centroid)")
	fs.Float64Var(&o.interp, "interpolation", 0, "nblr: β ∈ [0, 1] of w' = (1-β)·mean|w| + β·w (default: the model's)")
	fs.StringVar(&o.solver, "solver", "", "logreg solver: lbfgs (gonum's L-BFGS) or sgd (mini-batch SGD) (default: the model's, sgd)")
	fs.IntVar(&o.epochs, "epochs", 0, "logreg: sgd epochs or lbfgs iterations; svm, nblr: most solver passes (default: the model's)")
	fs.IntVar(&o.batch, "batch-size", 0, "logreg sgd: mini-batch size (default: the model's)")
	fs.Int64Var(&o.seed, "seed", 1, "random seed (sgd order, cross-validation folds)")
	fs.BoolVar(&o.weightNorm, "weight-norm", true, "complement: normalise each class's weights by their sum of magnitudes (Rennie et al. 2003); false is scikit-learn's ComplementNB(norm=False)")
	fs.StringVar(&o.centroidOffset, "centroid-offset", "", "centroid: per-class score offsets: none, prior (log of the class's share of documents) or fitted (on held-out leave-one-out scores, with the temperature) (default: the model's)")
	fs.Float64Var(&o.temperature, "temperature", 0, "NB: scale scores by τ so probabilities are calibrated; 1 turns calibration off (default: fitted by cross-validation for bernoulli and complement)")
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
	fromCounts string
	stream     bool
	auto       autoOptions
	unl        unlabeledOptions // --per-class and semi-supervised EM (unlabeled.go)
	buffer     int              // rows --stream --model logreg shuffles together
	init       string
	// keepCounts writes the round-one counts beside the model
	// (cmd_update.go).
	keepCounts bool
	// followProfile lets defaults follow the corpus profile
	// (train.ProfileChoice).
	followProfile bool
	// fixed are the flags whose settings a --vocab file replaces.
	fixed []string
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
	fs.IntVar(&o.buffer, "stream-buffer", train.DefaultStreamBuffer, "logreg, svm, nblr --stream: rows read (and shuffled, logreg) together per block (memory grows with it)")
	fs.StringVar(&o.init, "init", "", "logreg: start from this logistic regression model's weights (its vocabulary and classes; one shard-epoch of iterative parameter mixing with --epochs 1, see 'nbtext merge')")
	fs.BoolVar(&o.stream, "stream", false, "train in bounded memory instead of holding the corpus: naive bayes and centroid count it (tf-idf: two rounds, one with --vocab; record fields spool to disk; no probability calibration: give --temperature); logreg (--solver sgd) caches its rows on disk and reads them once per epoch; svm and nblr cache their rows and solve them block by block, their dual variables on disk (no calibration: give --temperature)")
	fs.BoolVar(&o.keepCounts, "keep-counts", false, "naive bayes, centroid: also write the counts of every term met (MODEL.nbc beside MODEL), which 'nbtext update' and 'nbtext forget' need to change the model exactly")
	fs.BoolVar(&o.followProfile, "follow-profile", false, "let the analyzer (char_wb 2,4 on short or unsegmented text), Bernoulli's α (short text) and multinomial's weighting (imbalanced classes) follow the corpus, from 1000 documents on (docs/defaults.md); in-memory training only")
	o.auto.AddFlags(fs, true)
	o.unl.AddFlags(fs)
}

func newTrainCmd(g *globalOptions) *cobra.Command {
	o := &trainOptions{global: g}
	cmd := &cobra.Command{
		Use:   "train CORPUS --model KIND -o MODEL",
		Short: "Fit a model (naive Bayes, logistic regression, SVM, NB-SVM, centroid) and save it",
		Long: `Fit a model on a labelled corpus and save it as one self-contained file
(vocabulary, tokenizer and weighting settings, class names, training
parameters, weights; NB models also keep their counts).

CORPUS 20news reads the train split of the cached 20 Newsgroups archive.
Each model has defaults chosen on held-out parts of that split (see the
README); --alpha auto and --C auto choose by stratified k-fold
cross-validation on the training data, never on test data.

--auto searches model kind × preprocessing (stop words, n-grams, min_df,
sublinear tf, header field terms when the corpus has mail headers) × α or
C by stratified k-fold cross-validation on the training data (or on
--valid FILE), racing the candidates by successive halving within --budget,
prints a leaderboard and saves the best, which records how it was chosen.

--vocab FILE reuses a vocabulary written by 'nbtext vocab': the settings it
records (tokenizer, pruning, weighting and what --remove stripped) replace
the vectorizer flags. Giving one of those flags on the command line with
--vocab is a usage error; values NBTEXT_* variables or the config file give
them are defaults for other runs and are ignored.

--unlabeled CORPUS makes multinomial or Bernoulli NB also learn from
unlabelled documents by EM (Nigam et al. 2000), with their weight λ
(--unlabeled-weight, cross-validated by default); --per-class N trains on N
documents per class drawn with --seed, and --unlabeled-rest makes the rest
unlabelled. See docs/semi-supervised.md.`,
		Example: `  nbtext train 20news --model multinomial -o news.nbm
  nbtext train 20news --model bernoulli --alpha auto -o bern.nbm
  nbtext train corpus.tsv --model logreg --C 10 -o lr.nbm
  nbtext train corpus.tsv --auto --budget 60s -o best.nbm
  nbtext train few.tsv --unlabeled many.tsv -o em.nbm   # NB + EM on unlabelled documents`,
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags()) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runTrain(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	helpWithKindDefaults(cmd, defaultKind, "", func() (model.Kind, bool) { k, err := model.ParseKind(o.kind); return k, err == nil })
	return cmd
}

func (o *trainOptions) validate(fs *pflag.FlagSet) error {
	if o.output == "" {
		return usageErrorf("-o MODEL is required")
	}
	if o.output == "-" {
		return usageErrorf("-o -: a model is written to a file (atomically, via a temporary file), not to stdout")
	}
	kind, err := model.ParseKind(o.kind)
	if err != nil {
		return usageErrorf("--model: %v", err)
	}
	if err := o.rec.validate(kind); err != nil {
		return err
	}
	if err := o.ml.validate(); err != nil {
		return err
	}
	if o.ml.multi && (!o.rec.spec().Empty() || kind.RecordOnly()) {
		return usageErrorf("--multi-label takes text models without record fields")
	}
	if o.stream && o.auto.on {
		return usageErrorf("--auto cross-validates candidate models on documents held in memory: drop --stream")
	}
	if o.auto.on && o.ml.multi {
		return usageErrorf("--auto searches models of one label per document; with --multi-label choose --model (and --tune-thresholds) instead of --auto")
	}
	if o.stream && o.ml.multi {
		return usageErrorf("--stream trains models of one label per document: drop --multi-label")
	}
	if !o.rec.spec().Empty() && o.fromCounts != "" {
		// Counts hold terms, not record fields: the fields would be
		// dropped without a word.
		return usageErrorf("--from-counts fits text only: record fields (--categorical-field, --numeric-field) need train from the corpus, or with --stream")
	}
	if o.folds < 2 {
		return usageErrorf("--folds must be ≥ 2, got %d", o.folds)
	}
	if err := o.unl.validate(fs, o); err != nil {
		return err
	}
	if o.workers < 0 {
		return usageErrorf("--workers must be ≥ 0, got %d", o.workers)
	}
	if o.keepCounts {
		if err := o.validateKeepCounts(kind); err != nil {
			return err
		}
	}
	if o.fromCounts != "" {
		return o.validateFromCounts(fs)
	}
	if o.auto.on {
		return o.auto.validate()
	}
	if o.buffer < 1 {
		return usageErrorf("--stream-buffer must be ≥ 1, got %d", o.buffer)
	}
	if o.init != "" {
		if o.ml.multi {
			return usageErrorf("--init starts one logistic regression model, not --multi-label ones")
		}
		if err := checkFixedFlags(fs, o.fixed, "--init", "the model fixes the vocabulary and vectorizer settings"); err != nil {
			return err
		}
	}
	if o.vocab != "" {
		return checkVocabConflicts(fs, o.fixed)
	}
	return nil
}

// profileChoice returns the choice of kind's defaults from the corpus
// profile, or nil when they do not follow it: a kind whose defaults do
// not, or settings fixed by a vocabulary or a model to start from.
func (o *trainOptions) profileChoice(kind model.Kind, settings vectorize.Settings) *train.ProfileChoice {
	if !o.followProfile || !train.ProfileFollows(kind) || o.vocab != "" || o.init != "" {
		return nil
	}
	fixed := false
	for _, name := range train.AnalyzerFlags {
		fixed = fixed || o.fit.fs.Changed(name)
	}
	return train.NewProfileChoice(kind, settings, fixed)
}

// parseAuto parses a float flag that also accepts "auto"; empty keeps def.
func parseAuto(name, s string, def float64) (v float64, auto bool, err error) {
	switch s {
	case "":
		return def, false, nil
	case "auto":
		return def, true, nil
	}
	v, err = finite(name, s)
	if err != nil {
		return 0, false, usageErrorf("--%s must be a finite number or auto, got %q", name, s)
	}
	return v, false, nil
}

// parsePrior parses --prior: learned, uniform or label=p,...
func parsePrior(s string) (string, map[string]float64, error) {
	switch s {
	case "learned", "uniform":
		return s, nil, nil
	}
	given := map[string]float64{}
	for _, part := range strings.Split(s, ",") {
		label, p, ok := strings.Cut(part, "=")
		if !ok {
			return "", nil, usageErrorf("--prior must be learned, uniform or label=p,..., got %q", s)
		}
		f, err := finite("prior", p)
		if err != nil || f < 0 {
			return "", nil, usageErrorf("--prior: %q is not a probability", part)
		}
		given[strings.TrimSpace(label)] = f
	}
	return "given", given, nil
}

// changed reports whether the user set the flag (command line, environment
// or config file).
func (o *fitOptions) changed(name string) bool { return o.fs.Changed(name) }

// params resolves the training parameters: the model's defaults, overridden
// by the flags that were set. auto reports --alpha auto or --C auto.
// sizes (documents per class, train.ClassSizes) gives the weights of
// --class-weight balanced.
func (o *fitOptions) params(kind model.Kind, classes []string, sizes []int) (model.Params, bool, error) {
	_, p := train.Defaults(kind)
	auto := false
	if kind == model.NBLR {
		if o.alpha == "auto" {
			return p, false, usageErrorf("--alpha auto: nblr tunes C only (--C auto)")
		}
		a, _, err := parseAuto("alpha", o.alpha, p.Alpha)
		if err != nil {
			return p, false, err
		}
		p.Alpha = a
		if o.changed("interpolation") {
			p.Interpolation = o.interp
		}
	}
	if kind.IsNB() {
		a, isAuto, err := parseAuto("alpha", o.alpha, p.Alpha)
		if err != nil {
			return p, false, err
		}
		betaFollows := p.Beta == p.Alpha
		p.Alpha, auto = a, isAuto
		if kind == model.Complement && o.changed("weight-norm") {
			p.NoWeightNorm = !o.weightNorm
		}
		if kind == model.Bernoulli {
			switch {
			case o.changed("beta"):
				p.Beta = o.beta
			case betaFollows:
				p.Beta = p.Alpha
			}
		}
	} else if !kind.Generative() && kind != model.Centroid && !kind.Discriminant() {
		c, isAuto, err := parseAuto("C", o.c, p.C)
		if err != nil {
			return p, false, err
		}
		p.C, auto = c, isAuto
		if o.changed("penalty") && kind == model.LogReg {
			p.Penalty = o.penalty
		}
		if p.Penalty == "elasticnet" {
			p.L1Ratio = o.l1Ratio
		}
		if o.changed("solver") && o.solver != p.Solver && kind == model.LogReg {
			p.Solver = o.solver
			p.Epochs = train.DefaultEpochs(p.Solver)
		}
		if o.changed("epochs") {
			p.Epochs = o.epochs
		}
		if o.changed("batch-size") && kind == model.LogReg {
			p.BatchSize = o.batch
		}
	}
	if kind == model.Centroid && o.changed("centroid-offset") {
		p.CentroidOffset = o.centroidOffset
	}
	if o.changed("temperature") {
		// Decisions never depend on τ (they are taken from the scores), but
		// a τ so small that τ·w underflows would zero the weights.
		if t := o.temperature; t != 0 && !(t >= train.MinTemperature && t <= train.MaxTemperature) {
			return p, false, usageErrorf("--temperature must be in [%g, %g] or 0 (fitted; 1: no calibration), got %v", train.MinTemperature, train.MaxTemperature, t)
		}
		p.Temperature = o.temperature
	}
	cw, err := train.ClassWeights(o.classWeight, classes, sizes)
	if err != nil {
		return p, false, withCode(exitUsage, err)
	}
	p.ClassWeight, p.ClassWeights = o.classWeight, cw
	if o.changed("seed") {
		p.Seed = o.seed
	}
	prior, given, err := parsePrior(o.prior)
	if err != nil {
		return p, false, err
	}
	p.Prior = prior
	if given != nil {
		p.Priors = make([]float64, len(classes))
		for label, pr := range given {
			i := indexOf(classes, label)
			if i < 0 {
				return p, false, usageErrorf("--prior: unknown class %q (the corpus has %s)", label, strings.Join(classes, ", "))
			}
			p.Priors[i] = pr
		}
	}
	if err := train.ValidateParams(kind, p, len(classes)); err != nil {
		return p, false, withCode(exitUsage, err)
	}
	return p, auto, nil
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

// readVocabFile reads the vocabulary file of --vocab (written by 'nbtext
// vocab'), whose settings the corpus co is read with: it is stripped as
// it was for the vocabulary.
func readVocabFile(path string, co *corpusOptions) (*vectorize.Vocabulary, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	vocab, err := vectorize.ReadTSV(f, path)
	f.Close()
	if err != nil {
		return nil, err
	}
	if _, err := corpus.ParseRemove(vocab.Settings.Remove); err != nil {
		return nil, fmt.Errorf("%s: remove setting: %w", path, err)
	}
	co.remove = vocab.Settings.Remove
	return vocab, nil
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
	if o.global.quiet {
		s.Out = io.Discard // the summary is all train prints
	}
	if o.fromCounts != "" {
		return runTrainFromCounts(s, args, o)
	}
	if o.unl.on() {
		return runTrainEM(s, args, o, time.Now())
	}
	if o.stream {
		switch k, _ := model.ParseKind(o.kind); k {
		case model.LogReg:
			return runTrainStreamLogReg(s, args, o)
		case model.SVM, model.NBLR:
			return runTrainStreamDual(s, args, o, k)
		}
		return runTrainStream(s, args, o)
	}
	start := time.Now()
	kind, _ := model.ParseKind(o.kind)
	settings, _ := train.Defaults(kind)
	var vocab *vectorize.Vocabulary
	co := o.corpus
	o.rec.apply(&co, kind)
	o.ml.apply(&co)
	if o.vocab != "" {
		var err error
		if vocab, err = readVocabFile(o.vocab, &co); err != nil {
			return err
		}
		settings = vocab.Settings
	} else if err := o.vec.apply(&settings); err != nil {
		return err
	}
	init, err := loadInit(o.init, kind, vocab, o.vocab)
	if err != nil {
		return err
	}
	if init != nil {
		vocab, settings = init.Vocab, init.Vocab.Settings
		co.remove = settings.Remove
	}
	remove, err := co.removeSetting()
	if err != nil {
		return err
	}
	settings.Remove = remove
	var (
		c  *corpus.Corpus
		y  []int
		X  *vectorize.Matrix
		pc *train.ProfileChoice // the corpus profile the defaults follow
	)
	if vocab != nil {
		vocab.Settings.Remove = settings.Remove
		if c, err = loadCorpus(s, args, &co, "train", o.global.quiet); err != nil {
			return err
		}
		o.unl.sample(c, o.fit.seed)
		y = c.LabelIDs()
		X = train.PrepareWith(vocab, c.Texts(), o.workers)
	} else if kind.RecordOnly() { // no text
		if c, err = loadCorpus(s, args, &co, "train", o.global.quiet); err != nil {
			return err
		}
		o.unl.sample(c, o.fit.seed)
		y = c.LabelIDs()
	} else if o.unl.perClass > 0 {
		// The sample is drawn from the whole corpus, then vectorized.
		if c, err = loadCorpus(s, args, &co, "train", o.global.quiet); err != nil {
			return err
		}
		o.unl.sample(c, o.fit.seed)
		y = c.LabelIDs()
		if vocab, X, err = train.Prepare(c.Texts(), y, len(c.Labels), settings, o.workers, nil); err != nil {
			return err
		}
	} else {
		// The texts are tokenized as they are read; only a supervised
		// selection tuned inside each fold (below) reads them again.
		co.dropTexts = (settings.Select == "" || (o.fit.alpha != "auto" && o.fit.c != "auto")) && !o.keepCounts
		pc = o.profileChoice(kind, settings)
		if c, y, vocab, X, err = fitCorpus(s, args, &co, settings, pc, o.vec.softMinDF(), o.workers, o.global.quiet, true); err != nil {
			return err
		}
		pc.Weighting(vocab, train.ClassSizes(y, len(c.Labels)), o.fit.changed)
		vocab.Weight(X)
	}
	p, auto, err := o.fit.params(kind, c.Labels, train.ClassSizes(y, len(c.Labels)))
	if err != nil {
		return err
	}
	pc.Params(&p, o.fit.changed)
	p.Profile = pc.Note()
	if init != nil {
		if err := train.SameClasses(init.Classes, c.Labels, o.init, "the corpus"); err != nil {
			return err
		}
	}
	o.rec.params(&p, kind)
	if o.ml.multi {
		if auto {
			return usageErrorf("--alpha auto and --C auto do not apply to --multi-label")
		}
		return trainMultiLabel(s, o, kind, c, X, vocab, p, start)
	}
	var recs *train.Records
	if spec := o.rec.spec(); !spec.Empty() {
		if recs, err = records(c, spec); err != nil {
			return err
		}
	}
	if w := train.DegenerateWarning(kind, p); w != "" {
		fmt.Fprintf(s.Err, "nbtext: warning: %s\n", w)
	}
	if auto {
		topt := train.TuneOptions{
			Folds: o.folds, Seed: uint64(p.Seed), Fit: train.Options{Workers: o.workers},
			Progress: progress(s.Err, o.global.quiet, "cross-validating"),
		}
		var t *train.Tuning
		if settings.Select != "" && o.vocab == "" {
			// Supervised selection must be redone inside each fold.
			t, err = train.Tune(kind, c.Texts(), y, c.Labels, settings, p, topt)
		} else {
			t, err = train.TuneMatrix(kind, X, y, c.Labels, vocab, p, topt)
		}
		if err != nil {
			return err
		}
		writeTuning(s.Out, t)
		p = t.Apply(p)
	}
	if X != nil {
		// Vectorized and tuned on, the texts are dropped before a large
		// model's arrays are allocated: only the labels are read below.
		train.ReleaseBeforeFit(kind, X.Cols, len(c.Labels), c.DropTexts)
	}
	m, cal, err := train.FitWithFields(kind, X, y, c.Labels, vocab, p, train.Options{
		Workers: o.workers, Progress: progress(s.Err, o.global.quiet, "fitting"), Init: init,
	}, recs)
	if err != nil {
		return err
	}
	if err := saveModel(s.Out, o, m, X, recs, y, len(c.Docs), p, cal, start); err != nil {
		return err
	}
	if o.keepCounts {
		return keepCounts(s.Out, c, m, keep, o.workers)
	}
	return nil
}

// saveModel records who made m, writes it to o.output and prints its
// summary on w, with its accuracy on its training rows X and record fields
// recs (nil without fields; labels y), computed while the file is written.
func saveModel(w io.Writer, o *trainOptions, m *model.Model, X *vectorize.Matrix, recs *train.Records, y []int, docs int, p model.Params, cal *train.Calibration, start time.Time) error {
	// Not the command line: the same data and settings give the same bytes.
	m.Meta.Version, m.Meta.CreatedBy = buildVersion(), "nbtext train"
	m.Meta.Input = o.corpus.inputNames()
	kind := m.Kind
	if w == io.Discard {
		// -q: no summary, so the training rows need not be scored.
		return model.Save(o.output, m)
	}
	accc := make(chan float64, 1)
	go func() { accc <- train.AccuracyRecords(m, X, recs, y, o.workers) }()
	if err := model.Save(o.output, m); err != nil {
		return err
	}
	acc := <-accc
	fmt.Fprintf(w, "model        %s -> %s\n", kind, o.output)
	fmt.Fprintf(w, "documents    %d\n", docs)
	fmt.Fprintf(w, "classes      %d\n", len(m.Classes))
	fmt.Fprintf(w, "vocabulary   %d terms\n", m.NumTerms())
	if m.Fields != nil {
		fmt.Fprintf(w, "fields       %d categorical, %d numeric\n", len(m.Fields.Categorical), len(m.Fields.Numeric))
	}
	switch {
	case kind == model.LogReg:
		fmt.Fprintf(w, "C            %g (%s, %s)\n", p.C, p.Penalty, p.Solver)
	case kind == model.SVM || kind == model.NBLR:
		fmt.Fprintf(w, "C            %g\n", p.C)
	case kind.IsNB():
		fmt.Fprintf(w, "alpha        %g\n", p.Alpha)
	}
	switch {
	case cal != nil && cal.Skipped != "":
		fmt.Fprintf(w, "temperature  1 (calibration skipped: %s)\n", cal.Skipped)
	case cal != nil:
		fmt.Fprintf(w, "temperature  %.4g (held-out log-loss %.3f -> %.3f)\n", cal.Temperature, cal.LogLoss1, cal.LogLoss)
	case p.Temperature > 0 && kind != model.LogReg:
		fmt.Fprintf(w, "temperature  %.4g (given)\n", p.Temperature)
	}
	if p.Profile != "" {
		fmt.Fprintf(w, "defaults     %s\n", p.Profile)
	}
	fmt.Fprintf(w, "train acc    %.4f\n", acc)
	fmt.Fprintf(w, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}

// writeTuning prints the cross-validated score of every candidate.
func writeTuning(w io.Writer, t *train.Tuning) {
	fmt.Fprintf(w, "%d-fold cross-validation on the training data:\n", t.Folds)
	fmt.Fprintf(w, "  %-8s  %-8s  %s\n", t.Param, "accuracy", "std")
	for i, c := range t.Candidates {
		mark := ""
		if i == t.Best {
			mark = "  <- chosen"
		}
		fmt.Fprintf(w, "  %-8g  %.4f    %.4f%s\n", c.Value, c.Mean, c.Std, mark)
	}
}
