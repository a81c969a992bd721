package main

import (
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/pipeline"
)

// defaultLabelThreshold is the probability a label of a multi-label model
// without stored thresholds (a file written before
// train.DefaultLabelThreshold) needs to be predicted, unless --threshold
// says otherwise.
const defaultLabelThreshold = pipeline.DefaultLabelThreshold

// multiLabelOptions are the multi-label flags of train and eval.
type multiLabelOptions struct {
	fs        *pflag.FlagSet
	multi     bool
	sep       string
	threshold float64 // eval only
	minLabels int     // eval only
	tune      bool    // train only
}

func (o *multiLabelOptions) AddFlags(fs *pflag.FlagSet, eval bool) {
	fs.BoolVar(&o.multi, "multi-label", false, "documents carry one or more labels (fastText lines with several labels, a JSON array, --label-sep): one-vs-rest, one binary model per label")
	fs.StringVar(&o.sep, "label-sep", "", "with --multi-label: split a label field (csv, tsv, jsonl) at this separator")
	o.fs = fs
	if eval {
		fs.Float64Var(&o.threshold, "threshold", defaultLabelThreshold, "multi-label: predict the labels of probability ≥ this (default: the model's thresholds: tuned, or 0.2 for every label; 0.5 for files that store none)")
		fs.IntVar(&o.minLabels, "min-labels", 0, "multi-label: predict at least this many labels per document (the most probable), as predict --min-labels")
	} else {
		fs.BoolVar(&o.tune, "tune-thresholds", false, "with --multi-label: tune each label's threshold for F1 on held-out folds of the training data and store it in the model (predict and eval use it unless --threshold is given)")
	}
}

// validate checks the multi-label flags (pipeline.LabelFlags.Check).
func (o *multiLabelOptions) validate() error {
	return pipeline.LabelFlags{MultiLabel: o.multi, Sep: o.sep, Tune: o.tune, MinLabels: o.minLabels, Threshold: o.threshold}.Check()
}

// apply makes the corpus reader keep every label of a record.
func (o *multiLabelOptions) apply(co *corpusOptions) {
	if o.multi {
		co.multiLabel, co.labelSep = true, o.sep
	}
}
