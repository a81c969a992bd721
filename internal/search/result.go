package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Fit fits the chosen candidate c on all of texts (label ids y, into
// classes), with the probability calibration of train.FitCalibrated, and
// returns the model with its training matrix and calibration.
func Fit(texts []string, y []int, classes []string, c *Candidate, workers int) (*model.Model, *vectorize.Matrix, *train.Calibration, error) {
	vocab, X, err := train.Prepare(texts, y, len(classes), c.Spec.Settings, workers, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	m, cal, err := train.FitCalibrated(c.Spec.Kind, X, y, classes, vocab, c.Spec.Params, train.Options{Workers: workers})
	if err != nil {
		return nil, nil, nil, err
	}
	return m, X, cal, nil
}

// SummaryTop is the number of leaderboard entries a model file keeps.
const SummaryTop = 10

// Summary returns what a model chosen by the search records of it
// (model.Meta.Auto): the result without the leaderboard's tail, as JSON.
func (r *Result) Summary() (json.RawMessage, error) {
	s := *r
	s.Leaderboard = s.Leaderboard[:min(len(s.Leaderboard), SummaryTop)]
	return json.Marshal(s)
}

// WriteJSON writes r as one indented JSON object: metric, splits, seed,
// candidates, scored, rungs, seconds and leaderboard (each entry: rank,
// kind, preprocessing, param, value, folds, mean, std, seconds, scores).
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes r for people: how far the racing went, then the first
// top entries of the leaderboard (all when top ≤ 0).
func (r *Result) WriteTable(w io.Writer, top int) error {
	bw := bufio.NewWriter(w)
	how := fmt.Sprintf("%d-fold stratified cross-validation (seed %d)", r.Splits, r.Seed)
	if r.Splits == 1 {
		how = "the validation set"
	}
	fmt.Fprintf(bw, "search: %d candidates, %d scored on %s, %.1f s, metric %s\n", r.Candidates, r.Scored, how, r.Seconds, r.Metric)
	if r.Brackets > 1 {
		fmt.Fprintf(bw, "  %d races, each reaching further into rung 0; the last one:\n", r.Brackets)
	}
	for i, g := range r.Rungs {
		note := ""
		if g.CutByTime {
			note = ", cut short by the budget"
		}
		if g.Deciding {
			note += ", chosen here"
		}
		fmt.Fprintf(bw, "  rung %d: %d of %d candidates scored on %d split(s)%s\n", i, g.Finished, g.Entrants, g.Splits, note)
	}
	bw.WriteByte('\n')
	n := len(r.Leaderboard)
	if top > 0 {
		n = min(n, top)
	}
	fmt.Fprintf(bw, "%4s  %-11s  %-70s  %-12s  %5s  %-17s  %7s\n", "rank", "model", "preprocessing", "param", "folds", r.Metric+" ± std", "seconds")
	for _, e := range r.Leaderboard[:n] {
		fmt.Fprintf(bw, "%4d  %-11s  %-70s  %-12s  %5d  %.4f ± %.4f  %7.2f\n", e.Rank, e.Kind, e.Preprocessing,
			fmt.Sprintf("%s=%g", e.Param, e.Value), e.Folds, e.Mean, e.Std, e.Seconds)
	}
	if n < len(r.Leaderboard) {
		fmt.Fprintf(bw, "%s(%d more)\n", strings.Repeat(" ", 6), len(r.Leaderboard)-n)
	}
	r.Ensemble.writeTable(bw, r.Metric)
	return bw.Flush()
}
