// Cross-validation of a training configuration (nbtext eval --cv): the
// plan's corpus read whole, and each fold fitted as an in-memory run fits.

package pipeline

import (
	"time"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// CrossValidate runs stratified k-fold cross-validation of the plan's
// training configuration (Kind, Vectorizer over the kind's defaults,
// Params, Fields) on its Source, read whole into memory (the folds need
// every document; a corpus over the Budget is refused, naming "eval
// --cv"): eval.CrossValidate, or eval.CrossValidateRecords with Fields,
// each fold fitted by the fit of an in-memory run. Folds are drawn with
// the parameters' Seed; topK adds top-k accuracy to each fold. It
// measures one configuration: a parameter to tune (auto) is a
// UsageError. With FollowProfile, the defaults follow the corpus profile
// as train's do (ProfileDefaults; Changed names the flags given).
// Progress ("cross-validating") and Warn apply; the other
// options of a plan (an output, streaming, vocabulary files, ...) do not.
func CrossValidate(p *Plan, k, topK int) (*eval.CVResult, error) {
	r := &run{Plan: p, start: time.Now(), rep: &Report{}}
	defs, _ := train.Defaults(p.Kind)
	settings, err := r.settings(defs)
	if err != nil {
		return nil, err
	}
	if err := p.Source.CheckHold(p.Budget, "eval --cv"); err != nil {
		return nil, err
	}
	c, err := p.Source.Load()
	if err != nil {
		return nil, err
	}
	y := c.LabelIDs()
	params, auto, err := r.params(c.Labels, train.ClassSizes(y, len(c.Labels)))
	if err != nil {
		return nil, err
	}
	if auto {
		return nil, usagef("--alpha auto and --C auto belong to train; eval --cv measures one configuration")
	}
	if p.FollowProfile && p.Fields.Empty() {
		// The defaults train would choose for this corpus (its profile).
		ProfileDefaults(p.Kind, &settings, &params, c.Texts(), y, len(c.Labels), p.Changed)
	}
	if w := train.DegenerateWarning(p.Kind, params); w != "" {
		r.warn("nbtext: warning: %s", w)
	}
	opt := eval.CVOptions{
		Workers: p.Workers, TopK: topK, Progress: r.progress("cross-validating"),
		Fit: func(X *vectorize.Matrix, y []int, vocab *vectorize.Vocabulary, recs *train.Records) (*model.Model, error) {
			m, _, err := r.fit(X, y, c.Labels, vocab, params, recs, nil, nil)
			return m, err
		},
	}
	if p.Fields.Empty() {
		return eval.CrossValidate(c.Texts(), y, c.Labels, settings, p.Kind, params, k, uint64(params.Seed), opt)
	}
	recs, err := Records(c, p.Fields)
	if err != nil {
		return nil, err
	}
	return eval.CrossValidateRecords(c.Texts(), y, c.Labels, settings, p.Kind, params, recs, k, uint64(params.Seed), opt)
}
