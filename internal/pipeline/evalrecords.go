package pipeline

// evalrecords.go: eval of a model with record fields, and of a baseline
// model beside it, on a labelled corpus read with their fields.

import (
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// EvalRecordsOptions are what eval of a model with record fields asks
// (EvalRecords).
type EvalRecordsOptions struct {
	// Model is the model to evaluate, or nil to load ModelPath, which
	// names it in errors.
	Model     *model.Model
	ModelPath string
	// Baseline, when not empty, is a model file with record fields to
	// score on the same documents (eval --baseline).
	Baseline string
	// Spec are the fields the user named (empty: the model's); they must
	// be the model's.
	Spec train.FieldSpec
	// Load reads the labelled corpus for m with the record fields named
	// by fields: the model's, and the baseline's besides.
	Load          func(m *model.Model, fields train.FieldSpec) (*corpus.Corpus, error)
	TopK, Workers int
}

// EvalRecords evaluates a model with record fields on the corpus o.Load
// reads (eval.EvaluateRecords) and returns its report and, with a
// baseline, the baseline's scores. A model file that does not load is an
// error matching model.ErrModelFile; a model, or a baseline, without
// record fields, or fields named that are not the model's, are
// UsageErrors.
func EvalRecords(o EvalRecordsOptions) (*eval.Report, *eval.Scores, error) {
	m := o.Model
	if m == nil {
		var err error
		if m, err = model.Load(o.ModelPath); err != nil {
			return nil, nil, err
		}
	}
	if m.Fields == nil {
		return nil, nil, usagef("%s has no record fields: leave out --categorical-field and --numeric-field", o.ModelPath)
	}
	spec := o.Spec
	if spec.Empty() {
		spec = FieldSpec(m.Fields)
	}
	if names := append(slices.Clone(spec.Categorical), spec.Numeric...); !sameNames(names, m.Fields.Names()) {
		return nil, nil, usagef("%s has the fields %s, not %s", o.ModelPath, strings.Join(m.Fields.Names(), ", "), strings.Join(names, ", "))
	}
	var old *model.Model
	if o.Baseline != "" {
		var err error
		if old, err = model.Load(o.Baseline); err != nil {
			return nil, nil, err
		}
		if old.Fields == nil || old.MultiLabel {
			return nil, nil, usagef("--baseline %s has no record fields, as %s has", o.Baseline, o.ModelPath)
		}
		// The baseline's fields are read too.
		for _, n := range old.Fields.Names() {
			if !slices.Contains(m.Fields.Names(), n) {
				spec.Categorical = append(slices.Clone(spec.Categorical), n)
			}
		}
	}
	c, err := o.Load(m, spec)
	if err != nil {
		return nil, nil, err
	}
	labels := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		labels[i] = d.Label
	}
	texts := c.Texts()
	score := func(m *model.Model, opt eval.Options) (*eval.Report, error) {
		r, err := ModelRecords(c, m)
		if err != nil {
			return nil, err
		}
		return eval.EvaluateRecords(m, texts, r.Recs, labels, opt, o.Workers)
	}
	rep, err := score(m, eval.Options{TopK: o.TopK})
	if err != nil {
		return nil, nil, err
	}
	if old == nil {
		return rep, nil, nil
	}
	br, err := score(old, eval.Options{})
	if err != nil {
		return nil, nil, err
	}
	sc := br.Scores()
	return rep, &sc, nil
}

// sameNames reports whether a and b hold the same names, in any order.
func sameNames(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
