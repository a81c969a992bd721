package pipeline

import (
	"time"

	"github.com/nbtext/nbtext/internal/model"
)

// Run carries out the plan: it chooses the strategy (searched with
// Search; from counts with
// FromCounts; semi-supervised EM, in memory, with Unlabeled; else
// streamed or in memory as Stream says, and with StreamAuto as choose
// decides: streamed when the corpus would not fit half the memory budget
// held in memory, or when streaming gives the same model and holding the
// corpus would take more than SameModelQuota), fits the model, writes it
// to Output and returns the report of the run.
func Run(p *Plan) (*Report, error) {
	r := &run{Plan: p, start: time.Now(), rep: &Report{Output: p.Output}}
	err := r.dispatch()
	if err != nil {
		return nil, err
	}
	r.rep.Duration = time.Since(r.start)
	return r.rep, nil
}

func (r *run) dispatch() error {
	switch {
	case r.Search != nil:
		return r.searched()
	case r.FromCounts != "":
		r.rep.Strategy = FromCounts
		return r.fromCounts()
	case r.Unlabeled != nil:
		return r.em()
	}
	stream, why := r.choose()
	r.rep.Why = why
	if !stream {
		return r.inMemory()
	}
	r.rep.Strategy = Streamed
	switch r.Kind {
	case model.LogReg, model.SVM, model.NBLR:
		return r.streamLinear()
	}
	return r.streamNB()
}
