package main

import (
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/train"
)

// recordOptions are the flags of record fields, shared by train and eval.
type recordOptions struct {
	fs           *pflag.FlagSet
	categorical  []string
	numeric      []string
	fieldAlpha   float64
	varSmoothing float64
	density      string
	bandwidth    string
	shrinkage    string
	regParam     float64
}

func (o *recordOptions) AddFlags(fs *pflag.FlagSet) {
	o.fs = fs
	fs.StringSliceVar(&o.categorical, "categorical-field", nil, "csv, tsv with a header, jsonl: categorical fields of each record (NB: a Dirichlet-smoothed distribution per class; logreg, svm: one-hot)")
	fs.StringSliceVar(&o.numeric, "numeric-field", nil, "csv, tsv with a header, jsonl: numeric fields of each record (NB: a Gaussian or kernel density per class; logreg, svm: standardised; lda, qda: one multivariate normal per class)")
	fs.Float64Var(&o.fieldAlpha, "field-alpha", model.DefaultFieldAlpha, "categorical fields: Dirichlet smoothing α > 0 (1: add-one)")
	fs.Float64Var(&o.varSmoothing, "var-smoothing", model.DefaultVarSmoothing, "numeric fields of NB: fraction of the largest variance added to every variance")
	fs.StringVar(&o.density, "numeric-density", "gaussian", "numeric fields of NB: gaussian (a normal density per class) or kernel (a binned Gaussian kernel density per class)")
	fs.StringVar(&o.bandwidth, "bandwidth", train.DefaultBandwidth, "--numeric-density kernel: scott, silverman, cv (leave-one-out likelihood) or a number > 0")
	fs.StringVar(&o.shrinkage, "shrinkage", "none", "lda: covariance shrinkage: none, auto (Ledoit-Wolf) or a number in [0, 1]")
	fs.Float64Var(&o.regParam, "reg-param", 0, "qda: regularisation r in [0, 1]: each class covariance becomes (1-r)·Σ + r·I")
}

// spec returns the fields named on the command line.
func (o *recordOptions) spec() train.FieldSpec {
	return train.FieldSpec{Categorical: o.categorical, Numeric: o.numeric}
}

// validate checks the field flags against the model kind.
func (o *recordOptions) validate(kind model.Kind) error {
	spec := o.spec()
	names := append(slices.Clone(spec.Categorical), spec.Numeric...)
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return usageErrorf("--categorical-field and --numeric-field must not name an empty field")
		}
		if slices.Contains(names[:i], n) {
			return usageErrorf("field %q is named twice", n)
		}
	}
	switch {
	case kind == model.Categorical && (len(spec.Categorical) == 0 || len(spec.Numeric) > 0):
		return usageErrorf("--model categorical needs --categorical-field and no --numeric-field")
	case kind == model.Gaussian && (len(spec.Numeric) == 0 || len(spec.Categorical) > 0):
		return usageErrorf("--model gaussian needs --numeric-field and no --categorical-field")
	case kind.Discriminant() && (len(spec.Numeric) == 0 || len(spec.Categorical) > 0):
		return usageErrorf("--model %s needs --numeric-field and no --categorical-field: a one-hot value is not Gaussian (its variance within a class is 0 wherever the class has one value); use gaussian, categorical or logreg for categorical fields", kind)
	case !spec.Empty() && kind == model.NBLR:
		return usageErrorf("record fields need --model bernoulli, multinomial, logreg, svm, categorical or gaussian: nblr scales each feature by its log-count ratio of presence counts, which a one-hot or standardised field does not have")
	case !spec.Empty() && !kind.RecordOnly() && kind != model.Bernoulli && kind != model.Multinomial && kind != model.LogReg && kind != model.SVM:
		return usageErrorf("record fields need --model bernoulli, multinomial, logreg, svm, categorical, gaussian, lda or qda, not %s", kind)
	case !(o.fieldAlpha > 0):
		return usageErrorf("--field-alpha must be > 0, got %v", o.fieldAlpha)
	case !(o.varSmoothing >= 0):
		return usageErrorf("--var-smoothing must be ≥ 0, got %v", o.varSmoothing)
	case o.density != "gaussian" && o.density != "kernel":
		return usageErrorf("--numeric-density must be gaussian or kernel, got %q", o.density)
	case o.given("numeric-density") && o.density == "kernel" && !kernelKind(kind):
		return usageErrorf("--numeric-density kernel applies to the numeric fields of naive Bayes (gaussian, bernoulli, multinomial), not %s", kind)
	case o.given("bandwidth") && o.density != "kernel":
		return usageErrorf("--bandwidth needs --numeric-density kernel")
	case o.given("shrinkage") && kind != model.LDA:
		return usageErrorf("--shrinkage applies to --model lda (qda takes --reg-param)")
	case o.given("reg-param") && kind != model.QDA:
		return usageErrorf("--reg-param applies to --model qda (lda takes --shrinkage)")
	}
	if _, err := model.ParseBandwidth(o.bandwidth); err != nil {
		return usageErrorf("%v", err)
	}
	if _, _, err := model.ParseShrinkage(o.shrinkage); err != nil {
		return usageErrorf("%v", err)
	}
	if !(o.regParam >= 0 && o.regParam <= 1) {
		return usageErrorf("--reg-param must be in [0, 1], got %v", o.regParam)
	}
	return nil
}

// given reports whether the flag name was given on the command line: a
// value from the environment or the config file for a model that does not
// use it is ignored, as other models' parameters are.
func (o *recordOptions) given(name string) bool {
	f := o.fs.Lookup(name)
	return f != nil && setOnCommandLine(f)
}

// kernelKind reports whether kind's numeric fields are naive Bayes ones,
// which may have kernel densities.
func kernelKind(kind model.Kind) bool {
	return kind == model.Gaussian || kind == model.Bernoulli || kind == model.Multinomial
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
// are used.
func (o *recordOptions) params(p *model.Params, kind model.Kind) {
	if !o.spec().Empty() {
		p.FieldAlpha, p.VarSmoothing = o.fieldAlpha, o.varSmoothing
		if o.density == "kernel" && kernelKind(kind) {
			p.NumericDensity, p.Bandwidth = o.density, o.bandwidth
		}
		if o.shrinkage != "none" && kind == model.LDA {
			p.Shrinkage = o.shrinkage
		}
		if kind == model.QDA {
			p.RegParam = o.regParam
		}
	}
}

// records returns the record fields of the documents of c, for the
// fields of spec (pipeline.Records).
var records = pipeline.Records

// runEvalRecords is eval of a model with record fields (m, or the model
// file -m when m is nil): the corpus is read with the model's fields,
// stripped as the model was trained unless --remove is given, and scored
// with eval.EvaluateRecords. --categorical-field and --numeric-field, when
// given, must name the model's fields.
func runEvalRecords(s streams, args []string, o *evalOptions, m *model.Model) error {
	if m == nil {
		var err error
		if m, err = model.Load(o.model); err != nil {
			return withCode(exitBadModel, err)
		}
	}
	if m.Fields == nil {
		return usageErrorf("%s has no record fields: leave out --categorical-field and --numeric-field", o.model)
	}
	spec := o.rec.spec()
	if spec.Empty() {
		spec = pipeline.FieldSpec(m.Fields)
	}
	if names := append(slices.Clone(spec.Categorical), spec.Numeric...); !slices.Equal(sortedCopy(names), sortedCopy(m.Fields.Names())) {
		return usageErrorf("%s has the fields %s, not %s", o.model, strings.Join(m.Fields.Names(), ", "), strings.Join(names, ", "))
	}
	var old *model.Model
	if o.baseline != "" {
		var err error
		if old, err = model.Load(o.baseline); err != nil {
			return withCode(exitBadModel, err)
		}
		if old.Fields == nil || old.MultiLabel {
			return usageErrorf("--baseline %s has no record fields, as %s has", o.baseline, o.model)
		}
	}
	co := o.corpus
	co.useModelNames(m)
	rec := o.rec
	rec.categorical, rec.numeric = spec.Categorical, spec.Numeric
	if old != nil {
		// The baseline's fields are read too.
		for _, n := range old.Fields.Names() {
			if !slices.Contains(m.Fields.Names(), n) {
				rec.categorical = append(slices.Clone(rec.categorical), n)
			}
		}
	}
	rec.apply(&co, m.Kind)
	if !co.changedRemove() {
		co.remove = m.Vocab.Settings.Remove
	}
	c, err := loadCorpus(s, args, &co, "test", o.global.quiet)
	if err != nil {
		return err
	}
	r, err := pipeline.ModelRecords(c, m)
	if err != nil {
		return err
	}
	labels := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		labels[i] = d.Label
	}
	texts := c.Texts()
	rep, err := eval.EvaluateRecords(m, texts, r.Recs, labels, eval.Options{TopK: o.topK}, o.workers)
	if err != nil {
		return err
	}
	var oldScores *eval.Scores
	if old != nil {
		or, err := pipeline.ModelRecords(c, old)
		if err != nil {
			return err
		}
		br, err := eval.EvaluateRecords(old, texts, or.Recs, labels, eval.Options{}, o.workers)
		if err != nil {
			return err
		}
		sc := br.Scores()
		oldScores = &sc
	}
	return finishEval(s, o, rep, oldScores)
}

func sortedCopy(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}
