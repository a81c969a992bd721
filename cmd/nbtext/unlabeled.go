package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/semisup"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// unlabeledOptions are the flags of train's labelled sample (--per-class)
// and of semi-supervised EM (--unlabeled and the flags that tune it).
type unlabeledOptions struct {
	perClass int
	paths    []string
	split    string
	classes  []string
	rest     bool
	weight   string
	iters    int
	tol      float64
}

// emFlags are the flags that mean nothing without unlabelled documents.
var emFlags = []string{"unlabeled-split", "unlabeled-classes", "unlabeled-weight", "em-iterations", "em-tol"}

func (o *unlabeledOptions) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.perClass, "per-class", 0, "train on a sample of N documents of each class of the corpus, drawn with --seed (0: all)")
	fs.StringArrayVar(&o.paths, "unlabeled", nil, "also learn from the unlabelled documents of this corpus (any format; labels ignored) by EM, for multinomial and bernoulli NB; repeat for several. Its defaults: word counts, English stop words, multinomial α 0.1 (see docs/semi-supervised.md)")
	fs.StringVar(&o.split, "unlabeled-split", "", "split folder of the --unlabeled corpora to read, train or test")
	fs.StringSliceVar(&o.classes, "unlabeled-classes", nil, "read only these label folders of the --unlabeled corpora, e.g. unsup (aclImdb's train/unsup, which is skipped otherwise)")
	fs.BoolVar(&o.rest, "unlabeled-rest", false, "with --per-class: the documents of the corpus left out of the sample are unlabelled documents too")
	fs.StringVar(&o.weight, "unlabeled-weight", "auto", "λ ≥ 0: the weight of an unlabelled document relative to a labelled one, or auto (cross-validated on the labelled documents among "+floats(semisup.DefaultWeightGrid)+")")
	fs.IntVar(&o.iters, "em-iterations", semisup.DefaultMaxIter, "most EM iterations, each reading the unlabelled documents once")
	fs.Float64Var(&o.tol, "em-tol", semisup.DefaultTol, "stop EM when the log-likelihood changes by less than this fraction")
}

func floats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// on reports whether train learns from unlabelled documents.
func (o *unlabeledOptions) on() bool { return len(o.paths) > 0 || o.rest }

// validate checks the flags of o against the rest of train's, t.
func (o *unlabeledOptions) validate(fs *pflag.FlagSet, t *trainOptions) error {
	if o.perClass < 0 {
		return usageErrorf("--per-class must be ≥ 0, got %d", o.perClass)
	}
	if o.perClass > 0 && (t.stream || t.fromCounts != "" || t.auto.on) {
		return usageErrorf("--per-class draws its sample from a corpus held in memory: drop --stream, --from-counts and --auto")
	}
	if o.rest && o.perClass == 0 {
		return usageErrorf("--unlabeled-rest needs --per-class: the documents left out of the sample are the unlabelled ones")
	}
	if !o.on() {
		for _, name := range emFlags {
			if fs.Changed(name) {
				return usageErrorf("--%s needs unlabelled documents: give --unlabeled CORPUS or --unlabeled-rest", name)
			}
		}
		return nil
	}
	for _, p := range o.paths {
		if p == "" || p == "-" {
			return usageErrorf("--unlabeled takes a file or folder, read once per pass, not %q", p)
		}
	}
	switch o.split {
	case "", "train", "test":
	default:
		return usageErrorf("--unlabeled-split must be train or test, got %q", o.split)
	}
	switch {
	case t.stream, t.fromCounts != "", t.auto.on:
		return usageErrorf("--unlabeled fits naive bayes by EM from documents it vectorizes itself: drop --stream, --from-counts and --auto")
	case t.ml.multi:
		return usageErrorf("--unlabeled fits models of one label per document: drop --multi-label")
	case !t.rec.spec().Empty():
		return usageErrorf("--unlabeled fits text models: drop --categorical-field and --numeric-field")
	case t.init != "":
		return usageErrorf("--init starts logistic regression, which --unlabeled does not fit")
	}
	switch kind, _ := model.ParseKind(t.kind); kind {
	case model.Multinomial, model.Bernoulli:
	case model.Complement:
		return usageErrorf("--unlabeled: complement naive bayes is not a generative model (its scores are no likelihood for EM to climb): use --model multinomial or bernoulli")
	default:
		return usageErrorf("--unlabeled fits naive bayes by EM: --model multinomial or bernoulli, not %s", kind)
	}
	if _, _, err := o.lambda(); err != nil {
		return err
	}
	if o.iters < 0 {
		return usageErrorf("--em-iterations must be ≥ 0, got %d", o.iters)
	}
	if !(o.tol >= 0) || math.IsInf(o.tol, 1) {
		return usageErrorf("--em-tol must be a finite number ≥ 0, got %v", o.tol)
	}
	return nil
}

// lambda parses --unlabeled-weight: a finite λ ≥ 0, or auto.
func (o *unlabeledOptions) lambda() (float64, bool, error) {
	if o.weight == "auto" {
		return 0, true, nil
	}
	w, err := finite("unlabeled-weight", o.weight)
	if err != nil || w < 0 {
		return 0, false, usageErrorf("--unlabeled-weight must be a finite number ≥ 0 or auto, got %q", o.weight)
	}
	return w, false, nil
}

// sample keeps --per-class documents of each class of c, drawn with seed,
// and returns the documents left out (nil without --per-class).
func (o *unlabeledOptions) sample(c *corpus.Corpus, seed int64) (rest []corpus.Document) {
	if o.perClass <= 0 {
		return nil
	}
	keep, out := corpus.PerClass(c.LabelIDs(), o.perClass, rand.New(rand.NewPCG(uint64(seed), 0x6e62746578740002)))
	rest = corpus.Pick(c.Docs, out)
	c.Docs = corpus.Pick(c.Docs, keep)
	return rest
}

// runTrainEM is 'nbtext train --unlabeled': the labelled corpus (or its
// --per-class sample) in memory; a vocabulary counted over the labelled
// and the unlabelled documents (or read with --vocab); the unlabelled
// documents streamed a second time into a row cache on disk
// (semisup.Unlabeled); then semisup.FitEM, with λ chosen by
// semisup.ChooseWeight for --unlabeled-weight auto.
func runTrainEM(s streams, args []string, o *trainOptions, start time.Time) error {
	if err := checkOutputs(nil, o.unl.paths, o.output); err != nil {
		return err
	}
	kind, _ := model.ParseKind(o.kind)
	settings, defs := semisup.Defaults(kind)
	co := o.corpus
	var vocab *vectorize.Vocabulary
	var err error
	if o.vocab != "" {
		if vocab, err = readVocabFile(o.vocab, &co); err != nil {
			return err
		}
		settings = vocab.Settings
	} else if err := o.vec.apply(&settings); err != nil {
		return err
	}
	if settings.Remove, err = co.removeSetting(); err != nil {
		return err
	}
	if vocab == nil && settings.Select != "" {
		return usageErrorf("--select chooses terms by their labels, which unlabelled documents lack: drop it with --unlabeled, or give --vocab")
	}
	c, err := loadCorpus(s, args, &co, "train", o.global.quiet)
	if err != nil {
		return err
	}
	rest := o.unl.sample(c, o.fit.seed)
	if !o.unl.rest {
		rest = nil
	}
	uco := co
	uco.split, uco.classes = o.unl.split, o.unl.classes
	uco.onDoc = nil
	// each calls fn with the text of every unlabelled document: those
	// left out of the sample, then the --unlabeled corpora, streamed.
	each := func(fn func(text string) error) error {
		for _, d := range rest {
			if err := fn(d.Text); err != nil {
				return err
			}
		}
		for _, src := range o.unl.paths {
			if err := countSource(s, src, &uco, o.global.quiet, func(text, _ string) error { return fn(text) }); err != nil {
				return err
			}
		}
		return nil
	}
	fromUnlabeled := vocab == nil
	if vocab == nil {
		if vocab, err = emVocabulary(c, settings, o.workers, each); err != nil {
			return err
		}
	}
	y := c.LabelIDs()
	X := train.PrepareWith(vocab, c.Texts(), o.workers)
	U, err := semisup.NewUnlabeled(vocab, "")
	if err != nil {
		return err
	}
	defer U.Close()
	if err := each(U.Add); err != nil {
		return err
	}
	if U.Rows() == 0 {
		return fmt.Errorf("--unlabeled: no unlabelled documents in %s", strings.Join(o.unl.paths, ", "))
	}
	note(s.Err, o.global.quiet, "nbtext: %d labelled and %d unlabelled documents, vocabulary of %d terms", len(c.Docs), U.Rows(), vocab.Len())
	p, auto, err := o.fit.params(kind, c.Labels, train.ClassSizes(y, len(c.Labels)))
	if err != nil {
		return err
	}
	if !auto && !o.fit.changed("alpha") {
		p.Alpha = defs.Alpha // (the same for bernoulli)
	}
	if kind == model.Bernoulli && !o.fit.changed("beta") && !o.fit.changed("alpha") {
		p.Beta = defs.Beta
	}
	if auto {
		t, err := train.TuneMatrix(kind, X, y, c.Labels, vocab, p, train.TuneOptions{
			Folds: o.folds, Seed: uint64(p.Seed), Fit: train.Options{Workers: o.workers},
			Progress: progress(s.Err, o.global.quiet, "cross-validating α"),
		})
		if err != nil {
			return err
		}
		writeTuning(s.Out, t)
		p = t.Apply(p)
	}
	opt := semisup.Options{MaxIter: o.unl.iters, Tol: o.unl.tol}
	var lab *semisup.Labelled // λ = 0: the labelled documents over their own vocabulary
	if fromUnlabeled {
		lab = &semisup.Labelled{Texts: c.Texts(), Settings: settings, Workers: o.workers}
	}
	lambda, lambdaAuto, _ := o.unl.lambda()
	if lambdaAuto {
		ch, err := semisup.ChooseWeight(kind, X, y, c.Labels, vocab, p, U, opt, o.folds, uint64(p.Seed), nil, lab, o.workers,
			progress(s.Err, o.global.quiet, "cross-validating λ"))
		if err != nil {
			return err
		}
		writeWeightChoice(s.Out, ch)
		lambda = ch.Weight()
	}
	opt.Weight = lambda
	if lambda == 0 && lab != nil {
		m, Xl, err := lab.Fit(kind, nil, y, c.Labels, p)
		if err != nil {
			return err
		}
		m.Params.EM = &model.EM{Unlabeled: U.Rows(), WeightAuto: lambdaAuto, MaxIterations: opt.MaxIter, Tol: opt.Tol, LogLikelihood: []float64{}}
		if lambdaAuto {
			m.Params.EM.WeightGrid = slices.Clone(semisup.DefaultWeightGrid)
		}
		note(s.Err, o.global.quiet, "nbtext: λ = 0: naive bayes on the labelled documents alone, over their own vocabulary")
		if err := saveModel(s.Out, o, m, Xl, nil, y, len(c.Docs), m.Params, nil, start); err != nil {
			return err
		}
		fmt.Fprintf(s.Out, "em           %s\n", m.Params.EM.Summary())
		return nil
	}
	opt.Progress = progress(s.Err, o.global.quiet, "EM")
	opt.Iteration = func(it semisup.Iteration) {
		note(s.Err, o.global.quiet, "nbtext: EM iteration %d: log-likelihood %.8g (relative change %.3g)", it.N, it.LogLik, it.Change)
	}
	r, err := semisup.FitEM(kind, X, y, c.Labels, vocab, p, U, opt)
	if err != nil {
		return err
	}
	m := r.Model
	m.Params.EM.WeightAuto = lambdaAuto
	if lambdaAuto {
		m.Params.EM.WeightGrid = slices.Clone(semisup.DefaultWeightGrid)
	}
	m.Params.EM.VocabularyFromUnlabeled = fromUnlabeled
	if err := saveModel(s.Out, o, m, X, nil, y, len(c.Docs), m.Params, nil, start); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "em           %s\n", m.Params.EM.Summary())
	return nil
}

// emVocabulary counts a vocabulary with settings over the labelled
// documents of c and the unlabelled documents each gives (Nigam et al.
// fit theirs on all documents): a term seen only in unlabelled documents
// gets its class weights from EM. The count streams, its tables bounded
// as train --stream's (membudget.CountTables).
func emVocabulary(c *corpus.Corpus, settings vectorize.Settings, workers int, each func(fn func(text string) error) error) (*vectorize.Vocabulary, error) {
	ctr, err := counts.NewCounter(settings, nil, counts.Options{Workers: workers, VocabOnly: true, Mem: membudget.CountTables()})
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	defer ctr.Close()
	for _, d := range c.Docs {
		if err := ctr.Add(d.Text, d.Label); err != nil {
			return nil, err
		}
	}
	if err := each(func(text string) error { return ctr.Add(text, "") }); err != nil {
		return nil, err
	}
	vocab, _, err := ctr.Vocabulary()
	return vocab, err
}

// writeWeightChoice prints the cross-validated accuracy of every λ.
func writeWeightChoice(w interface{ Write([]byte) (int, error) }, ch *semisup.Choice) {
	fmt.Fprintf(w, "%d-fold cross-validation of λ on the labelled documents:\n", ch.Folds)
	fmt.Fprintf(w, "  %-8s  %-8s  %s\n", "λ", "accuracy", "std")
	for i, sc := range ch.Scores {
		mark := ""
		if i == ch.Best {
			mark = "  <- chosen"
		}
		fmt.Fprintf(w, "  %-8g  %.4f    %.4f%s\n", sc.Weight, sc.Mean, sc.Std, mark)
	}
}
