package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Split is one train/held-out split of the documents, by index.
type Split struct {
	Train, Held []int
}

// Entry is one candidate's result.
type Entry struct {
	Rank          int       `json:"rank"` // 1 = chosen; candidates not scored in the final rung follow by rung
	Kind          string    `json:"kind"`
	Preprocessing string    `json:"preprocessing"`
	Param         string    `json:"param"`
	Value         float64   `json:"value"`
	Folds         int       `json:"folds"` // splits scored
	Mean          float64   `json:"mean"`
	Std           float64   `json:"std"`     // sample standard deviation over the splits
	Seconds       float64   `json:"seconds"` // fitting and scoring time, all splits
	Scores        []float64 `json:"scores"`
	Default       bool      `json:"default,omitempty"` // the kind's default setting (train --model K)
	cand          *Candidate
}

// Result is the outcome of a search.
type Result struct {
	Metric     string  `json:"metric"`
	Splits     int     `json:"splits"` // folds, or 1 for a validation set
	Seed       uint64  `json:"seed"`
	Budget     string  `json:"budget,omitempty"` // as ParseBudget reads it
	Spent      float64 `json:"spent"`            // of the budget by the search, in its unit
	Candidates int     `json:"candidates"`       // in the space
	Scored     int     `json:"scored"`           // scored on at least one split
	Brackets   int     `json:"brackets"`         // races run, each reaching further in rung 0
	Rungs      []Rung  `json:"rungs"`            // of the last race
	Seconds    float64 `json:"seconds"`          // the search, without the final fit (wall)
	// Defaults is how many of the kinds' default settings were scored on
	// the decision splits; Decision is how many splits the choice was
	// made on (those of the defaults, when any was scored).
	Defaults int `json:"defaults"`
	Decision int `json:"decision_splits"`
	// Leaderboard holds every scored candidate, best first: those scored
	// on the decision splits by their mean there, then the others by the
	// splits they scored and their mean there.
	Leaderboard []Entry `json:"leaderboard"`
	// Skipped says what the budget left out.
	Skipped Skipped `json:"skipped"`
	// Ensemble is the ensemble selection over the best candidates, when
	// Options.EnsembleRounds asked for one.
	Ensemble *Ensemble `json:"ensemble,omitempty"`

	meter meter   // the search's, for the fit of its choice
	limit float64 // what the budget allows the meter to read
}

// Skipped is what a search left out for lack of budget.
type Skipped struct {
	// Defaults lists the default settings not scored on every split
	// ("svm: 1 of 5 splits").
	Defaults []string `json:"defaults,omitempty"`
	// Unscored counts, by model kind, the candidates rung 0 never reached:
	// the pilots never scored and their followers (the values of a grid
	// raced after its pilot). A follower of a pilot that lost the race is
	// not counted: the race left it out, not the budget.
	Unscored map[string]int `json:"unscored,omitempty"`
	// Unconfirmed lists the race's leaders that could not be scored on
	// the decision splits, and so could not be chosen.
	Unconfirmed []string `json:"unconfirmed,omitempty"`
}

// Rung says how far one rung of the racing went.
type Rung struct {
	Splits    int  `json:"splits"`    // splits scored by the end of the rung
	Entrants  int  `json:"entrants"`  // candidates promoted to it
	Finished  int  `json:"finished"`  // candidates that scored all its splits
	Deciding  bool `json:"deciding"`  // the race's choice was made here
	CutByTime bool `json:"cut_short"` // the budget stopped it
}

// Best returns the chosen candidate.
func (r *Result) Best() *Candidate { return r.Leaderboard[0].cand }

// BestDefault returns the leaderboard entry of the best default setting
// scored on the decision splits, or nil when none was.
func (r *Result) BestDefault() *Entry {
	for i, e := range r.Leaderboard {
		if e.Default && e.Folds == r.Decision {
			return &r.Leaderboard[i]
		}
	}
	return nil
}

// left returns what the budget leaves for the fit of the choice, in its
// unit (+Inf without a bound, and for an Evaluations budget, which counts
// the search's fits only).
func (r *Result) left() float64 {
	if r.meter == nil || math.IsInf(r.limit, 1) {
		return math.Inf(1)
	}
	if _, ok := r.meter.(*evalMeter); ok {
		return math.Inf(1)
	}
	return r.limit - r.meter.now()
}

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
