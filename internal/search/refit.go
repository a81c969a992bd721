package search

import (
	"errors"
	"fmt"
	"slices"
	"time"

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
// them. The best single candidate is fitted first; when deadline is not
// zero and the next member's expected refit (Member.Prepare, unless a member of equal
// settings prepared the documents, and Member.Fit) would end past
// it, the refit stops and FitEnsemble returns that single model, with
// res.Ensemble.Used cleared and Why saying so.
func FitEnsemble(texts []string, y []int, classes []string, res *Result, workers int, deadline time.Time) (*model.Model, error) {
	e := res.Ensemble
	if e == nil || !e.Used || len(e.Members) == 0 {
		return nil, errors.New("the search chose no ensemble")
	}
	order := slices.Clone(e.Members)
	slices.SortStableFunc(order, func(a, b Member) int { return a.Rank - b.Rank })
	type prepared struct {
		vocab *vectorize.Vocabulary
		X     *vectorize.Matrix
	}
	fitted := map[int]*model.Model{}
	prep := map[vectorize.Settings]prepared{} // shared by members of equal settings
	uses := map[vectorize.Settings]int{}      // members left to fit, by settings
	for _, mem := range order {
		uses[mem.cand.Spec.Settings]++
	}
	for i, mem := range order {
		c := mem.cand
		pr, ok := prep[c.Spec.Settings]
		expect := mem.Fit
		if !ok {
			expect += mem.Prepare
		}
		if i > 0 && !deadline.IsZero() && time.Now().Add(seconds(expect)).After(deadline) {
			e.Used = false
			e.Why = fmt.Sprintf("refitting its %d members was not expected to end within the budget", len(order))
			return fitted[order[0].Rank], nil
		}
		if !ok {
			vocab, X, err := train.Prepare(texts, y, len(classes), c.Spec.Settings, workers, nil)
			if err != nil {
				return nil, err
			}
			pr = prepared{vocab, X}
			prep[c.Spec.Settings] = pr
		}
		vocab, X := pr.vocab, pr.X
		p := c.Spec.Params
		if c.Spec.Kind != model.LogReg && mem.Temperature != 1 {
			p.Temperature = mem.Temperature
		}
		m, err := train.Fit(c.Spec.Kind, X, y, classes, vocab, p, train.Options{Workers: workers, NoCalibrate: true})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Describe(), err)
		}
		fitted[mem.Rank] = m
		if uses[c.Spec.Settings]--; uses[c.Spec.Settings] == 0 {
			delete(prep, c.Spec.Settings) // its matrix is not needed any more
		}
	}
	members := make([]*model.Model, len(e.Members))
	weights := make([]float64, len(e.Members))
	for k, mem := range e.Members {
		members[k], weights[k] = fitted[mem.Rank], mem.Weight
	}
	return model.NewEnsemble(members, weights, model.Meta{})
}
