package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/search"
)

// writeCorpus writes a TSV corpus of n documents per label, each made of
// words of its label's vocabulary and words shared by all, and returns
// its path.
func writeCorpus(t *testing.T, name string, labels []string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		for l, label := range labels {
			fmt.Fprintf(&b, "%s\t%s%d %s%d common%d word%d %s%d\n", label,
				label, i%7, label, (i*3+l)%5, i%4, (i+l)%9, label, i%3)
		}
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func searchPlan(t *testing.T, corpusPath, budget string) *Plan {
	t.Helper()
	b, err := search.ParseBudget(budget)
	if err != nil {
		t.Fatal(err)
	}
	return &Plan{
		Source:  Source{Paths: []string{corpusPath}, Splits: []string{""}},
		Output:  filepath.Join(t.TempDir(), "m.nbm"),
		Meta:    model.Meta{Version: "test", CreatedBy: "pipeline test"},
		Workers: 1, Folds: 3, Summary: true,
		Search: &Search{Options: search.Options{Seed: 1, Budget: b, Workers: 1}},
	}
}

// TestRunSearched: a plan with Search runs the search, writes its
// leaderboard (a table, then a blank line), saves the chosen model and
// reports what it chose; the same plan with JSON writes the leaderboard as
// JSON; a --valid corpus with a label the training corpus lacks is an
// error naming it.
func TestRunSearched(t *testing.T) {
	labels := []string{"ham", "spam", "eggs"}
	path := writeCorpus(t, "train.tsv", labels, 20)
	p := searchPlan(t, path, "evals:3")
	p.Kind = model.Multinomial
	p.Search.Options.EnsembleRounds = 0
	var board bytes.Buffer
	p.Search.Leaderboard = &board
	rep, err := Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Strategy != Searched || rep.Strategy.String() != "searched" {
		t.Errorf("strategy %v, want searched", rep.Strategy)
	}
	if rep.Search == nil || !strings.HasPrefix(rep.Search.Chosen, "multinomial ") {
		t.Fatalf("search report %+v: want a multinomial choice (--model narrows the search)", rep.Search)
	}
	if !strings.HasPrefix(board.String(), "search: ") || !strings.HasSuffix(board.String(), "\n\n") {
		t.Errorf("leaderboard:\n%s\nwant the table and a blank line", board.String())
	}
	m, err := model.Load(p.Output)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != model.Multinomial || len(m.Classes) != len(labels) || m.Meta.CreatedBy != "pipeline test" || len(m.Meta.Auto) == 0 {
		t.Errorf("saved model: kind %v, classes %v, meta %+v", m.Kind, m.Classes, m.Meta)
	}
	if rep.Documents != 3*20 || !rep.HasAccuracy {
		t.Errorf("report: %d documents, accuracy %v", rep.Documents, rep.HasAccuracy)
	}
	var sum bytes.Buffer
	rep.Write(&sum)
	if !strings.HasPrefix(sum.String(), "chosen       multinomial ") || !strings.Contains(sum.String(), "train acc") {
		t.Errorf("summary:\n%s", sum.String())
	}

	p = searchPlan(t, path, "evals:2")
	board.Reset()
	p.Search.Leaderboard, p.Search.JSON = &board, true
	if _, err := Run(p); err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(board.Bytes(), &res); err != nil || res["leaderboard"] == nil {
		t.Errorf("JSON leaderboard: %v\n%s", err, board.String())
	}

	p = searchPlan(t, path, "evals:2")
	valid := writeCorpus(t, "valid.tsv", []string{"ham", "toast"}, 3)
	p.Search.Valid, p.Search.ValidName = &Source{Paths: []string{valid}, Splits: []string{""}}, "valid.tsv"
	if _, err := Run(p); err == nil || !strings.Contains(err.Error(), `valid.tsv: label "toast" is not a class of the training corpus`) {
		t.Errorf("--valid with an unknown label: %v", err)
	}
}

// TestRunSearchedOverBudget: a searched run refuses a corpus that would
// not fit the memory budget held in memory, naming the command.
func TestRunSearchedOverBudget(t *testing.T) {
	p := searchPlan(t, writeCorpus(t, "train.tsv", []string{"a", "b"}, 50), "evals:2")
	p.Budget = membudget.Budget{Bytes: 1000, Source: "--mem"}
	_, err := Run(p)
	if err == nil || !strings.HasPrefix(err.Error(), "train --auto holds every document in memory") {
		t.Errorf("err = %v", err)
	}
	p.MultiLabel = true
	if _, err = Run(p); err == nil || !strings.HasPrefix(err.Error(), "train --auto --multi-label holds") {
		t.Errorf("multi-label: err = %v", err)
	}
	if _, err := os.Stat(p.Output); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote %s", p.Output)
	}
}

// TestSearchCV: the nested cross-validation of the search evaluates every
// document once, over k outer folds, and notes each fold's choice.
func TestSearchCV(t *testing.T) {
	p := searchPlan(t, writeCorpus(t, "train.tsv", []string{"ham", "spam"}, 15), "evals:2")
	var notes []string
	p.Note = func(msg string) { notes = append(notes, msg) }
	res, err := SearchCV(p, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.K != 3 || res.N != 30 || len(res.Folds) != 3 {
		t.Errorf("result: k %d, n %d, %d folds", res.K, res.N, len(res.Folds))
	}
	if len(notes) != 3 || !strings.HasPrefix(notes[2], "fold 3: chose ") {
		t.Errorf("notes %q", notes)
	}
}

// TestWriteSearchEnsemble: the summary of an ensemble (or of the
// candidate it fell back to) is the search's own.
func TestWriteSearchEnsemble(t *testing.T) {
	rep := &Report{
		Output: "m.nbm", Model: &model.Model{Kind: model.Ensemble}, Documents: 40,
		Search: &SearchReport{Chosen: "nblr C=0.01", Metric: "accuracy", Classes: 2,
			Ensemble: &search.Ensemble{Used: true, Score: 0.9, Single: 0.85, Members: make([]search.Member, 3)}},
	}
	var b bytes.Buffer
	rep.Write(&b)
	want := "chosen       ensemble of 3 (accuracy 0.9000 on held-out documents, best single 0.8500)\n" +
		"model        ensemble -> m.nbm\ndocuments    40\nclasses      2\nseconds      0.00\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	rep.Search.Ensemble = &search.Ensemble{Why: "its refit would overrun the budget"}
	b.Reset()
	rep.Write(&b)
	if !strings.HasPrefix(b.String(), "ensemble     dropped (its refit would overrun the budget)\nchosen       nblr C=0.01\n") {
		t.Errorf("dropped:\n%s", b.String())
	}
}

// TestSearchSettings: the checks of a search's settings, single- and
// multi-label (whose metric defaults to micro_f1 and which refuses an
// ensemble), and the options they resolve to.
func TestSearchSettings(t *testing.T) {
	for _, tc := range []struct {
		s                  SearchSettings
		multi, metric, ens bool
		want, wantMetric   string
	}{
		{SearchSettings{Budget: "60s", Metric: "accuracy"}, false, false, false, "", "accuracy"},
		{SearchSettings{Budget: "evals:4", Metric: "accuracy"}, true, false, false, "", "micro_f1"},
		{SearchSettings{Budget: "evals:4", Metric: "p_at_1"}, true, true, false, "", "p_at_1"},
		{SearchSettings{Budget: "5x", Metric: "accuracy"}, false, false, false, "--budget: ", ""},
		{SearchSettings{Budget: "60s", Metric: "auc"}, false, true, false, "--metric must be accuracy, macro_f1 or log_loss", ""},
		{SearchSettings{Budget: "60s", Metric: "accuracy", EnsembleRounds: -1}, false, false, false, "--ensemble must be >= 0", ""},
		{SearchSettings{Budget: "60s", Metric: "accuracy"}, true, true, false, "--metric with --auto --multi-label must be", ""},
		{SearchSettings{Budget: "60s", Metric: "accuracy"}, true, false, true, "--ensemble with --auto --multi-label", ""},
	} {
		s := tc.s
		err := s.Check(tc.multi, tc.metric, tc.ens)
		var ue *UsageError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.s, err)
		case tc.want != "" && (err == nil || !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%+v: got %v, want %q", tc.s, err, tc.want)
		case tc.want == "" && s.Metric != tc.wantMetric:
			t.Errorf("%+v: metric %q, want %q", tc.s, s.Metric, tc.wantMetric)
		}
	}
	s := SearchSettings{Budget: "evals:7", Metric: "macro_f1", EnsembleRounds: 3}
	opt := s.Options(5, 2, time.Now())
	if opt.Seed != 5 || opt.Workers != 2 || opt.Metric != "macro_f1" || opt.EnsembleRounds != 3 || opt.Budget.String() != "evals:7" || opt.Spent != 0 {
		t.Errorf("options %+v", opt)
	}
}
