// The searched strategy (train --auto): the model kind, preprocessing and
// parameters are chosen by a search (internal/search) on the corpus held in
// memory, the choice is fitted on all of it and saved as every run saves
// its model; SearchCV estimates the search by nested cross-validation
// (eval --cv --auto).

package pipeline

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/search"
	"github.com/nbtext/nbtext/internal/train"
)

// Search makes a run choose its model by a search instead of fitting
// Plan.Kind with the plan's settings: Plan.Kind, when not 0, narrows the
// search to that kind, and with Plan.MultiLabel the search is over
// one-vs-rest models (search.TrainMultiLabel). The run reads Plan.Source
// whole, after checking that it fits Plan.Budget (Source.CheckHold).
type Search struct {
	// Options are the search's seed, metric, budget (with what of it
	// was spent before the run), workers and ensemble rounds; the folds
	// and progress are the plan's.
	Options search.Options
	// Valid, when not nil, is a labelled corpus to score the candidates
	// on instead of by cross-validation; ValidName names it in errors.
	Valid     *Source
	ValidName string
	// Leaderboard, when not nil, gets the search's leaderboard as soon as
	// the search ends: a table of its LeaderboardRows best candidates
	// (followed by a blank line with Plan.Summary), or with JSON as JSON.
	Leaderboard io.Writer
	JSON        bool
}

// SearchSettings are the settings of a search as given (train --auto,
// eval --cv --auto): Check validates them, Options resolves them.
type SearchSettings struct {
	// Budget is a search.ParseBudget budget: 60s, cpu:60s or evals:N.
	Budget string
	// Metric is what the search optimises (search.ValidMetric, or
	// search.ValidMultiLabelMetric for a multi-label search).
	Metric string
	// EnsembleRounds are the rounds of the ensemble selection (0: none).
	EnsembleRounds int
}

// Check returns a UsageError naming the first setting out of range. For a
// multiLabel search, which builds no ensemble (ensembleGiven: the user
// asked for one), the metric defaults to search.MicroF1 unless
// metricGiven.
func (s *SearchSettings) Check(multiLabel, metricGiven, ensembleGiven bool) error {
	if multiLabel {
		if ensembleGiven {
			return usagef("--ensemble with --auto --multi-label: the multi-label search chooses one model; drop --ensemble")
		}
		if !metricGiven {
			s.Metric = search.MicroF1
		}
		if !search.ValidMultiLabelMetric(s.Metric) {
			return usagef("--metric with --auto --multi-label must be micro_f1, macro_f1 or p_at_1, got %q", s.Metric)
		}
	}
	if _, err := search.ParseBudget(s.Budget); err != nil {
		return usagef("--budget: %v", err)
	}
	if !multiLabel && !search.ValidMetric(s.Metric) {
		return usagef("--metric must be accuracy, macro_f1 or log_loss, got %q", s.Metric)
	}
	if s.EnsembleRounds < 0 {
		return usagef("--ensemble must be >= 0, got %d", s.EnsembleRounds)
	}
	return nil
}

// Options returns the search's options (checked settings), its budget
// counted from start.
func (s *SearchSettings) Options(seed int64, workers int, start time.Time) search.Options {
	b, _ := search.ParseBudget(s.Budget)
	return search.Options{
		Seed: uint64(seed), Metric: s.Metric, Budget: b, Spent: b.Spent(start),
		Workers: workers, EnsembleRounds: s.EnsembleRounds,
	}
}

// LeaderboardRows is the number of candidates the leaderboard's table
// shows.
const LeaderboardRows = 15

// Searched chose the model by a search (Plan.Search).
const Searched = FromCounts + 1

// SearchReport is what a searched run chose.
type SearchReport struct {
	// Chosen describes the best candidate.
	Chosen string
	// Ensemble, when not nil, is the ensemble the search built and the
	// run fitted (Used), or dropped for the best single candidate when
	// its refit would have overrun the budget; Metric is what it scored
	// and Classes the classes of the corpus.
	Ensemble *search.Ensemble
	Metric   string
	Classes  int
}

// writeSearch prints what the search chose; it reports whether it wrote
// the whole summary (an ensemble, or the candidate it fell back to).
func (r *Report) writeSearch(w io.Writer) (whole bool) {
	s := r.Search
	e := s.Ensemble
	if e == nil {
		fmt.Fprintf(w, "chosen       %s\n", s.Chosen)
		return false
	}
	if !e.Used {
		fmt.Fprintf(w, "ensemble     dropped (%s)\n", e.Why)
		fmt.Fprintf(w, "chosen       %s\n", s.Chosen)
	} else {
		fmt.Fprintf(w, "chosen       ensemble of %d (%s %.4f on held-out documents, best single %.4f)\n", len(e.Members), s.Metric, e.Score, e.Single)
	}
	fmt.Fprintf(w, "model        %s -> %s\n", r.Model.Kind, r.Output)
	fmt.Fprintf(w, "documents    %d\n", r.Documents)
	fmt.Fprintf(w, "classes      %d\n", s.Classes)
	fmt.Fprintf(w, "seconds      %.2f\n", r.Duration.Seconds())
	return true
}

// searched is the run of a plan with Search: the corpus in memory, the
// search, the leaderboard, then the choice fitted and saved.
func (r *run) searched() error {
	r.rep.Strategy = Searched
	what := "train --auto"
	if r.MultiLabel {
		what += " --multi-label"
	}
	c, err := r.hold(&r.Source, what)
	if err != nil {
		return err
	}
	remove := r.Source.Options.Remove.String()
	if r.MultiLabel {
		return r.searchMultiLabel(c, remove, what)
	}
	req := search.Request{
		Texts: c.Texts(), Y: c.LabelIDs(), Classes: c.Labels, Kind: r.Kind, Remove: remove,
		Options: r.Search.Options,
	}
	req.Folds, req.Progress = r.Folds, r.progress("searching")
	if r.Search.Valid != nil {
		vc, err := r.hold(r.Search.Valid, what)
		if err != nil {
			return err
		}
		req.ValidTexts = vc.Texts()
		for _, d := range vc.Docs {
			id := slices.Index(c.Labels, d.Label)
			if id < 0 {
				return fmt.Errorf("%s: label %q is not a class of the training corpus", r.Search.ValidName, d.Label)
			}
			req.ValidY = append(req.ValidY, id)
		}
	}
	t, err := search.Train(req)
	if err != nil {
		return err
	}
	res := t.Result
	if err := r.leaderboard(res.WriteJSON, res.WriteTable); err != nil {
		return err
	}
	r.rep.Search = &SearchReport{Chosen: res.Best().Describe(), Metric: res.Metric, Classes: len(c.Labels)}
	if t.X == nil { // an ensemble, or the single model it fell back to
		r.rep.Search.Ensemble = res.Ensemble
		r.rep.Model, r.rep.Documents = t.Model, len(c.Docs)
		return r.save(t.Model, false)
	}
	return r.saveFitted(t.Model, t.X, nil, req.Y, len(c.Docs), res.Best().Spec.Params, t.Calibration)
}

// searchMultiLabel is the multi-label search of the documents of c, and
// the save of its choice.
func (r *run) searchMultiLabel(c *corpus.Corpus, remove, what string) error {
	sets, labels := LabelSets(c)
	if len(labels) < 2 {
		return fmt.Errorf("--multi-label needs at least two labels, got %d", len(labels))
	}
	Y, _ := eval.MapLabelSets(labels, sets)
	opt := r.Search.Options
	req := search.MultiLabelRequest{
		Texts: c.Texts(), Y: Y, Labels: labels, Kind: r.Kind, Remove: remove,
		Metric: opt.Metric, Budget: opt.Budget, Spent: opt.Spent, Seed: opt.Seed, Workers: opt.Workers,
		Progress: r.progress("searching"),
	}
	switch {
	case opt.FixedDefaults:
	case !r.changed("follow-profile"):
		req.Defaults = search.ProfileDefaultsMultiLabel(req.Texts, c.LabelIDs(), len(c.Labels), len(labels))
	default:
		req.Defaults = search.ProfileDefaults(req.Texts, c.LabelIDs(), len(c.Labels))
	}
	if r.Search.Valid != nil {
		vc, err := r.hold(r.Search.Valid, what)
		if err != nil {
			return err
		}
		vsets, _ := LabelSets(vc)
		vY, unknown := eval.MapLabelSets(labels, vsets)
		if len(unknown) > 0 {
			return fmt.Errorf("%s: labels that are not labels of the training corpus: %s", r.Search.ValidName, countList(unknown))
		}
		req.ValidTexts, req.ValidY = vc.Texts(), vY
	}
	t, err := search.TrainMultiLabel(req)
	if err != nil {
		return err
	}
	if err := r.leaderboard(t.Result.WriteJSON, t.Result.WriteTable); err != nil {
		return err
	}
	r.rep.Search = &SearchReport{Chosen: t.Result.Best().Describe()}
	return r.saveMultiLabel(t.Model, t.X, Y, labels, len(c.Docs), t.Params)
}

// leaderboard writes the search's leaderboard to Search.Leaderboard, by
// json or by table.
func (r *run) leaderboard(json func(io.Writer) error, table func(io.Writer, int) error) error {
	w := r.Search.Leaderboard
	switch {
	case w == nil:
		return nil
	case r.Search.JSON:
		return json(w)
	}
	if err := table(w, LeaderboardRows); err != nil {
		return err
	}
	if r.Summary {
		fmt.Fprintln(w)
	}
	return nil
}

// hold reads src whole, once it is known to fit the memory budget of the
// run named what.
func (r *run) hold(src *Source, what string) (*corpus.Corpus, error) {
	if err := src.CheckHold(r.Budget, what); err != nil {
		return nil, err
	}
	return src.Load()
}

// countList lists the keys of counts, sorted, each with its count:
// "a (2), b (1)".
func countList(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = fmt.Sprintf("%s (%d)", k, counts[k])
	}
	return strings.Join(keys, ", ")
}

// SearchCV estimates the search of p (p.Search) by nested k-fold
// cross-validation of the corpus p.Source (search.NestedCV; the inner
// searches use train.DefaultFolds), noting what each outer fold chose,
// and returns the outer folds' evaluation, topK as eval.CrossValidate
// counts it.
func SearchCV(p *Plan, k, topK int) (*eval.CVResult, error) {
	r := &run{Plan: p, start: time.Now(), rep: &Report{}}
	c, err := r.hold(&p.Source, "eval --cv --auto")
	if err != nil {
		return nil, err
	}
	texts := c.Texts()
	opt := p.Search.Options
	opt.Folds = train.DefaultFolds
	res, searches, err := search.NestedCV(texts, c.LabelIDs(), c.Labels, search.SpaceFor(texts, p.Kind), p.Source.Options.Remove.String(), k, opt.Seed, opt, topK)
	if err != nil {
		return nil, err
	}
	for f, s := range searches {
		chosen := s.Best().Describe()
		if e := s.Ensemble; e != nil && e.Used {
			chosen = fmt.Sprintf("an ensemble of %d led by %s", len(e.Members), chosen)
		}
		r.note("fold %d: chose %s (inner %s %.4f, %d of %d candidates scored)",
			f+1, chosen, s.Metric, s.Leaderboard[0].Mean, s.Scored, s.Candidates)
	}
	return res, nil
}
