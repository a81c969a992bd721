package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/semisup"
)

// unlabeledOptions are the flags of train's labelled sample (--per-class)
// and of semi-supervised EM (--unlabeled and the flags that tune it; the
// EM settings go straight to pipeline.Unlabeled, which checks them).
type unlabeledOptions struct {
	perClass int
	paths    []string
	split    string
	classes  []string
	weight   string
	em       pipeline.Unlabeled
}

// emFlags are the flags that mean nothing without unlabelled documents.
var emFlags = []string{"unlabeled-split", "unlabeled-classes", "unlabeled-weight", "em-iterations", "em-tol"}

func (o *unlabeledOptions) AddFlags(fs *pflag.FlagSet) {
	grid := strings.ReplaceAll(strings.Trim(fmt.Sprint(semisup.DefaultWeightGrid), "[]"), " ", ", ")
	fs.IntVar(&o.perClass, "per-class", 0, "train on a sample of N documents of each class of the corpus, drawn with --seed (0: all)")
	fs.StringArrayVar(&o.paths, "unlabeled", nil, "also learn from the unlabelled documents of this corpus (any format; labels ignored) by EM, for multinomial and bernoulli NB; repeat for several. Its defaults: word counts, English stop words, multinomial α 0.1 (see docs/semi-supervised.md)")
	fs.StringVar(&o.split, "unlabeled-split", "", "split folder of the --unlabeled corpora to read, train or test")
	fs.StringSliceVar(&o.classes, "unlabeled-classes", nil, "read only these label folders of the --unlabeled corpora, e.g. unsup (aclImdb's train/unsup, which is skipped otherwise)")
	fs.BoolVar(&o.em.Rest, "unlabeled-rest", false, "with --per-class: the documents of the corpus left out of the sample are unlabelled documents too")
	fs.StringVar(&o.weight, "unlabeled-weight", "auto", "λ ≥ 0: the weight of an unlabelled document relative to a labelled one, or auto (cross-validated on the labelled documents among "+grid+")")
	fs.IntVar(&o.em.MaxIter, "em-iterations", semisup.DefaultMaxIter, "most EM iterations, each reading the unlabelled documents once")
	fs.Float64Var(&o.em.Tol, "em-tol", semisup.DefaultTol, "stop EM when the log-likelihood changes by less than this fraction")
}

// on reports whether train learns from unlabelled documents.
func (o *unlabeledOptions) on() bool { return len(o.paths) > 0 || o.em.Rest }

// validate checks the flags of o against the rest of train's, t.
func (o *unlabeledOptions) validate(fs *pflag.FlagSet, t *trainOptions) error {
	held := !t.stream && t.fromCounts == "" && !t.auto.on
	bad := slices.IndexFunc(o.paths, func(p string) bool { return p == "" || p == "-" })
	switch {
	case o.perClass < 0:
		return usageErrorf("--per-class must be ≥ 0, got %d", o.perClass)
	case o.perClass > 0 && !held:
		return usageErrorf("--per-class draws its sample from a corpus held in memory: drop --stream, --from-counts and --auto")
	case o.em.Rest && o.perClass == 0:
		return usageErrorf("--unlabeled-rest needs --per-class: the documents left out of the sample are the unlabelled ones")
	case !o.on():
		for _, name := range emFlags {
			if fs.Changed(name) {
				return usageErrorf("--%s needs unlabelled documents: give --unlabeled CORPUS or --unlabeled-rest", name)
			}
		}
		return nil
	case bad >= 0:
		return usageErrorf("--unlabeled takes a file or folder, read once per pass, not %q", o.paths[bad])
	case o.split != "" && o.split != "train" && o.split != "test":
		return usageErrorf("--unlabeled-split must be train or test, got %q", o.split)
	case !held:
		return usageErrorf("--unlabeled fits naive bayes by EM from documents it vectorizes itself: drop --stream, --from-counts and --auto")
	case t.ml.multi:
		return usageErrorf("--unlabeled fits models of one label per document: drop --multi-label")
	case !t.rec.spec().Empty():
		return usageErrorf("--unlabeled fits text models: drop --categorical-field and --numeric-field")
	case t.init != "":
		return usageErrorf("--init starts logistic regression, which --unlabeled does not fit")
	}
	kind, _ := model.ParseKind(t.kind)
	return o.em.Check(kind, o.weight)
}

// plan returns the unlabelled documents and EM settings of the flags,
// the corpora read as co reads the labelled one but for --unlabeled-split
// and --unlabeled-classes.
func (o *unlabeledOptions) plan(s streams, co *corpusOptions, quiet bool) (*pipeline.Unlabeled, error) {
	u := o.em
	if len(o.paths) > 0 {
		uco := *co
		uco.split, uco.classes = o.split, o.classes
		var err error
		if u.Source, err = uco.source(s, o.paths, "train", quiet); err != nil {
			return nil, err
		}
	}
	return &u, nil
}
