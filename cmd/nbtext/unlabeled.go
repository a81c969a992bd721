package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/semisup"
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

// plan returns the unlabelled documents and EM settings of the flags,
// the corpora read as co reads the labelled one but for --unlabeled-split
// and --unlabeled-classes.
func (o *unlabeledOptions) plan(s streams, co *corpusOptions, quiet bool) (*pipeline.Unlabeled, error) {
	lambda, auto, _ := o.lambda()
	u := &pipeline.Unlabeled{Rest: o.rest, Weight: lambda, WeightAuto: auto, MaxIter: o.iters, Tol: o.tol}
	if len(o.paths) > 0 {
		uco := *co
		uco.split, uco.classes = o.split, o.classes
		src, err := uco.source(s, o.paths, "train", quiet)
		if err != nil {
			return nil, err
		}
		u.Source = src
	}
	return u, nil
}
