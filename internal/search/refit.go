package search

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitEnsemble fits the members of the ensemble res chose (res.Ensemble,
// used) on all of texts (label ids y, into classes) and returns the
// ensemble model. Each member is fitted as Fit would, but its
// probabilities are calibrated by the temperature fitted on its held-out
// scores in the search (Member.Temperature; logistic regression keeps its
// own softmax), so that the members average as the selection averaged
// them. The best single candidate is fitted first; when the budget of
// the search (in time) is bounded and the next member's expected refit (Member.Prepare, unless a member of equal
// settings prepared the documents, and Member.Fit, padded by refitFactor) would end past
// it, the refit stops and FitEnsemble returns that single model, with
// res.Ensemble.Used cleared and Why saying so.
func FitEnsemble(texts []string, y []int, classes []string, res *Result, workers int) (*model.Model, error) {
	e := res.Ensemble
	if e == nil || !e.Used || len(e.Members) == 0 {
		return nil, errors.New("the search chose no ensemble")
	}
	// The best single candidate first, then the members grouped by
	// settings (in the order of their best rank), so that one matrix of
	// the documents is held at a time.
	order := slices.Clone(e.Members)
	slices.SortStableFunc(order, func(a, b Member) int { return a.Rank - b.Rank })
	first := map[vectorize.Settings]int{} // the best rank of each settings' members
	for _, mem := range order {
		if _, ok := first[mem.cand.Spec.Settings]; !ok {
			first[mem.cand.Spec.Settings] = mem.Rank
		}
	}
	slices.SortStableFunc(order, func(a, b Member) int { return first[a.cand.Spec.Settings] - first[b.cand.Spec.Settings] })
	fitted := map[int]*model.Model{}
	var (
		vocab *vectorize.Vocabulary
		X     *vectorize.Matrix
	)
	for i, mem := range order {
		c := mem.cand
		fresh := i == 0 || c.Spec.Settings != order[i-1].cand.Spec.Settings
		expect := mem.Fit
		if fresh {
			expect += mem.Prepare
		}
		expect *= refitFactor
		if i > 0 && expect > res.left() {
			e.Used = false
			e.Why = fmt.Sprintf("refitting its %d members was not expected to end within the budget", len(order))
			return fitted[order[0].Rank], nil
		}
		if fresh {
			vocab, X = nil, nil // the last settings' matrix is not needed any more
			var err error
			if vocab, X, err = train.Prepare(texts, y, len(classes), c.Spec.Settings, workers, nil); err != nil {
				return nil, err
			}
		}
		p := c.Spec.Params
		if c.Spec.Kind != model.LogReg && mem.Temperature != 1 {
			p.Temperature = mem.Temperature
		}
		m, err := train.Fit(c.Spec.Kind, X, y, classes, vocab, p, train.Options{Workers: workers, NoCalibrate: true})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Describe(), err)
		}
		fitted[mem.Rank] = m
	}
	members := make([]*model.Model, len(e.Members))
	weights := make([]float64, len(e.Members))
	for k, mem := range e.Members {
		members[k], weights[k] = fitted[mem.Rank], mem.Weight
	}
	return model.NewEnsemble(members, weights, model.Meta{})
}
