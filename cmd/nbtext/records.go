package main

import (
	"slices"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// recordOptions are the flags of record fields, shared by train and eval.
type recordOptions struct {
	fs          *pflag.FlagSet
	categorical []string
	numeric     []string
	p           train.FieldParams
}

func (o *recordOptions) AddFlags(fs *pflag.FlagSet) {
	o.fs = fs
	fs.StringSliceVar(&o.categorical, "categorical-field", nil, "csv, tsv with a header, jsonl: categorical fields of each record (NB: a Dirichlet-smoothed distribution per class; logreg, svm: one-hot)")
	fs.StringSliceVar(&o.numeric, "numeric-field", nil, "csv, tsv with a header, jsonl: numeric fields of each record (NB: a Gaussian or kernel density per class; logreg, svm: standardised; lda, qda: one multivariate normal per class)")
	fs.Float64Var(&o.p.FieldAlpha, "field-alpha", model.DefaultFieldAlpha, "categorical fields: Dirichlet smoothing α > 0 (1: add-one)")
	fs.Float64Var(&o.p.VarSmoothing, "var-smoothing", model.DefaultVarSmoothing, "numeric fields of NB: fraction of the largest variance added to every variance")
	fs.StringVar(&o.p.Density, "numeric-density", "gaussian", "numeric fields of NB: gaussian (a normal density per class) or kernel (a binned Gaussian kernel density per class)")
	fs.StringVar(&o.p.Bandwidth, "bandwidth", train.DefaultBandwidth, "--numeric-density kernel: scott, silverman, cv (leave-one-out likelihood) or a number > 0")
	fs.StringVar(&o.p.Shrinkage, "shrinkage", "none", "lda: covariance shrinkage: none, auto (Ledoit-Wolf) or a number in [0, 1]")
	fs.Float64Var(&o.p.RegParam, "reg-param", 0, "qda: regularisation r in [0, 1]: each class covariance becomes (1-r)·Σ + r·I")
}

// spec returns the fields named on the command line.
func (o *recordOptions) spec() train.FieldSpec {
	return train.FieldSpec{Categorical: o.categorical, Numeric: o.numeric}
}

// validate checks the fields and their parameters against the model kind
// (train.FieldParams.ValidateFields): a parameter from the environment or
// the config file for a model that does not use it is ignored, as other
// models' parameters are.
func (o *recordOptions) validate(kind model.Kind) error {
	given := func(name string) bool { f := o.fs.Lookup(name); return f != nil && setOnCommandLine(f) }
	return withCode(exitUsage, o.p.ValidateFields(o.spec(), kind, given))
}

// apply asks the corpus reader for the fields; a record model, which reads
// no text, lets its first field stand in for the text column when
// --text-field is not given.
func (o *recordOptions) apply(co *corpusOptions, kind model.Kind) {
	spec := o.spec()
	co.extra = append(slices.Clone(spec.Categorical), spec.Numeric...)
	if kind.RecordOnly() && !co.fs.Changed("text-field") && len(co.extra) > 0 {
		co.defaultText = co.extra[:1]
	}
}

// params sets the field parameters of p for a model of kind when fields
// are used (train.FieldParams.Apply).
func (o *recordOptions) params(p *model.Params, kind model.Kind) {
	if !o.spec().Empty() {
		o.p.Apply(p, kind)
	}
}
