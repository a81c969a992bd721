package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

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
