package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
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

// WriteTable writes r for people: the budget and how far the search went,
// the defaults and the choice, what the budget left out, then the first
// top entries of the leaderboard (all when top ≤ 0; the defaults marked
// "*").
func (r *Result) WriteTable(w io.Writer, top int) error {
	bw := bufio.NewWriter(w)
	how := fmt.Sprintf("%d-fold stratified cross-validation (seed %d)", r.Splits, r.Seed)
	if r.Splits == 1 {
		how = "the validation set"
	}
	fmt.Fprintf(bw, "search: %d candidates, %d scored on %s, %.1f s, metric %s\n", r.Candidates, r.Scored, how, r.Seconds, r.Metric)
	if r.Budget != "" {
		b, _ := ParseBudget(r.Budget)
		fmt.Fprintf(bw, "  budget %s: %.4g %s spent by the search\n", r.Budget, r.Spent, b.UnitName())
	}
	fmt.Fprintf(bw, "  defaults: %d scored on %d split(s), first\n", r.Defaults, r.Decision)
	if r.Brackets > 1 {
		fmt.Fprintf(bw, "  %d races, each reaching further into rung 0; the last one:\n", r.Brackets)
	}
	for i, g := range r.Rungs {
		note := ""
		if g.CutByTime {
			note = fmt.Sprintf(", cut short by the budget (%d not scored)", g.Entrants-g.Finished)
		}
		if g.Deciding {
			note += ", the race's choice made here"
		}
		fmt.Fprintf(bw, "  rung %d: %d of %d candidates scored on %d split(s)%s\n", i, g.Finished, g.Entrants, g.Splits, note)
	}
	if len(r.Leaderboard) > 0 {
		best := r.Leaderboard[0]
		verdict := "a default"
		if bd := r.BestDefault(); !best.Default && bd != nil {
			verdict = fmt.Sprintf("%+.4f over the best default, %s %s=%g", best.Mean-bd.Mean, bd.Kind, bd.Param, bd.Value)
		} else if !best.Default {
			verdict = "no default was scored"
		}
		fmt.Fprintf(bw, "  chosen on %d split(s): rank 1, %s %.4f (%s)\n", r.Decision, r.Metric, best.Mean, verdict)
	}
	r.Skipped.writeTable(bw)
	bw.WriteByte('\n')
	n := len(r.Leaderboard)
	if top > 0 {
		n = min(n, top)
	}
	fmt.Fprintf(bw, "%4s  %-13s  %-70s  %-12s  %5s  %-17s  %7s\n", "rank", "model", "preprocessing", "param", "folds", r.Metric+" ± std", "seconds")
	for _, e := range r.Leaderboard[:n] {
		kind := e.Kind
		if e.Default {
			kind += " *"
		}
		fmt.Fprintf(bw, "%4d  %-13s  %-70s  %-12s  %5d  %.4f ± %.4f  %7.2f\n", e.Rank, kind, e.Preprocessing,
			fmt.Sprintf("%s=%g", e.Param, e.Value), e.Folds, e.Mean, e.Std, e.Seconds)
	}
	if n < len(r.Leaderboard) {
		fmt.Fprintf(bw, "%s(%d more)\n", strings.Repeat(" ", 6), len(r.Leaderboard)-n)
	}
	fmt.Fprintf(bw, "%s* the kind's default setting, as 'nbtext train --model K' fits it\n", strings.Repeat(" ", 6))
	r.Ensemble.writeTable(bw, r.Metric)
	return bw.Flush()
}

// writeTable writes what the budget left out, if anything.
func (s Skipped) writeTable(w io.Writer) {
	if len(s.Defaults) == 0 && len(s.Unscored) == 0 && len(s.Unconfirmed) == 0 {
		return
	}
	fmt.Fprintln(w, "  skipped for lack of budget:")
	if len(s.Defaults) > 0 {
		fmt.Fprintf(w, "    defaults not scored on every split: %s\n", strings.Join(s.Defaults, ", "))
	}
	if len(s.Unscored) > 0 {
		kinds := slices.Sorted(maps.Keys(s.Unscored))
		total := 0
		var parts []string
		for _, k := range kinds {
			total += s.Unscored[k]
			parts = append(parts, fmt.Sprintf("%s %d", k, s.Unscored[k]))
		}
		fmt.Fprintf(w, "    %d candidates never scored: %s\n", total, strings.Join(parts, ", "))
	}
	for _, u := range s.Unconfirmed {
		fmt.Fprintf(w, "    a leader of the race not scored on the decision splits: %s\n", u)
	}
}
